package frontend

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// inferTypes gives a type to the values Dalvik leaves untyped: constants
// (int, float or null; long or double), moves, φs and aget/aget-wide.
// As ART's builder does, it first deletes φs and moves nothing real uses
// (a register may hold an int on one path and a reference on another
// when neither is read after the join), then propagates types forward
// from typed definitions and backward from typed uses, defaults the rest
// to int or long, and finally gives a constant, move or φ that is used as
// two types one equivalent per type. Any other mismatch is a type
// conflict the verifier would reject.
func (b *builder) inferTypes() {
	b.deleteDeadPhis()
	for changed := true; changed; {
		changed = false
		for _, blk := range b.f.Blocks {
			for _, v := range blk.Values {
				// forward: a move or φ takes the type of a typed argument,
				// or at least the width of a wide one (a φ of untyped
				// wide constants used only by aput-wide defaults to long,
				// not int)
				if b.flex[v] && v.Type == tVoid && (v.Op == ssa.OpCopy || v.Op == ssa.OpPhi) {
					for _, a := range v.Args {
						if a.Type != tVoid {
							v.Type = a.Type
							changed = true
							break
						}
						if b.wide[a] && !b.wide[v] {
							b.wide[v] = true
							changed = true
						}
					}
				}
				// backward: an untyped argument takes the type its use wants
				for i, a := range v.Args {
					if !b.flex[a] || a.Type != tVoid || a.Op == ssa.OpUndef {
						continue
					}
					if w := b.want(v, i); w != tVoid {
						a.Type = w
						changed = true
					}
				}
			}
		}
	}
	for _, blk := range b.f.Blocks {
		for _, v := range blk.Values {
			if b.flex[v] && v.Type == tVoid && v.Op != ssa.OpUndef {
				if b.wide[v] {
					v.Type = tLong
				} else {
					v.Type = tInt
				}
			}
		}
	}
	// reconcile every use with its value
	eq := map[eqKey]*ssa.Value{}
	for _, blk := range append([]*ssa.Block(nil), b.f.Blocks...) {
		for _, v := range append([]*ssa.Value(nil), blk.Values...) {
			for i, a := range v.Args {
				b.pc = v.PC
				w := b.want(v, i)
				if w == tVoid {
					continue
				}
				if a == b.hiHalf {
					b.fail("a φ merges the upper half of a wide register pair with another value")
				}
				if a.Type != w {
					v.Args[i] = b.equivalent(a, w, eq)
				}
			}
		}
	}
	b.dropUnusedUndefs()
}

// dropUnusedUndefs deletes the entry's Undef placeholders when no φ
// merges them, so dumps show only what the method has.
func (b *builder) dropUnusedUndefs() {
	used := map[*ssa.Value]bool{}
	for _, blk := range b.f.Blocks {
		for _, v := range blk.Values {
			for _, a := range v.Args {
				used[a] = true
			}
		}
	}
	entry := b.f.Entry()
	vals := entry.Values[:0]
	for _, v := range entry.Values {
		if v.Op != ssa.OpUndef || used[v] {
			vals = append(vals, v)
		}
	}
	entry.Values = vals
}

// want returns the type v's i'th argument must have, or void for no
// constraint.
func (b *builder) want(v *ssa.Value, i int) ssa.Type {
	switch v.Op {
	case ssa.OpPhi:
		if v.Args[i].Op == ssa.OpUndef {
			return tVoid
		}
		return v.Type
	case ssa.OpCopy:
		if w, ok := b.wants[v]; ok {
			return w[0]
		}
		return v.Type
	}
	w, ok := b.wants[v]
	if !ok || i >= len(w) {
		return tVoid
	}
	if w[i] != tVoid {
		return w[i]
	}
	switch v.Op {
	case ssa.OpEq, ssa.OpNe:
		// as the other operand, preferring a typed non-constant
		o := v.Args[1-i]
		if o.Op == ssa.OpConst && v.Args[i].Op != ssa.OpConst {
			return tVoid
		}
		return o.Type
	case ssa.OpAPut:
		// aput/aput-wide store ints or floats (longs or doubles) as the
		// value is
		return v.Args[i].Type
	}
	return tVoid
}

type eqKey struct {
	v *ssa.Value
	t ssa.Type
}

// equivalent returns v as a value of type t: v itself, or a constant, move
// or φ equivalent to it.
func (b *builder) equivalent(v *ssa.Value, t ssa.Type, eq map[eqKey]*ssa.Value) *ssa.Value {
	if v.Type == t {
		return v
	}
	if e := eq[eqKey{v, t}]; e != nil {
		return e
	}
	if v.Type.Wide() != t.Wide() || !b.flex[v] {
		b.fail("type conflict: v%d (%s) is %s, used as %s", v.ID, v.Op, v.Type, t)
	}
	switch v.Op {
	case ssa.OpConst:
		if t == tRef && v.Aux != 0 {
			b.fail("type conflict: the constant %d is used as a reference", v.Aux)
		}
		if t == tBool {
			b.fail("type conflict: a constant used as a condition")
		}
		e := b.insertAfter(v, ssa.OpConst, t, v.Aux)
		eq[eqKey{v, t}] = e
		return e
	case ssa.OpCopy:
		e := b.insertAfter(v, ssa.OpCopy, t, 0)
		eq[eqKey{v, t}] = e
		e.Args = []*ssa.Value{b.equivalent(v.Args[0], t, eq)}
		return e
	case ssa.OpPhi:
		e := v.Block.NewPhi(t)
		b.flex[e] = true
		eq[eqKey{v, t}] = e
		e.Args = make([]*ssa.Value, len(v.Args))
		for i, a := range v.Args {
			if a.Op == ssa.OpUndef {
				if a == b.hiHalf {
					b.fail("a φ merges the upper half of a wide register pair with another value")
				}
				e.Args[i] = a
				continue
			}
			e.Args[i] = b.equivalent(a, t, eq)
		}
		return e
	}
	b.fail("type conflict: v%d (%s) is %s, used as %s", v.ID, v.Op, v.Type, t)
	return nil
}

// insertAfter adds a value right after v in v's block.
func (b *builder) insertAfter(v *ssa.Value, op ssa.Op, t ssa.Type, aux int64) *ssa.Value {
	blk := v.Block
	e := blk.NewValue(op, t, aux) // appended; move it
	e.PC = v.PC
	b.flex[e] = true
	b.wide[e] = b.wide[v]
	vals := blk.Values[:len(blk.Values)-1]
	for i, w := range vals {
		if w == v {
			blk.Values = append(vals[:i+1], append([]*ssa.Value{e}, vals[i+1:]...)...)
			break
		}
	}
	return e
}

// deleteDeadPhis deletes φs and moves that nothing but other dead φs and
// moves use: their merged registers may hold different types on
// different paths, which is legal when never read.
func (b *builder) deleteDeadPhis() {
	live := map[*ssa.Value]bool{}
	var work []*ssa.Value
	mark := func(v *ssa.Value) {
		if !live[v] {
			live[v] = true
			work = append(work, v)
		}
	}
	soft := func(v *ssa.Value) bool { return v.Op == ssa.OpPhi || v.Op == ssa.OpCopy && b.flex[v] }
	for _, blk := range b.f.Blocks {
		for _, v := range blk.Values {
			if !soft(v) {
				mark(v)
			}
		}
		if blk.Control != nil {
			mark(blk.Control)
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range v.Args {
			mark(a)
		}
	}
	for _, blk := range b.f.Blocks {
		vals := blk.Values[:0]
		for _, v := range blk.Values {
			if live[v] || !soft(v) {
				vals = append(vals, v)
			}
		}
		blk.Values = vals
	}
}
