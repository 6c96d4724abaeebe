package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runstore"
)

// values returns the samples of the "value" metrics by label string.
func values(res *results.Results) map[string][]float64 {
	out := map[string][]float64{}
	for _, m := range res.Metrics {
		if m.Name == "value" {
			out[results.LabelString(m.Labels)] = append(out[results.LabelString(m.Labels)], m.Samples...)
		}
	}
	return out
}

// TestAnalyzerSeesOnlyItsPluginsSteps: an analyzer is given the steps of its
// own plugin's collectors only, never another plugin's artifacts (which
// mobibench's analyzer turned into zero rows labelled collector=dpa).
func TestAnalyzerSeesOnlyItsPluginsSteps(t *testing.T) {
	r, plan := setupPlugins(t, `
experiment "e" {
  repeat = 2
  collect "testplug" "ok" {
    value = 1
  }
  collect "otherplug" "ok" {
    value = 99
  }
  analyze "testplug" {}
}`, "testplug", "otherplug")
	res, _, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	got := values(res)
	if len(got) != 1 || len(got[""]) != 2 || got[""][0] != 1 || got[""][1] != 1 {
		t.Fatalf("testplug's analyzer made %v; want only testplug's two samples of 1 (otherplug's 99 are not its data)", got)
	}
}

// TestFailedStepsKeepTheRest: the README's fsync-vs-osync on a machine
// without fio — half the steps fail — still analyses the other half; the
// run is partial and names the cells that lack data.
func TestFailedStepsKeepTheRest(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  matrix {
    v = [1, 2]
  }
  collect "testplug" "ok" {
    value = matrix.v
  }
  collect "testplug" "crash" {
    value = matrix.v # one crash per cell: the README example's fio half
  }
  analyze "testplug" {}
}`)
	res, dir, err := r.Run(context.Background(), plan)
	if err == nil || !strings.Contains(err.Error(), "2 of 4 steps failed") {
		t.Errorf("err = %v; want the failed steps reported", err)
	}
	if res.Status != results.StatusPartial {
		t.Errorf("status %s, want partial", res.Status)
	}
	got := values(res)
	if len(got) != 2 || len(got["v=1"]) != 1 || got["v=1"][0] != 1 || got["v=2"][0] != 2 {
		t.Errorf("metrics %v; want the two cells of the steps that succeeded", got)
	}
	var miss []string
	for _, m := range res.Missing {
		miss = append(miss, m.String())
	}
	if want := "testplug.crash v=1 (0 of 1 repetitions)|testplug.crash v=2 (0 of 1 repetitions)"; strings.Join(miss, "|") != want {
		t.Errorf("missing = %q, want %q", strings.Join(miss, "|"), want)
	}
	onDisk, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil || onDisk.Status != results.StatusPartial || len(onDisk.Missing) != 2 || len(onDisk.Metrics) != 2 {
		t.Fatalf("results.json: %v %+v", err, onDisk)
	}
	// The report shows the run's warnings: the missing cells are one.
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil || !strings.Contains(string(md), "testplug.crash v=2 (0 of 1 repetitions)") {
		t.Errorf("report.md does not name the missing cells: %v", err)
	}
}

// cancelOnStep interrupts the run when a step whose ID contains substr
// reports progress.
type cancelOnStep struct {
	substr string
	cancel context.CancelFunc
	mu     sync.Mutex
	cur    string
	steps  int
}

func (c *cancelOnStep) Step(_, _ int, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cur = id
	c.steps++
}

func (c *cancelOnStep) Update(*api.Progress) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if strings.Contains(c.cur, c.substr) {
		c.cancel()
	}
}

func (c *cancelOnStep) Done() {}

// TestInterruptAnalysesWhatCompleted: Ctrl-C in the second step leaves an
// incomplete run with the first step's metrics.
func TestInterruptAnalysesWhatCompleted(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  repeat = 2
  collect "testplug" "ok" {
    value = 7
  }
  collect "testplug" "hang" {}
  analyze "testplug" {}
}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.Progress = &cancelOnStep{substr: "hang", cancel: cancel}
	res, _, err := r.Run(ctx, plan)
	if !errors.Is(err, context.Canceled) || res.Status != results.StatusIncomplete {
		t.Fatalf("err = %v, status %s; want an interrupted, incomplete run", err, res.Status)
	}
	if len(res.Steps) != 2 || res.PlannedSteps != 4 {
		t.Fatalf("%d steps ran of %d planned; want 2 of 4", len(res.Steps), res.PlannedSteps)
	}
	if d := res.Steps[1].Duration; d <= 0 {
		t.Errorf("the interrupted step's duration is %v s; want the time it ran", d)
	}
	if got := values(res); len(got[""]) != 1 || got[""][0] != 7 {
		t.Errorf("metrics %v; want the completed step's sample", got)
	}
	if len(res.Analyses) != 1 || res.Analyses[0].Status != "ok" {
		t.Errorf("analyses %+v", res.Analyses)
	}
	var miss []string
	for _, m := range res.Missing {
		miss = append(miss, m.String())
	}
	if want := "testplug.ok (1 of 2 repetitions)|testplug.hang (0 of 2 repetitions)"; strings.Join(miss, "|") != want {
		t.Errorf("missing = %q, want %q", strings.Join(miss, "|"), want)
	}
}

// TestAnalyzeStoredRun: a run whose analysis never happened (killed before
// it) is analysed afterwards; analysing again replaces, never duplicates.
func TestAnalyzeStoredRun(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  repeat = 3
  matrix {
    v = [1, 2]
  }
  collect "testplug" "ok" {
    value = matrix.v
  }
  analyze "testplug" {}
}`)
	res, dir, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	want := values(res)
	// As a run killed before its analysis leaves it.
	res.Analyses, res.Metrics, res.Tables, res.Figures = nil, nil, nil, nil
	res.Status = results.StatusRunning
	if err := res.Write(filepath.Join(dir, results.FileName)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		got, err := r.Analyze(context.Background(), dir, "")
		if err != nil {
			t.Fatal(err)
		}
		if g := values(got); len(g) != 2 || len(g["v=1"]) != 3 || len(g["v=2"]) != 3 || g["v=2"][0] != want["v=2"][0] {
			t.Fatalf("analysis %d: metrics %v, want %v", i, g, want)
		}
		if len(got.Analyses) != 1 || got.Status != results.StatusCrashed {
			t.Errorf("analysis %d: analyses %+v, status %s (a run left running is crashed, and stays so)", i, got.Analyses, got.Status)
		}
	}
	onDisk, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil || len(onDisk.Metrics) != 2 {
		t.Fatalf("results.json after analyze: %v, %+v", err, onDisk)
	}
	list, err := r.Store.List(runstore.Filter{})
	if err != nil || len(list) != 1 || list[0].Metrics != 2 || list[0].Status != results.StatusCrashed {
		t.Errorf("index after analyze: %v %+v", err, list)
	}
	if _, err := r.Analyze(context.Background(), dir, "nosuch"); err == nil || !strings.Contains(err.Error(), `no analyzer of plugin "nosuch"; its analyzers are of: testplug`) {
		t.Errorf("analyze --plugin nosuch: %v", err)
	}
}

// TestResolvedConfigNamesAnalyzers: Analyze depends on config.resolved.json
// listing the analyze blocks with plugin, component and config.
func TestResolvedConfigNamesAnalyzers(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  collect "testplug" "ok" {}
  analyze "testplug" {}
}`)
	_, dir, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	got, err := storedAnalyzers(dir)
	if err != nil || len(got) != 1 || got[0].name() != "testplug.testplug" || !json.Valid(got[0].Config) {
		t.Fatalf("stored analyzers = %+v, %v", got, err)
	}
	os.Remove(filepath.Join(dir, ResolvedConfig))
	if _, err := r.Analyze(context.Background(), dir, ""); err == nil || !strings.Contains(err.Error(), ResolvedConfig) {
		t.Errorf("analyze without %s: %v", ResolvedConfig, err)
	}
}

// TestAnalyzeRunOfAnotherStore: analysing a run by path updates the index of
// the store it is in, not the one the runner was given.
func TestAnalyzeRunOfAnotherStore(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  collect "testplug" "ok" {}
  analyze "testplug" {}
}`)
	res, dir, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	res.Analyses, res.Metrics = nil, nil
	if err := res.Write(filepath.Join(dir, results.FileName)); err != nil {
		t.Fatal(err)
	}
	if err := r.Store.Update(res); err != nil {
		t.Fatal(err)
	}
	other, err := runstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	r2 := *r
	r2.Store = other
	if _, err := r2.Analyze(context.Background(), dir, ""); err != nil {
		t.Fatal(err)
	}
	list, err := r.Store.List(runstore.Filter{})
	if err != nil || len(list) != 1 || list[0].Metrics != 1 {
		t.Errorf("index of the run's own store: %v %+v", err, list)
	}
	if l, _ := other.List(runstore.Filter{}); len(l) != 0 {
		t.Errorf("the runner's store indexed a run that is not in it: %+v", l)
	}
}

// TestFailedStepsReachTheirAnalyzer: a step whose collector crashed is
// handed to its own plugin's analyzer with its status, its error and the
// files it left (to analyse as far as they go); another plugin's failed
// step is not.
func TestFailedStepsReachTheirAnalyzer(t *testing.T) {
	r, plan := setupPlugins(t, `
experiment "e" {
  collect "testplug" "ok" {
    value = 1
  }
  collect "testplug" "crash" {}
  collect "otherplug" "crash" {}
  analyze "testplug" {}
}`, "testplug", "otherplug")
	res, _, _ := r.Run(context.Background(), plan)
	var rows [][]string
	for _, tb := range res.Tables {
		if tb.Name == "unfinished" {
			rows = tb.Rows
		}
	}
	if len(rows) != 1 {
		t.Fatalf("the analyzer saw unfinished steps %v; want testplug's crashed one only", rows)
	}
	if row := rows[0]; !strings.Contains(row[0], "crash") || row[1] != "failed" || row[2] == "" || !strings.Contains(row[3], "partial.txt") {
		t.Errorf("unfinished step %q: want the crash step, failed, its error, its partial.txt", row)
	}
	if got := values(res); len(got[""]) != 1 || got[""][0] != 1 {
		t.Errorf("metrics %v: want the ok step's", got)
	}
}
