// Package frontend is the AOT compiler's front end: it turns a method's
// DEX bytecode into the SSA form of package ssa. It decodes the code
// (with vm/dex's decoder and opcode table), splits it into basic blocks
// with exception edges, builds SSA over Dalvik's virtual registers with
// Braun et al.'s on-demand algorithm ("Simple and Efficient Construction
// of SSA Form", CC 2013) — wide values live in the low register of their
// pair — and infers the types of values Dalvik leaves untyped (constants,
// moves, φs, aget), as ART's builder does, giving a constant or φ used as
// two types one equivalent per type.
package frontend

import (
	"maps"
	"slices"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
)

// Method is a method to compile.
type Method struct {
	File   *dex.File
	Method uint32 // method index
	Access uint32 // access flags (static or not)
	Code   *dex.Code
}

// Build translates m into SSA form. The returned function passes
// ssa.Check; an *Error says why a method cannot be compiled.
func Build(m Method) (f *ssa.Func, err error) {
	if m.Code == nil {
		return nil, errorf(-1, "no code (abstract or native)")
	}
	if int(m.Method) >= len(m.File.Methods) {
		return nil, errorf(-1, "bad method index %d", m.Method)
	}
	g, err := buildCFG(m.Code)
	if err != nil {
		return nil, err
	}
	b := &builder{m: m, g: g, nregs: int(m.Code.Registers)}
	b.f = &ssa.Func{Name: m.File.MethodName(m.Method)}
	defer func() {
		// The translation stops at the first problem by panicking with
		// an *Error (the verifier does the same); anything else is a bug.
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			f, err = nil, e
		}
	}()
	b.build()
	b.inferTypes()
	if err := ssa.Check(b.f); err != nil {
		return nil, errorf(-1, "internal: the front end built invalid IR: %v", err)
	}
	return b.f, nil
}

// builder holds the state of one method's translation.
type builder struct {
	m     Method
	g     *cfg
	f     *ssa.Func
	nregs int
	pc    int // the instruction being translated

	// per ssa block ID
	defs       [][]*ssa.Value // current definition of each variable
	sealed     []bool
	filled     []bool
	incomplete []map[int]*ssa.Value

	undef, hiHalf *ssa.Value
	// wants records, per value, the types its arguments must have
	// (ssa.TypeVoid: whatever the other argument of an Eq/Ne is).
	wants map[*ssa.Value][]ssa.Type
	// flex marks values whose type is inferred: constants, moves, φs and
	// the untyped aget; wide tells pairs from single registers.
	flex map[*ssa.Value]bool
	wide map[*ssa.Value]bool
	// pairs are the upper halves read with wide values, checked after
	// trivial φs are gone
	pairs []pairCheck
}

type pairCheck struct {
	hi  *ssa.Value
	pc  int
	reg int
}

// variable numbers: the registers, then the invoke result
func (b *builder) resultVar() int { return b.nregs }

func (b *builder) fail(format string, args ...any) {
	panic(errorf(b.pc, format, args...))
}

func (b *builder) grow(id int) {
	for len(b.defs) <= id {
		b.defs = append(b.defs, nil)
		b.sealed = append(b.sealed, false)
		b.filled = append(b.filled, false)
		b.incomplete = append(b.incomplete, nil)
	}
}

func (b *builder) newBlock(k ssa.BlockKind, pc int) *ssa.Block {
	blk := b.f.NewBlock(k)
	blk.PC = pc
	b.grow(blk.ID)
	return blk
}

func (b *builder) write(v int, blk *ssa.Block, val *ssa.Value) {
	if b.defs[blk.ID] == nil {
		b.defs[blk.ID] = make([]*ssa.Value, b.nregs+1)
	}
	b.defs[blk.ID][v] = val
}

func (b *builder) read(v int, blk *ssa.Block) *ssa.Value {
	if d := b.defs[blk.ID]; d != nil && d[v] != nil {
		return d[v]
	}
	return b.readRecursive(v, blk)
}

func (b *builder) readRecursive(v int, blk *ssa.Block) *ssa.Value {
	var val *ssa.Value
	switch {
	case !b.sealed[blk.ID]:
		val = b.newPhi(blk)
		if b.incomplete[blk.ID] == nil {
			b.incomplete[blk.ID] = map[int]*ssa.Value{}
		}
		b.incomplete[blk.ID][v] = val
	case len(blk.Preds) == 0:
		val = b.undef
	case len(blk.Preds) == 1:
		val = b.read(v, blk.Preds[0])
	default:
		val = b.newPhi(blk)
		b.write(v, blk, val)
		b.addPhiOperands(v, val)
	}
	b.write(v, blk, val)
	return val
}

func (b *builder) newPhi(blk *ssa.Block) *ssa.Value {
	p := blk.NewPhi(ssa.TypeVoid)
	b.flex[p] = true
	return p
}

func (b *builder) addPhiOperands(v int, phi *ssa.Value) {
	for _, p := range phi.Block.Preds {
		phi.Args = append(phi.Args, b.read(v, p))
	}
}

func (b *builder) seal(blk *ssa.Block) {
	// in register order, not map order: completing a φ can make new φs,
	// and the IR (value IDs) must not change from one compile to the next
	inc := b.incomplete[blk.ID]
	for _, v := range slices.Sorted(maps.Keys(inc)) {
		b.addPhiOperands(v, inc[v])
	}
	b.incomplete[blk.ID] = nil
	b.sealed[blk.ID] = true
}

// trySeal seals blk once all its predecessors are filled.
func (b *builder) trySeal(blk *ssa.Block) {
	if b.sealed[blk.ID] {
		return
	}
	for _, p := range blk.Preds {
		if !b.filled[p.ID] {
			return
		}
	}
	b.seal(blk)
}

// build makes the blocks and edges, then translates the blocks in
// reverse postorder, sealing each when its predecessors are done.
func (b *builder) build() {
	b.wants = map[*ssa.Value][]ssa.Type{}
	b.flex = map[*ssa.Value]bool{}
	b.wide = map[*ssa.Value]bool{}
	entry := b.newBlock(ssa.BlockPlain, -1)
	b.undef = entry.NewValue(ssa.OpUndef, ssa.TypeVoid, 0)
	b.hiHalf = entry.NewValue(ssa.OpUndef, ssa.TypeVoid, 1)
	b.flex[b.undef], b.flex[b.hiHalf] = true, true

	blocks := map[*bblock]*ssa.Block{}
	for _, bb := range b.g.blocks {
		if bb.reach {
			blocks[bb] = b.newBlock(ssa.BlockPlain, b.g.insns[bb.first].pc)
		}
	}
	start := blocks[b.g.byPC[b.g.insns[0].pc]]
	entry.AddEdge(start)
	b.params(entry)
	b.filled[entry.ID] = true
	b.seal(entry)

	// a landing block takes the register write of a throwing
	// instruction whose exception edges must see the old value
	landing := map[*ssa.Block]*ssa.Block{}
	for _, bb := range b.g.blocks {
		if !bb.reach {
			continue
		}
		blk := blocks[bb]
		last := b.g.insns[bb.last]
		if len(bb.catches) > 0 && writesRegister(last.in.Op) && len(bb.succs) == 1 {
			l := b.newBlock(ssa.BlockPlain, -1)
			blk.AddEdge(l)
			l.AddEdge(blocks[b.g.byPC[bb.succs[0]]])
			landing[blk] = l
		} else {
			for _, s := range bb.succs {
				blk.AddEdge(blocks[b.g.byPC[s]])
			}
		}
		for _, h := range bb.catches {
			blk.AddCatchEdge(blocks[b.g.byPC[h]])
		}
	}

	for _, blk := range b.f.RPO() {
		if blk == entry {
			continue
		}
		b.trySeal(blk)
		if blk.PC >= 0 {
			bb := b.g.byPC[blk.PC]
			b.translateBlock(blk, bb, landing[blk])
		}
		b.filled[blk.ID] = true
		for _, s := range blk.Succs {
			b.trySeal(s)
		}
	}
	for _, blk := range b.f.Blocks {
		if !b.sealed[blk.ID] {
			b.seal(blk)
		}
	}
	resolve := b.removeTrivialPhis()
	for _, p := range b.pairs {
		if resolve(p.hi) != b.hiHalf {
			b.pc = p.pc
			b.fail("v%d/v%d is not a wide register pair", p.reg, p.reg+1)
		}
	}
}

// writesRegister reports whether op writes a register (or the invoke
// result) when it completes normally.
func writesRegister(op dex.Opcode) bool {
	o := uint8(op)
	switch {
	case o >= 0x1a && o <= 0x1c, o == 0x1f, o >= 0x20 && o <= 0x25,
		o >= 0x44 && o <= 0x4a, o >= 0x52 && o <= 0x58, o >= 0x60 && o <= 0x66,
		o >= 0x6e && o <= 0x78, o >= 0x90 && o <= 0xe2, o >= 0xfa:
		return true
	}
	return false
}

// params defines the argument registers: the last ins registers.
func (b *builder) params(entry *ssa.Block) {
	code := b.m.Code
	if code.Ins > code.Registers {
		b.fail("ins_size %d exceeds registers_size %d", code.Ins, code.Registers)
	}
	ref := b.m.File.Methods[b.m.Method]
	if int(ref.Proto) >= len(b.m.File.Protos) {
		b.fail("bad proto index %d", ref.Proto)
	}
	proto := b.m.File.Protos[ref.Proto]
	r := int(code.Registers - code.Ins)
	n := 0
	if b.m.Access&dex.AccStatic == 0 {
		v := entry.NewValue(ssa.OpThis, ssa.TypeRef, 0)
		b.write(r, entry, v)
		r++
		n++
	}
	for _, p := range proto.Params {
		t := b.descType(p)
		v := entry.NewValue(ssa.OpParam, t, int64(n))
		n++
		if r+width(t) > int(code.Registers) {
			b.fail("the parameters need more than ins_size %d registers", code.Ins)
		}
		b.writeReg(entry, r, v)
		r += width(t)
	}
	if r != int(code.Registers) {
		b.fail("the parameters take %d registers, ins_size is %d", r-int(code.Registers-code.Ins), code.Ins)
	}
}

func width(t ssa.Type) int {
	if t.Wide() {
		return 2
	}
	return 1
}

// descType maps a type index's descriptor to a value type.
func (b *builder) descType(i uint32) ssa.Type {
	if int(i) >= len(b.m.File.Types) {
		b.fail("bad type index %d", i)
	}
	return descriptorType(b.m.File.TypeName(i))
}

func descriptorType(d string) ssa.Type {
	if d == "" {
		return ssa.TypeVoid
	}
	switch d[0] {
	case 'Z', 'B', 'S', 'C', 'I':
		return ssa.TypeInt
	case 'J':
		return ssa.TypeLong
	case 'F':
		return ssa.TypeFloat
	case 'D':
		return ssa.TypeDouble
	case 'L', '[':
		return ssa.TypeRef
	}
	return ssa.TypeVoid
}

// writeReg writes register r (and, for a wide value, marks r+1 as its
// upper half, so a later narrow read of r+1 is caught).
func (b *builder) writeReg(blk *ssa.Block, r int, v *ssa.Value) {
	b.checkReg(r, v.Type.Wide() || b.wide[v])
	b.write(r, blk, v)
	if v.Type.Wide() || b.wide[v] {
		b.write(r+1, blk, b.hiHalf)
	}
}

func (b *builder) checkReg(r int, wide bool) {
	if r < 0 || r >= b.nregs || wide && r+1 >= b.nregs {
		b.fail("register v%d out of range (registers_size %d)", r, b.nregs)
	}
}

// removeTrivialPhis replaces each φ that only merges a single other
// value by that value. This is Braun et al.'s tryRemoveTrivialPhi
// together with their removal of redundant φ sets (section 3.2 of the
// paper): the strongly connected components of the φ graph are visited
// operands first; a component whose φs take, from outside, one value
// only is that value (two loop-header φs passing the upper half of a
// register pair between nested loops are one), and otherwise the φs in
// it whose operands all lie inside it are searched the same way. Linear
// in the φs and their operands, so long chains of joins stay cheap.
func (b *builder) removeTrivialPhis() (resolve func(*ssa.Value) *ssa.Value) {
	n := b.f.NumValues()
	repl := make([]*ssa.Value, n) // by value ID: what a removed φ is
	resolve = func(v *ssa.Value) *ssa.Value {
		for repl[v.ID] != nil {
			v = repl[v.ID]
		}
		return v
	}
	var phis []*ssa.Value
	for _, blk := range b.f.Blocks {
		for _, v := range blk.Values {
			if v.Op != ssa.OpPhi {
				break
			}
			phis = append(phis, v)
		}
	}
	// membership by stamp: mark[id] == stamp means "in the current set"
	g := &sccFinder{resolve: resolve, index: make([]int, n), low: make([]int, n), onStack: make([]bool, n), in: make([]int, n)}
	inner := make([]int, n)
	stamp := 0
	removed := 0
	var process func(set []*ssa.Value)
	process = func(set []*ssa.Value) {
		for _, scc := range g.sccs(set) {
			stamp++
			for _, p := range scc {
				inner[p.ID] = stamp
			}
			var outer *ssa.Value
			many := false
			for _, p := range scc {
				for _, a := range p.Args {
					a = resolve(a)
					if inner[a.ID] == stamp {
						continue
					}
					if outer == nil {
						outer = a
					} else if a != outer {
						many = true
					}
				}
			}
			if !many {
				if outer == nil {
					outer = b.undef
				}
				for _, p := range scc {
					repl[p.ID] = outer
				}
				removed += len(scc)
				continue
			}
			if len(scc) == 1 {
				continue
			}
			var sub []*ssa.Value
			for _, p := range scc {
				all := true
				for _, a := range p.Args {
					all = all && inner[resolve(a).ID] == stamp
				}
				if all {
					sub = append(sub, p)
				}
			}
			if len(sub) > 0 && len(sub) < len(scc) {
				process(sub)
			}
		}
	}
	process(phis)
	if removed == 0 {
		return resolve
	}
	for _, blk := range b.f.Blocks {
		vals := blk.Values[:0]
		for _, v := range blk.Values {
			if repl[v.ID] != nil {
				continue
			}
			for i, a := range v.Args {
				v.Args[i] = resolve(a)
			}
			vals = append(vals, v)
		}
		blk.Values = vals
		if blk.Control != nil {
			blk.Control = resolve(blk.Control)
		}
	}
	return resolve
}

// emit appends a value to blk, recording the types its arguments must
// have.
func (b *builder) emit(blk *ssa.Block, op ssa.Op, t ssa.Type, aux int64, wants []ssa.Type, args ...*ssa.Value) *ssa.Value {
	v := blk.NewValue(op, t, aux, args...)
	v.PC = b.pc
	if wants != nil {
		b.wants[v] = wants
	}
	return v
}

func ts(t ...ssa.Type) []ssa.Type { return t }

// sccFinder finds the strongly connected components of sets of φs, an
// edge going from a φ to each operand φ in the set (Tarjan's algorithm,
// which emits operands' components first). Its slices are indexed by
// value ID and reused across calls.
type sccFinder struct {
	resolve    func(*ssa.Value) *ssa.Value
	index, low []int // index+1; 0: not visited in this call
	onStack    []bool
	in         []int // == call: in the set
	call       int
	next       int
	stack      []*ssa.Value
	out        [][]*ssa.Value
}

func (g *sccFinder) sccs(set []*ssa.Value) [][]*ssa.Value {
	g.call++
	for _, v := range set {
		g.in[v.ID] = g.call
		g.index[v.ID] = 0
	}
	g.out, g.next = nil, 0
	for _, v := range set {
		if g.index[v.ID] == 0 {
			g.visit(v)
		}
	}
	return g.out
}

func (g *sccFinder) visit(v *ssa.Value) {
	g.next++
	g.index[v.ID], g.low[v.ID] = g.next, g.next
	g.stack = append(g.stack, v)
	g.onStack[v.ID] = true
	for _, a := range v.Args {
		a = g.resolve(a)
		if g.in[a.ID] != g.call {
			continue
		}
		if g.index[a.ID] == 0 {
			g.visit(a)
			g.low[v.ID] = min(g.low[v.ID], g.low[a.ID])
		} else if g.onStack[a.ID] {
			g.low[v.ID] = min(g.low[v.ID], g.index[a.ID])
		}
	}
	if g.low[v.ID] == g.index[v.ID] {
		var scc []*ssa.Value
		for {
			w := g.stack[len(g.stack)-1]
			g.stack = g.stack[:len(g.stack)-1]
			g.onStack[w.ID] = false
			scc = append(scc, w)
			if w == v {
				break
			}
		}
		g.out = append(g.out, scc)
	}
}
