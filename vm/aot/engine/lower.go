package engine

import (
	"fmt"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/runtime"
)

// lowerer turns one SSA function into code.
type lowerer struct {
	fn   *ssa.Func
	m    *runtime.Method
	c    *code
	slot []int // by value ID; -1: none
	uses []int // by value ID
	// handlers are the handler addresses of each block's exception
	// edges, in edge order, as the front end built them
	handlers map[int][]int
	throwPC  map[int]int // the throw instruction's pc by Throw block ID
	blocks   []*cblock
	rpo      []int // by block ID
	// inl marks the values evaluated inside their user's expression
	// tree, by value ID (tree.go)
	inl []bool
	// bar has, by the ID of an array access whose tree does its
	// barriers, which barriers those are (barXxx bits, barrier.go)
	bar []uint8
	// afterCall is set by invoke to the list of slots its instruction
	// clears after the call (clearDead fills it)
	afterCall *[]int
	// checkUses counts the uses of each ArrayLength by the BoundsCheck
	// of a fused access, which reads the length from the array itself
	checkUses []int
	// plans are the blocks' tree plans, by block ID
	plans []*blockPlan
}

// unsupported is a lowering fallback reason.
type unsupported string

func (u unsupported) Error() string { return string(u) }

// newLowerer returns fn's lowerer with each value's uses counted (and
// the bounds checks' uses of array lengths that a fused access reads
// itself), before any plan.
func newLowerer(fn *ssa.Func, m *runtime.Method, handlers map[int][]int, throwPC map[int]int) *lowerer {
	l := &lowerer{fn: fn, m: m, c: &code{nregs: int(m.Code.Registers)}, handlers: handlers, throwPC: throwPC}
	l.uses = make([]int, fn.NumValues())
	for _, b := range fn.Blocks {
		for _, v := range b.Values {
			for _, a := range v.Args {
				l.uses[a.ID]++
			}
		}
		if b.Control != nil {
			l.uses[b.Control.ID]++
		}
	}
	l.inl = make([]bool, fn.NumValues())
	l.bar = make([]uint8, fn.NumValues())
	l.checkUses = make([]int, fn.NumValues())
	for _, b := range fn.Blocks {
		for k := 0; k < len(b.Values); k++ {
			if n, _ := accessGroup(b.Values, k); n > 0 {
				l.checkUses[b.Values[k+n-2].Args[1].ID]++
				k += n - 1
			}
		}
	}
	return l
}

func lower(fn *ssa.Func, m *runtime.Method, handlers map[int][]int, throwPC map[int]int) (c *code, err error) {
	defer func() {
		if r := recover(); r != nil {
			if u, ok := r.(unsupported); ok {
				c, err = nil, u
				return
			}
			c, err = nil, fmt.Errorf("internal lowering error: %v", r)
		}
	}()
	l := newLowerer(fn, m, handlers, throwPC)
	// the trees first: which values share a slot depends on where
	// each use is evaluated
	l.plans = make([]*blockPlan, fn.NumBlocks())
	for _, b := range fn.Blocks {
		l.plans[b.ID] = l.plan(b)
	}
	l.assignSlots()
	l.c.frameTags = append(make([]bool, l.c.nregs), l.c.tags...)
	l.c.slotInit = make([]uint32, len(l.c.tags))
	for _, k := range l.c.consts {
		i := k.slot - l.c.nregs
		if k.wide {
			l.c.slotInit[i], l.c.slotInit[i+1] = uint32(k.bits), uint32(k.bits>>32)
		} else {
			l.c.slotInit[i] = uint32(k.bits)
		}
	}
	l.blocks = make([]*cblock, fn.NumBlocks())
	l.rpo = make([]int, fn.NumBlocks())
	for i, b := range fn.RPO() {
		l.rpo[b.ID] = i
	}
	for _, b := range fn.Blocks {
		l.blocks[b.ID] = &cblock{}
	}
	for _, b := range fn.Blocks {
		l.block(b)
		for _, v := range b.Values {
			if v.Op == ssa.OpBarrier && v.Aux&ssa.BarrierLoop != 0 {
				l.blocks[b.ID].loopBars++
			}
		}
		if l.blocks[b.ID].loopBars > 0 {
			l.bareBody(b)
		}
	}
	for _, b := range fn.Blocks {
		l.blocks[b.ID].loop()
	}
	l.c.entry = l.blocks[fn.Entry().ID]
	l.c.leaf = isLeaf(fn, l.rpo)
	return l.c, nil
}

// leafOps are the ops of a leaf method (code.leaf): numbers, constants,
// parameters and acyclic φs, none of which can throw, call, allocate,
// lock or collect (integer division's DivZeroCheck, where one is left,
// is not among them).
var leafOps = map[ssa.Op]bool{
	ssa.OpParam: true, ssa.OpThis: true, ssa.OpConst: true, ssa.OpCopy: true, ssa.OpUndef: true, ssa.OpPhi: true,
	ssa.OpAdd: true, ssa.OpSub: true, ssa.OpMul: true, ssa.OpDiv: true, ssa.OpRem: true, ssa.OpAnd: true,
	ssa.OpOr: true, ssa.OpXor: true, ssa.OpShl: true, ssa.OpShr: true, ssa.OpUshr: true, ssa.OpNeg: true,
	ssa.OpNot: true, ssa.OpConv: true, ssa.OpIntToByte: true, ssa.OpIntToChar: true, ssa.OpIntToShort: true,
	ssa.OpCmpl: true, ssa.OpCmpg: true, ssa.OpEq: true, ssa.OpNe: true, ssa.OpLt: true, ssa.OpGe: true,
	ssa.OpGt: true, ssa.OpLe: true, ssa.OpSelect: true,
}

// isLeaf reports whether fn is a leaf: only leafOps, blocks that end in
// a jump, a branch or a return, no exception edge and no loop (a back
// edge is a safepoint); rpo is the blocks' reverse postorder index.
func isLeaf(fn *ssa.Func, rpo []int) bool {
	for _, b := range fn.Blocks {
		switch b.Kind {
		case ssa.BlockPlain, ssa.BlockIf, ssa.BlockReturn:
		default:
			return false
		}
		if b.NCatch != 0 {
			return false
		}
		for _, s := range b.Succs {
			if rpo[s.ID] <= rpo[b.ID] {
				return false
			}
		}
		for _, v := range b.Values {
			if !leafOps[v.Op] {
				return false
			}
		}
	}
	return true
}

func width(t ssa.Type) int {
	if t.Wide() {
		return 2
	}
	return 1
}

// assignSlots gives every value with a result its own slot(s): SSA values
// are defined once, so no two share, and φ moves on edges are the only
// copies.
func (l *lowerer) assignSlots() {
	l.slot = make([]int, l.fn.NumValues())
	for i := range l.slot {
		l.slot[i] = -1
	}
	m := l.m
	argBase := int(m.Code.Registers) - m.ArgWords
	// the parameters' words, counting this as parameter 0
	var paramWord []int
	w := 0
	if !m.IsStatic() {
		paramWord = append(paramWord, 0)
		w = 1
	}
	for _, p := range paramTypes(m.Signature) {
		paramWord = append(paramWord, w)
		if p == 'J' || p == 'D' {
			w += 2
		} else {
			w++
		}
	}
	next := l.c.nregs
	shared := l.coalesce()
	for _, b := range l.fn.Blocks {
		for _, v := range b.Values {
			if shared[v.ID] != nil {
				continue
			}
			switch {
			case v.Op == ssa.OpThis:
				l.slot[v.ID] = argBase
			case v.Op == ssa.OpParam:
				if int(v.Aux) >= len(paramWord) {
					panic(unsupported("parameter number out of range"))
				}
				l.slot[v.ID] = argBase + paramWord[v.Aux]
			case v.Type == ssa.TypeVoid || v.Type == ssa.TypeBool:
			default:
				l.slot[v.ID] = next
				for i := 0; i < width(v.Type); i++ {
					l.c.tags = append(l.c.tags, v.Type == ssa.TypeRef)
				}
				next += width(v.Type)
				if v.Op == ssa.OpConst && v.Aux != 0 {
					l.c.consts = append(l.c.consts, constInit{l.slot[v.ID], uint64(v.Aux), v.Type.Wide()})
				}
			}
		}
	}
	if w != m.ArgWords {
		panic(unsupported("parameter words differ from the method's"))
	}
	for id, p := range shared {
		if p != nil {
			l.slot[id] = l.slot[p.ID]
		}
	}
}

// paramTypes returns the first character of each parameter type in a
// method signature "(I[JLjava/lang/String;)V".
func paramTypes(sig string) []byte {
	var out []byte
	i := 1
	for i < len(sig) && sig[i] != ')' {
		out = append(out, sig[i])
		for sig[i] == '[' {
			i++
		}
		if sig[i] == 'L' {
			for sig[i] != ';' {
				i++
			}
		}
		i++
	}
	return out
}

// s returns the slot of v, which must have one.
func (l *lowerer) s(v *ssa.Value) int {
	if v.Type == ssa.TypeBool {
		panic(unsupported("a condition used as data"))
	}
	if v.Type == ssa.TypeVoid {
		panic(unsupported(fmt.Sprintf("a void value (%s) used as data", v.Op)))
	}
	return l.slot[v.ID]
}

// edge builds the edge b → b.Succs[i] with its φ moves.
func (l *lowerer) edge(b *ssa.Block, i int) *edge {
	to := b.Succs[i]
	j := -1
	// the predecessor index: b may appear more than once (a switch with
	// several keys to one block); φ arguments then agree, take the i'th
	// occurrence's
	n := 0
	for k := 0; k < i; k++ {
		if b.Succs[k] == to {
			n++
		}
	}
	for k, p := range to.Preds {
		if p == b {
			if n == 0 {
				j = k
				break
			}
			n--
		}
	}
	if j < 0 {
		panic(unsupported("successor without a matching predecessor"))
	}
	e := &edge{to: l.blocks[to.ID], back: l.rpo[to.ID] <= l.rpo[b.ID]}
	dsts := map[int]bool{}
	for _, v := range to.Values {
		if v.Op != ssa.OpPhi {
			continue
		}
		if v.Type == ssa.TypeBool {
			panic(unsupported("a φ of conditions"))
		}
		mv := move{dst: l.s(v), src: l.s(v.Args[j]), wide: v.Type.Wide()}
		if mv.dst == mv.src {
			continue
		}
		e.moves = append(e.moves, mv)
		dsts[mv.dst] = true
		if mv.wide {
			dsts[mv.dst+1] = true
		}
	}
	for _, mv := range e.moves {
		if dsts[mv.src] || (mv.wide && dsts[mv.src+1]) {
			e.parallel = true
		}
	}
	e.single = len(e.moves) == 1 && !e.moves[0].wide
	e.two = len(e.moves) == 2 && !e.parallel
	e.plain = len(e.moves) == 0 && !e.back
	if e.parallel && len(e.moves) > 64 {
		panic(unsupported("more than 64 parallel φ moves on an edge"))
	}
	return e
}

func (l *lowerer) block(b *ssa.Block) {
	cb := l.blocks[b.ID]
	vals := b.Values
	p := l.plans[b.ID]
	at := make([]int, len(vals)) // the instruction each value is part of, -1 for none
	afterCall := map[int]*[]int{}
	for k := 0; k < len(vals); k++ {
		at[k] = -1
		if l.inTree(vals, p, k) {
			// a fused access in a tree or with a tree operand: its
			// checks are the tree's
			end := p.group[k]
			for j := k; j <= end; j++ {
				at[j] = -2
			}
			k = end
			if v := vals[end]; !l.inl[v.ID] {
				cb.code = append(cb.code, l.treeValue(v))
				at[end] = len(cb.code) - 1
			}
			continue
		}
		if v := vals[k]; l.inl[v.ID] {
			at[k] = -2
			continue
		} else if v != p.cmp && l.hasTreeArg(v) {
			cb.code = append(cb.code, l.treeValue(v))
			at[k] = len(cb.code) - 1
			continue
		}
		if in, n := l.barrierThenAccess(vals, k, p); in != nil {
			cb.code = append(cb.code, in)
			for j := k; j < k+n; j++ {
				at[j] = len(cb.code) - 1
			}
			k += n - 1
			continue
		}
		l.afterCall = nil
		if in := l.value(vals[k]); in != nil {
			cb.code = append(cb.code, in)
			at[k] = len(cb.code) - 1
			if l.afterCall != nil {
				afterCall[at[k]] = l.afterCall
			}
		}
	}
	l.treeAt(vals, p, at)
	l.clearDead(b, cb, at, afterCall)
	cb.step = l.stepOf(vals, at, len(cb.code))
	nnorm := len(b.Succs) - b.NCatch
	addrs := l.handlers[b.ID]
	if len(addrs) != b.NCatch {
		panic(unsupported("the passes changed a block's exception edges"))
	}
	for i := nnorm; i < len(b.Succs); i++ {
		cb.catches = append(cb.catches, catchEdge{addrs[i-nnorm], l.edge(b, i)})
	}
	switch b.Kind {
	case ssa.BlockPlain:
		if nnorm != 1 {
			panic(unsupported("a plain block without one successor"))
		}
		cb.next = l.edge(b, 0)
	case ssa.BlockIf:
		if nnorm != 2 {
			panic(unsupported("an if block without two successors"))
		}
		yes, no := l.edge(b, 0), l.edge(b, 1)
		cb.ifEdges = [2]*edge{yes, no}
		if c := b.Control; c == p.cmp && l.hasTreeArg(c) {
			cb.term = condInt(c.Op, l.intOp(c.Args[0]), l.intOp(c.Args[1]), yes, no)
			if cb.term == nil {
				panic(unsupported("no tree form of " + c.LongString()))
			}
		} else {
			cb.term = l.cond(b.Control, yes, no)
			c := b.Control
			cb.test = intTest{op: c.Op, a: l.s(c.Args[0]), b: l.s(c.Args[1])}
			if c.Args[0].Type == ssa.TypeInt && c.Args[1].Type == ssa.TypeInt {
				cb.test.ok = true
			}
		}
	case ssa.BlockSwitch:
		cb.term = l.switchTerm(b, nnorm)
	case ssa.BlockReturn:
		cb.term = l.ret(b.Control)
	case ssa.BlockThrow:
		x := l.s(b.Control)
		pc, ok := l.throwPC[b.ID]
		if !ok {
			panic(unsupported("a throw block the front end did not build"))
		}
		cb.term = func(f *frame) *edge {
			f.at(pc)
			if o := f.r[x]; o == 0 {
				f.t.ThrowNPE("throw with null exception")
			} else {
				f.t.Throw(o)
			}
			return throwEdge
		}
	default:
		panic(unsupported("unknown block kind"))
	}
	cb.seal()
}

func (l *lowerer) ret(v *ssa.Value) func(*frame) *edge {
	if v == nil {
		return func(*frame) *edge { return retEdge }
	}
	x := l.s(v)
	if v.Type.Wide() {
		return func(f *frame) *edge { f.t.Ret = getL(f.r, x); return retEdge }
	}
	return func(f *frame) *edge { f.t.Ret = uint64(f.r[x]); return retEdge }
}

func (l *lowerer) switchTerm(b *ssa.Block, nnorm int) func(*frame) *edge {
	if nnorm != len(b.Keys)+1 {
		panic(unsupported("switch keys do not match its successors"))
	}
	x := l.s(b.Control)
	edges := make([]*edge, nnorm)
	for i := range edges {
		edges[i] = l.edge(b, i)
	}
	def := edges[len(b.Keys)]
	// packed keys index a table
	packed := len(b.Keys) > 0
	for i := 1; i < len(b.Keys); i++ {
		if int64(b.Keys[i]) != int64(b.Keys[0])+int64(i) {
			packed = false
		}
	}
	if packed {
		first := int64(b.Keys[0])
		n := int64(len(b.Keys))
		return func(f *frame) *edge {
			k := int64(int32(f.r[x])) - first
			if k >= 0 && k < n {
				return edges[k]
			}
			return def
		}
	}
	m := make(map[int32]*edge, len(b.Keys))
	for i, k := range b.Keys {
		if _, dup := m[k]; !dup {
			m[k] = edges[i]
		}
	}
	return func(f *frame) *edge {
		if e, ok := m[int32(f.r[x])]; ok {
			return e
		}
		return def
	}
}

// cond lowers an If on a comparison: the comparison itself is evaluated
// here, fused with the branch.
func (l *lowerer) cond(c *ssa.Value, yes, no *edge) func(*frame) *edge {
	switch c.Op {
	case ssa.OpEq, ssa.OpNe, ssa.OpLt, ssa.OpGe, ssa.OpGt, ssa.OpLe:
	default:
		panic(unsupported(fmt.Sprintf("an if on %s", c.Op)))
	}
	if c.Args[0].Type.Wide() || c.Args[1].Type.Wide() {
		panic(unsupported("an if on a wide comparison"))
	}
	a := l.s(c.Args[0])
	if k, ok := c.Args[1].IsConst(); ok {
		y := int32(k)
		switch c.Op {
		case ssa.OpEq:
			return func(f *frame) *edge {
				if int32(f.r[a]) == y {
					return yes
				}
				return no
			}
		case ssa.OpNe:
			return func(f *frame) *edge {
				if int32(f.r[a]) != y {
					return yes
				}
				return no
			}
		case ssa.OpLt:
			return func(f *frame) *edge {
				if int32(f.r[a]) < y {
					return yes
				}
				return no
			}
		case ssa.OpGe:
			return func(f *frame) *edge {
				if int32(f.r[a]) >= y {
					return yes
				}
				return no
			}
		case ssa.OpGt:
			return func(f *frame) *edge {
				if int32(f.r[a]) > y {
					return yes
				}
				return no
			}
		default:
			return func(f *frame) *edge {
				if int32(f.r[a]) <= y {
					return yes
				}
				return no
			}
		}
	}
	b := l.s(c.Args[1])
	switch c.Op {
	case ssa.OpEq:
		return func(f *frame) *edge {
			if f.r[a] == f.r[b] {
				return yes
			}
			return no
		}
	case ssa.OpNe:
		return func(f *frame) *edge {
			if f.r[a] != f.r[b] {
				return yes
			}
			return no
		}
	case ssa.OpLt:
		return func(f *frame) *edge {
			if int32(f.r[a]) < int32(f.r[b]) {
				return yes
			}
			return no
		}
	case ssa.OpGe:
		return func(f *frame) *edge {
			if int32(f.r[a]) >= int32(f.r[b]) {
				return yes
			}
			return no
		}
	case ssa.OpGt:
		return func(f *frame) *edge {
			if int32(f.r[a]) > int32(f.r[b]) {
				return yes
			}
			return no
		}
	default:
		return func(f *frame) *edge {
			if int32(f.r[a]) <= int32(f.r[b]) {
				return yes
			}
			return no
		}
	}
}

// clearDead nulls the slot of a reference used only in the block that
// makes it, after the instruction of its last use, so that a compiled
// frame keeps an object alive no longer than the interpreter's reused
// registers do (a loop that drops its big arrays must not run out of
// memory). References live across blocks keep their slot until it is
// written again or the method returns: that needs liveness analysis.
func (l *lowerer) clearDead(b *ssa.Block, cb *cblock, at []int, afterCall map[int]*[]int) {
	// reference value -> index of the value whose instruction is its
	// last use (trees move a use to their root's instruction), or of
	// itself when it has none (an ignored call result)
	last := map[*ssa.Value]int{}
	local := map[*ssa.Value]bool{}
	for k, v := range b.Values {
		if v.Type == ssa.TypeRef && v.Op != ssa.OpPhi && v.Op != ssa.OpThis && v.Op != ssa.OpParam && l.slot[v.ID] >= 0 {
			local[v] = true
			last[v] = k
		}
		for _, a := range v.Args {
			if local[a] {
				if at[k] < 0 || v.Type == ssa.TypeBool {
					// read by the terminator (a comparison fused with
					// its branch, a tree of the If) or by no instruction
					local[a] = false
				} else if at[k] >= at[last[a]] {
					last[a] = k
				}
			}
		}
	}
	if b.Control != nil {
		local[b.Control] = false
		for _, a := range b.Control.Args {
			local[a] = false
		}
	}
	n := 0
	for _, v := range b.Values {
		if local[v] {
			n++
		}
	}
	if n == 0 {
		return
	}
	// uses outside the block, or as φ arguments anywhere, keep it
	for _, bb := range l.fn.Blocks {
		for _, v := range bb.Values {
			for _, a := range v.Args {
				if local[a] && (bb != b || v.Op == ssa.OpPhi) {
					local[a] = false
				}
			}
		}
		if c := bb.Control; c != nil && bb != b {
			local[c] = false
			for _, a := range c.Args {
				local[a] = false
			}
		}
	}
	clears := map[int][]int{} // instruction -> slots to null after it
	for v, ok := range local {
		k, used := last[v]
		if !ok || !used || at[k] < 0 || (l.uses[v.ID] == 0 && b.Values[k] != v) {
			continue
		}
		clears[at[k]] = append(clears[at[k]], l.slot[v.ID])
	}
	for i, slots := range clears {
		if ac := afterCall[i]; ac != nil {
			// a call clears them itself: no wrapper to call through
			*ac = slots
			continue
		}
		in := cb.code[i]
		cb.code[i] = func(f *frame) bool {
			ok := in(f)
			for _, s := range slots {
				f.r[s] = 0
			}
			return ok
		}
	}
}

// coalesce returns, by value ID, the φ whose slot a value shares: a
// number computed only for a φ, in the block that ends with a plain edge
// to the φ's block, when nothing reads the φ after the value is written
// (a loop's counter and accumulator: `i = i + 1`). Its edge then has no
// move: a loop's back edge costs nothing. Since the block's only
// successor is the φ's block, where the φ is set again, the φ's old
// value is dead from the value's write on, if no use in the block is
// evaluated after it and no other φ of that block reads it on the edge
// (the moves are parallel). References are left alone (their slots are
// cleared by liveness, clearDead).
func (l *lowerer) coalesce() []*ssa.Value {
	shared := make([]*ssa.Value, l.fn.NumValues())
	for _, h := range l.fn.Blocks {
		for _, p := range h.Values {
			if p.Op != ssa.OpPhi || !numeric(p.Type) {
				continue
			}
			for j, a := range p.Args {
				b := h.Preds[j]
				if a.Block != b || a.Type != p.Type || l.uses[a.ID] != 1 || shared[a.ID] != nil || !coalescable(a) ||
					b.Kind != ssa.BlockPlain || b.NCatch != 0 || len(b.Succs) != 1 || l.inl[a.ID] {
					continue
				}
				if l.readAfter(b, p, a) {
					continue
				}
				shared[a.ID] = p
			}
		}
	}
	return shared
}

// coalescable reports whether a is an operation whose instruction reads
// all its operands before it writes its result.
func coalescable(a *ssa.Value) bool {
	switch a.Op {
	case ssa.OpAdd, ssa.OpSub, ssa.OpMul, ssa.OpAnd, ssa.OpOr, ssa.OpXor, ssa.OpShl, ssa.OpShr, ssa.OpUshr,
		ssa.OpNeg, ssa.OpNot, ssa.OpConv, ssa.OpIntToByte, ssa.OpIntToChar, ssa.OpIntToShort, ssa.OpSelect:
		return true
	}
	return false
}

// readAfter reports whether the φ p may be read after a is written: a
// use in b evaluated after a's instruction (a use inside a tree counts
// where its root is; a use by a Select's comparison where the Select
// is, since the comparison is evaluated there), or a use by a φ of b's
// successor other than p (the edge's moves are parallel).
func (l *lowerer) readAfter(b *ssa.Block, p, a *ssa.Value) bool {
	pos := map[*ssa.Value]int{}
	user := map[*ssa.Value]*ssa.Value{}
	for k, v := range b.Values {
		pos[v] = k
		for _, x := range v.Args {
			user[x] = v
		}
	}
	// where v is evaluated: its tree's root's position
	at := func(v *ssa.Value) int {
		for l.inl[v.ID] {
			u, ok := user[v]
			if !ok {
				return len(b.Values) // the terminator's tree
			}
			v = u
		}
		return pos[v]
	}
	ka := pos[a]
	for _, v := range b.Values {
		if v.Op == ssa.OpPhi || at(v) <= ka {
			continue
		}
		reads := v.Args
		if v.Op == ssa.OpSelect {
			// its comparison reads its operands when the Select runs
			reads = append(reads[:len(reads):len(reads)], v.Args[0].Args...)
		}
		for _, x := range reads {
			if x == p {
				return true
			}
		}
	}
	for _, q := range b.Succs[0].Values {
		if q.Op == ssa.OpPhi && q != p {
			for _, x := range q.Args {
				if x == p {
					return true
				}
			}
		}
	}
	return false
}

// stepOf returns the block's last instruction as a step when it is one:
// an int Add of a constant or a slot to a value that shares its slot
// with the other operand (coalesce: a loop's counter, `i += k`), which
// the loop closure then does inline instead of calling it.
func (l *lowerer) stepOf(vals []*ssa.Value, at []int, n int) step {
	if n == 0 {
		return step{}
	}
	var last *ssa.Value
	for k, v := range vals {
		if at[k] == n-1 {
			if last != nil {
				return step{}
			}
			last = v
		}
	}
	if last == nil || last.Op != ssa.OpAdd || last.Type != ssa.TypeInt || l.hasTreeArg(last) {
		return step{}
	}
	d := l.s(last)
	for i, a := range last.Args {
		if l.s(a) != d {
			continue
		}
		o := last.Args[1-i]
		if k, ok := o.IsConst(); ok {
			return step{ok: true, slot: d, by: -1, k: uint32(k)}
		}
		return step{ok: true, slot: d, by: l.s(o)}
	}
	return step{}
}
