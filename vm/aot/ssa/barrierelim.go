package ssa

// barrierElim deletes the barriers whose object is provably marked in
// the current GC epoch already: paper 003's redundant-instrumentation
// removal (§3.4, Fig. 3(c)) made exact across collections.
//
// The paper gives each block a bit vector of the values already
// barriered, inherited from its immediate dominator, with φ results
// (new values in SSA form) unbarriered. The access bitmap is cleared at
// every collection, so a barrier before a point where the VM may collect
// does not cover an access after it. Here the set entering a block is
// the intersection of the sets leaving its predecessors — for a block
// whose paths from its immediate dominator cannot collect, a superset of
// the dominator's set, the paper's rule — and it is empty when any
// incoming edge may collect: an exception edge (the exception was
// allocated) or a retreating edge in reverse postorder (the loop back
// edges, safepoints where another thread may run and collect). Within a
// block the set is emptied after every value that may collect (see
// mayCollect). A barrier whose value is in the set is deleted; one that
// is not adds its value. Since retreating edges carry nothing, one pass
// in reverse postorder sees every other predecessor before its block.
func barrierElim(f *Func) {
	rpo := f.RPO()
	order := make([]int, f.NumBlocks()) // position in RPO + 1; 0: not reached yet
	for i, b := range rpo {
		order[b.ID] = i + 1
	}
	words := (f.NumValues() + 63) / 64
	out := make([][]uint64, f.NumBlocks())
	for i, b := range rpo {
		set := make([]uint64, words)
		if i > 0 {
			initFromPreds(set, b, order, out)
		}
		vals := b.Values[:0]
		for _, v := range b.Values {
			if v.Op == OpBarrier {
				w, m := v.Args[0].ID/64, uint64(1)<<(v.Args[0].ID%64)
				if set[w]&m != 0 {
					continue
				}
				set[w] |= m
			} else if mayCollect(v.Op) {
				clear(set)
			}
			vals = append(vals, v)
		}
		clear(b.Values[len(vals):])
		b.Values = vals
		out[b.ID] = set
	}
}

// initFromPreds sets set to the intersection of the predecessors' sets,
// or leaves it empty when an incoming edge may collect or comes from a
// block not yet seen.
func initFromPreds(set []uint64, b *Block, order []int, out [][]uint64) {
	for i, p := range b.Preds {
		if order[p.ID] == 0 || order[p.ID] >= order[b.ID] || isCatchEdge(p, b) || out[p.ID] == nil {
			clear(set)
			return
		}
		if i == 0 {
			copy(set, out[p.ID])
			continue
		}
		for w := range set {
			set[w] &= out[p.ID][w]
		}
	}
}

func isCatchEdge(p, b *Block) bool {
	for _, s := range p.Succs[len(p.Succs)-p.NCatch:] {
		if s == b {
			return true
		}
	}
	return false
}

// mayCollect reports whether a value of op may let a collection happen
// (and so clear the access bitmap) before the next value runs, on the
// path where it does not throw: everything but the ops listed here, which
// neither allocate, call, resolve a class, nor block. A check that fails
// allocates its exception, but then control leaves the block on an
// exception edge, which carries no set. An instance field access resolves
// its field at its first run; the field's class is the object's class
// or a superclass (the verifier's guarantee), loaded already.
func mayCollect(op Op) bool {
	switch op {
	case OpThis, OpParam, OpConst, OpUndef, OpCopy, OpPhi,
		OpAdd, OpSub, OpMul, OpDiv, OpRem, OpAnd, OpOr, OpXor, OpShl, OpShr, OpUshr,
		OpNeg, OpNot, OpConv, OpIntToByte, OpIntToChar, OpIntToShort, OpCmpl, OpCmpg,
		OpEq, OpNe, OpLt, OpGe, OpGt, OpLe,
		OpNullCheck, OpBoundsCheck, OpDivZeroCheck,
		OpArrayLength, OpAGet, OpAPut, OpIGet, OpIPut, OpFillArrayData, OpBarrier, OpSelect, OpAccess:
		return false
	}
	return true
}
