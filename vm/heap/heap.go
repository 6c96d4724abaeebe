// Package heap is the VM's raw object memory: one reserved range of
// simulated 32-bit addresses, laid out like ART's address map, read and
// written byte-addressed and little-endian. The spaces carved out of it,
// their allocators and the collectors live in package gc; this package
// knows neither objects nor classes.
//
// Address 0 is null and never allocated.
package heap

import (
	"encoding/binary"
	"syscall"
)

// ART's address map and the places of droidprof's other spaces in it. The
// main space starts at 0x12c00000 and the boot image is mapped at
// 0x70000000, as on a device; the zygote, non-moving and large-object
// spaces follow the image, and the semi-space collector's second
// semi-space comes last.
const (
	MainBase  = 0x12c00000
	ImageBase = 0x70000000
	// ImageMax bounds the image space, which holds the boot classes and
	// their literals.
	ImageMax      = 64 << 20
	ZygoteBase    = ImageBase + ImageMax
	ZygoteMax     = 64 << 20
	NonMovingBase = ZygoteBase + ZygoteMax
	// NonMovingMax is ART's kNonMovingSpaceCapacity.
	NonMovingMax = 64 << 20
	LargeBase    = NonMovingBase + NonMovingMax
	// LargeMax bounds the large-object space; the heap limit bounds it
	// further.
	LargeMax = 1 << 30
	// SemiBase is where the second semi-space of a copying main space
	// starts; it may be as large as the main space.
	SemiBase = LargeBase + LargeMax
	SemiMax  = 1 << 30
	// End is the first address after the reserved range.
	End = SemiBase + SemiMax
	// Alignment is kObjectAlignment: every object starts and ends on it.
	Alignment = 8
	// CardShift makes a card 128 bytes, as ART's card table does.
	CardShift = 7
)

// Heap is the memory of every address from MainBase up to End.
type Heap struct {
	arena   []byte
	regions []*Region // keeps the mappings behind the slices above alive
}

// New reserves the address range up to end (at most End). Pages cost
// nothing until touched.
func New(end uint32) *Heap {
	if end > End || end < MainBase {
		end = End
	}
	r := Reserve(int(end - MainBase))
	return &Heap{arena: r.Bytes(), regions: []*Region{r}}
}

// Align rounds size up to the object alignment.
func Align(size uint32) uint32 { return (size + Alignment - 1) &^ (Alignment - 1) }

// mem returns the memory starting at addr. Addresses outside the
// reserved range are a VM bug (or a forged reference) and panic with an
// index error, which the runtime turns into a VM error.
func (h *Heap) mem(addr uint32) []byte { return h.arena[addr-MainBase:] }

// Bytes returns n bytes of memory starting at addr.
func (h *Heap) Bytes(addr, n uint32) []byte { return h.mem(addr)[:n:n] }

// Clear zeroes n bytes at addr.
func (h *Heap) Clear(addr, n uint32) { clear(h.arena[addr-MainBase : addr-MainBase+n]) }

// Copy moves n bytes from src to dst (ranges may not overlap).
func (h *Heap) Copy(dst, src, n uint32) {
	copy(h.arena[dst-MainBase:dst-MainBase+n], h.arena[src-MainBase:src-MainBase+n])
}

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

// SetU32 writes a little-endian 32-bit value. References are stored with
// gc.Heap.StoreRef instead, which keeps the card table.
func (h *Heap) SetU32(addr uint32, v uint32) { binary.LittleEndian.PutUint32(h.mem(addr), v) }

// SetU64 writes a little-endian 64-bit value.
func (h *Heap) SetU64(addr uint32, v uint64) { binary.LittleEndian.PutUint64(h.mem(addr), v) }

// Release gives the pages wholly inside [addr, addr+n) back to the
// kernel (they read as zeros afterwards), as ART does for the memory a
// collection frees at the end of a space. Ranges under 64 KiB are not
// worth the system call.
func (h *Heap) Release(addr, n uint32) {
	const page = 4096
	lo := (addr + page - 1) &^ (page - 1)
	hi := (addr + n) &^ (page - 1)
	if hi <= lo || hi-lo < 64<<10 {
		return
	}
	_ = syscall.Madvise(h.arena[lo-MainBase:hi-MainBase], syscall.MADV_DONTNEED)
}
