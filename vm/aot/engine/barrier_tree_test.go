package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// treeBarrierMethods are methods whose array loads (and store) with their
// barriers form one expression tree. %[1]s is put between the accesses:
// empty, or a static store, an effect that keeps the accesses out of a
// common tree, so that each barrier runs as an instruction of its own.
const treeBarrierMethods = `
.field static sink:I

.method static dd([D[DI)D
    .registers 7
    aget-wide v0, p0, p2
    %[1]s
    aget-wide v2, p1, p2
    add-double/2addr v0, v2
    return-wide v0
.end method

.method static ii([I[II)I
    .registers 5
    aget v0, p0, p2
    %[1]s
    aget v1, p1, p2
    add-int/2addr v0, v1
    return v0
.end method

.method static idx([D[II)D
    .registers 8
    aget v0, p1, p2
    %[1]s
    aget-wide v1, p0, v0
    const-wide/high16 v3, 0x4000000000000000L
    mul-double/2addr v1, v3
    return-wide v1
.end method

.method static put([D[DID)V
    .registers 8
    aget-wide v0, p0, p2
    add-double/2addr v0, p3
    %[1]s
    aput-wide v0, p1, p2
    return-void
.end method
`

// treeBarrierCalls are the calls main makes, each caught: v1 double[4],
// v2 double[8], v3 int[4], v4 int[8], v5 int[4] and v6 int[8] of 6s,
// v7 null, v8 index 5, v9 index 1, v10-v11 a double. Each method runs
// without a throw, with its first access throwing (so the barriers after
// it must not run) and with its last access throwing.
var treeBarrierCalls = []string{
	"{v2, v2, v9}, LMain;->dd([D[DI)D", "{v1, v2, v8}, LMain;->dd([D[DI)D", "{v2, v1, v8}, LMain;->dd([D[DI)D", "{v7, v2, v9}, LMain;->dd([D[DI)D",
	"{v4, v4, v9}, LMain;->ii([I[II)I", "{v3, v4, v8}, LMain;->ii([I[II)I", "{v4, v3, v8}, LMain;->ii([I[II)I", "{v4, v7, v9}, LMain;->ii([I[II)I",
	"{v2, v6, v9}, LMain;->idx([D[II)D", "{v2, v5, v8}, LMain;->idx([D[II)D", "{v1, v6, v9}, LMain;->idx([D[II)D", "{v7, v6, v9}, LMain;->idx([D[II)D",
	"{v2, v2, v9, v10, v11}, LMain;->put([D[DID)V", "{v1, v2, v8, v10, v11}, LMain;->put([D[DID)V", "{v2, v1, v8, v10, v11}, LMain;->put([D[DID)V", "{v2, v7, v9, v10, v11}, LMain;->put([D[DID)V",
}

func treeBarrierProgram(sep string) string {
	var b strings.Builder
	b.WriteString(smaliHeader + printObj + fmt.Sprintf(treeBarrierMethods, sep))
	b.WriteString(`
.method public static main([Ljava/lang/String;)V
    .registers 14
    const/4 v0, 4
    new-array v1, v0, [D
    new-array v3, v0, [I
    new-array v5, v0, [I
    fill-array-data v5, :four
    const/16 v0, 8
    new-array v2, v0, [D
    new-array v4, v0, [I
    new-array v6, v0, [I
    fill-array-data v6, :eight
    const/4 v7, 0
    const/4 v8, 5
    const/4 v9, 1
    const-wide/high16 v10, 0x3ff0000000000000L
`)
	for i, c := range treeBarrierCalls {
		fmt.Fprintf(&b, `  :t%[1]d_start
    invoke-static %[2]s
  :t%[1]d_end
    .catch Ljava/lang/RuntimeException; {:t%[1]d_start .. :t%[1]d_end} :c%[1]d
    goto :n%[1]d
  :c%[1]d
    move-exception v12
    invoke-static {v12}, LMain;->ps(Ljava/lang/Object;)V
  :n%[1]d
`, i, c)
	}
	b.WriteString(`    return-void
  :four
    .array-data 4
        6 6 6 6
    .end array-data
  :eight
    .array-data 4
        6 6 6 6 6 6 6 6
    .end array-data
.end method
`)
	return b.String()
}

// TestBarriersInTrees: array accesses whose barriers are done by their
// expression tree (markBar) run exactly the barriers they run as
// instructions of their own — none after an access that threw, the
// store's after its value — with the same cache hits and the same
// output: each program is run with its accesses in one tree and split
// by a static store, at every level, and the two must agree.
func TestBarriersInTrees(t *testing.T) {
	run := func(sep, level string) (string, engine.BarrierStats, string) {
		class, err := smali.Parse("Main.smali", []byte(treeBarrierProgram(sep)), &smali.Options{API: 28})
		if err != nil {
			t.Fatal(err)
		}
		data, err := smali.Assemble([]*ast.Class{class}, &smali.AssembleOptions{API: 28})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "t.dex")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		bad := ""
		hooks := &runtime.Hooks{Accesses: func(count int, b *gc.AccessBitmap) {
			if a, diff := b.FirstDifference(b.Shadow); diff && bad == "" {
				bad = fmt.Sprintf("collection %d: %#x", count, a)
			}
		}}
		v, err := vm.New(vm.Options{ClassPath: []string{p}, Stdout: &out, Stderr: &out, Engine: "aot", Barriers: level, CheckBarriers: true, Hooks: hooks})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.RunMain(context.Background(), "Main", nil); err != nil {
			t.Fatal(err)
		}
		if a, diff := v.AccessBitmap().FirstDifference(v.AccessBitmap().Shadow); diff && bad == "" {
			bad = fmt.Sprintf("at the end: %#x", a)
		}
		return out.String(), v.Engine.(*engine.Engine).Stats().Barriers, bad
	}
	for _, l := range ssa.BarrierLevels {
		t.Run(l.String(), func(t *testing.T) {
			split, ss, _ := run("sput p2, LMain;->sink:I", l.String())
			if n := strings.Count(split, "Exception"); n != 3*len(treeBarrierCalls)/4 {
				t.Fatalf("%d exceptions, want one for each call meant to throw; output:\n%s", n, split)
			}
			tree, ts, bad := run("", l.String())
			if tree != split {
				t.Errorf("output in one tree:\n%s\nsplit:\n%s", tree, split)
			}
			if ts.Executed != ss.Executed || ts.CacheHits != ss.CacheHits {
				t.Errorf("barriers run (cache hits) in one tree %d (%d), split %d (%d)", ts.Executed, ts.CacheHits, ss.Executed, ss.CacheHits)
			}
			if bad != "" {
				t.Errorf("the bitmap differs from the check barriers' %s", bad)
			}
		})
	}
}
