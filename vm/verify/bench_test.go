package verify_test

import (
	"testing"

	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/verify"
	"github.com/droidprof/droidprof/workloads"
)

// BenchmarkVerify is the verifier's cost per method over the core
// library and every workload (what linking those classes adds).
func BenchmarkVerify(b *testing.B) {
	boot := readDEX(b, core.DEX())
	files := []*dex.File{boot}
	for _, d := range workloads.DEXFiles() {
		data, err := workloads.Workload{DEX: d.Name}.Bytes()
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, readDEX(b, data))
	}
	methods := 0
	for _, f := range files {
		for _, c := range f.ClassDefs {
			if c.Data != nil {
				methods += len(c.Data.DirectMethods) + len(c.Data.VirtualMethods)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			h := verify.NewFiles(boot, f)
			for i := range f.ClassDefs {
				if err := verify.Class(f, &f.ClassDefs[i], h); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(methods), "ns/method")
}
