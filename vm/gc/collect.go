package gc

import (
	"fmt"
	"time"
)

// Collect runs a collection for cause: an explicit one (System.gc) is
// the plan's most thorough kind, as in ART.
func (h *Heap) Collect(cause Cause) {
	h.collect(Full, cause, false)
}

// collect runs one stop-the-world collection of kind k (or the closest
// the collector and the heap's state allow) and applies the growth
// policy. The caller holds the VM's global lock, so every thread's
// references are in its roots.
func (h *Heap) collect(k Kind, cause Cause, clearSoft bool) {
	if h.semi != nil {
		k = Full
	} else if k == Partial && !h.sealed {
		k = Full // no zygote space yet: partial is full (ART's rule)
	}
	start := time.Now()
	h.inGC = true
	defer func() { h.inGC = false }()
	h.count++
	if h.OnStart != nil {
		h.OnStart(h.count)
	}
	h.endAccessEpoch()
	if h.cfg.Verify {
		h.mustVerify("before")
	}
	before := h.allocated
	var info Info
	if h.semi != nil {
		info = h.semiSpaceCollect(clearSoft)
		info.Collector = "semispace"
	} else {
		info = h.markSweep(k, clearSoft)
		info.Collector = map[Kind]string{Sticky: "sticky concurrent mark sweep", Partial: "partial concurrent mark sweep", Full: "concurrent mark sweep"}[k]
	}
	// Every object that survived is old now: references from it to
	// younger ones will dirty its card afresh.
	// (The semi-space collector does not read cards.)
	if h.semi == nil {
		for _, s := range h.spaces() {
			h.cards.clearRange(s.Base, s.Top)
		}
	}
	if h.cfg.Verify {
		h.mustVerify("after")
	}
	d := time.Since(start)
	h.grow(k, before-h.allocated, d)
	info.Count, info.Cause, info.Kind = h.count, cause, k
	info.Spaces = h.collected(k)
	info.Live, info.Footprint = h.allocated, h.targetFootprint
	info.Pause, info.Duration = d, d
	if h.OnEnd != nil {
		h.OnEnd(info)
	}
}

// endAccessEpoch shows the access bitmap to OnAccesses and clears it for
// the next epoch, moving it to where the main space will be (under ss,
// the half this collection copies into).
func (h *Heap) endAccessEpoch() {
	b := h.Access
	if b == nil {
		return
	}
	if h.OnAccesses != nil {
		h.OnAccesses(h.count, b)
	}
	if h.semi != nil {
		b.endEpoch(h.semi.from.Top, h.semi.to.Base)
	} else {
		b.endEpoch(h.Main.Space.Top, b.base)
	}
}

// collected names the spaces a collection of kind k may free objects in:
// the image never, the zygote space in full collections only.
func (h *Heap) collected(k Kind) []string {
	var names []string
	for _, s := range h.spaces() {
		if s.Retention == AlwaysCollect || s.Retention == FullCollect && k == Full {
			names = append(names, s.Name)
		}
	}
	return names
}

// spaces lists the spaces in use, the image first.
func (h *Heap) spaces() []*Space {
	l := []*Space{h.Image, h.Zygote}
	if h.Main != nil {
		l = append(l, h.Main.Space)
	} else {
		l = append(l, h.semi.from)
	}
	return append(l, h.NonMoving.Space, h.Large.Space)
}

func (h *Heap) mustVerify(when string) {
	if err := h.Verify(); err != nil {
		panic(VerifyError{fmt.Errorf("heap verification %s collection %d: %w", when, h.count, err)})
	}
}

// VerifyError is the panic value of a failed heap verification, which the
// runtime reports as the VM's failure.
type VerifyError struct{ Err error }

func (e VerifyError) Error() string { return e.Err.Error() }

func (e VerifyError) Unwrap() error { return e.Err }
