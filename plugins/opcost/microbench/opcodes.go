package microbench

import (
	"strings"

	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// The opcode classes of the paper's Table 1.
const (
	classNop        = "nop"
	classMove       = "move"
	classException  = "exception"
	classReturn     = "return"
	classConst      = "const"
	classMonitor    = "monitor"
	classType       = "type"
	classArray      = "array"
	classInstance   = "instance"
	classControl    = "control"
	classCmp        = "cmp"
	classArrayElem  = "array-access"
	classField      = "field"
	classStatic     = "static-field"
	classInvoke     = "invoke"
	classArith      = "arith"
	classConversion = "conversion"
	classHelper     = "helper"
	classLoop       = "loop"
)

// Classes lists the opcode classes in the paper's Table 1 order.
var Classes = []string{classNop, classMove, classException, classReturn, classConst, classMonitor, classType,
	classArray, classInstance, classControl, classCmp, classArrayElem, classField, classStatic, classInvoke,
	classArith, classConversion}

var all = build()

// Register shorthands.
var v, p = smali.V, smali.P

// load emits the static get of an operand field of Ops into reg.
func load(m *smali.MethodBuilder, reg int, name, typ string) {
	m.Op(getOp("sget", typ), v(reg), smali.FieldRef(opsClass, name, typ))
}

// getOp is the get (or put) opcode for a field type: "sget-wide" for J.
func getOp(base, typ string) string {
	switch typ[0] {
	case 'J', 'D':
		return base + "-wide"
	case 'L', '[':
		return base + "-object"
	case 'Z':
		return base + "-boolean"
	case 'B':
		return base + "-byte"
	case 'C':
		return base + "-char"
	case 'S':
		return base + "-short"
	}
	return base
}

// Setups: the registers each kind of unit reads, loaded from Ops.
func ints(opnd string) func(*smali.MethodBuilder, string) {
	return func(m *smali.MethodBuilder, _ string) {
		load(m, 0, "a", "I")
		load(m, 1, "a", "I")
		load(m, 2, opnd, "I")
		load(m, 3, "zero", "I")
		load(m, 16, "mone", "I")
	}
}

func longs(opnd string) func(*smali.MethodBuilder, string) {
	return func(m *smali.MethodBuilder, _ string) {
		load(m, 4, "aj", "J")
		load(m, 6, "aj", "J")
		load(m, 8, opnd, "J")
		load(m, 2, "zero", "I") // shift counts
		load(m, 0, "a", "I")
	}
}

func floats(opnd string) func(*smali.MethodBuilder, string) {
	return func(m *smali.MethodBuilder, _ string) {
		load(m, 0, "af", "F")
		load(m, 1, "af", "F")
		load(m, 2, opnd, "F")
	}
}

func doubles(opnd string) func(*smali.MethodBuilder, string) {
	return func(m *smali.MethodBuilder, _ string) {
		load(m, 4, "ad", "D")
		load(m, 6, "ad", "D")
		load(m, 8, opnd, "D")
	}
}

// objects: v10 an instance of the benchmark's class, v12 a string, v13
// null, v14 an exception, v15 the index 1, v1 an int.
func objects(m *smali.MethodBuilder, cls string) {
	m.Op("new-instance", v(10), smali.TypeRef(cls))
	m.Op("invoke-direct", smali.Regs(v(10)), smali.MethodRef(cls, "<init>", "()V"))
	m.Op("const-string", v(12), ast.String("opcost"))
	m.Op("const/4", v(13), ast.Int(0))
	m.Op("new-instance", v(14), smali.TypeRef("Ljava/lang/RuntimeException;"))
	m.Op("invoke-direct", smali.Regs(v(14)), smali.MethodRef("Ljava/lang/RuntimeException;", "<init>", "()V"))
	load(m, 15, "one", "I")
	load(m, 1, "a", "I")
}

// array: v11 an array of four elements of type typ, and what objects sets.
func array(typ string) func(*smali.MethodBuilder, string) {
	return func(m *smali.MethodBuilder, cls string) {
		objects(m, cls)
		load(m, 11, "four", "I")
		m.Op("new-array", v(11), v(11), smali.TypeRef(typ))
	}
}

// sinkSpec is where a unit leaves its result: a register of a type, stored
// after the loop where a compiler must keep it.
type sinkSpec struct {
	reg int
	typ string // I, J, F, D or L
}

func sink(reg int, typ string) *sinkSpec { return &sinkSpec{reg, typ} }

// sinks is a list of the non-nil specs.
func sinks(s ...*sinkSpec) []*sinkSpec {
	var out []*sinkSpec
	for _, x := range s {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

// zero gives the register a value before the setup, for the path on
// which the loop runs no iteration.
func (s *sinkSpec) zero(m *smali.MethodBuilder) {
	if s.typ == "J" || s.typ == "D" {
		m.Op("const-wide/16", v(s.reg), ast.Int(0))
	} else {
		m.Op("const/16", v(s.reg), ast.Int(0))
	}
}

func (s *sinkSpec) store(m *smali.MethodBuilder) {
	names := map[string]string{"I": "si", "J": "sj", "F": "sf", "D": "sd", "L": "so"}
	ft := s.typ
	if ft == "L" {
		ft = "Ljava/lang/Object;"
	}
	m.Op(getOp("sput", ft), v(s.reg), smali.FieldRef(opsClass, names[s.typ], ft))
}

// typed describes one operand type of the arithmetic opcodes.
type typed struct {
	suffix     string // "int", "long", ...
	acc, opnd  int    // accumulator and operand registers
	desc       string
	setup      func(string) func(*smali.MethodBuilder, string)
	identities map[string]string // operand field per operation
	// accs are the accumulators the copies of a unary or binary operation
	// rotate over, and a the field of Ops they start from (see rotate).
	accs []int
	a    string
}

// The accumulators rotate over four registers below v16 (a /2addr or
// unary form names its registers in four bits): the narrow ones avoid v2,
// the operand, and the wide ones v8, the operand, and v2, a long shift's
// count. The linearity partner's v17–v19 stay free.
var (
	narrowAccs = []int{0, 1, 3, 5}
	wideAccs   = []int{4, 6, 10, 12}
)

var (
	intT = typed{"int", 0, 2, "I", ints, map[string]string{"add": "zero", "sub": "zero", "mul": "one", "div": "one",
		"rem": "big", "and": "mone", "or": "zero", "xor": "zero", "shl": "zero", "shr": "zero", "ushr": "zero"}, narrowAccs, "a"}
	longT = typed{"long", 4, 8, "J", longs, map[string]string{"add": "zeroj", "sub": "zeroj", "mul": "onej", "div": "onej",
		"rem": "bigj", "and": "monej", "or": "zeroj", "xor": "zeroj", "shl": "zeroj", "shr": "zeroj", "ushr": "zeroj"}, wideAccs, "aj"}
	floatT  = typed{"float", 0, 2, "F", floats, map[string]string{"add": "zerof", "sub": "zerof", "mul": "onef", "div": "onef", "rem": "bigf"}, narrowAccs, "af"}
	doubleT = typed{"double", 4, 8, "D", doubles, map[string]string{"add": "zerod", "sub": "zerod", "mul": "oned", "div": "oned", "rem": "bigd"}, wideAccs, "ad"}
)

// accumulate is the setup of a rotating unit: every accumulator holds the
// type's value a, the operand register opnd's value, and v2 a long
// shift's count 0.
func (t typed) accumulate(opnd string) func(*smali.MethodBuilder, string) {
	return func(m *smali.MethodBuilder, _ string) {
		for _, r := range t.accs {
			load(m, r, t.a, t.desc)
		}
		load(m, t.opnd, opnd, t.desc)
		if t.desc == "J" {
			load(m, 2, "zero", "I")
		}
	}
}

// rotate is the benchmark of an operation that reads the register it
// writes: copy k works on accumulator k mod 4, so that each accumulator
// is one dependent chain (a compiler can neither drop nor fold a copy)
// while neighbouring copies are independent. With a single accumulator
// every copy waited for the previous one's result: a latency-bound chain
// when the opcode repeats alone, which another opcode interleaved with it
// would hide, so the linearity study would see the harness, not the
// instruction.
func rotate(name string, t typed, opnd string, args func(acc int) []ast.Operand) *Bench {
	var sk []*sinkSpec
	for _, r := range t.accs {
		sk = append(sk, sink(r, t.desc))
	}
	return &Bench{Name: name, Class: classArith, setup: t.accumulate(opnd), sinks: sk,
		unit: func(u *unit) { u.op(name, args(t.accs[u.k%len(t.accs)])...) }}
}

func build() []*Bench {
	var bs []*Bench
	add := func(b *Bench) { bs = append(bs, b) }
	one := func(name, class string, setup func(*smali.MethodBuilder, string), sk *sinkSpec, args ...ast.Operand) {
		add(&Bench{Name: name, Class: class, setup: setup, sinks: sinks(sk), unit: func(u *unit) { u.op(name, args...) }})
	}
	add(&Bench{Name: EmptyLoop, Class: classLoop})
	one("nop", classNop, nil, nil)

	// 01-0c: moves; the move-results after the call that makes their value.
	one("move", classMove, ints("b"), sink(0, "I"), v(0), v(1))
	one("move/from16", classMove, ints("b"), sink(0, "I"), v(0), v(1))
	one("move/16", classMove, ints("b"), sink(0, "I"), v(0), v(1))
	one("move-wide", classMove, longs("bj"), sink(4, "J"), v(4), v(6))
	one("move-wide/from16", classMove, longs("bj"), sink(4, "J"), v(4), v(6))
	one("move-wide/16", classMove, longs("bj"), sink(4, "J"), v(4), v(6))
	one("move-object", classMove, objects, sink(13, "L"), v(13), v(12))
	one("move-object/from16", classMove, objects, sink(13, "L"), v(13), v(12))
	one("move-object/16", classMove, objects, sink(13, "L"), v(13), v(12))
	call := func(callee, proto string, after ...func(u *unit)) func(u *unit) {
		return func(u *unit) {
			u.op("invoke-static", smali.Regs(), smali.MethodRef(u.cls, callee, proto))
			for _, a := range after {
				a(u)
			}
		}
	}
	moveResult := func(op string, reg int) func(u *unit) { return func(u *unit) { u.op(op, v(reg)) } }
	add(&Bench{Name: "call-const", Class: classHelper, unit: call("sc", "()V")})
	add(&Bench{Name: "call-const-wide", Class: classHelper, unit: call("scw", "()V")})
	add(&Bench{Name: "return", Class: classReturn, Base: "call-const", unit: call("si", "()I")})
	add(&Bench{Name: "return-wide", Class: classReturn, Base: "call-const-wide", unit: call("sj", "()J")})
	add(&Bench{Name: "return-object", Class: classReturn, Base: "call-const", unit: call("so", "()Ljava/lang/Object;")})
	add(&Bench{Name: "return-void", Class: classReturn, Included: "each invoke's (the callee returns with it)"})
	add(&Bench{Name: "move-result", Class: classMove, Base: "return", sinks: sinks(sink(0, "I")), unit: call("si", "()I", moveResult("move-result", 0))})
	add(&Bench{Name: "move-result-wide", Class: classMove, Base: "return-wide", sinks: sinks(sink(4, "J")), unit: call("sj", "()J", moveResult("move-result-wide", 4))})
	add(&Bench{Name: "move-result-object", Class: classMove, Base: "return-object", sinks: sinks(sink(13, "L")), unit: call("so", "()Ljava/lang/Object;", moveResult("move-result-object", 13))})

	// 0d, 27: a throw whose handler is what follows it (the next copy,
	// or the loop's decrement); move-exception is the same with the
	// handler taking the exception first.
	throw := func(catch bool) func(u *unit) {
		return func(u *unit) {
			s, e, h := u.label("ts"), u.label("te"), u.label("th")
			u.m.Label(s)
			u.op("throw", v(14))
			u.m.Label(e)
			u.m.Catch("Ljava/lang/RuntimeException;", s, e, h)
			u.m.Label(h)
			if catch {
				u.op("move-exception", v(13))
			}
		}
	}
	add(&Bench{Name: "throw", Class: classException, setup: objects, unit: throw(false)})
	add(&Bench{Name: "move-exception", Class: classException, Base: "throw", setup: objects, sinks: sinks(sink(13, "L")), unit: throw(true)})

	// 12-1c: constants.
	one("const/4", classConst, nil, sink(0, "I"), v(0), ast.Int(1))
	one("const/16", classConst, nil, sink(0, "I"), v(0), ast.Int(1000))
	one("const", classConst, nil, sink(0, "I"), v(0), ast.Int(100000))
	one("const/high16", classConst, nil, sink(0, "I"), v(0), ast.Int(0x10000))
	one("const-wide/16", classConst, nil, sink(4, "J"), v(4), ast.Int(1000))
	one("const-wide/32", classConst, nil, sink(4, "J"), v(4), ast.Int(100000))
	one("const-wide", classConst, nil, sink(4, "J"), v(4), ast.Long(10000000000))
	one("const-wide/high16", classConst, nil, sink(4, "J"), v(4), ast.Long(0x1000000000000))
	one("const-string", classConst, nil, sink(13, "L"), v(13), ast.String("opcost"))
	one("const-string/jumbo", classConst, nil, sink(13, "L"), v(13), ast.String("opcost"))
	one("const-class", classConst, nil, sink(13, "L"), v(13), smali.TypeRef(targetClass))

	// 1d-1e: a monitor entered and left; the two share the unit.
	add(&Bench{Name: "monitor-enter", Class: classMonitor, Split: []string{"monitor-enter", "monitor-exit"}, setup: objects,
		unit: func(u *unit) { u.op("monitor-enter", v(10)); u.op("monitor-exit", v(10)) }})
	add(&Bench{Name: "monitor-exit", Class: classMonitor, Same: "monitor-enter"})

	// 1f-26: type checks, arrays, instances.
	one("check-cast", classType, objects, nil, v(12), smali.TypeRef("Ljava/lang/String;"))
	one("instance-of", classType, objects, sink(0, "I"), v(0), v(12), smali.TypeRef("Ljava/lang/String;"))
	one("array-length", classArray, array("[I"), sink(0, "I"), v(0), v(11))
	// An object that was never initialised cannot be stored: no sink.
	one("new-instance", classInstance, objects, nil, v(13), smali.TypeRef(targetClass))
	one("new-array", classArray, objects, sink(13, "L"), v(13), v(15), smali.TypeRef("[I"))
	one("filled-new-array", classArray, ints("b"), nil, smali.Regs(v(1), v(2)), smali.TypeRef("[I"))
	one("filled-new-array/range", classArray, ints("b"), nil, smali.Range(v(1), v(2)), smali.TypeRef("[I"))
	add(&Bench{Name: "fill-array-data", Class: classArray, setup: array("[I"),
		unit: func(u *unit) {
			u.op("fill-array-data", v(11), smali.LabelRef("data"))
			if u.k == 0 {
				u.payloads = append(u.payloads, func(m *smali.MethodBuilder) {
					m.Label("data").ArrayData(4, ast.Int(1), ast.Int(2), ast.Int(3), ast.Int(4))
				})
			}
		}})

	// 28-2c, 32-3d: control. Every branch goes to the next copy, taken.
	for _, g := range []string{"goto", "goto/16", "goto/32"} {
		add(&Bench{Name: g, Class: classControl, unit: func(u *unit) {
			l := u.label("g")
			u.op(g, smali.LabelRef(l))
			u.m.Label(l)
		}})
	}
	add(&Bench{Name: "packed-switch", Class: classControl, setup: objects, unit: func(u *unit) {
		next, data := u.label("c"), u.label("ps")
		u.op("packed-switch", v(15), smali.LabelRef(data))
		u.m.Label(next)
		u.payloads = append(u.payloads, func(m *smali.MethodBuilder) { m.Label(data).PackedSwitch(1, next) })
	}})
	add(&Bench{Name: "sparse-switch", Class: classControl, setup: objects, unit: func(u *unit) {
		next, data := u.label("c"), u.label("ss")
		u.op("sparse-switch", v(15), smali.LabelRef(data))
		u.m.Label(next)
		u.payloads = append(u.payloads, func(m *smali.MethodBuilder) { m.Label(data).SparseSwitch([]int32{1}, []string{next}) })
	}})
	branch := func(name string, regs ...int) {
		add(&Bench{Name: name, Class: classControl, setup: ints("b"), unit: func(u *unit) {
			l := u.label("n")
			var args []ast.Operand
			for _, r := range regs {
				args = append(args, v(r))
			}
			u.op(name, append(args, smali.LabelRef(l))...)
			u.m.Label(l)
		}})
	}
	// v1 = 7, v2 = 3, v3 = 0, v16 = -1: each condition holds.
	branch("if-eq", 1, 1)
	branch("if-ne", 1, 2)
	branch("if-lt", 2, 1)
	branch("if-ge", 1, 2)
	branch("if-gt", 1, 2)
	branch("if-le", 2, 1)
	branch("if-eqz", 3)
	branch("if-nez", 1)
	branch("if-ltz", 16)
	branch("if-gez", 1)
	branch("if-gtz", 1)
	branch("if-lez", 3)

	// 2d-31: comparisons.
	one("cmpl-float", classCmp, floats("bf"), sink(3, "I"), v(3), v(1), v(2))
	one("cmpg-float", classCmp, floats("bf"), sink(3, "I"), v(3), v(1), v(2))
	one("cmpl-double", classCmp, doubles("bd"), sink(0, "I"), v(0), v(6), v(8))
	one("cmpg-double", classCmp, doubles("bd"), sink(0, "I"), v(0), v(6), v(8))
	one("cmp-long", classCmp, longs("bj"), sink(0, "I"), v(0), v(6), v(8))

	// 44-6d: array elements, instance fields, static fields.
	for _, k := range fieldKinds {
		dst, val := 0, 1
		elem, ft := k.typ, k.typ
		valLoad := func(m *smali.MethodBuilder) { load(m, 1, "a", "I") }
		switch k.typ {
		case "J":
			dst, val = 4, 6
			valLoad = func(m *smali.MethodBuilder) { load(m, 6, "aj", "J") }
		case "Ljava/lang/Object;":
			dst, val = 13, 12
			valLoad = func(*smali.MethodBuilder) {} // the string
		case "Z":
			valLoad = func(m *smali.MethodBuilder) { load(m, 1, "z", "Z") }
		case "B":
			valLoad = func(m *smali.MethodBuilder) { load(m, 1, "by", "B") }
		case "C":
			valLoad = func(m *smali.MethodBuilder) { load(m, 1, "ch", "C") }
		case "S":
			valLoad = func(m *smali.MethodBuilder) { load(m, 1, "sh", "S") }
		}
		setup := func(typ string) func(*smali.MethodBuilder, string) {
			return func(m *smali.MethodBuilder, cls string) {
				array(typ)(m, cls)
				valLoad(m)
			}
		}
		sinkTyp := map[string]string{"J": "J", "Ljava/lang/Object;": "L"}[k.typ]
		if sinkTyp == "" {
			sinkTyp = "I"
		}
		one("aget"+k.suffix, classArrayElem, setup("["+elem), sink(dst, sinkTyp), v(dst), v(11), v(15))
		one("aput"+k.suffix, classArrayElem, setup("["+elem), nil, v(val), v(11), v(15))
		one("iget"+k.suffix, classField, setup("[I"), sink(dst, sinkTyp), v(dst), v(10), smali.FieldRef(baseClass, k.name, ft))
		one("iput"+k.suffix, classField, setup("[I"), nil, v(val), v(10), smali.FieldRef(baseClass, k.name, ft))
		one("sget"+k.suffix, classStatic, setup("[I"), sink(dst, sinkTyp), v(dst), smali.FieldRef(baseClass, "s"+k.name, ft))
		one("sput"+k.suffix, classStatic, setup("[I"), nil, v(val), smali.FieldRef(baseClass, "s"+k.name, ft))
	}

	// 6e-72, 74-78: invokes of methods that return at once (the callee's
	// return-void is part of the invoke's cost).
	invoke := func(name string, ref func(cls string) *ast.MethodRef, static bool) {
		add(&Bench{Name: name, Class: classInvoke, setup: objects, unit: func(u *unit) {
			var regs ast.Operand = smali.Regs(v(10))
			switch {
			case static && strings.HasSuffix(name, "/range"):
				regs = smali.Range(nil, nil)
			case static:
				regs = smali.Regs()
			case strings.HasSuffix(name, "/range"):
				regs = smali.Range(v(10), v(10))
			}
			u.op(name, regs, ref(u.cls))
		}})
	}
	for _, r := range []string{"", "/range"} {
		invoke("invoke-virtual"+r, func(string) *ast.MethodRef { return smali.MethodRef(baseClass, "v", "()V") }, false)
		invoke("invoke-super"+r, func(string) *ast.MethodRef { return smali.MethodRef(targetClass, "v", "()V") }, false)
		invoke("invoke-direct"+r, func(cls string) *ast.MethodRef { return smali.MethodRef(cls, "pv", "()V") }, false)
		invoke("invoke-static"+r, func(cls string) *ast.MethodRef { return smali.MethodRef(cls, "sv", "()V") }, true)
		invoke("invoke-interface"+r, func(string) *ast.MethodRef { return smali.MethodRef(ifaceClass, "iv", "()V") }, false)
	}

	// 7b-80: unary operations on the accumulator.
	for _, t := range []typed{intT, longT, floatT, doubleT} {
		ops := []string{"neg"}
		if t.suffix == "int" || t.suffix == "long" {
			ops = append(ops, "not")
		}
		for _, o := range ops {
			add(rotate(o+"-"+t.suffix, t, t.identities["add"], func(a int) []ast.Operand { return []ast.Operand{v(a), v(a)} }))
		}
	}
	// 81-8f: conversions, from the operand registers of each type into
	// a register the setup leaves free (its type must not change).
	conv := []struct {
		name     string
		dst, src int
		from, to typed
	}{
		{"int-to-long", 4, 1, intT, longT}, {"int-to-float", 5, 1, intT, floatT}, {"int-to-double", 4, 1, intT, doubleT},
		{"long-to-int", 0, 6, longT, intT}, {"long-to-float", 1, 6, longT, floatT}, {"long-to-double", 10, 6, longT, doubleT},
		{"float-to-int", 3, 1, floatT, intT}, {"float-to-long", 4, 1, floatT, longT}, {"float-to-double", 4, 1, floatT, doubleT},
		{"double-to-int", 0, 6, doubleT, intT}, {"double-to-long", 10, 6, doubleT, longT}, {"double-to-float", 0, 6, doubleT, floatT},
		{"int-to-byte", 0, 1, intT, intT}, {"int-to-char", 0, 1, intT, intT}, {"int-to-short", 0, 1, intT, intT},
	}
	for _, c := range conv {
		one(c.name, classConversion, c.from.setup(c.from.identities["add"]), sink(c.dst, c.to.desc), v(c.dst), v(c.src))
	}

	// 90-e2: binary operations. Each copy combines an accumulator with
	// an operand that keeps its value (x+0, x*1, x%big, ...), so that the
	// copies on one accumulator form a dependent chain of the same
	// operation on the same values, which no compiler can drop or fold;
	// neighbouring copies use different accumulators (rotate).
	arith := []string{"add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "ushr"}
	for _, form := range []string{"", "/2addr"} {
		for _, t := range []typed{intT, longT, floatT, doubleT} {
			for _, o := range arith {
				opnd, ok := t.identities[o]
				if !ok {
					continue
				}
				name := o + "-" + t.suffix + form
				r := t.opnd
				if t.suffix == "long" && strings.Contains(o, "sh") {
					r = 2 // a long shift's count is an int: longs sets v2 to 0
				}
				if form == "" {
					add(rotate(name, t, opnd, func(a int) []ast.Operand { return []ast.Operand{v(a), v(a), v(r)} }))
				} else {
					add(rotate(name, t, opnd, func(a int) []ast.Operand { return []ast.Operand{v(a), v(r)} }))
				}
			}
		}
	}
	// Literal forms: literals that keep the accumulator bounded.
	lits := []struct {
		op       string
		lit16    int32
		hasLit16 bool
	}{
		{"add-int", 0, true}, {"rsub-int", 0, true}, {"mul-int", 1, true}, {"div-int", 1, true}, {"rem-int", 1000, true},
		{"and-int", -1, true}, {"or-int", 0, true}, {"xor-int", 0, true},
		{"shl-int", 0, false}, {"shr-int", 0, false}, {"ushr-int", 0, false},
	}
	for _, l := range lits {
		if l.hasLit16 {
			name := l.op + "/lit16"
			if l.op == "rsub-int" {
				name = "rsub-int"
			}
			lit := ast.Int(l.lit16)
			add(rotate(name, intT, "zero", func(a int) []ast.Operand { return []ast.Operand{v(a), v(a), lit} }))
		}
		lit8 := l.lit16
		if lit8 > 127 {
			lit8 = 100
		}
		lit := ast.Int(lit8)
		add(rotate(l.op+"/lit8", intT, "zero", func(a int) []ast.Operand { return []ast.Operand{v(a), v(a), lit} }))
	}
	return bs
}
