package artobj

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/plugins/artobj/events"
	"github.com/droidprof/droidprof/plugins/artobj/hprof"
	"github.com/droidprof/droidprof/plugins/artobj/minheap"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/heap"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/workloads"
)

// Files the collector writes into its step directory.
const (
	EventsFile = "artobj.events"
	ResultFile = "result.json"
	StdoutFile = "stdout.txt"
	StderrFile = "stderr.txt"
)

// Result is a step's result.json: what ran and the figures measured
// outside the event file.
type Result struct {
	Workload  string   `json:"workload,omitempty"`
	Main      string   `json:"main"`
	Args      []string `json:"args"`
	Engine    string   `json:"engine"`
	Barriers  string   `json:"barriers"`
	Collector string   `json:"collector"`
	HeapMax   uint32   `json:"heap_max"`
	// MinHeap is the program's minimum heap when the config asked for a
	// multiple of it (min_heap_multiple), MinHeapRuns the runs its search
	// took (0: from the cache).
	MinHeap     uint32 `json:"min_heap,omitempty"`
	MinHeapRuns int    `json:"min_heap_runs,omitempty"`
	// StressAll says the run collected before every allocation
	// (Config.StressAll): its deaths are exact.
	StressAll bool `json:"gc_stress_all,omitempty"`
	ExitCode  int  `json:"exit_code"`
	// Unfinished is true in the result.json written before the program
	// starts, which the one written after it replaces: a collector killed
	// on the way leaves it true, with the settings the analyzer needs.
	Unfinished bool `json:"unfinished,omitempty"`
	// RunNanos is the profiled run (RunMain) timed from outside, on the
	// wall clock; RunCPUNanos is the process's CPU time from its start to
	// the event file's end.
	RunNanos    int64 `json:"run_ns"`
	RunCPUNanos int64 `json:"run_cpu_ns"`
	Records     int64 `json:"records"`
	// EventBytes is the event file's size.
	EventBytes int64 `json:"event_bytes"`
	// BitmapBytes is the access bitmap's size in memory (heap/64), 0
	// without one.
	BitmapBytes int `json:"bitmap_bytes"`
	// LiveAtExit and LiveBytesAtExit are the heap walk at exit: the
	// objects no collection found dead (Class objects, which the
	// allocation hook does not report, left out).
	LiveAtExit      int    `json:"live_at_exit"`
	LiveBytesAtExit uint64 `json:"live_bytes_at_exit"`
	// Compiled is the number of methods the aot engine compiled.
	Compiled int `json:"compiled_methods,omitempty"`
	// Overhead holds the time overhead measurement (Config.Overhead).
	Overhead *Overhead `json:"overhead,omitempty"`
}

// Overhead is the program timed in three variants, side by side: each
// round runs every variant once, in an order that rotates from round to
// round, so that the host's drift touches them alike. Times are the
// process's CPU time (user and system, every thread: the Go runtime's
// collector and the event writer too) during RunMain, which a shared
// host stretches far less than wall time; ns, one per round.
type Overhead struct {
	// Base is the unprofiled program: no barriers, no hooks.
	Base []int64 `json:"base_cpu_ns"`
	// Barriers has the barriers (and the access bitmap) but records no
	// event; empty when the run has no barriers.
	Barriers []int64 `json:"barriers_cpu_ns,omitempty"`
	// Profiled is the whole profiler: barriers, hooks, event output.
	Profiled []int64 `json:"profiled_cpu_ns"`
}

// program is what a step runs.
type program struct {
	workload  string
	classPath []string
	main      string
	args      []string
	gc        gc.Config
	engine    string
	barriers  string
	preload   []string
	// interpBarriers runs the interpreter's barriers: on interp, or on
	// aot when compiled code has barriers.
	interpBarriers bool
}

func (p program) options(stdout, stderr io.Writer, hooks *runtime.Hooks, barriers bool) vm.Options {
	o := vm.Options{ClassPath: p.classPath, GC: p.gc, Engine: p.engine, Preload: p.preload, Stdout: stdout, Stderr: stderr, Hooks: hooks}
	if barriers {
		if p.engine == "aot" {
			o.Barriers = p.barriers
		}
		if p.interpBarriers {
			if o.Hooks == nil {
				o.Hooks = &runtime.Hooks{}
			}
			o.Hooks.InterpreterBarriers = true
		}
	}
	return o
}

// resolve turns the config into a program, writing a registry workload's
// DEX file into dir.
func resolve(cfg Config, dir string) (program, error) {
	p := program{classPath: cfg.ClassPath, main: cfg.Main, args: cfg.Args, engine: cmp.Or(cfg.VM.Engine, "interp"), barriers: cmp.Or(cfg.VM.Barriers, "off"), preload: cfg.VM.Preload}
	var err error
	if p.gc, err = cfg.VM.Config(); err != nil {
		return p, fmt.Errorf("artobj: %w", err)
	}
	p.gc.StressAll = cfg.StressAll
	p.interpBarriers = cfg.InterpreterBarriers && (p.engine == "interp" || p.barriers != "off")
	if p.engine == "interp" && p.interpBarriers {
		p.barriers = "none" // a barrier at every access point
	}
	if cfg.Workload == "" {
		if len(p.classPath) == 0 || p.main == "" {
			return p, errors.New("artobj: set workload, or class_path and main")
		}
		return p, nil
	}
	name, wargs, _ := strings.Cut(strings.TrimSpace(cfg.Workload), " ")
	w, ok := workloads.Lookup(name)
	if !ok {
		var names []string
		for _, w := range workloads.All {
			names = append(names, w.Name)
		}
		return p, fmt.Errorf("artobj: no workload %q; known: %s", name, strings.Join(names, ", "))
	}
	data, err := w.Bytes()
	if err != nil {
		return p, err
	}
	path := filepath.Join(dir, w.DEX)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return p, err
	}
	p.workload, p.classPath = w.Name, []string{path}
	if p.main == "" {
		p.main = w.Main
	}
	if f := strings.Fields(wargs); len(f) > 0 {
		if len(p.args) > 0 {
			return p, fmt.Errorf("artobj: workload %q gives arguments, and so does args: give them once", cfg.Workload)
		}
		p.args = f
	}
	if len(p.args) == 0 {
		p.args = w.Args
	}
	return p, nil
}

func collect(ctx context.Context, step *sdk.Step) error {
	var cfg Config
	if err := step.Decode(&cfg); err != nil {
		return err
	}
	p, err := resolve(cfg, step.Dir)
	if err != nil {
		return err
	}
	out, err := os.Create(filepath.Join(step.Dir, StdoutFile))
	if err != nil {
		return err
	}
	defer out.Close()
	errOut, err := os.Create(filepath.Join(step.Dir, StderrFile))
	if err != nil {
		return err
	}
	defer errOut.Close()
	var minHeap minheap.Entry
	var minCached bool
	if cfg.MinHeapMultiple > 0 {
		step.Progress(0, 1, "", "finding the minimum heap of "+p.main)
		if minHeap, minCached, err = findMinHeap(ctx, p, cfg); err != nil {
			return err
		}
		m := uint64(cfg.MinHeapMultiple*float64(minHeap.MinHeap)+minHeapStep-1) / minHeapStep * minHeapStep
		p.gc.Max = uint32(min(m, 1<<30))
		p.gc.Start = min(p.gc.WithDefaults().Start, p.gc.Max)
		p.gc.GrowthLimit = 0
		step.Log(sdk.Info, "minimum heap", "min_heap", sdk.Size(minHeap.MinHeap).String(), "heap_max", sdk.Size(p.gc.Max).String(), "cached", minCached)
	}
	res := Result{Workload: p.workload, Main: p.main, Args: p.args, Engine: p.engine, Barriers: p.barriers,
		Collector: string(p.gc.WithDefaults().Collector), HeapMax: p.gc.WithDefaults().Max, StressAll: p.gc.StressAll, MinHeap: minHeap.MinHeap}
	if !minCached {
		res.MinHeapRuns = minHeap.Runs
	}
	if cfg.Overhead {
		if res.Overhead, err = measureOverhead(ctx, step, p, cfg); err != nil {
			return err
		}
	}
	// What ran, before it runs: a collector killed mid-way (kill -9, a
	// crash) leaves this and its event file for the analyzer.
	early := res
	early.Unfinished = true
	if data, err := json.MarshalIndent(&early, "", "  "); err != nil {
		return fmt.Errorf("artobj: encode %s: %w", ResultFile, err)
	} else if err := os.WriteFile(filepath.Join(step.Dir, ResultFile), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("artobj: %w", err)
	}
	step.Progress(0, 1, "", "running "+p.main+" profiled")
	dumps := hprofDumps{dir: step.Dir, at: map[int]bool{}, exit: cfg.HprofAtExit}
	for _, g := range cfg.HprofAtGC {
		dumps.at[g] = true
	}
	if err := profileDumping(ctx, p, cfg.BufferRecords, filepath.Join(step.Dir, EventsFile), out, errOut, &res, &dumps); err != nil {
		return err
	}
	if err := step.WriteJSON(ResultFile, &res); err != nil {
		return err
	}
	step.Progress(1, 1, "", fmt.Sprintf("%d events (%s), %d objects live at exit, exit status %d", res.Records, sdk.Size(res.EventBytes), res.LiveAtExit, res.ExitCode))
	for _, name := range dumps.written {
		if err := step.AddArtifact(name, sdk.KindRaw, "application/vnd.hprof", "HPROF heap dump"); err != nil {
			return err
		}
	}
	if dumps.err != nil {
		return dumps.err
	}
	return step.AddArtifacts(
		sdk.Artifact{Name: EventsFile, Kind: sdk.KindRaw, MediaType: "application/octet-stream", Title: "artobj events (allocations, moves, deaths, collections, access bitmaps)"},
		sdk.Artifact{Name: StdoutFile, Kind: sdk.KindLog, MediaType: "text/plain", Title: "program stdout"},
		sdk.Artifact{Name: StderrFile, Kind: sdk.KindLog, MediaType: "text/plain", Title: "program stderr"},
	)
}

// measureOverhead times the program unprofiled, with barriers only and
// profiled, cfg.OverheadRounds times each, side by side.
func measureOverhead(ctx context.Context, step *sdk.Step, p program, cfg Config) (*Overhead, error) {
	o := &Overhead{}
	variants := []func() (int64, error){
		func() (int64, error) { return timeRun(ctx, p, false) },
		func() (int64, error) { return timeRun(ctx, p, true) },
		func() (int64, error) {
			path := filepath.Join(step.Dir, "overhead.events")
			defer os.Remove(path)
			var r Result
			if err := profile(ctx, p, cfg.BufferRecords, path, io.Discard, io.Discard, &r); err != nil {
				return 0, err
			}
			return r.RunCPUNanos, nil
		},
	}
	into := []*[]int64{&o.Base, &o.Barriers, &o.Profiled}
	if p.barriers == "off" && !p.interpBarriers {
		variants, into = []func() (int64, error){variants[0], variants[2]}, []*[]int64{&o.Base, &o.Profiled}
	}
	for round := range cfg.OverheadRounds {
		step.Progress(float64(round), float64(cfg.OverheadRounds), "rounds", "timing "+p.main+": unprofiled, barriers only, profiled")
		for k := range variants {
			i := (round + k) % len(variants)
			ns, err := variants[i]()
			if err != nil {
				return nil, fmt.Errorf("artobj: overhead round %d: %w", round+1, err)
			}
			*into[i] = append(*into[i], ns)
		}
	}
	return o, nil
}

// cpuNow is the process's CPU time so far (user and system, all threads).
func cpuNow() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// timeRun runs the program without recording (with its barriers or
// not) and returns the CPU time of RunMain.
func timeRun(ctx context.Context, p program, barriers bool) (int64, error) {
	v, err := vm.New(p.options(io.Discard, io.Discard, nil, barriers))
	if err != nil {
		return 0, err
	}
	start := cpuNow()
	code, err := v.RunMain(ctx, p.main, p.args)
	d := cpuNow() - start
	if err != nil {
		return d, err
	}
	if code != 0 {
		return d, fmt.Errorf("artobj: %s exited with %d (timed without recording, barriers %v)", p.main, code, barriers)
	}
	return d, nil
}

// hprofDumps says when to write HPROF heap dumps and keeps what was
// written.
type hprofDumps struct {
	dir     string
	at      map[int]bool // after these collections
	exit    bool
	written []string
	err     error // the first failure (the run goes on without dumps)
}

// dump writes the VM's heap to name in the step directory.
func (d *hprofDumps) dump(v *runtime.VM, name string) {
	if d.err != nil {
		return
	}
	f, err := os.Create(filepath.Join(d.dir, name))
	if err == nil {
		err = hprof.Write(f, v, time.Now())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		d.err = fmt.Errorf("artobj: heap dump %s: %w", name, err)
		return
	}
	d.written = append(d.written, name)
}

// profile runs the program with the recorder attached, writing the event
// file at path, and fills res.
func profile(ctx context.Context, p program, bufferRecords int, path string, stdout, stderr io.Writer, res *Result) error {
	return profileDumping(ctx, p, bufferRecords, path, stdout, stderr, res, nil)
}

// profileDumping is profile with HPROF dumps, if dumps is not nil.
func profileDumping(ctx context.Context, p program, bufferRecords int, path string, stdout, stderr io.Writer, res *Result, dumps *hprofDumps) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	d := p.gc.WithDefaults()
	run := events.RunDef{Collector: string(d.Collector), Engine: p.engine, Barriers: p.barriers, HeapMax: d.Max,
		Main: [][2]uint32{{heap.MainBase, heap.MainBase + d.Max}}}
	if p.barriers != "off" {
		run.BitmapBytes = 8 * int((d.Max/heap.Alignment+63)/64) // gc.AccessBitmap's size
	}
	if d.Collector == gc.SS {
		run.Main = append(run.Main, [2]uint32{heap.SemiBase, heap.SemiBase + d.Max})
	}
	rec, err := events.NewRecorder(f, bufferRecords, run)
	if err != nil {
		return err
	}
	pr := newProbe(rec)
	hooks := pr.hooks()
	var v *runtime.VM
	if dumps != nil && len(dumps.at) > 0 {
		end := hooks.GCEnd
		hooks.GCEnd = func(i runtime.GCInfo) {
			end(i)
			if dumps.at[i.Count] {
				dumps.dump(v, fmt.Sprintf("heap-gc%d.hprof", i.Count))
			}
		}
	}
	v, err = vm.New(p.options(stdout, stderr, hooks, true))
	if err != nil {
		rec.Close(false)
		return err
	}
	if b := v.AccessBitmap(); b != nil {
		res.BitmapBytes = b.Bytes()
	}
	start, startCPU := time.Now(), cpuNow()
	code, err := v.RunMain(ctx, p.main, p.args)
	res.RunNanos = time.Since(start).Nanoseconds()
	if err != nil {
		// The events so far stay, in a file marked partial (no end block).
		if cerr := rec.Close(false); cerr != nil {
			return errors.Join(err, cerr)
		}
		return err
	}
	res.ExitCode = code
	// The last epoch's accesses: no collection dumps them.
	if b := v.AccessBitmap(); b != nil {
		rec.Bitmap(uint32(v.GCCount), b.Base(), true, b.Walk)
	}
	pr.defineThreads()
	if err := rec.Close(true); err != nil {
		return fmt.Errorf("artobj: writing %s: %w", path, err)
	}
	// The writer's last buffers are part of the profiler's cost; the
	// heap walk below, a check, is not.
	res.RunCPUNanos = cpuNow() - startCPU
	if dumps != nil && dumps.exit {
		dumps.dump(v, "heap-exit.hprof")
	}
	classClass := v.Class("Ljava/lang/Class;")
	v.GCHeap.Walk(func(a uint32) {
		if c := v.ClassOf(a); c != classClass {
			res.LiveAtExit++
			res.LiveBytesAtExit += uint64(heap.Align(v.SizeOf(a)))
		}
	})
	res.Records, res.EventBytes = rec.Records(), rec.Written()
	if e, ok := v.Engine.(*engine.Engine); ok {
		res.Compiled = e.Stats().Compiled
	}
	return f.Close()
}

// probe turns the VM's hooks into events: it gives allocation sites and
// classes ids, defined in the file the first time they are seen.
type probe struct {
	rec     *events.Recorder
	sites   map[uint64]uint32 // method ID << 32 | pc -> site id
	classes []bool            // by class ID: defined
	threads map[int]*runtime.Thread
	last    *runtime.Thread // the previous allocation's, to skip the map
}

func newProbe(rec *events.Recorder) *probe {
	return &probe{rec: rec, sites: map[uint64]uint32{}, threads: map[int]*runtime.Thread{}}
}

func (pr *probe) hooks() *runtime.Hooks {
	rec := pr.rec
	return &runtime.Hooks{
		Alloc: pr.alloc,
		Free:  rec.Free,
		Move:  rec.Move,
		GCStart: func(count int) {
			rec.GCStart(count)
		},
		GCEnd: func(i runtime.GCInfo) {
			rec.GCEnd(events.GCDef{Count: i.Count, Kind: i.Kind, Cause: i.Cause, Collector: i.Collector,
				Freed: i.Freed, Live: i.Live, Footprint: i.Footprint, PauseNS: i.Pause.Nanoseconds()})
		},
		// Collection count dumps the accesses of the epoch it ends.
		Accesses: func(count int, b *gc.AccessBitmap) {
			rec.Bitmap(uint32(count-1), b.Base(), false, b.Walk)
		},
	}
}

func (pr *probe) alloc(t *runtime.Thread, s runtime.Site, c *runtime.Class, size, addr uint32) {
	site := pr.site(s)
	if c.ID >= len(pr.classes) || !pr.classes[c.ID] {
		pr.defineClass(c)
	}
	if t != pr.last {
		pr.last = t
		pr.threads[t.ID] = t
	}
	pr.rec.Alloc(uint32(t.ID), addr, size, uint32(c.ID), site)
}

// site returns the id of an allocation site, defining it on first sight.
// Site 0 is an allocation outside any method (the VM's own, at boot).
func (pr *probe) site(s runtime.Site) uint32 {
	if s.Method == nil {
		return 0
	}
	key := uint64(s.Method.ID)<<32 | uint64(uint32(s.PC))
	if id, ok := pr.sites[key]; ok {
		return id
	}
	id := uint32(len(pr.sites) + 1)
	pr.sites[key] = id
	pr.rec.DefineSite(events.SiteDef{ID: id, Method: s.Method.PrettyName(), Sig: s.Method.Signature, PC: s.PC,
		File: s.Method.SourceFile(), Line: s.Method.Line(s.PC)})
	return id
}

func (pr *probe) defineClass(c *runtime.Class) {
	for c.ID >= len(pr.classes) {
		pr.classes = append(pr.classes, false)
	}
	pr.classes[c.ID] = true
	pr.rec.DefineClass(events.ClassDef{ID: uint32(c.ID), Name: c.Name})
}

// defineThreads names the threads that allocated, at the end of the run
// (a thread is named by its Thread object, which may come after its first
// allocation).
func (pr *probe) defineThreads() {
	for id, t := range pr.threads {
		pr.rec.DefineThread(events.ThreadDef{ID: uint32(id), Name: t.Name()})
	}
}

// minHeapStep is the granularity of the minimum heap search, and the
// search's lower end is minHeapLow, the smallest heap_max the VM takes.
const minHeapStep, minHeapLow = 64 << 10, gc.MinMax

// findMinHeap finds (or takes from the cache) the smallest heap_max the
// program runs in, on its engine and collector, up to vm.heap_max:
// runs without hooks or barriers, which do not change what the heap holds.
func findMinHeap(ctx context.Context, p program, cfg Config) (minheap.Entry, bool, error) {
	cache := minheap.Cache{Path: cfg.MinHeapCache}
	if cache.Path == "" {
		var err error
		if cache, err = minheap.DefaultCache(); err != nil {
			return minheap.Entry{}, false, err
		}
	}
	key := minheap.Key{Main: p.main, Args: p.args, Engine: p.engine, Collector: string(p.gc.WithDefaults().Collector)}
	for _, path := range p.classPath {
		data, err := os.ReadFile(path)
		if err != nil {
			return minheap.Entry{}, false, fmt.Errorf("artobj: minimum heap: %w", err)
		}
		key.Code = append(key.Code, data)
	}
	run := func(ctx context.Context, max uint32) (minheap.Outcome, error) {
		for range minHeapRepeats {
			if o, err := runAtHeap(ctx, p, max); err != nil || o != minheap.Ran {
				return o, err
			}
		}
		return minheap.Ran, nil
	}
	e, cached, err := cache.Find(ctx, key, run, minHeapLow, max(p.gc.WithDefaults().Max, minHeapLow), minHeapStep)
	if err != nil {
		return e, cached, fmt.Errorf("artobj: minimum heap of %s: %w", p.main, err)
	}
	return e, cached, nil
}

// minHeapRepeats is how many runs in a row a heap limit must see finish
// to count as enough: cms's background collections start when the
// collector's goroutine gets the VM, so near the minimum a limit may run
// once and fail the next time (fragmentation); ss is deterministic.
const minHeapRepeats = 3

// runAtHeap runs the program unprofiled with heap limit max.
func runAtHeap(ctx context.Context, p program, max uint32) (minheap.Outcome, error) {
	q := p
	q.gc.Max = max
	q.gc.Start = min(p.gc.WithDefaults().Start, max)
	q.gc.GrowthLimit = 0
	var stderr strings.Builder
	v, err := vm.New(q.options(io.Discard, &stderr, nil, false))
	if err != nil {
		return 0, err
	}
	code, err := v.RunMain(ctx, q.main, q.args)
	switch {
	case err != nil:
		return 0, err
	case code == 0:
		return minheap.Ran, nil
	case strings.Contains(stderr.String(), "java.lang.OutOfMemoryError"):
		return minheap.OutOfMemory, nil
	}
	tail := stderr.String()
	if len(tail) > 300 {
		tail = tail[len(tail)-300:]
	}
	return 0, fmt.Errorf("%s exited with %d, not for lack of memory: %s", q.main, code, tail)
}
