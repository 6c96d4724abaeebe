package opcost

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/plugins/opcost/microbench"
	"github.com/droidprof/droidprof/vm/gc"
)

func TestConformance(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	sdktest.Conformance(t, c)
}

// A small study end to end: the collector measures three opcode classes
// and the helpers they need on each engine, the analyzer derives their
// costs the way each benchmark says, and writes the table, its files and
// a metric per opcode and repetition.
func TestStudy(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	var steps []*sdk.StepArtifacts
	for _, engine := range []string{"interp", "aot"} {
		for rep := range 2 {
			labels := map[string]string{"engine": engine}
			cfg := map[string]any{"opcodes": []string{"cmp", "move-result", "monitor", "return-void"}, "loop_size": 200, "loop_count": 100,
				"measurements": 5, "vm": map[string]any{"engine": engine}}
			out, err := c.Collect(context.Background(), "opcost", cfg, sdktest.CollectOptions{RunDir: run, StepID: engine + "-" + string(rune('0'+rep)), Labels: labels, Repetition: rep})
			if err != nil {
				t.Fatal(err)
			}
			r := readJSON[Result](t, out.StepDir, ResultFile)
			if r.Engine != engine || len(r.Benches) != 12 {
				t.Fatalf("%s: engine %q, %d benchmarks: %+v", engine, r.Engine, len(r.Benches), r.Benches)
			}
			steps = append(steps, out.Step("opcost.opcost", labels, rep))
		}
	}
	// A program to predict: its counts come from the interpreter, its
	// time from the engine; the table lacks most of its opcodes' costs.
	out, err := c.Collect(context.Background(), "workloads", map[string]any{"workloads": []string{"dpa-fib 12"}, "measurements": 2},
		sdktest.CollectOptions{RunDir: run, StepID: "fib"})
	if err != nil {
		t.Fatal(err)
	}
	steps = append(steps, out.Step("opcost.workloads", nil, 0))
	resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*sdk.Table{}
	for _, tb := range resp.Tables {
		tables[tb.Name] = tb
	}
	tb := tables["engine_interp-costs"]
	if tb == nil {
		t.Fatalf("no interp cost table among %d tables", len(resp.Tables))
	}
	how := map[string]string{}
	for _, row := range tb.Rows {
		how[row[0]] = row[5]
	}
	for op, want := range map[string]string{
		"cmp-long": "unit", "move-result": "unit − return", "return": "unit − call-const",
		"monitor-enter": "unit (monitor-enter + monitor-exit) ÷ 2", "monitor-exit": "monitor-enter's unit ÷ 2",
		"return-void": "counted in each invoke's (the callee returns with it)",
	} {
		if how[op] != want {
			t.Errorf("%s derived as %q, want %q", op, how[op], want)
		}
	}
	if _, ok := how["call-const"]; ok {
		t.Error("a helper is listed in the cost table")
	}
	samples := 0
	for _, m := range resp.Metrics {
		if m.Name == "cost" && m.Labels["opcode"] == "cmp-long" {
			samples += len(m.Samples)
		}
	}
	if samples != 4 {
		t.Errorf("cost of cmp-long: %d samples, want one per step (4)", samples)
	}
	files := map[string]bool{}
	for _, a := range resp.Artifacts {
		files[a.Name] = true
	}
	for _, f := range []string{"engine_interp-costs.csv", "engine_aot-costs.json", "engine_aot-class-cmp.svg"} {
		if !files[f] {
			t.Errorf("no %s among %v", f, files)
		}
	}
	if !strings.Contains(resp.Summary, "Most expensive") {
		t.Errorf("summary: %s", resp.Summary)
	}
	cmp := tables["comparison"]
	if cmp == nil || len(cmp.Rows) != 1 || cmp.Rows[0][1] != "engine=aot" || cmp.Rows[0][2] != "9" {
		t.Errorf("comparison table %+v", cmp)
	}
	pt := tables["prediction-interp"]
	if pt == nil || len(pt.Rows) != 1 || pt.Rows[0][0] != "dpa-fib" || pt.Rows[0][1] != "12" {
		t.Fatalf("prediction table %+v", pt)
	}
	if !strings.Contains(resp.Summary, "without a cost in the table") || !strings.Contains(resp.Summary, "invoke-static") {
		t.Errorf("summary does not name the uncosted opcodes: %s", resp.Summary)
	}
}

func TestUnknownOpcode(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	_, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"add-itn"}}, sdktest.CollectOptions{})
	if err == nil || !strings.Contains(err.Error(), `no opcode or opcode class "add-itn" (did you mean "add-int"?)`) {
		t.Errorf("unknown opcode: %v", err)
	}
}

// The linearity study: a pair of div-int with each class's opcode, in
// both forms, compared with the mean of the two alone.
func TestLinearity(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"div-int"}, "linearity": true,
		"loop_size": 200, "loop_count": 50, "measurements": 3}, sdktest.CollectOptions{RunDir: run, StepID: "lin"})
	if err != nil {
		t.Fatal(err)
	}
	r := readJSON[Result](t, out.StepDir, ResultFile)
	// The interpreter's placement is recorded with the study: its errors
	// depend on it.
	if want := placement(); r.InterpPlacement != want || !strings.Contains(want, "Execute at 0x") {
		t.Errorf("placement %q, want %q", r.InterpPlacement, want)
	}
	// The study runs in rounds with an empty loop of its own.
	if len(r.LinearityEmpty) != 3 {
		t.Errorf("the study's empty loop: %d runs, want 3", len(r.LinearityEmpty))
	}
	for _, b := range r.Benches {
		if b.Class == "linearity" && len(b.Samples) != 3 {
			t.Errorf("%s: %d runs, want 3", b.Name, len(b.Samples))
		}
	}
	resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run, []*sdk.StepArtifacts{out.Step("opcost.opcost", nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range resp.Tables {
		if tb.Name == "linearity" {
			if len(tb.Rows) != len(microbench.LinearityOps) || tb.Rows[0][0] != "div-int + nop" {
				t.Errorf("linearity table: %v", tb.Rows)
			}
			for _, tb2 := range resp.Tables {
				for _, row := range tb2.Rows {
					if tb2.Name == "costs" && strings.HasPrefix(row[0], "div-int ") {
						t.Errorf("a pair in the cost table: %v", row)
					}
				}
			}
			return
		}
	}
	t.Errorf("no linearity table among %d", len(resp.Tables))
}

// The calibration sweep measures one opcode at each loop size and count.
func TestSweep(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"nop"}, "sweep_opcode": "move",
		"sweep_sizes": []int{10, 100}, "sweep_counts": []int{5, 20, 40}, "loop_size": 50, "loop_count": 10, "measurements": 3},
		sdktest.CollectOptions{RunDir: run, StepID: "sweep"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run, []*sdk.StepArtifacts{out.Step("opcost.opcost", nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, tb := range resp.Tables {
		if tb.Name == "sweep" {
			rows = tb.Rows
		}
	}
	want := [][2]string{{"10", "10"}, {"100", "10"}, {"50", "5"}, {"50", "20"}, {"50", "40"}}
	if len(rows) != len(want) {
		t.Fatalf("sweep rows %v", rows)
	}
	for i, w := range want {
		if rows[i][0] != "move" || rows[i][1] != w[0] || rows[i][2] != w[1] {
			t.Errorf("row %d: %v, want size %s count %s", i, rows[i], w[0], w[1])
		}
	}
	_, err = c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"nop"}, "sweep_opcode": "move-result"}, sdktest.CollectOptions{StepID: "bad"})
	if err == nil || !strings.Contains(err.Error(), "sweep_opcode") {
		t.Errorf("sweep of move-result: %v", err)
	}
	_, err = c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"nop"}, "sweep_opcode": "mvoe"}, sdktest.CollectOptions{StepID: "bad2"})
	if err == nil || !strings.Contains(err.Error(), `sweep_opcode: no opcode "mvoe" (did you mean "move"?)`) {
		t.Errorf("sweep of mvoe: %v", err)
	}
}

// The operand grids: one heat map and table per opcode, a point per pair
// of operand values (one row for a conversion).
func TestOperandGrids(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"nop"}, "operand_grids": []string{"div-int", "mul-long", "div-double", "double-to-int", "double-to-long"},
		"loop_size": 20, "loop_count": 5, "measurements": 3}, sdktest.CollectOptions{RunDir: run, StepID: "grids"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run, []*sdk.StepArtifacts{out.Step("opcost.opcost", nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*sdk.Table{}
	for _, tb := range resp.Tables {
		tables[tb.Name] = tb
	}
	if tb := tables["grid-div-int"]; tb == nil || len(tb.Rows) != 8 || len(tb.Columns) != 9 {
		t.Errorf("div-int grid %+v", tb)
	}
	if tb := tables["grid-double-to-int"]; tb == nil || len(tb.Rows) != 1 {
		t.Errorf("double-to-int grid %+v", tb)
	}
	figures := 0
	for _, a := range resp.Artifacts {
		if strings.HasPrefix(a.Name, "grid-") {
			figures++
		}
	}
	if figures != 5 {
		t.Errorf("%d grid figures, want 5", figures)
	}
}

// A grid that cannot be measured is refused before anything runs: an
// opcode without a grid, too many values, a value that is not an operand
// of the grid's type. Values that are valid replace the default axis.
func TestGridErrors(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	seventeen := make([]string, MaxGridValues+1)
	for i := range seventeen {
		seventeen[i] = strconv.Itoa(i + 1)
	}
	for _, tc := range []struct {
		name   string
		grids  []string
		values []string
		want   string
	}{
		{"no grid", []string{"add-int"}, nil, `no operand grid for "add-int"`},
		{"too large", []string{"div-int"}, seventeen, "a grid of 17 × 17 points is too large (at most 16 values, a 16 × 16 grid)"},
		{"not a number", []string{"div-double"}, []string{"1", "x2"}, `grid_values[1] "x2" is not a valid operand of div-double (a double)`},
		{"a long, not an int", []string{"mul-long", "div-int"}, []string{"7", "3000000000"}, `grid_values[1] "3000000000" is not a valid operand of div-int (an int)`},
		{"a double, not a long", []string{"div-double", "mul-long"}, []string{"1e9"}, `grid_values[0] "1e9" is not a valid operand of mul-long (a long)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := map[string]any{"opcodes": []string{"nop"}, "operand_grids": tc.grids, "loop_size": 20, "loop_count": 5, "measurements": 3}
			if tc.values != nil {
				cfg["grid_values"] = tc.values
			}
			_, err := c.Collect(context.Background(), "opcost", cfg, sdktest.CollectOptions{RunDir: t.TempDir(), StepID: "bad"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"nop"}, "operand_grids": []string{"mul-long"},
		"grid_values": []string{"3", "5000000000"}, "loop_size": 20, "loop_count": 5, "measurements": 3}, sdktest.CollectOptions{RunDir: run, StepID: "small"})
	if err != nil {
		t.Fatal(err)
	}
	r := readJSON[Result](t, out.StepDir, ResultFile)
	if len(r.Grids) != 1 || !slices.Equal(r.Grids[0].A, []string{"3", "5000000000"}) || len(r.Grids[0].Samples) != 2 || len(r.Grids[0].Samples[1]) != 2 {
		t.Errorf("grid of two values: %+v", r.Grids)
	}
	// A grid's own loop: a body of 10 copies run twice as often.
	out, err = c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"nop"}, "operand_grids": []string{"mul-long"},
		"grid_values": []string{"3"}, "grid_loop_size": 10, "loop_size": 20, "loop_count": 5, "measurements": 3}, sdktest.CollectOptions{RunDir: run, StepID: "short"})
	if err != nil {
		t.Fatal(err)
	}
	r = readJSON[Result](t, out.StepDir, ResultFile)
	if len(r.Grids) != 1 || r.Grids[0].LoopSize != 10 || r.Grids[0].LoopCount != 10 || r.LoopSize != 20 {
		t.Errorf("grid_loop_size 10: the grid's loop %d × %d, the table's %d", r.Grids[0].LoopSize, r.Grids[0].LoopCount, r.LoopSize)
	}
}

// A host too noisy for the threshold: every opcode whose measurements
// vary more than max_cv is flagged in the table, and the summary warns.
// The threshold is set below any real thread-CPU-time noise, so the
// measured opcodes must all be flagged; at a threshold no measurement
// reaches, none may be.
func TestNoisyHost(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"add-int", "mul-int"}, "loop_size": 50, "loop_count": 20,
		"measurements": 5}, sdktest.CollectOptions{RunDir: run, StepID: "noisy"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []*sdk.StepArtifacts{out.Step("opcost.opcost", nil, 0)}
	for _, tc := range []struct {
		maxCV   float64
		flagged bool
	}{{0.01, true}, {1000, false}} {
		resp, err := c.Analyze(context.Background(), "opcost", map[string]any{"max_cv": tc.maxCV}, run, steps)
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(resp.Summary, "the host was too noisy for them")
		if warned != tc.flagged {
			t.Errorf("max_cv %g: summary warns %v, want %v: %s", tc.maxCV, warned, tc.flagged, resp.Summary)
		}
		for _, tb := range resp.Tables {
			if tb.Name != "costs" {
				continue
			}
			for _, row := range tb.Rows {
				if (row[len(row)-1] == "noisy") != tc.flagged {
					t.Errorf("max_cv %g: row %v flagged %q", tc.maxCV, row, row[len(row)-1])
				}
			}
		}
	}
}

// The use cases: both ways of writing each expression, estimated and
// measured.
func TestUseCases(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"nop"}, "use_cases": true,
		"loop_size": 100, "loop_count": 20, "measurements": 3}, sdktest.CollectOptions{RunDir: run, StepID: "uc"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run, []*sdk.StepArtifacts{out.Step("opcost.opcost", nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range resp.Tables {
		if tb.Name == "usecases" {
			if len(tb.Rows) != 2 || tb.Rows[0][1] != "(double)(x / 2)" || tb.Rows[1][2] != "long-to-double + div-double" {
				t.Errorf("use cases %v", tb.Rows)
			}
			if !strings.Contains(resp.Summary, "2.85×") {
				t.Errorf("summary: %s", resp.Summary)
			}
			return
		}
	}
	t.Error("no use-case table")
}

func TestFloatEquivalent(t *testing.T) {
	for op, want := range map[string]string{
		"add-double": "add-float", "mul-double/2addr": "mul-float/2addr", "cmpg-double": "cmpg-float", "neg-double": "neg-float",
		"aget-wide": "aget", "move-wide/from16": "move/from16", "move-result-wide": "move-result", "return-wide": "return",
		"const-wide/high16": "const/high16", "const-wide/16": "const/16", "const-wide": "const",
		"int-to-double": "int-to-float", "double-to-int": "float-to-int", "add-int": "", "invoke-static": "",
	} {
		if got := floatEquivalent(op); got != want {
			t.Errorf("floatEquivalent(%s) = %q, want %q", op, got, want)
		}
	}
}

// The doubles-to-floats use case: a SciMark kernel and its float version,
// estimated from the cost table and measured.
func TestFloatUseCase(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	tab, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"arith", "array-access", "move"}, "loop_size": 50, "loop_count": 10, "measurements": 3},
		sdktest.CollectOptions{RunDir: run, StepID: "table"})
	if err != nil {
		t.Fatal(err)
	}
	wl, err := c.Collect(context.Background(), "workloads", map[string]any{"workloads": []string{"scimark-sor 20 2", "scimark-sor-float 20 2"}, "measurements": 2},
		sdktest.CollectOptions{RunDir: run, StepID: "sor"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run, []*sdk.StepArtifacts{tab.Step("opcost.opcost", nil, 0), wl.Step("opcost.workloads", nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range resp.Tables {
		if tb.Name == "usecase-floats-interp" {
			if len(tb.Rows) != 1 || tb.Rows[0][0] != "scimark-sor" {
				t.Errorf("use case table %v", tb.Rows)
			}
			if !strings.Contains(resp.Summary, "Doubles to floats on interp") {
				t.Errorf("summary: %s", resp.Summary)
			}
			return
		}
	}
	t.Error("no doubles-to-floats table")
}

// The call terms: the collector measures the call shapes, the workloads
// collector counts each call's argument words and recursion, and the
// prediction adds both. fib(12) makes 465 calls of fib, all but the
// first recursive, and no other call of the program is.
func TestCallTerms(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"arith", "control", "invoke", "return", "move", "const"},
		"loop_size": 100, "loop_count": 20, "measurements": 3, "call_shapes": true}, sdktest.CollectOptions{RunDir: run, StepID: "table"})
	if err != nil {
		t.Fatal(err)
	}
	r := readJSON[Result](t, out.StepDir, ResultFile)
	cs := r.CallShapes
	if cs == nil || cs.Calls != 242785 || len(cs.Samples) != len(shapeNames) || len(cs.Samples["recursion"]) != 3 || cs.RecursionCounts["invoke-static"] < uint64(cs.Trees*treeCalls) {
		t.Fatalf("call shapes %+v", cs)
	}
	// poly-virtual's receiver is a pseudo-random bit: its target changes
	// at about half the calls; mono-virtual's never.
	if sw := float64(cs.PolySwitches) / float64(cs.Calls); sw < 0.45 || sw > 0.55 {
		t.Errorf("poly-virtual switched targets at %d of %d calls", cs.PolySwitches, cs.Calls)
	}
	w, err := c.Collect(context.Background(), "workloads", map[string]any{"workloads": []string{"dpa-fib 12"}, "measurements": 2},
		sdktest.CollectOptions{RunDir: run, StepID: "fib"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run,
		[]*sdk.StepArtifacts{out.Step("opcost.opcost", nil, 0), w.Step("opcost.workloads", nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp.Summary, "Call shapes: an argument word costs") {
		t.Errorf("summary: %s", resp.Summary)
	}
	for _, tb := range resp.Tables {
		if tb.Name == "prediction-interp" {
			if len(tb.Rows) != 1 || !strings.Contains(tb.Rows[0][6], " / 464 / ") {
				t.Errorf("prediction %v %v", tb.Columns, tb.Rows)
			}
			return
		}
	}
	t.Error("no prediction table")
}

// The allocation terms: the collector measures the allocation shapes
// (char arrays in both spaces; their sizes from the VM's allocation
// hook), the workloads collector counts a program's allocations and
// collections, and the prediction adds the bytes at the shapes' costs.
// dpa-concat builds its string by copying it whole at every step, so its
// char arrays grow past the large-object threshold (12 KiB) as it runs.
func TestAllocTerms(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"arith", "control", "invoke", "return", "move", "const", "array", "instance"},
		"loop_size": 100, "loop_count": 20, "measurements": 3, "alloc_shapes": true}, sdktest.CollectOptions{RunDir: run, StepID: "table"})
	if err != nil {
		t.Fatal(err)
	}
	r := readJSON[Result](t, out.StepDir, ResultFile)
	as := r.AllocShapes
	if as == nil || len(as.Sizes) != len(allocLengths) || len(as.Samples) != len(allocLengths) {
		t.Fatalf("allocation shapes %+v", as)
	}
	for i := range as.Sizes {
		// A char array holds two bytes a char beyond its header.
		if got := as.Sizes[i] - as.Sizes[0]; got < 2*uint32(as.Lengths[i]-as.Lengths[0]) || len(as.Samples[i]) != 3 {
			t.Errorf("shape %d chars: size %d (the one-char array's %d), %d samples", as.Lengths[i], as.Sizes[i], as.Sizes[0], len(as.Samples[i]))
		}
	}
	if as.Sizes[3] < gc.LargeThreshold || as.Sizes[2] >= gc.LargeThreshold {
		t.Errorf("sizes %v: want two shapes below the large-object threshold and two above", as.Sizes)
	}
	w, err := c.Collect(context.Background(), "workloads", map[string]any{"workloads": []string{"dpa-concat 1500"}, "measurements": 2},
		sdktest.CollectOptions{RunDir: run, StepID: "concat"})
	if err != nil {
		t.Fatal(err)
	}
	wr := readJSON[WorkloadsResult](t, w.StepDir, WorkloadsFile)
	// concat(1500) ends with a string of 6 390 chars ("0,1,…,1499,"),
	// and copies every shorter one on the way: the sum of its lengths
	// alone is over 4.7 M chars, 9 MB.
	if a := wr.Workloads[0].Alloc; a == nil || a.Bytes+a.LargeBytes+a.NativeBytes < 9e6 || a.Objects == 0 {
		t.Fatalf("concat's allocations %+v", a)
	}
	resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run,
		[]*sdk.StepArtifacts{out.Step("opcost.opcost", nil, 0), w.Step("opcost.workloads", nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp.Summary, "Allocation shapes: a byte beyond") {
		t.Errorf("summary: %s", resp.Summary)
	}
	for _, tb := range resp.Tables {
		if tb.Name == "prediction-interp" {
			col := slices.Index(tb.Columns, "allocation ms")
			if len(tb.Rows) != 1 || col < 0 {
				t.Fatalf("prediction %v %v", tb.Columns, tb.Rows)
			}
			return
		}
	}
	t.Error("no prediction table")
}

// Adaptive stopping: with a confidence interval wide enough for any run
// (±100 %), every benchmark stops at the first chance, after
// MinStopRuns measured runs of the 30 asked for; without it, all 30 run.
func TestStopCI(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	for _, tc := range []struct {
		stopCI float64
		want   int
	}{{100, MinStopRuns}, {0, 30}} {
		out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": []string{"add-int", "mul-int"},
			"loop_size": 100, "loop_count": 20, "measurements": 30, "stop_ci": tc.stopCI}, sdktest.CollectOptions{RunDir: t.TempDir(), StepID: "s"})
		if err != nil {
			t.Fatal(err)
		}
		r := readJSON[Result](t, out.StepDir, ResultFile)
		for _, b := range r.Benches {
			if len(b.Samples) != tc.want {
				t.Errorf("stop_ci %g: %s has %d runs, want %d", tc.stopCI, b.Name, len(b.Samples), tc.want)
			}
		}
	}
}

// The stopper's interval: ten equal runs are as narrow as can be; runs
// that vary by a factor of two are not within ±1 %.
func TestNarrow(t *testing.T) {
	for _, tc := range []struct {
		xs   []int64
		rel  float64
		want bool
	}{
		{[]int64{100, 100, 100, 100, 100, 100, 100, 100, 100, 100}, 0.001, true},
		{[]int64{100, 200, 100, 200, 100, 200, 100, 200, 100, 200}, 0.01, false},
		{[]int64{1000, 1001, 999, 1000, 1002, 998, 1000, 1001, 999, 1000}, 0.01, true},
	} {
		if got := narrow(tc.xs, tc.rel); got != tc.want {
			t.Errorf("narrow(%v, %g) = %v, want %v", tc.xs, tc.rel, got, tc.want)
		}
	}
}

// readJSON reads a collector's JSON file from a step's directory.
func readJSON[T any](t *testing.T, stepDir, file string) T {
	t.Helper()
	var r T
	data, err := os.ReadFile(filepath.Join(stepDir, file))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}
