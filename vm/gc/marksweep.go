package gc

import "github.com/droidprof/droidprof/vm/heap"

// markSweep is the cms collector: a stop-the-world mark-sweep of ART's
// three extents. A sticky collection treats every object that survived
// the last collection as marked, traces from the roots and from the
// objects on dirty cards, and sweeps only the allocation stack; a
// partial one treats the image and zygote spaces as roots and sweeps
// the rest; a full one leaves only the image immune.
type markSweep struct {
	h      *Heap
	kind   Kind
	stack  []uint32
	immune [8]*Space
	nImm   int
}

func (m *markSweep) isImmune(s *Space) bool {
	for _, i := range m.immune[:m.nImm] {
		if i == s {
			return true
		}
	}
	return false
}

// mark makes a reachable, queueing it for scanning the first time.
func (m *markSweep) mark(a uint32) {
	if a == 0 {
		return
	}
	s := m.h.spaceOf(a)
	if s == nil || s.Retention == NeverCollect || m.isImmune(s) {
		return
	}
	if !s.mark.set(a) {
		m.stack = append(m.stack, a)
	}
}

func (m *markSweep) markSlot(slot uint32) { m.mark(m.h.mem.U32(slot)) }

func (m *markSweep) drain() {
	rt := m.h.rt
	for len(m.stack) > 0 {
		a := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		rt.Scan(a, true, m.markSlot)
	}
}

// Forward implements Tracer: objects do not move.
func (m *markSweep) Forward(a uint32) uint32 {
	s := m.h.spaceOf(a)
	if s == nil || s.Retention == NeverCollect || m.isImmune(s) || s.mark.test(a) {
		return a
	}
	return 0
}

// Keep implements Tracer.
func (m *markSweep) Keep(a uint32) uint32 {
	m.mark(a)
	m.drain()
	return a
}

// collected lists the spaces a collection of m's kind sweeps.
func (m *markSweep) collected() []*Space {
	var l []*Space
	for _, s := range m.h.spaces() {
		if s.Retention != NeverCollect && !m.isImmune(s) {
			l = append(l, s)
		}
	}
	return l
}

func (h *Heap) markSweep(k Kind, clearSoft bool) Info {
	m := &markSweep{h: h, kind: k}
	m.immune[0], m.nImm = h.Image, 1
	if h.sealed && k != Full {
		m.immune[1], m.nImm = h.Zygote, 2
	}
	young := h.allocStack
	h.allocStack = nil
	spaces := m.collected()
	if k == Sticky {
		// Every object that survived the last collection counts as
		// marked.
		for _, s := range spaces {
			s.mark.copyFrom(s.live, s.Top)
		}
	}
	for _, a := range young {
		h.spaceOf(a).live.set(a)
	}

	h.rt.Roots(func(p *uint32) { m.mark(*p) })
	scan := func(a uint32) { h.rt.Scan(a, true, m.markSlot) }
	if k == Sticky {
		// References from old objects to young ones: the objects on
		// dirty cards (the old ones among them are marked already, the
		// immune ones count as marked).
		for _, s := range h.spaces() {
			imm := s.Retention == NeverCollect || m.isImmune(s)
			h.cards.scan(s.Base, s.Top, func(lo, hi uint32) {
				s.live.walk(lo, hi, func(a uint32) {
					if imm || s.mark.test(a) {
						scan(a)
					}
				})
			})
		}
	} else {
		for _, s := range m.immune[:m.nImm] {
			s.Walk(scan)
		}
	}
	m.drain()
	h.rt.ProcessReferences(m, clearSoft)

	var info Info
	dead := func(a, size uint32) {
		if h.OnFree != nil {
			h.OnFree(a, size)
		}
	}
	if k == Sticky {
		for _, a := range young {
			s := h.spaceOf(a)
			if m.isImmune(s) || s.mark.test(a) {
				continue
			}
			size := heap.Align(h.rt.SizeOf(a))
			switch s {
			case h.Main.Space:
				h.Main.free(a, size)
			case h.NonMoving.Space:
				h.NonMoving.free(a, size)
			case h.Large.Space:
				size = pages(size)
				h.Large.free1(a, size)
				info.FreedLarge++
				info.FreedLargeBytes += uint64(size)
				dead(a, size)
				continue
			default:
				s.live.unset(a)
				s.Allocated -= uint64(size)
				s.Objects--
			}
			info.FreedObjects++
			info.FreedBytes += uint64(size)
			dead(a, size)
		}
		for _, s := range spaces {
			s.mark.clearTo(s.Top)
		}
	} else {
		for _, s := range spaces {
			if s != h.Main.Space {
				h.sweepSpace(s, dead, &info)
				continue
			}
			top := h.Main.Top
			o, b := h.Main.sweep(h.rt.SizeOf, dead)
			// The space's tail past its last live object is free.
			h.mem.Release(h.Main.Top, top-h.Main.Top)
			info.FreedObjects += o
			info.FreedBytes += b
		}
	}
	h.allocStack = young[:0]
	h.recount()
	return info
}

// recount sets the heap's allocated bytes from its spaces'.
func (h *Heap) recount() {
	n := h.Zygote.Allocated + h.NonMoving.Allocated + h.Large.Allocated
	if h.Main != nil {
		n += h.Main.Allocated
	} else {
		n += h.semi.from.Allocated
	}
	h.allocated = n
}

// sweepInPlace ends a collection of a space without an allocator (the
// zygote space): unmarked objects are dead, their memory is not reused.
func (s *Space) sweepInPlace(sizeOf func(uint32) uint32, dead func(a, size uint32)) (objs, bytes uint64) {
	s.live.walk(s.Base, s.Top, func(a uint32) {
		if !s.mark.test(a) {
			size := heap.Align(sizeOf(a))
			objs++
			bytes += uint64(size)
			dead(a, size)
		}
	})
	s.live.copyFrom(s.mark, s.Top)
	s.mark.clearTo(s.Top)
	s.Allocated -= bytes
	s.Objects -= objs
	return objs, bytes
}

// sweepSpace sweeps a space that does not move its objects (the zygote,
// non-moving and large-object spaces; not cms's main space, which also
// gives its tail back) and adds what it freed to info.
func (h *Heap) sweepSpace(s *Space, dead func(a, size uint32), info *Info) {
	var o, b uint64
	switch s {
	case h.NonMoving.Space:
		o, b = h.NonMoving.sweep(h.rt.SizeOf, dead)
	case h.Large.Space:
		o, b = h.Large.sweep(h.rt.SizeOf, dead)
		info.FreedLarge += o
		info.FreedLargeBytes += b
		return
	default:
		o, b = s.sweepInPlace(h.rt.SizeOf, dead)
	}
	info.FreedObjects += o
	info.FreedBytes += b
}
