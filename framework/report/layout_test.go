package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
)

// TestSectionOrder: a reader sees the charts before the long metric table,
// and the environment, which is for reproducing the run, last.
func TestSectionOrder(t *testing.T) {
	dir, r := sampleRun(t)
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		file     string
		headings []string
	}{
		{HTMLFile, []string{"<h2>Steps</h2>", "<h2>Analyses</h2>", "<h2>Figures</h2>", "<h2>Tables</h2>", "<h2>Metrics</h2>", "<h2>Environment</h2>"}},
		{MarkdownFile, []string{"\n## Steps\n", "\n## Analyses\n", "\n## Figures\n", "\n## Tables\n", "\n## Metrics\n", "\n## Environment\n"}},
	} {
		data, err := os.ReadFile(filepath.Join(dir, f.file))
		if err != nil {
			t.Fatal(err)
		}
		last := -1
		for _, h := range f.headings {
			i := strings.Index(string(data), h)
			if i < 0 {
				t.Errorf("%s: no %q", f.file, h)
				continue
			}
			if i < last {
				t.Errorf("%s: %q comes too early; want the order %q", f.file, h, f.headings)
			}
			last = i
		}
	}
}

// TestTablesFitTheWindow: wide tables scroll inside their own box, not the
// page, and long label lists may wrap after each comma.
func TestTablesFitTheWindow(t *testing.T) {
	dir, r := sampleRun(t)
	long := map[string]string{"buffer": "65536", "method": "caffeine.MethodTest$Shape.twice", "program": "caffeine-method 40"}
	r.Metrics = append(r.Metrics, results.Metric{Name: "method_excl", Unit: "ms", Better: "lower", Labels: long, Samples: []float64{1, 2, 3}})
	r.Steps = append(r.Steps, results.Step{ID: "s4", Collector: "dpa", Labels: long, Status: "failed", Error: "boom"})
	r.Analyses[0].Summary += "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
	r.Tables = append(r.Tables, results.Table{Name: "per-cell", Columns: []string{"cell", "ctx_involuntary"}, Rows: [][]string{{"access=0,sync=2", "4"}}})
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	h := string(data)
	checkTablesWrapped(t, h)
	if want := "buffer=65536,<wbr>method=caffeine.MethodTest$Shape.twice,<wbr>program=caffeine-method 40"; strings.Count(h, want) != 2 {
		t.Errorf("the labels of the metric and of the failed step do not break after commas: %d × %q", strings.Count(h, want), want)
	}
	for _, want := range []string{"<th>ctx_<wbr>involuntary</th>", "<td>access=0,<wbr>sync=2</td>"} {
		if !strings.Contains(h, want) {
			t.Errorf("an analyzer's table lacks %q", want)
		}
	}
}

// checkTablesWrapped checks that every <table> is the only child of a
// <div class="table-wrap"> and that the page's CSS makes that div scroll.
func checkTablesWrapped(t *testing.T, h string) {
	t.Helper()
	if !regexp.MustCompile(`\.table-wrap\{[^}]*overflow-x:auto`).MatchString(h) {
		t.Error("no .table-wrap{overflow-x:auto} in the CSS")
	}
	tables := regexp.MustCompile(`<table[ >]`).FindAllStringIndex(h, -1)
	wrapped := regexp.MustCompile(`<div class="table-wrap">\s*<table[ >]`).FindAllStringIndex(h, -1)
	ends := regexp.MustCompile(`</table>\s*</div>`).FindAllStringIndex(h, -1)
	if len(tables) == 0 || len(wrapped) != len(tables) || len(ends) != len(tables) {
		t.Errorf("%d tables, %d in a table-wrap div, %d closed with it", len(tables), len(wrapped), len(ends))
	}
}
