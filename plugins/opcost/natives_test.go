package opcost

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// The native meter counts every call of each native a program makes and
// times those that run no bytecode: a program calls identityHashCode
// 1 000 times and arraycopy of 65 536 ints 300 times.
func TestNativeMeter(t *testing.T) {
	const hashes, copies, elems = 1000, 300, 65536
	cb := smali.NewClass("Lnm/Main;", ast.AccPublic).Super("Ljava/lang/Object;")
	m := cb.Method(ast.AccPublic|ast.AccStatic, "main", "([Ljava/lang/String;)V").Registers(9)
	m.Op("new-instance", smali.V(0), smali.TypeRef("Ljava/lang/Object;")).
		Op("invoke-direct", smali.Regs(smali.V(0)), smali.MethodRef("Ljava/lang/Object;", "<init>", "()V")).
		Op("const/16", smali.V(1), ast.Int(hashes)).
		Label("hash").
		Op("invoke-static", smali.Regs(smali.V(0)), smali.MethodRef("Ljava/lang/System;", "identityHashCode", "(Ljava/lang/Object;)I")).
		Op("move-result", smali.V(2)).
		Op("add-int/lit8", smali.V(1), smali.V(1), ast.Int(-1)).
		Op("if-gtz", smali.V(1), smali.LabelRef("hash")).
		Op("const", smali.V(3), ast.Int(elems)).
		Op("new-array", smali.V(4), smali.V(3), smali.TypeRef("[I")).
		Op("const/4", smali.V(5), ast.Int(0)).
		Op("new-array", smali.V(6), smali.V(3), smali.TypeRef("[I")).
		Op("const/4", smali.V(7), ast.Int(0)).
		Op("move", smali.V(8), smali.V(3)).
		Op("const/16", smali.V(1), ast.Int(copies)).
		Label("copy").
		Op("invoke-static/range", smali.Range(smali.V(4), smali.V(8)), smali.MethodRef("Ljava/lang/System;", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V")).
		Op("add-int/lit8", smali.V(1), smali.V(1), ast.Int(-1)).
		Op("if-gtz", smali.V(1), smali.LabelRef("copy")).
		Op("return-void")
	cls, err := cb.Build(&smali.Options{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{cls}, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "nm.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	meter := newNativeMeter()
	opts := vm.Options{ClassPath: []string{path}, Engine: "interp", Hooks: &runtime.Hooks{CountOpcodes: true, WrapNative: meter.wrap}}
	if _, err := runProgram(context.Background(), opts, "nm.Main", nil); err != nil {
		t.Fatal(err)
	}
	got := map[string]NativeCalls{}
	for _, n := range meter.calls() {
		got[n.Method] = n
	}
	hash := got["Ljava/lang/System;->identityHashCode(Ljava/lang/Object;)I"]
	copy := got["Ljava/lang/System;->arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V"]
	if hash.Calls != hashes || hash.Timed != hashes || copy.Calls != copies || copy.Timed != copies {
		t.Fatalf("identityHashCode %+v, arraycopy %+v; want %d and %d calls, all timed", hash, copy, hashes, copies)
	}
	// Copying 65 536 ints costs more than hashing one object's address.
	if !(copy.PerCall() > 4*hash.PerCall()) || hash.PerCall() <= 0 {
		t.Errorf("arraycopy %.0f ns per call, identityHashCode %.0f", copy.PerCall(), hash.PerCall())
	}
	t.Logf("arraycopy of %d ints %.0f ns per call, identityHashCode %.0f ns; the clock's own cost %d ns", elems, copy.PerCall(), hash.PerCall(), meter.clockNS)
}
