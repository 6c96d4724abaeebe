package dpa

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/plugins/dpa/analysis"
	"github.com/droidprof/droidprof/plugins/dpa/trace"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/clock"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/workloads"
)

// Files the collectors write into their step directory.
const (
	ResultFile = "result.json"
	StdoutFile = "stdout.txt"
	StderrFile = "stderr.txt"
)

// Result is a step's result.json: what ran and the figures the analyzer
// needs besides the trace.
type Result struct {
	Collector string   `json:"collector"` // dpa or baseline
	Workload  string   `json:"workload,omitempty"`
	Main      string   `json:"main"`
	Args      []string `json:"args"`
	// Method is the profiled method of a DPA-suite workload,
	// "Lpkg/Cls;.name:(sig)".
	Method   string `json:"method,omitempty"`
	ExitCode int    `json:"exit_code"`
	// RunNanos is the program's run (RunMain) timed from outside.
	RunNanos int64 `json:"run_ns"`

	// dpa only.
	Records       int64 `json:"records,omitempty"`
	BufferRecords int   `json:"buffer_records"`
	// MeasureEvents: every event carried its measured cost
	// (Config.MeasureEvents).
	MeasureEvents bool `json:"measure_events,omitempty"`
	// Engine ran the traced program (vm.engine; "interp" when unset);
	// on aot, how many methods ran compiled and why the others fell back
	// to the interpreter (the traced run kept).
	Engine string `json:"engine,omitempty"`
	// Clock is "virtual" when the run counted instructions
	// (Config.Clock), empty on the host's clock.
	Clock     string            `json:"clock,omitempty"`
	Compiled  int               `json:"compiled_methods,omitempty"`
	Fallbacks []aot.ReasonCount `json:"fallbacks,omitempty"`

	// The baselines (the baseline collector's own figures, or the dpa
	// collector's paired ones): the self-timed variant's figures, method
	// name -> ns, from its "<name> elapsed_ns=N" stderr lines, and the
	// untraced program's run time.
	MethodNanos  map[string]int64 `json:"method_ns,omitempty"`
	BaseRunNanos int64            `json:"base_run_ns,omitempty"`
}

// program is what a step runs.
type program struct {
	workload  string
	classPath []string
	main      string
	args      []string
	method    string // profiled method of a DPA-suite workload
	timedMain string // the self-timed variant's main class, if any
	gc        gc.Config
	engine    string   // vm.engine
	barriers  string   // vm.barriers
	preload   []string // vm.preload
	oat       string   // vm.oat
	virtual   bool     // clock = "virtual"
}

// options are the VM options that run p, with its output and hooks.
func (p program) options(stdout, stderr io.Writer, hooks *runtime.Hooks) vm.Options {
	if p.virtual {
		if hooks == nil {
			hooks = &runtime.Hooks{}
		}
		hooks.VirtualTime = true
	}
	return vm.Options{ClassPath: p.classPath, GC: p.gc, Engine: p.engine, Oat: p.oat, Barriers: p.barriers, Preload: p.preload, Stdout: stdout, Stderr: stderr, Hooks: hooks}
}

// result starts the collector's Result for p.
func (p program) result(collector string) Result {
	r := Result{Collector: collector, Workload: p.workload, Main: p.main, Args: p.args, Method: p.method, Engine: cmp.Or(p.engine, "interp")}
	if p.virtual {
		r.Clock = trace.ClockVirtual
	}
	return r
}

// run runs main on v and times the run from outside the program: on the
// host's clock, or on the VM's own when it counts instructions. cpu is the
// run's time on the kernel's CPU clock of the thread that ran main (the
// virtual clock's elapsed time when it counts instructions; -1 when the
// kernel's clock cannot be read).
func (p program) run(ctx context.Context, v *runtime.VM, main string) (code int, elapsed, cpu time.Duration, err error) {
	if p.virtual {
		start := v.Now()
		code, err = v.RunMain(ctx, main, p.args)
		elapsed = time.Duration(v.Now() - start)
		return code, elapsed, elapsed, err
	}
	return runTimed(ctx, v, main, p.args)
}

// resolve turns the config into a program, writing a registry workload's
// DEX file into dir.
func resolve(cfg Config, dir string) (program, error) {
	p := program{classPath: cfg.ClassPath, main: cfg.Main, args: cfg.Args, engine: cfg.VM.Engine, barriers: cfg.VM.Barriers, oat: cfg.VM.Oat, preload: cfg.VM.Preload, virtual: cfg.Clock == "virtual"}
	var err error
	if p.gc, err = heapConfig(cfg); err != nil {
		return p, fmt.Errorf("dpa: %w", err)
	}
	if p.virtual && p.engine == "aot" {
		return p, errors.New(`dpa: clock "virtual" counts the instructions the interpreter executes; vm.engine "aot" does not count them: use clock "wall" or vm.engine "interp"`)
	}
	if cfg.Workload == "" {
		if len(p.classPath) == 0 || p.main == "" {
			return p, errors.New("dpa: set workload, or class_path and main")
		}
		return p, nil
	}
	w, ok := workloads.Lookup(cfg.Workload)
	if !ok {
		var names []string
		for _, w := range workloads.All {
			names = append(names, w.Name)
		}
		return p, fmt.Errorf("dpa: no workload %q; known: %s", cfg.Workload, strings.Join(names, ", "))
	}
	data, err := w.Bytes()
	if err != nil {
		return p, err
	}
	path := filepath.Join(dir, w.DEX)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return p, err
	}
	p.workload, p.classPath, p.method = w.Name, []string{path}, w.Method
	if p.main == "" {
		p.main = w.Main
	}
	if p.args == nil {
		p.args = w.Args
	}
	if t, ok := workloads.Lookup(w.Name + "-timed"); ok {
		p.timedMain = t.Main
	}
	return p, nil
}

// heapConfig is the VM's heap configuration: the vm block, with the
// top-level heap_max of configs written before the block existed.
func heapConfig(cfg Config) (gc.Config, error) {
	s := cfg.VM
	if cfg.HeapMax != 0 {
		if s.HeapMax != 0 && s.HeapMax != cfg.HeapMax {
			return gc.Config{}, fmt.Errorf("heap_max %s and vm.heap_max %s disagree: heap_max is the older spelling of vm.heap_max; set only vm.heap_max", cfg.HeapMax, s.HeapMax)
		}
		s.HeapMax = cfg.HeapMax
	}
	return s.Config()
}

// tracer is the DPA instrumentation: the VM's method hooks stamp each
// event and hand it to the record buffer.
type tracer struct {
	v       *runtime.VM
	rec     *trace.Recorder
	methods []*runtime.Method // by runtime method ID, those seen
	names   map[int]string    // thread ID -> name
	measure bool              // measure each event's cost
}

// note remembers a method the first time it is seen and, at outermost
// events, the thread's name.
func (tr *tracer) note(t *runtime.Thread, m *runtime.Method, depth int) {
	if m.ID >= len(tr.methods) {
		tr.methods = append(tr.methods, make([]*runtime.Method, m.ID+1-len(tr.methods))...)
	}
	tr.methods[m.ID] = m
	if depth == 1 {
		// Thread names are taken at outermost events: the main thread
		// gets its name in its first method, Thread.<init>.
		tr.names[t.ID] = t.Name()
	}
}

// event is the whole per-event work: the record, stamped with the clock
// read the VM made right before calling the hook (the CPU clock is derived
// from it). With Config.MeasureEvents the VM also times every hook, from
// that stamp to a clock read after the hook has returned, and each record
// carries what its thread's previous event cost (trace.Meta.CostsOfPrevious):
// the analysis deducts what every event really cost, dispatch and return
// included, less one clock read. Everything but the record is off the
// common path (note): keeping a table of the methods seen stored to it at
// every event, 2 ns an event on fib (plugins/dpa/BENCHMARKS.md).
func (tr *tracer) event(t *runtime.Thread, m *runtime.Method, depth int, a trace.Action, now int64) {
	tr.rec.Record(uint32(t.ID), uint32(m.ID)+1, a, now, t.CPUTime(now), uint32(t.HookCost))
	if depth == 1 || m.ID >= len(tr.methods) || tr.methods[m.ID] == nil {
		tr.note(t, m, depth)
	}
}

// hooks are the VM's method hooks. The common event — a method seen
// before, not outermost, no measured cost, room in the buffer — is stored
// by the hook itself (Recorder.Store, inlined); the rest goes through
// event. hooks is not inlined: the copies of its closures that inlining
// makes in its callers had Store and Thread.CPUTime called instead of
// inlined (go1.26), which undid the point of Store.
//
//go:noinline
func (tr *tracer) hooks() *runtime.Hooks {
	return &runtime.Hooks{
		TimeMethodHooks: tr.measure,
		MethodEntry: func(t *runtime.Thread, m *runtime.Method, depth int, now int64) {
			if depth > 1 && t.HookCost == 0 && m.ID < len(tr.methods) && tr.methods[m.ID] != nil &&
				tr.rec.Store(uint32(t.ID), uint32(m.ID)+1, trace.Enter, now, t.CPUTime(now)) {
				return
			}
			tr.event(t, m, depth, trace.Enter, now)
		},
		MethodExit: func(t *runtime.Thread, m *runtime.Method, depth int, exc bool, now int64) {
			if exc {
				tr.event(t, m, depth, trace.Unroll, now)
				return
			}
			if depth > 1 && t.HookCost == 0 && m.ID < len(tr.methods) && tr.methods[m.ID] != nil &&
				tr.rec.Store(uint32(t.ID), uint32(m.ID)+1, trace.Exit, now, t.CPUTime(now)) {
				return
			}
			tr.event(t, m, depth, trace.Exit, now)
		},
	}
}

// calibrateClock times n clock reads in a row, like Traceview's
// clock-call-overhead measurement (the fastest of calibrationRounds
// batches). It is recorded with the trace; the deduction uses the cost of
// a whole event (calibrateEvents), of which the clock read is a part.
func calibrateClock(v *runtime.VM, n int) time.Duration {
	best := int64(math.MaxInt64)
	for b := 0; b < calibrationRounds; b++ {
		start := v.Now()
		for i := 0; i < n; i++ {
			v.Now()
		}
		best = min(best, (v.Now()-start)/int64(n))
	}
	return time.Duration(best)
}

// begin decodes a step's config, resolves its program and opens the
// program's output files.
func begin(step *sdk.Step) (cfg Config, p program, out, errOut *os.File, err error) {
	if err = step.Decode(&cfg); err != nil {
		return
	}
	if p, err = resolve(cfg, step.Dir); err != nil {
		return
	}
	out, errOut, err = outputs(step.Dir)
	return
}

func collectDPA(ctx context.Context, step *sdk.Step) error {
	cfg, p, out, errOut, err := begin(step)
	if err != nil {
		return err
	}
	defer out.Close()
	defer errOut.Close()
	step.Progress(0, 1, "", "calibrating")
	// The calibration calls make at least four buffers' worth of events,
	// so that handing full buffers to the writer is paid in the same
	// proportion as in the measured run.
	calls := max(cfg.Calibration, 2*cfg.BufferRecords)
	var eventCost, unmeasured time.Duration
	if p.virtual {
		// Tracing executes no instructions: there is nothing to deduct.
		cfg.MeasureEvents = false
	} else {
		var notSlower int
		if eventCost, unmeasured, notSlower, err = calibrateEvents(ctx, step.Dir, calls, cfg.BufferRecords, cfg.MeasureEvents); err != nil {
			return fmt.Errorf("dpa: calibration: %w", err)
		}
		if 2*notSlower >= calibrationRounds {
			step.Log(sdk.Warn, fmt.Sprintf("dpa: the calibration program ran traced no slower than untraced in %d of %d rounds (the host too noisy to calibrate on): its event cost, %v, is not to be trusted where it is deducted (programs too short to calibrate on themselves, and the cross-check columns)", notSlower, calibrationRounds, eventCost))
		}
	}
	res := p.result("dpa")
	res.BufferRecords, res.MeasureEvents = cfg.BufferRecords, cfg.MeasureEvents
	var best *tracedRun
	var clockCost time.Duration
	// With paired baselines every best-of run is an untraced run and a
	// traced one back to back, timed like the calibration's pairs: they
	// are the program's first calibration pairs, which saves as many
	// pairs of its own (on fib without a record buffer, 1.6 s a traced
	// run).
	var seed []analysis.Pair
	for i := 0; i < cfg.BestOf; i++ {
		var plain time.Duration
		if cfg.PairedBaseline {
			// Measured right before each traced run, so that both see
			// the same machine: timing noise on shared or virtual hosts
			// drifts over seconds, far more than the errors measured.
			step.Progress(float64(i), float64(cfg.BestOf), "runs", "running "+p.main+" untraced (paired baseline)")
			var b Result
			if plain, err = measureBaselines(ctx, p, cfg, &b, io.Discard, io.Discard); err != nil {
				return err
			}
			keepFastest(&res, &b)
		}
		step.Progress(float64(i), float64(cfg.BestOf), "runs", "running "+p.main+" traced")
		var stdout, stderr io.Writer = io.Discard, io.Discard
		if i == 0 {
			stdout, stderr = out, errOut
		}
		// The clock read is timed once per step, in the first run: it is
		// the same clock in every run, and timing it is 31 × 32 000
		// reads, 10–40 ms a run.
		r, err := runTraced(ctx, p, cfg, step.Dir, fmt.Sprintf("%s.%d", trace.RecordsFile, i), stdout, stderr, i == 0)
		if err != nil {
			return err
		}
		if i == 0 {
			clockCost = r.meta.ClockOverhead
		}
		if plain > 0 && r.code == 0 && len(r.meta.Threads) <= 1 {
			seed = append(seed, analysis.Pair{Plain: plain, Traced: cpuOr(r.cpu, r.meta.Elapsed), Events: r.meta.Records, Costs: r.costs})
		}
		if best == nil || r.meta.Elapsed < best.meta.Elapsed {
			if best != nil {
				os.Remove(best.path)
			}
			best = r
		} else {
			os.Remove(r.path)
		}
	}
	if err := os.Rename(best.path, filepath.Join(step.Dir, trace.RecordsFile)); err != nil {
		return err
	}
	// The program's own pairs, after the calibration program: both are
	// recorded, the one cfg.Calibrate names is deducted.
	var prog analysis.Calibration
	if !p.virtual {
		step.Progress(0, 1, "", "calibrating on "+p.main+" itself")
		prog, err = calibrateProgram(ctx, p, cfg, step.Dir, seed)
		if err != nil && !errors.Is(err, errThreads) {
			return fmt.Errorf("dpa: calibration on the program: %w", err)
		}
	}
	best.meta.ClockOverhead = clockCost
	setCalibration(best.meta, cfg, eventCost, unmeasured, prog, p.virtual, stretch(best))
	if err := writeFile(filepath.Join(step.Dir, trace.MetaFile), func(f *os.File) error { return trace.WriteMeta(f, best.meta) }); err != nil {
		return err
	}
	res.ExitCode, res.RunNanos, res.Records = best.code, best.meta.Elapsed.Nanoseconds(), best.meta.Records
	done := fmt.Sprintf("%d events, exit status %d", res.Records, res.ExitCode)
	if s := best.stats; s != nil {
		res.Compiled, res.Fallbacks = s.Compiled, s.Fallbacks
		done += fmt.Sprintf("; aot: %d methods compiled, %d on the interpreter", s.Compiled, s.NumFallbacks())
	}
	if err := step.WriteJSON(ResultFile, &res); err != nil {
		return err
	}
	step.Progress(1, 1, "", done)
	return step.AddArtifacts(
		sdk.Artifact{Name: trace.RecordsFile, Kind: sdk.KindRaw, MediaType: "application/octet-stream", Title: "DPA event records"},
		sdk.Artifact{Name: trace.MetaFile, Kind: sdk.KindRaw, MediaType: "application/json", Title: "DPA trace description (methods, threads, calibration)"},
		sdk.Artifact{Name: StdoutFile, Kind: sdk.KindLog, MediaType: "text/plain", Title: "program stdout"},
		sdk.Artifact{Name: StderrFile, Kind: sdk.KindLog, MediaType: "text/plain", Title: "program stderr"},
	)
}

// setCalibration records both calibrations in a traced run's description
// and makes the one cfg.Calibrate names the deduction.
//
// Both calibrations are timed on the main thread's CPU clock, the trace
// on the wall clock: on a loaded host the traced run's wall time is its
// CPU time stretched by the time other processes had the core, and its
// events' wall cost with it, so the calibrated figures are deducted times
// the kept run's stretch (wall ÷ CPU, 1 on an idle host). (The
// unmeasured part of measured costs is left as it is: the costs
// themselves are measured on the wall clock.)
func setCalibration(meta *trace.Meta, cfg Config, eventCost, unmeasured time.Duration, prog analysis.Calibration, virtual bool, stretch float64) {
	if cfg.MeasureEvents {
		meta.EventCosts, meta.CostsOfPrevious = true, true
		// What no measurement sees holds one whole clock read by
		// construction (the part of the stamp's read before its sample
		// and the part of the closing read after it), so a calibration
		// program's figure below that is noise. (The program's own
		// pairs are not held to it: they measure what the event costs
		// that program, and out-of-order execution hides part of a
		// clock read behind the program's own work.)
		unmeasured = max(unmeasured, meta.ClockOverhead)
	} else {
		unmeasured = 0
	}
	// Both calibrations are timed on the CPU clock (see stretch below).
	eventCost = time.Duration(math.Round(float64(eventCost) * stretch))
	meta.PairedEvent, meta.PairedUnmeasured = eventCost, unmeasured
	meta.EventOverhead, meta.Unmeasured = eventCost, unmeasured
	meta.Calibration = trace.CalibrationPaired
	if virtual {
		// Tracing executes no instructions: nothing was calibrated.
		return
	}
	meta.ProgramStretch = stretch
	meta.ProgramEventNs, meta.ProgramSpreadNs, meta.ProgramPairs = prog.Event*stretch, prog.Spread*stretch, prog.Pairs
	if !math.IsInf(prog.Lo, 0) && !math.IsInf(prog.Hi, 0) {
		meta.ProgramIntervalNs = []float64{prog.Lo * stretch, prog.Hi * stretch}
	}
	if cfg.MeasureEvents {
		meta.ProgramUnmeasuredNs = prog.Unmeasured * stretch
	}
	// A program whose own pairs did not pin its event's cost down keeps
	// the calibration program's figure: one with few events (the
	// loop-only programs have only the VM's start's 2 300, and their
	// pairs put an event anywhere between −550 and +360 ns on the loaded
	// host) or a multi-threaded one (not calibrated on itself:
	// errThreads, no pairs).
	if cfg.Calibrate == trace.CalibrationProgram && programResolved(prog, eventCost) {
		meta.Calibration = trace.CalibrationProgram
		meta.EventNs, meta.EventOverhead = meta.ProgramEventNs, time.Duration(math.Round(meta.ProgramEventNs))
		meta.UnmeasuredNs, meta.Unmeasured = meta.ProgramUnmeasuredNs, time.Duration(math.Round(meta.ProgramUnmeasuredNs))
	}
}

// programResolved reports whether a program's own calibration is known
// well enough to be deducted: positive, with its 95 % interval within
// programTrust ns either way (or programRelResolution of the calibration
// program's figure paired, for events of a microsecond): then it is closer
// to what the program's events cost than the calibration program's figure
// (plugins/dpa/BENCHMARKS.md).
func programResolved(prog analysis.Calibration, paired time.Duration) bool {
	return prog.Pairs > 0 && prog.Event > 0 && prog.Resolved(max(programTrust, programRelResolution*float64(paired)))
}

// programTrust: see programResolved. On the idle host a program's own
// figure within ±4 ns is closer to what its events cost than the
// calibration program's, which differs from program to program by 2–7 ns
// (concat 13.3–14.3 ns against the calibration program's 11–12; fib's
// pairs in a slow phase 20.5 ± 3.3 ns against 13, where the slow phase
// was also in the kept traced run).
const programTrust = 4.0

// stretch is a traced run's wall time ÷ its main thread's CPU time, at
// least 1 (1 when the CPU time is unknown).
func stretch(r *tracedRun) float64 {
	if r.cpu <= 0 {
		return 1
	}
	return max(float64(r.meta.Elapsed)/float64(r.cpu), 1)
}

// keepFastest folds one baseline measurement into res, keeping the
// smallest figures: on a host whose speed jumps between runs, the
// fastest run is the one least disturbed.
func keepFastest(res, b *Result) {
	if res.BaseRunNanos == 0 || b.BaseRunNanos < res.BaseRunNanos {
		res.BaseRunNanos = b.BaseRunNanos
	}
	for k, v := range b.MethodNanos {
		if res.MethodNanos == nil {
			res.MethodNanos = map[string]int64{}
		}
		if old, ok := res.MethodNanos[k]; !ok || v < old {
			res.MethodNanos[k] = v
		}
	}
}

// tracedRun is one traced run of the program.
type tracedRun struct {
	path  string // its records file
	code  int
	meta  *trace.Meta
	stats *engine.Stats // aot only
	// cpu is the run on the kernel's CPU clock of its main thread (-1:
	// unknown), costs the sum of its events' measured costs.
	cpu, costs time.Duration
}

// runTraced runs the program once with DPA's hooks, recording into the
// file name in dir; with timeClock, it first times the VM's clock read
// (Meta.ClockOverhead, else 0).
func runTraced(ctx context.Context, p program, cfg Config, dir, name string, stdout, stderr io.Writer, timeClock bool) (*tracedRun, error) {
	path := filepath.Join(dir, name)
	rf, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer rf.Close()
	rec, err := trace.NewRecorder(rf, cfg.BufferRecords)
	if err != nil {
		return nil, err
	}
	defer rec.Flush() // stops the record writer on the error paths too
	tr := &tracer{rec: rec, names: map[int]string{}, measure: cfg.MeasureEvents}
	v, err := vm.New(p.options(stdout, stderr, tr.hooks()))
	if err != nil {
		return nil, err
	}
	tr.v = v
	var clockCost time.Duration
	if timeClock {
		clockCost = calibrateClock(v, cfg.Calibration)
	}
	code, elapsed, cpu, err := p.run(ctx, v, p.main)
	if err != nil {
		return nil, err
	}
	if err := rec.Flush(); err != nil {
		return nil, fmt.Errorf("dpa: writing %s: %w", name, err)
	}
	if err := rf.Close(); err != nil {
		return nil, err
	}
	source := clock.Source()
	if p.virtual {
		source = trace.ClockVirtual
	}
	meta := &trace.Meta{Start: v.Epoch(), ClockSource: source, ClockOverhead: clockCost, Elapsed: elapsed, Records: rec.Records(), BufferRecords: cfg.BufferRecords}
	for id, name := range tr.names {
		meta.Threads = append(meta.Threads, trace.Thread{ID: uint32(id), Name: name})
	}
	for _, m := range tr.methods {
		if m != nil {
			meta.Methods = append(meta.Methods, trace.Method{ID: uint32(m.ID) + 1, Class: m.Class.Name, Name: m.Name,
				Signature: m.Signature, File: m.SourceFile(), Line: m.FirstLine()})
		}
	}
	r := &tracedRun{path: path, code: code, meta: meta, cpu: cpu, costs: time.Duration(rec.Costs())}
	if e, ok := v.Engine.(*engine.Engine); ok {
		s := e.Stats()
		r.stats = &s
	}
	return r, nil
}

func collectBaseline(ctx context.Context, step *sdk.Step) error {
	cfg, p, out, errOut, err := begin(step)
	if err != nil {
		return err
	}
	defer out.Close()
	defer errOut.Close()
	res := p.result("baseline")
	for i := 0; i < cfg.BestOf; i++ {
		var b Result
		var stdout, stderr io.Writer = io.Discard, io.Discard
		if i == 0 {
			stdout, stderr = out, errOut
		}
		if _, err := measureBaselines(ctx, p, cfg, &b, stdout, stderr); err != nil {
			return err
		}
		keepFastest(&res, &b)
	}
	res.RunNanos = res.BaseRunNanos
	if err := step.WriteJSON(ResultFile, &res); err != nil {
		return err
	}
	return step.AddArtifacts(
		sdk.Artifact{Name: StdoutFile, Kind: sdk.KindLog, MediaType: "text/plain", Title: "program stdout"},
		sdk.Artifact{Name: StderrFile, Kind: sdk.KindLog, MediaType: "text/plain", Title: "program stderr"},
	)
}

// measureBaselines runs the program untraced and timed from outside (the
// process-level baseline, like RMP) and, if it has one, its self-timed
// variant, whose System.nanoTime() figure is the method-level baseline
// (source instrumentation, like Traceview). It returns the untraced run's
// time on its main thread's CPU clock (the wall clock if that cannot be
// read), for the per-program calibration's pairs.
func measureBaselines(ctx context.Context, p program, cfg Config, res *Result, out, errOut io.Writer) (time.Duration, error) {
	v, err := vm.New(p.options(out, errOut, nil))
	if err != nil {
		return 0, err
	}
	code, elapsed, cpu, err := p.run(ctx, v, p.main)
	res.BaseRunNanos = elapsed.Nanoseconds()
	if err != nil {
		return 0, err
	}
	if code != 0 {
		return 0, fmt.Errorf("dpa: %s exited with %d (untraced)", p.main, code)
	}
	plain := cpuOr(cpu, elapsed)
	if p.timedMain == "" {
		return plain, nil
	}
	var stderr bytes.Buffer
	if v, err = vm.New(p.options(nil, &stderr, nil)); err != nil {
		return 0, err
	}
	if code, _, _, err := p.run(ctx, v, p.timedMain); err != nil || code != 0 {
		return 0, fmt.Errorf("dpa: %s exited with %d: %v\n%s", p.timedMain, code, err, stderr.String())
	}
	if res.MethodNanos, err = parseElapsed(stderr.String()); err != nil {
		return 0, fmt.Errorf("dpa: %s: %w", p.timedMain, err)
	}
	return plain, nil
}

// parseElapsed reads the "<method> elapsed_ns=N" lines a self-timed
// workload prints to stderr.
func parseElapsed(s string) (map[string]int64, error) {
	m := map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for line := 1; sc.Scan(); line++ {
		name, val, ok := strings.Cut(sc.Text(), " elapsed_ns=")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("stderr line %d: %q: %w", line, sc.Text(), err)
		}
		m[strings.TrimSpace(name)] = n
	}
	if len(m) == 0 {
		return nil, errors.New("no \"elapsed_ns=\" line on stderr")
	}
	return m, nil
}

func outputs(dir string) (out, errOut *os.File, err error) {
	if out, err = os.Create(filepath.Join(dir, StdoutFile)); err != nil {
		return nil, nil, err
	}
	if errOut, err = os.Create(filepath.Join(dir, StderrFile)); err != nil {
		out.Close()
		return nil, nil, err
	}
	return out, errOut, nil
}

func writeFile(path string, write func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
