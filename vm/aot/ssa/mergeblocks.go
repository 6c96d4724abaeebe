package ssa

// mergeBlocks joins a block to the one before it when that one jumps
// only to it and it has no other predecessor: straight-line code in one
// block. The front end ends a block at every branch target and ifconv
// leaves a chain of blocks where it removed branches; in closure-threaded
// code each block boundary costs a dispatch, and the lowering runs a
// loop inside its header's closure only when the loop's body is one
// block.
//
// The merged block keeps the first block's identity. Neither block may
// have exception edges: a block with them ends at its throwing
// instruction, and the handlers are recorded by block, as is the pc of
// a Throw block's throw, so a Throw block is not merged either.
func mergeBlocks(f *Func) {
	entry := f.Entry()
	merged := false
	for _, b := range f.Blocks {
		for b.Kind == BlockPlain && b.NCatch == 0 && len(b.Succs) == 1 {
			s := b.Succs[0]
			if s == b || s == entry || len(s.Preds) != 1 || s.Kind == BlockThrow || s.NCatch > 0 {
				break
			}
			// the successor's φs have one argument: b's
			for _, v := range s.Values {
				if v.Op == OpPhi {
					replaceUses(f, v, v.Args[0])
				}
			}
			vals := s.Values[:0:0]
			for _, v := range s.Values {
				if v.Op != OpPhi {
					vals = append(vals, v)
				}
			}
			for _, v := range vals {
				v.Block = b
			}
			b.Values = append(b.Values, vals...)
			b.Kind, b.Control, b.Keys, b.NCatch = s.Kind, s.Control, s.Keys, s.NCatch
			b.Succs = s.Succs
			for _, x := range s.Succs {
				for i, p := range x.Preds {
					if p == s {
						x.Preds[i] = b
					}
				}
			}
			s.Values, s.Preds, s.Succs = nil, nil, nil
			merged = true
		}
	}
	if merged {
		f.Invalidate()
		removeUnreachable(f)
	}
}

// replaceUses makes every use of v (arguments and control values) a use
// of w.
func replaceUses(f *Func, v, w *Value) {
	for _, b := range f.Blocks {
		for _, u := range b.Values {
			for i, a := range u.Args {
				if a == v {
					u.Args[i] = w
				}
			}
		}
		if b.Control == v {
			b.Control = w
		}
	}
}
