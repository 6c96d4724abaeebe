// Package ssa is the AOT compiler's intermediate representation: a
// function of basic blocks holding values in SSA form, the dominator tree
// over them, the optimisation passes (one file each, named for what it
// does, listed in compile.go), a checker of the IR's invariants, and its
// text and Graphviz dumps.
//
// The IR keeps Dalvik's semantics explicit: the null, bounds and
// divide-by-zero checks an instruction implies are values of their own
// (NullCheck, BoundsCheck, DivZeroCheck) so that passes can prove them
// redundant and remove them, and every value that has an effect (stores,
// calls, checks, monitors) stays in its block in program order. Passes
// never move effectful values; they fold, forward and delete.
package ssa

// Type is the type of a value. Dalvik registers are untyped; the front
// end infers these from the instructions that define and use a value.
type Type uint8

// Value types.
const (
	TypeVoid   Type = iota // no result (stores, checks, invokes of void methods)
	TypeInt                // 32-bit integer (also boolean, byte, char, short)
	TypeLong               // 64-bit integer, a register pair
	TypeFloat              // 32-bit IEEE float
	TypeDouble             // 64-bit IEEE float, a register pair
	TypeRef                // object reference
	TypeBool               // a condition (the control value of an If block)
)

var typeNames = [...]string{"void", "int", "long", "float", "double", "ref", "bool"}

// String returns the type's name as the text dump writes it.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "invalid"
}

// Wide reports whether the type takes a register pair in Dalvik.
func (t Type) Wide() bool { return t == TypeLong || t == TypeDouble }

// Value is an SSA value: the result of one operation, defined once.
type Value struct {
	ID    int
	Op    Op
	Type  Type
	Args  []*Value
	Aux   int64 // constant bits, parameter number, or a DEX index (field, method, type, string)
	Block *Block
	PC    int // the dex pc of the instruction it came from, -1 if none
}

// BlockKind says how control leaves a block.
type BlockKind uint8

// Block kinds.
const (
	BlockPlain  BlockKind = iota // one normal successor
	BlockIf                      // Control is a bool; successors: true, false
	BlockSwitch                  // Control is an int; successors: one per key in Keys, then the default
	BlockReturn                  // Control is the returned value, or nil for void
	BlockThrow                   // Control is the thrown reference
)

var blockKindNames = [...]string{"Plain", "If", "Switch", "Return", "Throw"}

// String returns the block kind's name as the text dump writes it.
func (k BlockKind) String() string {
	if int(k) < len(blockKindNames) {
		return blockKindNames[k]
	}
	return "invalid"
}

// Block is a basic block. Its normal successors come first in Succs; the
// last NCatch of them are exception edges to handlers, taken when the
// block's last throwing value throws (the front end ends a block at each
// instruction that may throw inside a try range).
type Block struct {
	ID      int
	Kind    BlockKind
	Values  []*Value // φs first, then the rest in program order
	Control *Value
	Keys    []int32 // switch keys, parallel to the first len(Keys) successors
	Preds   []*Block
	Succs   []*Block
	NCatch  int
	Func    *Func
	PC      int // the dex pc the block starts at, -1 for blocks the front end adds
}

// Func is one method in SSA form.
type Func struct {
	Name   string
	Blocks []*Block // Blocks[0] is the entry
	nextV  int
	nextB  int

	// cached analyses, reset by Invalidate
	idom []*Block
	rpo  []*Block
}

// Entry returns the entry block.
func (f *Func) Entry() *Block { return f.Blocks[0] }

// NewBlock adds an empty block of kind k.
func (f *Func) NewBlock(k BlockKind) *Block {
	b := &Block{ID: f.nextB, Kind: k, Func: f, PC: -1}
	f.nextB++
	f.Blocks = append(f.Blocks, b)
	f.Invalidate()
	return b
}

// NewValue appends a value to b.
func (b *Block) NewValue(op Op, t Type, aux int64, args ...*Value) *Value {
	v := b.Func.newValue(op, t, aux, args)
	v.Block = b
	b.Values = append(b.Values, v)
	return v
}

// NewPhi inserts a φ at the end of b's φs; its arguments are added later.
func (b *Block) NewPhi(t Type) *Value {
	v := b.Func.newValue(OpPhi, t, 0, nil)
	v.Block = b
	i := 0
	for i < len(b.Values) && b.Values[i].Op == OpPhi {
		i++
	}
	b.Values = append(b.Values, nil)
	copy(b.Values[i+1:], b.Values[i:])
	b.Values[i] = v
	return v
}

func (f *Func) newValue(op Op, t Type, aux int64, args []*Value) *Value {
	v := &Value{ID: f.nextV, Op: op, Type: t, Aux: aux, PC: -1}
	f.nextV++
	if len(args) > 0 {
		v.Args = append([]*Value(nil), args...)
	}
	return v
}

// NumValues is one more than the largest value ID: the size of a slice
// indexed by value ID.
func (f *Func) NumValues() int { return f.nextV }

// NumBlocks is one more than the largest block ID.
func (f *Func) NumBlocks() int { return f.nextB }

// AddEdge adds the edge b → c (a normal edge, before any exception edges).
func (b *Block) AddEdge(c *Block) {
	n := len(b.Succs) - b.NCatch
	b.Succs = append(b.Succs, nil)
	copy(b.Succs[n+1:], b.Succs[n:])
	b.Succs[n] = c
	c.Preds = append(c.Preds, b)
	b.Func.Invalidate()
}

// AddCatchEdge adds an exception edge b → handler.
func (b *Block) AddCatchEdge(h *Block) {
	b.Succs = append(b.Succs, h)
	b.NCatch++
	h.Preds = append(h.Preds, b)
	b.Func.Invalidate()
}

// RemoveSucc removes the i'th successor edge of b, and the matching
// predecessor entry and φ arguments of the successor.
func (b *Block) RemoveSucc(i int) {
	c := b.Succs[i]
	if i >= len(b.Succs)-b.NCatch {
		b.NCatch--
	}
	b.Succs = append(b.Succs[:i], b.Succs[i+1:]...)
	if i < len(b.Keys) {
		b.Keys = append(b.Keys[:i], b.Keys[i+1:]...)
	}
	for j, p := range c.Preds {
		if p == b {
			c.removePred(j)
			break
		}
	}
	b.Func.Invalidate()
}

func (c *Block) removePred(j int) {
	c.Preds = append(c.Preds[:j], c.Preds[j+1:]...)
	// not only the leading φs: a pass may have folded a φ among them
	for _, v := range c.Values {
		if v.Op == OpPhi {
			v.Args = append(v.Args[:j], v.Args[j+1:]...)
		}
	}
}

// Invalidate drops the cached dominator tree and block order; passes call
// it (through the edge helpers) whenever they change the CFG.
func (f *Func) Invalidate() { f.idom, f.rpo = nil, nil }

// IsConst reports whether v is a constant, and its bits.
func (v *Value) IsConst() (int64, bool) {
	if v.Op == OpConst {
		return v.Aux, true
	}
	return 0, false
}
