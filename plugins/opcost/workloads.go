package opcost

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/vmconfig"
	"github.com/droidprof/droidprof/workloads"
)

// WorkloadsFile is what the workloads collector writes.
const WorkloadsFile = "workloads.json"

// DefaultWorkloads are the programs the cost model is checked on (issue
// 20): the SciMark kernels (also in single precision, for the use case of
// turning doubles into floats), CaffeineMark, chess, DeltaBlue and the
// dpa suite.
var DefaultWorkloads = []string{
	"scimark-fft", "scimark-sor", "scimark-montecarlo", "scimark-sparse", "scimark-lu",
	"scimark-fft-float", "scimark-sor-float", "scimark-montecarlo-float", "scimark-sparse-float", "scimark-lu-float",
	"caffeine-sieve", "caffeine-loop", "caffeine-logic", "caffeine-string", "caffeine-float", "caffeine-method",
	"chess", "deltablue",
	"dpa-fib", "dpa-concat", "dpa-random", "dpa-bubblesort", "dpa-matmul", "dpa-sieve",
}

// WorkloadsConfig configures the workloads collector.
type WorkloadsConfig struct {
	Workloads    []string          `json:"workloads" doc:"programs of droidprof's workload registry to count and time, each \"NAME\" (the registry's arguments) or \"NAME ARG...\" (default: the SciMark kernels, CaffeineMark, chess, DeltaBlue and the dpa suite)"`
	Measurements int               `json:"measurements" doc:"timed runs per workload" default:"5" min:"1" max:"1000"`
	VM           vmconfig.Settings `json:"vm" doc:"the VM: engine (interp or aot), heap and collector"`
}

// WorkloadsResult is the workloads collector's output.
type WorkloadsResult struct {
	Engine    string            `json:"engine"`
	Workloads []WorkloadMeasure `json:"workloads"`
}

// WorkloadMeasure is one program: the instructions it executed by opcode
// (a run of its own, counting) and the thread CPU time of its timed runs.
type WorkloadMeasure struct {
	Name   string            `json:"name"`
	Args   []string          `json:"args"`
	Counts map[string]uint64 `json:"counts"`
	// Natives are the native methods it called, counted and timed in the
	// counting run.
	Natives []NativeCalls `json:"natives,omitempty"`
	// Calls are its calls of bytecode methods; ArgWords the argument
	// words they passed besides a receiver; Recursive those into a
	// method already on the thread's stack (the counting run).
	Calls     uint64 `json:"calls"`
	ArgWords  uint64 `json:"arg_words"`
	Recursive uint64 `json:"recursive_calls"`
	// TargetSwitches are its calls whose target differs from the last
	// one of the same call site (switchMeter).
	TargetSwitches uint64  `json:"target_switches"`
	CPU            []int64 `json:"cpu_ns"`
	// Alloc are its allocations and collections (the counting run).
	Alloc *AllocCounts `json:"alloc,omitempty"`

	switches switchMeter
}

func collectWorkloads(ctx context.Context, step *sdk.Step) error {
	var cfg WorkloadsConfig
	if err := step.Decode(&cfg); err != nil {
		return err
	}
	gcCfg, err := cfg.VM.Config()
	if err != nil {
		return fmt.Errorf("opcost: %w", err)
	}
	names := cfg.Workloads
	if len(names) == 0 {
		names = DefaultWorkloads
	}
	res := WorkloadsResult{Engine: cmp.Or(cfg.VM.Engine, "interp")}
	for i, spec := range names {
		f := strings.Fields(spec)
		if len(f) == 0 {
			return fmt.Errorf("opcost: workloads[%d] is empty", i)
		}
		name := f[0]
		w, ok := workloads.Lookup(name)
		if !ok {
			return fmt.Errorf("opcost: workloads[%d]: no workload %q", i, name)
		}
		data, err := w.Bytes()
		if err != nil {
			return err
		}
		path := filepath.Join(step.Dir, w.DEX)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		args := w.Args
		if len(f) > 1 {
			args = f[1:]
		}
		step.Progress(float64(i), float64(len(names)), "workloads", "counting "+name)
		opts := vm.Options{ClassPath: []string{path}, GC: gcCfg, Engine: "interp", Preload: cfg.VM.Preload}
		m := WorkloadMeasure{Name: name, Args: args, Counts: map[string]uint64{}}
		// Only the interpreter counts instructions; the counts are the
		// program's on any engine.
		meter := newNativeMeter()
		opts.Hooks = &runtime.Hooks{CountOpcodes: true, WrapNative: meter.wrap, MethodEntry: m.countCall}
		am := &allocMeter{natives: meter}
		am.install(opts.Hooks)
		v, err := runProgram(ctx, opts, w.Main, args)
		if err != nil {
			return fmt.Errorf("opcost: %s: %w", name, err)
		}
		m.Natives = meter.calls()
		m.TargetSwitches = m.switches.switches
		m.Alloc = &am.counts
		for op, n := range v.OpCounts() {
			if n > 0 {
				m.Counts[dex.Opcode(op).Info().Name] = n
			}
		}
		opts.Hooks, opts.Engine = nil, cfg.VM.Engine
		step.Progress(float64(i), float64(len(names)), "workloads", "timing "+name)
		for range cfg.Measurements {
			ns, err := timedRun(ctx, opts, w.Main, args)
			if err != nil {
				return fmt.Errorf("opcost: %s: %w", name, err)
			}
			m.CPU = append(m.CPU, ns)
		}
		res.Workloads = append(res.Workloads, m)
	}
	return step.WriteJSON(WorkloadsFile, &res)
}

// runProgram runs main in a new VM; its output is discarded, a non-zero
// exit status is an error.
func runProgram(ctx context.Context, opts vm.Options, main string, args []string) (*runtime.VM, error) {
	_, v, err := run(ctx, opts, main, args, false)
	return v, err
}

// timedRun runs main in a new VM and returns the CPU time the kernel
// gave the program's main thread: RunMain runs it on this goroutine,
// locked to its OS thread meanwhile. Creating the VM is not timed.
func timedRun(ctx context.Context, opts vm.Options, main string, args []string) (int64, error) {
	ns, _, err := run(ctx, opts, main, args, true)
	return ns, err
}

func run(ctx context.Context, opts vm.Options, main string, args []string, timed bool) (int64, *runtime.VM, error) {
	var stderr bytes.Buffer
	opts.Stderr = &stderr
	v, err := vm.New(opts)
	if err != nil {
		return 0, nil, err
	}
	var t0, t1 unix.Timespec
	// Locked in the counting run too: the native meter reads the thread
	// CPU clock around each native call.
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	if timed {
		if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &t0); err != nil {
			return 0, nil, err
		}
	}
	code, err := v.RunMain(ctx, main, args)
	if timed {
		if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &t1); err != nil {
			return 0, nil, err
		}
	}
	if err != nil {
		return 0, nil, err
	}
	if code != 0 {
		return 0, nil, fmt.Errorf("exit status %d: %s", code, strings.TrimSpace(stderr.String()))
	}
	return t1.Nano() - t0.Nano(), v, nil
}

// countCall is the counting run's MethodEntry hook: the shape of each
// call of a bytecode method (its frame is on the stack already).
func (m *WorkloadMeasure) countCall(t *runtime.Thread, callee *runtime.Method, depth int, _ int64) {
	if callee.Code == nil {
		return
	}
	m.Calls++
	m.switches.entry(t, callee)
	words := callee.ArgWords
	if !callee.IsStatic() {
		words-- // the receiver: the table's invokes pass one too
	}
	m.ArgWords += uint64(words)
	for _, f := range t.Frames[:len(t.Frames)-1] {
		if f.Method == callee {
			m.Recursive++
			break
		}
	}
}
