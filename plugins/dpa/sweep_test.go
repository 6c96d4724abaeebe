package dpa

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/plugins/dpa/analysis"
	"github.com/droidprof/droidprof/plugins/dpa/trace"
)

// TestUnmeasuredSweep is a diagnosis, not a check: it runs each call-heavy
// workload as adjacent pairs (self-timed baseline, then traced) and prints,
// for a range of values of the unmeasured remainder u, the median and
// quartiles of the pairs' Err_m, next to what the calibration would
// deduct. The u where the median crosses zero is what an event really
// costs beyond its measured part in that workload (plugins/dpa/BENCHMARKS.md).
//
//	DROIDPROF_DPA_SWEEP=25 go test ./plugins/dpa -run TestUnmeasuredSweep -v -timeout 30m
//
// (the value is the number of pairs per workload; DROIDPROF_DPA_SWEEP_WORKLOADS
// picks workloads, comma-separated).
func TestUnmeasuredSweep(t *testing.T) {
	pairs, _ := strconv.Atoi(os.Getenv("DROIDPROF_DPA_SWEEP"))
	if pairs <= 0 {
		t.Skip("a diagnosis that takes minutes; set DROIDPROF_DPA_SWEEP=PAIRS to run it")
	}
	names := []string{"dpa-fib", "dpa-concat", "dpa-random"}
	if s := os.Getenv("DROIDPROF_DPA_SWEEP_WORKLOADS"); s != "" {
		names = strings.Split(s, ",")
	}
	us := []time.Duration{0, 4, 8, 10, 12, 14, 16, 18, 20, 24}
	ctx := context.Background()
	for _, name := range names {
		dir := t.TempDir()
		cfg := Config{Workload: name, BufferRecords: 65536, MeasureEvents: true, Calibration: 100000}
		p, err := resolve(cfg, dir)
		if err != nil {
			t.Fatal(err)
		}
		event, unmeasured, _, err := calibrateEvents(ctx, dir, 2*cfg.BufferRecords, cfg.BufferRecords, true)
		if err != nil {
			t.Fatal(err)
		}
		errs := make([][]float64, len(us))
		var clockCost time.Duration
		for range pairs {
			var b Result
			if _, err := measureBaselines(ctx, p, cfg, &b, io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
			r, err := runTraced(ctx, p, cfg, dir, trace.RecordsFile, io.Discard, io.Discard, true)
			if err != nil {
				t.Fatal(err)
			}
			clockCost = r.meta.ClockOverhead
			base := float64(b.MethodNanos[baseName(p.method)])
			r.meta.EventOverhead, r.meta.EventCosts = event, true
			for k, u := range us {
				r.meta.Unmeasured = u
				metaPath := filepath.Join(dir, trace.MetaFile)
				if err := writeFile(metaPath, func(f *os.File) error { return trace.WriteMeta(f, r.meta) }); err != nil {
					t.Fatal(err)
				}
				tr, err := trace.Load(r.path, metaPath)
				if err != nil {
					t.Fatal(err)
				}
				s := &step{prof: analysis.Analyze(tr, analysis.Options{Deduct: true}), res: Result{Method: p.method}}
				m, ok := s.methodStats()
				if !ok {
					t.Fatalf("%s: no %s in the trace", name, p.method)
				}
				errs[k] = append(errs[k], 100*analysis.ErrRate(float64(m.Incl.Wall), base))
			}
		}
		var out strings.Builder
		fmt.Fprintf(&out, "%s, %d pairs: calibrated event %v, unmeasured %v; clock read %v\n", name, pairs, event, unmeasured, clockCost)
		for k, u := range us {
			e := slices.Clone(errs[k])
			slices.Sort(e)
			fmt.Fprintf(&out, "  u = %2d ns: Err_m median %+6.1f %%, quartiles %+6.1f %% %+6.1f %%\n", u, e[len(e)/2], e[len(e)/4], e[3*len(e)/4])
		}
		t.Log("\n" + out.String())
	}
}
