package ssa

// boundsCheckElim deletes a BoundsCheck(i, n) when i is proven to lie in
// [0, n):
//   - i is a constant and n the length of an array allocated with a
//     constant length (new-array, filled-new-array) greater than i;
//   - a BoundsCheck of the same index against the same array's length
//     dominates it;
//   - i is non-negative and the check is dominated by the edge of a
//     branch taken only when i < n (if-ge i, n falling through, as
//     compilers lay out counting loops), where n is the array's length
//     or the length it was allocated with.
//
// An index is non-negative when it is a non-negative constant, an array
// length, a φ of non-negative values, or x+1 where x is non-negative and
// below some int where the addition happens (so it cannot wrap):
// that covers the induction variable of `for (i = 0; i < a.length; i++)`.
func boundsCheckElim(f *Func) {
	// Facts hold in a dominator subtree: "x < n" (from edges and earlier
	// checks). The first walk records which increments
	// x+1 happen under such a fact; the second uses them to prove φs
	// non-negative and deletes checks.
	safeInc := map[*Value]bool{}
	walkFacts(f, func(v *Value, below func(x, n *Value) bool) bool {
		if v.Op == OpAdd && v.Type == TypeInt {
			if x, c := addConst(v); x != nil && c >= 0 && c <= 1 && belowAnyLength(x, below) {
				safeInc[v] = true
			}
		}
		return false
	})
	nonNeg := nonNegValues(f, safeInc)
	walkFacts(f, func(v *Value, below func(x, n *Value) bool) bool {
		if v.Op != OpBoundsCheck {
			return false
		}
		i, n := v.Args[0], v.Args[1]
		if c, ok := i.IsConst(); ok {
			if m, ok := knownLength(n); ok && c >= 0 && c < m {
				return true
			}
		}
		return nonNeg[i.ID] && below(i, n)
	})
}

// addConst splits x+c (either order) into x and the constant c.
func addConst(v *Value) (*Value, int64) {
	x, y := v.Args[0], v.Args[1]
	if c, ok := y.IsConst(); ok {
		return x, int64(int32(c))
	}
	if c, ok := x.IsConst(); ok {
		return y, int64(int32(c))
	}
	return nil, 0
}

// belowAnyLength reports whether x < some int is a fact now.
func belowAnyLength(x *Value, below func(x, n *Value) bool) bool { return below(x, nil) }

// knownLength returns the length of the array whose ArrayLength n is,
// when the array was allocated with a constant length.
func knownLength(n *Value) (int64, bool) {
	if n.Op != OpArrayLength {
		return 0, false
	}
	a := n.Args[0]
	switch a.Op {
	case OpNewArray:
		if c, ok := a.Args[0].IsConst(); ok {
			return int64(int32(c)), true
		}
	case OpFilledNewArray:
		return int64(len(a.Args)), true
	}
	return 0, false
}

// sameLength reports whether n and m are the same int: the same value,
// array-length of the same array, or the length an array was allocated
// with and its array-length.
func sameLength(n, m *Value) bool {
	n, m = canonLength(n), canonLength(m)
	if n == m {
		return true
	}
	return n.Op == OpArrayLength && m.Op == OpArrayLength && n.Args[0] == m.Args[0]
}

// canonLength returns the length an array was allocated with for its
// array-length, else n.
func canonLength(n *Value) *Value {
	if n.Op == OpArrayLength && n.Args[0].Op == OpNewArray {
		return n.Args[0].Args[0]
	}
	return n
}

// lessFact is x < n; full when an earlier BoundsCheck also gave 0 <= x.
type lessFact struct {
	x, n *Value
	full bool
}

// walkFacts walks the dominator tree keeping the facts "x < n" that hold
// at each value, and calls visit for each value;
// visit returns true to delete it. A BoundsCheck adds its fact, and is
// deleted (whatever visit says) when an earlier one checked the same.
func walkFacts(f *Func, visit func(v *Value, below func(x, n *Value) bool) bool) {
	var facts []lessFact
	below := func(x, n *Value) bool {
		for _, fa := range facts {
			if fa.x == x && (n == nil || sameLength(fa.n, n)) {
				return true
			}
		}
		return false
	}
	checked := func(x, n *Value) bool {
		for _, fa := range facts {
			if fa.full && fa.x == x && sameLength(fa.n, n) {
				return true
			}
		}
		return false
	}
	kids := f.DomChildren()
	var walk func(b *Block)
	walk = func(b *Block) {
		mark := len(facts)
		if fa, ok := lessOnEntry(b); ok {
			facts = append(facts, fa)
		}
		entry := len(facts)
		vals := b.Values[:0]
		for _, v := range b.Values {
			drop := v.Op == OpBoundsCheck && checked(v.Args[0], v.Args[1])
			drop = visit(v, below) || drop
			if v.Op == OpBoundsCheck {
				// after the check (or its proof) the index is in range
				facts = append(facts, lessFact{v.Args[0], v.Args[1], true})
			}
			if !drop {
				vals = append(vals, v)
			}
		}
		clear(b.Values[len(vals):])
		b.Values = vals
		if b.NCatch > 0 {
			// a check here may have thrown to a handler from which
			// control reaches the blocks b dominates
			facts = facts[:entry]
		}
		for _, c := range kids[b.ID] {
			walk(c)
		}
		facts = facts[:mark]
	}
	walk(f.Entry())
}

// lessOnEntry returns the fact x < n that holds
// whenever b runs because its only predecessor branched to it on that
// comparison.
func lessOnEntry(b *Block) (lessFact, bool) {
	if len(b.Preds) != 1 {
		return lessFact{}, false
	}
	p := b.Preds[0]
	if p.Kind != BlockIf || p.Succs[0] == p.Succs[1] {
		return lessFact{}, false
	}
	c := p.Control
	if len(c.Args) != 2 || c.Args[0].Type != TypeInt {
		return lessFact{}, false
	}
	taken := p.Succs[0] == b
	x, y := c.Args[0], c.Args[1]
	switch {
	case c.Op == OpLt && taken, c.Op == OpGe && !taken:
		// x < y
	case c.Op == OpGt && taken, c.Op == OpLe && !taken:
		x, y = y, x // y < x
	default:
		return lessFact{}, false
	}
	return lessFact{x, y, false}, true
}

// nonNegValues says, per value ID, whether an int value is never
// negative, assuming φs are until an argument may be negative.
func nonNegValues(f *Func, safeInc map[*Value]bool) []bool {
	nn := make([]bool, f.NumValues())
	var derived []*Value
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Type != TypeInt {
				continue
			}
			switch v.Op {
			case OpConst:
				nn[v.ID] = int32(v.Aux) >= 0
			case OpArrayLength:
				nn[v.ID] = true
			case OpPhi, OpCopy:
				nn[v.ID] = true
				derived = append(derived, v)
			case OpAdd:
				if safeInc[v] {
					nn[v.ID] = true
					derived = append(derived, v)
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, v := range derived {
			if !nn[v.ID] {
				continue
			}
			ok := true
			if v.Op == OpAdd {
				x, _ := addConst(v)
				ok = nn[x.ID]
			} else {
				for _, a := range v.Args {
					ok = ok && nn[a.ID]
				}
			}
			if !ok {
				nn[v.ID] = false
				changed = true
			}
		}
	}
	return nn
}
