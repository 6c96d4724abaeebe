package runner

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/config"
	"github.com/droidprof/droidprof/framework/host"
	"github.com/droidprof/droidprof/framework/internal/testplugin"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runstore"
	"github.com/droidprof/droidprof/internal/procwait"
	"github.com/hashicorp/go-hclog"
)

func TestMain(m *testing.M) {
	testplugin.MaybeServe()
	os.Exit(m.Run())
}

// setup resolves an experiment against the test plugin served by this binary.
func setup(t *testing.T, hcl string) (*Runner, *config.Plan) {
	t.Helper()
	return setupPlugins(t, hcl, "testplug")
}

// setupPlugins is setup with the test plugin installed under several names,
// as if they were different plugins.
func setupPlugins(t *testing.T, hcl string, names ...string) (*Runner, *config.Plan) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]host.Source{}
	for _, n := range names {
		sources[n] = host.Source{Name: n, Path: self}
	}
	m := host.NewManager(sources, nil)
	t.Cleanup(m.Close)
	path := filepath.Join(t.TempDir(), "x.hcl")
	if err := os.WriteFile(path, []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, err := config.Load(path, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := exp.Resolve(m)
	if err != nil {
		t.Fatal(err)
	}
	store, err := runstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return &Runner{Plugins: m, Store: store, Logger: hclog.NewNullLogger()}, plan
}

func TestRunMatrixRepetitionsAndAnalysis(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  repeat = 3
  warmup = 1
  matrix {
    v = [1, 2]
  }
  collect "testplug" "ok" {
    value = matrix.v * 10
  }
  analyze "testplug" {}
}`)
	res, dir, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != results.StatusComplete || len(res.Steps) != 8 {
		t.Fatalf("status %s, %d steps; want complete, 8 (4 repetitions × 2 cells)", res.Status, len(res.Steps))
	}
	// Repetition-major order: the warm-up of both cells first.
	if !res.Steps[0].Warmup || !res.Steps[1].Warmup || res.Steps[2].Warmup || res.Steps[0].Labels["v"] != "1" || res.Steps[1].Labels["v"] != "2" {
		t.Errorf("schedule: %+v", res.Steps[:3])
	}
	if len(res.Metrics) != 2 {
		t.Fatalf("metrics = %+v", res.Metrics)
	}
	for _, m := range res.Metrics {
		want, _ := strconv.ParseFloat(m.Labels["v"]+"0", 64)
		if len(m.Samples) != 3 || m.Samples[0] != want || m.Analyzer != "testplug.testplug" {
			t.Errorf("metric %+v: want 3 samples of %v (warm-ups excluded)", m, want)
		}
	}
	onDisk, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil || onDisk.Status != results.StatusComplete {
		t.Fatalf("results.json: %v %v", onDisk, err)
	}
	for _, f := range []string{"report.md", "report.html", "config.resolved.json", "experiment.hcl"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if fp := res.Fingerprint.Plugins["testplug"]; len(fp.SHA256) != 64 {
		t.Errorf("plugin checksum not recorded: %+v", fp)
	}
}

// A plugin's warning reaches the results and the report once, naming the
// steps that logged it, however many repetitions log it.
func TestPluginWarningsReachTheResults(t *testing.T) {
	r, plan := setupPlugins(t, `
experiment "e" {
  repeat = 2
  matrix {
    v = [1, 2]
  }
  collect "testplug" "ok" {
    value = matrix.v
    warn  = "host too noisy"
  }
  collect "other" "ok" {
    value = 3
    warn  = "buffer overrun"
  }
}`, "testplug", "other")
	res, dir, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		if strings.Contains(w, "host too noisy") || strings.Contains(w, "buffer overrun") {
			got = append(got, w)
		}
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "host too noisy (steps ") || !strings.HasSuffix(got[0], " and 1 more)") ||
		!strings.HasPrefix(got[1], "buffer overrun (steps ") || strings.Contains(got[1], "more") {
		t.Fatalf("warnings %q; want each message once, with its steps", res.Warnings)
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(report), "host too noisy") {
		t.Errorf("report.md lacks the plugin's warning:\n%s", report)
	}
}

// TestPluginCrash: the crashing step fails with a readable message, its
// partial data stays, and the plugin is restarted for the next step.
func TestPluginCrash(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  collect "testplug" "crash" {}
  collect "testplug" "ok" {}
}`)
	res, dir, err := r.Run(context.Background(), plan)
	if err == nil || res.Status != results.StatusPartial {
		t.Fatalf("err = %v, status %s; want a partial run", err, res.Status)
	}
	crash, ok := res.Steps[0], res.Steps[1]
	if crash.Status != "failed" || !strings.Contains(crash.Error, "plugin testplug crashed") {
		t.Errorf("crashed step = %+v", crash)
	}
	var kept bool
	for _, a := range crash.Artifacts {
		if a.Name == "partial.txt" {
			_, err := os.Stat(filepath.Join(dir, a.Path))
			kept = err == nil
		}
	}
	if !kept {
		t.Errorf("partial data of the crashed step not kept: %+v", crash.Artifacts)
	}
	if ok.Status != "ok" {
		t.Errorf("step after the crash = %+v; the plugin should have been restarted", ok)
	}
}

// cancelOnProgress interrupts the run as soon as the plugin reports progress,
// which the hanging collector does after starting its grandchild.
type cancelOnProgress struct{ cancel context.CancelFunc }

func (c cancelOnProgress) Step(int, int, string) {}
func (c cancelOnProgress) Update(*api.Progress)  { c.cancel() }
func (c cancelOnProgress) Done()                 {}

func TestInterruptKeepsDataAndStopsChildren(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  repeat = 2
  collect "testplug" "hang" {}
}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.Progress = cancelOnProgress{cancel}
	res, dir, err := r.Run(ctx, plan)
	if err == nil || res.Status != results.StatusIncomplete {
		t.Fatalf("err = %v, status = %s; want incomplete", err, res.Status)
	}
	if len(res.Steps) != 1 || res.Steps[0].Status != "interrupted" {
		t.Fatalf("steps = %+v", res.Steps)
	}
	onDisk, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil || onDisk.Status != results.StatusIncomplete {
		t.Fatalf("results.json after interrupt: %v, %v", onDisk, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, res.Steps[0].Dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	r.Plugins.Close()
	if err := procwait.Gone(pid, 5*time.Second); err != nil {
		t.Fatal(err)
	}
}
