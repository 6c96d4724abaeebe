package ssa

// ifConv converts branches that only choose a value into Selects
// (if-conversion). A block B ending in an If on a comparison of two ints
// whose two ways meet again at a join J, each way either straight to J
// or through an arm that does nothing but compute a few numeric values
// without effect, becomes a plain block falling through to J: the arms'
// values are computed in B on both ways (speculated), and each φ of J
// takes, for B, a Select of what the two ways gave it.
//
// Why: in closure-threaded code a block costs about what the
// interpreter's dispatch of one instruction costs, and branchy code
// (CaffeineMark's logic test: a block per `&&`, `||`, `?:` and boolean
// of constants) is mostly blocks of one or two values. A Select is one
// expression-tree node, and the lowering evaluates an arm's values that
// only the Select uses inside it, on the chosen way only; what matters
// most is that a loop body becomes one block, which the lowering runs
// inside the loop header's closure.
//
// An arm with values must have B as its only predecessor (its values
// then move to B); an empty arm may have other predecessors too, and
// keeps them (B's edge to it goes). Speculated values have no effect and
// cannot fail (no loads, no checks, no integer division by anything but
// a non-zero constant), and at most maxSpeculate of them per arm are
// not constants, so that the work done on the way not taken (where the
// lowering cannot leave it out) stays small. φs of references or conditions stay
// branches (the lowering selects only numbers). The pass repeats until
// nothing changes, so that nested selects (`(a && b) || c`) convert from
// the inside out.
//
// Short-circuit conditions (`a || b` as a branch) are two Ifs where the
// second, reached only from the first, shares a target X with it:
// combineIf makes them one If on the combined condition, computed as
// int Selects of 0 and 1 and compared with 0. Then X, which both Ifs
// reached, is reached from one, and may become an arm itself.
func ifConv(f *Func) {
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			if len(b.Preds) == 0 && b != f.Entry() {
				continue
			}
			if convertIf(f, b) || combineIf(f, b) {
				changed = true
			}
		}
		if changed {
			removeUnreachable(f)
			// an arm left as a chain of blocks is one block again
			mergeBlocks(f)
		}
	}
}

// maxSpeculate is the most non-constant values an arm may have.
const maxSpeculate = 8

// convertIf converts b's If when it only chooses values; it reports
// whether it did.
func convertIf(f *Func, b *Block) bool {
	if b.Kind != BlockIf || b.NCatch != 0 || !selectable(b.Control) {
		return false
	}
	t, e := b.Succs[0], b.Succs[1]
	if t == e || t == b || e == b {
		return false
	}
	// the join: a successor, or the common successor of two arms
	var j *Block
	switch {
	case isArm(t, b) && t.Succs[0] == e:
		j = e
	case isArm(e, b) && e.Succs[0] == t:
		j = t
	case isArm(t, b) && isArm(e, b) && t.Succs[0] == e.Succs[0]:
		j = t.Succs[0]
	default:
		return false
	}
	if j == b || j == f.Entry() {
		return false
	}
	// predIndex is the index in j.Preds of the way through s (an arm,
	// or b when s is j)
	predIndex := func(s *Block) int {
		p := s
		if s == j {
			p = b
		}
		for i, x := range j.Preds {
			if x == p {
				return i
			}
		}
		return -1
	}
	it, ie := predIndex(t), predIndex(e)
	if it < 0 || ie < 0 || count(j.Preds, b) > 1 {
		return false
	}
	for _, v := range j.Values {
		if v.Op == OpPhi && v.Args[it] != v.Args[ie] && !selectType(v.Type) {
			return false
		}
	}
	// speculate the arms' values in b, in order, before nothing: b's
	// values end with its condition's users, and the arms' values use
	// only b's and their own
	for _, s := range []*Block{t, e} {
		if s == j {
			continue
		}
		for _, v := range s.Values {
			v.Block = b
			b.Values = append(b.Values, v)
		}
		s.Values = nil
	}
	c := b.Control
	sel := map[*Value]*Value{}
	for _, v := range j.Values {
		if v.Op != OpPhi {
			continue
		}
		x, y := v.Args[it], v.Args[ie]
		if x == y {
			sel[v] = x
			continue
		}
		if q := sameBool(c, x, y); q != nil {
			sel[v] = q
			continue
		}
		sel[v] = b.NewValue(OpSelect, v.Type, 0, c, x, y)
	}
	// b's ways to j go: an arm only b reaches goes with its edge to j;
	// an empty arm others reach loses b; b's own edge to j goes
	var drop []*Block // j's predecessors to remove, one entry each
	for _, s := range []*Block{t, e} {
		switch {
		case s == j:
			drop = append(drop, b)
		case len(s.Preds) == 1:
			drop = append(drop, s)
			s.Preds, s.Succs = nil, nil
		default:
			for i, p := range s.Preds {
				if p == b {
					s.removePred(i)
					break
				}
			}
		}
	}
	for _, p := range drop {
		for i, x := range j.Preds {
			if x == p {
				j.removePred(i)
				break
			}
		}
	}
	j.Preds = append(j.Preds, b)
	for _, v := range j.Values {
		if v.Op == OpPhi {
			v.Args = append(v.Args, sel[v])
		}
	}
	b.Kind, b.Control, b.Succs = BlockPlain, nil, []*Block{j}
	f.Invalidate()
	return true
}

// isArm reports whether s is a way from b that only computes values it
// may speculate, then jumps on: empty (other blocks may reach it too),
// or reached from b alone with few values without effect.
func isArm(s, b *Block) bool {
	if s.Kind != BlockPlain || s.NCatch != 0 || s.Succs[0] == s || s.Succs[0] == b {
		return false
	}
	if len(s.Values) == 0 {
		return true
	}
	if len(s.Preds) != 1 || s.Preds[0] != b {
		return false
	}
	n := 0
	for _, v := range s.Values {
		if !speculable(v) {
			return false
		}
		if v.Op != OpConst {
			n++
		}
	}
	return n <= maxSpeculate
}

// speculable reports whether v may run on a way where the program did
// not compute it: no effect, cannot fail or loop, a number or a
// condition.
func speculable(v *Value) bool {
	switch v.Op {
	case OpConst, OpAdd, OpSub, OpMul, OpAnd, OpOr, OpXor, OpShl, OpShr, OpUshr,
		OpNeg, OpNot, OpIntToByte, OpIntToChar, OpIntToShort, OpCmpl, OpCmpg:
		return selectType(v.Type)
	case OpConv:
		return selectType(v.Type) && selectType(v.Args[0].Type)
	case OpDiv, OpRem:
		if v.Type == TypeFloat || v.Type == TypeDouble {
			return true
		}
		// an integer division speculated past its DivZeroCheck would
		// fault; by a non-zero constant it needs none
		k, ok := v.Args[1].IsConst()
		return ok && k != 0 && selectType(v.Type)
	case OpSelect:
		return true
	case OpEq, OpNe, OpLt, OpGe, OpGt, OpLe:
		return selectable(v)
	}
	return false
}

// selectable reports whether c may be a Select's condition: a
// comparison of two ints (the lowering evaluates it inline).
func selectable(c *Value) bool {
	if c == nil || len(c.Args) != 2 || c.Args[0].Type != TypeInt || c.Args[1].Type != TypeInt {
		return false
	}
	switch c.Op {
	case OpEq, OpNe, OpLt, OpGe, OpGt, OpLe:
		return true
	}
	return false
}

// selectType reports whether a Select may choose values of type t.
func selectType(t Type) bool {
	return t == TypeInt || t == TypeLong || t == TypeFloat || t == TypeDouble
}

// combineIf merges into b's If the If of a successor y that only b
// reaches, that computes nothing but speculable values, and that shares
// a successor x with b: b goes to x when b's way to x is taken or y's
// is, and otherwise where y went. It reports whether it did.
func combineIf(f *Func, b *Block) bool {
	if b.Kind != BlockIf || b.NCatch != 0 || !selectable(b.Control) {
		return false
	}
	for yi := 0; yi < 2; yi++ {
		y, x := b.Succs[yi], b.Succs[1-yi]
		if y == x || y == b || x == b || y.Kind != BlockIf || y.NCatch != 0 || len(y.Preds) != 1 || !selectable(y.Control) {
			continue
		}
		var z *Block
		switch {
		case y.Succs[0] == x:
			z = y.Succs[1]
		case y.Succs[1] == x:
			z = y.Succs[0]
		default:
			continue
		}
		if z == x || z == b || z == y || count(z.Preds, b) > 0 || count(x.Preds, b) != 1 || count(x.Preds, y) != 1 {
			continue
		}
		n, ok := 0, true
		for _, v := range y.Values {
			if !speculable(v) {
				ok = false
			}
			if v.Op != OpConst {
				n++
			}
		}
		if !ok || n > maxSpeculate {
			continue
		}
		// x's φs must not tell b's way from y's: x keeps one of them
		ib, iy := -1, -1
		for i, p := range x.Preds {
			switch p {
			case b:
				ib = i
			case y:
				iy = i
			}
		}
		same := true
		for _, v := range x.Values {
			if v.Op == OpPhi && v.Args[ib] != v.Args[iy] {
				same = false
			}
		}
		if !same {
			continue
		}
		for _, v := range y.Values {
			v.Block = b
			b.Values = append(b.Values, v)
		}
		y.Values = nil
		zero, one := intConst(f, 0), intConst(f, 1)
		// y goes to x: 1; to z: 0
		toX := func(c *Block) (*Value, *Value) {
			if c.Succs[0] == x {
				return one, zero
			}
			return zero, one
		}
		yx, yz := toX(y)
		viaY := b.NewValue(OpSelect, TypeInt, 0, y.Control, yx, yz)
		var q *Value
		if yi == 1 {
			// b goes to x when its condition holds
			q = b.NewValue(OpSelect, TypeInt, 0, b.Control, one, viaY)
		} else {
			q = b.NewValue(OpSelect, TypeInt, 0, b.Control, viaY, one)
		}
		cc := b.NewValue(OpNe, TypeBool, 0, q, zero)
		x.removePred(iy)
		for i, p := range z.Preds {
			if p == y {
				z.Preds[i] = b
			}
		}
		b.Control = cc
		b.Succs = []*Block{x, z}
		y.Preds, y.Succs, y.Control = nil, nil, nil
		f.Invalidate()
		return true
	}
	return false
}

// intConst returns an int constant of the entry block (which dominates
// every use), made there if there is none.
func intConst(f *Func, k int64) *Value {
	e := f.Entry()
	for _, v := range e.Values {
		if v.Op == OpConst && v.Type == TypeInt && v.Aux == k {
			return v
		}
	}
	return e.NewValue(OpConst, TypeInt, k)
}

// sameBool returns q when Select(c, x, y) is q itself: c tests whether
// q, which is 0 or 1, is not 0 (or is 0) and x and y are 1 and 0 (or 0
// and 1) — a combined condition (combineIf) turned back into a value.
func sameBool(c, x, y *Value) *Value {
	q := c.Args[0]
	if k, ok := c.Args[1].IsConst(); !ok || k != 0 || !isBool(q) || x.Type != TypeInt {
		return nil
	}
	kx, okx := x.IsConst()
	ky, oky := y.IsConst()
	switch {
	case !okx || !oky:
	case c.Op == OpNe && kx == 1 && ky == 0, c.Op == OpEq && kx == 0 && ky == 1:
		return q
	}
	return nil
}

// isBool reports whether v is an int that is 0 or 1.
func isBool(v *Value) bool {
	if k, ok := v.IsConst(); ok {
		return v.Type == TypeInt && (k == 0 || k == 1)
	}
	return v.Op == OpSelect && v.Type == TypeInt && isBool(v.Args[1]) && isBool(v.Args[2])
}
