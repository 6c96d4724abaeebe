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

// TestAnalyzeReproducesMobibench: `droidprof analyze` on a real plugin's run
// reproduces every file of the analysis (tables, figures), results.json and
// the reports byte for byte, and keeps the earlier analysis next to it.
func TestAnalyzeReproducesMobibench(t *testing.T) {
	c := newCLI(t)
	cfg := c.write("tiny.hcl", `
experiment "tiny" {
  repeat = 2
  matrix {
    sync = [0, 2]
  }
  collect "mobibench" {
    access    = 0
    sync      = matrix.sync
    file_size = "256KiB"
    io_size   = "4KiB"
  }
  analyze "mobibench" {}
}`)
	id, dir := runID(t, c.ok("run", cfg))
	before := tree(t, dir)
	if !hasPrefix(before, "analysis/") {
		t.Fatalf("mobibench's analysis wrote no file: %v", keys(before))
	}
	out := c.ok("analyze", id)
	if !strings.Contains(out, "earlier analysis kept in ") {
		t.Errorf("analyze does not say where the earlier analysis is:\n%s", out)
	}
	after := tree(t, dir)
	prev, err := runner.Previous(dir)
	if err != nil || len(prev) != 1 {
		t.Fatalf("previous analyses: %v %v", prev, err)
	}
	kept := tree(t, prev[0])
	for name, data := range before {
		if !strings.HasPrefix(name, "analysis/") && name != results.FileName && !strings.HasPrefix(name, "report.") {
			continue
		}
		if !bytes.Equal(after[name], data) {
			t.Errorf("re-analysis changed %s", name)
		}
		if !bytes.Equal(kept[name], data) {
			t.Errorf("the kept analysis's %s is not the earlier one", name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok && !strings.HasPrefix(name, runner.PreviousDir+"/") && !strings.HasPrefix(name, "logs/") {
			t.Errorf("re-analysis added %s", name)
		}
	}
	// The kept analysis is a run directory that compare accepts.
	c.ok("compare", prev[0], dir)
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
