package engine

//go:generate go run exprgen.go

import (
	"math"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/runtime"
)

// Expression trees. A numeric value used once, by a value of its own
// block that can take it as an operand, is not given an instruction of
// its own: its user evaluates it as a typed Go closure whose result comes
// back in a machine register, instead of a store to its slot and a load
// from it (plan decides which). The nodes read slot and constant
// operands themselves (expr_gen.go has a closure per operation and
// operand kind), so SOR's inner loop is a handful of calls.
//
// Only int, long, float and double values form trees; references never
// do, because a reference held in a Go local across a collection would
// not be updated by a moving collector. The one node that may throw is an
// array load; it reads its array from its slot when it runs, and when its
// check fails it throws and sets frame.threw, which the tree's root
// tests: the rest of the tree still runs, on zeros, but throws nothing
// more and its result is dropped. plan only lets a load into a tree when
// the tree evaluates it in block order with no other effect in between,
// so exceptions come in the interpreter's order.

// Operand kinds of a tree node, as expr_gen.go numbers them.
const (
	opSlot  = 0
	opConst = 1
	opTree  = 2
	opElem  = 3 // an array load with slot operands, read by the node itself
	opElemB = 4 // opElem with the load's barriers, marked by the node first
	// compound operands: an int operation of a slot and a constant
	// (s, k), evaluated by the node that reads it (compound)
	opCAnd  = 5
	opCShl  = 6
	opCShr  = 7
	opCUshr = 8
	opCAdd  = 9
	opCEq   = 10 // opCEq … opCLe: a comparison of slots s and s2 as 0 or 1
)

// compoundCmp are the compound operand kinds of the comparisons.
var compoundCmp = map[ssa.Op]int{ssa.OpEq: opCEq, ssa.OpNe: opCEq + 1, ssa.OpLt: opCEq + 2, ssa.OpGe: opCEq + 3, ssa.OpGt: opCEq + 4, ssa.OpLe: opCEq + 5}

// negated is the comparison that holds when op does not.
var negated = map[ssa.Op]ssa.Op{ssa.OpEq: ssa.OpNe, ssa.OpNe: ssa.OpEq, ssa.OpLt: ssa.OpGe, ssa.OpGe: ssa.OpLt, ssa.OpGt: ssa.OpLe, ssa.OpLe: ssa.OpGt}

// bit is 1 for true, 0 for false.
func bit(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// boolSelect returns a as a compound comparison when it is a tree node
// that is an int Select of an int comparison between the constants 1
// and 0 (either way round).
func (l *lowerer) boolSelect(a *ssa.Value) (intOpnd, bool) {
	if !l.inl[a.ID] || a.Op != ssa.OpSelect || a.Type != ssa.TypeInt || !intCompare(a.Args[0]) {
		return intOpnd{}, false
	}
	x, okx := a.Args[1].IsConst()
	y, oky := a.Args[2].IsConst()
	if !okx || !oky || l.inl[a.Args[1].ID] || l.inl[a.Args[2].ID] {
		return intOpnd{}, false
	}
	c := a.Args[0]
	op := c.Op
	switch {
	case x == 1 && y == 0:
	case x == 0 && y == 1:
		op = negated[op]
	default:
		return intOpnd{}, false
	}
	return intOpnd{kind: compoundCmp[op], s: l.s(c.Args[0]), s2: l.s(c.Args[1])}, true
}

// intCompare reports whether c is a comparison of two ints.
func intCompare(c *ssa.Value) bool {
	if c.Type != ssa.TypeBool || len(c.Args) != 2 || c.Args[0].Type != ssa.TypeInt || c.Args[1].Type != ssa.TypeInt {
		return false
	}
	_, ok := negated[c.Op]
	return ok
}

// compound returns a as a compound operand when it is a tree node that
// is an int And, Shl, Shr, Ushr, Add or Sub of a slot and a constant, or
// a boolSelect.
func (l *lowerer) compound(a *ssa.Value) (intOpnd, bool) {
	if o, ok := l.boolSelect(a); ok {
		return o, true
	}
	if !l.inl[a.ID] || a.Type != ssa.TypeInt || len(a.Args) != 2 || l.inl[a.Args[0].ID] || l.inl[a.Args[1].ID] {
		return intOpnd{}, false
	}
	k, ok := a.Args[1].IsConst()
	if !ok || a.Args[0].Type != ssa.TypeInt {
		return intOpnd{}, false
	}
	o := intOpnd{s: l.s(a.Args[0]), k: uint32(k)}
	switch a.Op {
	case ssa.OpAnd:
		o.kind = opCAnd
	case ssa.OpShl:
		o.kind = opCShl
	case ssa.OpShr:
		o.kind = opCShr
	case ssa.OpUshr:
		o.kind = opCUshr
	case ssa.OpAdd:
		o.kind = opCAdd
	case ssa.OpSub:
		o.kind, o.k = opCAdd, -uint32(k)
	default:
		return intOpnd{}, false
	}
	return o, true
}

// compoundOps are the operands of v, an int And, Or, Xor, Add or Sub,
// with its compound operands as such; ok is false when it has none (or
// is another operation).
func (l *lowerer) compoundOps(v *ssa.Value) (x, y intOpnd, ok bool) {
	switch v.Op {
	case ssa.OpAnd, ssa.OpOr, ssa.OpXor, ssa.OpAdd, ssa.OpSub:
	default:
		return x, y, false
	}
	cx, okx := l.compound(v.Args[0])
	cy, oky := l.compound(v.Args[1])
	if !okx && !oky {
		return x, y, false
	}
	// the other operand must not be an element (no such node)
	if okx {
		x = cx
	} else if x = l.intOp(v.Args[0]); x.kind == opElem || x.kind == opElemB {
		return x, y, false
	}
	if oky {
		y = cy
	} else if y = l.intOp(v.Args[1]); y.kind == opElem || y.kind == opElemB {
		return x, y, false
	}
	return x, y, true
}

type intOpnd struct {
	kind int
	s    int
	s2   int // a compound comparison's second slot
	k    uint32
	t    func(*frame) uint32
	e    elem
}

type longOpnd struct {
	kind int
	s    int
	s2   int // unused: intOpnd's, for the generated code's sake
	k    uint64
	t    func(*frame) uint64
	e    elem
}

type floatOpnd struct {
	kind int
	s    int
	s2   int // unused: intOpnd's, for the generated code's sake
	k    float32
	t    func(*frame) float32
	e    elem
}

type doubleOpnd struct {
	kind int
	s    int
	s2   int // unused: intOpnd's, for the generated code's sake
	k    float64
	t    func(*frame) float64
	e    elem
}

// idiv and irem are Java's int division and remainder (the divisor is
// not zero: a DivZeroCheck precedes them).
func idiv(x, y uint32) uint32 {
	if int32(y) == -1 {
		return -x
	}
	return uint32(int32(x) / int32(y))
}

func irem(x, y uint32) uint32 {
	if int32(y) == -1 {
		return 0
	}
	return uint32(int32(x) % int32(y))
}

func numeric(t ssa.Type) bool {
	return t == ssa.TypeInt || t == ssa.TypeLong || t == ssa.TypeFloat || t == ssa.TypeDouble
}

// treeBinop reports whether expr_gen.go has the operation of v.
func treeBinop(v *ssa.Value) bool {
	switch v.Op {
	case ssa.OpAdd, ssa.OpSub, ssa.OpMul:
		return true
	case ssa.OpDiv:
		return v.Type != ssa.TypeLong
	case ssa.OpAnd, ssa.OpOr, ssa.OpXor:
		return v.Type == ssa.TypeInt || v.Type == ssa.TypeLong
	case ssa.OpRem, ssa.OpShl, ssa.OpShr, ssa.OpUshr:
		return v.Type == ssa.TypeInt
	}
	return false
}

// treeNode reports whether v can be a node of a tree (then every numeric
// argument of it may be a subtree).
func treeNode(v *ssa.Value) bool {
	if !numeric(v.Type) {
		return false
	}
	switch v.Op {
	case ssa.OpNeg, ssa.OpConv, ssa.OpIntToByte, ssa.OpIntToChar, ssa.OpIntToShort:
		return true
	case ssa.OpNot:
		return v.Type == ssa.TypeInt || v.Type == ssa.TypeLong
	case ssa.OpCmpl, ssa.OpCmpg:
		return v.Type == ssa.TypeInt
	case ssa.OpAGet:
		return int(v.Aux) != kRef
	case ssa.OpSelect:
		return true
	}
	for _, a := range v.Args {
		if a.Type != v.Type {
			return false
		}
	}
	return treeBinop(v)
}

// takesTree reports whether u can evaluate its argument i as a tree.
func takesTree(u *ssa.Value, i int) bool {
	if u.Op == ssa.OpAGet {
		return i == 1 && treeNode(u)
	}
	if u.Op == ssa.OpAPut {
		return i == 2 && int(u.Aux) != kRef
	}
	if u.Op == ssa.OpSelect {
		// the chosen operand only: plan keeps loads out of them
		return i > 0 && treeNode(u)
	}
	return treeNode(u)
}

func (l *lowerer) intOp(a *ssa.Value) intOpnd {
	if e, ok := l.elem(a, k32); ok {
		return intOpnd{kind: e.kind(), e: e}
	}
	if l.inl[a.ID] {
		return intOpnd{kind: opTree, t: l.intTree(a)}
	}
	if k, ok := a.IsConst(); ok {
		return intOpnd{kind: opConst, s: l.s(a), k: uint32(k)}
	}
	return intOpnd{kind: opSlot, s: l.s(a)}
}

// intOps are the operands of a binary int value. Of two constants (the
// passes leave a division by a constant zero unfolded, so that it throws)
// the first is read from its slot: no node has two constant operands.
func (l *lowerer) intOps(v *ssa.Value) (intOpnd, intOpnd) {
	x, y := l.intOp(v.Args[0]), l.intOp(v.Args[1])
	if x.kind == opConst && y.kind == opConst {
		x.kind = opSlot
	}
	return x, y
}

func (l *lowerer) longOp(a *ssa.Value) longOpnd {
	if e, ok := l.elem(a, k64); ok {
		return longOpnd{kind: e.kind(), e: e}
	}
	if l.inl[a.ID] {
		return longOpnd{kind: opTree, t: l.longTree(a)}
	}
	return longOpnd{kind: opSlot, s: l.s(a)}
}

func (l *lowerer) floatOp(a *ssa.Value) floatOpnd {
	if e, ok := l.elem(a, k32); ok {
		return floatOpnd{kind: e.kind(), e: e}
	}
	if l.inl[a.ID] {
		return floatOpnd{kind: opTree, t: l.floatTree(a)}
	}
	return floatOpnd{kind: opSlot, s: l.s(a)}
}

func (l *lowerer) doubleOp(a *ssa.Value) doubleOpnd {
	if e, ok := l.elem(a, k64); ok {
		return doubleOpnd{kind: e.kind(), e: e}
	}
	if l.inl[a.ID] {
		return doubleOpnd{kind: opTree, t: l.doubleTree(a)}
	}
	return doubleOpnd{kind: opSlot, s: l.s(a)}
}

// The *Expr functions return any operand as a closure, for the rarer
// nodes that are not specialised by operand kind.

func (l *lowerer) intExpr(a *ssa.Value) func(*frame) uint32 {
	if l.inl[a.ID] {
		return l.intTree(a)
	}
	o := l.intOp(a)
	switch o.kind {
	case opTree:
		return o.t
	case opConst:
		k := o.k
		return func(*frame) uint32 { return k }
	}
	s := o.s
	return func(f *frame) uint32 { return f.r[s] }
}

func (l *lowerer) longExpr(a *ssa.Value) func(*frame) uint64 {
	if l.inl[a.ID] {
		return l.longTree(a)
	}
	o := l.longOp(a)
	if o.kind == opTree {
		return o.t
	}
	s := o.s
	return func(f *frame) uint64 { return getL(f.r, s) }
}

func (l *lowerer) floatExpr(a *ssa.Value) func(*frame) float32 {
	if l.inl[a.ID] {
		return l.floatTree(a)
	}
	o := l.floatOp(a)
	if o.kind == opTree {
		return o.t
	}
	s := o.s
	return func(f *frame) float32 { return fl(f.r, s) }
}

func (l *lowerer) doubleExpr(a *ssa.Value) func(*frame) float64 {
	if l.inl[a.ID] {
		return l.doubleTree(a)
	}
	o := l.doubleOp(a)
	if o.kind == opTree {
		return o.t
	}
	s := o.s
	return func(f *frame) float64 { return db(f.r, s) }
}

// index returns the index operand of an array access as a slot or tree.
func (l *lowerer) index(a *ssa.Value) intOpnd {
	if l.inl[a.ID] {
		return intOpnd{kind: opTree, t: l.intTree(a)}
	}
	return intOpnd{kind: opSlot, s: l.s(a)}
}

// elem returns the operand form of a, an array load of the storage kind
// inside a tree, when its array is a slot and its index a slot plus a
// constant.
func (l *lowerer) elem(a *ssa.Value, kind int) (elem, bool) {
	if !l.inl[a.ID] || a.Op != ssa.OpAGet || int(a.Aux) != kind {
		return elem{}, false
	}
	e := elem{a: l.s(a.Args[0]), pc: a.PC, npe: l.npe(a.PC), b: l.bar[a.ID]}
	x := a.Args[1]
	if !l.inl[x.ID] {
		e.x = l.s(x)
		return e, true
	}
	// an index i+k or i-k evaluated in the load: the Add is pure and
	// used only here
	if (x.Op == ssa.OpAdd || x.Op == ssa.OpSub) && !l.inl[x.Args[0].ID] {
		if k, ok := x.Args[1].IsConst(); ok {
			if x.Op == ssa.OpSub {
				k = -k
			}
			e.x, e.o = l.s(x.Args[0]), uint32(k)
			return e, true
		}
	}
	return elem{}, false
}

func (l *lowerer) intTree(v *ssa.Value) func(*frame) uint32 {
	switch v.Op {
	case ssa.OpAGet:
		return l.intLoad(v)
	case ssa.OpSelect:
		return l.selectTree(v)
	case ssa.OpIntToByte:
		x := l.intExpr(v.Args[0])
		return func(f *frame) uint32 { return uint32(int32(int8(x(f)))) }
	case ssa.OpIntToChar:
		x := l.intExpr(v.Args[0])
		return func(f *frame) uint32 { return uint32(uint16(x(f))) }
	case ssa.OpIntToShort:
		x := l.intExpr(v.Args[0])
		return func(f *frame) uint32 { return uint32(int32(int16(x(f)))) }
	case ssa.OpNeg:
		x := l.intExpr(v.Args[0])
		return func(f *frame) uint32 { return -x(f) }
	case ssa.OpNot:
		x := l.intExpr(v.Args[0])
		return func(f *frame) uint32 { return ^x(f) }
	case ssa.OpConv:
		switch v.Args[0].Type {
		case ssa.TypeLong:
			x := l.longExpr(v.Args[0])
			return func(f *frame) uint32 { return uint32(x(f)) }
		case ssa.TypeFloat:
			x := l.floatExpr(v.Args[0])
			return func(f *frame) uint32 { return uint32(runtime.F2I(float64(x(f)))) }
		case ssa.TypeDouble:
			x := l.doubleExpr(v.Args[0])
			return func(f *frame) uint32 { return uint32(runtime.F2I(x(f))) }
		}
	case ssa.OpCmpl, ssa.OpCmpg:
		nan := uint32(0xffffffff)
		if v.Op == ssa.OpCmpg {
			nan = 1
		}
		switch v.Args[0].Type {
		case ssa.TypeLong:
			x, y := l.longExpr(v.Args[0]), l.longExpr(v.Args[1])
			return func(f *frame) uint32 { return order(int64(x(f)), int64(y(f)), 0) }
		case ssa.TypeFloat:
			x, y := l.floatExpr(v.Args[0]), l.floatExpr(v.Args[1])
			return func(f *frame) uint32 { return order(x(f), y(f), nan) }
		case ssa.TypeDouble:
			x, y := l.doubleExpr(v.Args[0]), l.doubleExpr(v.Args[1])
			return func(f *frame) uint32 { return order(x(f), y(f), nan) }
		}
	default:
		if x, y, ok := l.compoundOps(v); ok {
			if t := binInt(v.Op, x, y); t != nil {
				return t
			}
		}
		x, y := l.intOps(v)
		if t := binInt(v.Op, x, y); t != nil {
			return t
		}
	}
	panic(unsupported("no int tree for " + v.LongString()))
}

// order is the result of a Cmpl or Cmpg: -1, 0 or 1, nan when
// unordered.
func order[T int64 | float32 | float64](x, y T, nan uint32) uint32 {
	switch {
	case x < y:
		return 0xffffffff
	case x > y:
		return 1
	case x == y:
		return 0
	}
	return nan
}

func (l *lowerer) longTree(v *ssa.Value) func(*frame) uint64 {
	switch v.Op {
	case ssa.OpAGet:
		ld := l.wideLoad(v)
		return ld
	case ssa.OpSelect:
		return l.selectWide(v)
	case ssa.OpNeg:
		x := l.longExpr(v.Args[0])
		return func(f *frame) uint64 { return -x(f) }
	case ssa.OpNot:
		x := l.longExpr(v.Args[0])
		return func(f *frame) uint64 { return ^x(f) }
	case ssa.OpConv:
		switch v.Args[0].Type {
		case ssa.TypeInt:
			x := l.intExpr(v.Args[0])
			return func(f *frame) uint64 { return uint64(int64(int32(x(f)))) }
		case ssa.TypeFloat:
			x := l.floatExpr(v.Args[0])
			return func(f *frame) uint64 { return uint64(runtime.F2L(float64(x(f)))) }
		case ssa.TypeDouble:
			x := l.doubleExpr(v.Args[0])
			return func(f *frame) uint64 { return uint64(runtime.F2L(x(f))) }
		}
	default:
		if t := binLong(v.Op, l.longOp(v.Args[0]), l.longOp(v.Args[1])); t != nil {
			return t
		}
	}
	panic(unsupported("no long tree for " + v.LongString()))
}

func (l *lowerer) floatTree(v *ssa.Value) func(*frame) float32 {
	switch v.Op {
	case ssa.OpAGet:
		ld := l.intLoad(v)
		return func(f *frame) float32 { return math.Float32frombits(ld(f)) }
	case ssa.OpSelect:
		return l.selectFloat(v)
	case ssa.OpNeg:
		x := l.floatExpr(v.Args[0])
		return func(f *frame) float32 { return -x(f) }
	case ssa.OpConv:
		switch v.Args[0].Type {
		case ssa.TypeInt:
			x := l.intExpr(v.Args[0])
			return func(f *frame) float32 { return float32(int32(x(f))) }
		case ssa.TypeLong:
			x := l.longExpr(v.Args[0])
			return func(f *frame) float32 { return float32(int64(x(f))) }
		case ssa.TypeDouble:
			x := l.doubleExpr(v.Args[0])
			return func(f *frame) float32 { return float32(x(f)) }
		}
	default:
		if t := binFloat(v.Op, l.floatOp(v.Args[0]), l.floatOp(v.Args[1])); t != nil {
			return t
		}
	}
	panic(unsupported("no float tree for " + v.LongString()))
}

func (l *lowerer) doubleTree(v *ssa.Value) func(*frame) float64 {
	switch v.Op {
	case ssa.OpAGet:
		return l.doubleLoad(v)
	case ssa.OpSelect:
		return l.selectDouble(v)
	case ssa.OpNeg:
		x := l.doubleExpr(v.Args[0])
		return func(f *frame) float64 { return -x(f) }
	case ssa.OpConv:
		switch v.Args[0].Type {
		case ssa.TypeInt:
			x := l.intExpr(v.Args[0])
			return func(f *frame) float64 { return float64(int32(x(f))) }
		case ssa.TypeLong:
			x := l.longExpr(v.Args[0])
			return func(f *frame) float64 { return float64(int64(x(f))) }
		case ssa.TypeFloat:
			x := l.floatExpr(v.Args[0])
			return func(f *frame) float64 { return float64(x(f)) }
		}
	default:
		if t := binDouble(v.Op, l.doubleOp(v.Args[0]), l.doubleOp(v.Args[1])); t != nil {
			return t
		}
	}
	panic(unsupported("no double tree for " + v.LongString()))
}

// loadFail throws for an array load whose check failed, unless the tree
// threw already.
func loadFail(f *frame, a, pc int, npe func(*frame), idx uint32) {
	if f.threw {
		return
	}
	f.threw = true
	f.at(pc)
	arr := f.r[a]
	if arr == 0 {
		npe(f)
		return
	}
	f.t.ThrowAIOOBE(int32(f.h.U32(arr+8)), int32(idx))
}

// intLoad is the tree node of an array load of a 32-bit or narrower
// element, with its null and bounds checks.
func (l *lowerer) intLoad(v *ssa.Value) func(*frame) uint32 {
	a, pc, npe := l.s(v.Args[0]), v.PC, l.npe(v.PC)
	x := l.index(v.Args[1])
	kind := int(v.Aux)
	if b := l.bar[v.ID]; b != 0 {
		return l.intLoadB(v, b, x)
	}
	if kind == k32 && x.kind == opSlot {
		xs := x.s
		return func(f *frame) uint32 {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[xs]; idx < h.U32(arr+8) {
					return h.U32(arr + 12 + idx*4)
				}
			}
			loadFail(f, a, pc, npe, r[xs])
			return 0
		}
	}
	if x.kind == opSlot {
		// narrow elements at a slot index: the sieve's flags[i]
		xs := x.s
		return func(f *frame) uint32 {
			r, h := f.r, f.h
			if arr, idx := r[a], r[xs]; arr != 0 && idx < h.U32(arr+8) {
				switch kind {
				case kBool:
					return uint32(h.U8(arr + 12 + idx))
				case kByte:
					return uint32(int32(int8(h.U8(arr + 12 + idx))))
				case kChar:
					return uint32(h.U16(arr + 12 + idx*2))
				default:
					return uint32(int32(int16(h.U16(arr + 12 + idx*2))))
				}
			}
			loadFail(f, a, pc, npe, r[xs])
			return 0
		}
	}
	idxOf := x.t
	return func(f *frame) uint32 {
		idx := idxOf(f)
		h := f.h
		if arr := f.r[a]; arr != 0 && idx < h.U32(arr+8) {
			switch kind {
			case k32:
				return h.U32(arr + 12 + idx*4)
			case kBool:
				return uint32(h.U8(arr + 12 + idx))
			case kByte:
				return uint32(int32(int8(h.U8(arr + 12 + idx))))
			case kChar:
				return uint32(h.U16(arr + 12 + idx*2))
			default:
				return uint32(int32(int16(h.U16(arr + 12 + idx*2))))
			}
		}
		loadFail(f, a, pc, npe, idx)
		return 0
	}
}

// intLoadB is intLoad with the load's barriers b, marked after the index
// and before the checks, as the Barrier values run (between the index's
// values and the checks), unless the index threw.
func (l *lowerer) intLoadB(v *ssa.Value, b uint8, x intOpnd) func(*frame) uint32 {
	a, pc, npe := l.s(v.Args[0]), v.PC, l.npe(v.PC)
	kind := int(v.Aux)
	if kind == k32 && x.kind == opSlot {
		xs := x.s
		return func(f *frame) uint32 {
			r, h := f.r, f.h
			arr := r[a]
			if !f.threw {
				markBar(f, b, arr)
			}
			if arr != 0 {
				if idx := r[xs]; idx < h.U32(arr+8) {
					return h.U32(arr + 12 + idx*4)
				}
			}
			loadFail(f, a, pc, npe, r[xs])
			return 0
		}
	}
	idxOf := l.indexFunc(x)
	return func(f *frame) uint32 {
		idx := idxOf(f)
		h := f.h
		arr := f.r[a]
		if !f.threw {
			markBar(f, b, arr)
		}
		if arr != 0 && idx < h.U32(arr+8) {
			switch kind {
			case k32:
				return h.U32(arr + 12 + idx*4)
			case kBool:
				return uint32(h.U8(arr + 12 + idx))
			case kByte:
				return uint32(int32(int8(h.U8(arr + 12 + idx))))
			case kChar:
				return uint32(h.U16(arr + 12 + idx*2))
			default:
				return uint32(int32(int16(h.U16(arr + 12 + idx*2))))
			}
		}
		loadFail(f, a, pc, npe, idx)
		return 0
	}
}

// indexFunc returns an index operand (a slot or a tree) as a closure.
func (l *lowerer) indexFunc(x intOpnd) func(*frame) uint32 {
	if x.kind == opTree {
		return x.t
	}
	s := x.s
	return func(f *frame) uint32 { return f.r[s] }
}

// wideLoadB is wideLoad with the load's barriers b (as intLoadB).
func (l *lowerer) wideLoadB(v *ssa.Value, b uint8, x intOpnd) func(*frame) uint64 {
	a, pc, npe := l.s(v.Args[0]), v.PC, l.npe(v.PC)
	if x.kind == opSlot {
		xs := x.s
		return func(f *frame) uint64 {
			r, h := f.r, f.h
			arr := r[a]
			if !f.threw {
				markBar(f, b, arr)
			}
			if arr != 0 {
				if idx := r[xs]; idx < h.U32(arr+8) {
					return h.U64(arr + 16 + idx*8)
				}
			}
			loadFail(f, a, pc, npe, r[xs])
			return 0
		}
	}
	xt := x.t
	return func(f *frame) uint64 {
		idx := xt(f)
		h := f.h
		arr := f.r[a]
		if !f.threw {
			markBar(f, b, arr)
		}
		if arr != 0 && idx < h.U32(arr+8) {
			return h.U64(arr + 16 + idx*8)
		}
		loadFail(f, a, pc, npe, idx)
		return 0
	}
}

// wideLoad is intLoad for long and double elements.
func (l *lowerer) wideLoad(v *ssa.Value) func(*frame) uint64 {
	a, pc, npe := l.s(v.Args[0]), v.PC, l.npe(v.PC)
	x := l.index(v.Args[1])
	if b := l.bar[v.ID]; b != 0 {
		return l.wideLoadB(v, b, x)
	}
	if x.kind == opSlot {
		xs := x.s
		return func(f *frame) uint64 {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[xs]; idx < h.U32(arr+8) {
					return h.U64(arr + 16 + idx*8)
				}
			}
			loadFail(f, a, pc, npe, r[xs])
			return 0
		}
	}
	xt := x.t
	return func(f *frame) uint64 {
		idx := xt(f)
		h := f.h
		if arr := f.r[a]; arr != 0 && idx < h.U32(arr+8) {
			return h.U64(arr + 16 + idx*8)
		}
		loadFail(f, a, pc, npe, idx)
		return 0
	}
}

// doubleLoad is wideLoad for double elements (no conversion call on the
// way: sparse's x[col[i]]).
func (l *lowerer) doubleLoad(v *ssa.Value) func(*frame) float64 {
	a, pc, npe := l.s(v.Args[0]), v.PC, l.npe(v.PC)
	if ie, ok := l.elem(v.Args[1], k32); ok {
		// an index read from an int array: sparse's x[col[i]], both
		// loads in one closure
		ia, ix, io := ie.a, ie.x, ie.o
		if ib, b := ie.b, l.bar[v.ID]; ib|b != 0 {
			// with barriers: each array's marks before its checks,
			// none after a throw
			return func(f *frame) float64 {
				r, h := f.r, f.h
				var idx uint32
				arr := r[ia]
				if ib != 0 && !f.threw {
					markBar(f, ib, arr)
				}
				if i := r[ix] + io; arr != 0 && i < h.U32(arr+8) {
					idx = h.U32(arr + 12 + i*4)
				} else {
					ie.fail(f)
				}
				arr = r[a]
				if b != 0 && !f.threw {
					markBar(f, b, arr)
				}
				if arr != 0 && idx < h.U32(arr+8) {
					return math.Float64frombits(h.U64(arr + 16 + idx*8))
				}
				loadFail(f, a, pc, npe, idx)
				return 0
			}
		}
		return func(f *frame) float64 {
			r, h := f.r, f.h
			var idx uint32
			if arr, i := r[ia], r[ix]+io; arr != 0 && i < h.U32(arr+8) {
				idx = h.U32(arr + 12 + i*4)
			} else {
				ie.fail(f)
			}
			if arr := r[a]; arr != 0 && idx < h.U32(arr+8) {
				return math.Float64frombits(h.U64(arr + 16 + idx*8))
			}
			loadFail(f, a, pc, npe, idx)
			return 0
		}
	}
	x := l.index(v.Args[1])
	if b := l.bar[v.ID]; b != 0 {
		ld := l.wideLoadB(v, b, x)
		return func(f *frame) float64 { return math.Float64frombits(ld(f)) }
	}
	if x.kind == opSlot {
		xs := x.s
		return func(f *frame) float64 {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[xs]; idx < h.U32(arr+8) {
					return math.Float64frombits(h.U64(arr + 16 + idx*8))
				}
			}
			loadFail(f, a, pc, npe, r[xs])
			return 0
		}
	}
	xt := x.t
	return func(f *frame) float64 {
		idx := xt(f)
		h := f.h
		if arr := f.r[a]; arr != 0 && idx < h.U32(arr+8) {
			return math.Float64frombits(h.U64(arr + 16 + idx*8))
		}
		loadFail(f, a, pc, npe, idx)
		return 0
	}
}

// treeRoot lowers a value with a slot that has a subtree operand.
func (l *lowerer) treeRoot(v *ssa.Value) instr {
	d := l.s(v)
	if v.Op == ssa.OpSelect {
		if in := l.selectRoot(v); in != nil {
			return in
		}
	}
	switch v.Type {
	case ssa.TypeInt:
		if x, y, ok := l.compoundOps(v); ok && treeBinop(v) {
			if in := binIntStore(v.Op, d, x, y); in != nil {
				return in
			}
		}
		if treeBinop(v) {
			x, y := l.intOps(v)
			if in := binIntStore(v.Op, d, x, y); in != nil {
				return in
			}
		}
		e := l.intTree(v)
		return func(f *frame) bool {
			x := e(f)
			if f.threw {
				f.threw = false
				return false
			}
			f.r[d] = x
			return true
		}
	case ssa.TypeLong:
		if treeBinop(v) {
			if in := binLongStore(v.Op, d, l.longOp(v.Args[0]), l.longOp(v.Args[1])); in != nil {
				return in
			}
		}
		e := l.longTree(v)
		return func(f *frame) bool {
			x := e(f)
			if f.threw {
				f.threw = false
				return false
			}
			setL(f.r, d, x)
			return true
		}
	case ssa.TypeFloat:
		if treeBinop(v) {
			if in := binFloatStore(v.Op, d, l.floatOp(v.Args[0]), l.floatOp(v.Args[1])); in != nil {
				return in
			}
		}
		e := l.floatTree(v)
		return func(f *frame) bool {
			x := e(f)
			if f.threw {
				f.threw = false
				return false
			}
			f.r[d] = math.Float32bits(x)
			return true
		}
	case ssa.TypeDouble:
		if treeBinop(v) {
			if in := binDoubleStore(v.Op, d, l.doubleOp(v.Args[0]), l.doubleOp(v.Args[1])); in != nil {
				return in
			}
		}
		e := l.doubleTree(v)
		return func(f *frame) bool {
			x := e(f)
			if f.threw {
				f.threw = false
				return false
			}
			setL(f.r, d, math.Float64bits(x))
			return true
		}
	}
	panic(unsupported("a tree root of type " + v.Type.String()))
}

// treeStore lowers an array store whose value is a tree: the value first,
// then the checks, as in block order.
func (l *lowerer) treeStore(v *ssa.Value) instr {
	a, x, pc, npe := l.s(v.Args[0]), l.s(v.Args[1]), v.PC, l.npe(v.PC)
	ac := &access{a: a, x: x, lenSlot: -1, pc: pc, npe: npe}
	kind := int(v.Aux)
	val := v.Args[2]
	// the store's barriers run after its value (which the block
	// computes before them) and not when the value threw
	b := l.bar[v.ID]
	if treeBinop(val) && (val.Type == ssa.TypeDouble || val.Type == ssa.TypeInt && kind == k32) {
		var in instr
		if val.Type == ssa.TypeDouble {
			in = binDoublePut(val.Op, a, x, b, ac, l.doubleOp(val.Args[0]), l.doubleOp(val.Args[1]))
		} else {
			vx, vy := l.intOps(val)
			in = binIntPut(val.Op, a, x, b, ac, vx, vy)
		}
		if in != nil {
			return in
		}
	}
	var w32 func(*frame) uint32
	var w64 func(*frame) uint64
	switch val.Type {
	case ssa.TypeInt:
		w32 = l.intTree(val)
	case ssa.TypeFloat:
		e := l.floatTree(val)
		w32 = func(f *frame) uint32 { return math.Float32bits(e(f)) }
	case ssa.TypeLong:
		w64 = l.longTree(val)
	case ssa.TypeDouble:
		e := l.doubleTree(val)
		w64 = func(f *frame) uint64 { return math.Float64bits(e(f)) }
	default:
		panic(unsupported("an array store of a " + val.Type.String() + " tree"))
	}
	if w64 != nil {
		return func(f *frame) bool {
			y := w64(f)
			if f.threw {
				f.threw = false
				return false
			}
			r, h := f.r, f.h
			if b != 0 {
				markBar(f, b, r[a])
			}
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					h.SetU64(arr+16+idx*8, y)
					return true
				}
			}
			_, _, ok := ac.check(f)
			return ok
		}
	}
	return func(f *frame) bool {
		y := w32(f)
		if f.threw {
			f.threw = false
			return false
		}
		r, h := f.r, f.h
		if b != 0 {
			markBar(f, b, r[a])
		}
		if arr := r[a]; arr != 0 {
			if idx := r[x]; idx < h.U32(arr+8) {
				switch kind {
				case k32:
					h.SetU32(arr+12+idx*4, y)
				case kBool, kByte:
					h.SetU8(arr+12+idx, uint8(y))
				default:
					h.SetU16(arr+12+idx*2, uint16(y))
				}
				return true
			}
		}
		_, _, ok := ac.check(f)
		return ok
	}
}

// elem is an array load as an operand kind of its own (A in
// expr_gen.go): the node reads the element itself, without a call, with
// the checks inline.
type elem struct {
	a, x, pc int
	o        uint32 // added to the index slot (SOR's G[j-1], G[j+1])
	npe      func(*frame)
	b        uint8 // the load's barriers (barXxx bits), 0 for none
}

// kind is the operand kind of the element: opElemB when the node does
// the load's barriers.
func (c elem) kind() int {
	if c.b != 0 {
		return opElemB
	}
	return opElem
}

// fail throws for the element's failed check, unless the tree threw
// already.
func (c elem) fail(f *frame) { loadFail(f, c.a, c.pc, c.npe, f.r[c.x]+c.o) }
