package vm_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/heap"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// TestPreload: a preloaded class is initialised in the zygote phase, so
// what its static initialiser allocates lives in the zygote space; not
// preloaded, the same allocations go to the main space. A class that
// cannot be found stops the VM with a ClassNotFoundException naming it.
func TestPreload(t *testing.T) {
	var classes []*ast.Class
	for name, src := range map[string]string{
		"Holder.smali": `.class public LHolder;
.super Ljava/lang/Object;
.field public static table:[Ljava/lang/Object;
.method static constructor <clinit>()V
    .registers 3
    const/16 v0, 8
    new-array v0, v0, [Ljava/lang/Object;
    new-instance v1, Ljava/lang/Object;
    invoke-direct {v1}, Ljava/lang/Object;-><init>()V
    const/4 v2, 0
    aput-object v1, v0, v2
    sput-object v0, LHolder;->table:[Ljava/lang/Object;
    return-void
.end method
`,
		"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 2
    sget-object v0, LHolder;->table:[Ljava/lang/Object;
    return-void
.end method
`} {
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
	p := filepath.Join(t.TempDir(), "t.dex")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	inZygote := func(a uint32) bool { return a >= heap.ZygoteBase && a < heap.NonMovingBase }
	for _, preload := range []bool{true, false} {
		var sites []uint32
		hooks := &runtime.Hooks{Alloc: func(_ *runtime.Thread, s runtime.Site, _ *runtime.Class, _ uint32, a uint32) {
			if s.Method != nil && s.Method.Class.Name == "Holder" {
				sites = append(sites, a)
			}
		}}
		opts := vm.Options{ClassPath: []string{p}, Hooks: hooks}
		if preload {
			opts.Preload = []string{"Holder"}
		}
		if code, err := vm.Run(context.Background(), opts, "Main", nil); err != nil || code != 0 {
			t.Fatalf("preload %v: exit %d, %v", preload, code, err)
		}
		if len(sites) != 2 {
			t.Fatalf("preload %v: %d allocations in Holder.<clinit>, want 2", preload, len(sites))
		}
		for _, a := range sites {
			if inZygote(a) != preload {
				t.Errorf("preload %v: object at %#x, in the zygote space: %v", preload, a, inZygote(a))
			}
		}
	}
	var stderr bytes.Buffer
	code, err := vm.Run(context.Background(), vm.Options{ClassPath: []string{p}, Preload: []string{"No.Such"}, Stderr: &stderr}, "Main", nil)
	if err != nil || code != 1 || !strings.Contains(stderr.String(), `ClassNotFoundException: preloading: didn't find class "No.Such"`) {
		t.Errorf("missing preloaded class: exit %d, %v, stderr %q", code, err, stderr.String())
	}
}
