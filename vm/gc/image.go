package gc

import "github.com/droidprof/droidprof/vm/heap"

// The image space holds what ART's boot.art holds: the boot classes'
// Class objects (with their statics) and the strings they intern. It is
// laid out once, while the VM boots, and never collected or moved; its
// objects are roots of every collection (ART keeps a mod-union table
// for them; droidprof scans the whole image, or only its dirty cards for
// a sticky collection).
func newImageSpace() *Space {
	return newSpace("image", heap.ImageBase, heap.ImageMax, NeverCollect)
}

// AllocImage hands out zeroed memory in the image space.
func (h *Heap) AllocImage(size uint32) (uint32, bool) {
	size = heap.Align(size)
	a, ok := h.Image.bump(size)
	if !ok {
		return 0, false
	}
	h.Image.live.set(a)
	h.Image.Allocated += uint64(size)
	h.Image.Objects++
	return a, true
}
