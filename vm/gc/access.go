package gc

import (
	"math/bits"

	"github.com/droidprof/droidprof/vm/heap"
)

// AccessBitmap is paper 003's record of object accesses (§3.2): one bit
// per 8 bytes, the object alignment, of the main space, so 1/64 of its
// size. The AOT engine's barriers set the bit of each object compiled
// code accesses; at the start of every collection Heap.OnAccesses sees
// the bits of the epoch that ends (the accesses since the previous
// collection, at the addresses objects had then) and the bitmap is
// cleared. Objects outside the main space (image, zygote, non-moving,
// large objects) are not recorded, as in the paper.
//
// It lives here, not in the runtime, because the heap decides when an
// epoch ends and where the main space is: a semi-space collection moves
// the main space to the other half, and the bitmap follows it.
//
// The barriers' last-object cache (the paper's global register r8,
// here a few of them: MarkCached) is kept with the bitmap, one per VM:
// the VM runs one thread at a time under its global lock, so it is that
// register, and clearing it with the bits means a cache hit never spans
// a collection (after which an address may hold a moved or a new
// object).
type AccessBitmap struct {
	base uint32 // the main space's first address
	size uint32 // bytes of main space covered
	// recent holds, per slot, the object a cached barrier last saw
	// whose address maps to that slot (MarkCached); all 0 after a
	// collection
	recent [cacheSlots]uint32
	words  []uint64
	mem    *heap.Region
	// Executed counts the barriers run; CacheHits those of them that
	// found their object in the cache and did nothing else.
	Executed, CacheHits uint64
	// LoopSkips counts the cache hits that were barriers a loop skipped
	// after a whole iteration (the AOT engine's ssa.BarrierLoop), so
	// checked nothing at all.
	LoopSkips uint64
	// epoch counts the epochs ended (endEpoch): code that remembers it
	// with an object it marked knows, while it is unchanged, that the
	// object is marked still (Epoch)
	epoch uint64
	// Shadow, if set (EnableShadow), is the bitmap of the check
	// barriers: the same epochs and addresses, set by an unoptimised
	// barrier at every access point, to compare with.
	Shadow *AccessBitmap
}

// EnableShadow gives b a shadow bitmap, if it has none.
func (b *AccessBitmap) EnableShadow() {
	if b.Shadow == nil {
		b.Shadow = newAccessBitmap(b.base, b.size)
	}
}

// FirstDifference returns the first address, in address order, marked
// in exactly one of b and o, and whether there is one.
func (b *AccessBitmap) FirstDifference(o *AccessBitmap) (uint32, bool) {
	if b.base != o.base {
		return b.base, true
	}
	for w := range min(len(b.words), len(o.words)) {
		if x := b.words[w] ^ o.words[w]; x != 0 {
			return b.base + uint32(w*64+bits.TrailingZeros64(x))*heap.Alignment, true
		}
	}
	return 0, false
}

func newAccessBitmap(base, capacity uint32) *AccessBitmap {
	n := int((capacity/heap.Alignment + 63) / 64)
	if n == 0 {
		return &AccessBitmap{base: base}
	}
	r := heap.Reserve(8 * n)
	return &AccessBitmap{base: base, size: capacity, words: r.Uint64s(), mem: r}
}

// Mark is the barrier: it records an access to the object at a (null
// and objects outside the main space are ignored).
func (b *AccessBitmap) Mark(a uint32) {
	b.Executed++
	if off := a - b.base; off < b.size {
		i := off / heap.Alignment
		b.words[i/64] |= 1 << (i % 64)
	}
}

// cacheSlots is the number of objects the barriers' cache holds: the
// paper's one register misses on every loop over two or more arrays
// (SOR's three rows, sparse's three vectors), each access evicting the
// other's object; a few slots, direct-mapped by address, hold them all.
const (
	cacheBits  = 4
	cacheSlots = 1 << cacheBits
)

// cacheSlot is a's slot in the cache: Fibonacci hashing, since arrays of
// one size allocated in turn lie a fixed distance apart, which low
// address bits map to the same few slots (sparse's three vectors shared
// two with a/8 mod 16).
func cacheSlot(a uint32) uint32 { return (a * 0x9e3779b9) >> (32 - cacheBits) }

// MarkCached is Mark after the cache check (the paper's global register,
// with cacheSlots entries): nothing when a is the object the last cached
// barrier on an address of its slot saw in this epoch, so a is marked
// already.
func (b *AccessBitmap) MarkCached(a uint32) {
	e := &b.recent[cacheSlot(a)]
	if *e == a {
		b.Executed++
		b.CacheHits++
		return
	}
	*e = a
	b.Mark(a)
}

// Marked reports whether the object at a was accessed in this epoch.
func (b *AccessBitmap) Marked(a uint32) bool {
	off := a - b.base
	if off >= b.size {
		return false
	}
	i := off / heap.Alignment
	return b.words[i/64]&(1<<(i%64)) != 0
}

// Epoch identifies the current epoch: it changes at every collection,
// when the bitmap is cleared, and only then. An object marked while
// Epoch returned e is marked still, at the same address, as long as
// Epoch returns e (the AOT engine's loops rely on it to skip barriers
// across their entries).
func (b *AccessBitmap) Epoch() uint64 { return b.epoch }

// Base is the first address the bitmap covers (the main space's).
func (b *AccessBitmap) Base() uint32 { return b.base }

// Walk calls f with the address of every marked object, in address
// order.
func (b *AccessBitmap) Walk(f func(a uint32)) {
	for w, x := range b.words {
		for x != 0 {
			i := uint32(w*64 + bits.TrailingZeros64(x))
			f(b.base + i*heap.Alignment)
			x &= x - 1
		}
	}
}

// Bytes is the bitmap's size: the main space's capacity / 64.
func (b *AccessBitmap) Bytes() int { return 8 * len(b.words) }

// endEpoch clears the bits of [base, top) and the cache, and moves the
// bitmap to base (where the main space is for the next epoch).
func (b *AccessBitmap) endEpoch(top, base uint32) {
	if b.Shadow != nil {
		b.Shadow.endEpoch(top, base)
	}
	if top > b.base {
		n := int(((top-b.base)/heap.Alignment + 63) / 64)
		clear(b.words[:min(n, len(b.words))])
	}
	b.base = base
	clear(b.recent[:])
	b.epoch++
}
