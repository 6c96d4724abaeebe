package opcost

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// The call shapes: what the table's invoke benchmarks (a loop of calls
// of an empty method without arguments) leave out of a real call, each
// measured by a program of its own — the cost of an argument word, and
// of a recursive call (fib's calls cost some 8 ns more than the table
// says; see BENCHMARKS.md). The recursion is measured on a tree
// recursion of its own (nodes(d) = 1 + nodes(d − 1) + nodes(d − 1), the
// shape of fib's and a game search's calls), not on fib, which is one of
// the workloads the model predicts.

// fibN is the fib whose number of calls every shape makes.
const fibN = 25

// treeDepth is the depth of the recursion shape's trees: a call of
// nodes(treeDepth) makes treeCalls calls, all but the first recursive.
const (
	treeDepth = 13
	treeCalls = 1<<(treeDepth+1) - 1
)

// shapeNames are the call-shape programs' shapes, in the driver's order
// (the recursion last). mono-virtual and poly-virtual are one call site
// of a virtual method whose receiver a pseudo-random bit picks from two
// objects: of one class, or of two classes whose methods differ — the
// target changes at half the calls, in an order the host cannot learn.
var shapeNames = []string{"loop", "static-()V", "static-(I)I", "static-(IIII)I", "virtual-(I)I", "mono-virtual", "poly-virtual", "recursion"}

// CallShapes are the call-shape programs' measurements.
type CallShapes struct {
	Calls int `json:"calls"` // per run of each shape
	// Samples[shape] are the thread CPU times of its runs, ns, in the
	// order of shapeNames.
	Samples map[string][]int64 `json:"samples_ns"`
	// Trees are the recursion shape's calls of nodes(treeDepth) per run:
	// Trees × treeCalls calls, Trees × (treeCalls − 1) of them recursive.
	Trees int `json:"trees"`
	// RecursionCounts are the recursion shape's executed instructions by
	// opcode (a counting run), to price its body with the cost table.
	RecursionCounts map[string]uint64 `json:"recursion_counts"`
	// LeafCounts are the same for the shape static-(I)I, whose run is
	// what the recursion's is compared with: the same calls, none of
	// them recursive, and the VM's start-up in both.
	LeafCounts map[string]uint64 `json:"leaf_counts"`
	// MonoCounts and PolyCounts are the executed instructions of the
	// shapes mono-virtual and poly-virtual, and PolySwitches the calls of
	// poly-virtual whose target differs from its call site's last one,
	// less mono-virtual's (counting runs): a switch's cost is what poly-virtual costs beyond
	// mono-virtual, each less its instructions priced by the table.
	MonoCounts   map[string]uint64 `json:"mono_counts,omitempty"`
	PolyCounts   map[string]uint64 `json:"poly_counts,omitempty"`
	PolySwitches uint64            `json:"poly_switches,omitempty"`
}

// callSite is an invoke instruction: the calling method and its dex pc.
type callSite struct {
	method *runtime.Method
	pc     int
}

// switchMeter counts the calls of bytecode methods whose target differs
// from the last one of the same call site. In the interpreter every Java
// instruction goes through one host indirect jump; the callee's first
// instructions after such a switch are the ones the host's branch
// predictor foresaw for the other target, and it pays for the
// mispredictions (BENCHMARKS.md, session 12).
type switchMeter struct {
	last     map[callSite]*runtime.Method
	switches uint64
}

// entry is a MethodEntry hook; the caller's frame holds the invoke's pc.
func (s *switchMeter) entry(t *runtime.Thread, callee *runtime.Method) {
	if callee.Code == nil || len(t.Frames) < 2 {
		return
	}
	if s.last == nil {
		s.last = map[callSite]*runtime.Method{}
	}
	f := t.Frames[len(t.Frames)-2]
	k := callSite{f.Method, f.PC}
	if prev, ok := s.last[k]; ok && prev != callee {
		s.switches++
	}
	s.last[k] = callee
}

// callShapesDEX builds the call-shape program: "cs.Main SHAPE N" runs
// shape SHAPE (an index of shapeNames) with N calls, or N trees of
// nodes(treeDepth).
func callShapesDEX() ([]byte, error) {
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
		{"mono-virtual", func(m *smali.MethodBuilder) { pickedCall(m, 6) }},
		{"poly-virtual", func(m *smali.MethodBuilder) { pickedCall(m, 7) }},
	}
	// Lcs/A; and Lcs/B; (a subclass) are poly-virtual's two targets.
	a := smali.NewClass("Lcs/A;", ast.AccPublic).Super("Ljava/lang/Object;")
	a.Method(ast.AccPublic|ast.AccConstructor, "<init>", "()V").Registers(1).
		Op("invoke-direct", smali.Regs(smali.P(0)), smali.MethodRef("Ljava/lang/Object;", "<init>", "()V")).Op("return-void")
	a.Method(ast.AccPublic, "pick", "(I)I").Registers(3).
		Op("add-int/lit8", smali.V(0), smali.P(1), ast.Int(1)).Op("return", smali.V(0))
	b := smali.NewClass("Lcs/B;", ast.AccPublic).Super("Lcs/A;")
	b.Method(ast.AccPublic|ast.AccConstructor, "<init>", "()V").Registers(1).
		Op("invoke-direct", smali.Regs(smali.P(0)), smali.MethodRef("Lcs/A;", "<init>", "()V")).Op("return-void")
	b.Method(ast.AccPublic, "pick", "(I)I").Registers(3).
		Op("mul-int/lit8", smali.V(0), smali.P(1), ast.Int(3)).Op("xor-int/2addr", smali.V(0), smali.P(1)).Op("return", smali.V(0))
	cb := smali.NewClass("Lcs/Main;", ast.AccPublic).Super("Ljava/lang/Object;")
	cb.Method(ast.AccPublic|ast.AccConstructor, "<init>", "()V").Registers(1).
		Op("invoke-direct", smali.Regs(smali.P(0)), smali.MethodRef("Ljava/lang/Object;", "<init>", "()V")).Op("return-void")
	cb.Method(ast.AccPublic|ast.AccStatic, "empty", "()V").Registers(0).Op("return-void")
	cb.Method(ast.AccPublic|ast.AccStatic, "leaf", "(I)I").Registers(1).Op("return", smali.P(0))
	cb.Method(ast.AccPublic|ast.AccStatic, "leaf4", "(IIII)I").Registers(4).Op("return", smali.P(3))
	cb.Method(ast.AccPublic, "vleaf", "(I)I").Registers(2).Op("return", smali.P(1))
	nodes := smali.MethodRef("Lcs/Main;", "nodes", "(I)I")
	cb.Method(ast.AccPublic|ast.AccStatic, "nodes", "(I)I").Registers(3).
		Op("const/4", smali.V(0), ast.Int(1)).
		Op("if-nez", smali.P(0), smali.LabelRef("rec")).
		Op("return", smali.V(0)).
		Label("rec").
		Op("add-int/lit8", smali.V(1), smali.P(0), ast.Int(-1)).
		Op("invoke-static", smali.Regs(smali.V(1)), nodes).
		Op("move-result", smali.V(2)).
		Op("add-int/2addr", smali.V(0), smali.V(2)).
		Op("invoke-static", smali.Regs(smali.V(1)), nodes).
		Op("move-result", smali.V(2)).
		Op("add-int/2addr", smali.V(0), smali.V(2)).
		Op("return", smali.V(0))
	// main(args): args[0] picks the shape (0…len(shapes)−1 a loop of n
	// calls, len(shapes) the recursion), args[1] is n.
	m := cb.Method(ast.AccPublic|ast.AccStatic, "main", "([Ljava/lang/String;)V").Registers(12)
	parse := smali.MethodRef("Ljava/lang/Integer;", "parseInt", "(Ljava/lang/String;)I")
	m.Op("const/4", smali.V(0), ast.Int(0)).Op("aget-object", smali.V(0), smali.P(0), smali.V(0)).
		Op("invoke-static", smali.Regs(smali.V(0)), parse).Op("move-result", smali.V(5)).
		Op("const/4", smali.V(0), ast.Int(1)).Op("aget-object", smali.V(0), smali.P(0), smali.V(0)).
		Op("invoke-static", smali.Regs(smali.V(0)), parse).Op("move-result", smali.V(0)).
		Op("new-instance", smali.V(3), smali.TypeRef("Lcs/Main;")).
		Op("invoke-direct", smali.Regs(smali.V(3)), smali.MethodRef("Lcs/Main;", "<init>", "()V"))
	// v6 = {A, A}, v7 = {A, B}: the receivers of mono- and poly-virtual;
	// v8 the pseudo-random state, v9 its multiplier.
	newObj := func(reg int, class string) {
		m.Op("new-instance", smali.V(reg), smali.TypeRef(class)).
			Op("invoke-direct", smali.Regs(smali.V(reg)), smali.MethodRef(class, "<init>", "()V"))
	}
	m.Op("const/4", smali.V(4), ast.Int(2)).
		Op("new-array", smali.V(6), smali.V(4), smali.TypeRef("[Lcs/A;")).
		Op("new-array", smali.V(7), smali.V(4), smali.TypeRef("[Lcs/A;"))
	newObj(10, "Lcs/A;")
	m.Op("const/4", smali.V(4), ast.Int(0)).
		Op("aput-object", smali.V(10), smali.V(6), smali.V(4)).
		Op("aput-object", smali.V(10), smali.V(7), smali.V(4)).
		Op("const/4", smali.V(4), ast.Int(1)).
		Op("aput-object", smali.V(10), smali.V(6), smali.V(4))
	newObj(10, "Lcs/B;")
	m.Op("aput-object", smali.V(10), smali.V(7), smali.V(4)).
		Op("const", smali.V(8), ast.Int(12345)).
		Op("const", smali.V(9), ast.Int(1103515245))
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
	m.Op("const/4", smali.V(1), ast.Int(0)).Op("const/16", smali.V(2), ast.Int(treeDepth)).
		Label("tree").
		Op("invoke-static", smali.Regs(smali.V(2)), nodes).Op("move-result", smali.V(4)).
		Op("add-int/lit8", smali.V(1), smali.V(1), ast.Int(1)).Op("if-lt", smali.V(1), smali.V(0), smali.LabelRef("tree")).
		Op("return-void")
	var classes []*ast.Class
	for _, c := range []*smali.ClassBuilder{a, b, cb} {
		cls, err := c.Build(&smali.Options{API: 28})
		if err != nil {
			return nil, err
		}
		classes = append(classes, cls)
	}
	return smali.Assemble(classes, &smali.AssembleOptions{API: 28})
}

// pickedCall is mono- and poly-virtual's body: a linear congruential
// step in v8, its bit 16 indexes the receiver array in register arr, and
// the receiver's pick(I)I is called. Both shapes run the same
// instructions but for their targets' bodies.
func pickedCall(m *smali.MethodBuilder, arr int) {
	m.Op("mul-int/2addr", smali.V(8), smali.V(9)).
		Op("add-int/lit16", smali.V(8), smali.V(8), ast.Int(12345)).
		Op("ushr-int/lit8", smali.V(4), smali.V(8), ast.Int(16)).
		Op("and-int/lit8", smali.V(4), smali.V(4), ast.Int(1)).
		Op("aget-object", smali.V(10), smali.V(arr), smali.V(4)).
		Op("invoke-virtual", smali.Regs(smali.V(10), smali.V(1)), smali.MethodRef("Lcs/A;", "pick", "(I)I")).
		Op("move-result", smali.V(2))
}

// measureCallShapes runs every shape measurements times, the shapes
// alternating within each round (the host's load drifts between rounds,
// not within one), after a counting run of the recursion.
func measureCallShapes(ctx context.Context, dir string, measurements int, engine string, gcCfg gc.Config) (*CallShapes, error) {
	data, err := callShapesDEX()
	if err != nil {
		return nil, fmt.Errorf("opcost: call shapes: %w", err)
	}
	path := filepath.Join(dir, "callshapes.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return nil, err
	}
	defer os.Remove(path)
	calls := 2*fibonacci(fibN+1) - 1
	cs := &CallShapes{Calls: calls, Trees: calls / treeCalls, Samples: map[string][]int64{}}
	var sw switchMeter
	count := func(shape string, n int) (map[string]uint64, error) {
		i := strconv.Itoa(slices.Index(shapeNames, shape))
		sw = switchMeter{}
		hooks := &runtime.Hooks{CountOpcodes: true, MethodEntry: func(t *runtime.Thread, m *runtime.Method, _ int, _ int64) { sw.entry(t, m) }}
		v, err := runProgram(ctx, vm.Options{ClassPath: []string{path}, GC: gcCfg, Engine: "interp", Hooks: hooks}, "cs.Main", []string{i, strconv.Itoa(n)})
		if err != nil {
			return nil, fmt.Errorf("opcost: call shapes: counting %s: %w", shape, err)
		}
		out := map[string]uint64{}
		for op, n := range v.OpCounts() {
			if n > 0 {
				out[dex.Opcode(op).Info().Name] = n
			}
		}
		return out, nil
	}
	if cs.RecursionCounts, err = count("recursion", cs.Trees); err != nil {
		return nil, err
	}
	if cs.LeafCounts, err = count("static-(I)I", calls); err != nil {
		return nil, err
	}
	if cs.MonoCounts, err = count("mono-virtual", calls); err != nil {
		return nil, err
	}
	// The start-up's own switches (a couple, in the core library) are
	// both shapes'.
	monoSwitches := sw.switches
	if cs.PolyCounts, err = count("poly-virtual", calls); err != nil {
		return nil, err
	}
	if sw.switches <= monoSwitches {
		return nil, fmt.Errorf("opcost: call shapes: poly-virtual switched targets %d times, mono-virtual %d", sw.switches, monoSwitches)
	}
	cs.PolySwitches = sw.switches - monoSwitches
	opts := vm.Options{ClassPath: []string{path}, GC: gcCfg, Engine: engine}
	for range measurements {
		for i, name := range shapeNames {
			n := calls
			if name == "recursion" {
				n = cs.Trees
			}
			ns, err := timedRun(ctx, opts, "cs.Main", []string{strconv.Itoa(i), strconv.Itoa(n)})
			if err != nil {
				return nil, fmt.Errorf("opcost: call shape %s: %w", name, err)
			}
			cs.Samples[name] = append(cs.Samples[name], ns)
		}
	}
	return cs, nil
}

func fibonacci(n int) int {
	a, b := 0, 1
	for range n {
		a, b = b, a+b
	}
	return a
}
