package opcost

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/compare"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
)

// `droidprof compare` of two opcost runs: each run's analysis gives a
// cost metric per opcode and engine, and the comparison ranks them per
// engine — rank correlations, max/min ratio, the opcodes that move most.
// Two runs of the same study on this host: the ranks must agree (the
// opcodes span nop to throw, a factor of ten and more). The bounds are
// loose because the short loops' derived costs (a return is its call's
// unit less the call's) are noisy at load 15: ρ came out 0.58–0.97 there,
// where rows matched wrongly would give ρ near 0.
func TestCompareRuns(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	opcodes := []string{"nop", "move", "const/4", "const-wide", "add-int", "mul-long", "div-double", "int-to-long", "double-to-int",
		"new-instance", "new-array", "throw", "invoke-static", "invoke-virtual", "invoke-interface", "check-cast", "instance-of",
		"monitor-enter", "iget", "sget", "aget", "const-string", "cmp-long", "array-length", "goto", "if-eq"}
	var runs []*results.Results
	for i := range 2 {
		run := t.TempDir()
		var steps []*sdk.StepArtifacts
		for _, engine := range []string{"interp", "aot"} {
			labels := map[string]string{"engine": engine}
			out, err := c.Collect(context.Background(), "opcost", map[string]any{"opcodes": opcodes, "loop_size": 1000, "loop_count": 200,
				"measurements": 7, "vm": map[string]any{"engine": engine}}, sdktest.CollectOptions{RunDir: run, StepID: engine, Labels: labels})
			if err != nil {
				t.Fatal(err)
			}
			steps = append(steps, out.Step("opcost.opcost", labels, 0))
		}
		resp, err := c.Analyze(context.Background(), "opcost", map[string]any{}, run, steps)
		if err != nil {
			t.Fatal(err)
		}
		r := &results.Results{RunID: fmt.Sprintf("run%d", i), Experiment: "opcost", Status: results.StatusComplete}
		for _, m := range resp.Metrics {
			r.Metrics = append(r.Metrics, metricOf(m))
		}
		runs = append(runs, r)
	}
	cmp := compare.Compare(runs[0], runs[1], compare.Options{})
	if len(cmp.Rankings) != 2 {
		t.Fatalf("%d rankings, want one per engine: %+v", len(cmp.Rankings), cmp.Rankings)
	}
	for _, r := range cmp.Rankings {
		if r.Name != "cost" || r.Item != "opcode" || r.Items < len(opcodes) {
			t.Errorf("ranking %s: %d %ss", r.Title(), r.Items, r.Item)
		}
		if r.Spearman < 0.5 || r.Kendall < 0.35 {
			t.Errorf("%s: two runs of one study rank apart: ρ %.3f τ %.3f", r.Title(), r.Spearman, r.Kendall)
		}
		if r.OldRatio < 10 || r.NewRatio < 10 {
			t.Errorf("%s: max/min %.1f and %.1f, want throw ≥ 10× the cheapest", r.Title(), r.OldRatio, r.NewRatio)
		}
		t.Logf("%s: %s", r.Title(), r.Summary())
	}
	var text strings.Builder
	if err := compare.WriteText(&text, cmp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "cost by opcode (engine=aot): ") {
		t.Errorf("compare's text has no ranking:\n%s", text.String())
	}
}

// metricOf is what the runner stores of an analyzer's metric.
func metricOf(m *sdk.Metric) results.Metric {
	better := ""
	switch m.Better {
	case sdk.LowerIsBetter:
		better = results.BetterLower
	case sdk.HigherIsBetter:
		better = results.BetterHigher
	}
	return results.Metric{Name: m.Name, Unit: m.Unit, Better: better, Labels: m.Labels, Samples: m.Samples, Analyzer: "opcost.opcost"}
}
