package oat_test

import (
	"testing"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/oat"
	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// BenchmarkCache compiles each DEX file of the corpus (core.dex and the
// workloads), and reads its cache back: what the cache saves a run is
// compile − read, per method that runs. Sizes in the metrics.
func BenchmarkCache(b *testing.B) {
	for name, data := range corpus(b) {
		f := readDEX(b, data)
		enc, err := oat.Encode(oat.New(f, name, aot.Compile(f, aot.Options{}), ssa.Config{}))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("compile/"+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r := aot.Compile(f, aot.Options{})
				if _, err := oat.Encode(oat.New(f, name, r, ssa.Config{})); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(enc)), "cache-bytes")
			b.ReportMetric(float64(len(data)), "dex-bytes")
		})
		b.Run("read/"+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := oat.Read(enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
