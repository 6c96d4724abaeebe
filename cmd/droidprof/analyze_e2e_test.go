package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runner"
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
