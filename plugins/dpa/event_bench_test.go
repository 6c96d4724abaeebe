package dpa

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/droidprof/droidprof/plugins/dpa/trace"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/runtime"
)

// BenchmarkEventCost measures what one traced event costs the traced
// thread on a fib-shaped program (fib 22: 57 313 calls, two events each;
// $DROIDPROF_DPA_BENCH_FIB sets another n):
// every iteration runs the program untraced and then traced, back to
// back, on the kernel's CPU clock of the thread, and the benchmark reports
// the median over the pairs of traced ÷ untraced ("ratio", the issue's
// overhead goal is 1.5), of (traced − untraced) ÷ events ("ns/event") and
// of the untraced run ("untraced-ms", the VM's own speed, which changes to
// the hooks' path must not slow).
// Pairs and the thread's CPU clock keep the figures steady on a loaded
// host, where whole-run wall times are not.
//
//	go test ./plugins/dpa -run '^$' -bench EventCost -benchtime 40x
func BenchmarkEventCost(b *testing.B) {
	for _, bc := range []struct {
		name    string
		measure bool
		empty   bool // hooks that return at once: the VM's clock read and dispatch alone
	}{{"constant", false, false}, {"measured", true, false}, {"empty-hooks", false, true}} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			cfg := Config{Workload: "dpa-fib", Args: []string{strconv.Itoa(benchFib())}, BufferRecords: benchBuffer(), MeasureEvents: bc.measure}
			p, err := resolve(cfg, dir)
			if err != nil {
				b.Fatal(err)
			}
			var ratios, perEvent, plains []float64
			for i := 0; i < b.N; i++ {
				plain, err := benchRun(p, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				f, err := os.Create(filepath.Join(dir, "records"))
				if err != nil {
					b.Fatal(err)
				}
				rec, err := trace.NewRecorder(f, cfg.BufferRecords)
				if err != nil {
					b.Fatal(err)
				}
				tr := &tracer{rec: rec, names: map[int]string{}, measure: bc.measure}
				hooks := tr.hooks()
				if bc.empty {
					hooks.MethodEntry = func(*runtime.Thread, *runtime.Method, int, int64) {}
					hooks.MethodExit = func(*runtime.Thread, *runtime.Method, int, bool, int64) {}
				}
				traced, err := benchRun(p, hooks, tr)
				if err != nil {
					b.Fatal(err)
				}
				if err := rec.Flush(); err != nil {
					b.Fatal(err)
				}
				f.Close()
				ratios = append(ratios, float64(traced)/float64(plain))
				plains = append(plains, float64(plain)/1e6)
				events := rec.Records()
				if bc.empty {
					events = fibEvents(benchFib())
				}
				perEvent = append(perEvent, float64(traced-plain)/float64(events))
			}
			b.ReportMetric(medianF(ratios), "ratio")
			b.ReportMetric(medianF(perEvent), "ns/event")
			b.ReportMetric(medianF(plains), "untraced-ms")
		})
	}
}

// benchRun runs p once with hooks (nil: untraced) and returns the main
// thread's CPU time. (Main and the record writer pinned to different CPUs
// made an event cost 35.8 ns instead of 17.8 on the idle host, and changed
// nothing on the loaded one: that variant is gone, plugins/dpa/BENCHMARKS.md.)
func benchRun(p program, hooks *runtime.Hooks, tr *tracer) (time.Duration, error) {
	v, err := vm.New(p.options(io.Discard, io.Discard, hooks))
	if err != nil {
		return 0, err
	}
	if tr != nil {
		tr.v = v
	}
	_, _, cpu, err := runTimed(context.Background(), v, p.main, p.args)
	return cpu, err
}

func medianF(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// fibEvents is the number of events of fib(n)'s calls: two per call, and
// fib(n) makes 2·F(n+1) − 1 calls.
func fibEvents(n int) int64 {
	a, b := int64(0), int64(1)
	for range n + 1 {
		a, b = b, a+b
	}
	return 2 * (2*a - 1)
}

// benchBuffer is the record buffer of BenchmarkEventCost:
// $DROIDPROF_DPA_BENCH_BUFFER records, 65536 (the accuracy config's) unless set.
func benchBuffer() int {
	if n, err := strconv.Atoi(os.Getenv("DROIDPROF_DPA_BENCH_BUFFER")); err == nil && n > 0 {
		return n
	}
	return 65536
}

// benchFib is the argument of fib in BenchmarkEventCost:
// $DROIDPROF_DPA_BENCH_FIB, 22 unless set (27 is the accuracy config's).
func benchFib() int {
	if n, err := strconv.Atoi(os.Getenv("DROIDPROF_DPA_BENCH_FIB")); err == nil && n > 0 {
		return n
	}
	return 22
}
