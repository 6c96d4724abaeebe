package gc

import (
	"fmt"

	"github.com/droidprof/droidprof/vm/heap"
)

// Verify checks the whole heap as ART's heap verification does: every
// object's header is sound and fits its space, and every reference in
// it is null or the start of a live object. It returns the first
// problem, naming the object, the offset of the field and the bad value.
func (h *Heap) Verify() error {
	young := make(map[uint32]bool, len(h.allocStack))
	for _, a := range h.allocStack {
		young[a] = true
	}
	var bump map[uint32]bool // objects of the ss from-space
	if h.semi != nil {
		bump = map[uint32]bool{}
		var err error
		h.semi.walk(h.semi.from, func(a uint32) uint32 {
			if err == nil {
				if msg := h.rt.CheckObject(a); msg != "" {
					err = fmt.Errorf("object %#x in %s: %s", a, h.semi.from.Name, msg)
					return heap.Alignment
				}
			}
			if err != nil {
				return heap.Alignment
			}
			return h.rt.SizeOf(a)
		}, func(a, _ uint32) { bump[a] = true })
		if err != nil {
			return err
		}
	}
	isObject := func(a uint32) bool {
		if a%heap.Alignment != 0 {
			return false
		}
		if bump != nil && h.semi.from.Contains(a) {
			return bump[a]
		}
		s := h.spaceOf(a)
		return s != nil && s.Contains(a) && (s.live.test(a) || young[a])
	}
	check := func(s *Space, a uint32) error {
		if msg := h.rt.CheckObject(a); msg != "" {
			return fmt.Errorf("object %#x in %s: %s", a, s.Name, msg)
		}
		if end := uint64(a) + uint64(h.rt.SizeOf(a)); end > uint64(s.Top) {
			return fmt.Errorf("object %#x in %s: its %d bytes run past the space's end %#x", a, s.Name, end-uint64(a), s.Top)
		}
		var err error
		h.rt.Scan(a, false, func(slot uint32) {
			if err != nil {
				return
			}
			if v := h.mem.U32(slot); v != 0 && !isObject(v) {
				err = fmt.Errorf("object %#x in %s: the reference at offset %d holds %#x, which is not a live object", a, s.Name, slot-a, v)
			} else if v != 0 && slot != a {
				if msg := h.rt.CheckRef(a, slot, v); msg != "" {
					err = fmt.Errorf("object %#x in %s: the reference at offset %d holds %#x: %s", a, s.Name, slot-a, v, msg)
				}
			}
		})
		return err
	}
	for _, s := range h.spaces() {
		var err error
		visit := func(a uint32) {
			if err == nil {
				err = check(s, a)
			}
		}
		if bump != nil && s == h.semi.from {
			for a := range bump {
				visit(a)
			}
		} else {
			s.Walk(visit)
		}
		if err != nil {
			return err
		}
	}
	for a := range young {
		if s := h.spaceOf(a); s != nil && !s.live.test(a) {
			if err := check(s, a); err != nil {
				return err
			}
		}
	}
	var err error
	n, bad := 0, -1
	var val uint32
	h.rt.Roots(func(p *uint32) {
		if v := *p; bad < 0 && v != 0 && !isObject(v) && !h.Image.Contains(v) {
			bad, val = n, v
		}
		n++
	})
	if bad >= 0 {
		err = fmt.Errorf("root %d (%s) holds %#x, which is not a live object", bad, h.rt.DescribeRoot(bad), val)
	}
	return err
}
