package gc

import "github.com/droidprof/droidprof/vm/heap"

// semiSpace is the ss main space: two bump-pointer semi-spaces of the
// heap's capacity, one at the main space's address and one past the
// large-object space. Objects are allocated in from by bumping; a
// collection copies the reachable ones into to (Cheney's algorithm,
// breadth first), leaves each old copy's class word holding its
// forwarding address, updates every reference to it, and swaps the
// two. The objects left behind in from are the dead ones, found by
// walking from's objects in address order, as paper 003 derives them
// from the space's boundaries.
type semiSpace struct {
	from, to *Space
	mem      *heap.Heap
}

func newSemiSpace(capacity uint32, mem *heap.Heap) *semiSpace {
	return &semiSpace{
		from: newSpace("bump pointer space", heap.MainBase, capacity, AlwaysCollect),
		to:   newSpace("bump pointer space", heap.SemiBase, capacity, AlwaysCollect),
		mem:  mem,
	}
}

// alloc bumps from's pointer and clears the memory.
func (ss *semiSpace) alloc(size uint32) (uint32, bool) {
	a, ok := ss.from.bump(size)
	if !ok {
		return 0, false
	}
	ss.mem.Clear(a, size)
	ss.from.Allocated += uint64(size)
	ss.from.Objects++
	return a, true
}

// forwarded is the mark of a moved object's old class word: class
// objects are 8-byte aligned, so bit 0 of a class word is free.
const forwarded = 1

// walk calls f for every object of a bump-pointer space, in address
// order, with its aligned size (a moved object's size is its copy's).
func (ss *semiSpace) walk(s *Space, sizeOf func(uint32) uint32, f func(a, size uint32)) {
	for a := s.Base; a < s.Top; {
		obj := a
		if w := ss.mem.U32(a); w&forwarded != 0 {
			obj = w &^ forwarded
		}
		size := heap.Align(max(sizeOf(obj), heap.Alignment))
		f(a, size)
		a += size
	}
}

// copier is one semi-space collection.
type copier struct {
	h        *Heap
	from, to *Space
	stack    []uint32 // marked objects of the spaces that do not move
	scanned  uint32   // Cheney's scan pointer in to
}

// forward returns a's address after the collection, copying it out of
// from or marking it in place on first sight.
func (c *copier) forward(a uint32) uint32 {
	if a == 0 {
		return 0
	}
	h := c.h
	if c.from.Contains(a) {
		w := h.mem.U32(a)
		if w&forwarded != 0 {
			return w &^ forwarded
		}
		size := heap.Align(h.rt.SizeOf(a))
		n, ok := c.to.bump(size)
		if !ok {
			panic("gc: semi-space: to-space overflow")
		}
		h.mem.Copy(n, a, size)
		h.mem.SetU32(a, n|forwarded)
		c.to.Allocated += uint64(size)
		c.to.Objects++
		if h.OnMove != nil {
			h.OnMove(a, n, size)
		}
		return n
	}
	s := h.spaceOf(a)
	if s == nil || s.Retention == NeverCollect {
		return a
	}
	if !s.mark.set(a) {
		c.stack = append(c.stack, a)
	}
	return a
}

func (c *copier) visit(slot uint32) {
	mem := c.h.mem
	if v := mem.U32(slot); v != 0 {
		if n := c.forward(v); n != v {
			mem.SetU32(slot, n)
		}
	}
}

func (c *copier) drain() {
	rt := c.h.rt
	for {
		for c.scanned < c.to.Top {
			a := c.scanned
			rt.Scan(a, true, c.visit)
			c.scanned += heap.Align(rt.SizeOf(a))
		}
		if len(c.stack) == 0 {
			return
		}
		a := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		rt.Scan(a, true, c.visit)
	}
}

// Forward implements Tracer. An address already in to-space (a
// referent moved by Keep) is its own forward.
func (c *copier) Forward(a uint32) uint32 {
	if c.to.Contains(a) {
		return a
	}
	if c.from.Contains(a) {
		if w := c.h.mem.U32(a); w&forwarded != 0 {
			return w &^ forwarded
		}
		return 0
	}
	s := c.h.spaceOf(a)
	if s == nil || s.Retention == NeverCollect || s.mark.test(a) {
		return a
	}
	return 0
}

// Keep implements Tracer.
func (c *copier) Keep(a uint32) uint32 {
	n := c.forward(a)
	c.drain()
	return n
}

func (h *Heap) semiSpaceCollect(clearSoft bool) Info {
	ss := h.semi
	c := &copier{h: h, from: ss.from, to: ss.to, scanned: ss.to.Base}
	ss.to.Top, ss.to.Allocated, ss.to.Objects = ss.to.Base, 0, 0
	for _, a := range h.allocStack {
		h.spaceOf(a).live.set(a)
	}
	h.allocStack = h.allocStack[:0]

	h.rt.Roots(func(p *uint32) { *p = c.forward(*p) })
	h.Image.Walk(func(a uint32) { h.rt.Scan(a, true, c.visit) })
	c.drain()
	h.rt.ProcessReferences(c, clearSoft)

	var info Info
	dead := func(a, size uint32) {
		if h.OnFree != nil {
			h.OnFree(a, size)
		}
	}
	// The dead of from: what was not copied.
	ss.walk(ss.from, h.rt.SizeOf, func(a, size uint32) {
		if h.mem.U32(a)&forwarded == 0 {
			info.FreedObjects++
			info.FreedBytes += uint64(size)
			dead(a, size)
		}
	})
	for _, s := range []*Space{h.Zygote, h.NonMoving.Space, h.Large.Space} {
		h.sweepSpace(s, dead, &info)
	}
	h.mem.Release(ss.from.Base, ss.from.Top-ss.from.Base)
	ss.from.Top, ss.from.Allocated, ss.from.Objects = ss.from.Base, 0, 0
	ss.from, ss.to = ss.to, ss.from
	h.recount()
	return info
}
