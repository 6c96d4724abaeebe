package ssa

// deadCode deletes the blocks the entry cannot reach (and their edges
// into reachable blocks, with the matching φ arguments), then every value
// that has no effect and is not used, directly or through other values,
// by a value with an effect or a block's control.
func deadCode(f *Func) {
	removeUnreachable(f)
	removeDeadValues(f)
}

// removeUnreachable deletes the blocks the entry cannot reach, and their
// edges into reachable blocks with the matching φ arguments.
func removeUnreachable(f *Func) {
	reach := make([]bool, f.NumBlocks())
	for _, b := range f.RPO() {
		reach[b.ID] = true
	}
	blocks := f.Blocks[:0]
	for _, b := range f.Blocks {
		if !reach[b.ID] {
			continue
		}
		for j := 0; j < len(b.Preds); {
			if !reach[b.Preds[j].ID] {
				b.removePred(j)
				continue
			}
			j++
		}
		blocks = append(blocks, b)
	}
	clear(f.Blocks[len(blocks):])
	f.Blocks = blocks
	f.Invalidate()
}

// removeDeadValues deletes the values without effect that nothing live
// uses.
func removeDeadValues(f *Func) {
	live := make([]bool, f.NumValues())
	var work []*Value
	mark := func(v *Value) {
		if !live[v.ID] {
			live[v.ID] = true
			work = append(work, v)
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op.HasEffect() {
				mark(v)
			}
		}
		if b.Control != nil {
			mark(b.Control)
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range v.Args {
			mark(a)
		}
	}
	for _, b := range f.Blocks {
		vals := b.Values[:0]
		for _, v := range b.Values {
			if live[v.ID] || v.Op == OpThis || v.Op == OpParam {
				vals = append(vals, v)
			}
		}
		clear(b.Values[len(vals):])
		b.Values = vals
	}
}
