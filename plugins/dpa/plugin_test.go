package dpa

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/plugins/dpa/analysis"
	"github.com/droidprof/droidprof/plugins/dpa/trace"
	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/oat"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/workloads"
)

func TestConformance(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	sdktest.Conformance(t, c)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

// The collector traces a recursive workload: every activation of fib is
// recorded with balanced enter/exit events, the trace loads back, and the
// calibration is plausible.
func TestDPACollector(t *testing.T) {
	for _, tc := range []struct {
		buffer  int
		measure bool
		engine  string
	}{{65536, false, ""}, {0, false, ""}, {4096, true, ""}, {65536, false, "aot"}} {
		buffer := tc.buffer
		c := sdktest.Start(t, Plugin())
		cfg := map[string]any{"workload": "dpa-fib", "args": []string{"12"}, "buffer_records": buffer, "measure_events": tc.measure}
		if tc.engine != "" {
			cfg["vm"] = map[string]any{"engine": tc.engine}
		}
		out, err := c.Collect(context.Background(), "dpa", cfg, sdktest.CollectOptions{StepID: "fib"})
		if err != nil {
			t.Fatal(err)
		}
		var r Result
		readJSON(t, filepath.Join(out.StepDir, ResultFile), &r)
		if r.ExitCode != 0 || r.Method != "Ldpa/Fib;.fib:(I)I" || r.Records == 0 {
			t.Fatalf("result %+v", r)
		}
		// On aot the program's methods ran compiled: the hooks are the
		// runtime's, so the trace below must be the interpreter's.
		if tc.engine == "aot" && (r.Engine != "aot" || r.Compiled == 0 || len(r.Fallbacks) != 0) ||
			tc.engine == "" && (r.Engine != "interp" || r.Compiled != 0) {
			t.Fatalf("engine %q: result engine %q, %d compiled, fallbacks %v", tc.engine, r.Engine, r.Compiled, r.Fallbacks)
		}
		tr, err := trace.Load(filepath.Join(out.StepDir, trace.RecordsFile), filepath.Join(out.StepDir, trace.MetaFile))
		if err != nil {
			t.Fatal(err)
		}
		byID := tr.MethodByID()
		fibEnters, depth := 0, map[uint32]int{}
		for i, e := range tr.Events {
			switch e.Action {
			case trace.Enter:
				depth[e.Thread]++
				if m := byID[e.Method]; m != nil && m.Class == "dpa.Fib" && m.Name == "fib" {
					fibEnters++
				}
			default:
				depth[e.Thread]--
			}
			if e.Action == trace.Enter && int(e.Depth) != depth[e.Thread] || e.Action != trace.Enter && int(e.Depth) != depth[e.Thread]+1 {
				t.Fatalf("event %d: depth %d, stack %d", i, e.Depth, depth[e.Thread])
			}
		}
		// fib(12) makes 2*fib(13)-1 = 465 calls.
		if fibEnters != 465 {
			t.Errorf("buffer %d: %d fib activations, want 465", buffer, fibEnters)
		}
		costs := 0
		for _, e := range tr.Events {
			if e.Cost > 0 {
				costs++
			}
		}
		if tr.EventCosts != tc.measure || tc.measure && costs < len(tr.Events)/2 || !tc.measure && costs != 0 {
			t.Errorf("measure_events %v: EventCosts %v, %d of %d events with a cost", tc.measure, tr.EventCosts, costs, len(tr.Events))
		}
		// The calibration is recorded: the clock read and the
		// calibration program's event. How much an event costs is a
		// measurement, not checked here: under the load of a whole
		// `go test ./...` the calibration program's median over its
		// rounds came out 0 once (13 ns when quiet), and in a program
		// out-of-order execution hides part of a clock read, so even
		// "one read at least" does not hold (9 against 11 ns). The
		// program's own pairs (fib 12 is mostly the VM's start) are
		// recorded, and deducted only when they pin the cost down
		// (TestProgramResolved).
		if tr.ClockOverhead <= 0 || tr.PairedEventOverhead < 0 || len(tr.Threads) == 0 || tr.Threads[0].Name != "main" {
			t.Errorf("calibration %v / %v, threads %+v", tr.ClockOverhead, tr.PairedEventOverhead, tr.Threads)
		}
		program := tr.Calibration == trace.CalibrationProgram
		if tr.ProgramEventOverheadNs == 0 || program && tr.ProgramEventOverheadNs <= 0 || !program && tr.Calibration != trace.CalibrationPaired ||
			program && tr.EventOverheadNs != tr.ProgramEventOverheadNs || !program && tr.EventOverhead != tr.PairedEventOverhead ||
			tc.measure != (tr.PairedUnmeasuredOverhead > 0) || program && tc.measure && tr.UnmeasuredOverheadNs != tr.ProgramUnmeasuredOverheadNs {
			t.Errorf("calibration %q: deducted %.2f/%.2f ns, program %.2f/%.2f ns, paired %v/%v", tr.Calibration, tr.EventOverheadNs, tr.UnmeasuredOverheadNs,
				tr.ProgramEventOverheadNs, tr.ProgramUnmeasuredOverheadNs, tr.PairedEventOverhead, tr.PairedUnmeasuredOverhead)
		}
		t.Logf("buffer %d engine %q: clock read %v, event %.2f ns (program) %v (paired), %d events", buffer, tc.engine, tr.ClockOverhead, tr.EventOverheadNs, tr.PairedEventOverhead, len(tr.Events))
	}
}

func TestBaselineCollector(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	out, err := c.Collect(context.Background(), "baseline", map[string]any{"workload": "dpa-fib", "args": []string{"15"}}, sdktest.CollectOptions{StepID: "fib"})
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	readJSON(t, filepath.Join(out.StepDir, ResultFile), &r)
	if r.ExitCode != 0 || r.RunNanos <= 0 || r.MethodNanos["dpa.Fib.fib"] <= 0 || r.MethodNanos["dpa.Fib.fib"] > r.RunNanos {
		t.Fatalf("result %+v", r)
	}
}

// Collect two workloads twice each (traced with paired baselines, and once
// with the separate baseline collector), then analyze: accuracy rows,
// hotspot tables, per-method metrics for compare, and the three export
// files per cell.
func TestAnalyzer(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	var steps []*sdk.StepArtifacts
	for _, w := range []string{"dpa-fib", "dpa-sieve"} {
		// fib 25 (~240 000 calls) stays the hottest method on a loaded machine.
		// With fib 20, java.lang.System.<clinit> (~4 ms: it links much of the
		// core library) sometimes came first, since the deduction calibrated
		// under load can take half of fib's few milliseconds.
		args := map[string][]string{"dpa-fib": {"25"}, "dpa-sieve": {"20000"}}[w]
		for rep := 0; rep < 2; rep++ {
			labels := map[string]string{"workload": w, "unrelated": "x"}
			id := fmt.Sprintf("%s-%d", w, rep)
			out, err := c.Collect(context.Background(), "dpa", map[string]any{"workload": w, "args": args, "paired_baseline": true, "calibration": 2000},
				sdktest.CollectOptions{RunDir: run, StepID: id, Labels: labels, Repetition: rep})
			if err != nil {
				t.Fatal(err)
			}
			steps = append(steps, out.Step("dpa.dpa", labels, rep))
		}
		out, err := c.Collect(context.Background(), "baseline", map[string]any{"workload": w, "args": args},
			sdktest.CollectOptions{RunDir: run, StepID: w + "-base", Labels: map[string]string{"workload": w}})
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, out.Step("dpa.baseline", map[string]string{"workload": w}, 0))
	}
	resp, err := c.Analyze(context.Background(), "dpa", map[string]any{"top": 3}, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*sdk.Table{}
	for _, tb := range resp.Tables {
		tables[tb.Name] = tb
	}
	if tb := tables["accuracy"]; tb == nil || len(tb.Rows) != 2 {
		t.Fatalf("accuracy table: %v", tb)
	}
	hot := tables["hotspots-dpa-fib 25 buffer=65536"]
	if hot == nil || len(hot.Rows) != 3 || hot.Rows[0][0] != "dpa.Fib.fib" || !strings.HasPrefix(hot.Rows[0][2], "1+") {
		t.Fatalf("fib hotspots: %v (tables %v)", hot, slices.Collect(maps.Keys(tables)))
	}
	samples := map[string]int{}
	for _, m := range resp.Metrics {
		samples[m.Name+"/"+m.Labels["program"]+"/"+m.Labels["method"]] = len(m.Samples)
	}
	for _, k := range []string{"err_m/dpa-fib 25/", "err_p/dpa-sieve 20000/", "method_excl/dpa-fib 25/dpa.Fib.fib", "overhead/dpa-fib 25/"} {
		if samples[k] != 2 {
			t.Errorf("metric %s has %d samples, want 2 (all: %v)", k, samples[k], samples)
		}
	}
	files := map[string]bool{}
	for _, a := range resp.Artifacts {
		files[a.Name] = true
	}
	for _, f := range []string{"dpa-fib_25_buffer_65536.trace", "dpa-fib_25_buffer_65536.pb.gz", "dpa-fib_25_buffer_65536.perfetto.json", "err_m.svg", "hotspots-dpa-fib_25_buffer_65536.svg", "hotspots-dpa-sieve_20000_buffer_65536.svg"} {
		if !files[f] {
			t.Errorf("no analysis file %s (have %v)", f, files)
		}
	}

	// The hotspot charts: one bar per method of the cell's hotspot table
	// (`top` of them), each labelled with that method's name.
	for _, top := range []int{3, 6} {
		resp, err := c.Analyze(context.Background(), "dpa", map[string]any{"top": top}, run, steps)
		if err != nil {
			t.Fatal(err)
		}
		figures := map[string]string{}
		for _, a := range resp.Artifacts {
			figures[a.Name] = filepath.Join(run, a.Path)
		}
		most := 0
		for _, tb := range resp.Tables {
			cell, ok := strings.CutPrefix(tb.Name, "hotspots-")
			if !ok {
				continue
			}
			most = max(most, len(tb.Rows))
			path := figures["hotspots-"+fileSafe(cell)+".svg"]
			if path == "" {
				t.Errorf("top %d: no hotspot figure for %s", top, cell)
				continue
			}
			svg, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			bars, labels := barChartParts(t, string(svg))
			if bars != len(tb.Rows) || len(labels) != len(tb.Rows) {
				t.Errorf("top %d, %s: %d bars and %d labels for %d hotspot methods", top, cell, bars, len(labels), len(tb.Rows))
				continue
			}
			for i, row := range tb.Rows {
				method := row[0]
				name := method[strings.LastIndex(method, ".")+1:]
				if !strings.HasSuffix(method, labels[i]) || !strings.HasSuffix(labels[i], "."+name) {
					t.Errorf("top %d, %s: bar %d labelled %q, want the name of method %s", top, cell, i, labels[i], method)
				}
			}
		}
		if most != top {
			t.Errorf("top %d: the longest hotspot table has %d rows; the test needs a cell with at least %d methods", top, most, top)
		}
	}
}

// barChartParts returns the number of bars of a framework bar chart
// (vertical or horizontal) and the texts of its category labels: a label's
// tooltip, which holds the whole name when the label is wrapped or
// shortened, or else its text.
func barChartParts(t *testing.T, svg string) (int, []string) {
	t.Helper()
	bars, ok1 := between(svg, `<g class="bars">`, "</g>")
	axis, ok2 := between(svg, ` categories">`, "</g>")
	if !ok1 || !ok2 {
		t.Fatalf("not a bar chart:\n%s", svg)
	}
	var labels []string
	for _, m := range regexp.MustCompile(`<text[^>]*>(?:<title>([^<]*)</title>)?([^<]*)`).FindAllStringSubmatch(axis, -1) {
		label := m[2]
		if m[1] != "" {
			label = m[1]
		}
		labels = append(labels, html.UnescapeString(label))
	}
	return strings.Count(bars, "<rect"), labels
}

func between(s, from, to string) (string, bool) {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return "", false
	}
	in, _, ok := strings.Cut(rest, to)
	return in, ok
}

// Every traced run stops its record writer: the calibration's 31 traced
// runs per step once left theirs (and their buffers) behind, and the
// accuracy config's plugin grew to tens of GB.
func TestCalibrationLeavesNoWriters(t *testing.T) {
	before := runtime.NumGoroutine()
	if _, _, _, err := calibrateEvents(context.Background(), t.TempDir(), 128, 16, true); err != nil {
		t.Fatal(err)
	}
	if n := runtime.NumGoroutine() - before; n > 2 {
		t.Errorf("%d goroutines more after calibrating (%d traced runs)", n, calibrationRounds)
	}
}

func TestHotspotLabels(t *testing.T) {
	m := func(class, name, sig string) analysis.MethodStats {
		return analysis.MethodStats{Method: trace.Method{Class: class, Name: name, Signature: sig}}
	}
	tests := []struct {
		name string
		top  []analysis.MethodStats
		want []string
	}{
		{"class and method", []analysis.MethodStats{m("dpa.Fib", "fib", "(I)I"), m("scimark.SparseCompRow", "matmult", "()V"), m("Main", "main", "()V")},
			[]string{"Fib.fib", "SparseCompRow.matmult", "Main.main"}},
		{"nested class", []analysis.MethodStats{m("a.Outer$Inner", "run", "()V")}, []string{"Outer$Inner.run"}},
		{"same class name in two packages", []analysis.MethodStats{m("a.Node", "next", "()V"), m("b.Node", "next", "()V")},
			[]string{"a.Node.next", "b.Node.next"}},
		{"overloads", []analysis.MethodStats{m("a.Math", "abs", "(I)I"), m("a.Math", "abs", "(J)J")},
			[]string{"a.Math.abs(I)I", "a.Math.abs(J)J"}},
	}
	for _, tt := range tests {
		if got := hotspotLabels(tt.top); !slices.Equal(got, tt.want) {
			t.Errorf("%s: hotspotLabels = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestHeapConfig checks that the top-level heap_max of older configs
// still sets the heap limit, that the vm block sets it too, and that the
// two disagreeing, or a bad vm setting, stop the step with an error
// naming the setting.
func TestHeapConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  map[string]any
		max  uint32
		err  string
	}{
		{"default", map[string]any{}, 0, ""},
		{"legacy heap_max", map[string]any{"heap_max": 6 << 20}, 6 << 20, ""},
		{"vm block", map[string]any{"vm": map[string]any{"heap_max": 8 << 20, "collector": "ss"}}, 8 << 20, ""},
		{"both agree", map[string]any{"heap_max": 8 << 20, "vm": map[string]any{"heap_max": 8 << 20}}, 8 << 20, ""},
		{"both disagree", map[string]any{"heap_max": 6 << 20, "vm": map[string]any{"heap_max": 8 << 20}}, 0, "heap_max 6MiB and vm.heap_max 8MiB disagree"},
		{"bad vm setting", map[string]any{"vm": map[string]any{"target_utilization": 2}}, 0, "vm.target_utilization 2"},
		{"legacy too small", map[string]any{"heap_max": 64 << 10}, 0, "vm.heap_max 64KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var cfg Config
			if err := json.Unmarshal(data, &cfg); err != nil {
				t.Fatal(err)
			}
			got, err := heapConfig(cfg)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			case tc.err == "" && got.Max != tc.max:
				t.Fatalf("Max %d, want %d", got.Max, tc.max)
			}
		})
	}
	// The error reaches the user as the step's failure, before any run.
	c := sdktest.Start(t, Plugin())
	_, err := c.Collect(context.Background(), "baseline", map[string]any{"workload": "dpa-fib", "vm": map[string]any{"collector": "g1"}}, sdktest.CollectOptions{})
	if err == nil || !strings.Contains(err.Error(), "vm.collector") {
		t.Errorf("collect with vm.collector g1: %v, want an error naming vm.collector", err)
	}
}

// With clock = "virtual" the timestamps count executed instructions: two
// traced runs of a program give the same trace, nothing is calibrated,
// the error against the self-timed baseline (counted the same way) is the
// handful of instructions around the call, and the cell is named for its
// clock. The aot engine, which does not count, is refused.
func TestVirtualClock(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	cfg := map[string]any{"workload": "dpa-fib", "args": []string{"15"}, "clock": "virtual", "paired_baseline": true}
	var steps []*sdk.StepArtifacts
	var results []Result
	for rep := range 2 {
		labels := map[string]string{"workload": "dpa-fib"}
		out, err := c.Collect(context.Background(), "dpa", cfg, sdktest.CollectOptions{RunDir: run, StepID: fmt.Sprintf("fib-%d", rep), Labels: labels, Repetition: rep})
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, out.Step("dpa.dpa", labels, rep))
		var r Result
		readJSON(t, filepath.Join(out.StepDir, ResultFile), &r)
		results = append(results, r)
		tr, err := trace.Load(filepath.Join(out.StepDir, trace.RecordsFile), filepath.Join(out.StepDir, trace.MetaFile))
		if err != nil {
			t.Fatal(err)
		}
		if tr.ClockSource != trace.ClockVirtual || tr.EventOverhead != 0 || tr.EventCosts {
			t.Errorf("trace clock %q, event overhead %v, costs %v", tr.ClockSource, tr.EventOverhead, tr.EventCosts)
		}
	}
	a, b := results[0], results[1]
	if a.Clock != "virtual" || a.RunNanos != b.RunNanos || a.Records != b.Records || a.BaseRunNanos != b.BaseRunNanos ||
		a.MethodNanos["dpa.Fib.fib"] != b.MethodNanos["dpa.Fib.fib"] || a.RunNanos == 0 {
		t.Errorf("two runs differ:\n%+v\n%+v", a, b)
	}
	resp, err := c.Analyze(context.Background(), "dpa", map[string]any{}, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	errs := map[string]float64{}
	for _, m := range resp.Metrics {
		if len(m.Samples) > 0 {
			errs[m.Name+"/"+m.Labels["program"]] = m.Samples[0]
		}
	}
	t.Logf("metrics: %v", errs)
	em, ok := errs["err_m/dpa-fib 15 clock=virtual"]
	if !ok || em > 0.05 {
		t.Errorf("err_m of the virtual cell %v (present %v), want ≤ 0.05 %% (4 instructions in 13 807)", em, ok)
	}
	if ep := errs["err_p/dpa-fib 15 clock=virtual"]; ep > 1 {
		t.Errorf("err_p %v %%, want ≤ 1 %%", ep)
	}
	_, err = c.Collect(context.Background(), "dpa", map[string]any{"workload": "dpa-fib", "clock": "virtual", "vm": map[string]any{"engine": "aot"}}, sdktest.CollectOptions{})
	if err == nil || !strings.Contains(err.Error(), `vm.engine "aot" does not count`) {
		t.Errorf("virtual clock on aot: %v, want a refusal", err)
	}
}

func TestVerdict(t *testing.T) {
	const bar = 0.02
	ten := func(center, spread float64) []float64 {
		var es []float64
		for i := range 10 {
			es = append(es, center+spread*(float64(i)/9-0.5))
		}
		return es
	}
	for _, tc := range []struct {
		name   string
		eM, eP []float64
		want   string
	}{
		{"tight and small", ten(0.005, 0.004), ten(-0.003, 0.002), verdictWithin},
		{"tight and large", ten(0.08, 0.01), ten(0, 0.001), verdictOutside},
		{"wide across the bar", ten(0.01, 0.06), ten(0, 0.001), verdictUnresolved},
		{"wide but inside the bar", ten(0, 0.035), ten(0, 0.001), verdictWithin},
		{"wide but wholly outside", ten(0.2, 0.1), ten(0, 0.001), verdictOutside},
		{"Err_p decides too", ten(0, 0.001), ten(0.05, 0.01), verdictOutside},
		{"five repetitions", []float64{0, 0.001, 0.002, 0, 0.001}, nil, verdictWithinFew},
		{"five bad repetitions", []float64{0.1, 0.1, 0.1, 0.1, 0.1}, nil, verdictOutsideFew},
	} {
		if got := verdict(tc.eM, tc.eP, bar); got != tc.want {
			lo, hi := stats.MedianInterval(tc.eM)
			t.Errorf("%s: %q, want %q (Err_m interval [%v, %v])", tc.name, got, tc.want, lo, hi)
		}
	}
}

// TestOatCache profiles a workload on the aot engine with its .oat cache
// (vm.oat): the same calls as without; a cache of another DEX file stops
// the step with an error naming it as stale.
func TestOatCache(t *testing.T) {
	dir := t.TempDir()
	cache := func(name string) string {
		data, err := workloads.Workload{Name: name, DEX: name + ".dex"}.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		f, err := dex.Read(data)
		if err != nil {
			t.Fatal(err)
		}
		b, err := oat.Encode(oat.New(f, name+".dex", aot.Compile(f, aot.Options{}), ssa.Config{}))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".oat")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	c := sdktest.Start(t, Plugin())
	out, err := c.Collect(context.Background(), "dpa", map[string]any{"workload": "dpa-fib", "args": []string{"12"}, "vm": map[string]any{"engine": "aot", "oat": cache("dpa-fib")}},
		sdktest.CollectOptions{StepID: "fib"})
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	readJSON(t, filepath.Join(out.StepDir, ResultFile), &r)
	tr, err := trace.Load(filepath.Join(out.StepDir, trace.RecordsFile), filepath.Join(out.StepDir, trace.MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	fibEnters := 0
	for _, e := range tr.Events {
		if m := tr.MethodByID()[e.Method]; e.Action == trace.Enter && m != nil && m.Class == "dpa.Fib" && m.Name == "fib" {
			fibEnters++
		}
	}
	if r.ExitCode != 0 || fibEnters != 465 {
		t.Errorf("exit %d, %d fib activations, want 0 and 465", r.ExitCode, fibEnters)
	}
	_, err = c.Collect(context.Background(), "dpa", map[string]any{"workload": "dpa-fib", "vm": map[string]any{"engine": "aot", "oat": cache("chess")}}, sdktest.CollectOptions{StepID: "stale"})
	if err == nil || !strings.Contains(err.Error(), "stale .oat cache") {
		t.Errorf("collect with chess's cache: %v, want a stale-cache error", err)
	}
}

// The analyzer's cross-check deducts, from the same trace, the calibration
// the trace was not deducted with, when the trace holds its figures.
func TestCrossCheck(t *testing.T) {
	for _, tc := range []struct {
		name      string
		tr        trace.Trace
		wantCalib string // "" for no cross-check
		wantEvent float64
		wantU     float64
	}{
		{"program, paired recorded", trace.Trace{Calibration: trace.CalibrationProgram, EventOverheadNs: 16.4, EventOverhead: 16,
			PairedEventOverhead: 25, PairedUnmeasuredOverhead: 11}, trace.CalibrationPaired, 25, 11},
		{"paired, program recorded", trace.Trace{Calibration: trace.CalibrationPaired, EventOverhead: 25,
			ProgramEventOverheadNs: 16.4, ProgramUnmeasuredOverheadNs: 3.6}, trace.CalibrationProgram, 16.4, 3.6},
		{"older trace: paired, nothing else", trace.Trace{EventOverhead: 25}, "", 0, 0},
		{"program, no paired figure", trace.Trace{Calibration: trace.CalibrationProgram, EventOverheadNs: 16.4}, "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := crossCheck(&tc.tr)
			if tc.wantCalib == "" {
				if x != nil {
					t.Fatalf("cross-check %+v, want none", x)
				}
				return
			}
			if x == nil || x.Calibration != tc.wantCalib {
				t.Fatalf("cross-check %+v, want calibration %q", x, tc.wantCalib)
			}
			event := cmp.Or(x.EventOverheadNs, float64(x.EventOverhead))
			u := cmp.Or(x.UnmeasuredOverheadNs, float64(x.UnmeasuredOverhead))
			if event != tc.wantEvent || u != tc.wantU {
				t.Errorf("cross-check deducts %.2f ns per event, %.2f unmeasured; want %.2f, %.2f", event, u, tc.wantEvent, tc.wantU)
			}
			if tc.tr.Calibration == x.Calibration {
				t.Error("the cross-check is the trace's own calibration")
			}
		})
	}
}

// Which calibration a step deducts: the program's own when its interval
// is narrow and its figure positive, else the calibration program's.
func TestProgramResolved(t *testing.T) {
	for _, tc := range []struct {
		name   string
		prog   analysis.Calibration
		paired time.Duration
		want   bool
	}{
		{"fib, resolved", analysis.Calibration{Event: 16.9, Lo: 16.6, Hi: 17.4, Pairs: 16}, 25, true},
		{"concat, within 2 ns", analysis.Calibration{Event: 19.5, Lo: 17.6, Hi: 21.4, Pairs: 44}, 25, true},
		{"fib in a slow phase, within 4 ns", analysis.Calibration{Event: 20.5, Lo: 17.2, Hi: 23.8, Pairs: 44}, 13, true},
		{"too wide", analysis.Calibration{Event: 19.5, Lo: 15.2, Hi: 22.2, Pairs: 44}, 25, false},
		{"loop-only program: noise", analysis.Calibration{Event: 363, Lo: -200, Hi: 900, Pairs: 44}, 24, false},
		{"no cost found", analysis.Calibration{Event: -5.3, Lo: -5.5, Hi: -5.0, Pairs: 44}, 26, false},
		{"multi-threaded: no pairs", analysis.Calibration{}, 26, false},
		{"fewer than 6 pairs: no interval", analysis.Calibration{Event: 17, Lo: math.Inf(-1), Hi: math.Inf(1), Pairs: 4}, 25, false},
		{"unbuffered: 2 % of a microsecond", analysis.Calibration{Event: 1302, Lo: 1290, Hi: 1320, Pairs: 12}, 1300 * time.Nanosecond, true},
	} {
		if got := programResolved(tc.prog, tc.paired); got != tc.want {
			t.Errorf("%s: programResolved(%+v, %v) = %v, want %v", tc.name, tc.prog, tc.paired, got, tc.want)
		}
	}
}

func TestJoinCalib(t *testing.T) {
	for _, tc := range []struct{ names, c, want string }{
		{"", "program", "program"},
		{"program", "program", "program"},
		{"program", "paired", "program+paired"},
		{"program+paired", "paired", "program+paired"},
		{"program+paired", "program", "program+paired"},
		{"paired", "", "paired"},
	} {
		if got := joinCalib(tc.names, tc.c); got != tc.want {
			t.Errorf("joinCalib(%q, %q) = %q, want %q", tc.names, tc.c, got, tc.want)
		}
	}
}

// TestEnoughPairs: when the program's calibration pairs stop (min = 12,
// the config's program_pairs made even).
func TestEnoughPairs(t *testing.T) {
	cal := func(event, half float64) analysis.Calibration {
		return analysis.Calibration{Event: event, Lo: event - half, Hi: event + half}
	}
	for _, tc := range []struct {
		name string
		c    analysis.Calibration
		n    int
		want bool
	}{
		{"resolved to ±0.5 ns after min", cal(19, 0.4), 12, true},
		{"resolved to ±0.5 ns before min", cal(19, 0.4), 8, false},
		{"microsecond events resolved to 2 % at 6", cal(1223, 20), 6, true},
		{"microsecond events not resolved to 2 %", cal(1223, 40), 6, false},
		{"interval could reach ±0.5 ns within 4×", cal(19, 0.8), 12, false},
		{"trusted figure goes on to 4× even if it cannot reach ±0.5 ns", cal(19, 1.2), 12, false},
		{"untrusted interval that could not reach ±0.5 ns within 4×", cal(19, 4.5), 12, true},
		{"loop-only program, hopeless before min", cal(17, 100), 6, true},
		{"loop-only program, hopeless at min", cal(200, 300), 12, true},
		{"fib's range at 6 pairs: not hopeless before min", cal(19, 3), 6, false},
		{"concat's ±15 ns at 6 pairs under load: not hopeless before min", cal(19, 15), 6, false},
		{"±60 ns at 6 pairs: hopeless before min", cal(19, 60), 6, true},
		{"4× min reached", cal(19, 0.6), 48, true},
		{"no interval yet (±Inf)", analysis.Calibration{Event: 19, Lo: math.Inf(-1), Hi: math.Inf(1)}, 12, true},
	} {
		if got := enoughPairs(tc.c, tc.n, 12); got != tc.want {
			t.Errorf("%s: enoughPairs(%+v, %d, 12) = %v, want %v", tc.name, tc.c, tc.n, got, tc.want)
		}
	}
}
