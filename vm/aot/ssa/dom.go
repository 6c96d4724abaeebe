package ssa

// The dominator tree, by Cooper, Harvey and Kennedy's iterative algorithm
// ("A Simple, Fast Dominance Algorithm", 2001): simple, and on the small
// CFGs of methods as fast as Lengauer–Tarjan.

// RPO returns the blocks reachable from the entry in reverse postorder
// (exception edges included).
func (f *Func) RPO() []*Block {
	if f.rpo != nil {
		return f.rpo
	}
	seen := make([]bool, f.NumBlocks())
	post := make([]*Block, 0, len(f.Blocks))
	// An explicit stack: methods can have thousands of blocks.
	type frame struct {
		b *Block
		i int
	}
	stack := []frame{{f.Entry(), 0}}
	seen[f.Entry().ID] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(top.b.Succs) {
			c := top.b.Succs[top.i]
			top.i++
			if !seen[c.ID] {
				seen[c.ID] = true
				stack = append(stack, frame{c, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	f.rpo = post
	return post
}

// Idom returns the immediate dominator of every block, indexed by block
// ID: nil for the entry and for unreachable blocks.
func (f *Func) Idom() []*Block {
	if f.idom != nil {
		return f.idom
	}
	rpo := f.RPO()
	order := make([]int, f.NumBlocks()) // position in RPO + 1; 0 = unreachable
	for i, b := range rpo {
		order[b.ID] = i + 1
	}
	idom := make([]*Block, f.NumBlocks())
	entry := f.Entry()
	idom[entry.ID] = entry
	intersect := func(a, b *Block) *Block {
		for a != b {
			for order[a.ID] > order[b.ID] {
				a = idom[a.ID]
			}
			for order[b.ID] > order[a.ID] {
				b = idom[b.ID]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, b := range rpo[1:] {
			var d *Block
			for _, p := range b.Preds {
				if order[p.ID] == 0 || idom[p.ID] == nil {
					continue
				}
				if d == nil {
					d = p
				} else {
					d = intersect(p, d)
				}
			}
			if idom[b.ID] != d {
				idom[b.ID] = d
				changed = true
			}
		}
	}
	idom[entry.ID] = nil
	f.idom = idom
	return idom
}

// Dominates reports whether a dominates b (every block dominates itself).
func (f *Func) Dominates(a, b *Block) bool {
	idom := f.Idom()
	for b != nil {
		if a == b {
			return true
		}
		b = idom[b.ID]
	}
	return false
}

// DomChildren returns the dominator tree as child lists indexed by block
// ID, children in RPO.
func (f *Func) DomChildren() [][]*Block {
	idom := f.Idom()
	kids := make([][]*Block, f.NumBlocks())
	for _, b := range f.RPO()[1:] {
		if d := idom[b.ID]; d != nil {
			kids[d.ID] = append(kids[d.ID], b)
		}
	}
	return kids
}
