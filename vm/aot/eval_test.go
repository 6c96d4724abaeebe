package aot_test

import (
	"fmt"
	"math"

	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// outcome is what running a function gives: a returned value's bits or
// the kind of exception it ended with; steps ran out when it looped
// longer than the budget.
type outcome struct {
	ret       int64
	exception string
	steps     bool
}

func (o outcome) String() string {
	switch {
	case o.steps:
		return "out of steps"
	case o.exception != "":
		return "throws " + o.exception
	}
	return fmt.Sprintf("returns %d", o.ret)
}

// evalEnv is the world outside a function: static int fields (by field
// index) and the static methods it may call.
type evalEnv struct {
	statics map[int64]int64
	callee  func(method int64) (*ssa.Func, error)
	depth   int
}

// evalIR runs f on params with the semantics the IR documents, for the
// subset of ops that needs no more runtime than env (arithmetic,
// conversions, comparisons, φs, branches, checks, int arrays, catch-all
// handlers, static int fields, static calls). It is the reference the
// passes are tested against: a pass may change the IR, never what it
// computes.
func evalIR(f *ssa.Func, params []int64, budget int, env *evalEnv) (out outcome, err error) {
	vals := make([]int64, f.NumValues())
	var arrays [][]int64 // a reference is an index + 1; 0 is null
	b, prev := f.Entry(), (*ssa.Block)(nil)
	var caught string
	for steps := 0; ; steps++ {
		if steps > budget {
			return outcome{steps: true}, nil
		}
		// φs read their arguments before any of them is written
		pi := -1
		if prev != nil {
			for i, p := range b.Preds {
				if p == prev {
					pi = i
					break
				}
			}
		}
		var phis []int64
		for _, v := range b.Values {
			if v.Op != ssa.OpPhi {
				break
			}
			phis = append(phis, vals[v.Args[pi].ID])
		}
		for i, v := range phis {
			vals[b.Values[i].ID] = v
		}
		thrown := ""
		for _, v := range b.Values[len(phis):] {
			arg := func(i int) int64 { return vals[v.Args[i].ID] }
			switch v.Op {
			case ssa.OpParam:
				vals[v.ID] = params[v.Aux]
			case ssa.OpConst:
				vals[v.ID] = v.Aux
			case ssa.OpCopy:
				vals[v.ID] = arg(0)
			case ssa.OpException:
				if caught == "" {
					return out, fmt.Errorf("v%d: no exception caught", v.ID)
				}
				vals[v.ID] = 1 // a non-null reference; nothing reads it
			case ssa.OpNullCheck:
				if arg(0) == 0 {
					thrown = "NullPointerException"
				}
			case ssa.OpBoundsCheck:
				if i := int32(arg(0)); i < 0 || i >= int32(arg(1)) {
					thrown = "ArrayIndexOutOfBoundsException"
				}
			case ssa.OpDivZeroCheck:
				if arg(0) == 0 || v.Args[0].Type == ssa.TypeInt && int32(arg(0)) == 0 {
					thrown = "ArithmeticException"
				}
			case ssa.OpNewArray:
				n := int32(arg(0))
				if n < 0 {
					thrown = "NegativeArraySizeException"
					break
				}
				if n > 1<<16 {
					thrown = "OutOfMemoryError" // a small heap
					break
				}
				arrays = append(arrays, make([]int64, n))
				vals[v.ID] = int64(len(arrays))
			case ssa.OpSGet:
				vals[v.ID] = env.statics[v.Aux]
			case ssa.OpSPut:
				env.statics[v.Aux] = arg(0)
			case ssa.OpInvokeStatic:
				if env.callee == nil || env.depth > 8 {
					return out, fmt.Errorf("v%d: no call %d deep", v.ID, env.depth)
				}
				g, err := env.callee(v.Aux)
				if err != nil {
					return out, err
				}
				args := make([]int64, len(v.Args))
				for i := range args {
					args[i] = arg(i)
				}
				env.depth++
				r, err := evalIR(g, args, budget, env)
				env.depth--
				if err != nil || r.steps {
					return r, err
				}
				if r.exception != "" {
					thrown = r.exception
					break
				}
				vals[v.ID] = r.ret
			case ssa.OpArrayLength, ssa.OpAGet, ssa.OpAPut:
				// a deleted check shows here as an access the IR said
				// could not fail
				ref := arg(0)
				if ref <= 0 || ref > int64(len(arrays)) {
					return out, fmt.Errorf("v%d: %s of a null reference past its check", v.ID, v.Op)
				}
				a := arrays[ref-1]
				if v.Op == ssa.OpArrayLength {
					vals[v.ID] = int64(len(a))
					break
				}
				i := int32(arg(1))
				if i < 0 || int(i) >= len(a) {
					return out, fmt.Errorf("v%d: %s at index %d of %d past its check", v.ID, v.Op, i, len(a))
				}
				if v.Op == ssa.OpAGet {
					vals[v.ID] = a[i]
				} else {
					a[i] = arg(2)
				}
			default:
				r, err := evalPure(v, arg)
				if err != nil {
					return out, err
				}
				vals[v.ID] = r
			}
			if thrown != "" {
				break
			}
		}
		if thrown != "" {
			normal := len(b.Succs) - b.NCatch
			if b.NCatch == 0 {
				return outcome{exception: thrown}, nil
			}
			// the generated programs catch everything with one handler
			caught = thrown
			prev, b = b, b.Succs[normal]
			continue
		}
		switch b.Kind {
		case ssa.BlockPlain:
			prev, b = b, b.Succs[0]
		case ssa.BlockIf:
			if vals[b.Control.ID] != 0 {
				prev, b = b, b.Succs[0]
			} else {
				prev, b = b, b.Succs[1]
			}
		case ssa.BlockSwitch:
			k := int32(vals[b.Control.ID])
			next := b.Succs[len(b.Keys)]
			for i, key := range b.Keys {
				if key == k {
					next = b.Succs[i]
					break
				}
			}
			prev, b = b, next
		case ssa.BlockReturn:
			if b.Control == nil {
				return outcome{}, nil
			}
			r := vals[b.Control.ID]
			if b.Control.Type == ssa.TypeInt {
				r = int64(int32(r))
			}
			return outcome{ret: r}, nil
		case ssa.BlockThrow:
			return outcome{exception: "thrown"}, nil
		}
	}
}

// evalPure computes the ops without effects.
func evalPure(v *ssa.Value, arg func(int) int64) (int64, error) {
	t := v.Type
	switch v.Op {
	case ssa.OpSelect:
		if arg(0) != 0 {
			return arg(1), nil
		}
		return arg(2), nil
	case ssa.OpEq, ssa.OpNe, ssa.OpLt, ssa.OpGe, ssa.OpGt, ssa.OpLe:
		x, y := int32(arg(0)), int32(arg(1))
		r := map[ssa.Op]bool{ssa.OpEq: x == y, ssa.OpNe: x != y, ssa.OpLt: x < y, ssa.OpGe: x >= y, ssa.OpGt: x > y, ssa.OpLe: x <= y}[v.Op]
		if r {
			return 1, nil
		}
		return 0, nil
	case ssa.OpCmpl, ssa.OpCmpg:
		at := v.Args[0].Type
		if at == ssa.TypeLong {
			return int64(sign(arg(0) < arg(1), arg(0) > arg(1))), nil
		}
		x, y := toF(at, arg(0)), toF(at, arg(1))
		if math.IsNaN(x) || math.IsNaN(y) {
			if v.Op == ssa.OpCmpg {
				return 1, nil
			}
			return -1, nil
		}
		return int64(sign(x < y, x > y)), nil
	case ssa.OpIntToByte:
		return int64(int8(arg(0))), nil
	case ssa.OpIntToChar:
		return int64(uint16(arg(0))), nil
	case ssa.OpIntToShort:
		return int64(int16(arg(0))), nil
	case ssa.OpConv:
		from := v.Args[0].Type
		x := arg(0)
		switch {
		case (from == ssa.TypeInt || from == ssa.TypeLong) && (t == ssa.TypeInt || t == ssa.TypeLong):
			if from == ssa.TypeInt {
				x = int64(int32(x))
			}
			if t == ssa.TypeInt {
				return int64(int32(x)), nil
			}
			return x, nil
		case from == ssa.TypeInt || from == ssa.TypeLong:
			if from == ssa.TypeInt {
				x = int64(int32(x))
			}
			return fromF(t, float64(x)), nil
		default:
			d := toF(from, x)
			switch t {
			case ssa.TypeInt:
				return int64(javaInt(d, math.MinInt32, math.MaxInt32)), nil
			case ssa.TypeLong:
				return javaInt(d, math.MinInt64, math.MaxInt64), nil
			}
			return fromF(t, d), nil
		}
	}
	if t == ssa.TypeFloat || t == ssa.TypeDouble {
		x := toF(t, arg(0))
		if v.Op == ssa.OpNeg {
			return fromF(t, -x), nil
		}
		y := toF(t, arg(1))
		var r float64
		switch v.Op {
		case ssa.OpAdd:
			r = x + y
		case ssa.OpSub:
			r = x - y
		case ssa.OpMul:
			r = x * y
		case ssa.OpDiv:
			r = x / y
		case ssa.OpRem:
			r = math.Mod(x, y)
		default:
			return 0, fmt.Errorf("v%d: %s on %s not evaluated", v.ID, v.Op, t)
		}
		if t == ssa.TypeFloat {
			r = float64(float32(r))
		}
		return fromF(t, r), nil
	}
	long := t == ssa.TypeLong
	norm := func(x int64) int64 {
		if long {
			return x
		}
		return int64(int32(x))
	}
	x := norm(arg(0))
	if v.Op == ssa.OpNeg {
		return norm(-x), nil
	}
	if v.Op == ssa.OpNot {
		return norm(^x), nil
	}
	if len(v.Args) != 2 {
		return 0, fmt.Errorf("v%d: %s not evaluated", v.ID, v.Op)
	}
	y := arg(1)
	mask := int64(31)
	if long {
		mask = 63
	}
	switch v.Op {
	case ssa.OpShl:
		return norm(x << uint(y&mask)), nil
	case ssa.OpShr:
		return norm(x >> uint(y&mask)), nil
	case ssa.OpUshr:
		if long {
			return int64(uint64(x) >> uint(y&mask)), nil
		}
		return int64(int32(uint32(x) >> uint(y&mask))), nil
	}
	y = norm(y)
	switch v.Op {
	case ssa.OpAdd:
		return norm(x + y), nil
	case ssa.OpSub:
		return norm(x - y), nil
	case ssa.OpMul:
		return norm(x * y), nil
	case ssa.OpAnd:
		return x & y, nil
	case ssa.OpOr:
		return x | y, nil
	case ssa.OpXor:
		return x ^ y, nil
	case ssa.OpDiv, ssa.OpRem:
		if y == 0 {
			return 0, fmt.Errorf("v%d: division by zero past its check", v.ID)
		}
		if y == -1 {
			if v.Op == ssa.OpDiv {
				return norm(-x), nil
			}
			return 0, nil
		}
		if v.Op == ssa.OpDiv {
			return norm(x / y), nil
		}
		return norm(x % y), nil
	}
	return 0, fmt.Errorf("v%d: %s not evaluated", v.ID, v.Op)
}

func sign(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

func toF(t ssa.Type, bits int64) float64 {
	if t == ssa.TypeFloat {
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(uint64(bits))
}

func fromF(t ssa.Type, d float64) int64 {
	if t == ssa.TypeFloat {
		return int64(math.Float32bits(float32(d)))
	}
	return int64(math.Float64bits(d))
}

func javaInt(d float64, lo, hi int64) int64 {
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
