package ssa

// emptyBlocks deletes the blocks that hold no values and only jump on
// (the front end's landing blocks after a throwing instruction, blocks a
// folded branch left empty): each predecessor's edge goes straight to the
// successor, taking the block's place in the successor's predecessor
// list so the φ arguments stay with their edges.
func emptyBlocks(f *Func) {
	entry := f.Entry()
	removed := false
	for _, b := range f.Blocks {
		if b == entry || b.Kind != BlockPlain || len(b.Values) > 0 || len(b.Preds) != 1 ||
			b.NCatch > 0 || b.Succs[0] == b {
			continue
		}
		p, s := b.Preds[0], b.Succs[0]
		// A second edge p → s would leave its φ arguments paired with
		// the edges by order only, which the redirection does not keep.
		if hasSucc(p, s) {
			continue
		}
		for i, x := range p.Succs {
			if x == b {
				p.Succs[i] = s
			}
		}
		for j, x := range s.Preds {
			if x == b {
				s.Preds[j] = p
			}
		}
		b.Preds, b.Succs = nil, nil
		removed = true
	}
	if !removed {
		return
	}
	blocks := f.Blocks[:0]
	for _, b := range f.Blocks {
		if b == entry || len(b.Preds) > 0 || len(b.Succs) > 0 {
			blocks = append(blocks, b)
		}
	}
	clear(f.Blocks[len(blocks):])
	f.Blocks = blocks
	f.Invalidate()
}

func hasSucc(p, s *Block) bool {
	for _, x := range p.Succs {
		if x == s {
			return true
		}
	}
	return false
}
