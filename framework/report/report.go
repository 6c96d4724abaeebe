// Package report renders a run's human report: report.md and report.html in
// the run directory, from its results. The HTML page is one self-contained
// file: SVG figures are embedded inline (sanitized), PNG and other raster
// images as data URIs, and every string from the run is escaped.
package report

import (
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/compare"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/stats"
)

// File names of the report in a run directory.
const (
	MarkdownFile = "report.md"
	HTMLFile     = "report.html"
)

// Size limits for figures embedded in the HTML page; larger ones are linked.
const (
	maxInlineSVG   = 4 << 20
	maxInlineImage = 8 << 20
)

// Write renders report.md and report.html into runDir from r. Figures are
// read from runDir; a figure that cannot be read is linked with a note
// instead of failing the report.
func Write(runDir string, r *results.Results) error {
	if r == nil {
		return fmt.Errorf("report: no results")
	}
	m := build(runDir, r)
	md := renderMarkdown(m)
	if err := writeAtomic(filepath.Join(runDir, MarkdownFile), []byte(md)); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	html, err := renderHTML(m)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := writeAtomic(filepath.Join(runDir, HTMLFile), html); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

func writeAtomic(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// model is the report's content with every value formatted, shared by the
// Markdown and HTML renderers.
type model struct {
	Title       string
	Header      []kv
	Environment []kv
	Plugins     []pluginRow
	StepCounts  []kv // status → count
	FailedSteps []failedStep
	Missing     []missingCell // cells of a partial run that lack repetitions
	Analyses    []results.Analysis
	Metrics     []metricRow
	Tables      []results.Table
	Figures     []figure
	Warnings    []string
}

type kv struct{ Key, Value string }

type pluginRow struct {
	Name, Version, Kind, SHA256, Path string
}

type missingCell struct {
	Collector, Labels string
	OK, Planned       int
}

type failedStep struct {
	ID, Collector, Labels, Error string
	Repetition                   int
}

type metricRow struct {
	Name, Labels, Unit, Analyzer string
	N                            int
	Median, CI, Min, Max         string
	Better                       string
}

type figure struct {
	Title, Path, MediaType string
	// Exactly one of SVG (sanitized markup), DataURI, Page or Note is set.
	SVG     string
	DataURI string
	// Page is a self-contained HTML page (an interactive figure), shown
	// in a sandboxed frame with the policy framePolicy.
	Page string
	Note string // why the figure is only linked
}

func build(runDir string, r *results.Results) *model {
	m := &model{Title: "droidprof run " + r.RunID}
	if r.Experiment != "" {
		m.Title = r.Experiment + " — run " + r.RunID
	}

	// Header.
	m.Header = append(m.Header,
		kv{"experiment", r.Experiment},
		kv{"run ID", r.RunID},
		kv{"status", r.Status},
	)
	if r.ConfigFile != "" {
		m.Header = append(m.Header, kv{"config", r.ConfigFile})
	}
	if !r.Started.IsZero() {
		m.Header = append(m.Header, kv{"started", r.Started.UTC().Format("2006-01-02 15:04:05 UTC")})
	}
	if !r.Finished.IsZero() {
		m.Header = append(m.Header, kv{"finished", r.Finished.UTC().Format("2006-01-02 15:04:05 UTC")})
		if !r.Started.IsZero() {
			m.Header = append(m.Header, kv{"duration", r.Finished.Sub(r.Started).Round(time.Millisecond).String()})
		}
	} else {
		m.Header = append(m.Header, kv{"finished", "not finished"})
	}

	// Environment.
	f := r.Fingerprint
	env := []kv{
		{"hostname", f.Hostname}, {"OS", f.OS}, {"arch", f.Arch}, {"kernel", f.Kernel},
		{"CPU model", f.CPUModel}, {"CPUs", itoa(f.CPUs)}, {"memory", bytesString(f.MemoryBytes)},
		{"Go version", f.GoVersion}, {"droidprof version", f.DroidprofVersion}, {"droidprof commit", f.DroidprofCommit},
	}
	if len(f.Volumes) == 0 {
		env = append(env, kv{"storage backend", f.StorageBackend}, kv{"storage directory", f.StorageDir},
			kv{"filesystem", f.FSType}, kv{"mount options", f.MountOptions})
	}
	for i, v := range f.Volumes {
		key := "storage"
		if len(f.Volumes) > 1 {
			key = fmt.Sprintf("storage %d", i+1)
			if len(v.Cells) > 0 {
				key += " (" + strings.Join(v.Cells, "; ") + ")"
			}
		}
		env = append(env, kv{key, VolumeString(v)})
	}
	env = append(env, kv{"config sha256", f.ConfigSHA256})
	for _, e := range env {
		if e.Value != "" {
			m.Environment = append(m.Environment, e)
		}
	}
	names := make([]string, 0, len(f.Plugins))
	for n := range f.Plugins {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := f.Plugins[n]
		kind := "external"
		if p.BuiltIn {
			kind = "built-in"
		}
		m.Plugins = append(m.Plugins, pluginRow{Name: n, Version: p.Version, Kind: kind, SHA256: p.SHA256, Path: p.Path})
	}

	// Steps.
	counts := map[string]int{}
	warmups := 0
	for _, s := range r.Steps {
		counts[s.Status]++
		if s.Warmup {
			warmups++
		}
		if s.Status == "failed" {
			m.FailedSteps = append(m.FailedSteps, failedStep{ID: s.ID, Collector: s.Collector,
				Labels: results.LabelString(s.Labels), Repetition: s.Repetition, Error: s.Error})
		}
	}
	for _, mc := range r.Missing {
		m.Missing = append(m.Missing, missingCell{Collector: mc.Collector, Labels: results.LabelString(mc.Labels), OK: mc.OK, Planned: mc.Planned})
	}
	statuses := make([]string, 0, len(counts))
	for s := range counts {
		statuses = append(statuses, s)
	}
	sort.Slice(statuses, func(i, j int) bool {
		return statusOrder(statuses[i]) < statusOrder(statuses[j]) || statusOrder(statuses[i]) == statusOrder(statuses[j]) && statuses[i] < statuses[j]
	})
	m.StepCounts = append(m.StepCounts, kv{"total", itoa0(len(r.Steps))})
	for _, s := range statuses {
		name := s
		if name == "" {
			name = "(no status)"
		}
		m.StepCounts = append(m.StepCounts, kv{name, itoa0(counts[s])})
	}
	if warmups > 0 {
		m.StepCounts = append(m.StepCounts, kv{"of them warm-up", itoa0(warmups)})
	}
	m.Analyses = r.Analyses

	// Metrics, and hyperfine-style warnings about their samples.
	m.Warnings = append(m.Warnings, r.Warnings...)
	if len(m.FailedSteps) > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%d of %d steps failed", len(m.FailedSteps), len(r.Steps)))
	}
	for _, a := range r.Analyses {
		if a.Status == "failed" {
			m.Warnings = append(m.Warnings, fmt.Sprintf("analyzer %s failed: %s", a.Analyzer, a.Error))
		}
	}
	noCI := 0
	for i := range r.Metrics {
		mt := &r.Metrics[i]
		s := stats.Summarize(mt.Samples, stats.DefaultConfidence)
		format := compare.Formatter(mt.Unit, s.Median)
		row := metricRow{Name: mt.Name, Labels: results.LabelString(mt.Labels), Unit: mt.Unit, Analyzer: mt.Analyzer,
			N: s.N, Median: format(s.Median), CI: s.CIString(), Min: format(s.Min), Max: format(s.Max), Better: mt.Better}
		if s.N == 0 {
			row.Median, row.CI, row.Min, row.Max = "-", "", "-", "-"
		}
		m.Metrics = append(m.Metrics, row)
		if s.N > 0 && !s.HasCI() {
			noCI++
		}
		dir := 0
		switch mt.Better {
		case results.BetterLower:
			dir = 1
		case results.BetterHigher:
			dir = -1
		}
		outliers := s.Outliers
		if stats.SlowFirst(mt.Samples, dir) {
			m.Warnings = append(m.Warnings, fmt.Sprintf("metric %s: the first sample is far off the others; a warm-up repetition may be missing", mt.Key()))
			outliers = outliers[1:] // SlowFirst implies index 0 is an outlier
		}
		if len(outliers) > 0 {
			m.Warnings = append(m.Warnings, fmt.Sprintf("metric %s: %d outlier(s) beyond 10 robust standard deviations of the median; consider re-running on a quiet machine", mt.Key(), len(outliers)))
		}
	}
	if noCI > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%d metric(s) have fewer than %d samples: no confidence interval (± ∞)", noCI, stats.MinSamplesForCI(stats.DefaultConfidence)))
	}
	m.Tables = r.Tables

	// Figures: the run's, then any figure artifact of a step not listed.
	seen := map[string]bool{}
	var arts []results.Artifact
	for _, a := range r.Figures {
		if !seen[a.Path] {
			seen[a.Path] = true
			arts = append(arts, a)
		}
	}
	for _, s := range r.Steps {
		for _, a := range s.Artifacts {
			if a.Kind == "figure" && !seen[a.Path] {
				seen[a.Path] = true
				arts = append(arts, a)
			}
		}
	}
	for _, a := range arts {
		m.Figures = append(m.Figures, loadFigure(runDir, a))
	}
	return m
}

func statusOrder(s string) int {
	switch s {
	case "ok":
		return 0
	case "failed":
		return 1
	case "skipped":
		return 2
	}
	return 3
}

// loadFigure reads a figure for embedding in the HTML page.
func loadFigure(runDir string, a results.Artifact) figure {
	f := figure{Title: a.Title, Path: a.Path, MediaType: a.MediaType}
	if f.Title == "" {
		f.Title = a.Name
	}
	if f.Title == "" {
		f.Title = path.Base(a.Path)
	}
	name, ok := insideRun(runDir, a.Path)
	if !ok {
		f.Note = "path is outside the run directory; not embedded"
		return f
	}
	mt := a.MediaType
	if mt == "" {
		mt = mediaTypeOf(a.Path)
		f.MediaType = mt
	}
	fi, err := os.Stat(name)
	if err != nil {
		f.Note = "could not be read: " + errText(err)
		return f
	}
	switch {
	case mt == "image/svg+xml" || mt == "text/html":
		if fi.Size() > maxInlineSVG {
			f.Note = fmt.Sprintf("too large to embed (%s)", bytesString(fi.Size()))
			return f
		}
		data, err := os.ReadFile(name)
		if err != nil {
			f.Note = "could not be read: " + errText(err)
			return f
		}
		if mt == "text/html" {
			f.Page = framedPage(string(data))
			return f
		}
		svg, err := sanitizeSVG(data)
		if err != nil {
			f.Note = "not embedded: " + err.Error()
			return f
		}
		f.SVG = svg
	case rasterTypes[mt]:
		if fi.Size() > maxInlineImage {
			f.Note = fmt.Sprintf("too large to embed (%s)", bytesString(fi.Size()))
			return f
		}
		data, err := os.ReadFile(name)
		if err != nil {
			f.Note = "could not be read: " + errText(err)
			return f
		}
		f.DataURI = dataURI(mt, data)
	default:
		f.Note = "media type " + orNone(mt) + " is not embedded"
	}
	return f
}

// insideRun resolves a slash-separated artifact path relative to runDir and
// reports whether it stays inside it.
func insideRun(runDir, p string) (string, bool) {
	if p == "" || path.IsAbs(p) || filepath.IsAbs(p) || strings.Contains(p, "\\") {
		return "", false
	}
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false
	}
	return filepath.Join(runDir, filepath.FromSlash(clean)), true
}

var rasterTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

func mediaTypeOf(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	}
	return ""
}

// errText shortens an *os.PathError to its cause, so notes do not repeat the
// absolute path.
func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// VolumeString describes a storage volume on one line, e.g. "loop ext4
// 1.0 GiB on /dev/loop3 at /tmp/droidprof-mnt-1; mount rw,relatime;
// mkfs -O ^has_journal".
func VolumeString(v results.Volume) string {
	s := v.Backend
	if v.FSType != "" {
		s += " " + v.FSType
	}
	if v.SizeBytes > 0 {
		s += " " + bytesString(v.SizeBytes)
	}
	if v.Device != "" {
		s += " on " + v.Device
	}
	if v.Dir != "" {
		s += " at " + v.Dir
	}
	if v.MountOptions != "" {
		s += "; mount " + v.MountOptions
	}
	if len(v.MkfsOptions) > 0 {
		s += "; mkfs " + strings.Join(v.MkfsOptions, " ")
	}
	return s
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return itoa0(n)
}

func itoa0(n int) string { return fmt.Sprint(n) }

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func bytesString(n int64) string {
	if n <= 0 {
		return ""
	}
	v, units := float64(n), []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f %s", math.Round(v*10)/10, units[i])
}

// framePolicy is the Content-Security-Policy of an embedded page: its own
// inline script, style and data: images, nothing from the network. With
// the frame's sandbox (scripts, no same origin) the page cannot touch the
// report either.
const framePolicy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"

// framedPage puts framePolicy at the start of page's head (before
// anything that could load), or in front of the page if it has none.
func framedPage(page string) string {
	meta := `<meta http-equiv="Content-Security-Policy" content="` + framePolicy + `">`
	if i := strings.Index(strings.ToLower(page), "<head>"); i >= 0 {
		return page[:i+len("<head>")] + meta + page[i+len("<head>"):]
	}
	return meta + page
}
