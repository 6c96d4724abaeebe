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
	Steps  []*api.StepArtifacts

	config []byte
	schema *api.Schema
}

// Decode fills the struct cfg points to from the analyzer's configuration.
func (a *Analysis) Decode(cfg any) error { return decodeConfig(a.schema, a.config, cfg) }

// Path returns the absolute path of an artifact.
func (a *Analysis) Path(art *api.Artifact) string {
	return filepath.Join(a.RunDir, filepath.FromSlash(art.Path))
}

// Find returns the artifact of step with the given name, or nil.
func Find(step *api.StepArtifacts, name string) *api.Artifact {
	for _, art := range step.GetArtifacts() {
		if art.Name == name {
			return art
		}
	}
	return nil
}

// ReadJSON decodes a JSON artifact into v.
func (a *Analysis) ReadJSON(art *api.Artifact, v any) error {
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
type Better = api.Metric_Better

// Directions of improvement.
const (
	LowerIsBetter  = api.Metric_BETTER_LOWER
	HigherIsBetter = api.Metric_BETTER_HIGHER
)

// Result collects what an analyzer produces.
type Result struct {
	resp   api.AnalyzeResponse
	a      *Analysis
	byName map[string]*api.Metric
}

// NewResult starts an empty result for a.
func (a *Analysis) NewResult() *Result { return &Result{a: a, byName: map[string]*api.Metric{}} }

// Sample appends one raw sample to the metric identified by name and labels,
// creating the metric on first use. Call it once per repetition.
func (r *Result) Sample(name, unit string, better Better, labels map[string]string, v float64) {
	key := metricKey(name, labels)
	m, ok := r.byName[key]
	if !ok {
		m = &api.Metric{Name: name, Unit: unit, Better: better, Labels: labels}
		r.byName[key] = m
		r.resp.Metrics = append(r.resp.Metrics, m)
	}
	m.Samples = append(m.Samples, v)
}

func metricKey(name string, labels map[string]string) string {
	b, _ := json.Marshal(labels) // map keys are sorted
	return name + string(b)
}

// Table adds a table to the result.
func (r *Result) Table(name, title string, columns []string, rows [][]string) {
	t := &api.Table{Name: name, Title: title, Columns: columns}
	for _, row := range rows {
		t.Rows = append(t.Rows, &api.Row{Cells: row})
	}
	r.resp.Tables = append(r.resp.Tables, t)
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
	r.resp.Artifacts = append(r.resp.Artifacts, art)
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
	r.resp.Artifacts = append(r.resp.Artifacts, art)
	return nil
}

// Summary sets the Markdown paragraph shown in the run report.
func (r *Result) Summary(md string) { r.resp.Summary = md }

// Response returns the protocol form of the result.
func (r *Result) Response() *api.AnalyzeResponse { return &r.resp }
