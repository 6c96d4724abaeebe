package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
)

// quickstartMaxBytes is what a new user's first run may leave on disk.
const quickstartMaxBytes = 50 << 20

// diskUsage sums the blocks allocated to the files under dir, as du does.
func diskUsage(t *testing.T, dir string) int64 {
	t.Helper()
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			total += st.Blocks * 512
		} else {
			total += fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// TestQuickstartFootprint runs the real quickstart config through the built
// binary: it must finish with metrics of both plugins and leave at most
// quickstartMaxBytes behind. The dpa collector uses no matrix axis, so it
// runs once per repetition instead of once per Mobibench cell.
func TestQuickstartFootprint(t *testing.T) {
	c := newCLI(t)
	cfg, err := filepath.Abs("../../configs/quickstart.hcl")
	if err != nil {
		t.Fatal(err)
	}
	out := c.ok("run", cfg)
	_, dir := runID(t, out)
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != results.StatusComplete {
		t.Fatalf("status %s; output:\n%s", res.Status, out)
	}
	if n := diskUsage(t, dir); n > quickstartMaxBytes {
		t.Errorf("the quickstart run uses %.1f MiB on disk, want at most %d MiB", float64(n)/(1<<20), quickstartMaxBytes>>20)
	}

	var resolved struct {
		Repeat  int `json:"repeat"`
		Warmup  int `json:"warmup"`
		Collect []struct {
			Plugin string   `json:"plugin"`
			Axes   []string `json:"axes"`
			Cells  []string `json:"cells"`
		} `json:"collect"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "config.resolved.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &resolved); err != nil {
		t.Fatal(err)
	}
	perCollector := map[string]int{}
	for _, s := range res.Steps {
		perCollector[s.Collector]++
		if s.Status != "ok" {
			t.Errorf("step %s: %s %s", s.ID, s.Status, s.Error)
		}
		if s.Collector == "dpa.dpa" && len(s.Labels) != 0 {
			t.Errorf("dpa step %s carries matrix labels %v; it uses no axis", s.ID, s.Labels)
		}
	}
	for _, col := range resolved.Collect {
		want := len(col.Cells) * (resolved.Repeat + resolved.Warmup)
		if got := perCollector[col.Plugin+"."+col.Plugin]; got != want {
			t.Errorf("collector %s (axes %q): %d steps, want %d", col.Plugin, col.Axes, got, want)
		}
		if col.Plugin == "dpa" && (len(col.Axes) != 0 || len(col.Cells) != 1) {
			t.Errorf("config.resolved.json: dpa axes %q cells %q, want none and one", col.Axes, col.Cells)
		}
	}

	metrics := map[string]bool{}
	for _, m := range res.Metrics {
		metrics[m.Name] = true
		if len(m.Samples) != resolved.Repeat {
			t.Errorf("metric %s %v: %d samples, want %d (one per repetition)", m.Name, m.Labels, len(m.Samples), resolved.Repeat)
		}
	}
	for _, want := range []string{"throughput", "method_excl", "process_time"} {
		if !metrics[want] {
			t.Errorf("no %s metric; have %v", want, metrics)
		}
	}
	if v := c.ok("validate", cfg); !strings.Contains(v, "dpa.dpa × 1") {
		t.Errorf("validate does not say the dpa collector runs once per repetition:\n%s", v)
	}
}
