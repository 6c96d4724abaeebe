package ssa

import "math"

// constFold evaluates values whose arguments are all constants with
// Java's arithmetic (wrapping integers, masked shift counts, saturating
// float-to-integer conversions), turns φs that merge one constant into
// that constant, deletes divide-by-zero checks of non-zero constants, and
// turns If and Switch blocks with a constant control into Plain ones,
// dropping the edges never taken. It repeats until nothing changes, so
// constants propagate through the φs of the branches it folds.
func constFold(f *Func) {
	folded := false
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for i := 0; i < len(b.Values); i++ {
				v := b.Values[i]
				if v.Op == OpDivZeroCheck {
					if c, ok := v.Args[0].IsConst(); ok && c != 0 {
						b.Values = append(b.Values[:i], b.Values[i+1:]...)
						i--
						changed = true
					}
					continue
				}
				if bits, ok := fold(v); ok {
					v.Op, v.Args, v.Aux = OpConst, nil, bits
					changed = true
				}
			}
			if foldBranch(b) {
				changed = true
				folded = true
			}
		}
		if folded {
			// so φs see only the edges still taken
			removeUnreachable(f)
			folded = false
		}
	}
	// a φ folded to a constant may sit among the φs: keep them first
	for _, b := range f.Blocks {
		phisFirst(b)
	}
}

// phisFirst reorders b's values so its φs come first, keeping the order
// of the φs and of the rest.
func phisFirst(b *Block) {
	sorted := true
	seenOther := false
	for _, v := range b.Values {
		if v.Op != OpPhi {
			seenOther = true
		} else if seenOther {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	out := make([]*Value, 0, len(b.Values))
	for _, v := range b.Values {
		if v.Op == OpPhi {
			out = append(out, v)
		}
	}
	for _, v := range b.Values {
		if v.Op != OpPhi {
			out = append(out, v)
		}
	}
	b.Values = out
}

// foldBranch makes an If or Switch with a constant control a Plain block.
func foldBranch(b *Block) bool {
	c := b.Control
	if c == nil || c.Op != OpConst || (b.Kind != BlockIf && b.Kind != BlockSwitch) {
		return false
	}
	normal := len(b.Succs) - b.NCatch
	keep := normal - 1 // the false successor, or the switch default
	if b.Kind == BlockIf && c.Aux != 0 {
		keep = 0
	}
	if b.Kind == BlockSwitch {
		for i, k := range b.Keys {
			if int64(k) == c.Aux {
				keep = i
				break
			}
		}
	}
	// Remove the other normal edges from the last, so indices stay
	// valid; a successor reached by several edges keeps the one taken.
	for i := normal - 1; i >= 0; i-- {
		if i != keep {
			b.RemoveSucc(i)
		}
	}
	b.Kind, b.Control, b.Keys = BlockPlain, nil, nil
	return true
}

// fold returns the constant bits of v if its arguments make it constant.
func fold(v *Value) (int64, bool) {
	switch v.Op {
	case OpConst, OpParam, OpThis:
		return 0, false
	case OpPhi:
		var c *Value
		for _, a := range v.Args {
			if a == v {
				continue
			}
			if a.Op != OpConst || a.Type != v.Type || (c != nil && a.Aux != c.Aux) {
				return 0, false
			}
			c = a
		}
		if c == nil {
			return 0, false
		}
		return c.Aux, true
	}
	if len(v.Args) == 0 || len(v.Args) > 2 || v.Op.HasEffect() {
		return 0, false
	}
	for _, a := range v.Args {
		if a.Op != OpConst {
			return 0, false
		}
	}
	x := v.Args[0]
	if len(v.Args) == 1 {
		return foldUnary(v.Op, v.Type, x.Type, x.Aux)
	}
	y := v.Args[1]
	switch v.Op {
	case OpEq, OpNe, OpLt, OpGe, OpGt, OpLe:
		return foldCond(v.Op, x.Type, x.Aux, y.Aux)
	case OpCmpl, OpCmpg:
		return foldCmp(v.Op, x.Type, x.Aux, y.Aux)
	}
	switch v.Type {
	case TypeInt:
		r, ok := foldInt(v.Op, int64(int32(x.Aux)), int64(int32(y.Aux)), 31)
		return int64(int32(r)), ok
	case TypeLong:
		return foldInt(v.Op, x.Aux, y.Aux, 63)
	case TypeFloat:
		r, ok := foldFloat(v.Op, float64(math.Float32frombits(uint32(x.Aux))), float64(math.Float32frombits(uint32(y.Aux))))
		return int64(math.Float32bits(float32(r))), ok
	case TypeDouble:
		r, ok := foldFloat(v.Op, math.Float64frombits(uint64(x.Aux)), math.Float64frombits(uint64(y.Aux)))
		return int64(math.Float64bits(r)), ok
	}
	return 0, false
}

// foldInt folds an integer op; for int the operands are sign-extended
// and the caller truncates the result. mask is the shift-count mask.
func foldInt(op Op, x, y int64, mask int64) (int64, bool) {
	switch op {
	case OpAdd:
		return x + y, true
	case OpSub:
		return x - y, true
	case OpMul:
		return x * y, true
	case OpDiv, OpRem:
		if y == 0 {
			return 0, false // its DivZeroCheck throws
		}
		if y == -1 {
			// MIN / -1 wraps to MIN and MIN % -1 is 0 in Java; Go
			// panics on the 64-bit case, so do it by negation.
			if op == OpDiv {
				return -x, true
			}
			return 0, true
		}
		if op == OpDiv {
			return x / y, true
		}
		return x % y, true
	case OpAnd:
		return x & y, true
	case OpOr:
		return x | y, true
	case OpXor:
		return x ^ y, true
	case OpShl:
		return x << uint(y&mask), true
	case OpShr:
		return x >> uint(y&mask), true
	case OpUshr:
		if mask == 31 {
			return int64(uint32(x) >> uint(y&mask)), true
		}
		return int64(uint64(x) >> uint(y&mask)), true
	}
	return 0, false
}

func foldFloat(op Op, x, y float64) (float64, bool) {
	switch op {
	case OpAdd:
		return x + y, true
	case OpSub:
		return x - y, true
	case OpMul:
		return x * y, true
	case OpDiv:
		return x / y, true
	case OpRem:
		return math.Mod(x, y), true // Java's % on floats truncates, as fmod
	}
	return 0, false
}

func asFloat(t Type, bits int64) float64 {
	if t == TypeFloat {
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(uint64(bits))
}

func foldCmp(op Op, t Type, x, y int64) (int64, bool) {
	switch t {
	case TypeLong:
		return int64(cmp3(x < y, x > y)), true
	case TypeFloat, TypeDouble:
		a, b := asFloat(t, x), asFloat(t, y)
		if math.IsNaN(a) || math.IsNaN(b) {
			if op == OpCmpg {
				return 1, true
			}
			return -1, true
		}
		return int64(cmp3(a < b, a > b)), true
	}
	return 0, false
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

func foldCond(op Op, t Type, x, y int64) (int64, bool) {
	if t != TypeInt && t != TypeRef {
		return 0, false
	}
	x, y = int64(int32(x)), int64(int32(y))
	var r bool
	switch op {
	case OpEq:
		r = x == y
	case OpNe:
		r = x != y
	case OpLt:
		r = x < y
	case OpGe:
		r = x >= y
	case OpGt:
		r = x > y
	case OpLe:
		r = x <= y
	}
	if r {
		return 1, true
	}
	return 0, true
}

func foldUnary(op Op, to, from Type, x int64) (int64, bool) {
	switch op {
	case OpNeg:
		switch to {
		case TypeInt:
			return int64(-int32(x)), true
		case TypeLong:
			return -x, true
		case TypeFloat:
			return int64(math.Float32bits(-math.Float32frombits(uint32(x)))), true
		case TypeDouble:
			return int64(math.Float64bits(-math.Float64frombits(uint64(x)))), true
		}
	case OpNot:
		switch to {
		case TypeInt:
			return int64(^int32(x)), true
		case TypeLong:
			return ^x, true
		}
	case OpIntToByte:
		return int64(int8(x)), true
	case OpIntToChar:
		return int64(uint16(x)), true
	case OpIntToShort:
		return int64(int16(x)), true
	case OpConv:
		return foldConv(to, from, x)
	}
	return 0, false
}

func foldConv(to, from Type, x int64) (int64, bool) {
	switch from {
	case TypeInt, TypeLong:
		n := x
		if from == TypeInt {
			n = int64(int32(x))
		}
		switch to {
		case TypeInt:
			return int64(int32(n)), true
		case TypeLong:
			return n, true
		case TypeFloat:
			return int64(math.Float32bits(float32(n))), true
		case TypeDouble:
			return int64(math.Float64bits(float64(n))), true
		}
	case TypeFloat, TypeDouble:
		d := asFloat(from, x)
		switch to {
		case TypeInt:
			return int64(javaToInt(d, math.MinInt32, math.MaxInt32)), true
		case TypeLong:
			return javaToInt(d, math.MinInt64, math.MaxInt64), true
		case TypeFloat:
			return int64(math.Float32bits(float32(d))), true
		case TypeDouble:
			return int64(math.Float64bits(d)), true
		}
	}
	return 0, false
}

// javaToInt converts as Java does: NaN is 0, out-of-range values
// saturate, the rest truncate toward zero.
func javaToInt(d float64, lo, hi int64) int64 {
	switch {
	case math.IsNaN(d):
		return 0
	case d <= float64(lo):
		return lo
	case d >= float64(hi):
		return hi
	}
	return int64(d)
}
