package gc

import (
	"sort"

	"github.com/droidprof/droidprof/vm/heap"
)

// LargeThreshold is ART's kDefaultLargeObjectThreshold (3 pages): a
// primitive array or String at least this large is allocated in the
// large-object space.
const LargeThreshold = 12 << 10

// pageSize is the large-object space's allocation unit
// (kLargeObjectAlignment).
const pageSize = 4096

// LargeObjects is ART's FreeListSpace flavour of the large-object space:
// page-aligned runs of pages handed out first fit, never moved, freed
// when a collection finds them dead.
type LargeObjects struct {
	*Space
	free []block // free runs below Top, by address
	mem  *heap.Heap
}

func newLargeObjects(capacity uint32, mem *heap.Heap) *LargeObjects {
	return &LargeObjects{Space: newSpace("large object space", heap.LargeBase, capacity, AlwaysCollect), mem: mem}
}

func pages(size uint32) uint32 { return (size + pageSize - 1) &^ (pageSize - 1) }

// alloc hands out a zeroed page run of at least size bytes.
func (s *LargeObjects) alloc(size uint32) (uint32, bool) {
	size = pages(size)
	for i, b := range s.free {
		if b.size >= size {
			if b.size == size {
				s.free = append(s.free[:i], s.free[i+1:]...)
			} else {
				s.free[i] = block{b.addr + size, b.size - size}
			}
			s.mem.Clear(b.addr, size)
			return b.addr, true
		}
	}
	return s.bump(size)
}

// release returns a dead object's pages, coalescing with free
// neighbours.
func (s *LargeObjects) release(a, size uint32) {
	size = pages(size)
	s.free = append(s.free, block{a, size})
	sort.Slice(s.free, func(i, j int) bool { return s.free[i].addr < s.free[j].addr })
	out := s.free[:1]
	for _, b := range s.free[1:] {
		if last := &out[len(out)-1]; last.addr+last.size == b.addr {
			last.size += b.size
		} else {
			out = append(out, b)
		}
	}
	s.free = out
	if last := out[len(out)-1]; last.addr+last.size == s.Top {
		s.Top = last.addr
		s.free = out[:len(out)-1]
	}
}

// sweep frees every live object without a mark.
func (s *LargeObjects) sweep(sizeOf func(uint32) uint32, dead func(a, size uint32)) (objs, bytes uint64) {
	var gone []block
	top := s.Top
	s.live.walk(s.Base, s.Top, func(a uint32) {
		if !s.mark.test(a) {
			gone = append(gone, block{a, pages(sizeOf(a))})
		}
	})
	s.mark.clearTo(top)
	for _, b := range gone {
		dead(b.addr, b.size)
		s.free1(b.addr, b.size)
		objs++
		bytes += uint64(b.size)
	}
	return objs, bytes
}

func (s *LargeObjects) free1(a, size uint32) {
	s.live.unset(a)
	s.Allocated -= uint64(size)
	s.Objects--
	s.release(a, size)
}
