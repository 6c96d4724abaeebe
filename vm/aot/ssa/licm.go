package ssa

// licm hoists loop-invariant values out of loops (loop-invariant code
// motion): a numeric value without an effect whose arguments are all
// defined outside a loop moves to the end of the loop's preheader, the
// one block outside the loop that jumps to its header, so it is computed
// once instead of once per iteration (SOR's and LU's inner loop bounds,
// n-1). Only values that cannot fail move: integer division and
// remainder stay (their zero check stays in the loop), references stay
// (a hoisted reference would be kept alive longer), and so do
// array-length (the lowering fuses it with its access's checks) and the
// conditions of branches. A loop without such a preheader is left alone.
func licm(f *Func) {
	rpo := f.RPO()
	for i := len(rpo) - 1; i >= 0; i-- { // inner loops first
		h := rpo[i]
		var latches []*Block
		for _, p := range h.Preds {
			if f.Dominates(h, p) {
				latches = append(latches, p)
			}
		}
		if len(latches) == 0 {
			continue
		}
		body := loopBody(h, latches)
		var pre *Block
		n := 0
		for _, p := range h.Preds {
			if !body[p] {
				pre = p
				n++
			}
		}
		if n != 1 || pre.Kind != BlockPlain || len(pre.Succs) != 1 || pre.NCatch != 0 {
			continue
		}
		for _, b := range rpo {
			if !body[b] {
				continue
			}
			kept := b.Values[:0]
			for _, v := range b.Values {
				if invariant(v, body) {
					v.Block = pre
					pre.Values = append(pre.Values, v)
					continue
				}
				kept = append(kept, v)
			}
			clear(b.Values[len(kept):])
			b.Values = kept
		}
	}
}

// loopBody returns the natural loop of header h with the given latches:
// h and the blocks that reach a latch without passing h.
func loopBody(h *Block, latches []*Block) map[*Block]bool {
	body := map[*Block]bool{h: true}
	work := append([]*Block(nil), latches...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if body[b] {
			continue
		}
		body[b] = true
		work = append(work, b.Preds...)
	}
	return body
}

// invariant reports whether v may move out of the loop body.
func invariant(v *Value, body map[*Block]bool) bool {
	switch v.Op {
	case OpPhi, OpParam, OpThis, OpUndef, OpConst, OpException, OpArrayLength:
		return false
	case OpTargetIs:
		// misses while its reference is unresolved: hoisted, the
		// first run of the loop would miss in every iteration
		return false
	case OpDiv, OpRem:
		if v.Type == TypeInt || v.Type == TypeLong {
			return false
		}
	}
	switch v.Type {
	case TypeInt, TypeLong, TypeFloat, TypeDouble:
	default:
		return false
	}
	if v.Op.HasEffect() {
		return false
	}
	for _, a := range v.Args {
		if body[a.Block] {
			return false
		}
	}
	return true
}
