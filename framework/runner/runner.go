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

// Analyzing is implemented by a Progress that also shows the analysis.
type Analyzing interface {
	// Analyze is called when analyzer name starts.
	Analyze(name string)
}

// Runner runs plans.
type Runner struct {
	Plugins  *host.Manager
	Store    *runstore.Store
	Progress Progress
	Logger   hclog.Logger
	// AnalyzeAfterInterrupt bounds the analysis of what an interrupted run
	// completed (0: DefaultAnalyzeAfterInterrupt). A user who pressed
	// Ctrl-C wants to stop soon; what is not analysed in time can be with
	// `droidprof analyze`.
	AnalyzeAfterInterrupt time.Duration
}

// DefaultAnalyzeAfterInterrupt is the default of Runner.AnalyzeAfterInterrupt.
const DefaultAnalyzeAfterInterrupt = 30 * time.Second

// Run executes plan. It returns the results and the run directory even when it
// also returns an error (a failed step, an interrupted run): the run is kept.
// Cancelling ctx interrupts the run; it is then marked incomplete.
func (r *Runner) Run(ctx context.Context, plan *config.Plan) (*results.Results, string, error) {
	exp := plan.Experiment
	run, err := r.Store.Create(exp.Name, time.Now())
	if err != nil {
		return nil, "", err
	}
	// The run's lock is held until everything is written: a droidprof
	// killed before that leaves a run that runs and show call crashed.
	defer run.Close()
	dir := run.Dir()
	res := &results.Results{RunID: run.ID(), Experiment: exp.Name, ConfigFile: exp.File, Status: results.StatusRunning, Started: run.Started().UTC()}
	ex := &execution{Runner: r, plan: plan, dir: dir, res: res, analyzers: planAnalyzers(plan)}
	err = ex.run(ctx)
	return res, dir, err
}

// analyzer is one analyze block: the plugin, its component and its config.
type analyzer struct {
	Plugin    string          `json:"plugin"`
	Component string          `json:"component"`
	Config    json.RawMessage `json:"config"`
}

func (a analyzer) name() string { return a.Plugin + "." + a.Component }

func planAnalyzers(plan *config.Plan) []analyzer {
	var out []analyzer
	for _, ps := range plan.Analyze {
		out = append(out, analyzer{Plugin: ps.Plugin, Component: ps.Component, Config: ps.Configs[0]})
	}
	return out
}

type execution struct {
	*Runner
	plan      *config.Plan
	dir       string
	res       *results.Results
	analyzers []analyzer
	// volumes are opened as the first step needing each one runs, and all
	// closed when the run ends; order is the order they were opened in.
	volumes map[string]*openVolume
	order   []*openVolume
	// pluginWarnings are the plugins' warn-level log lines, each message
	// once with the steps that logged it (pluginWarningOrder: first seen
	// first), for the results' warnings.
	pluginWarnings     map[string][]string
	pluginWarningOrder []string
}

// openVolume is the outcome of opening one distinct storage spec: a failure
// is kept too, so that the cell's later steps fail fast with the same error.
type openVolume struct {
	v   *volume.Volume
	err error
	fp  int // index in Fingerprint.Volumes
}

// run measures, then analyses what was measured: also when some steps
// failed (the run is then partial) and, within AnalyzeAfterInterrupt, when
// the run was interrupted.
func (e *execution) run(ctx context.Context) (err error) {
	defer func() { err = errors.Join(err, e.finish(ctx)) }()
	err = e.measure(ctx)
	var failed *stepsFailed
	switch {
	case ctx.Err() != nil:
		// Record the interruption before analysing, so that a second
		// Ctrl-C, which kills droidprof, leaves an incomplete run.
		e.res.Status = results.StatusIncomplete
		if serr := e.save(); serr != nil {
			return errors.Join(err, serr)
		}
		limit := e.AnalyzeAfterInterrupt
		if limit <= 0 {
			limit = DefaultAnalyzeAfterInterrupt
		}
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), limit)
		defer cancel()
		if aerr := e.analyze(actx); aerr != nil {
			e.warn(fmt.Sprintf("analysing the steps completed before the interruption: %v", aerr))
		}
		return err
	case errors.As(err, &failed):
		return errors.Join(err, e.analyze(ctx))
	case err != nil:
		return err
	}
	return e.analyze(ctx)
}

// stepsFailed is the error of collect when some steps did not succeed.
type stepsFailed struct{ failed, ran int }

func (s *stepsFailed) Error() string { return fmt.Sprintf("%d of %d steps failed", s.failed, s.ran) }

// measure prepares the run and runs every step.
func (e *execution) measure(ctx context.Context) (err error) {
	// Volumes are released before the analysis and before finish writes
	// the results, so that a problem releasing one is recorded in them.
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
	return e.collect(ctx)
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
	e.res.PlannedSteps = len(steps)
	// Whatever happens, the results name the cells left without data; the
	// warning carries them into the report.
	defer func() {
		e.res.Warnings = append(e.res.Warnings, e.foldPluginWarnings()...)
		e.res.Missing = missing(steps, e.res.Steps)
		if n := len(e.res.Missing); n > 0 {
			names := make([]string, 0, min(n, 10))
			for _, m := range e.res.Missing[:min(n, 10)] {
				names = append(names, m.String())
			}
			if n > 10 {
				names = append(names, fmt.Sprintf("and %d more", n-10))
			}
			e.res.Warnings = append(e.res.Warnings, fmt.Sprintf("%d cell(s) lack repetitions (failed or not run), analysed without them: %s", n, strings.Join(names, "; ")))
		}
	}()
	var failed int
	for i, s := range steps {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The step is in the results while it runs, so that a droidprof
		// killed during it leaves a run whose reader (runstore.Read) can
		// name the step and keep its files.
		e.res.Steps = append(e.res.Steps, s.record(results.StepRunning))
		if err := e.save(); err != nil {
			return err
		}
		if e.Progress != nil {
			e.Progress.Step(i, len(steps), s.id())
		}
		rec := e.runStep(ctx, s)
		e.res.Steps[len(e.res.Steps)-1] = rec
		if rec.Status != "ok" {
			failed++
		}
		if err := e.save(); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err() // the last step was interrupted
	}
	if failed > 0 {
		return &stepsFailed{failed: failed, ran: len(steps)}
	}
	return nil
}

// missing lists the measured cells of each collector that have fewer
// successful repetitions than planned, in plan order.
func missing(planned []step, ran []results.Step) []results.Missing {
	key := func(collector string, labels map[string]string) string {
		return collector + " " + results.LabelString(labels)
	}
	ok := map[string]int{}
	for _, s := range ran {
		if !s.Warmup && s.Status == "ok" {
			ok[key(s.Collector, s.Labels)]++
		}
	}
	var out []results.Missing
	index := map[string]int{}
	for _, s := range planned {
		if s.warmup {
			continue
		}
		k := key(s.collector(), s.cell.Labels)
		i, seen := index[k]
		if !seen {
			i = len(out)
			index[k] = i
			out = append(out, results.Missing{Collector: s.collector(), Labels: s.cell.Labels, OK: ok[k]})
		}
		out[i].Planned++
	}
	return slices.DeleteFunc(out, func(m results.Missing) bool { return m.OK >= m.Planned })
}

// runStep runs one step; rec is named so that the deferred duration lands
// in what is returned.
func (e *execution) runStep(ctx context.Context, s step) (rec results.Step) {
	id := s.id()
	rec = s.record("ok")
	start := time.Now()
	defer func() { rec.Duration = time.Since(start).Seconds() }()
	stepDir := filepath.Join(e.dir, filepath.FromSlash(rec.Dir))
	if err := os.MkdirAll(stepDir, 0o755); err != nil {
		rec.Status, rec.Error = "failed", err.Error()
		return rec
	}
	announced, err := e.stream(ctx, s, id, stepDir, &rec)
	switch {
	case err != nil && ctx.Err() != nil:
		// The user asked for it: not an error to shout about.
		rec.Status, rec.Error = "interrupted", "interrupted before the step finished"
		e.Logger.Info("step interrupted", "step", id)
	case err != nil:
		rec.Status, rec.Error = "failed", err.Error()
		e.Logger.Error("step failed", "step", id, "error", err)
	}
	// Files the plugin wrote but never announced (it crashed or was
	// interrupted) are kept and listed: collected data is never dropped.
	rec.Artifacts = append(rec.Artifacts, unannounced(e.dir, stepDir, announced)...)
	return rec
}

// record is the step's entry in the results, with the given status.
func (s step) record(status string) results.Step {
	id := s.id()
	return results.Step{ID: id, Collector: s.collector(), Labels: s.cell.Labels, Repetition: s.rep, Warmup: s.warmup, Dir: "steps/" + id, Status: status}
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

// explain turns a transport error into a message a user can act on, without
// the gRPC wrapping.
func (e *execution) explain(p *host.Plugin, err error) error {
	if p.Crashed(err) {
		return fmt.Errorf("plugin %s crashed (its process exited); see the log above for its last words: %w", p.Source.Name, host.UserError(err))
	}
	return fmt.Errorf("plugin %s: %w", p.Source.Name, host.UserError(err))
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
		e.pluginWarning(id, l.Message)
	case api.LogLine_LEVEL_DEBUG:
		e.Logger.Debug(l.Message, args...)
	default:
		e.Logger.Info(l.Message, args...)
	}
}

// pluginWarning keeps a plugin's warning for the results: a user reads the
// report's warnings, not the run's log, and a warning such as a lost-events
// count or a noisy calibration changes how the figures may be read.
func (e *execution) pluginWarning(step, msg string) {
	if e.pluginWarnings == nil {
		e.pluginWarnings = map[string][]string{}
	}
	if _, ok := e.pluginWarnings[msg]; !ok {
		e.pluginWarningOrder = append(e.pluginWarningOrder, msg)
	}
	e.pluginWarnings[msg] = append(e.pluginWarnings[msg], step)
}

// foldPluginWarnings is one warning per distinct message, naming the steps
// that logged it (the first three and how many more), so that a warning
// repeated in every repetition does not fill the report.
func (e *execution) foldPluginWarnings() []string {
	var out []string
	for _, msg := range e.pluginWarningOrder {
		steps := e.pluginWarnings[msg]
		where := strings.Join(steps[:min(len(steps), 3)], ", ")
		if n := len(steps) - 3; n > 0 {
			where += fmt.Sprintf(" and %d more", n)
		}
		noun := "step"
		if len(steps) > 1 {
			noun = "steps"
		}
		out = append(out, fmt.Sprintf("%s (%s %s)", msg, noun, where))
	}
	return out
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

// analyze runs every analyzer over the successful measured steps of its own
// plugin's collectors.
func (e *execution) analyze(ctx context.Context) error {
	var errs []error
	for _, an := range e.analyzers {
		if ctx.Err() != nil {
			e.res.Analyses = append(e.res.Analyses, results.Analysis{Analyzer: an.name(), Status: "interrupted",
				Error: "not run: interrupted; run `droidprof analyze` on the run to analyse it"})
			continue
		}
		if a, ok := e.Progress.(Analyzing); ok {
			a.Analyze(an.name())
		}
		rec := results.Analysis{Analyzer: an.name(), Status: "ok"}
		if err := e.analyzeOne(ctx, an, &rec); err != nil {
			rec.Status, rec.Error = "failed", err.Error()
			if ctx.Err() != nil {
				rec.Status = "interrupted"
			}
			errs = append(errs, fmt.Errorf("analyzer %s: %w", an.name(), err))
		}
		e.res.Analyses = append(e.res.Analyses, rec)
	}
	return errors.Join(errs...)
}

// inputs are the measured steps an analyzer of plugin p sees: those of
// p's own collectors, so that it never reads another plugin's artifacts as
// its own, failed and interrupted ones included (with their status). A
// plugin that offers no collector (a pure analysis plugin) sees every
// successful step.
func (e *execution) inputs(p *host.Plugin, plugin string) []*api.StepArtifacts {
	own := len(p.Info.GetCollectors()) > 0
	var inputs []*api.StepArtifacts
	for _, s := range e.res.Steps {
		// A plugin's own steps that failed or were interrupted go to its
		// analyzers too, with their status and error: the files they left
		// (kept and listed) can be analysed as far as they go, marked
		// incomplete. Every analyzer checks StepArtifacts.Status.
		if s.Warmup || s.Status != "ok" && !own {
			continue
		}
		if own && !strings.HasPrefix(s.Collector, plugin+".") {
			continue
		}
		in := &api.StepArtifacts{StepId: s.ID, Collector: s.Collector, Labels: s.Labels, Repetition: int32(s.Repetition), Status: s.Status, Error: s.Error}
		for _, a := range s.Artifacts {
			in.Artifacts = append(in.Artifacts, fromArtifact(a))
		}
		inputs = append(inputs, in)
	}
	return inputs
}

func (e *execution) analyzeOne(ctx context.Context, an analyzer, rec *results.Analysis) error {
	if !slices.ContainsFunc(e.res.Steps, func(s results.Step) bool { return !s.Warmup && (s.Status == "ok" || len(s.Artifacts) > 0) }) {
		// Nothing to analyse: no need to start the plugin (after Ctrl-C
		// in the first step before it wrote anything, say).
		rec.Status, rec.Summary = "skipped", "No successful step to analyse."
		return nil
	}
	p, err := e.Plugins.Get(an.Plugin)
	if err != nil {
		return err
	}
	inputs := e.inputs(p, an.Plugin)
	if len(inputs) == 0 {
		rec.Status = "skipped"
		rec.Summary = fmt.Sprintf("No successful step of plugin %s's collectors to analyse.", an.Plugin)
		return nil
	}
	name := an.name()
	resp, err := p.AnalyzerClient.Analyze(ctx, &api.AnalyzeRequest{
		Component: an.Component, ConfigJson: an.Config, RunDir: e.dir,
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
	if ctx.Err() != nil {
		e.res.Status = results.StatusIncomplete
	} else {
		e.res.Status = outcome(e.res)
	}
	e.res.Finished = time.Now().UTC()
	e.recordPlugins()
	if err := e.save(); err != nil {
		return err
	}
	return report.Write(e.dir, e.res)
}

// recordPlugins adds the plugins used to the fingerprint.
func (e *execution) recordPlugins() {
	if e.Plugins == nil {
		return
	}
	for name, p := range e.Plugins.Used() {
		if e.res.Fingerprint.Plugins == nil {
			e.res.Fingerprint.Plugins = map[string]results.Plugin{}
		}
		if _, ok := e.res.Fingerprint.Plugins[name]; ok {
			continue // a re-analysis keeps what the measurement used
		}
		sum, err := e.Plugins.Checksum(p.Source.Path)
		if err != nil {
			e.res.Warnings = append(e.res.Warnings, err.Error())
		}
		e.res.Fingerprint.Plugins[name] = results.Plugin{Version: p.Info.Version, Path: p.Source.Path, SHA256: sum, BuiltIn: p.Source.BuiltIn}
	}
}

// outcome is the status of a run that was not interrupted: failed when an
// analyzer failed or no step succeeded, partial when some steps failed or
// the analysis of some was interrupted, else complete.
func outcome(r *results.Results) string {
	ok, bad := 0, 0
	for _, s := range r.Steps {
		if s.Status == "ok" {
			ok++
		} else {
			bad++
		}
	}
	partial := bad > 0
	for _, a := range r.Analyses {
		switch a.Status {
		case "ok", "skipped":
		case "interrupted":
			partial = true
		default:
			return results.StatusFailed
		}
	}
	switch {
	case len(r.Steps) > 0 && ok == 0:
		return results.StatusFailed
	case partial:
		return results.StatusPartial
	}
	return results.StatusComplete
}

// save writes results.json and updates the index, so even a run killed with
// SIGKILL leaves what it had. A run of another store (analysed by path)
// updates that store's index, if it has one.
func (e *execution) save() error {
	if err := e.res.Write(filepath.Join(e.dir, results.FileName)); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	if filepath.Base(e.dir) != e.res.RunID {
		return nil // renamed or copied: no index knows it by this name
	}
	root := filepath.Dir(e.dir)
	if e.Store != nil && root == e.Store.Root() {
		return e.Store.Update(e.res)
	}
	if _, err := os.Stat(filepath.Join(root, runstore.IndexFile)); err != nil {
		return nil // a run directory on its own
	}
	other, err := runstore.Open(root)
	if err != nil {
		return err
	}
	defer other.Close()
	return other.Update(e.res)
}
