package sdk

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/droidprof/droidprof/framework/api"
)

// Analysis is the input of an analyzer: every non-warm-up step of a run with
// the artifacts it left.
type Analysis struct {
	RunDir string
	OutDir string // the analyzer writes its figures and tables here
	Steps  []*StepArtifacts

	config []byte
	schema *api.Schema
}

// StepArtifacts is what one collector step left in the run.
type StepArtifacts struct {
	ID         string
	Collector  string // "plugin.collector" that produced the step
	Labels     map[string]string
	Repetition int
	Status     string // "ok" or "failed"
	Error      string // why a failed step failed
	Artifacts  []*Artifact
}

// Decode fills the struct cfg points to from the analyzer's configuration.
func (a *Analysis) Decode(cfg any) error { return decodeConfig(a.schema, a.config, cfg) }

// Path returns the absolute path of an artifact.
func (a *Analysis) Path(art *Artifact) string {
	return filepath.Join(a.RunDir, filepath.FromSlash(art.Path))
}

// Find returns the artifact of step with the given name, or nil.
func Find(step *StepArtifacts, name string) *Artifact {
	if step == nil {
		return nil
	}
	for _, art := range step.Artifacts {
		if art.Name == name {
			return art
		}
	}
	return nil
}

// ReadJSON decodes a JSON artifact into v.
func (a *Analysis) ReadJSON(art *Artifact, v any) error {
	data, err := os.ReadFile(a.Path(art))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", art.Path, err)
	}
	return nil
}

// Better says which direction of a metric is an improvement.
type Better int

// Directions of improvement.
const (
	LowerIsBetter  Better = 1
	HigherIsBetter Better = 2
)

// String returns "lower" or "higher".
func (b Better) String() string {
	switch b {
	case LowerIsBetter:
		return "lower"
	case HigherIsBetter:
		return "higher"
	}
	return "unspecified"
}

// Metric is a measured quantity with every raw sample (one per repetition).
type Metric struct {
	Name    string
	Unit    string
	Better  Better
	Labels  map[string]string
	Samples []float64
}

// Table is a titled table of text cells.
type Table struct {
	Name    string
	Title   string
	Columns []string
	Rows    [][]string
}

// Output is everything an analyzer produced, as the host receives it.
type Output struct {
	Metrics   []*Metric
	Tables    []*Table
	Artifacts []*Artifact // figures and files written into the output directory
	Summary   string      // Markdown paragraph for the run report
}

// Result collects what an analyzer produces.
type Result struct {
	out    Output
	a      *Analysis
	byName map[string]*Metric
}

// NewResult starts an empty result for a.
func (a *Analysis) NewResult() *Result { return &Result{a: a, byName: map[string]*Metric{}} }

// Sample appends one raw sample to the metric identified by name and labels,
// creating the metric on first use. Call it once per repetition.
func (r *Result) Sample(name, unit string, better Better, labels map[string]string, v float64) {
	key := metricKey(name, labels)
	m, ok := r.byName[key]
	if !ok {
		m = &Metric{Name: name, Unit: unit, Better: better, Labels: labels}
		r.byName[key] = m
		r.out.Metrics = append(r.out.Metrics, m)
	}
	m.Samples = append(m.Samples, v)
}

func metricKey(name string, labels map[string]string) string {
	b, _ := json.Marshal(labels) // map keys are sorted
	return name + string(b)
}

// Table adds a table to the result.
func (r *Result) Table(name, title string, columns []string, rows [][]string) {
	r.out.Tables = append(r.out.Tables, &Table{Name: name, Title: title, Columns: columns, Rows: rows})
}

// Figure writes an SVG figure to the output directory and adds it to the
// result; the HTML report embeds it.
func (r *Result) Figure(name, title string, svg []byte) error {
	path := filepath.Join(r.a.OutDir, name)
	if err := os.WriteFile(path, svg, 0o644); err != nil {
		return fmt.Errorf("write figure %s: %w", name, err)
	}
	art, err := describeFile(r.a.RunDir, path, name, KindFigure, "image/svg+xml", title)
	if err != nil {
		return err
	}
	r.out.Artifacts = append(r.out.Artifacts, art)
	return nil
}

// Page writes an interactive figure: one self-contained HTML page (its
// script, style and data inline; nothing loaded from elsewhere) added to
// the result as a figure. The HTML report shows it in a sandboxed frame
// whose script runs but can reach neither the report nor the network.
func (r *Result) Page(name, title string, html []byte) error {
	path := filepath.Join(r.a.OutDir, name)
	if err := os.WriteFile(path, html, 0o644); err != nil {
		return fmt.Errorf("write page %s: %w", name, err)
	}
	art, err := describeFile(r.a.RunDir, path, name, KindFigure, "text/html", title)
	if err != nil {
		return err
	}
	r.out.Artifacts = append(r.out.Artifacts, art)
	return nil
}

// File writes a file other than a figure (a trace, a profile) to the
// output directory and lists it in the result, so the report links it.
func (r *Result) File(name, mediaType, title string, data []byte) error {
	path := filepath.Join(r.a.OutDir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	art, err := describeFile(r.a.RunDir, path, name, KindRaw, mediaType, title)
	if err != nil {
		return err
	}
	r.out.Artifacts = append(r.out.Artifacts, art)
	return nil
}

// Summary sets the Markdown paragraph shown in the run report.
func (r *Result) Summary(md string) { r.out.Summary = md }

// Output returns what the result holds so far.
func (r *Result) Output() *Output { return &r.out }
