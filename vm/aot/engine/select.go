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
// tree nodes that may throw, out of them.

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

// selectTree is an int Select as a tree node, one closure per
// comparison so that the test is inline.
func (l *lowerer) selectTree(v *ssa.Value) func(*frame) uint32 {
	t := l.selectTest(v)
	if l.hasTreeArg(v) {
		return selectArms(t, l.intArm(v.Args[1]), l.intArm(v.Args[2]))
	}
	a, b, x, y := t.a, t.b, l.s(v.Args[1]), l.s(v.Args[2])
	switch t.op {
	case ssa.OpEq:
		return func(f *frame) uint32 {
			if r := f.r; r[a] == r[b] {
				return r[x]
			} else {
				return r[y]
			}
		}
	case ssa.OpNe:
		return func(f *frame) uint32 {
			if r := f.r; r[a] != r[b] {
				return r[x]
			} else {
				return r[y]
			}
		}
	case ssa.OpLt:
		return func(f *frame) uint32 {
			if r := f.r; int32(r[a]) < int32(r[b]) {
				return r[x]
			} else {
				return r[y]
			}
		}
	case ssa.OpGe:
		return func(f *frame) uint32 {
			if r := f.r; int32(r[a]) >= int32(r[b]) {
				return r[x]
			} else {
				return r[y]
			}
		}
	case ssa.OpGt:
		return func(f *frame) uint32 {
			if r := f.r; int32(r[a]) > int32(r[b]) {
				return r[x]
			} else {
				return r[y]
			}
		}
	default:
		return func(f *frame) uint32 {
			if r := f.r; int32(r[a]) <= int32(r[b]) {
				return r[x]
			} else {
				return r[y]
			}
		}
	}
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
	t := l.selectTest(v)
	a, b, x, y := t.a, t.b, l.s(v.Args[1]), l.s(v.Args[2])
	switch t.op {
	case ssa.OpEq:
		return func(f *frame) bool {
			if r := f.r; r[a] == r[b] {
				r[d] = r[x]
			} else {
				r[d] = r[y]
			}
			return true
		}
	case ssa.OpNe:
		return func(f *frame) bool {
			if r := f.r; r[a] != r[b] {
				r[d] = r[x]
			} else {
				r[d] = r[y]
			}
			return true
		}
	case ssa.OpLt:
		return func(f *frame) bool {
			if r := f.r; int32(r[a]) < int32(r[b]) {
				r[d] = r[x]
			} else {
				r[d] = r[y]
			}
			return true
		}
	case ssa.OpGe:
		return func(f *frame) bool {
			if r := f.r; int32(r[a]) >= int32(r[b]) {
				r[d] = r[x]
			} else {
				r[d] = r[y]
			}
			return true
		}
	case ssa.OpGt:
		return func(f *frame) bool {
			if r := f.r; int32(r[a]) > int32(r[b]) {
				r[d] = r[x]
			} else {
				r[d] = r[y]
			}
			return true
		}
	}
	return func(f *frame) bool {
		if r := f.r; int32(r[a]) <= int32(r[b]) {
			r[d] = r[x]
		} else {
			r[d] = r[y]
		}
		return true
	}
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

// selectBy is a Select of operands evaluated by x and y, one closure per
// comparison so that the test is inline (intTest.holds is a call's
// worth of switch).
func selectBy[T any](t intTest, x, y func(*frame) T) func(*frame) T {
	a, b := t.a, t.b
	switch t.op {
	case ssa.OpEq:
		return func(f *frame) T {
			if r := f.r; r[a] == r[b] {
				return x(f)
			}
			return y(f)
		}
	case ssa.OpNe:
		return func(f *frame) T {
			if r := f.r; r[a] != r[b] {
				return x(f)
			}
			return y(f)
		}
	case ssa.OpLt:
		return func(f *frame) T {
			if r := f.r; int32(r[a]) < int32(r[b]) {
				return x(f)
			}
			return y(f)
		}
	case ssa.OpGe:
		return func(f *frame) T {
			if r := f.r; int32(r[a]) >= int32(r[b]) {
				return x(f)
			}
			return y(f)
		}
	case ssa.OpGt:
		return func(f *frame) T {
			if r := f.r; int32(r[a]) > int32(r[b]) {
				return x(f)
			}
			return y(f)
		}
	}
	return func(f *frame) T {
		if r := f.r; int32(r[a]) <= int32(r[b]) {
			return x(f)
		}
		return y(f)
	}
}

// intArm is an int Select operand read by the Select itself: a tree
// (t) or a slot (s), so that a slot operand costs no call.
type intArm struct {
	s int
	t func(*frame) uint32
}

// longArm is intArm for long operands (two words at s).
type longArm struct {
	s int
	t func(*frame) uint64
}

func (l *lowerer) intArm(a *ssa.Value) intArm {
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
// no frame.threw to test. One closure per comparison and type (no
// generics: Go's would call the arm reads through a dictionary).
func (l *lowerer) selectRoot(v *ssa.Value) instr {
	t, d := l.selectTest(v), l.s(v)
	a, b := t.a, t.b
	switch v.Type {
	case ssa.TypeInt:
		x, y := l.intArm(v.Args[1]), l.intArm(v.Args[2])
		xs, xt, ys, yt := x.s, x.t, y.s, y.t
		switch t.op {
		case ssa.OpEq:
			return func(f *frame) bool {
				r := f.r
				var w uint32
				if r[a] == r[b] {
					if xt != nil {
						w = xt(f)
					} else {
						w = r[xs]
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = r[ys]
					}
				}
				r[d] = w
				return true
			}
		case ssa.OpNe:
			return func(f *frame) bool {
				r := f.r
				var w uint32
				if r[a] != r[b] {
					if xt != nil {
						w = xt(f)
					} else {
						w = r[xs]
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = r[ys]
					}
				}
				r[d] = w
				return true
			}
		case ssa.OpLt:
			return func(f *frame) bool {
				r := f.r
				var w uint32
				if int32(r[a]) < int32(r[b]) {
					if xt != nil {
						w = xt(f)
					} else {
						w = r[xs]
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = r[ys]
					}
				}
				r[d] = w
				return true
			}
		case ssa.OpGe:
			return func(f *frame) bool {
				r := f.r
				var w uint32
				if int32(r[a]) >= int32(r[b]) {
					if xt != nil {
						w = xt(f)
					} else {
						w = r[xs]
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = r[ys]
					}
				}
				r[d] = w
				return true
			}
		case ssa.OpGt:
			return func(f *frame) bool {
				r := f.r
				var w uint32
				if int32(r[a]) > int32(r[b]) {
					if xt != nil {
						w = xt(f)
					} else {
						w = r[xs]
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = r[ys]
					}
				}
				r[d] = w
				return true
			}
		case ssa.OpLe:
			return func(f *frame) bool {
				r := f.r
				var w uint32
				if int32(r[a]) <= int32(r[b]) {
					if xt != nil {
						w = xt(f)
					} else {
						w = r[xs]
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = r[ys]
					}
				}
				r[d] = w
				return true
			}
		}
	case ssa.TypeLong:
		x, y := l.longArm(v.Args[1]), l.longArm(v.Args[2])
		xs, xt, ys, yt := x.s, x.t, y.s, y.t
		switch t.op {
		case ssa.OpEq:
			return func(f *frame) bool {
				r := f.r
				var w uint64
				if r[a] == r[b] {
					if xt != nil {
						w = xt(f)
					} else {
						w = getL(r, xs)
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = getL(r, ys)
					}
				}
				setL(r, d, w)
				return true
			}
		case ssa.OpNe:
			return func(f *frame) bool {
				r := f.r
				var w uint64
				if r[a] != r[b] {
					if xt != nil {
						w = xt(f)
					} else {
						w = getL(r, xs)
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = getL(r, ys)
					}
				}
				setL(r, d, w)
				return true
			}
		case ssa.OpLt:
			return func(f *frame) bool {
				r := f.r
				var w uint64
				if int32(r[a]) < int32(r[b]) {
					if xt != nil {
						w = xt(f)
					} else {
						w = getL(r, xs)
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = getL(r, ys)
					}
				}
				setL(r, d, w)
				return true
			}
		case ssa.OpGe:
			return func(f *frame) bool {
				r := f.r
				var w uint64
				if int32(r[a]) >= int32(r[b]) {
					if xt != nil {
						w = xt(f)
					} else {
						w = getL(r, xs)
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = getL(r, ys)
					}
				}
				setL(r, d, w)
				return true
			}
		case ssa.OpGt:
			return func(f *frame) bool {
				r := f.r
				var w uint64
				if int32(r[a]) > int32(r[b]) {
					if xt != nil {
						w = xt(f)
					} else {
						w = getL(r, xs)
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = getL(r, ys)
					}
				}
				setL(r, d, w)
				return true
			}
		case ssa.OpLe:
			return func(f *frame) bool {
				r := f.r
				var w uint64
				if int32(r[a]) <= int32(r[b]) {
					if xt != nil {
						w = xt(f)
					} else {
						w = getL(r, xs)
					}
				} else {
					if yt != nil {
						w = yt(f)
					} else {
						w = getL(r, ys)
					}
				}
				setL(r, d, w)
				return true
			}
		}
	}
	return nil
}

// selectArms is an int Select with a tree arm as a tree node, one closure
// per comparison so that the test is inline; only the chosen arm runs.
func selectArms(t intTest, x, y intArm) func(*frame) uint32 {
	a, b := t.a, t.b
	xs, xt, ys, yt := x.s, x.t, y.s, y.t
	switch t.op {
	case ssa.OpEq:
		return func(f *frame) uint32 {
			r := f.r
			if r[a] == r[b] {
				if xt != nil {
					return xt(f)
				}
				return r[xs]
			}
			if yt != nil {
				return yt(f)
			}
			return r[ys]
		}
	case ssa.OpNe:
		return func(f *frame) uint32 {
			r := f.r
			if r[a] != r[b] {
				if xt != nil {
					return xt(f)
				}
				return r[xs]
			}
			if yt != nil {
				return yt(f)
			}
			return r[ys]
		}
	case ssa.OpLt:
		return func(f *frame) uint32 {
			r := f.r
			if int32(r[a]) < int32(r[b]) {
				if xt != nil {
					return xt(f)
				}
				return r[xs]
			}
			if yt != nil {
				return yt(f)
			}
			return r[ys]
		}
	case ssa.OpGe:
		return func(f *frame) uint32 {
			r := f.r
			if int32(r[a]) >= int32(r[b]) {
				if xt != nil {
					return xt(f)
				}
				return r[xs]
			}
			if yt != nil {
				return yt(f)
			}
			return r[ys]
		}
	case ssa.OpGt:
		return func(f *frame) uint32 {
			r := f.r
			if int32(r[a]) > int32(r[b]) {
				if xt != nil {
					return xt(f)
				}
				return r[xs]
			}
			if yt != nil {
				return yt(f)
			}
			return r[ys]
		}
	case ssa.OpLe:
		return func(f *frame) uint32 {
			r := f.r
			if int32(r[a]) <= int32(r[b]) {
				if xt != nil {
					return xt(f)
				}
				return r[xs]
			}
			if yt != nil {
				return yt(f)
			}
			return r[ys]
		}
	}
	panic(unsupported("a Select on " + t.op.String()))
}
