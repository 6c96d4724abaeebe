package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/results"
)

func fp() results.Fingerprint {
	return results.Fingerprint{
		Hostname: "bench1", OS: "linux", Arch: "amd64", Kernel: "6.1.0", CPUModel: "Xeon", CPUs: 2,
		MemoryBytes: 24 << 30, GoVersion: "go1.26.8", DroidprofVersion: "0.1.0", DroidprofCommit: "abc123",
		StorageBackend: "loop", StorageDir: "/tmp/x", FSType: "ext4", MountOptions: "rw,relatime",
		ConfigSHA256: strings.Repeat("ab", 32),
		Plugins: map[string]results.Plugin{
			"mobibench": {Version: "0.1.0", Path: "/usr/bin/droidprof", SHA256: strings.Repeat("cd", 32), BuiltIn: true},
		},
	}
}

func run(id string, f results.Fingerprint, ms ...results.Metric) *results.Results {
	return &results.Results{RunID: id, Experiment: "exp", Status: results.StatusComplete,
		Started: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC), Fingerprint: f, Metrics: ms}
}

func metric(name, unit, better string, labels map[string]string, samples ...float64) results.Metric {
	return results.Metric{Name: name, Unit: unit, Better: better, Labels: labels, Samples: samples}
}

var (
	base6   = []float64{100, 101, 99, 102, 98, 100.5}
	plus20  = []float64{120, 121.2, 118.8, 122.4, 117.6, 120.6} // every sample ×1.2
	base3   = []float64{100, 101, 99}
	plus20x = []float64{120, 121.2, 118.8}
)

func only(t *testing.T, c *Comparison) Row {
	t.Helper()
	if len(c.Groups) != 1 || len(c.Groups[0].Rows) != 1 {
		t.Fatalf("want one row, got %+v", c.Groups)
	}
	return c.Groups[0].Rows[0]
}

func hasWarning(ws []string, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

func TestRows(t *testing.T) {
	tests := []struct {
		name       string
		old, new   []float64
		better     string
		delta      string
		note       string
		change     int
		oldCI      string
		warnings   []string // substrings expected in the row warnings
		noWarnings bool
	}{
		{"identical", base6, base6, results.BetterLower, "~", "p=1.000 n=6", 0, "2%", nil, true},
		{"20% slower", base6, plus20, results.BetterLower, "+20.00%", "p=0.002 n=6", -1, "2%", nil, true},
		{"20% more throughput", base6, plus20, results.BetterHigher, "+20.00%", "p=0.002 n=6", 1, "2%", nil, true},
		{"20% faster", plus20, base6, results.BetterLower, "-16.67%", "p=0.002 n=6", 1, "2%", nil, true},
		{"no direction", base6, plus20, "", "+20.00%", "p=0.002 n=6", 0, "2%", nil, true},
		{"n=3", base3, plus20x, results.BetterLower, "~", "p=0.100 n=3", 0, "∞",
			[]string{"no confidence interval", "need >= 4 samples to detect a difference at alpha level 0.05"}, false},
		{"n=5+6", base6[:5], plus20, results.BetterLower, "+20.30%", "p=0.004 n=5+6", -1, "∞",
			[]string{"no confidence interval in the old run: need >= 6 samples for confidence interval at level 0.95"}, false},
		{"all equal", []float64{5, 5, 5, 5, 5, 5}, []float64{5, 5, 5, 5, 5, 5}, results.BetterLower, "~", "p=1.000 n=6", 0, "0%",
			[]string{"all samples are equal"}, false},
		{"outlier", []float64{10, 10.1, 9.9, 10, 10.2, 10, 50}, []float64{10, 10.1, 9.9, 10, 10.2, 10, 9.8}, results.BetterLower, "~", "p=0.461 n=7", 0, "400%",
			[]string{"old run: 1 outlier beyond 10 robust standard deviations of the median (#7 = 50)"}, false},
		{"slow first run", []float64{50, 10, 10.1, 9.9, 10, 10.2}, []float64{10, 10.1, 9.9, 10, 10.2, 10}, results.BetterLower, "~", "p=0.695 n=6", 0, "398%",
			[]string{"old run: the first sample (50) is far off the others"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := run("a", fp(), metric("insert", "ms", tt.better, map[string]string{"journal": "wal"}, tt.old...))
			b := run("b", fp(), metric("insert", "ms", tt.better, map[string]string{"journal": "wal"}, tt.new...))
			r := only(t, Compare(a, b, Options{}))
			if r.Key != "insert journal=wal" {
				t.Errorf("key %q", r.Key)
			}
			if r.DeltaText != tt.delta || r.Note() != tt.note || r.Change != tt.change || r.Old.CIString() != tt.oldCI {
				t.Errorf("got %s (%s) change %d CI %s, want %s (%s) change %d CI %s",
					r.DeltaText, r.Note(), r.Change, r.Old.CIString(), tt.delta, tt.note, tt.change, tt.oldCI)
			}
			for _, w := range tt.warnings {
				if !hasWarning(r.Warnings, w) {
					t.Errorf("missing warning %q in %q", w, r.Warnings)
				}
			}
			if tt.noWarnings && len(r.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", r.Warnings)
			}
		})
	}
}

func TestAlpha(t *testing.T) {
	// p = 0.036 for 3 vs 5 separated samples: significant at 0.05, not at 0.01.
	a := run("a", fp(), metric("m", "ms", "lower", nil, 1, 2, 3))
	b := run("b", fp(), metric("m", "ms", "lower", nil, 4, 5, 6, 7, 8))
	if r := only(t, Compare(a, b, Options{})); r.DeltaText == "~" {
		t.Errorf("not significant at default alpha: %+v", r)
	}
	if r := only(t, Compare(a, b, Options{Alpha: 0.01})); r.DeltaText != "~" {
		t.Errorf("significant at alpha 0.01: %s", r.DeltaText)
	}
}

func TestFingerprints(t *testing.T) {
	tests := []struct {
		name   string
		change func(f *results.Fingerprint)
		want   []string
	}{
		{"same", func(*results.Fingerprint) {}, nil},
		{"paths ignored", func(f *results.Fingerprint) {
			f.StorageDir = "/elsewhere"
			f.Plugins = map[string]results.Plugin{"mobibench": {Version: "0.1.0", Path: "/other", SHA256: strings.Repeat("cd", 32)}}
		}, nil},
		{"kernel", func(f *results.Fingerprint) { f.Kernel = "6.18.0" }, []string{"environments differ: kernel 6.1.0 vs 6.18.0"}},
		{"several", func(f *results.Fingerprint) {
			f.Hostname, f.CPUs, f.GoVersion, f.DroidprofCommit = "bench2", 4, "go1.26.9", ""
			f.FSType, f.MountOptions, f.StorageBackend = "xfs", "rw,noatime", "dir"
			f.ConfigSHA256 = strings.Repeat("ef", 32)
			f.CPUModel = "EPYC"
		}, []string{
			"environments differ: hostname bench1 vs bench2",
			"environments differ: CPU model Xeon vs EPYC",
			"environments differ: CPUs 2 vs 4",
			"environments differ: Go version go1.26.8 vs go1.26.9",
			"environments differ: droidprof commit abc123 vs (unknown)",
			"environments differ: storage backend loop vs dir",
			"environments differ: filesystem ext4 vs xfs",
			"environments differ: mount options rw,relatime vs rw,noatime",
			"environments differ: config sha256 abababababab vs efefefefefef",
		}},
		{"plugin checksum", func(f *results.Fingerprint) {
			f.Plugins = map[string]results.Plugin{
				"mobibench": {Version: "0.1.0", SHA256: strings.Repeat("99", 32)},
				"dpa":       {Version: "0.2.0", SHA256: strings.Repeat("11", 32)},
			}
		}, []string{
			"environments differ: plugin dpa (absent) vs 0.2.0 sha256 111111111111",
			"environments differ: plugin mobibench 0.1.0 sha256 cdcdcdcdcdcd vs 0.1.0 sha256 999999999999",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fp()
			tt.change(&f)
			m := metric("m", "ms", "lower", nil, base6...)
			c := Compare(run("a", fp(), m), run("b", f, m), Options{})
			var got []string
			for _, w := range c.Warnings {
				if strings.HasPrefix(w, "environments differ") {
					got = append(got, w)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if len(c.EnvDiffs) != len(tt.want) {
				t.Errorf("%d EnvDiffs, want %d", len(c.EnvDiffs), len(tt.want))
			}
		})
	}
}

func TestGeomeanAndMatching(t *testing.T) {
	a := run("a", fp(),
		metric("read", "ms", "lower", map[string]string{"size": "4k"}, 10, 10, 10, 10, 10, 10),
		metric("write", "ms", "lower", nil, 40, 40, 40, 40, 40, 40),
		metric("zero", "ms", "lower", nil, 0, 0, 0, 0, 0, 0),
		metric("tput", "MB/s", "higher", nil, 5, 6, 7, 8, 9, 10),
		metric("gone", "ms", "lower", nil, 1, 2, 3),
		metric("unit", "ms", "lower", nil, 1, 2, 3),
	)
	b := run("b", fp(),
		metric("write", "ms", "lower", nil, 10, 10, 10, 10, 10, 10),
		metric("read", "ms", "lower", map[string]string{"size": "4k"}, 40, 40, 40, 40, 40, 40),
		metric("zero", "ms", "lower", nil, 0, 0, 0, 0, 0, 0),
		metric("tput", "MB/s", "higher", nil, 5, 6, 7, 8, 9, 10),
		metric("new", "ms", "lower", nil, 1, 2, 3),
		metric("unit", "s", "lower", nil, 1, 2, 3),
	)
	c := Compare(a, b, Options{})
	if len(c.Groups) != 2 || c.Groups[0].Unit != "ms" || c.Groups[1].Unit != "MB/s" {
		t.Fatalf("groups %+v", c.Groups)
	}
	ms := c.Groups[0]
	if len(ms.Rows) != 3 || ms.Rows[0].Key != "read size=4k" || ms.Rows[1].Key != "write" {
		t.Fatalf("rows %+v", ms.Rows)
	}
	gm := ms.Geomean
	if gm == nil || gm.Rows != 2 || gm.Skipped != 1 || math.Abs(gm.Old-20) > 1e-9 || math.Abs(gm.New-20) > 1e-9 || math.Abs(gm.Delta) > 1e-9 {
		t.Errorf("geomean %+v, want 20 → 20 over 2 rows, 1 skipped", gm)
	}
	if c.Groups[1].Geomean != nil {
		t.Errorf("geomean of a one-row group: %+v", c.Groups[1].Geomean)
	}
	if strings.Join(c.OnlyOld, ",") != "gone" || strings.Join(c.OnlyNew, ",") != "new" {
		t.Errorf("only old %q, only new %q", c.OnlyOld, c.OnlyNew)
	}
	for _, w := range []string{"metric gone is only in the old run", "metric new is only in the new run", `metric unit has unit "ms" in the old run and "s" in the new run`} {
		if !hasWarning(c.Warnings, w) {
			t.Errorf("missing warning %q in %q", w, c.Warnings)
		}
	}

	// A uniform 20% regression gives a +20% geomean.
	a = run("a", fp(), metric("x", "ms", "lower", nil, base6...), metric("y", "ms", "lower", nil, 1, 1, 1, 1, 1, 1))
	b = run("b", fp(), metric("x", "ms", "lower", nil, plus20...), metric("y", "ms", "lower", nil, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2))
	if gm := Compare(a, b, Options{}).Groups[0].Geomean; gm == nil || math.Abs(gm.Delta-20) > 1e-9 {
		t.Errorf("geomean %+v, want +20%%", gm)
	}
}

func TestRunWarnings(t *testing.T) {
	a := run("a", fp(), metric("m", "ms", "lower", nil, base6...))
	b := run("b", fp(), metric("m", "ms", "lower", nil, base6...))
	b.Experiment = "other"
	b.Status = results.StatusIncomplete
	c := Compare(a, b, Options{})
	for _, w := range []string{"runs are of different experiments: exp vs other", "new run b did not complete (status incomplete)"} {
		if !hasWarning(c.Warnings, w) {
			t.Errorf("missing warning %q in %q", w, c.Warnings)
		}
	}
	if c := Compare(nil, nil, Options{}); len(c.Groups) != 0 {
		t.Errorf("nil runs: %+v", c)
	}
}

// sample comparison used by the renderer tests.
func sampleComparison() *Comparison {
	lbl := map[string]string{"mode": "<script>alert(1)</script>"}
	a := run("run-a", fp(),
		metric("insert", "ms", "lower", lbl, base6...),
		metric("update|x", "ms", "lower", nil, 50, 51, 52, 49, 48, 50),
		metric("small", "ms", "lower", nil, 1, 2, 3),
		metric("bytes", "B", "lower", nil, 4096, 4096, 4096, 4096, 4096, 8192),
	)
	f := fp()
	f.Kernel = "6.18.0"
	b := run("run-b", f,
		metric("insert", "ms", "lower", lbl, plus20...),
		metric("update|x", "ms", "lower", nil, 40, 40.8, 41.6, 39.2, 38.4, 40),
		metric("small", "ms", "lower", nil, 1, 2, 3),
		metric("bytes", "B", "lower", nil, 4096, 4096, 4096, 4096, 4096, 4096),
	)
	return Compare(a, b, Options{})
}

func TestWriteText(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, sampleComparison()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"old: run-a (experiment exp, started 2026-09-01 12:00:00 UTC, complete)",
		"vs base",
		"+20.00% (p=0.002 n=6)  worse",
		"-20.00% (p=0.002 n=6)  better",
		"~ (p=1.000 n=3)",
		"± ∞",
		"4.000Ki",
		"geomean",
		"need >= 4 samples to detect a difference at alpha level 0.05",
		"environments differ: kernel 6.1.0 vs 6.18.0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// Columns line up: in each table the "±" of the old column is at the
	// same position in every row.
	for _, table := range strings.Split(out, "\n\n") {
		col := -1
		for _, line := range strings.Split(table, "\n") {
			if strings.Contains(line, "│") || !strings.Contains(line, "±") {
				continue
			}
			i := strings.Index(line, "±")
			if col >= 0 && i != col {
				t.Errorf("misaligned ± in\n%s", table)
				break
			}
			col = i
		}
	}
	t.Log("\n" + out)
}

func TestWriteMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, sampleComparison()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"| metric | old run-a | new run-b | vs base | p, n | |",
		"| insert mode=&lt;script&gt;alert(1)&lt;/script&gt; | 100.2 ± 2% | 120.3 ± 2% | **+20.00%** | p=0.002 n=6 | worse |",
		`| update\|x |`,
		"| *geomean* |",
		"- environments differ: kernel 6.1.0 vs 6.18.0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "<script>") {
		t.Error("unescaped <script>")
	}
}

func TestWriteHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteHTML(&buf, sampleComparison()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "<script>") {
		t.Error("unescaped <script>")
	}
	for _, want := range []string{"<!DOCTYPE html>", "<style>", "&lt;script&gt;alert(1)&lt;/script&gt;", `class="worse"`, `class="better"`,
		"environments differ: kernel 6.1.0 vs 6.18.0", "20.00%"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	// Tags balance (a rough well-formedness check of the template).
	for _, tag := range []string{"table", "tr", "td", "ul", "div", "html", "body"} {
		open := len(regexp.MustCompile(`<`+tag+`[ >]`).FindAllString(out, -1))
		closed := strings.Count(out, "</"+tag+">")
		if open != closed {
			t.Errorf("<%s>: %d opened, %d closed", tag, open, closed)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sampleComparison()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Alpha  float64 `json:"alpha"`
		Groups []struct {
			Unit string `json:"unit"`
			Rows []struct {
				Key       string   `json:"key"`
				P         *float64 `json:"p"`
				DeltaPct  *float64 `json:"delta_pct"`
				DeltaText string   `json:"delta_text"`
				Verdict   string   `json:"verdict"`
				Warnings  []string `json:"warnings"`
				Old       struct {
					N       int       `json:"n"`
					Median  *float64  `json:"median"`
					CILo    *float64  `json:"ci_lo"`
					CIPct   *float64  `json:"ci_pct"`
					Samples []float64 `json:"samples"`
				} `json:"old"`
			} `json:"rows"`
			Geomean *struct {
				DeltaPct float64 `json:"delta_pct"`
			} `json:"geomean"`
		} `json:"groups"`
		EnvDiffs []EnvDiff `json:"env_diffs"`
		Warnings []string  `json:"warnings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	r := got.Groups[0].Rows[0]
	if got.Alpha != 0.05 || r.P == nil || math.Abs(*r.P-2.0/924) > 1e-12 || r.DeltaText != "+20.00%" || r.Verdict != "worse" ||
		r.DeltaPct == nil || math.Abs(*r.DeltaPct-20) > 1e-9 || r.Old.N != 6 || len(r.Old.Samples) != 6 || r.Old.CILo == nil || *r.Old.CILo != 98 {
		t.Errorf("row %+v", r)
	}
	small := got.Groups[0].Rows[2]
	if small.Old.CILo != nil || small.Old.CIPct != nil || len(small.Warnings) == 0 {
		t.Errorf("n=3 row: want null CI and warnings, got %+v", small)
	}
	if got.Groups[0].Geomean == nil || len(got.EnvDiffs) != 1 || got.EnvDiffs[0].Field != "kernel" || len(got.Warnings) != 1 {
		t.Errorf("geomean %+v env %+v warnings %q", got.Groups[0].Geomean, got.EnvDiffs, got.Warnings)
	}
}

func TestScaler(t *testing.T) {
	tests := []struct {
		vals   []float64
		binary bool
		v      float64
		want   string
	}{
		{[]float64{12.34, 10}, false, 12.34, "12.34"},
		{[]float64{123.45}, false, 123.45, "123.5"}, // rounds like benchstat (%.1f)
		{[]float64{1234.5}, false, 1234.5, "1.234k"},
		{[]float64{0.0042}, false, 0.0042, "4.200m"},
		{[]float64{4096}, true, 4096, "4.000Ki"},
		{[]float64{0}, false, 0, "0.000"},
		{[]float64{math.NaN()}, false, math.NaN(), "-"},
		{[]float64{0.5e-9}, false, 0.5e-9, "0.5000n"},
	}
	for _, tt := range tests {
		if got := commonScale(tt.vals, tt.binary).format(tt.v); got != tt.want {
			t.Errorf("format(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
