package clock

import (
	"testing"
	"time"
)

// TestNowKeepsTime compares Now with the runtime's monotonic clock over a
// busy interval: the TSC's calibrated frequency must be right to 0.1 %.
func TestNowKeepsTime(t *testing.T) {
	Init()
	t.Logf("source %s", Source())
	const window = 20 * time.Millisecond
	n0, m0 := Now(), time.Now()
	for time.Since(m0) < window {
	}
	n1, m1 := Now(), time.Now()
	got, want := n1-n0, m1.Sub(m0).Nanoseconds()
	if d := float64(got-want) / float64(want); d > 1e-3 || d < -1e-3 {
		t.Errorf("Now advanced %d ns while the monotonic clock advanced %d ns (%.2g relative)", got, want, d)
	}
	if now, since := Now(), int64(time.Since(origin)); now-since > int64(time.Millisecond) || since-now > int64(time.Millisecond) {
		t.Errorf("Now = %d, but the process started %d ns ago", now, since)
	}
}

// TestReadFallback reads the clock the way it is read before Init has
// chosen the TSC (or when it cannot): read must fall back to monotonic.
func TestReadFallback(t *testing.T) {
	Init()
	saved := useTSC
	useTSC = false
	defer func() { useTSC = saved }()
	before := monotonic()
	got := Now()
	after := monotonic()
	if got < before || got > after {
		t.Errorf("Now = %d without the TSC, outside the monotonic reads around it [%d, %d]", got, before, after)
	}
}

func TestNowIsMonotonic(t *testing.T) {
	Init()
	prev := Now()
	for i := 0; i < 1_000_000; i++ {
		now := Now()
		if now < prev {
			t.Fatalf("read %d went back from %d to %d", i, prev, now)
		}
		prev = now
	}
}

var sink int64

func BenchmarkNow(b *testing.B) {
	Init()
	for b.Loop() {
		sink += Now()
	}
}

// BenchmarkMonotonic is the runtime's clock, for comparison.
func BenchmarkMonotonic(b *testing.B) {
	for b.Loop() {
		sink += int64(time.Since(origin))
	}
}
