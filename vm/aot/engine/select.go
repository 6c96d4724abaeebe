package engine

import (
	"math"

	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// Selects (ssa.OpSelect, made by the ifconv pass): the comparison that
// chooses is evaluated inline from its operands' slots (a constant has
// one too), so a Select costs one closure, as an instruction or as a tree
// node. Its two operands may be trees, of which only the chosen one is
// evaluated, as the branch it replaced did: the values ifconv speculated
// cost nothing on the way not taken. plan keeps array loads, the only
// tree nodes that may throw, out of them. The closures, one per
// comparison and shape, are generated (exprgen.go's selects table,
// constructors selectSlots ... selectLongStore in expr_gen.go); this file
// chooses the shape.

// selectTest returns the Select's comparison as an intTest.
func (l *lowerer) selectTest(v *ssa.Value) intTest {
	c := v.Args[0]
	if c.Type != ssa.TypeBool || len(c.Args) != 2 || c.Args[0].Type != ssa.TypeInt || c.Args[1].Type != ssa.TypeInt {
		panic(unsupported("a Select on " + c.LongString()))
	}
	switch c.Op {
	case ssa.OpEq, ssa.OpNe, ssa.OpLt, ssa.OpGe, ssa.OpGt, ssa.OpLe:
	default:
		panic(unsupported("a Select on " + c.LongString()))
	}
	return intTest{op: c.Op, a: l.s(c.Args[0]), b: l.s(c.Args[1]), ok: true}
}

// selectTree is an int Select as a tree node.
func (l *lowerer) selectTree(v *ssa.Value) func(*frame) uint32 {
	t := l.selectTest(v)
	if l.hasTreeArg(v) {
		return selectArms(t, l.intArm(v.Args[1]), l.intArm(v.Args[2]))
	}
	return selectSlots(t, l.s(v.Args[1]), l.s(v.Args[2]))
}

// selectWide is a long or double Select's bits.
func (l *lowerer) selectWide(v *ssa.Value) func(*frame) uint64 {
	t := l.selectTest(v)
	if l.hasTreeArg(v) {
		var x, y func(*frame) uint64
		if v.Type == ssa.TypeLong {
			x, y = l.longExpr(v.Args[1]), l.longExpr(v.Args[2])
		} else {
			dx, dy := l.doubleExpr(v.Args[1]), l.doubleExpr(v.Args[2])
			x = func(f *frame) uint64 { return math.Float64bits(dx(f)) }
			y = func(f *frame) uint64 { return math.Float64bits(dy(f)) }
		}
		return selectBy(t, x, y)
	}
	x, y := l.s(v.Args[1]), l.s(v.Args[2])
	return selectBy(t, func(f *frame) uint64 { return getL(f.r, x) }, func(f *frame) uint64 { return getL(f.r, y) })
}

// selectValue lowers a Select that has a slot of its own.
func (l *lowerer) selectValue(v *ssa.Value) instr {
	d := l.s(v)
	if v.Type.Wide() {
		e := l.selectWide(v)
		return func(f *frame) bool { setL(f.r, d, e(f)); return true }
	}
	if v.Type != ssa.TypeInt && v.Type != ssa.TypeFloat {
		panic(unsupported("a Select of " + v.Type.String()))
	}
	return selectSlotsStore(l.selectTest(v), d, l.s(v.Args[1]), l.s(v.Args[2]))
}

// selectFloat and selectDouble are Selects as float and double tree
// nodes.
func (l *lowerer) selectFloat(v *ssa.Value) func(*frame) float32 {
	if l.hasTreeArg(v) {
		t := l.selectTest(v)
		return selectBy(t, l.floatExpr(v.Args[1]), l.floatExpr(v.Args[2]))
	}
	e := l.selectTree(v)
	return func(f *frame) float32 { return math.Float32frombits(e(f)) }
}

func (l *lowerer) selectDouble(v *ssa.Value) func(*frame) float64 {
	e := l.selectWide(v)
	return func(f *frame) float64 { return math.Float64frombits(e(f)) }
}

// intArm is an int Select operand read by the Select itself: a tree
// (t), a slot (s), or a comparison of slots s and s2 as 0 or 1 (cmp: an
// int Select of a comparison between 1 and 0, the booleans of
// caffeine-logic), so that none of these costs a call.
type intArm struct {
	s int
	t func(*frame) uint32
	// cmp: (r[s] == r[s2] & meq | r[s] < r[s2] & mlt) ^ neg, without a
	// branch (Gt and Le swap s and s2)
	cmp           bool
	s2            int
	meq, mlt, neg uint32
}

// read is a slot or comparison arm's value.
func (a *intArm) read(r []uint32) uint32 {
	if !a.cmp {
		return r[a.s]
	}
	p, q := int32(r[a.s]), int32(r[a.s2])
	return (bit(p == q)&a.meq | bit(p < q)&a.mlt) ^ a.neg
}

// cmpArm returns a boolSelect as a comparison arm.
func cmpArm(o intOpnd) intArm {
	a := intArm{cmp: true, s: o.s, s2: o.s2}
	switch o.kind - opCEq {
	case 0: // Eq
		a.meq = 1
	case 1: // Ne
		a.meq, a.neg = 1, 1
	case 2: // Lt
		a.mlt = 1
	case 3: // Ge
		a.mlt, a.neg = 1, 1
	case 4: // Gt: s2 < s
		a.s, a.s2, a.mlt = o.s2, o.s, 1
	default: // Le: not s2 < s
		a.s, a.s2, a.mlt, a.neg = o.s2, o.s, 1, 1
	}
	return a
}

// longArm is intArm for long operands (two words at s).
type longArm struct {
	s int
	t func(*frame) uint64
}

func (l *lowerer) intArm(a *ssa.Value) intArm {
	if o, ok := l.boolSelect(a); ok {
		return cmpArm(o)
	}
	if l.inl[a.ID] {
		return intArm{t: l.intTree(a)}
	}
	return intArm{s: l.s(a)}
}

func (l *lowerer) longArm(a *ssa.Value) longArm {
	if l.inl[a.ID] {
		return longArm{t: l.longTree(a)}
	}
	return longArm{s: l.s(a)}
}

// selectRoot lowers an int or long Select with a tree arm as one
// instruction storing into its slot, where a tree node and a store
// around it were two closures; nil for other types. The arms cannot
// throw (plan keeps array loads out of a Select's operands), so there is
// no frame.threw to test. One constructor per type (no generics: Go's
// would call the arm reads through a dictionary).
func (l *lowerer) selectRoot(v *ssa.Value) instr {
	t, d := l.selectTest(v), l.s(v)
	switch v.Type {
	case ssa.TypeInt:
		x, y := l.intArm(v.Args[1]), l.intArm(v.Args[2])
		if x.t == nil && y.t == nil {
			// no call in either arm: both read and the chosen one
			// kept, a conditional move where a branch on caffeine-logic's
			// booleans would be missed half the time
			return selectArmsMove(t, d, x, y)
		}
		return selectArmsStore(t, d, x, y)
	case ssa.TypeLong:
		return selectLongStore(t, d, l.longArm(v.Args[1]), l.longArm(v.Args[2]))
	}
	return nil
}
