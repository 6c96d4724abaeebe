package fileio

import (
	"context"
	"testing"
)

// BenchmarkLatencyCapture measures what per-I/O latency capture costs on the
// cheapest I/O there is (a buffered 4 KiB overwrite of a cached file, about a
// microsecond), where its share is largest:
//
//	go test ./storage/fileio -run '^$' -bench LatencyCapture -benchtime 20x
func BenchmarkLatencyCapture(b *testing.B) {
	for _, tc := range []struct {
		name string
		off  bool
	}{{"capture", false}, {"no-capture", true}} {
		b.Run(tc.name, func(b *testing.B) {
			c := Config{Dir: b.TempDir(), Access: Write, Sync: Buffered, Threads: 1, FileSize: 32 << 20, IOSize: 4096, NoLatency: tc.off}
			if err := Prefill(FileName(c.Dir, 0), c.FileSize); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(c.FileSize)
			var ios, ns int64
			for b.Loop() {
				r, err := Run(context.Background(), c)
				if err != nil {
					b.Fatal(err)
				}
				// Only the write loop: the final fsync is the same in both.
				loop := r.Threads[0].Elapsed - r.Threads[0].FinalSync
				ios += r.IOs
				ns += loop.Nanoseconds()
			}
			b.ReportMetric(float64(ns)/float64(ios), "ns/io")
		})
	}
}
