package gc

import (
	"math/bits"

	"github.com/droidprof/droidprof/vm/heap"
)

// FreeList is a mark-sweep space with a free-list allocator, as ART's
// RosAlloc main space and DlMalloc non-moving space are: freed blocks
// are reused before the space's bump pointer moves on. Small blocks are
// kept in exact size classes (8-byte steps up to 256 bytes, like
// RosAlloc's brackets); larger ones in a first-fit list. A full sweep
// rebuilds the lists from the gaps between live objects, so neighbouring
// dead objects coalesce.
type FreeList struct {
	*Space
	small [smallClasses][]uint32 // free blocks of exactly (i+1)*Alignment bytes
	full  uint32                 // bit i set: small[i] is not empty
	large []block                // free blocks larger than that
}

const smallClasses = 32

type block struct{ addr, size uint32 }

func newFreeList(name string, base, capacity uint32) *FreeList {
	return &FreeList{Space: newSpace(name, base, capacity, AlwaysCollect)}
}

// alloc finds a free block of size (aligned) bytes: the exact size
// class, the large blocks, a bigger small block, and only then fresh
// memory. The memory is not cleared.
func (s *FreeList) alloc(size uint32) (uint32, bool) {
	c := size/heap.Alignment - 1
	if c < smallClasses && s.full&(1<<c) != 0 {
		return s.pop(c), true
	}
	for i := range s.large {
		b := &s.large[i]
		if b.size >= size {
			a := b.addr
			rest := block{b.addr + size, b.size - size}
			s.large[i] = s.large[len(s.large)-1]
			s.large = s.large[:len(s.large)-1]
			s.release(rest)
			return a, true
		}
	}
	if c < smallClasses {
		if bigger := s.full >> (c + 1); bigger != 0 {
			k := c + 1 + uint32(bits.TrailingZeros32(bigger))
			a := s.pop(k)
			s.release(block{a + size, (k+1)*heap.Alignment - size})
			return a, true
		}
	}
	return s.bump(size)
}

func (s *FreeList) pop(c uint32) uint32 {
	l := s.small[c]
	a := l[len(l)-1]
	s.small[c] = l[:len(l)-1]
	if len(l) == 1 {
		s.full &^= 1 << c
	}
	return a
}

func (s *FreeList) release(b block) {
	if b.size == 0 {
		return
	}
	if c := b.size/heap.Alignment - 1; c < smallClasses {
		s.small[c] = append(s.small[c], b.addr)
		s.full |= 1 << c
		return
	}
	s.large = append(s.large, b)
}

// largestFree is the largest block an allocation could get, for the
// out-of-memory message's fragmentation note.
func (s *FreeList) largestFree() uint32 {
	m := s.Limit - s.Top
	for _, b := range s.large {
		m = max(m, b.size)
	}
	if s.full != 0 {
		m = max(m, uint32(32-bits.LeadingZeros32(s.full))*heap.Alignment)
	}
	return m
}

// sweep ends a partial or full collection of the space: every live
// object without a mark is dead (dead is called for each, in address
// order, with its aligned size); the gaps between marked objects become
// the free lists; the mark bitmap becomes the live one.
func (s *FreeList) sweep(sizeOf func(uint32) uint32, dead func(a, size uint32)) (objs, bytes uint64) {
	for i := range s.small {
		s.small[i] = s.small[i][:0]
	}
	s.full = 0
	s.large = s.large[:0]
	var liveBytes, liveObjs uint64
	gapStart := s.Base
	live, mark := s.live.words, s.mark.words
	n := s.live.span(s.Top)
	for w := 0; w < n; w++ {
		l, m := live[w], mark[w]
		for d := l &^ m; d != 0; d &= d - 1 {
			a := s.Base + (uint32(w)*64+uint32(bits.TrailingZeros64(d)))*heap.Alignment
			sz := heap.Align(sizeOf(a))
			objs++
			bytes += uint64(sz)
			dead(a, sz)
		}
		for ; m != 0; m &= m - 1 {
			a := s.Base + (uint32(w)*64+uint32(bits.TrailingZeros64(m)))*heap.Alignment
			if a > gapStart {
				s.release(block{gapStart, a - gapStart})
			}
			sz := heap.Align(sizeOf(a))
			liveBytes += uint64(sz)
			liveObjs++
			gapStart = a + sz
		}
		live[w] = mark[w]
		mark[w] = 0
	}
	// The gap after the last live object goes back to fresh memory.
	s.Top = gapStart
	s.Allocated, s.Objects = liveBytes, liveObjs
	return objs, bytes
}

// free returns one dead object's block (a sticky collection's sweep of
// the allocation stack).
func (s *FreeList) free(a, size uint32) {
	s.live.unset(a)
	s.release(block{a, size})
	s.Allocated -= uint64(size)
	s.Objects--
}
