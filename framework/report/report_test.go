package report

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/chart"
	"github.com/droidprof/droidprof/framework/results"
)

const evil = `<script>alert("x")</script>`

// sampleRun builds a run directory with an SVG figure made by
// framework/chart, a PNG figure, a missing figure and an unsafe SVG.
func sampleRun(t *testing.T) (string, *results.Results) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		t.Fatal(err)
	}
	svg := (&chart.BarChart{
		Title:      "Insert throughput " + evil,
		Categories: []string{"delete", "wal"},
		Series:     []chart.Series{{Name: "ext4", Values: []float64{120, 480}}},
		Unit:       "tx/s",
	}).SVG()
	if err := os.WriteFile(filepath.Join(dir, "figures", "tput.svg"), svg, 0o644); err != nil {
		t.Fatal(err)
	}
	// A 1×1 PNG.
	png, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
	if err := os.WriteFile(filepath.Join(dir, "figures", "dot.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	unsafe := `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">` +
		`<script>alert(2)</script><rect width="10" height="10" onclick="alert(3)" style="fill:url(javascript:alert(4))"/>` +
		`<a xlink:href="javascript:alert(5)"><text>link</text></a><foreignObject><div>x</div></foreignObject>` +
		`<circle r="3" fill="url(#grad)"/><text x="1">safe &amp; sound</text></svg>`
	if err := os.WriteFile(filepath.Join(dir, "figures", "unsafe.svg"), []byte(unsafe), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	r := &results.Results{
		RunID: "20260901-120000-abcd", Experiment: "sqlite-journal-modes", ConfigFile: "configs/x.hcl",
		Status: results.StatusFailed, Started: start, Finished: start.Add(90*time.Second + 250*time.Millisecond),
		Fingerprint: results.Fingerprint{Hostname: "bench1", OS: "linux", Arch: "amd64", Kernel: "6.1.0", CPUModel: "Xeon " + evil,
			CPUs: 2, MemoryBytes: 24 << 30, GoVersion: "go1.26.8", DroidprofVersion: "0.1.0", FSType: "ext4",
			Plugins: map[string]results.Plugin{"mobibench": {Version: "0.1.0", Path: "/usr/bin/droidprof", SHA256: strings.Repeat("ab", 32), BuiltIn: true}}},
		Missing: []results.Missing{{Collector: "mobibench.db", Labels: map[string]string{"journal": "wal"}, Planned: 2, OK: 1}},
		Steps: []results.Step{
			{ID: "s1", Collector: "mobibench.db", Status: "ok", Repetition: 0, Warmup: true},
			{ID: "s2", Collector: "mobibench.db", Status: "ok", Repetition: 1},
			{ID: "s3", Collector: "mobibench.db", Labels: map[string]string{"journal": "wal"}, Status: "failed", Repetition: 2,
				Error: "plugin crashed: " + evil},
		},
		Analyses: []results.Analysis{{Analyzer: "mobibench.db", Status: "ok",
			Summary: "## Result\n\nWAL is **4×** faster than `delete`. " + evil + "\n\n- one\n- two [site](https://example.com/?a=1&b=2)\n\n| mode | tx/s |\n|---|--:|\n| wal | 480 |\n| a\\|b | 1 |\n"}},
		Metrics: []results.Metric{
			{Name: "insert_throughput", Unit: "tx/s", Better: "higher", Labels: map[string]string{"journal": "wal"},
				Samples: []float64{480, 470, 490, 485, 475, 481}, Analyzer: "mobibench.db"},
			{Name: "insert_latency", Unit: "ms", Better: "lower", Labels: map[string]string{"journal": evil},
				Samples: []float64{2.1, 2.0, 2.2}},
			{Name: "outliers", Unit: "ms", Better: "lower", Samples: []float64{10, 10.1, 9.9, 10, 10.2, 10, 50}},
		},
		Tables: []results.Table{{Name: "per-mode", Title: "Per mode", Columns: []string{"mode", "tx/s"},
			Rows: [][]string{{"wal", "480"}, {evil, "1"}}}},
		Figures: []results.Artifact{
			{Name: "tput", Path: "figures/tput.svg", MediaType: "image/svg+xml", Kind: "figure", Title: "Throughput"},
			{Name: "dot", Path: "figures/dot.png", MediaType: "image/png", Kind: "figure", Title: "Dot"},
			{Name: "missing", Path: "figures/missing.svg", MediaType: "image/svg+xml", Kind: "figure", Title: "Missing"},
			{Name: "unsafe", Path: "figures/unsafe.svg", Kind: "figure", Title: "Unsafe"},
			{Name: "escape", Path: "../../etc/passwd", MediaType: "image/svg+xml", Kind: "figure", Title: "Escape"},
		},
		Warnings: []string{"storage backend fell back to a directory " + evil},
	}
	return dir, r
}

func TestWrite(t *testing.T) {
	dir, r := sampleRun(t)
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	htmlData, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	mdData, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	h, md := string(htmlData), string(mdData)

	t.Run("html", func(t *testing.T) {
		if strings.Contains(h, "<script") || strings.Contains(strings.ToLower(h), "javascript:") || regexp.MustCompile(`\son[a-z]+=`).MatchString(h) {
			t.Errorf("unsafe markup in the HTML report")
		}
		for _, want := range []string{
			"<!DOCTYPE html>", "<style>",
			"sqlite-journal-modes", "20260901-120000-abcd", "1m30.25s",
			"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", // escaped user strings
			"plugin crashed: &lt;script&gt;",
			"<h5>Result</h5>", "<strong>4×</strong>", "<code>delete</code>", `<a href="https://example.com/?a=1&amp;b=2">site</a>`,
			"<td>a|b</td>",
			"insert_throughput", "480.5 ± 2%", "2.100 ± ∞", "journal=wal",
			"Per mode",
			"<svg xmlns=\"http://www.w3.org/2000/svg\"", "Insert throughput &lt;script&gt;", // inline chart, text escaped
			`<img src="data:image/png;base64,iVBOR`,
			`<a href="figures/missing.svg">figures/missing.svg</a>`, "could not be read: no such file or directory",
			"path is outside the run directory",
			"safe &amp; sound", `fill="url(#grad)"`,
			"1 of 3 steps failed", "metric outliers: 1 outlier(s)", "1 metric(s) have fewer than 6 samples",
			"<h3>Cells missing repetitions</h3>", "<td>mobibench.db</td><td>journal=wal</td><td class=\"num\">1</td><td class=\"num\">2</td>",
		} {
			if !strings.Contains(h, want) {
				t.Errorf("HTML lacks %q", want)
			}
		}
		if strings.Count(h, "<svg") != 2 { // the chart and the sanitized unsafe SVG
			t.Errorf("%d inline SVGs, want 2", strings.Count(h, "<svg"))
		}
		for _, tag := range []string{"table", "tr", "ul", "figure", "svg", "div", "p"} {
			open := len(regexp.MustCompile(`<`+tag+`[ >]`).FindAllString(h, -1))
			closed := strings.Count(h, "</"+tag+">")
			if open != closed {
				t.Errorf("<%s>: %d opened, %d closed", tag, open, closed)
			}
		}
	})

	t.Run("markdown", func(t *testing.T) {
		for _, want := range []string{
			"# sqlite-journal-modes — run 20260901-120000-abcd",
			"- **status:** failed",
			"| insert\\_throughput | journal=wal | tx/s | 6 | 480.5 ± 2% | 470.0 | 490.0 | higher |",
			"| insert\\_latency | journal=&lt;script&gt;alert(\"x\")&lt;/script&gt; | ms | 3 | 2.100 ± ∞ | 2.000 | 2.200 | lower |",
			"| s3 | mobibench.db | journal=wal | 2 | plugin crashed: &lt;script&gt;",
			"### Cells missing repetitions", "| mobibench.db | journal=wal | 1 | 2 |",
			"total: 3", "ok: 2", "failed: 1",
			"![Throughput](<figures/tput.svg>)",
			"## Result", // analyzer summary as is
			"| hostname | bench1 |",
			"| wal | 480 |",
		} {
			if !strings.Contains(md, want) {
				t.Errorf("Markdown lacks %q", want)
			}
		}
	})
}

func TestSanitizeSVG(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		notWant []string
		err     bool
	}{
		{"plain", `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1"/></svg>`,
			[]string{`<svg xmlns="http://www.w3.org/2000/svg"><rect width="1"></rect></svg>`}, nil, false},
		{"no namespace", `<svg><g><text>a &lt; b</text></g></svg>`, []string{"<text>a &lt; b</text>"}, nil, false},
		{"script", `<svg><script>x</script><g/></svg>`, []string{"<g></g>"}, []string{"script", "x<"}, false},
		{"handlers", `<svg onload="x()"><rect onClick="y()" width="2"/></svg>`, []string{`<rect width="2">`}, []string{"onload", "onClick"}, false},
		{"external href", `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="http://evil/x.svg#a"/><use href="#b"/></svg>`,
			[]string{`<use></use>`, `<use href="#b">`}, []string{"evil"}, false},
		{"style url", `<svg><rect style="fill:url('https://evil/')"/><rect style="fill:red"/></svg>`,
			[]string{`style="fill:red"`}, []string{"evil"}, false},
		{"html namespace", `<svg><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`,
			nil, []string{"div", "foreignObject"}, false},
		{"not svg", `<html><body/></html>`, nil, nil, true},
		{"malformed", `<svg><g></svg>`, nil, nil, true},
		{"entity", `<!DOCTYPE svg [<!ENTITY x "boom">]><svg>&x;</svg>`, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sanitizeSVG([]byte(tt.in))
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("%q contains %q", got, w)
				}
			}
		})
	}
}

func TestMarkdownToHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{"hello *world*", "<p>hello <em>world</em></p>\n"},
		{"# T", "<h4>T</h4>\n"},
		{"a `<b>` **c**", "<p>a <code>&lt;b&gt;</code> <strong>c</strong></p>\n"},
		{"1. x\n2. y", "<ol>\n<li>x</li>\n<li>y</li>\n</ol>\n"},
		{"```\n<x>\n```", "<pre><code>&lt;x&gt;</code></pre>\n"},
		{"[a](javascript:alert(1))", "<p>[a](javascript:alert(1))</p>\n"},
		{"<img src=x onerror=alert(1)>", "<p>&lt;img src=x onerror=alert(1)&gt;</p>\n"},
		{"2 * 3 * 4", "<p>2 * 3 * 4</p>\n"},
	}
	for _, tt := range tests {
		if got := string(markdownToHTML(tt.in)); got != tt.want {
			t.Errorf("markdownToHTML(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWriteEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, &results.Results{RunID: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, nil); err == nil {
		t.Error("nil results: no error")
	}
	if err := Write(filepath.Join(dir, "missing"), &results.Results{}); err == nil {
		t.Error("missing run directory: no error")
	}
}
