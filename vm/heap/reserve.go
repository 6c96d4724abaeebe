package heap

import (
	"runtime"
	"syscall"
	"unsafe"
)

// Region is zeroed memory reserved from the kernel with mmap. Pages cost
// nothing until touched, so a VM can reserve its whole heap-max (and
// thread stacks) up front and still start in microseconds; Go's make
// would zero or fault in all of it.
type Region struct {
	mem []byte
}

// Reserve maps n bytes of zeroed memory. The mapping is released when the
// Region becomes unreachable, so whoever uses the memory must keep the
// Region: slices of it do not keep it alive.
func Reserve(n int) *Region {
	if n == 0 {
		return &Region{}
	}
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		// No address space left for a mapping: fall back to the Go
		// heap, which fails loudly if memory is really exhausted.
		return &Region{mem: make([]byte, n)}
	}
	r := &Region{mem: mem}
	runtime.AddCleanup(r, func(m []byte) { syscall.Munmap(m) }, mem)
	return r
}

// Bytes returns the region's memory.
func (r *Region) Bytes() []byte { return r.mem }

// Words returns the region as 32-bit words.
func (r *Region) Words() []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(r.mem))), len(r.mem)/4)
}

// Uint64s returns the region as 64-bit words.
func (r *Region) Uint64s() []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(r.mem))), len(r.mem)/8)
}

// Bools returns the region as bools.
func (r *Region) Bools() []bool {
	return unsafe.Slice((*bool)(unsafe.Pointer(unsafe.SliceData(r.mem))), len(r.mem))
}
