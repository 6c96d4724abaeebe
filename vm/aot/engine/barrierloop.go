package engine

import (
	"slices"

	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// bareBody lowers the loop body b a second time without its BarrierLoop
// barriers (ssa.BarrierLoop: their objects are defined before the loop
// and neither the body nor its header may collect), for the iterations
// that run when those objects are known to be marked in the current
// epoch (cblock.loopBare): they then run the body as compiled without
// barriers — the same trees, no test per barrier — instead of one with
// a skip test at every barrier. It records in cb the body's objects
// (loopObjs), and leaves cb.bare nil, so that the loop skips by
// frame.skipLoop as before, when the body without those barriers would
// be planned differently (its values' slots were assigned for the plan
// with them).
func (l *lowerer) bareBody(b *ssa.Block) {
	cb := l.blocks[b.ID]
	orig := b.Values
	vals := make([]*ssa.Value, 0, len(orig))
	for _, v := range orig {
		if v.Op == ssa.OpBarrier && v.Aux&ssa.BarrierLoop != 0 {
			if s := l.s(v.Args[0]); !slices.Contains(cb.loopObjs, s) {
				cb.loopObjs = append(cb.loopObjs, s)
			}
			continue
		}
		vals = append(vals, v)
	}
	inl := make([]bool, len(orig))
	bar := make([]uint8, len(orig))
	for k, v := range orig {
		inl[k], bar[k] = l.inl[v.ID], l.bar[v.ID]
		l.inl[v.ID] = false
	}
	plan := l.plans[b.ID]
	restore := func() {
		b.Values = orig
		l.plans[b.ID] = plan
		l.blocks[b.ID] = cb
		for k, v := range orig {
			l.inl[v.ID], l.bar[v.ID] = inl[k], bar[k]
		}
	}
	defer restore()
	b.Values = vals
	l.plans[b.ID] = l.plan(b)
	for k, v := range orig {
		if l.inl[v.ID] != inl[k] {
			return // another plan: the slots do not fit it
		}
	}
	bare := &cblock{}
	l.blocks[b.ID] = bare
	l.block(b)
	cb.bare = bare
}

// loopMemory is what a loop with a bare body remembers across its
// entries: the epoch and the objects of its last iteration that ran the
// body's barriers whole. One per compiled loop; the VM's global lock
// serialises its threads, and whichever thread wrote it, its objects
// were marked in that epoch.
type loopMemory struct {
	ok    bool
	epoch uint64
	objs  []uint32
}

// loopBare is loop for a body b with barriers it may skip and a body
// lowered without them (b.bare, bareBody). An iteration runs b with its
// barriers until one has run b whole in the current epoch; from then on
// the iterations run b.bare, until a safepoint ends the epoch
// (gc.AccessBitmap.Epoch changes: a collection cleared the bitmap). A
// loop entered in the epoch of its last whole iteration with the same
// objects in the barriers' slots (sparse's inner loop over each short
// row of the same arrays) runs b.bare from its first iteration. Skipped
// barriers are counted as cache hits and loop skips, as in
// loopSkipping, when the loop is left.
func (h *cblock) loopBare(in *edge, b *cblock) {
	test, head, back := h.term, h.code, b.next
	full := b.code
	nb := uint64(b.loopBars)
	objs := b.loopObjs
	mem := &loopMemory{objs: make([]uint32, len(objs))}
	// a func literal called directly, which Go inlines (loop)
	moves := func(r []uint32, e *edge) {
		switch {
		case len(e.moves) == 0:
		case e.single:
			r[e.moves[0].dst] = r[e.moves[0].src]
		case e.two:
			e.applyTwo(r)
		default:
			e.apply(r)
		}
	}
	marked := func(f *frame) bool {
		if !mem.ok || mem.epoch != f.acc.Epoch() {
			return false
		}
		for i, s := range objs {
			if f.r[s] != mem.objs[i] {
				return false
			}
		}
		return true
	}
	remember := func(f *frame) {
		mem.ok, mem.epoch = true, f.acc.Epoch()
		for i, s := range objs {
			mem.objs[i] = f.r[s]
		}
	}
	runHead, runFull := seq(head), seq(full)
	// first runs an iteration with the barriers: nil when it ran whole
	first := func(f *frame) *edge {
		if !runHead(f) {
			return throwEdge
		}
		if e := test(f); e != in {
			return e
		}
		moves(f.r, in)
		if !runFull(f) {
			return throwEdge
		}
		moves(f.r, back)
		return nil
	}
	inner := h.bareIterations(in, b)
	h.run = func(f *frame) *edge {
		var skipped uint64
		ok := marked(f)
		for {
			if !ok {
				if e := first(f); e != nil {
					f.acc.Executed += skipped * nb
					f.acc.CacheHits += skipped * nb
					f.acc.LoopSkips += skipped * nb
					return e
				}
				remember(f)
				ok = true
				if f.vm.Flags() != 0 {
					f.t.Safepoint()
					ok = f.acc.Epoch() == mem.epoch
				}
				continue
			}
			e, n := inner(f, f.acc.Epoch())
			skipped += n
			if e != nil {
				f.acc.Executed += skipped * nb
				f.acc.CacheHits += skipped * nb
				f.acc.LoopSkips += skipped * nb
				return e
			}
			ok = false // a collection ended the epoch at a safepoint
		}
	}
}

// bareIterations returns the loop of b.bare's iterations for loopBare:
// it runs them until the loop is left (the edge taken, throwEdge when
// the body threw) or a safepoint ends epoch ep (nil), and says how many
// ran whole.
func (h *cblock) bareIterations(in *edge, b *cblock) func(f *frame, ep uint64) (*edge, uint64) {
	test, head, body, back := h.term, h.code, b.bare.code, b.next
	moves := func(r []uint32, e *edge) {
		switch {
		case len(e.moves) == 0:
		case e.single:
			r[e.moves[0].dst] = r[e.moves[0].src]
		case e.two:
			e.applyTwo(r)
		default:
			e.apply(r)
		}
	}
	if t := h.test; t.ok && len(head) == 0 {
		onYes, exit := h.testExit(in)
		st := b.bare.step
		body = b.bare.bodyLessStep(body)
		plain := len(in.moves) == 0 && len(back.moves) == 0
		switch {
		case plain && st.ok && len(body) == 1:
			// sparse's, LU's and the sieve's inner loops: the loop
			// without barriers
			x0 := body[0]
			return func(f *frame, ep uint64) (*edge, uint64) {
				var n uint64
				for {
					if t.holds(f.r) != onYes {
						return exit, n
					}
					if !x0(f) {
						return throwEdge, n
					}
					st.do(f.r)
					n++
					if f.vm.Flags() != 0 {
						f.t.Safepoint()
						if f.acc.Epoch() != ep {
							return nil, n
						}
					}
				}
			}
		case plain && st.ok && len(body) == 2:
			x0, x1 := body[0], body[1]
			return func(f *frame, ep uint64) (*edge, uint64) {
				var n uint64
				for {
					if t.holds(f.r) != onYes {
						return exit, n
					}
					if !x0(f) || !x1(f) {
						return throwEdge, n
					}
					st.do(f.r)
					n++
					if f.vm.Flags() != 0 {
						f.t.Safepoint()
						if f.acc.Epoch() != ep {
							return nil, n
						}
					}
				}
			}
		}
		runBody := seq(body)
		return func(f *frame, ep uint64) (*edge, uint64) {
			var n uint64
			for {
				if t.holds(f.r) != onYes {
					return exit, n
				}
				moves(f.r, in)
				if !runBody(f) {
					return throwEdge, n
				}
				if st.ok {
					st.do(f.r)
				}
				moves(f.r, back)
				n++
				if f.vm.Flags() != 0 {
					f.t.Safepoint()
					if f.acc.Epoch() != ep {
						return nil, n
					}
				}
			}
		}
	}
	runHead, runBody := seq(head), seq(body)
	return func(f *frame, ep uint64) (*edge, uint64) {
		var n uint64
		for {
			if !runHead(f) {
				return throwEdge, n
			}
			if e := test(f); e != in {
				return e, n
			}
			moves(f.r, in)
			if !runBody(f) {
				return throwEdge, n
			}
			moves(f.r, back)
			n++
			if f.vm.Flags() != 0 {
				f.t.Safepoint()
				if f.acc.Epoch() != ep {
					return nil, n
				}
			}
		}
	}
}
