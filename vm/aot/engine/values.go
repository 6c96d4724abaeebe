package engine

import (
	"fmt"
	"math"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/runtime"
)

// value lowers one value to an instruction, or nil when it needs none
// (parameters, constants, φs, conditions fused with their branch).
func (l *lowerer) value(v *ssa.Value) instr {
	switch v.Op {
	case ssa.OpThis, ssa.OpParam, ssa.OpConst, ssa.OpUndef, ssa.OpPhi:
		return nil
	case ssa.OpEq, ssa.OpNe, ssa.OpLt, ssa.OpGe, ssa.OpGt, ssa.OpLe:
		if v.Type != ssa.TypeBool {
			panic(unsupported("a comparison with a non-bool result"))
		}
		return nil
	case ssa.OpCopy:
		d, a := l.s(v), l.s(v.Args[0])
		if v.Type.Wide() {
			return func(f *frame) bool { r := f.r; r[d], r[d+1] = r[a], r[a+1]; return true }
		}
		return func(f *frame) bool { r := f.r; r[d] = r[a]; return true }
	case ssa.OpException:
		d := l.s(v)
		return func(f *frame) bool { r := f.r; r[d] = f.t.Caught; f.t.Caught = 0; return true }
	case ssa.OpAdd, ssa.OpSub, ssa.OpMul, ssa.OpDiv, ssa.OpRem, ssa.OpAnd, ssa.OpOr, ssa.OpXor, ssa.OpShl, ssa.OpShr, ssa.OpUshr:
		return l.binop(v)
	case ssa.OpNeg, ssa.OpNot, ssa.OpConv, ssa.OpIntToByte, ssa.OpIntToChar, ssa.OpIntToShort:
		return l.unop(v)
	case ssa.OpCmpl, ssa.OpCmpg:
		return l.cmp(v)
	case ssa.OpBarrier:
		return l.barrier(v)
	case ssa.OpSelect:
		return l.selectValue(v)
	}
	return l.object(v)
}

func (l *lowerer) binop(v *ssa.Value) instr {
	d, a, b := l.s(v), l.s(v.Args[0]), l.s(v.Args[1])
	switch v.Type {
	case ssa.TypeInt:
		if k, ok := v.Args[1].IsConst(); ok {
			if in := intConstOp(v.Op, d, a, int32(k)); in != nil {
				return in
			}
		}
		switch v.Op {
		case ssa.OpAdd:
			return func(f *frame) bool { r := f.r; r[d] = r[a] + r[b]; return true }
		case ssa.OpSub:
			return func(f *frame) bool { r := f.r; r[d] = r[a] - r[b]; return true }
		case ssa.OpMul:
			return func(f *frame) bool { r := f.r; r[d] = uint32(int32(r[a]) * int32(r[b])); return true }
		case ssa.OpDiv:
			return func(f *frame) bool {
				if y := int32(f.r[b]); y == -1 {
					f.r[d] = uint32(-int32(f.r[a]))
				} else {
					f.r[d] = uint32(int32(f.r[a]) / y)
				}
				return true
			}
		case ssa.OpRem:
			return func(f *frame) bool {
				if y := int32(f.r[b]); y == -1 {
					f.r[d] = 0
				} else {
					f.r[d] = uint32(int32(f.r[a]) % y)
				}
				return true
			}
		case ssa.OpAnd:
			return func(f *frame) bool { r := f.r; r[d] = r[a] & r[b]; return true }
		case ssa.OpOr:
			return func(f *frame) bool { r := f.r; r[d] = r[a] | r[b]; return true }
		case ssa.OpXor:
			return func(f *frame) bool { r := f.r; r[d] = r[a] ^ r[b]; return true }
		case ssa.OpShl:
			return func(f *frame) bool { r := f.r; r[d] = r[a] << (r[b] & 31); return true }
		case ssa.OpShr:
			return func(f *frame) bool { r := f.r; r[d] = uint32(int32(r[a]) >> (r[b] & 31)); return true }
		case ssa.OpUshr:
			return func(f *frame) bool { r := f.r; r[d] = r[a] >> (r[b] & 31); return true }
		}
	case ssa.TypeLong:
		switch v.Op {
		case ssa.OpAdd:
			return func(f *frame) bool { r := f.r; setL(r, d, getL(r, a)+getL(r, b)); return true }
		case ssa.OpSub:
			return func(f *frame) bool { r := f.r; setL(r, d, getL(r, a)-getL(r, b)); return true }
		case ssa.OpMul:
			return func(f *frame) bool { r := f.r; setL(r, d, getL(r, a)*getL(r, b)); return true }
		case ssa.OpDiv:
			return func(f *frame) bool {
				if y := int64(getL(f.r, b)); y == -1 {
					setL(f.r, d, uint64(-int64(getL(f.r, a))))
				} else {
					setL(f.r, d, uint64(int64(getL(f.r, a))/y))
				}
				return true
			}
		case ssa.OpRem:
			return func(f *frame) bool {
				if y := int64(getL(f.r, b)); y == -1 {
					setL(f.r, d, 0)
				} else {
					setL(f.r, d, uint64(int64(getL(f.r, a))%y))
				}
				return true
			}
		case ssa.OpAnd:
			return func(f *frame) bool { r := f.r; setL(r, d, getL(r, a)&getL(r, b)); return true }
		case ssa.OpOr:
			return func(f *frame) bool { r := f.r; setL(r, d, getL(r, a)|getL(r, b)); return true }
		case ssa.OpXor:
			return func(f *frame) bool { r := f.r; setL(r, d, getL(r, a)^getL(r, b)); return true }
		case ssa.OpShl:
			return func(f *frame) bool { r := f.r; setL(r, d, getL(r, a)<<(r[b]&63)); return true }
		case ssa.OpShr:
			return func(f *frame) bool { r := f.r; setL(r, d, uint64(int64(getL(r, a))>>(r[b]&63))); return true }
		case ssa.OpUshr:
			return func(f *frame) bool { r := f.r; setL(r, d, getL(r, a)>>(r[b]&63)); return true }
		}
	case ssa.TypeFloat:
		switch v.Op {
		case ssa.OpAdd:
			return func(f *frame) bool { r := f.r; r[d] = math.Float32bits(fl(r, a) + fl(r, b)); return true }
		case ssa.OpSub:
			return func(f *frame) bool { r := f.r; r[d] = math.Float32bits(fl(r, a) - fl(r, b)); return true }
		case ssa.OpMul:
			return func(f *frame) bool { r := f.r; r[d] = math.Float32bits(fl(r, a) * fl(r, b)); return true }
		case ssa.OpDiv:
			return func(f *frame) bool { r := f.r; r[d] = math.Float32bits(fl(r, a) / fl(r, b)); return true }
		case ssa.OpRem:
			return func(f *frame) bool {
				r := f.r
				r[d] = math.Float32bits(float32(math.Mod(float64(fl(r, a)), float64(fl(r, b)))))
				return true
			}
		}
	case ssa.TypeDouble:
		switch v.Op {
		case ssa.OpAdd:
			return func(f *frame) bool { r := f.r; setL(r, d, math.Float64bits(db(r, a)+db(r, b))); return true }
		case ssa.OpSub:
			return func(f *frame) bool { r := f.r; setL(r, d, math.Float64bits(db(r, a)-db(r, b))); return true }
		case ssa.OpMul:
			return func(f *frame) bool { r := f.r; setL(r, d, math.Float64bits(db(r, a)*db(r, b))); return true }
		case ssa.OpDiv:
			return func(f *frame) bool { r := f.r; setL(r, d, math.Float64bits(db(r, a)/db(r, b))); return true }
		case ssa.OpRem:
			return func(f *frame) bool { r := f.r; setL(r, d, math.Float64bits(math.Mod(db(r, a), db(r, b)))); return true }
		}
	}
	panic(unsupported(fmt.Sprintf("%s <%s>", v.Op, v.Type)))
}

// intConstOp specialises the common int operations with a constant
// second operand (loop counters, literal forms).
func intConstOp(op ssa.Op, d, a int, k int32) instr {
	u := uint32(k)
	switch op {
	case ssa.OpAdd:
		return func(f *frame) bool { r := f.r; r[d] = r[a] + u; return true }
	case ssa.OpSub:
		return func(f *frame) bool { r := f.r; r[d] = r[a] - u; return true }
	case ssa.OpMul:
		return func(f *frame) bool { r := f.r; r[d] = uint32(int32(r[a]) * k); return true }
	case ssa.OpAnd:
		return func(f *frame) bool { r := f.r; r[d] = r[a] & u; return true }
	case ssa.OpShl:
		s := u & 31
		return func(f *frame) bool { r := f.r; r[d] = r[a] << s; return true }
	case ssa.OpShr:
		s := u & 31
		return func(f *frame) bool { r := f.r; r[d] = uint32(int32(r[a]) >> s); return true }
	case ssa.OpUshr:
		s := u & 31
		return func(f *frame) bool { r := f.r; r[d] = r[a] >> s; return true }
	}
	return nil
}

func (l *lowerer) unop(v *ssa.Value) instr {
	d, a := l.s(v), l.s(v.Args[0])
	from := v.Args[0].Type
	switch v.Op {
	case ssa.OpIntToByte:
		return func(f *frame) bool { r := f.r; r[d] = uint32(int32(int8(r[a]))); return true }
	case ssa.OpIntToChar:
		return func(f *frame) bool { r := f.r; r[d] = uint32(uint16(r[a])); return true }
	case ssa.OpIntToShort:
		return func(f *frame) bool { r := f.r; r[d] = uint32(int32(int16(r[a]))); return true }
	case ssa.OpNeg:
		switch v.Type {
		case ssa.TypeInt:
			return func(f *frame) bool { r := f.r; r[d] = uint32(-int32(r[a])); return true }
		case ssa.TypeLong:
			return func(f *frame) bool { r := f.r; setL(r, d, uint64(-int64(getL(r, a)))); return true }
		case ssa.TypeFloat:
			return func(f *frame) bool { r := f.r; r[d] = r[a] ^ 0x80000000; return true }
		case ssa.TypeDouble:
			return func(f *frame) bool { r := f.r; r[d], r[d+1] = r[a], r[a+1]^0x80000000; return true }
		}
	case ssa.OpNot:
		switch v.Type {
		case ssa.TypeInt:
			return func(f *frame) bool { r := f.r; r[d] = ^r[a]; return true }
		case ssa.TypeLong:
			return func(f *frame) bool { r := f.r; setL(r, d, ^getL(r, a)); return true }
		}
	case ssa.OpConv:
		switch [2]ssa.Type{from, v.Type} {
		case [2]ssa.Type{ssa.TypeInt, ssa.TypeLong}:
			return func(f *frame) bool { r := f.r; setL(r, d, uint64(int64(int32(r[a])))); return true }
		case [2]ssa.Type{ssa.TypeInt, ssa.TypeFloat}:
			return func(f *frame) bool { r := f.r; r[d] = math.Float32bits(float32(int32(r[a]))); return true }
		case [2]ssa.Type{ssa.TypeInt, ssa.TypeDouble}:
			return func(f *frame) bool { r := f.r; setL(r, d, math.Float64bits(float64(int32(r[a])))); return true }
		case [2]ssa.Type{ssa.TypeLong, ssa.TypeInt}:
			return func(f *frame) bool { r := f.r; r[d] = r[a]; return true }
		case [2]ssa.Type{ssa.TypeLong, ssa.TypeFloat}:
			return func(f *frame) bool { r := f.r; r[d] = math.Float32bits(float32(int64(getL(r, a)))); return true }
		case [2]ssa.Type{ssa.TypeLong, ssa.TypeDouble}:
			return func(f *frame) bool { r := f.r; setL(r, d, math.Float64bits(float64(int64(getL(r, a))))); return true }
		case [2]ssa.Type{ssa.TypeFloat, ssa.TypeInt}:
			return func(f *frame) bool { r := f.r; r[d] = uint32(runtime.F2I(float64(fl(r, a)))); return true }
		case [2]ssa.Type{ssa.TypeFloat, ssa.TypeLong}:
			return func(f *frame) bool { r := f.r; setL(r, d, uint64(runtime.F2L(float64(fl(r, a))))); return true }
		case [2]ssa.Type{ssa.TypeFloat, ssa.TypeDouble}:
			return func(f *frame) bool { r := f.r; setL(r, d, math.Float64bits(float64(fl(r, a)))); return true }
		case [2]ssa.Type{ssa.TypeDouble, ssa.TypeInt}:
			return func(f *frame) bool { r := f.r; r[d] = uint32(runtime.F2I(db(r, a))); return true }
		case [2]ssa.Type{ssa.TypeDouble, ssa.TypeLong}:
			return func(f *frame) bool { r := f.r; setL(r, d, uint64(runtime.F2L(db(r, a)))); return true }
		case [2]ssa.Type{ssa.TypeDouble, ssa.TypeFloat}:
			return func(f *frame) bool { r := f.r; r[d] = math.Float32bits(float32(db(r, a))); return true }
		}
	}
	panic(unsupported(fmt.Sprintf("%s <%s> of %s", v.Op, v.Type, from)))
}

func (l *lowerer) cmp(v *ssa.Value) instr {
	d, a, b := l.s(v), l.s(v.Args[0]), l.s(v.Args[1])
	nan := int32(-1)
	if v.Op == ssa.OpCmpg {
		nan = 1
	}
	order := func(lt, gt, eq bool) uint32 {
		switch {
		case lt:
			return 0xffffffff
		case gt:
			return 1
		case eq:
			return 0
		}
		return uint32(nan)
	}
	switch v.Args[0].Type {
	case ssa.TypeLong:
		return func(f *frame) bool {
			x, y := int64(getL(f.r, a)), int64(getL(f.r, b))
			f.r[d] = order(x < y, x > y, true)
			return true
		}
	case ssa.TypeFloat:
		return func(f *frame) bool {
			x, y := math.Float32frombits(f.r[a]), math.Float32frombits(f.r[b])
			f.r[d] = order(x < y, x > y, x == y)
			return true
		}
	case ssa.TypeDouble:
		return func(f *frame) bool {
			x, y := math.Float64frombits(getL(f.r, a)), math.Float64frombits(getL(f.r, b))
			f.r[d] = order(x < y, x > y, x == y)
			return true
		}
	}
	panic(unsupported(fmt.Sprintf("%s of %s", v.Op, v.Args[0].Type)))
}

func fl(r []uint32, i int) float32 { return math.Float32frombits(r[i]) }
func db(r []uint32, i int) float64 { return math.Float64frombits(getL(r, i)) }
