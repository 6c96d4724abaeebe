package vm

import (
	"fmt"
	"time"

	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
)

// GCLogLine formats a finished collection as ART's Heap::LogGC writes it
// to logcat (Android 11), which is what dalvikvm -verbose:gc prints:
//
//	Explicit concurrent mark sweep GC freed 1234(56KB) AllocSpace objects, 0(0B) LOS objects, 40% free, 9216KB/15MB, paused 1.200ms total 12.345ms
//
// Sizes are PrettySize's, durations PrettyDuration's of the time cut to
// whole microseconds, and the free percentage is ART's GetPercentFree:
// the footprint's free share, computed in float and truncated.
func GCLogLine(g runtime.GCInfo) string {
	total := max(g.Footprint, g.Live) // Runtime.totalMemory
	pct := 0
	if g.Footprint > 0 {
		pct = int(float32(100) * float32(total-g.Live) / float32(g.Footprint))
	}
	allocBytes := g.Freed - min(g.FreedLargeBytes, g.Freed)
	return fmt.Sprintf("%s %s GC freed %d(%s) AllocSpace objects, %d(%s) LOS objects, %d%% free, %s/%s, paused %s total %s",
		g.Cause, g.Collector, g.FreedObjects, gc.Bytes(allocBytes), g.FreedLargeObjects, gc.Bytes(g.FreedLargeBytes),
		pct, gc.Bytes(g.Live), gc.Bytes(total), prettyDuration(g.Pause.Truncate(time.Microsecond)), prettyDuration(g.Duration.Truncate(time.Microsecond)))
}

// prettyDuration is ART's PrettyDuration with its default three fraction
// digits: the largest unit (s, ms, us, ns) the duration reaches, the
// fraction written with its leading zeros and cut, not rounded, to three
// digits ("1.500ms", "227us", "2.001s"); zero is "0", without a unit.
func prettyDuration(d time.Duration) string {
	ns := uint64(max(d, 0))
	if ns == 0 {
		return "0"
	}
	unit, div := "ns", uint64(1)
	switch {
	case ns >= 1e9:
		unit, div = "s", 1e9
	case ns >= 1e6:
		unit, div = "ms", 1e6
	case ns >= 1e3:
		unit, div = "us", 1e3
	}
	whole, frac := ns/div, ns%div
	if frac == 0 {
		return fmt.Sprintf("%d%s", whole, unit)
	}
	// The fraction as div's digits, zero-padded: frac/div = 0.ddd...
	width := len(fmt.Sprint(div)) - 1
	digits := fmt.Sprintf("%0*d", width, frac)
	return fmt.Sprintf("%d.%s%s", whole, digits[:min(3, len(digits))], unit)
}
