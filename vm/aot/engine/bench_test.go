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
// half a second on the interpreter, so that VM start-up (about 50 ms)
// is a small part.
var sciMark = []struct {
	workload string
	args     []string
}{
	{"scimark-fft", []string{"1024", "200"}},
	{"scimark-sor", []string{"200", "80"}},
	{"scimark-montecarlo", []string{"400000"}},
	{"scimark-sparse", []string{"1000", "5000", "1600"}},
	{"scimark-lu", []string{"300"}},
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
