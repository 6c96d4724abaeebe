package artobj

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
)

// The analyzer end to end: a leaking program profiled with the access
// bitmap (and its time overhead measured) and without, and a copy of the
// first run whose event file was cut short, as a run killed mid-way
// leaves it.
func TestAnalyze(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	vmcfg := func(engine, barriers string) map[string]any {
		return map[string]any{"engine": engine, "barriers": barriers, "heap_max": 16 << 20, "heap_start": 1 << 20, "min_free": 64 << 10, "max_free": 256 << 10}
	}
	var steps []*sdk.StepArtifacts
	for _, tc := range []struct {
		id  string
		cfg map[string]any
	}{
		{"aot", map[string]any{"workload": "leak-swap", "args": []string{"8000"}, "overhead": true, "overhead_rounds": 2, "vm": vmcfg("aot", "all")}},
		{"interp", map[string]any{"workload": "leak-swap", "args": []string{"8000"}, "interpreter_barriers": false, "vm": vmcfg("interp", "off")}},
	} {
		out, _, _ := collectStep(t, c, run, tc.id, tc.cfg)
		steps = append(steps, out.Step("artobj.artobj", nil, 0))
	}
	// The cut copy: the aot step's files, its event file halved.
	cut := *steps[0]
	cut.ID = "cut"
	cut.Artifacts = nil
	for _, a := range steps[0].Artifacts {
		b := *a
		data, err := os.ReadFile(filepath.Join(run, filepath.FromSlash(a.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if a.Name == EventsFile {
			data = data[:len(data)/2+5]
		}
		b.Path = "steps/cut/" + a.Name
		if err := os.MkdirAll(filepath.Join(run, "steps", "cut"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, filepath.FromSlash(b.Path)), data, 0o644); err != nil {
			t.Fatal(err)
		}
		cut.Artifacts = append(cut.Artifacts, &b)
	}
	cut.Labels = map[string]string{"copy": "cut"}
	steps = append(steps, &cut)

	resp, err := c.Analyze(context.Background(), "artobj", map[string]any{"top": 5}, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*sdk.Table{}
	for _, tb := range resp.Tables {
		tables[tb.Name] = tb
	}
	progs := tables["programs"]
	if progs == nil || len(progs.Rows) != 3 {
		t.Fatalf("programs table %+v", progs)
	}
	col := func(tb *sdk.Table, name string) int {
		for i, c := range tb.Columns {
			if c == name {
				return i
			}
		}
		t.Fatalf("table %s has no column %q: %v", tb.Name, name, tb.Columns)
		return -1
	}
	note := col(progs, "note")
	if progs.Rows[0][note] != "" || !strings.Contains(progs.Rows[2][note], "partial") || !strings.Contains(progs.Rows[2][note], "offset") {
		t.Errorf("notes %q, %q: only the cut run is partial, and says where it ends", progs.Rows[0][note], progs.Rows[2][note])
	}
	objects := col(progs, "objects")
	whole, _ := strconv.Atoi(progs.Rows[0][objects])
	half, _ := strconv.Atoi(progs.Rows[2][objects])
	if half <= 0 || half >= whole {
		t.Errorf("the cut file has %d objects, the whole %d: want what is complete of it", half, whole)
	}
	if !strings.Contains(resp.Summary, "partial") {
		t.Errorf("the summary does not say a file is partial: %s", resp.Summary)
	}

	// Space: the bitmap is heap/64 with barriers, none without.
	space := tables["space"]
	bm := col(space, "bitmap % of heap")
	if got, _ := strconv.ParseFloat(space.Rows[0][bm], 64); got < 100.0/64-0.01 || got > 100.0/64+0.01 {
		t.Errorf("bitmap %s %% of the heap, want 100/64", space.Rows[0][bm])
	}
	if space.Rows[1][col(space, "bitmap")] != sdk.Size(0).String() {
		t.Errorf("interp without barriers has a bitmap: %v", space.Rows[1])
	}

	// Time: only the step that measured it.
	if tm := tables["time"]; tm == nil || len(tm.Rows) != 2 {
		t.Errorf("time table %+v: want the measured step and its cut copy", tm)
	}

	// The leak ranking names SwapLeak's leak with the bitmaps.
	var leakTable *sdk.Table
	for name, tb := range tables {
		if strings.HasSuffix(name, "leak-sites") && strings.Contains(name, "aot") && !strings.Contains(name, "cut") {
			leakTable = tb
		}
	}
	if leakTable == nil || !strings.Contains(leakTable.Rows[0][1], "SwapLeak$Store.update") {
		t.Errorf("leak ranking %+v", leakTable)
	}
	figures, profiles := 0, 0
	for _, a := range resp.Artifacts {
		if strings.HasSuffix(a.Name, ".svg") {
			figures++
		}
		if strings.HasSuffix(a.Name, "heap.pb.gz") {
			profiles++
		}
	}
	if profiles != 3 {
		t.Errorf("%d heap profiles, want one per program", profiles)
	}
	// Survival, per-epoch and replay figures per program, and the
	// overhead chart.
	if figures != 3*3+1 {
		var names []string
		for _, a := range resp.Artifacts {
			names = append(names, a.Name)
		}
		t.Errorf("%d figures: %v", figures, names)
	}
	samples := 0
	for _, m := range resp.Metrics {
		if m.Name == "objects" {
			samples += len(m.Samples)
		}
	}
	if samples != 3 {
		t.Errorf("%d samples of objects, want one per step", samples)
	}
}

// The death times of an ordinary run against the exact ones of the same
// program under a collection at every allocation: no object can be found
// dead before it became unreachable, so none dies earlier; objects are
// matched across the runs.
func TestDeathTimes(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	var steps []*sdk.StepArtifacts
	for _, stress := range []bool{true, false} {
		id := "normal"
		if stress {
			id = "stress"
		}
		cfg := map[string]any{"workload": "leak-list 150", "gc_stress_all": stress,
			"vm": map[string]any{"heap_start": 128 << 10, "min_free": 16 << 10, "max_free": 32 << 10}}
		out, _, _ := collectStep(t, c, run, id, cfg)
		steps = append(steps, out.Step("artobj.artobj", nil, 0))
	}
	resp, err := c.Analyze(context.Background(), "artobj", nil, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	var tb *sdk.Table
	for _, x := range resp.Tables {
		if x.Name == "death-times" {
			tb = x
		}
	}
	if tb == nil || len(tb.Rows) != 1 {
		t.Fatalf("death-times table %+v", tb)
	}
	row := map[string]string{}
	for i, c := range tb.Columns {
		row[c] = tb.Rows[0][i]
	}
	t.Logf("%v", row)
	if row["earlier than exact"] != "0" {
		t.Errorf("%s objects died earlier than they became unreachable", row["earlier than exact"])
	}
	if n, _ := strconv.Atoi(row["objects matched"]); n < 150*4 {
		t.Errorf("%d objects matched, fewer than the program's requests make", n)
	}
	if row["unmatched"] != "0" {
		t.Errorf("%s objects unmatched: the two runs of a deterministic program allocate alike", row["unmatched"])
	}
	if late := row["median delay of the others (bytes)"]; late == "–" || late == "0" {
		t.Errorf("median delay %s: an ordinary run finds some objects dead later than the exact run", late)
	}
}
