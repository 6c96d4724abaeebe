// Package microbench generates opcost's micro-benchmarks (paper 004, §3):
// for each Dalvik opcode a static method whose loop body is N copies of
// the instruction, with the setup that keeps every copy valid (non-zero
// divisors, in-bounds indices, non-null receivers, resolved classes), and
// the loop's own cost measured by an empty twin. The programs are built as
// smali trees (vm/smali) and assembled into one DEX file.
//
// Every benchmark class Lopcost/b/NAME; has
//
//	public static run(I)J   // runs the loop the given number of times and
//	                        // returns the thread CPU time it took (ns)
//
// timed inside the program with dalvik.system.VMDebug.threadCpuTimeNanos,
// so no profiler hook runs during the measurement.
//
// Some instructions cannot be repeated alone: a move-result needs its
// invoke, a return its call, a move-exception its throw. Their unit holds
// the instructions that make them valid, and the benchmark names a Base
// whose unit is the same without the measured instruction: the cost of the
// instruction is the difference of the two units' costs. Units that two
// opcodes can only share (monitor-enter with monitor-exit) name the
// opcodes that split their cost.
package microbench

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/agext/levenshtein"

	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// Bench is one micro-benchmark.
type Bench struct {
	// Name is the opcode's mnemonic ("add-int/2addr"), or a helper's
	// name (a unit some benchmark subtracts, e.g. "invoke-static+const").
	Name string
	// Class is the opcode's group in the paper's Table 1 ("binop",
	// "invoke", ...); "helper" for helpers and "loop" for the empty loop.
	Class string
	// Base names the benchmark whose per-unit time is subtracted from this
	// one's to give the opcode's cost; "" subtracts nothing beyond the
	// empty loop, which every benchmark's time is corrected by.
	Base string
	// Split names the opcodes that share this unit's cost equally (the
	// unit executes one of each); nil: the unit's cost is Name's.
	Split []string
	// Same names the benchmark that measures this opcode when its unit
	// cannot be made without it (monitor-exit: monitor-enter's unit).
	Same string
	// Included says where an opcode's cost is counted when no unit can
	// isolate it (return-void: in every invoke's).
	Included string

	setup func(m *smali.MethodBuilder, cls string)
	unit  func(u *unit)
	sinks []*sinkSpec
}

// Measured reports whether the benchmark has a program of its own.
func (b *Bench) Measured() bool { return b.Same == "" && b.Included == "" }

// ClassName is the descriptor of the benchmark's class.
func (b *Bench) ClassName() string { return "Lopcost/b/" + mangle(b.Name) + ";" }

// mangle turns a mnemonic into a class name: "add-int/2addr" → "add_int__2addr".
func mangle(name string) string {
	r := strings.NewReplacer("-", "_", "/", "__", "+", "___", " ", "____")
	return r.Replace(name)
}

// EmptyLoop is the name of the loop without a body.
const EmptyLoop = "empty-loop"

// All returns every benchmark: the empty loop, one per valid opcode of
// the Dalvik instruction set as the paper counts it (218: the odex-only
// and unused opcodes and the method-handle instructions of API 26+ are
// left out), and the helpers they subtract.
func All() []*Bench { return slices.Clone(all) }

// Lookup finds a benchmark by name.
func Lookup(name string) (*Bench, bool) {
	for _, b := range all {
		if b.Name == name {
			return b, true
		}
	}
	return nil, false
}

// Select returns the benchmarks named (opcode mnemonics or Table 1
// classes), with the empty loop and every benchmark they subtract; an
// empty list selects all. An unknown name is an error naming it.
func Select(names []string) ([]*Bench, error) {
	if len(names) == 0 {
		return All(), nil
	}
	want := map[string]bool{EmptyLoop: true}
	var add func(name string)
	add = func(name string) {
		if want[name] {
			return
		}
		want[name] = true
		b, _ := Lookup(name)
		for _, dep := range []string{b.Base, b.Same} {
			if dep != "" {
				add(dep)
			}
		}
	}
	for _, n := range names {
		found := false
		for _, b := range all {
			if b.Name == n || b.Class == n {
				add(b.Name)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("opcost: no opcode or opcode class %q%s", n, suggestion(n))
		}
	}
	var out []*Bench
	for _, b := range all {
		if want[b.Name] {
			out = append(out, b)
		}
	}
	return out, nil
}

// Suggestion is the part of an error about an unknown name n that names
// the closest opcode or class (" (did you mean …?)").
func Suggestion(n string) string { return suggestion(n) }

// suggestion names the closest known opcode or class: as a likely typo
// when it is close, else as the nearest name there is, so that the error
// always points somewhere.
func suggestion(n string) string {
	best, dist := "", math.MaxInt
	for _, b := range all {
		if b.Class == "helper" || b.Class == "loop" {
			continue
		}
		for _, cand := range []string{b.Name, b.Class} {
			if d := levenshtein.Distance(strings.ToLower(n), cand, nil); d < dist {
				best, dist = cand, d
			}
		}
	}
	if dist < 3 {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return fmt.Sprintf(" (the closest name is %q; opcodes are named as dexdump names them, e.g. add-int/2addr, and classes as the paper's Table 1, e.g. arith)", best)
}

// Registers of the generated methods. The loop counter is the parameter;
// the units use the registers below it by convention: int (or float)
// values in v0–v3, wide ones in v4–v9, objects in v10–v14, an index v15,
// spare v16–v19, and the start and end times in v20–v23.
const (
	frameRegs = 25 // p0 is v24
	rStart    = 20
	rEnd      = 22
)

// unit emits one copy of a benchmark's unit; k numbers the copy, for the
// labels a copy defines.
type unit struct {
	m        *smali.MethodBuilder
	cls      string                         // the benchmark's class
	k, size  int                            // the copy, of size
	payloads []func(m *smali.MethodBuilder) // after the method's code
}

func (u *unit) op(name string, args ...ast.Operand) { u.m.Op(name, args...) }

// label is a label unique to this copy.
func (u *unit) label(s string) string { return fmt.Sprintf("%s_%d", s, u.k) }

// Program builds the benchmarks' classes with size copies of each unit:
// the shared classes (operand sources, a base class with fields, an
// interface) and one class per measured benchmark.
func Program(benches []*Bench, size int) ([]*ast.Class, error) {
	if size < 0 {
		return nil, fmt.Errorf("opcost: loop size %d: must be at least 0", size)
	}
	classes := shared()
	var measured []*Bench
	for _, b := range benches {
		if b.Measured() {
			measured = append(measured, b)
			classes = append(classes, benchClass(b, size))
		}
	}
	classes = append(classes, mainClass(measured))
	opts := &smali.Options{API: API}
	for _, c := range classes {
		if err := smali.Check(c, opts); err != nil {
			return nil, fmt.Errorf("opcost: generated class %s: %w", c.Name, err)
		}
	}
	return classes, nil
}

// API is the API level the benchmarks are assembled for.
const API = 28

// Assemble builds the benchmarks' DEX file.
func Assemble(benches []*Bench, size int) ([]byte, error) {
	classes, err := Program(benches, size)
	if err != nil {
		return nil, err
	}
	return smali.Assemble(classes, &smali.AssembleOptions{API: API})
}

// MainClass is the driver: "opcost.Main INDEX LOOPS REPS [A B]" runs the
// INDEXth measured benchmark of the program (in the order given to
// Program, Measured ones only) REPS times with LOOPS iterations and prints
// each run's thread CPU time in nanoseconds on a line of its own. INDEX
// -1 (Rounds) runs every measured benchmark once a round, in order, for
// REPS rounds: benchmarks compared with one another (the linearity
// study's) then see the same phases of a shared host's load. A and B,
// decimal numbers, set the operand grids' operands first (as int, long
// and double: Ops.gai, gaj, gad and gbi, gbj, gbd).
const MainClass = "opcost.Main"

// Rounds is the driver's INDEX that runs every benchmark once a round.
const Rounds = -1

// mainClass dispatches to the benchmarks' run methods with a switch, so
// that no reflection runs between measurements.
func mainClass(benches []*Bench) *ast.Class {
	cb := smali.NewClass("Lopcost/Main;", ast.AccPublic|ast.AccFinal).Super("Ljava/lang/Object;")
	m := cb.Method(ast.AccPublic|ast.AccStatic, "main", "([Ljava/lang/String;)V").Registers(12)
	parse := smali.MethodRef("Ljava/lang/Integer;", "parseInt", "(Ljava/lang/String;)I")
	for i := 0; i < 3; i++ {
		m.Op("const/4", v(3), ast.Int(int32(i)))
		m.Op("aget-object", v(3), p(0), v(3))
		m.Op("invoke-static", smali.Regs(v(3)), parse)
		m.Op("move-result", v(i))
	}
	m.Op("array-length", v(3), p(0))
	m.Op("const/4", v(4), ast.Int(5))
	m.Op("if-lt", v(3), v(4), smali.LabelRef("operands_set"))
	for i, suffix := range []string{"a", "b"} {
		m.Op("const/4", v(3), ast.Int(int32(3+i)))
		m.Op("aget-object", v(3), p(0), v(3))
		m.Op("invoke-static", smali.Regs(v(3)), smali.MethodRef("Ljava/lang/Double;", "parseDouble", "(Ljava/lang/String;)D"))
		m.Op("move-result-wide", v(4))
		m.Op("sput-wide", v(4), smali.FieldRef(opsClass, "g"+suffix+"d", "D"))
		m.Op("double-to-long", v(6), v(4))
		m.Op("sput-wide", v(6), smali.FieldRef(opsClass, "g"+suffix+"j", "J"))
		m.Op("double-to-int", v(3), v(4))
		m.Op("sput", v(3), smali.FieldRef(opsClass, "g"+suffix+"i", "I"))
	}
	m.Label("operands_set")
	m.Op("sget-object", v(8), smali.FieldRef("Ljava/lang/System;", "out", "Ljava/io/PrintStream;"))
	// v9 is the benchmark to run: INDEX, or in rounds 0 … n−1 each round;
	// v10 is n.
	m.Op("const/16", v(10), ast.Int(int32(len(benches))))
	m.Label("rep")
	m.Op("if-lez", v(2), smali.LabelRef("end"))
	m.Op("move", v(9), v(0))
	m.Op("if-gez", v(0), smali.LabelRef("dispatch"))
	m.Op("const/4", v(9), ast.Int(0))
	m.Label("dispatch")
	if len(benches) > 0 {
		m.Op("packed-switch", v(9), smali.LabelRef("table"))
	}
	m.Op("goto", smali.LabelRef("end"))
	var cases []string
	for i, b := range benches {
		l := fmt.Sprintf("c_%d", i)
		cases = append(cases, l)
		m.Label(l)
		m.Op("invoke-static", smali.Regs(v(1)), smali.MethodRef(b.ClassName(), "run", "(I)J"))
		m.Op("move-result-wide", v(4))
		m.Op("goto", smali.LabelRef("print"))
	}
	m.Label("print")
	m.Op("invoke-virtual", smali.Regs(v(8), v(4), v(5)), smali.MethodRef("Ljava/io/PrintStream;", "println", "(J)V"))
	m.Op("if-gez", v(0), smali.LabelRef("next_rep"))
	m.Op("add-int/lit8", v(9), v(9), ast.Int(1))
	m.Op("if-lt", v(9), v(10), smali.LabelRef("dispatch"))
	m.Label("next_rep")
	m.Op("add-int/lit8", v(2), v(2), ast.Int(-1))
	m.Op("goto", smali.LabelRef("rep"))
	m.Label("end")
	m.Op("return-void")
	if len(cases) > 0 {
		m.Label("table").PackedSwitch(0, cases...)
	}
	return cb.Class()
}

// benchClass makes Lopcost/b/NAME; extends Lopcost/Target: run(I)J and
// the callees the invoke benchmarks call.
func benchClass(b *Bench, size int) *ast.Class {
	cb := smali.NewClass(b.ClassName(), ast.AccPublic).Super(targetClass)
	ctor := cb.Method(ast.AccPublic|ast.AccConstructor, "<init>", "()V").Registers(1)
	ctor.Op("invoke-direct", smali.Regs(smali.V(0)), smali.MethodRef(targetClass, "<init>", "()V")).Op("return-void")
	callees(cb)

	m := cb.Method(ast.AccPublic|ast.AccStatic, "run", "(I)J").Registers(frameRegs)
	for _, sk := range b.sinks {
		sk.zero(m)
	}
	if b.setup != nil {
		b.setup(m, b.ClassName())
	}
	m.Op("invoke-static", smali.Regs(), smali.MethodRef("Ldalvik/system/VMDebug;", "threadCpuTimeNanos", "()J"))
	m.Op("move-result-wide", smali.V(rStart))
	// Both jumps out of and back into the loop are goto/32: a body of
	// 10 000 long instructions is beyond the reach of a 16-bit branch.
	m.Label("loop")
	m.Op("if-gtz", smali.P(0), smali.LabelRef("body"))
	m.Op("goto/32", smali.LabelRef("done"))
	m.Label("body")
	u := &unit{m: m, cls: b.ClassName(), size: size}
	if b.unit != nil {
		for u.k = 0; u.k < size; u.k++ {
			b.unit(u)
		}
	}
	m.Op("add-int/lit8", smali.P(0), smali.P(0), ast.Int(-1))
	m.Op("goto/32", smali.LabelRef("loop"))
	m.Label("done")
	m.Op("invoke-static", smali.Regs(), smali.MethodRef("Ldalvik/system/VMDebug;", "threadCpuTimeNanos", "()J"))
	m.Op("move-result-wide", smali.V(rEnd))
	for _, sk := range b.sinks {
		sk.store(m)
	}
	m.Op("sub-long", smali.V(rEnd), smali.V(rEnd), smali.V(rStart))
	m.Op("return-wide", smali.V(rEnd))
	for _, p := range u.payloads {
		p(m)
	}
	return cb.Class()
}
