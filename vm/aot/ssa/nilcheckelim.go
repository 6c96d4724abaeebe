package ssa

// nilCheckElim deletes a NullCheck whose value is proven non-null: a
// fresh allocation, a constant string or class, the receiver, a caught
// exception, a φ of such values; or a value already checked by a
// NullCheck that dominates this one (in a block without exception edges,
// or earlier in the same block), or compared with null on a branch whose
// non-null edge dominates it.
func nilCheckElim(f *Func) {
	nn := nonNullValues(f)
	nonNull := func(v *Value) bool { return nn[v.ID] }

	checked := map[*Value]bool{}
	kids := f.DomChildren()
	var walk func(b *Block)
	walk = func(b *Block) {
		var added []*Value
		add := func(v *Value) {
			if !checked[v] {
				checked[v] = true
				added = append(added, v)
			}
		}
		if x := nonNullOnEntry(b); x != nil {
			add(x)
		}
		vals := b.Values[:0]
		for _, v := range b.Values {
			if v.Op == OpNullCheck {
				x := v.Args[0]
				if checked[x] || nonNull(x) {
					continue
				}
				add(x)
			}
			vals = append(vals, v)
		}
		clear(b.Values[len(vals):])
		b.Values = vals
		if b.NCatch > 0 {
			// A check here may have thrown to a handler from which
			// control reaches the blocks b dominates: its proof holds
			// only in b itself.
			for _, v := range b.Values {
				if v.Op == OpNullCheck {
					delete(checked, v.Args[0])
				}
			}
		}
		for _, c := range kids[b.ID] {
			walk(c)
		}
		for _, v := range added {
			delete(checked, v)
		}
	}
	walk(f.Entry())
}

// nonNullOnEntry returns the value that is non-null whenever b runs
// because b's only predecessor branched to it on a comparison with null.
func nonNullOnEntry(b *Block) *Value {
	if len(b.Preds) != 1 {
		return nil
	}
	p := b.Preds[0]
	if p.Kind != BlockIf || p.Succs[0] == p.Succs[1] {
		return nil
	}
	c := p.Control
	if c.Op != OpEq && c.Op != OpNe {
		return nil
	}
	x, y := c.Args[0], c.Args[1]
	if x.Type != TypeRef {
		return nil
	}
	if isNull(x) {
		x, y = y, x
	}
	if !isNull(y) {
		return nil
	}
	if (c.Op == OpNe && p.Succs[0] == b) || (c.Op == OpEq && p.Succs[1] == b) {
		return x
	}
	return nil
}

func isNull(v *Value) bool { return v.Op == OpConst && v.Type == TypeRef && v.Aux == 0 }

// nonNullValues says, per value ID, whether the value is never null. φs
// start out assumed non-null and lose it when an argument may be null,
// until nothing changes: a cycle of φs merges only the values that enter
// it from outside, so it is non-null when they all are.
func nonNullValues(f *Func) []bool {
	nn := make([]bool, f.NumValues())
	var phis []*Value
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			switch v.Op {
			case OpThis, OpNewInstance, OpNewArray, OpFilledNewArray, OpConstString, OpConstClass,
				OpConstMethodHandle, OpConstMethodType, OpException:
				nn[v.ID] = true
			case OpPhi, OpCopy:
				if v.Type == TypeRef {
					nn[v.ID] = true
					phis = append(phis, v)
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, v := range phis {
			if !nn[v.ID] {
				continue
			}
			for _, a := range v.Args {
				if !nn[a.ID] {
					nn[v.ID] = false
					changed = true
					break
				}
			}
		}
	}
	return nn
}
