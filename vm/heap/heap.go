// Package heap is the VM's object memory: simulated spaces at real 32-bit
// addresses laid out like ART's (an image space for boot objects, a main
// space for everything else), byte-addressed object storage, a non-moving
// free-list allocator and the bitmaps a mark-sweep collector needs.
//
// The heap knows bytes and addresses, not classes: the runtime tells it an
// object's size and references through callbacks when it collects. Address 0
// is null and never allocated.
package heap

import (
	"encoding/binary"
	"math/bits"
)

// ART's address map: the boot image is mapped at 0x70000000 and the main
// (moving or malloc) space starts at 0x12c00000.
const (
	ImageBase = 0x70000000
	MainBase  = 0x12c00000
	// Alignment is kObjectAlignment: every object starts and ends on it.
	Alignment = 8
	// ImageMax bounds the image space, which holds the boot classes and
	// their literals.
	ImageMax = 64 << 20
)

// Space is one contiguous range of simulated memory.
type Space struct {
	Name string
	Base uint32 // address of Mem[0]
	Mem  []byte
	Top  uint32 // bump pointer: the address after the last byte ever handed out
}

// Contains reports whether addr lies in the space's allocated range.
func (s *Space) Contains(addr uint32) bool { return addr >= s.Base && addr < s.Top }

// Heap holds the spaces and the main space's allocation state.
type Heap struct {
	Image *Space
	Main  *Space
	// Max is the heap limit (heap-max): bytes of live objects in the main
	// space may not exceed it.
	Max uint32
	// Allocated counts bytes of objects in the main space that have not
	// been found dead by a collection.
	Allocated uint64

	live []uint64 // one bit per Alignment bytes of the main space: an object starts here
	mark []uint64

	arena   []byte    // memory of every address from MainBase on
	regions []*Region // keeps the mappings behind the slices above alive

	small [smallClasses][]uint32 // free blocks of exactly (i+1)*Alignment bytes
	full  uint32                 // bit i set: small[i] is not empty
	large []block                // free blocks larger than that
}

const smallClasses = 32 // blocks up to 256 bytes have exact-size lists

type block struct{ addr, size uint32 }

// New makes a heap whose main space may grow to max bytes.
func New(max uint32) *Heap {
	max = (max + Alignment - 1) &^ (Alignment - 1)
	words := int((max/Alignment + 63) / 64)
	// One mapping spans both spaces, so that turning an address into
	// memory is a subtraction, not a search; the pages between them are
	// never touched.
	arena := Reserve(ImageBase + ImageMax - MainBase)
	live, mark := Reserve(8*words), Reserve(8*words)
	mem := arena.Bytes()
	return &Heap{
		Image:   &Space{Name: "image", Base: ImageBase, Mem: mem[ImageBase-MainBase:], Top: ImageBase},
		Main:    &Space{Name: "main", Base: MainBase, Mem: mem[:max:max], Top: MainBase},
		Max:     max,
		arena:   mem,
		live:    live.Uint64s(),
		mark:    mark.Uint64s(),
		regions: []*Region{arena, live, mark},
	}
}

// Align rounds size up to the object alignment.
func Align(size uint32) uint32 { return (size + Alignment - 1) &^ (Alignment - 1) }

// AllocImage hands out zeroed memory in the image space (never freed).
func (h *Heap) AllocImage(size uint32) (uint32, bool) {
	size = Align(size)
	s := h.Image
	if uint64(s.Top-s.Base)+uint64(size) > uint64(len(s.Mem)) {
		return 0, false
	}
	a := s.Top
	s.Top += size
	return a, true
}

// Alloc hands out size bytes of zeroed memory in the main space, or
// reports false when the heap limit or fragmentation leaves no room; the
// caller then collects and retries, and finally throws OutOfMemoryError.
func (h *Heap) Alloc(size uint32) (uint32, bool) {
	size = Align(size)
	if h.Allocated+uint64(size) > uint64(h.Max) {
		return 0, false
	}
	a, ok := h.take(size)
	if !ok {
		return 0, false
	}
	clear(h.Main.Mem[a-MainBase : a-MainBase+size])
	i := (a - MainBase) / Alignment
	h.live[i/64] |= 1 << (i % 64)
	h.Allocated += uint64(size)
	return a, true
}

// take finds a free block: the exact-size list, the large blocks (first
// fit), a bigger small block, and only then fresh memory, so freed space is
// reused before the heap grows.
func (h *Heap) take(size uint32) (uint32, bool) {
	c := size/Alignment - 1
	if c < smallClasses && h.full&(1<<c) != 0 {
		return h.pop(c), true
	}
	for i := range h.large {
		b := &h.large[i]
		if b.size >= size {
			a := b.addr
			rest := block{b.addr + size, b.size - size}
			h.large[i] = h.large[len(h.large)-1]
			h.large = h.large[:len(h.large)-1]
			h.release(rest)
			return a, true
		}
	}
	if c < smallClasses {
		if bigger := h.full >> (c + 1); bigger != 0 {
			k := c + 1 + uint32(bits.TrailingZeros32(bigger))
			a := h.pop(k)
			h.release(block{a + size, (k+1)*Alignment - size})
			return a, true
		}
	}
	s := h.Main
	if uint64(s.Top-s.Base)+uint64(size) <= uint64(len(s.Mem)) {
		a := s.Top
		s.Top += size
		return a, true
	}
	return 0, false
}

func (h *Heap) pop(c uint32) uint32 {
	l := h.small[c]
	a := l[len(l)-1]
	h.small[c] = l[:len(l)-1]
	if len(l) == 1 {
		h.full &^= 1 << c
	}
	return a
}

func (h *Heap) release(b block) {
	if b.size == 0 {
		return
	}
	if c := b.size/Alignment - 1; c < smallClasses {
		h.small[c] = append(h.small[c], b.addr)
		h.full |= 1 << c
		return
	}
	h.large = append(h.large, b)
}

// Free is the number of bytes that can still be allocated before the
// limit.
func (h *Heap) Free() uint64 { return uint64(h.Max) - h.Allocated }

// mem returns the space memory starting at addr. Addresses outside both
// spaces are a VM bug (or a forged reference) and panic with an index
// error, which the runtime turns into a VM error.
func (h *Heap) mem(addr uint32) []byte { return h.arena[addr-MainBase:] }

// Bytes returns n bytes of memory starting at addr.
func (h *Heap) Bytes(addr, n uint32) []byte { return h.mem(addr)[:n:n] }

// U8 reads a byte.
func (h *Heap) U8(addr uint32) uint8 { return h.mem(addr)[0] }

// U16 reads a little-endian 16-bit value.
func (h *Heap) U16(addr uint32) uint16 { return binary.LittleEndian.Uint16(h.mem(addr)) }

// U32 reads a little-endian 32-bit value.
func (h *Heap) U32(addr uint32) uint32 { return binary.LittleEndian.Uint32(h.mem(addr)) }

// U64 reads a little-endian 64-bit value.
func (h *Heap) U64(addr uint32) uint64 { return binary.LittleEndian.Uint64(h.mem(addr)) }

// SetU8 writes a byte.
func (h *Heap) SetU8(addr uint32, v uint8) { h.mem(addr)[0] = v }

// SetU16 writes a little-endian 16-bit value.
func (h *Heap) SetU16(addr uint32, v uint16) { binary.LittleEndian.PutUint16(h.mem(addr), v) }

// SetU32 writes a little-endian 32-bit value.
func (h *Heap) SetU32(addr uint32, v uint32) { binary.LittleEndian.PutUint32(h.mem(addr), v) }

// SetU64 writes a little-endian 64-bit value.
func (h *Heap) SetU64(addr uint32, v uint64) { binary.LittleEndian.PutUint64(h.mem(addr), v) }

// InImage reports whether addr is in the image space.
func (h *Heap) InImage(addr uint32) bool { return addr >= ImageBase }

// Valid reports whether addr could be an object start: aligned and inside
// the allocated part of a space.
func (h *Heap) Valid(addr uint32) bool {
	if addr%Alignment != 0 {
		return false
	}
	if h.Image.Contains(addr) {
		return true
	}
	if !h.Main.Contains(addr) {
		return false
	}
	i := (addr - MainBase) / Alignment
	return h.live[i/64]&(1<<(i%64)) != 0
}

// Mark sets addr's mark bit and reports whether it was clear, i.e. the
// object still has to be scanned. Image objects are never marked: the
// collector treats the whole image space as a root.
func (h *Heap) Mark(addr uint32) bool {
	if addr >= ImageBase {
		return false
	}
	i := (addr - MainBase) / Alignment
	w, b := i/64, uint64(1)<<(i%64)
	if h.mark[w]&b != 0 {
		return false
	}
	h.mark[w] |= b
	return true
}

// Marked reports whether addr is marked in the current collection (image
// objects always count as marked: they are never collected).
func (h *Heap) Marked(addr uint32) bool {
	if addr >= ImageBase {
		return true
	}
	i := (addr - MainBase) / Alignment
	return h.mark[i/64]&(1<<(i%64)) != 0
}

// Sweep ends a collection: every object allocated but not marked is
// dead. dead is called for each (in address order) with its size, which
// sizeOf computes from the object's header. The free memory between live
// objects becomes the new free lists, so neighbouring dead objects
// coalesce. It returns the number of bytes freed.
func (h *Heap) Sweep(sizeOf func(addr uint32) uint32, dead func(addr, size uint32)) uint64 {
	for i := range h.small {
		h.small[i] = h.small[i][:0]
	}
	h.full = 0
	h.large = h.large[:0]
	var freed, liveBytes uint64
	gapStart := uint32(MainBase)
	limit := (h.Main.Top - MainBase) / Alignment
	for w := uint32(0); w*64 < limit; w++ {
		l, m := h.live[w], h.mark[w]
		for d := l &^ m; d != 0; d &= d - 1 {
			a := MainBase + (w*64+uint32(bits.TrailingZeros64(d)))*Alignment
			sz := Align(sizeOf(a))
			freed += uint64(sz)
			if dead != nil {
				dead(a, sz)
			}
		}
		for m != 0 {
			a := MainBase + (w*64+uint32(bits.TrailingZeros64(m)))*Alignment
			m &= m - 1
			if a > gapStart {
				h.release(block{gapStart, a - gapStart})
			}
			sz := Align(sizeOf(a))
			liveBytes += uint64(sz)
			gapStart = a + sz
		}
		h.live[w] = h.mark[w]
		h.mark[w] = 0
	}
	// The gap after the last live object goes back to fresh memory.
	h.Main.Top = gapStart
	h.Allocated = liveBytes
	return freed
}

// WalkImage calls f for every object in the image space, which is
// allocated by bumping only, so objects follow each other.
func (h *Heap) WalkImage(sizeOf func(addr uint32) uint32, f func(addr uint32)) {
	for a := uint32(ImageBase); a < h.Image.Top; a += Align(sizeOf(a)) {
		f(a)
	}
}
