// Package clock is the VM's time source: monotonic nanoseconds that cost
// as little as the hardware allows, because profilers read it twice per
// method call and every nanosecond they spend there is overhead they must
// later deduct.
//
// On amd64, when the kernel itself keeps time with the TSC (it does so only
// after checking that the counter is invariant and synchronised between
// CPUs), Now reads the TSC with one instruction and scales it; a vDSO
// clock_gettime costs about three times as much on the machines we
// measured (vm/BENCHMARKS.md). Elsewhere Now is the runtime's monotonic
// clock.
package clock

import (
	"math/bits"
	"os"
	"strings"
	"sync"
	"time"
)

// origin is the zero of Now for the fallback clock.
var origin = time.Now()

// The counter's scale once Init has found it usable: ns = (ticks -
// tscBase) * tscMult >> 32 + tscOffset, tscOffset being the fallback clock's
// reading at tscBase, so both clocks share origin. (Separate variables,
// because tscNow reads them from assembly.)
var (
	tscBase, tscMult uint64
	tscOffset        int64
)

// useTSC is set once Init has found the TSC usable. Now is one direct
// call to read, which tests it (in assembly on amd64) and falls back to
// monotonic: the earlier call through a function variable cost the method
// hooks' clock read more (plugins/dpa/BENCHMARKS.md), and a test and a
// call in Now itself would keep Now from being inlined.
var useTSC bool

var initOnce sync.Once

// Init decides the time source. It is called by every VM before it reads
// the clock; until then Now uses the fallback. Deciding for the TSC takes
// about a millisecond of calibration, once per process.
func Init() {
	initOnce.Do(func() {
		if !hasTSC || !kernelUsesTSC() {
			return
		}
		calibrate()
	})
}

// calibrationWindow is how long the TSC is compared with the monotonic
// clock to find its frequency: each end is read to within a few tens of
// nanoseconds, so the frequency is known to about 1e-4.
const calibrationWindow = time.Millisecond

func calibrate() {
	// Each end pairs a TSC read with a clock read; the pair that took
	// least time brackets its clock read best.
	pair := func() (uint64, int64) {
		var bestT uint64
		var bestN int64
		bestGap := uint64(1<<64 - 1)
		for i := 0; i < 8; i++ {
			t0 := rdtsc()
			n := int64(time.Since(origin))
			t1 := rdtsc()
			if t1-t0 < bestGap {
				bestGap, bestT, bestN = t1-t0, t0+(t1-t0)/2, n
			}
		}
		return bestT, bestN
	}
	t0, n0 := pair()
	for int64(time.Since(origin))-n0 < int64(calibrationWindow) {
	}
	t1, n1 := pair()
	if t1 <= t0 || n1 <= n0 {
		return
	}
	// mult = 2^32 ns per tick, as a 32.32 fixed-point number.
	hi, lo := bits.Mul64(uint64(n1-n0), 1<<32)
	mult, _ := bits.Div64(hi, lo, t1-t0)
	tscBase, tscMult, tscOffset = t0, mult, n0
	useTSC = true
}

// kernelUsesTSC reports whether the kernel's clocksource is the TSC.
func kernelUsesTSC() bool {
	b, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
	return err == nil && strings.TrimSpace(string(b)) == "tsc"
}

// Now is the time in nanoseconds since the process started.
func Now() int64 { return read() }

// monotonic is Now without the TSC.
func monotonic() int64 { return int64(time.Since(origin)) }

// Source names the time source in use, for reports: "tsc" or "monotonic".
func Source() string {
	if tscMult != 0 {
		return "tsc"
	}
	return "monotonic"
}
