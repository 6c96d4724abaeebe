package engine_test

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/workloads"
)

// sciMark are the SciMark kernels with arguments that make a run take a
// few hundred milliseconds on the interpreter.
var sciMark = []struct {
	workload string
	args     []string
}{
	{"scimark-fft", []string{"1024", "100"}},
	{"scimark-sor", []string{"200", "40"}},
	{"scimark-montecarlo", []string{"200000"}},
	{"scimark-sparse", []string{"1000", "5000", "800"}},
	{"scimark-lu", []string{"200"}},
}

// BenchmarkSciMark times each kernel on both engines, VM creation
// included (the aot engine's compilation happens during the run).
func BenchmarkSciMark(b *testing.B) {
	for _, k := range sciMark {
		w, ok := workloads.Lookup(k.workload)
		if !ok {
			b.Fatalf("no workload %s", k.workload)
		}
		for _, eng := range []string{"interp", "aot"} {
			b.Run(k.workload+"/"+eng, func(b *testing.B) {
				dexFile := filepath.Join("..", "..", "..", "workloads", "dex", w.DEX)
				for i := 0; i < b.N; i++ {
					code, err := vm.Run(context.Background(), vm.Options{ClassPath: []string{dexFile}, Stdout: io.Discard, Engine: eng}, w.Main, k.args)
					if err != nil || code != 0 {
						b.Fatalf("%s: exit %d, %v", eng, code, err)
					}
				}
			})
		}
	}
}
