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

// caffeineMark are the CaffeineMark workloads with repetition counts
// that make a run take a third of a second or more on the interpreter.
var caffeineMark = []struct {
	workload string
	args     []string
}{
	{"caffeine-sieve", []string{"800"}},
	{"caffeine-loop", []string{"700"}},
	{"caffeine-logic", []string{"700"}},
	{"caffeine-string", []string{"300"}},
	{"caffeine-float", []string{"12000"}},
	{"caffeine-method", []string{"600"}},
}

// BenchmarkSciMark times each kernel on both engines, VM creation
// included (the aot engine's compilation happens during the run).
func BenchmarkSciMark(b *testing.B) { benchEngines(b, sciMark) }

// BenchmarkCaffeineMark is BenchmarkSciMark for the CaffeineMark
// workloads.
func BenchmarkCaffeineMark(b *testing.B) { benchEngines(b, caffeineMark) }

func benchEngines(b *testing.B, kernels []struct {
	workload string
	args     []string
}) {
	for _, k := range kernels {
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
