package gc

import "time"

// minConcurrentRemaining is ART's kMinConcurrentRemainingBytes, the
// lower bound of the bytes left between the start of a concurrent
// collection and the target footprint.
const minConcurrentRemaining = 128 << 10

// ForegroundHeapGrowthMultiplier is ART's kDefaultHeapGrowthMultiplier
// for an app in the foreground: free space after a collection is scaled
// by it.
const ForegroundHeapGrowthMultiplier = 2.0

// Growth is ART's Heap::GrowForUtilization, separated from the heap so
// that it can be checked on its own. It returns the new target footprint
// and the next collection kind after a collection of kind k that left
// allocated bytes, given the target footprint before it, whether a
// zygote space exists and whether sticky collection pays (throughput of
// this sticky collection at least the mean of the non-sticky ones, and
// a non-sticky one has run before).
func Growth(cfg Config, k Kind, allocated, footprint uint64, haveZygote, stickyPays bool) (target uint64, next Kind) {
	mult := ForegroundHeapGrowthMultiplier
	maxFree := uint64(float64(cfg.MaxFree) * mult)
	if k != Sticky {
		delta := uint64(float64(allocated)/cfg.TargetUtilization) - allocated
		delta = min(max(delta, uint64(cfg.MinFree)), uint64(cfg.MaxFree))
		target = allocated + uint64(float64(delta)*mult)
		next = Sticky
	} else {
		if stickyPays && allocated <= footprint {
			next = Sticky
		} else if haveZygote {
			next = Partial
		} else {
			next = Full
		}
		if allocated+maxFree < footprint {
			target = allocated + maxFree
		} else {
			target = max(allocated, footprint)
		}
	}
	// SetIdealFootprint: never past the growth limit.
	return min(target, uint64(cfg.GrowthLimit)), next
}

// throughput is ART's estimated throughput: bytes freed per second,
// with durations in whole milliseconds plus one.
func throughput(freed uint64, d time.Duration) uint64 {
	return freed * 1000 / uint64(d.Milliseconds()+1)
}

// grow applies Growth after a collection.
func (h *Heap) grow(k Kind, freed uint64, d time.Duration) {
	s := &h.stats[k]
	s.runs++
	s.freed += freed
	s.time += d
	pays := false
	if k == Sticky {
		var mean uint64
		var runs int
		var nsFreed uint64
		var nsTime time.Duration
		for _, o := range []Kind{Partial, Full} {
			runs += h.stats[o].runs
			nsFreed += h.stats[o].freed
			nsTime += h.stats[o].time
		}
		if runs > 0 {
			mean = throughput(nsFreed, nsTime)
			pays = throughput(freed, d) >= mean
		}
	}
	h.targetFootprint, h.nextKind = Growth(h.cfg, k, h.allocated, h.targetFootprint, h.sealed, pays)
	if h.semi != nil {
		h.nextKind = Full
	}
	h.setConcurrentStart()
}

// setConcurrentStart sets the allocation volume at which the next
// background collection runs: the target footprint less the bytes a
// concurrent collection needs to finish (none are allocated during
// droidprof's stop-the-world collections, so ART's lower bound). ART's
// mutators go on allocating while a concurrent collection runs; so that
// a heap whose live set fills its footprint does not collect at every
// allocation here, the next background collection waits for at least
// that many more bytes (and the allocations past the footprint then make
// the next collection a partial one, as in ART). Under ss, which is not
// concurrent, it is the target footprint itself; in the zygote phase, 0, so that
// every allocation takes the slow path.
func (h *Heap) setConcurrentStart() {
	switch {
	case !h.sealed:
		h.concurrentStart = 0
	case h.Main == nil:
		h.concurrentStart = h.targetFootprint
	default:
		remaining := uint64(minConcurrentRemaining)
		if remaining > h.targetFootprint {
			remaining = min(minConcurrentRemaining, h.targetFootprint)
		}
		h.concurrentStart = max(h.targetFootprint-remaining, h.allocated+remaining)
	}
}
