package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/framework/report"
	"github.com/droidprof/droidprof/framework/results"
)

// TestReanalysisKeepsThePrevious: a re-analysis with an unchanged analyzer
// reproduces results.json and the reports byte for byte, and the earlier
// analysis is kept next to the new one, numbered, never overwritten; a run
// with no analysis yet is analysed without keeping an empty "previous".
func TestReanalysisKeepsThePrevious(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  repeat = 2
  matrix {
    v = [1, 2]
  }
  collect "testplug" "ok" {
    value = matrix.v
  }
  analyze "testplug" {}
}`)
	_, dir, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	files := []string{results.FileName, report.MarkdownFile, report.HTMLFile}
	read := func(d string) map[string][]byte {
		t.Helper()
		out := map[string][]byte{}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(d, f))
			if err != nil {
				t.Fatal(err)
			}
			out[f] = data
		}
		return out
	}
	first := read(dir)
	for i := 1; i <= 2; i++ {
		if _, err := r.Analyze(context.Background(), dir, ""); err != nil {
			t.Fatal(err)
		}
		prev, err := Previous(dir)
		if err != nil || len(prev) != i {
			t.Fatalf("after re-analysis %d: previous analyses %v, %v", i, prev, err)
		}
		if got, want := filepath.Base(prev[i-1]), []string{"001", "002"}[i-1]; got != want {
			t.Errorf("re-analysis %d kept the previous in %s, want %s", i, got, want)
		}
		now, kept := read(dir), read(prev[i-1])
		for _, f := range files {
			if !bytes.Equal(now[f], first[f]) {
				t.Errorf("re-analysis %d: %s differs from the first analysis:\n%s\n---\n%s", i, f, first[f], now[f])
			}
			if !bytes.Equal(kept[f], first[f]) {
				t.Errorf("re-analysis %d: the kept %s differs from the analysis it keeps", i, f)
			}
		}
	}
	// A kept analysis is a run directory: results.Read finds its metrics.
	if res, err := results.Read(filepath.Join(dir, PreviousDir, "001", results.FileName)); err != nil || len(res.Metrics) != 2 {
		t.Errorf("kept results: %v %+v", err, res)
	}

	// As an analyzer crash once left a run: measured, never analysed.
	_, dir2, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	res, err := results.Read(filepath.Join(dir2, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	res.Analyses, res.Metrics = nil, nil
	if err := res.Write(filepath.Join(dir2, results.FileName)); err != nil {
		t.Fatal(err)
	}
	got, err := r.Analyze(context.Background(), dir2, "testplug")
	if err != nil || len(got.Metrics) != 2 || got.Status != results.StatusComplete {
		t.Fatalf("analysis of an unanalysed run: %v, %+v", err, got)
	}
	if prev, err := Previous(dir2); err != nil || len(prev) != 0 {
		t.Errorf("an unanalysed run kept a previous analysis: %v %v", prev, err)
	}
}
