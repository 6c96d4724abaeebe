package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runner"
	"github.com/droidprof/droidprof/internal/testenv"
)

// TestAnalyzeReproduces: `droidprof analyze` on real plugins' runs
// reproduces every file of the analysis (tables, figures), results.json and
// the reports byte for byte, and keeps the earlier analysis next to it; and
// a run whose analyzer crashed (analysis failed, no metrics, no outputs) is
// analysed into exactly what an uncrashed analysis makes.
func TestAnalyzeReproduces(t *testing.T) {
	tests := []struct{ name, collect string }{
		{"mobibench", `
  matrix {
    sync = [0, 2]
  }
  collect "mobibench" {
    access    = 0
    sync      = matrix.sync
    file_size = "256KiB"
    io_size   = "4KiB"
  }`},
		{"dpa", `
  collect "dpa" {
    workload    = "caffeine-method"
    args        = ["2"]
    calibration = 1000
  }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			cfg := c.write("tiny.hcl", "experiment \"tiny\" {\n  repeat = 2\n"+tt.collect+"\n  analyze \""+tt.name+"\" {}\n}\n")
			id, dir := runID(t, c.ok("run", cfg))
			before := tree(t, dir)
			if !hasPrefix(before, "analysis/") {
				t.Fatalf("%s's analysis wrote no file: %v", tt.name, keys(before))
			}
			out := c.ok("analyze", id)
			if !strings.Contains(out, "earlier analysis kept in ") {
				t.Errorf("analyze does not say where the earlier analysis is:\n%s", out)
			}
			prev, err := runner.Previous(dir)
			if err != nil || len(prev) != 1 {
				t.Fatalf("previous analyses: %v %v", prev, err)
			}
			sameAnalysis(t, "re-analysis", before, tree(t, dir))
			sameAnalysis(t, "the kept analysis", before, tree(t, prev[0]))
			// The kept analysis is a run directory that compare accepts.
			c.ok("compare", prev[0], dir)

			// As an analyzer crash leaves a run.
			res, err := results.Read(filepath.Join(dir, results.FileName))
			if err != nil {
				t.Fatal(err)
			}
			res.Analyses = []results.Analysis{{Analyzer: tt.name + "." + tt.name, Status: "failed", Error: "plugin " + tt.name + " crashed (its process exited)"}}
			res.Metrics, res.Tables, res.Figures, res.Status = nil, nil, nil, results.StatusFailed
			if err := res.Write(filepath.Join(dir, results.FileName)); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(dir, "analysis")); err != nil {
				t.Fatal(err)
			}
			c.ok("analyze", id)
			sameAnalysis(t, "analysis after the crash", before, tree(t, dir))
		})
	}
}

// TestAnalyzeAfterAnalyzerCrash: the dpa accuracy run (configs/dpa-accuracy.hcl
// cut down: two of its programs, the record buffer on and off, paired
// baselines; on the virtual clock, so that it takes seconds on a loaded
// host) whose analyzer is killed — SIGKILL, as the OOM killer once killed
// this analysis — is left unanalysed, and droidprof analyze then analyses
// it into exactly what the uncrashed analysis made. The kill is real:
// strace delivers it to the analyzer process as it creates one of its
// outputs, halfway through the analysis.
func TestAnalyzeAfterAnalyzerCrash(t *testing.T) {
	strace := testenv.Tool(t, "strace", "strace")
	c := newCLI(t)
	cfg := c.write("accuracy.hcl", `
experiment "dpa-accuracy" {
  repeat = 2
  matrix {
    workload = ["dpa-fib", "dpa-sieve"]
    buffer   = [65536, 0]
  }
  collect "dpa" {
    workload        = matrix.workload
    buffer_records  = matrix.buffer
    paired_baseline = true
    clock           = "virtual"
    program_pairs   = 1
    calibration     = 100
  }
  analyze "dpa" {}
}
`)
	id, dir := runID(t, c.ok("run", cfg))
	before := tree(t, dir)
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil || res.Status != results.StatusComplete || !slices.ContainsFunc(res.Tables, func(tb results.Table) bool { return tb.Name == "accuracy" }) {
		t.Fatalf("the accuracy run: %v, status %s, tables %v", err, res.Status, res.Tables)
	}
	// One of the outputs the analyzer writes after others: it is killed
	// on opening it.
	victim := filepath.Join(dir, "analysis", "dpa.dpa", "dpa-sieve_clock_virtual_buffer_0.pb.gz")
	if _, ok := before["analysis/dpa.dpa/dpa-sieve_clock_virtual_buffer_0.pb.gz"]; !ok {
		t.Fatalf("the analysis has no %s to be killed at: %v", victim, keys(before))
	}
	cmd := c.command("analyze", id)
	cmd.Args = append([]string{strace, "-f", "-qq", "-o", os.DevNull, "-e", "trace=openat",
		"-e", "inject=openat:signal=KILL", "-P", victim, "--", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = strace
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "plugin dpa crashed") {
		t.Fatalf("analyze with its analyzer killed: %v\n%s", err, out)
	}
	crashed, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if len(crashed.Metrics) != 0 || crashed.Status != results.StatusFailed || len(crashed.Analyses) != 1 || crashed.Analyses[0].Status != "failed" {
		t.Fatalf("after the crash: status %s, %d metrics, analyses %+v; want failed, unanalysed", crashed.Status, len(crashed.Metrics), crashed.Analyses)
	}
	c.ok("analyze", id)
	sameAnalysis(t, "analysis after the crash", before, tree(t, dir))
}

// sameAnalysis checks that the analysis files of got are those of want.
func sameAnalysis(t *testing.T, what string, want, got map[string][]byte) {
	t.Helper()
	analysis := func(name string) bool {
		return strings.HasPrefix(name, "analysis/") || name == results.FileName || strings.HasPrefix(name, "report.")
	}
	for name, data := range want {
		if analysis(name) && !bytes.Equal(got[name], data) {
			t.Errorf("%s: %s differs from the first analysis", what, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok && analysis(name) {
			t.Errorf("%s: %s is new", what, name)
		}
	}
}

// tree reads every regular file under dir, by slash-separated relative path.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func hasPrefix(m map[string][]byte, prefix string) bool {
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
