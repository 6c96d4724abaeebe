package gc

import (
	"fmt"
	"slices"
	"time"

	"github.com/droidprof/droidprof/vm/heap"
)

// Runtime is what the collectors need to know of objects and roots; the
// VM implements it.
type Runtime interface {
	// SizeOf is the (unaligned) size of the object at a.
	SizeOf(a uint32) uint32
	// Scan calls f with the address of every reference slot of the
	// object at a, its class word first. With discover set, a
	// java.lang.ref.Reference is noted for ProcessReferences (its
	// referent is not among its slots).
	Scan(a uint32, discover bool, f func(slot uint32))
	// Roots calls f with every reference held outside the heap; a
	// moving collector stores the new address through p.
	Roots(f func(p *uint32))
	// ProcessReferences runs once marking is done: it keeps soft
	// referents unless clearSoft, clears the references noted by Scan
	// whose referents t did not reach, and updates the rest.
	ProcessReferences(t Tracer, clearSoft bool)
	// CheckObject says what is wrong with the header of the object at a,
	// or "" (for the verifier).
	CheckObject(a uint32) string
	// CheckRef says what is wrong with the live object at v as the value
	// of the reference slot at slot of the object at obj (its class does
	// not fit the field's or the array's declared type), or "" (for the
	// verifier).
	CheckRef(obj, slot, v uint32) string
	// DescribeRoot names the n-th root Roots visits (for the verifier).
	DescribeRoot(n int) string
}

// Tracer is the running collection, as reference processing sees it.
type Tracer interface {
	// Forward returns where the object at a is after the collection if
	// the collection has reached it, else 0.
	Forward(a uint32) uint32
	// Keep makes the object at a (and all it reaches) survive and
	// returns its address after the collection.
	Keep(a uint32) uint32
}

// Kind is a collection's extent, ART's GcType.
type Kind uint8

const (
	// Sticky collects only the objects allocated since the last
	// collection.
	Sticky Kind = iota + 1
	// Partial collects everything but the image and zygote spaces.
	Partial
	// Full collects everything but the image space.
	Full
)

func (k Kind) String() string {
	switch k {
	case Sticky:
		return "sticky"
	case Partial:
		return "partial"
	case Full:
		return "full"
	}
	return "none"
}

// Cause is why a collection ran (ART's GcCause names).
type Cause string

const (
	CauseAlloc      Cause = "Alloc"
	CauseExplicit   Cause = "Explicit"
	CauseBackground Cause = "Background"
	CauseStress     Cause = "Stress"
)

// Info describes a finished collection.
type Info struct {
	Count                       int
	Cause                       Cause
	Kind                        Kind
	Collector                   string   // ART's name, e.g. "sticky concurrent mark sweep"
	Spaces                      []string // the spaces the collection could free objects in
	FreedObjects, FreedBytes    uint64   // outside the large-object space
	FreedLarge, FreedLargeBytes uint64   // in it
	Live                        uint64   // bytes allocated after the collection
	Footprint                   uint64   // the target footprint after growing or trimming
	Pause, Duration             time.Duration
}

// AllocKind tells Alloc which space an object may go to.
type AllocKind uint8

const (
	// Movable objects go to the main space.
	Movable AllocKind = iota
	// LargeEligible objects (primitive arrays, Strings) go to the
	// large-object space when at least LargeThreshold bytes.
	LargeEligible
	// NonMoving objects (application Class objects) go to the
	// non-moving space.
	NonMoving
)

// Heap is the VM's garbage-collected heap: its spaces, its allocation
// paths, its collectors and its growth policy.
type Heap struct {
	cfg Config
	mem *heap.Heap
	rt  Runtime

	Image     *Space
	Zygote    *Space
	Main      *FreeList // the cms main space (nil under ss)
	NonMoving *FreeList
	Large     *LargeObjects
	semi      *semiSpace // the ss main space (nil under cms)

	cards *cardTable
	// allocStack lists the objects allocated since the last collection
	// (outside the image), which a sticky collection collects.
	allocStack []uint32
	sealed     bool

	allocated       uint64 // bytes in every space but the image
	targetFootprint uint64 // ART's target_footprint_ (max_allowed_footprint_)
	concurrentStart uint64 // allocations past this run a background collection
	nextKind        Kind
	stats           [Full + 1]kindStats
	count           int
	inGC            bool

	// Observers, all optional.
	OnStart func(count int)
	OnEnd   func(Info)
	OnFree  func(addr, size uint32)
	OnMove  func(from, to, size uint32)
	// OnAccesses sees the access bitmap (Config.AccessBitmap) at the
	// start of collection count, before it is cleared.
	OnAccesses func(count int, b *AccessBitmap)

	// Access is the access bitmap, nil unless Config.AccessBitmap.
	Access *AccessBitmap
}

// kindStats is what GrowForUtilization needs of past collections of a
// kind: their freed bytes and time, for their mean throughput.
type kindStats struct {
	runs  int
	freed uint64
	time  time.Duration
}

// New makes a heap for cfg (defaults applied and validated by the
// caller) over mem.
func New(cfg Config, mem *heap.Heap, rt Runtime) *Heap {
	h := &Heap{cfg: cfg, mem: mem, rt: rt,
		Image:     newImageSpace(),
		Zygote:    newZygoteSpace(),
		NonMoving: newNonMovingSpace(),
		Large:     newLargeObjects(min(cfg.Max, heap.LargeMax), mem),
		cards:     newCardTable(),
		nextKind:  Sticky,
	}
	if cfg.Collector == SS {
		h.semi = newSemiSpace(cfg.Max, mem)
		h.nextKind = Full
	} else {
		h.Main = newFreeList("main rosalloc space", heap.MainBase, cfg.Max)
	}
	if cfg.AccessBitmap {
		h.Access = newAccessBitmap(heap.MainBase, cfg.Max)
	}
	h.targetFootprint = uint64(cfg.Start)
	h.setConcurrentStart()
	return h
}

// Config returns the heap's configuration.
func (h *Heap) Config() Config { return h.cfg }

// Mem returns the heap's memory.
func (h *Heap) Mem() *heap.Heap { return h.mem }

// Allocated is the number of bytes held by objects outside the image
// that no collection has found dead.
func (h *Heap) Allocated() uint64 { return h.allocated }

// Footprint is the heap's target footprint: allocation beyond it needs a
// collection or growth.
func (h *Heap) Footprint() uint64 { return h.targetFootprint }

// GrowthLimit is the largest footprint the heap may grow to.
func (h *Heap) GrowthLimit() uint64 { return uint64(h.cfg.GrowthLimit) }

// Count is the number of collections so far.
func (h *Heap) Count() int { return h.count }

// TotalMemory is Runtime.totalMemory: the footprint, or what is
// allocated if more.
func (h *Heap) TotalMemory() uint64 { return max(h.targetFootprint, h.allocated) }

// FreeMemory is Runtime.freeMemory.
func (h *Heap) FreeMemory() uint64 { return h.TotalMemory() - h.allocated }

// StoreRef is the one write barrier: every reference stored into a heap
// object goes through it. It stores v in the slot at slot of the object
// at obj and dirties obj's card.
func (h *Heap) StoreRef(obj, slot, v uint32) {
	h.mem.SetU32(slot, v)
	h.cards.mark(obj)
}

// Alloc hands out zeroed memory for an object of size bytes, collecting
// and growing as ART does; 0 means the heap is exhausted (OOMMessage
// says why).
func (h *Heap) Alloc(size uint32, kind AllocKind) uint32 {
	size = heap.Align(size)
	// The fast path: under the background-collection threshold (which
	// is 0 during the zygote phase and under stress, sending every
	// allocation to the slow path).
	if kind == Movable && h.allocated+uint64(size) <= h.concurrentStart {
		var a uint32
		var ok bool
		if h.Main != nil {
			a, ok = h.Main.alloc(size)
		} else {
			a, ok = h.semi.alloc(size)
		}
		if ok {
			h.allocated += uint64(size)
			if h.Main != nil {
				h.mem.Clear(a, size)
				h.Main.Allocated += uint64(size)
				h.Main.Objects++
				h.allocStack = append(h.allocStack, a)
			}
			return a
		}
	}
	return h.allocSlow(size, kind)
}

func (h *Heap) allocSlow(size uint32, kind AllocKind) uint32 {
	if kind == LargeEligible && size < LargeThreshold {
		kind = Movable
	}
	switch {
	case h.inGC:
		panic("gc: allocation during a collection")
	case h.Main != nil && h.sealed && h.allocated+uint64(size) > h.concurrentStart:
		// ART requests a concurrent collection once the heap passes
		// concurrent_start_bytes; droidprof's collections stop the
		// world, so it runs here, before the allocation.
		h.collect(h.nextKind, CauseBackground, false)
	}
	if a, ok := h.try(size, kind, false); ok {
		return a
	}
	// ART's AllocateInternalWithGc: the next collection kind, then each
	// more thorough kind of the plan, then growth, then a full
	// collection that clears soft references.
	ran := h.nextKind
	h.collect(ran, CauseAlloc, false)
	if a, ok := h.try(size, kind, false); ok {
		return a
	}
	for _, k := range h.plan() {
		if k <= ran {
			continue
		}
		h.collect(k, CauseAlloc, false)
		ran = k
		if a, ok := h.try(size, kind, false); ok {
			return a
		}
	}
	if a, ok := h.try(size, kind, true); ok {
		return a
	}
	h.collect(Full, CauseAlloc, true)
	if a, ok := h.try(size, kind, true); ok {
		return a
	}
	return 0
}

// plan is the collector's GC plan: the kinds it runs, least thorough
// first.
func (h *Heap) plan() []Kind {
	if h.semi != nil {
		return []Kind{Full}
	}
	return []Kind{Sticky, Partial, Full}
}

// try allocates if the footprint allows it (ART's
// IsOutOfMemoryOnAllocation): never past the growth limit; past the
// target footprint only for a concurrent collector (cms, whose
// background collection catches up) or when grow is set.
func (h *Heap) try(size uint32, kind AllocKind, grow bool) (uint32, bool) {
	next := h.allocated + uint64(size)
	if next > h.targetFootprint {
		if next > uint64(h.cfg.GrowthLimit) {
			return 0, false
		}
		if h.Main == nil || !h.sealed {
			if !grow {
				return 0, false
			}
			h.targetFootprint = next
			h.setConcurrentStart()
		}
	}
	var a uint32
	var ok bool
	var sp *Space
	switch {
	case kind == NonMoving:
		sp = h.NonMoving.Space
		if a, ok = h.NonMoving.alloc(size); ok {
			h.mem.Clear(a, size)
		}
	case kind == LargeEligible:
		sp = h.Large.Space
		a, ok = h.Large.alloc(size)
		size = pages(size)
	case !h.sealed:
		sp = h.Zygote
		a, ok = h.allocZygote(size)
	case h.Main != nil:
		sp = h.Main.Space
		if a, ok = h.Main.alloc(size); ok {
			h.mem.Clear(a, size)
		}
	default:
		a, ok = h.semi.alloc(size)
	}
	if !ok {
		return 0, false
	}
	h.allocated += uint64(size)
	if sp != nil {
		sp.Allocated += uint64(size)
		sp.Objects++
		h.allocStack = append(h.allocStack, a)
	}
	return a, true
}

// OOMMessage is the detail of the OutOfMemoryError for a failed
// allocation of size bytes, in ART 11's words.
func (h *Heap) OOMMessage(size uint64) string {
	free := h.FreeMemory()
	untilOOM := uint64(0)
	if l := uint64(h.cfg.GrowthLimit); l > h.allocated {
		untilOOM = l - h.allocated
	}
	msg := fmt.Sprintf("Failed to allocate a %d byte allocation with %d free bytes and %s until OOM, target footprint %d, growth limit %d",
		size, free, Bytes(untilOOM), h.targetFootprint, h.cfg.GrowthLimit)
	if untilOOM >= size && h.Main != nil && size < LargeThreshold {
		msg += fmt.Sprintf("; failed due to fragmentation (largest possible contiguous allocation %d bytes)", h.Main.largestFree())
	}
	return msg
}

// spaceOf returns the space holding a (any address inside its reserved
// range), or nil.
func (h *Heap) spaceOf(a uint32) *Space {
	switch {
	case a < heap.MainBase:
		return nil
	case h.Main != nil && a < h.Main.Limit:
		return h.Main.Space
	case h.semi != nil && a >= h.semi.from.Base && a < h.semi.from.Limit:
		return h.semi.from
	case h.semi != nil && a >= h.semi.to.Base && a < h.semi.to.Limit:
		return h.semi.to
	case a >= heap.ImageBase && a < heap.ZygoteBase:
		return h.Image
	case a >= heap.ZygoteBase && a < heap.NonMovingBase:
		return h.Zygote
	case a >= heap.NonMovingBase && a < heap.LargeBase:
		return h.NonMoving.Space
	case a >= heap.LargeBase && a < h.Large.Limit:
		return h.Large.Space
	}
	return nil
}

// ImageBytes is the size of the image space's objects.
func (h *Heap) ImageBytes() uint64 { return h.Image.Allocated }

// Holds reports whether a lies in the allocated part of a space.
func (h *Heap) Holds(a uint32) bool {
	if s := h.spaceOf(a); s != nil {
		return s.Contains(a)
	}
	return false
}

// RefsStored is the write barrier for a bulk store of references into
// the object at obj (System.arraycopy, Object.clone).
func (h *Heap) RefsStored(obj uint32) { h.cards.mark(obj) }

// IsLive reports whether an object that no collection has found dead
// starts at a. It searches, so it is for tests and tools, not the
// collectors.
func (h *Heap) IsLive(a uint32) bool {
	if a%heap.Alignment != 0 {
		return false
	}
	if h.semi != nil && h.semi.from.Contains(a) {
		found := false
		h.semi.walk(h.semi.from, h.rt.SizeOf, func(o, _ uint32) { found = found || o == a })
		return found
	}
	s := h.spaceOf(a)
	if s == nil || !s.Contains(a) {
		return false
	}
	return s.live.test(a) || slices.Contains(h.allocStack, a)
}

// Walk calls f for every object outside the image that no collection
// has found dead, space by space (for tools and tests; not during a
// collection).
func (h *Heap) Walk(f func(addr uint32)) {
	for _, s := range h.spaces()[1:] {
		if h.semi != nil && s == h.semi.from {
			h.semi.walk(s, h.rt.SizeOf, func(a, _ uint32) { f(a) })
			continue
		}
		s.Walk(f)
	}
	for _, a := range h.allocStack {
		if s := h.spaceOf(a); s != nil && !s.live.test(a) {
			f(a)
		}
	}
}
