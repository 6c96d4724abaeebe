package gc

import (
	"encoding/binary"

	"github.com/droidprof/droidprof/vm/heap"
)

// CardDirty is ART's kCardDirty: the value a card holds after a
// reference store into an object that starts on it.
const CardDirty = 0x70

// cardTable has one byte per 128-byte card of the whole reserved range.
// The write barrier dirties the card of every object a reference is
// stored into; a sticky collection scans the objects that start on dirty
// cards, which is how it finds references from old objects to new ones
// without tracing the old objects.
type cardTable struct {
	cards []byte
	mem   *heap.Region
}

func newCardTable() *cardTable {
	r := heap.Reserve(int((heap.End - heap.MainBase) >> heap.CardShift))
	return &cardTable{cards: r.Bytes(), mem: r}
}

func (c *cardTable) mark(obj uint32) { c.cards[(obj-heap.MainBase)>>heap.CardShift] = CardDirty }

// IsDirty reports whether the card of address a is dirty.
func (c *cardTable) isDirty(a uint32) bool {
	return c.cards[(a-heap.MainBase)>>heap.CardShift] == CardDirty
}

// scan calls f with the address range of every dirty card of [from, to).
func (c *cardTable) scan(from, to uint32, f func(lo, hi uint32)) {
	if to <= from {
		return
	}
	first := (from - heap.MainBase) >> heap.CardShift
	last := (to - heap.MainBase + 1<<heap.CardShift - 1) >> heap.CardShift
	for i := first; i < last; i++ {
		// Most cards are clean: skip them eight at a time.
		if i%8 == 0 && i+8 <= last && binary.LittleEndian.Uint64(c.cards[i:]) == 0 {
			i += 7
			continue
		}
		if c.cards[i] == CardDirty {
			lo := heap.MainBase + i<<heap.CardShift
			f(max(lo, from), min(lo+1<<heap.CardShift, to))
		}
	}
}

// clearRange cleans the cards of [from, to).
func (c *cardTable) clearRange(from, to uint32) {
	if to <= from {
		return
	}
	first := (from - heap.MainBase) >> heap.CardShift
	last := (to - heap.MainBase + 1<<heap.CardShift - 1) >> heap.CardShift
	clear(c.cards[first:last])
}
