package vm

import (
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm/runtime"
)

// TestGCLogLine checks the -verbose:gc line against lines written out by
// hand from ART's Heap::LogGC, PrettySize and PrettyDuration.
func TestGCLogLine(t *testing.T) {
	const K, M = 1 << 10, 1 << 20
	for _, tc := range []struct {
		g    runtime.GCInfo
		want string
	}{
		{runtime.GCInfo{Cause: "Explicit", Collector: "concurrent mark sweep", FreedObjects: 1234, Freed: 56*K + 100,
			Live: 12 * M, Footprint: 20 * M, Pause: 1200*time.Microsecond + 345, Duration: 12345678},
			"Explicit concurrent mark sweep GC freed 1234(56KB) AllocSpace objects, 0(0B) LOS objects, 40% free, 12MB/20MB, paused 1.200ms total 12.345ms"},
		// AllocSpace bytes are the freed bytes outside the large-object space.
		{runtime.GCInfo{Cause: "Alloc", Collector: "semispace", FreedObjects: 10, FreedLargeObjects: 2, FreedLargeBytes: 3 * M, Freed: 3*M + 512,
			Live: 5000, Footprint: 2 * M, Pause: 227999, Duration: 2*time.Second + time.Millisecond + 999},
			"Alloc semispace GC freed 10(512B) AllocSpace objects, 2(3072KB) LOS objects, 99% free, 5000B/2048KB, paused 227us total 2.001s"},
		// More allocated than the footprint: totalMemory is the allocation, nothing is free.
		{runtime.GCInfo{Cause: "Background", Collector: "sticky concurrent mark sweep", Live: 3 * M, Footprint: 2 * M, Pause: 999, Duration: 1500},
			"Background sticky concurrent mark sweep GC freed 0(0B) AllocSpace objects, 0(0B) LOS objects, 0% free, 3072KB/3072KB, paused 0 total 1us"},
	} {
		if got := GCLogLine(tc.g); got != tc.want {
			t.Errorf("GCLogLine(%+v)\n got %s\nwant %s", tc.g, got, tc.want)
		}
	}
}

// TestPrettyDuration checks ART's PrettyDuration: the unit the duration
// reaches, the fraction zero-padded and cut to three digits.
func TestPrettyDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0"},
		{999, "999ns"},
		{1000, "1us"},
		{1500, "1.500us"},
		{1000500, "1.000ms"},
		{1005000, "1.005ms"},
		{123456789, "123.456ms"},
		{61 * time.Second, "61s"},
		{time.Second + 50*time.Millisecond, "1.050s"},
	} {
		if got := prettyDuration(tc.d); got != tc.want {
			t.Errorf("prettyDuration(%d) = %s, want %s", tc.d, got, tc.want)
		}
	}
}
