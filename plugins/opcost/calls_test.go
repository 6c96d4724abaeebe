package opcost

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// BenchmarkCallShapes measures what one call costs in the shapes real
// programs make, against the table's invoke (a loop of calls of an empty
// method without arguments): with an argument and a returned value, with
// four, through a virtual call, and recursive (fib, whose calls the
// cost model underestimates by some 12 ns each). Each shape runs n calls
// in a program of its own, timed on the thread CPU clock; the shapes
// alternate within each iteration, and the loop without a call is
// subtracted. Reported: ns per call, the median over the iterations.
func BenchmarkCallShapes(b *testing.B) {
	const fibN = 25
	calls := 2*fibonacci(fibN+1) - 1 // fib(25)'s calls, the first included
	shapes := []struct {
		name string
		body func(m *smali.MethodBuilder)
	}{
		{"loop", func(m *smali.MethodBuilder) {}},
		{"static-()V", func(m *smali.MethodBuilder) {
			m.Op("invoke-static", smali.Regs(), smali.MethodRef("Lcs/Main;", "empty", "()V"))
		}},
		{"static-(I)I", func(m *smali.MethodBuilder) {
			m.Op("invoke-static", smali.Regs(smali.V(1)), smali.MethodRef("Lcs/Main;", "leaf", "(I)I")).Op("move-result", smali.V(2))
		}},
		{"static-(IIII)I", func(m *smali.MethodBuilder) {
			m.Op("invoke-static", smali.Regs(smali.V(1), smali.V(2), smali.V(1), smali.V(2)), smali.MethodRef("Lcs/Main;", "leaf4", "(IIII)I")).Op("move-result", smali.V(2))
		}},
		{"virtual-(I)I", func(m *smali.MethodBuilder) {
			m.Op("invoke-virtual", smali.Regs(smali.V(3), smali.V(1)), smali.MethodRef("Lcs/Main;", "vleaf", "(I)I")).Op("move-result", smali.V(2))
		}},
	}
	cb := smali.NewClass("Lcs/Main;", ast.AccPublic).Super("Ljava/lang/Object;")
	cb.Method(ast.AccPublic|ast.AccConstructor, "<init>", "()V").Registers(1).
		Op("invoke-direct", smali.Regs(smali.P(0)), smali.MethodRef("Ljava/lang/Object;", "<init>", "()V")).Op("return-void")
	cb.Method(ast.AccPublic|ast.AccStatic, "empty", "()V").Registers(0).Op("return-void")
	cb.Method(ast.AccPublic|ast.AccStatic, "leaf", "(I)I").Registers(1).Op("return", smali.P(0))
	cb.Method(ast.AccPublic|ast.AccStatic, "leaf4", "(IIII)I").Registers(4).Op("return", smali.P(3))
	cb.Method(ast.AccPublic, "vleaf", "(I)I").Registers(2).Op("return", smali.P(1))
	cb.Method(ast.AccPublic|ast.AccStatic, "fib", "(I)I").Registers(3).
		Op("const/4", smali.V(0), ast.Int(2)).
		Op("if-ge", smali.P(0), smali.V(0), smali.LabelRef("rec")).
		Op("return", smali.P(0)).
		Label("rec").
		Op("add-int/lit8", smali.V(0), smali.P(0), ast.Int(-1)).
		Op("invoke-static", smali.Regs(smali.V(0)), smali.MethodRef("Lcs/Main;", "fib", "(I)I")).
		Op("move-result", smali.V(0)).
		Op("add-int/lit8", smali.V(1), smali.P(0), ast.Int(-2)).
		Op("invoke-static", smali.Regs(smali.V(1)), smali.MethodRef("Lcs/Main;", "fib", "(I)I")).
		Op("move-result", smali.V(1)).
		Op("add-int/2addr", smali.V(0), smali.V(1)).
		Op("return", smali.V(0))
	// main(args): args[0] picks the shape (0…len(shapes)−1 a loop of n
	// calls, len(shapes) fib), args[1] is n.
	m := cb.Method(ast.AccPublic|ast.AccStatic, "main", "([Ljava/lang/String;)V").Registers(8)
	parse := smali.MethodRef("Ljava/lang/Integer;", "parseInt", "(Ljava/lang/String;)I")
	m.Op("const/4", smali.V(0), ast.Int(0)).Op("aget-object", smali.V(0), smali.P(0), smali.V(0)).
		Op("invoke-static", smali.Regs(smali.V(0)), parse).Op("move-result", smali.V(5)).
		Op("const/4", smali.V(0), ast.Int(1)).Op("aget-object", smali.V(0), smali.P(0), smali.V(0)).
		Op("invoke-static", smali.Regs(smali.V(0)), parse).Op("move-result", smali.V(0)).
		Op("new-instance", smali.V(3), smali.TypeRef("Lcs/Main;")).
		Op("invoke-direct", smali.Regs(smali.V(3)), smali.MethodRef("Lcs/Main;", "<init>", "()V"))
	for i, s := range shapes {
		l := "shape" + strconv.Itoa(i)
		m.Op("const/4", smali.V(4), ast.Int(int32(i))).Op("if-ne", smali.V(5), smali.V(4), smali.LabelRef(l+"_next")).
			Op("const/4", smali.V(1), ast.Int(0)).Op("const/4", smali.V(2), ast.Int(0)).
			Label(l)
		s.body(m)
		m.Op("add-int/lit8", smali.V(1), smali.V(1), ast.Int(1)).Op("if-lt", smali.V(1), smali.V(0), smali.LabelRef(l)).
			Op("return-void").
			Label(l + "_next")
	}
	m.Op("invoke-static", smali.Regs(smali.V(0)), smali.MethodRef("Lcs/Main;", "fib", "(I)I")).Op("return-void")
	cls, err := cb.Build(&smali.Options{API: 28})
	if err != nil {
		b.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{cls}, &smali.AssembleOptions{API: 28})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "cs.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	samples := make([][]float64, len(shapes)+1)
	for b.Loop() {
		for i := range samples {
			n := calls
			if i == len(shapes) {
				n = fibN
			}
			ns, err := timedRun(context.Background(), vm.Options{ClassPath: []string{path}, Engine: "interp"}, "cs.Main", []string{strconv.Itoa(i), strconv.Itoa(n)})
			if err != nil {
				b.Fatal(err)
			}
			samples[i] = append(samples[i], float64(ns))
		}
	}
	med := make([]float64, len(samples))
	for i, s := range samples {
		slices.Sort(s)
		med[i] = s[len(s)/2]
	}
	for i, s := range shapes[1:] {
		b.ReportMetric((med[i+1]-med[0])/float64(calls), s.name+"-ns/call")
	}
	// fib's own work besides its calls (a compare, a branch, two
	// subtractions, an add, two move-results, a return) is left in.
	b.ReportMetric(med[len(shapes)]/float64(calls), "fib-ns/call")
}

func fibonacci(n int) int {
	a, b := 0, 1
	for range n {
		a, b = b, a+b
	}
	return a
}
