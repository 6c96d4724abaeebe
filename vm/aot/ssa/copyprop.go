package ssa

// copyProp makes the uses of a copy, and of a trivial φ (one whose
// arguments are a single value and the φ itself), use the source, then
// deletes the copies and trivial φs, which are then unused.
func copyProp(f *Func) {
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				for i, a := range v.Args {
					if s := copySource(a); s != a {
						v.Args[i] = s
						changed = true
					}
				}
				if v.Op == OpPhi {
					if s := trivialPhi(v); s != nil {
						v.Op, v.Args = OpCopy, []*Value{s}
						changed = true
					}
				}
			}
			if c := b.Control; c != nil {
				if s := copySource(c); s != c {
					b.Control = s
					changed = true
				}
			}
		}
	}
	for _, b := range f.Blocks {
		vals := b.Values[:0]
		for _, v := range b.Values {
			if v.Op != OpCopy {
				vals = append(vals, v)
			}
		}
		clear(b.Values[len(vals):])
		b.Values = vals
	}
}

func copySource(v *Value) *Value {
	for v.Op == OpCopy {
		v = v.Args[0]
	}
	return v
}

// trivialPhi returns the single value other than itself that φ v merges,
// or nil.
func trivialPhi(v *Value) *Value {
	var same *Value
	for _, a := range v.Args {
		a = copySource(a)
		if a == v || a == same {
			continue
		}
		if same != nil {
			return nil
		}
		same = a
	}
	return same
}
