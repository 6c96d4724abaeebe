package gc

import "github.com/droidprof/droidprof/vm/heap"

// The zygote space holds the objects made while the VM boots and
// preloads (before the application's main class is loaded), as Android's
// zygote does before it forks an app. Until Seal, it is where ordinary
// allocations go (a bump pointer); Seal freezes it, like the zygote
// fork: from then on nothing is allocated there, sticky and partial
// collections treat it as immune (its objects are roots) and only a full
// collection frees its dead objects. Nothing in it moves.
func newZygoteSpace() *Space {
	return newSpace("zygote", heap.ZygoteBase, heap.ZygoteMax, FullCollect)
}

// Seal ends the zygote phase: later allocations go to the main space.
func (h *Heap) Seal() {
	if h.sealed {
		return
	}
	h.sealed = true
	// What the zygote phase allocated is the zygote space's now: no
	// longer young, collected only by full collections.
	young := h.allocStack[:0]
	for _, a := range h.allocStack {
		if h.Zygote.Contains(a) {
			h.Zygote.live.set(a)
		} else {
			young = append(young, a)
		}
	}
	h.allocStack = young
	h.setConcurrentStart()
}

// Sealed reports whether the zygote phase is over.
func (h *Heap) Sealed() bool { return h.sealed }

func (h *Heap) allocZygote(size uint32) (uint32, bool) {
	a, ok := h.Zygote.bump(size)
	if !ok {
		return 0, false
	}
	h.mem.Clear(a, size)
	return a, true
}
