package opcost

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/vmconfig"
	"github.com/droidprof/droidprof/workloads"
)

// BenchmarkWorkloadRun runs workloads the way the workloads collector
// times them (a new VM a run, the thread CPU clock), so that
// `-cpuprofile` shows where a mispredicted program's time goes.
func BenchmarkWorkloadRun(b *testing.B) {
	gcCfg, err := vmconfig.Settings{}.Config()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"caffeine-method", "chess", "deltablue", "scimark-montecarlo", "scimark-fft"} {
		b.Run(name, func(b *testing.B) {
			w, ok := workloads.Lookup(name)
			if !ok {
				b.Fatalf("no workload %q", name)
			}
			data, err := w.Bytes()
			if err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(b.TempDir(), w.DEX)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
			opts := vm.Options{ClassPath: []string{path}, GC: gcCfg, Engine: "interp"}
			var total int64
			for b.Loop() {
				ns, err := timedRun(context.Background(), opts, w.Main, w.Args)
				if err != nil {
					b.Fatal(err)
				}
				total += ns
			}
			b.ReportMetric(float64(total)/float64(b.N)/1e6, "cpu-ms/run")
		})
	}
}
