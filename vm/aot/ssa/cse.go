package ssa

// cse deletes a value that computes what a value dominating it already
// computed (same op, type, aux and arguments; either order for
// commutative ops) and makes its uses use the earlier one: common
// subexpression elimination over the dominator tree. Only values without
// effects qualify; the duplicates the front end makes for every Dalvik
// instruction (constants, array-length before each array access) are the
// main catch, and they make other passes see that two lengths or indices
// are one value.
func cse(f *Func) {
	type key struct {
		op     Op
		t      Type
		aux    int64
		a0, a1 int
		n      int
	}
	keyOf := func(v *Value) (key, bool) {
		switch v.Op {
		case OpPhi, OpParam, OpThis, OpUndef, OpException, OpCopy:
			return key{}, false
		}
		if v.Op.HasEffect() || len(v.Args) > 2 {
			return key{}, false
		}
		k := key{op: v.Op, t: v.Type, aux: v.Aux, a0: -1, a1: -1, n: len(v.Args)}
		if len(v.Args) > 0 {
			k.a0 = v.Args[0].ID
		}
		if len(v.Args) > 1 {
			k.a1 = v.Args[1].ID
			if opTable[v.Op].flags&fCommutative != 0 && k.a1 < k.a0 {
				k.a0, k.a1 = k.a1, k.a0
			}
		}
		return k, true
	}
	avail := map[key]*Value{}
	repl := map[*Value]*Value{}
	kids := f.DomChildren()
	var walk func(b *Block)
	walk = func(b *Block) {
		var added []key
		vals := b.Values[:0]
		for _, v := range b.Values {
			for i, a := range v.Args {
				if r := repl[a]; r != nil {
					v.Args[i] = r
				}
			}
			if k, ok := keyOf(v); ok {
				if w := avail[k]; w != nil {
					repl[v] = w
					continue
				}
				avail[k] = v
				added = append(added, k)
			}
			vals = append(vals, v)
		}
		clear(b.Values[len(vals):])
		b.Values = vals
		for _, c := range kids[b.ID] {
			walk(c)
		}
		for _, k := range added {
			delete(avail, k)
		}
	}
	walk(f.Entry())
	if len(repl) == 0 {
		return
	}
	// φ arguments and controls may come from blocks walked later
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for i, a := range v.Args {
				if r := repl[a]; r != nil {
					v.Args[i] = r
				}
			}
		}
		if r := repl[b.Control]; b.Control != nil && r != nil {
			b.Control = r
		}
	}
}
