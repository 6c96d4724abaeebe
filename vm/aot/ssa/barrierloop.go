package ssa

// barrierLoop marks (Aux BarrierLoop) the cached barriers that a loop
// may skip: those of a one-block loop body whose object is defined
// outside the loop (neither in the body nor in the header), when no
// value of the header or the body may collect (mayCollect) and neither
// has exception edges.
//
// In such a loop the object is the same in every iteration of one entry,
// and the access bitmap can only be cleared at the back edge's
// safepoint (where another thread may run and collect). So once an
// iteration has run the body whole, its barriers have marked their
// objects in the current epoch, and the next iterations may skip them
// until a safepoint ends the epoch: the engine's loop closure runs the
// body with these barriers until an iteration completes, then a copy
// lowered without them, and with them again after a safepoint at which a
// collection ended the epoch (engine/barrierloop.go, cblock.loopBare); a
// loop entered again in the epoch of its last whole iteration, with the
// same objects, runs the copy from its first iteration. Nothing is
// moved out of the loop: a loop that runs no iteration, or throws in its
// first before a barrier, marks nothing it did not access. This is the
// paper's last-object cache (levels cache and all) kept per loop, where
// a hit costs no check of the object at all.
//
// The mark is only a permission: code that does not run the body from a
// loop closure runs the barrier as any other.
func barrierLoop(f *Func) {
	for _, b := range f.Blocks {
		if b.Kind != BlockPlain || b.NCatch != 0 || len(b.Succs) != 1 || len(b.Preds) != 1 {
			continue
		}
		h := b.Succs[0]
		if b.Preds[0] != h || h == b || h.Kind != BlockIf || h.NCatch != 0 || h.Succs[0] == h.Succs[1] {
			continue
		}
		if mayCollectIn(h) || mayCollectIn(b) {
			continue
		}
		for _, v := range b.Values {
			if v.Op != OpBarrier || v.Aux != BarrierCached {
				continue
			}
			if o := v.Args[0].Block; o != b && o != h {
				v.Aux |= BarrierLoop
			}
		}
	}
}

// mayCollectIn reports whether a value of b may let a collection happen.
func mayCollectIn(b *Block) bool {
	for _, v := range b.Values {
		if mayCollect(v.Op) {
			return true
		}
	}
	return false
}
