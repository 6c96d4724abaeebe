// Package runner executes a resolved experiment plan: it creates the run
// directory, runs every collect step (repetitions × matrix cells × collect
// blocks) in its plugin, then the analyzers, and leaves results.json and the
// reports behind — also when a plugin crashes or the user presses Ctrl-C.
package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/config"
	"github.com/droidprof/droidprof/framework/fingerprint"
	"github.com/droidprof/droidprof/framework/host"
	"github.com/droidprof/droidprof/framework/report"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/runstore"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/hashicorp/go-hclog"
)

// Progress receives what the runner is doing; the CLI draws it.
type Progress interface {
	// Step is called when step i (0-based) of n starts.
	Step(i, n int, id string)
	// Update reports progress inside the current step.
	Update(p *api.Progress)
	// Done is called once at the end.
	Done()
}

// Runner runs plans.
type Runner struct {
	Plugins  *host.Manager
	Store    *runstore.Store
	Progress Progress
	Logger   hclog.Logger
}

// Run executes plan. It returns the results and the run directory even when it
// also returns an error (a failed step, an interrupted run): the run is kept.
// Cancelling ctx interrupts the run; it is then marked incomplete.
func (r *Runner) Run(ctx context.Context, plan *config.Plan) (*results.Results, string, error) {
	exp := plan.Experiment
	run, err := r.Store.Create(exp.Name, time.Now())
	if err != nil {
		return nil, "", err
	}
	dir := run.Dir()
	res := &results.Results{RunID: run.ID(), Experiment: exp.Name, ConfigFile: exp.File, Status: results.StatusRunning, Started: run.Started().UTC()}
	ex := &execution{Runner: r, plan: plan, dir: dir, res: res}
	err = ex.run(ctx)
	return res, dir, err
}

type execution struct {
	*Runner
	plan *config.Plan
	dir  string
	res  *results.Results
	// volumes are opened as the first step needing each one runs, and all
	// closed when the run ends; order is the order they were opened in.
	volumes map[string]*openVolume
	order   []*openVolume
}

// openVolume is the outcome of opening one distinct storage spec: a failure
// is kept too, so that the cell's later steps fail fast with the same error.
type openVolume struct {
	v   *volume.Volume
	err error
	fp  int // index in Fingerprint.Volumes
}

func (e *execution) run(ctx context.Context) (err error) {
	defer func() { err = errors.Join(err, e.finish(ctx)) }()
	// Volumes are released before finish writes the results, so that a
	// problem releasing one is recorded in them.
	defer func() { err = errors.Join(err, e.closeVolumes()) }()
	if err := e.writeConfig(); err != nil {
		return err
	}
	e.res.Fingerprint = fingerprint.Collect("")
	e.res.Fingerprint.ConfigSHA256 = e.configSum()
	// Release what earlier runs killed without a chance to clean up left
	// mounted, before this run competes with it for loop devices and space.
	if err := volume.Reap(); err != nil {
		e.warn("releasing storage left by an earlier run: " + err.Error())
	}
	if err := e.save(); err != nil {
		return err
	}
	if err := e.collect(ctx); err != nil {
		return err
	}
	return e.analyze(ctx)
}

// writeConfig keeps the config as written and as resolved.
func (e *execution) writeConfig() error {
	src, err := os.ReadFile(e.plan.Experiment.File)
	if err != nil {
		return fmt.Errorf("copy config: %w", err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "experiment"+filepath.Ext(e.plan.Experiment.File)), src, 0o644); err != nil {
		return err
	}
	resolved, err := json.MarshalIndent(e.plan.Resolved(), "", "  ")
	if err != nil {
		return fmt.Errorf("encode resolved config: %w", err)
	}
	return os.WriteFile(filepath.Join(e.dir, "config.resolved.json"), append(resolved, '\n'), 0o644)
}

func (e *execution) configSum() string {
	data, _ := os.ReadFile(filepath.Join(e.dir, "config.resolved.json"))
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// volumeFor returns the volume of a matrix cell, opening it on first use.
func (e *execution) volumeFor(ctx context.Context, cell config.Cell) (*volume.Volume, config.Storage, error) {
	st := e.plan.Experiment.StorageFor(cell)
	spec := st.Spec()
	k, _ := json.Marshal(spec)
	key := string(k)
	if e.volumes == nil {
		e.volumes = map[string]*openVolume{}
	}
	ov := e.volumes[key]
	if ov == nil {
		ov = &openVolume{fp: -1}
		ov.v, ov.err = volume.Open(ctx, spec)
		if ov.err != nil && ctx.Err() != nil {
			return nil, st, ov.err // interrupted: not a verdict on the spec
		}
		e.volumes[key] = ov
		e.order = append(e.order, ov)
		if ov.err != nil {
			ov.err = fmt.Errorf("storage: %w", ov.err)
		} else {
			v := ov.v
			e.Logger.Info("storage ready", "backend", v.Backend, "dir", v.Dir, "fs", v.FSType, "device", v.Device, "mount_options", v.MountOptions)
			ov.fp = len(e.res.Fingerprint.Volumes)
			fingerprint.AddVolume(&e.res.Fingerprint, results.Volume{Backend: v.Backend, Dir: v.Dir, FSType: v.FSType,
				MountOptions: v.MountOptions, MkfsOptions: v.MkfsOptions, Device: v.Device, Image: v.Image, SizeBytes: v.Size})
		}
	}
	if ov.fp >= 0 && cell.Name() != "" {
		fv := &e.res.Fingerprint.Volumes[ov.fp]
		if !slices.Contains(fv.Cells, cell.Name()) {
			fv.Cells = append(fv.Cells, cell.Name())
		}
	}
	return ov.v, st, ov.err
}

// closeVolumes releases every volume, newest first. A volume that was still
// busy and had to be detached lazily is a warning, not a failure: it is gone
// from view and the kernel frees it when its last user exits.
func (e *execution) closeVolumes() error {
	var errs []error
	for i := len(e.order) - 1; i >= 0; i-- {
		v := e.order[i].v
		if v == nil {
			continue
		}
		err := v.Close()
		switch {
		case err == nil:
		case onlyLazy(err):
			e.warn(fmt.Sprintf("storage %s: %v", v.Dir, err))
		default:
			e.warn(fmt.Sprintf("storage %s not fully released: %v", v.Dir, err))
			errs = append(errs, fmt.Errorf("release storage %s: %w", v.Dir, err))
		}
	}
	e.order, e.volumes = nil, nil
	return errors.Join(errs...)
}

// onlyLazy reports whether every error joined in err is a lazy unmount.
func onlyLazy(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !onlyLazy(e) {
				return false
			}
		}
		return len(j.Unwrap()) > 0
	}
	return errors.Is(err, volume.ErrLazyUnmount)
}

func (e *execution) warn(msg string) {
	e.Logger.Warn(msg)
	e.res.Warnings = append(e.res.Warnings, msg)
}

// step is one planned collector invocation.
type step struct {
	plan   *config.Step
	cell   config.Cell
	rep    int // repetition index, warm-ups first
	warmup bool
}

func (s step) collector() string { return s.plan.Plugin + "." + s.plan.Component }

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._=-]+`)

func (s step) id() string {
	parts := []string{s.collector()}
	for _, k := range s.cell.Keys {
		parts = append(parts, k+"="+s.cell.Labels[k])
	}
	if s.warmup {
		parts = append(parts, fmt.Sprintf("w%d", s.rep))
	} else {
		parts = append(parts, fmt.Sprintf("r%d", s.rep))
	}
	return unsafeChars.ReplaceAllString(strings.Join(parts, "_"), "-")
}

// schedule orders steps repetition-major, so matrix cells and collectors
// alternate and slow drift (thermal, page cache, background load) spreads
// over all of them instead of biasing one. A collector runs once per cell of
// its own (config.Step.Cells: the axes it uses), at the first matrix cell
// that cell stands for; one that uses no axis runs once per repetition.
func (e *execution) schedule() []step {
	exp := e.plan.Experiment
	var steps []step
	for i := 0; i < exp.Warmup+exp.Repeat; i++ {
		warm := i < exp.Warmup
		rep := i
		if !warm {
			rep = i - exp.Warmup
		}
		for _, cell := range e.plan.Cells {
			for _, ps := range e.plan.Collect {
				for _, own := range ps.Cells {
					if own.Index == cell.Index {
						steps = append(steps, step{plan: ps, cell: own, rep: rep, warmup: warm})
					}
				}
			}
		}
	}
	return steps
}

func (e *execution) collect(ctx context.Context) error {
	steps := e.schedule()
	var failed int
	for i, s := range steps {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if e.Progress != nil {
			e.Progress.Step(i, len(steps), s.id())
		}
		rec := e.runStep(ctx, s)
		e.res.Steps = append(e.res.Steps, rec)
		if rec.Status != "ok" {
			failed++
		}
		if err := e.save(); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d steps failed", failed, len(steps))
	}
	return nil
}

func (e *execution) runStep(ctx context.Context, s step) results.Step {
	id := s.id()
	rel := filepath.Join("steps", id)
	rec := results.Step{ID: id, Collector: s.collector(), Labels: s.cell.Labels, Repetition: s.rep, Warmup: s.warmup, Dir: filepath.ToSlash(rel), Status: "ok"}
	start := time.Now()
	defer func() { rec.Duration = time.Since(start).Seconds() }()
	stepDir := filepath.Join(e.dir, rel)
	if err := os.MkdirAll(stepDir, 0o755); err != nil {
		rec.Status, rec.Error = "failed", err.Error()
		return rec
	}
	announced, err := e.stream(ctx, s, id, stepDir, &rec)
	if err != nil {
		rec.Status, rec.Error = "failed", err.Error()
		if ctx.Err() != nil {
			rec.Status, rec.Error = "interrupted", "interrupted before the step finished"
		}
		e.Logger.Error("step failed", "step", id, "error", err)
	}
	// Files the plugin wrote but never announced (it crashed or was
	// interrupted) are kept and listed: collected data is never dropped.
	rec.Artifacts = append(rec.Artifacts, unannounced(e.dir, stepDir, announced)...)
	return rec
}

func (e *execution) stream(ctx context.Context, s step, id, stepDir string, rec *results.Step) (map[string]bool, error) {
	announced := map[string]bool{}
	vol, st, err := e.volumeFor(ctx, s.cell)
	if err != nil {
		return announced, err
	}
	p, err := e.Plugins.Get(s.plan.Plugin)
	if err != nil {
		return announced, err
	}
	cfg := s.plan.Configs[s.cell.Index]
	opts := map[string]string{}
	for k, v := range st.Options {
		opts[k] = v
	}
	if st.Keep {
		opts["keep"] = "true"
	}
	// What the proto's Storage has no field for: the mount options as the
	// kernel applied them, the device, and how it was formatted.
	for k, v := range map[string]string{"mount_options": vol.MountOptions, "device": vol.Device, "mkfs_options": strings.Join(vol.MkfsOptions, " ")} {
		if v != "" {
			opts[k] = v
		}
	}
	stream, err := p.CollectorClient.Collect(ctx, &api.CollectRequest{
		Component: s.plan.Component, ConfigJson: cfg, RunDir: e.dir, StepDir: stepDir,
		StepId: id, Labels: s.cell.Labels, Repetition: int32(s.rep), Warmup: s.warmup,
		Storage: &api.Storage{Backend: vol.Backend, Dir: vol.Dir, FsType: vol.FSType, Options: opts},
	})
	if err != nil {
		return announced, e.explain(p, err)
	}
	logFile, err := os.Create(filepath.Join(stepDir, "step.log"))
	if err != nil {
		return announced, err
	}
	defer logFile.Close()
	announced["step.log"] = true
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return announced, nil
		}
		if err != nil {
			return announced, e.explain(p, err)
		}
		switch ev := ev.Event.(type) {
		case *api.CollectEvent_Progress:
			if e.Progress != nil {
				e.Progress.Update(ev.Progress)
			}
		case *api.CollectEvent_Log:
			e.log(logFile, id, ev.Log)
		case *api.CollectEvent_Records:
			if err := appendRecords(stepDir, ev.Records); err != nil {
				return announced, err
			}
		case *api.CollectEvent_Artifact:
			a := ev.Artifact
			if !filepath.IsLocal(filepath.FromSlash(a.Path)) {
				return announced, fmt.Errorf("plugin %s announced artifact %q outside the run directory", p.Source.Name, a.Path)
			}
			announced[filepath.Base(a.Path)] = true
			rec.Artifacts = append(rec.Artifacts, toArtifact(a))
		}
	}
}

// explain turns a transport error into a message a user can act on.
func (e *execution) explain(p *host.Plugin, err error) error {
	if p.Crashed(err) {
		return fmt.Errorf("plugin %s crashed (its process exited); see the log above for its last words: %w", p.Source.Name, err)
	}
	return fmt.Errorf("plugin %s: %w", p.Source.Name, err)
}

func (e *execution) log(w io.Writer, id string, l *api.LogLine) {
	fmt.Fprintf(w, "%s %s %s", time.Now().UTC().Format(time.RFC3339Nano), l.Level, l.Message)
	args := []any{"step", id}
	for k, v := range l.Fields {
		fmt.Fprintf(w, " %s=%s", k, v)
		args = append(args, k, v)
	}
	fmt.Fprintln(w)
	switch l.Level {
	case api.LogLine_LEVEL_ERROR:
		e.Logger.Error(l.Message, args...)
	case api.LogLine_LEVEL_WARN:
		e.Logger.Warn(l.Message, args...)
	case api.LogLine_LEVEL_DEBUG:
		e.Logger.Debug(l.Message, args...)
	default:
		e.Logger.Info(l.Message, args...)
	}
}

func appendRecords(stepDir string, b *api.RecordBatch) error {
	if !filepath.IsLocal(b.Stream) || strings.ContainsRune(b.Stream, os.PathSeparator) {
		return fmt.Errorf("record stream name %q must be a plain file name", b.Stream)
	}
	f, err := os.OpenFile(filepath.Join(stepDir, b.Stream), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b.Data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func unannounced(runDir, stepDir string, announced map[string]bool) []results.Artifact {
	entries, _ := os.ReadDir(stepDir)
	var out []results.Artifact
	for _, en := range entries {
		if en.IsDir() || announced[en.Name()] {
			continue
		}
		fi, err := en.Info()
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(runDir, filepath.Join(stepDir, en.Name()))
		out = append(out, results.Artifact{Name: en.Name(), Path: filepath.ToSlash(rel), Size: fi.Size(), Kind: "raw"})
	}
	return out
}

func toArtifact(a *api.Artifact) results.Artifact {
	return results.Artifact{Name: a.Name, Path: a.Path, MediaType: a.MediaType, SHA256: a.Sha256, Size: a.Size, Kind: a.Kind, Title: a.Title}
}

func fromArtifact(a results.Artifact) *api.Artifact {
	return &api.Artifact{Name: a.Name, Path: a.Path, MediaType: a.MediaType, Sha256: a.SHA256, Size: a.Size, Kind: a.Kind, Title: a.Title}
}

// analyze runs every analyzer over the successful measured steps.
func (e *execution) analyze(ctx context.Context) error {
	var inputs []*api.StepArtifacts
	for _, s := range e.res.Steps {
		if s.Warmup || s.Status != "ok" {
			continue
		}
		in := &api.StepArtifacts{StepId: s.ID, Collector: s.Collector, Labels: s.Labels, Repetition: int32(s.Repetition), Status: s.Status}
		for _, a := range s.Artifacts {
			in.Artifacts = append(in.Artifacts, fromArtifact(a))
		}
		inputs = append(inputs, in)
	}
	var errs []error
	for _, ps := range e.plan.Analyze {
		name := ps.Plugin + "." + ps.Component
		rec := results.Analysis{Analyzer: name, Status: "ok"}
		if err := e.analyzeOne(ctx, ps, name, inputs, &rec); err != nil {
			rec.Status, rec.Error = "failed", err.Error()
			errs = append(errs, fmt.Errorf("analyzer %s: %w", name, err))
		}
		e.res.Analyses = append(e.res.Analyses, rec)
	}
	return errors.Join(errs...)
}

func (e *execution) analyzeOne(ctx context.Context, ps *config.Step, name string, inputs []*api.StepArtifacts, rec *results.Analysis) error {
	p, err := e.Plugins.Get(ps.Plugin)
	if err != nil {
		return err
	}
	resp, err := p.AnalyzerClient.Analyze(ctx, &api.AnalyzeRequest{
		Component: ps.Component, ConfigJson: ps.Configs[0], RunDir: e.dir,
		OutDir: filepath.Join(e.dir, "analysis", name), Steps: inputs,
	})
	if err != nil {
		return e.explain(p, err)
	}
	rec.Summary = resp.Summary
	for _, m := range resp.Metrics {
		better := ""
		switch m.Better {
		case api.Metric_BETTER_LOWER:
			better = results.BetterLower
		case api.Metric_BETTER_HIGHER:
			better = results.BetterHigher
		}
		e.res.Metrics = append(e.res.Metrics, results.Metric{Name: m.Name, Unit: m.Unit, Better: better, Labels: m.Labels, Samples: m.Samples, Analyzer: name})
	}
	for _, t := range resp.Tables {
		rows := make([][]string, len(t.Rows))
		for i, r := range t.Rows {
			rows[i] = r.Cells
		}
		e.res.Tables = append(e.res.Tables, results.Table{Name: t.Name, Title: t.Title, Analyzer: name, Columns: t.Columns, Rows: rows})
	}
	for _, a := range resp.Artifacts {
		if a.Kind == "figure" {
			e.res.Figures = append(e.res.Figures, toArtifact(a))
		}
	}
	return nil
}

// finish records the outcome whatever happened: status, plugin checksums,
// results.json, the reports and the index row.
func (e *execution) finish(ctx context.Context) error {
	switch {
	case ctx.Err() != nil:
		e.res.Status = results.StatusIncomplete
	case e.anyFailure():
		e.res.Status = results.StatusFailed
	default:
		e.res.Status = results.StatusComplete
	}
	e.res.Finished = time.Now().UTC()
	if e.Plugins != nil {
		for name, p := range e.Plugins.Used() {
			if e.res.Fingerprint.Plugins == nil {
				e.res.Fingerprint.Plugins = map[string]results.Plugin{}
			}
			sum, err := e.Plugins.Checksum(p.Source.Path)
			if err != nil {
				e.res.Warnings = append(e.res.Warnings, err.Error())
			}
			e.res.Fingerprint.Plugins[name] = results.Plugin{Version: p.Info.Version, Path: p.Source.Path, SHA256: sum, BuiltIn: p.Source.BuiltIn}
		}
	}
	if err := e.save(); err != nil {
		return err
	}
	return report.Write(e.dir, e.res)
}

func (e *execution) anyFailure() bool {
	for _, s := range e.res.Steps {
		if s.Status != "ok" {
			return true
		}
	}
	for _, a := range e.res.Analyses {
		if a.Status != "ok" {
			return true
		}
	}
	return false
}

// save writes results.json and updates the index, so even a run killed with
// SIGKILL leaves what it had.
func (e *execution) save() error {
	if err := e.res.Write(filepath.Join(e.dir, results.FileName)); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return e.Store.Update(e.res)
}
