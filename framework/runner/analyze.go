package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/droidprof/droidprof/framework/report"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runstore"
)

// ResolvedConfig is the file in a run directory holding the config as
// resolved; Analyze reads the analyzers from it.
const ResolvedConfig = "config.resolved.json"

// Analyze runs the analyzers of the stored run in dir again over its steps'
// data — only those of plugin when plugin is not empty — and rewrites
// results.json and the reports. It serves `droidprof analyze`: a run whose
// analysis failed, was cut short or was skipped gets its metrics afterwards,
// and a run analysed before an analyzer fix is analysed again. What the
// earlier analysis produced is never overwritten: it is kept, with the
// results.json and reports that went with it, in a new directory under
// PreviousDir (see Previous), a run directory in its own right that show and
// compare accept. The run's status stays incomplete or crashed if it was;
// otherwise it follows the new analysis.
func (r *Runner) Analyze(ctx context.Context, dir, plugin string) (*results.Results, error) {
	// Read first: a run its writer left "running" is marked crashed and
	// can then be analysed.
	if _, err := runstore.Read(dir); err != nil {
		return nil, err
	}
	lock, err := runstore.Lock(dir)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil {
		return nil, err
	}
	all, err := storedAnalyzers(dir)
	if err != nil {
		return nil, err
	}
	sel := all
	if plugin != "" {
		sel = slices.DeleteFunc(slices.Clone(all), func(a analyzer) bool { return a.Plugin != plugin })
	}
	if len(sel) == 0 {
		var names []string
		for _, a := range all {
			names = append(names, a.Plugin)
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("run %s has no analyze block", res.RunID)
		}
		return nil, fmt.Errorf("run %s has no analyzer of plugin %q; its analyzers are of: %s", res.RunID, plugin, strings.Join(slices.Compact(names), ", "))
	}
	if _, err := keepPrevious(dir, res); err != nil {
		return nil, err
	}
	for _, a := range sel {
		if err := forget(dir, res, a.name()); err != nil {
			return nil, err
		}
	}
	ex := &execution{Runner: r, dir: dir, res: res, analyzers: sel}
	aerr := ex.analyze(ctx)
	switch res.Status {
	case results.StatusIncomplete, results.StatusCrashed:
	default:
		res.Status = outcome(res)
	}
	ex.recordPlugins()
	if err := ex.save(); err != nil {
		return res, errors.Join(aerr, err)
	}
	return res, errors.Join(aerr, report.Write(dir, res))
}

// Stored describes what analysing a stored run needs, from its resolved
// config.
type Stored struct {
	// Analyzers are the analyze blocks' plugin.component names.
	Analyzers []string
	// PluginDirs are the plugin directories the config named.
	PluginDirs []string
}

// ReadStored reads what analysing the stored run in dir needs.
func ReadStored(dir string) (*Stored, error) {
	ans, err := storedAnalyzers(dir)
	if err != nil {
		return nil, err
	}
	var cfg struct {
		PluginDirs []string `json:"plugin_dirs"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, ResolvedConfig)) // read fine just now
	json.Unmarshal(data, &cfg)
	st := &Stored{PluginDirs: cfg.PluginDirs}
	for _, a := range ans {
		st.Analyzers = append(st.Analyzers, a.name())
	}
	return st, nil
}

// storedAnalyzers reads the analyze blocks of a run from its resolved config.
func storedAnalyzers(dir string) ([]analyzer, error) {
	data, err := os.ReadFile(filepath.Join(dir, ResolvedConfig))
	if err != nil {
		return nil, fmt.Errorf("read the run's analyzers: %w", err)
	}
	var cfg struct {
		Analyze []analyzer `json:"analyze"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("read the run's analyzers: %s: %w", filepath.Join(dir, ResolvedConfig), err)
	}
	for i, a := range cfg.Analyze {
		if a.Plugin == "" || a.Component == "" {
			return nil, fmt.Errorf("read the run's analyzers: %s: analyze block %d names no plugin or component", filepath.Join(dir, ResolvedConfig), i+1)
		}
		if len(a.Config) == 0 || string(a.Config) == "null" {
			cfg.Analyze[i].Config = json.RawMessage("{}")
		}
	}
	return cfg.Analyze, nil
}

// forget removes what analyzer name produced from res and its output
// directory, so that a new analysis replaces it instead of adding to it.
func forget(dir string, res *results.Results, name string) error {
	res.Analyses = slices.DeleteFunc(res.Analyses, func(a results.Analysis) bool { return a.Analyzer == name })
	res.Metrics = slices.DeleteFunc(res.Metrics, func(m results.Metric) bool { return m.Analyzer == name })
	res.Tables = slices.DeleteFunc(res.Tables, func(t results.Table) bool { return t.Analyzer == name })
	prefix := path.Join(runstore.AnalysisDir, name) + "/"
	res.Figures = slices.DeleteFunc(res.Figures, func(f results.Artifact) bool { return strings.HasPrefix(f.Path, prefix) })
	if err := os.RemoveAll(filepath.Join(dir, runstore.AnalysisDir, name)); err != nil {
		return fmt.Errorf("remove the earlier analysis: %w", err)
	}
	return nil
}
