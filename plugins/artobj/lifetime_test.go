package artobj

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/plugins/artobj/chain"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// lifetimeSteps is the loop count of the program below.
const lifetimeSteps = 40

// lifetimeCut is how often the program cuts its list.
const lifetimeCut = 7

// The program whose object graph is known by construction. Each step i
// allocates node i, links it in front of the list (head), then allocates
// temp i into the register that held temp i−1 (which so becomes
// unreachable); every lifetimeCut-th step it cuts the list behind head
// (every older node becomes unreachable at once). At the end the list is
// stored in a static field (alive at exit) and the registers cleared.
var lifetimeSmali = map[string]string{
	"Node.smali": `.class public LNode;
.super Ljava/lang/Object;
.field public next:LNode;
.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method
`,
	"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.field public static keep:LNode;
.method public static main([Ljava/lang/String;)V
    .registers 8
    const/4 v0, 0
    const/4 v1, 0
    const/4 v2, 0
    const/4 v3, 0
    const/16 v4, ` + itoa(lifetimeSteps) + `
  :loop
    if-ge v3, v4, :done
    new-instance v1, LNode;
    invoke-direct {v1}, LNode;-><init>()V
    iput-object v0, v1, LNode;->next:LNode;
    move-object v0, v1
    new-instance v2, LNode;
    invoke-direct {v2}, LNode;-><init>()V
    rem-int/lit8 v5, v3, ` + itoa(lifetimeCut) + `
    if-nez v5, :skip
    const/4 v6, 0
    iput-object v6, v0, LNode;->next:LNode;
  :skip
    add-int/lit8 v3, v3, 1
    goto :loop
  :done
    sput-object v0, LMain;->keep:LNode;
    const/4 v0, 0
    const/4 v1, 0
    const/4 v2, 0
    return-void
.end method
`,
}

func itoa(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }

// unreachableAfter models the program: for each of its Node allocations
// in order (node i is allocation 2i, temp i is 2i+1), the allocation
// after which it becomes unreachable, or -1 if it stays reachable to
// the end of main (the list the static field keeps).
func unreachableAfter() []int {
	n := 2 * lifetimeSteps
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	var list []int // the nodes reachable from head, head last
	for i := range lifetimeSteps {
		list = append(list, 2*i)
		if i > 0 {
			out[2*i-1] = 2*i + 1 // temp i−1, when temp i overwrites it
		}
		if i%lifetimeCut == 0 {
			for _, k := range list[:len(list)-1] {
				out[k] = 2*i + 1 // cut after temp i's allocation
			}
			list = list[len(list)-1:]
		}
	}
	out[n-1] = n - 1 // the last temp: its register is cleared after it
	return out
}

// Under GC stress at every allocation, the death the chains record for
// each object is the collection right before the first allocation after
// the object became unreachable — the epoch it became unreachable in —
// on both collectors; objects kept to the end are alive at exit.
func TestExactLifetimesUnderStress(t *testing.T) {
	var classes []*ast.Class
	for name, src := range lifetimeSmali {
		c, err := smali.Parse(name, []byte(src), &smali.Options{API: 28})
		if err != nil {
			t.Fatal(err)
		}
		classes = append(classes, c)
	}
	data, err := smali.Assemble(classes, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	dex := filepath.Join(t.TempDir(), "lifetime.dex")
	if err := os.WriteFile(dex, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := unreachableAfter()
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	for _, collector := range []string{"cms", "ss"} {
		t.Run(collector, func(t *testing.T) {
			cfg := map[string]any{"class_path": []string{dex}, "main": "Main", "gc_stress_all": true, "buffer_records": 16,
				"vm": map[string]any{"collector": collector}}
			_, r, f := collectStep(t, c, run, collector, cfg)
			if r.ExitCode != 0 {
				t.Fatalf("exit code %d", r.ExitCode)
			}
			h := chain.Build(f)
			// The program's objects, in allocation order, and where each
			// is in the order of all allocations.
			var nodes []int
			for i := range h.Objects {
				if f.Classes[h.Objects[i].Class] == "Node" {
					nodes = append(nodes, i)
				}
			}
			if len(nodes) != len(want) {
				t.Fatalf("%d Node objects recorded, the program allocates %d", len(nodes), len(want))
			}
			for k, i := range nodes {
				o := &h.Objects[i]
				expect := int64(chain.Alive)
				if u := want[k]; u >= 0 {
					// The first allocation (of anything) after allocation
					// u is preceded by the collection that must find o dead.
					if next := nodes[u] + 1; next < len(h.Objects) {
						expect = int64(h.Objects[next].Birth)
					}
				}
				if o.Death != expect {
					t.Errorf("allocation %d (node %d, %s): died at %d, want %d; chain %v", k, k/2, map[bool]string{true: "node", false: "temp"}[k%2 == 0], o.Death, expect, o)
				}
				if collector == "ss" && o.Death != chain.Alive && len(o.Chain) != int(uint32(o.Death)-o.Birth) {
					t.Errorf("allocation %d: %d addresses over %d collections survived, want one move per collection", k, len(o.Chain), uint32(o.Death)-o.Birth)
				}
			}
			t.Logf("%d objects, %d collections; node 0: %v; temp 0: %v", len(h.Objects), h.Epochs, &h.Objects[nodes[0]], &h.Objects[nodes[1]])
			// Every allocation after the zygote phase has its collection.
			if last := h.Objects[nodes[len(nodes)-1]]; last.Birth < uint32(len(nodes)) {
				t.Errorf("the last Node was born in epoch %d: fewer collections than allocations", last.Birth)
			}
		})
	}
}
