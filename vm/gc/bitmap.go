package gc

import (
	"math/bits"

	"github.com/droidprof/droidprof/vm/heap"
)

// bitmap has one bit per object-alignment unit of a space: a set bit
// says an object starts there. Spaces keep two, as ART's do: the live
// bitmap (objects that survived the last collection) and the mark bitmap
// (objects found reachable by the current one).
type bitmap struct {
	base  uint32
	words []uint64
	mem   *heap.Region
}

func newBitmap(base, capacity uint32) *bitmap {
	n := int((capacity/heap.Alignment + 63) / 64)
	r := heap.Reserve(8 * n)
	return &bitmap{base: base, words: r.Uint64s(), mem: r}
}

func (b *bitmap) index(a uint32) (int, uint64) {
	i := (a - b.base) / heap.Alignment
	return int(i / 64), 1 << (i % 64)
}

// test reports whether the bit of a is set.
func (b *bitmap) test(a uint32) bool {
	w, m := b.index(a)
	return b.words[w]&m != 0
}

// set sets a's bit and reports whether it was already set.
func (b *bitmap) set(a uint32) bool {
	w, m := b.index(a)
	old := b.words[w]
	b.words[w] = old | m
	return old&m != 0
}

func (b *bitmap) unset(a uint32) {
	w, m := b.index(a)
	b.words[w] &^= m
}

// span is the number of words covering [base, top).
func (b *bitmap) span(top uint32) int {
	return int(((top-b.base)/heap.Alignment + 63) / 64)
}

// clearTo clears the bits of [base, top).
func (b *bitmap) clearTo(top uint32) { clear(b.words[:b.span(top)]) }

// copyFrom makes b's bits of [base, top) those of o.
func (b *bitmap) copyFrom(o *bitmap, top uint32) {
	n := b.span(top)
	copy(b.words[:n], o.words[:n])
}

// walk calls f for every set bit in [from, to), in address order.
func (b *bitmap) walk(from, to uint32, f func(a uint32)) {
	if to <= from {
		return
	}
	first := (from - b.base) / heap.Alignment
	last := (to - b.base + heap.Alignment - 1) / heap.Alignment
	for w := first / 64; w*64 < last; w++ {
		word := b.words[w]
		if w == first/64 {
			word &^= 1<<(first%64) - 1
		}
		if (w+1)*64 > last {
			word &= 1<<(last%64) - 1
		}
		for ; word != 0; word &= word - 1 {
			f(b.base + (w*64+uint32(bits.TrailingZeros64(word)))*heap.Alignment)
		}
	}
}
