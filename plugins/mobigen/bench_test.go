package mobigen

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/droidprof/droidprof/storage/cleaner"
	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
)

// BenchmarkReplayTiming replays the shipped multi-threaded log (four
// threads, 2.3 s) on the directory storage of the test's temp dir and
// reports the timing error (issue − scheduled) in µs: over all calls, and
// over the calls whose thread was ready in time (the replay's own error).
// Run: go test -run '^$' -bench ReplayTiming -benchtime 5x ./plugins/mobigen
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
			for range b.N {
				r, err := replay.Replay(context.Background(), s, replay.Options{Dir: b.TempDir(), Spin: spin, Realtime: m.realtime})
				if err != nil {
					b.Fatal(err)
				}
				for i, d := range []time.Duration{r.Lag.Median, r.Lag.P99, r.Lag.Max} {
					all[i] = append(all[i], float64(d)/1e3)
				}
				for i, d := range []time.Duration{r.LagOnTime.Median, r.LagOnTime.P99, r.LagOnTime.Max} {
					onTime[i] = append(onTime[i], float64(d)/1e3)
				}
			}
			for i, q := range []string{"p50", "p99", "max"} {
				b.ReportMetric(median(all[i]), "err-"+q+"-µs")
				b.ReportMetric(median(onTime[i]), "ontime-"+q+"-µs")
			}
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
