package aot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// TestLargeArrayInitialiser compiles what dx makes of a 5000-element
// String array initialiser (an aput-object per element): every bounds
// check goes (constant indices into a constant-length array), and the
// compile time stays linear (logged).
func TestLargeArrayInitialiser(t *testing.T) {
	var sb strings.Builder
	n := 5000
	fmt.Fprintf(&sb, ".class public LT;\n.super Ljava/lang/Object;\n.method public static m()[Ljava/lang/String;\n.registers 4\nconst/16 v0, %d\nnew-array v1, v0, [Ljava/lang/String;\n", n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "const/16 v2, %d\nconst-string v3, \"s%d\"\naput-object v3, v1, v2\n", i, i)
	}
	sb.WriteString("return-object v1\n.end method\n")
	cls, err := smali.Parse("T.smali", []byte(sb.String()), &smali.Options{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{cls}, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	f := readDEX(t, data)
	start := time.Now()
	var before, after int
	r := aot.Compile(f, aot.Options{Passes: ssa.Config{After: func(p string, fn *ssa.Func) {
		c := countChecks(fn)
		if p == "build" {
			before = c.bounds
		}
		if p == "deadcode2" {
			after = c.bounds
		}
	}}})
	t.Logf("%v, bounds checks %d -> %d", time.Since(start), before, after)
	if len(r.Fallbacks) > 0 || before != n || after != 0 {
		t.Errorf("%d fallbacks, bounds checks %d -> %d; want 0, %d -> 0", len(r.Fallbacks), before, after, n)
	}
}

// TestManyBlocks compiles a method of 9000 blocks (3000 self loops and
// joins) over 60 live registers: Braun's construction makes a φ per
// register and join on the way to each read, and their removal must stay
// linear (the time is logged; the first version took seconds).
func TestManyBlocks(t *testing.T) {
	var sb strings.Builder
	n, regs := 3000, 60
	fmt.Fprintf(&sb, ".class public LT;\n.super Ljava/lang/Object;\n.method public static m(I)I\n.registers %d\n", regs+1)
	for r := 0; r < regs; r++ {
		fmt.Fprintf(&sb, "const/16 v%d, %d\n", r, r)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, ":top%d\nif-eqz p0, :L%d\nadd-int/lit8 v%d, v%d, 1\nif-gtz v%d, :top%d\n:L%d\n", i, i, i%regs, (i+7)%regs, i%regs, i, i)
	}
	sb.WriteString("add-int v0, v0, v1\nreturn v0\n.end method\n")
	cls, err := smali.Parse("T.smali", []byte(sb.String()), &smali.Options{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{cls}, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	f := readDEX(t, data)
	start := time.Now()
	r := aot.Compile(f, aot.Options{})
	t.Logf("%v for %d code units", time.Since(start), r.Bytecodes)
	if len(r.Fallbacks) > 0 {
		t.Errorf("fallback: %v", r.Fallbacks[0].Reason)
	}
}
