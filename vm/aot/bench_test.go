package aot_test

import (
	"testing"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/workloads"
)

// benchCompile compiles every method of f per iteration (the DEX is read
// once) and reports methods/s and bytecodes/s (code units per second).
func benchCompile(b *testing.B, f *dex.File) {
	b.ReportAllocs()
	var r *aot.Result
	for b.Loop() {
		r = aot.Compile(f, aot.Options{})
	}
	n := len(r.Methods) + len(r.Fallbacks)
	secs := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(n)/secs, "methods/s")
	b.ReportMetric(float64(r.Bytecodes)/secs, "bytecodes/s")
	b.ReportMetric(float64(len(r.Fallbacks)), "fallbacks")
}

// BenchmarkCompileCore compiles all of core.dex.
func BenchmarkCompileCore(b *testing.B) {
	benchCompile(b, readDEX(b, core.DEX()))
}

// BenchmarkCompileWorkloads compiles each workload DEX.
func BenchmarkCompileWorkloads(b *testing.B) {
	for _, d := range workloads.DEXFiles() {
		data, err := workloads.Workload{Name: d.Name, DEX: d.Name}.Bytes()
		if err != nil {
			b.Fatal(err)
		}
		f := readDEX(b, data)
		b.Run(d.Name, func(b *testing.B) { benchCompile(b, f) })
	}
}
