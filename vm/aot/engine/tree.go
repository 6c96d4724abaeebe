package engine

import "github.com/droidprof/droidprof/vm/aot/ssa"

// blockPlan is how a block's values map to instructions: the fused
// array accesses and which values are evaluated in their user's
// expression tree (expr.go).
type blockPlan struct {
	// group[k] is the index of the access that ends the fused access
	// vals[k] belongs to (with the barriers right before it), -1 for
	// none; ok[k] says whether that access
	// can take part in a tree (no instruction reads its ArrayLength's
	// slot: every use is a fused access's check, which reads the array).
	group []int
	ok    []bool
	// cmp is the block's If comparison when its operands may be trees.
	cmp *ssa.Value
}

// inTree reports whether the fused access that starts at vals[k] is done
// by an expression tree: it is a node of one, or has one for an operand.
func (l *lowerer) inTree(vals []*ssa.Value, p *blockPlan, k int) bool {
	end := p.group[k]
	return end >= 0 && p.ok[k] && (l.inl[vals[end].ID] || l.hasTreeArg(vals[end]))
}

// plan sets l.inl for the values of b that become tree nodes (and l.bar
// for the accesses whose barriers their trees do): a numeric
// value with a tree form, used once, by a value of the same block that
// can take it as a tree operand (or by the block's If comparison). An
// array load (the only node that may throw) joins a tree only when the
// tree evaluates its loads in block order and no value with an effect
// outside the tree lies between the first load and the tree's root.
func (l *lowerer) plan(b *ssa.Block) *blockPlan {
	vals := b.Values
	p := &blockPlan{group: make([]int, len(vals)), ok: make([]bool, len(vals))}
	pos := map[*ssa.Value]int{}
	uses := map[*ssa.Value]int{}
	for k, v := range vals {
		pos[v] = k
		p.group[k] = -1
		uses[v] = l.uses[v.ID]
	}
	for k := 0; k < len(vals); k++ {
		n, ln := accessGroup(vals, k)
		if n == 0 {
			continue
		}
		end := k + n - 1
		// the barriers right before the checks are the group's too:
		// a tree that evaluates the access marks its object first
		// (markBar), so that a barrier does not keep its access out
		// of the tree. One of each kind: the bits cannot count two.
		start, bits := k, uint8(0)
		for start > 0 && vals[start-1].Op == ssa.OpBarrier && vals[start-1].Args[0] == vals[end].Args[0] && bits&barBits(vals[start-1]) == 0 {
			start--
			bits |= barBits(vals[start])
		}
		l.bar[vals[end].ID] = bits
		for j := start; j <= end; j++ {
			p.group[j] = end
			p.ok[j] = ln == nil || l.uses[ln.ID] == l.checkUses[ln.ID]
		}
		// the group's BoundsCheck reads the index the access reads
		uses[vals[end-1].Args[0]]--
		k = end
	}
	// the single user in b of each value, and the argument it is
	user := map[*ssa.Value]*ssa.Value{}
	argi := map[*ssa.Value]int{}
	for k, u := range vals {
		if u.Op == ssa.OpPhi || p.group[k] >= 0 && p.group[k] != k {
			continue
		}
		for i, a := range u.Args {
			user[a], argi[a] = u, i
		}
	}
	if c := b.Control; b.Kind == ssa.BlockIf && c != nil && len(c.Args) == 2 && c.Args[0].Type == ssa.TypeInt && c.Args[1].Type == ssa.TypeInt {
		switch c.Op {
		case ssa.OpEq, ssa.OpNe, ssa.OpLt, ssa.OpGe, ssa.OpGt, ssa.OpLe:
			if l.uses[c.ID] == 1 {
				p.cmp = c
				for i, a := range c.Args {
					user[a], argi[a] = c, i
				}
			}
		}
	}
	for k, v := range vals {
		if !treeNode(v) || uses[v] != 1 || p.group[k] >= 0 && (p.group[k] != k || !p.ok[k]) {
			continue
		}
		u := user[v]
		switch {
		case u == nil:
			continue
		case u == p.cmp:
		case !takesTree(u, argi[v]):
			continue
		}
		if uk, in := pos[u]; in && p.group[uk] >= 0 && !p.ok[uk] {
			continue
		}
		l.inl[v.ID] = true
	}
	// a Select evaluates only the operand it chooses: no load (which
	// may throw) in either
	for _, v := range vals {
		if v.Op == ssa.OpSelect {
			for _, a := range v.Args[1:] {
				var loads []*ssa.Value
				l.loadsOf(a, &loads)
				for _, ld := range loads {
					l.inl[ld.ID] = false
				}
			}
		}
	}
	// drop the loads of trees that would evaluate them out of order
	for changed := true; changed; {
		changed = false
		check := func(root *ssa.Value, at int) {
			var loads []*ssa.Value
			for _, a := range root.Args {
				l.loadsOf(a, &loads)
			}
			if len(loads) == 0 || l.inOrder(vals, p, pos, loads, root, at) {
				return
			}
			for _, ld := range loads {
				l.inl[ld.ID] = false
			}
			changed = true
		}
		for k, v := range vals {
			if !l.inl[v.ID] && (p.group[k] < 0 || p.group[k] == k) {
				check(v, k)
			}
		}
		if p.cmp != nil {
			check(p.cmp, len(vals))
		}
	}
	return p
}

// loadsOf appends the array loads of the tree of v in evaluation order.
func (l *lowerer) loadsOf(v *ssa.Value, out *[]*ssa.Value) {
	if !l.inl[v.ID] {
		return
	}
	for _, a := range v.Args {
		l.loadsOf(a, out)
	}
	if v.Op == ssa.OpAGet {
		*out = append(*out, v)
	}
}

// inOrder reports whether a root at index at may evaluate loads (in
// tree order): they come in block order, and every value with an effect
// between the first one's group and the root belongs to one of their
// groups or to the root's.
func (l *lowerer) inOrder(vals []*ssa.Value, p *blockPlan, pos map[*ssa.Value]int, loads []*ssa.Value, root *ssa.Value, at int) bool {
	start := func(k int) int {
		for k > 0 && p.group[k-1] == p.group[k] && p.group[k] >= 0 {
			k--
		}
		return k
	}
	covered := map[int]bool{}
	last := -1
	for _, ld := range loads {
		k := pos[ld]
		s := start(k)
		if s <= last {
			return false
		}
		last = k
		for j := s; j <= k; j++ {
			covered[j] = true
		}
	}
	if at < len(vals) && p.group[at] >= 0 {
		for j := start(at); j <= at; j++ {
			covered[j] = true
		}
	}
	for j := start(pos[loads[0]]); j < at; j++ {
		if !covered[j] && vals[j].Op.HasEffect() {
			return false
		}
	}
	return true
}

// hasTreeArg reports whether some argument of v is a tree.
func (l *lowerer) hasTreeArg(v *ssa.Value) bool {
	for _, a := range v.Args {
		if l.inl[a.ID] {
			return true
		}
	}
	return false
}

// treeValue lowers a root value with tree operands.
func (l *lowerer) treeValue(v *ssa.Value) instr {
	if v.Op == ssa.OpAPut {
		return l.treeStore(v)
	}
	return l.treeRoot(v)
}

// treeAt gives the values evaluated in a tree (at -2) the instruction
// of their root, -1 when the root is the terminator.
func (l *lowerer) treeAt(vals []*ssa.Value, p *blockPlan, at []int) {
	pos := map[*ssa.Value]int{}
	for k, v := range vals {
		pos[v] = k
	}
	var mark func(v *ssa.Value, in int)
	mark = func(v *ssa.Value, in int) {
		k, ok := pos[v]
		if !ok || !l.inl[v.ID] && at[k] != -2 {
			return
		}
		at[k] = in
		if end := p.group[k]; end == k {
			for j := k - 1; j >= 0 && p.group[j] == end; j-- {
				at[j] = in
			}
		}
		for _, a := range v.Args {
			if l.inl[a.ID] {
				mark(a, in)
			}
		}
	}
	for k, v := range vals {
		if at[k] >= 0 {
			if end := p.group[k]; end == k {
				for j := k - 1; j >= 0 && p.group[j] == end; j-- {
					if at[j] == -2 {
						at[j] = at[k]
					}
				}
			}
			for _, a := range v.Args {
				if l.inl[a.ID] {
					mark(a, at[k])
				}
			}
		}
	}
	if p.cmp != nil {
		for _, a := range p.cmp.Args {
			if l.inl[a.ID] {
				mark(a, -1)
			}
		}
	}
	for k := range at {
		if at[k] == -2 {
			at[k] = -1
		}
	}
}
