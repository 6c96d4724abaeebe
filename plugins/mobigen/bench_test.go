package mobigen

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/droidprof/droidprof/storage/cleaner"
	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
)

// BenchmarkReplayTiming replays the shipped multi-threaded log (four
// threads, 539 calls over 1.4 s) on the directory storage of the test's
// temp dir and reports the timing error (issue − scheduled) in µs of the
// calls that could be on time, and apart from it the calls that could not
// (held: their thread was still inside an earlier call at their time),
// and the error over all calls. Every replay is logged (-v); the reported
// figures are the medians and, for the on-time p99, the worst replay.
// Run: go test -run '^$' -bench ReplayTiming -benchtime 5x -v ./plugins/mobigen
func BenchmarkReplayTiming(b *testing.B) {
	l, err := strace.ParseFile(sampleLog)
	if err != nil {
		b.Fatal(err)
	}
	var sb bytes.Buffer
	if _, err := cleaner.Clean(l, cleaner.Options{}).Script.WriteTo(&sb); err != nil {
		b.Fatal(err)
	}
	s, err := replay.Parse(&sb, "sample")
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []struct {
		name     string
		spin     time.Duration
		realtime bool
	}{{"sleep", 0, false}, {"spin200us", 200 * time.Microsecond, false}, {"spin200us+fifo", 200 * time.Microsecond, true}} {
		spin := m.spin
		b.Run(m.name, func(b *testing.B) {
			var all, onTime [3][]float64
			var held []float64
			us := func(d time.Duration) float64 { return float64(d) / 1e3 }
			for n := range b.N {
				r, err := replay.Replay(context.Background(), s, replay.Options{Dir: b.TempDir(), Spin: spin, Realtime: m.realtime})
				if err != nil {
					b.Fatal(err)
				}
				for i, d := range []time.Duration{r.Lag.Median, r.Lag.P99, r.Lag.Max} {
					all[i] = append(all[i], us(d))
				}
				for i, d := range []time.Duration{r.LagOnTime.Median, r.LagOnTime.P99, r.LagOnTime.Max} {
					onTime[i] = append(onTime[i], us(d))
				}
				held = append(held, float64(r.Held))
				b.Logf("replay %d: on time %d calls p50 %.1f p99 %.1f max %.1f µs; held %d calls late p50 %.1f p99 %.1f max %.1f µs; all p99 %.1f µs; realtime %v %s",
					n+1, r.OnTime, us(r.LagOnTime.Median), us(r.LagOnTime.P99), us(r.LagOnTime.Max),
					r.Held, us(r.LagHeld.Median), us(r.LagHeld.P99), us(r.LagHeld.Max), us(r.Lag.P99), r.Realtime, r.RealtimeError)
			}
			for i, q := range []string{"p50", "p99", "max"} {
				b.ReportMetric(median(all[i]), "err-"+q+"-µs")
				b.ReportMetric(median(onTime[i]), "ontime-"+q+"-µs")
			}
			b.ReportMetric(slices.Max(onTime[1]), "worst-ontime-p99-µs")
			b.ReportMetric(median(held), "held-calls")
		})
	}
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
