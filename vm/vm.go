// Package vm runs DEX programs on droidprof's Dalvik runtime, like
// dalvikvm: a boot class path (the core library, core.dex), an application
// class path, a main class and its arguments.
//
// The runtime (package runtime) loads and links classes into a simulated
// ART-like heap; the portable interpreter (package interp) executes them.
// Profilers attach through Options.Hooks.
package vm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/interp"
	"github.com/droidprof/droidprof/vm/runtime"
)

// Options configures one VM.
type Options struct {
	// ClassPath lists the application's DEX files, searched in order
	// after the core library.
	ClassPath []string
	// GC sizes the heap (GC.Max is the heap limit, -Xmx) and chooses its
	// collector; zero fields are ART's defaults.
	GC gc.Config
	// Stdout and Stderr receive System.out and System.err; nil discards.
	Stdout, Stderr io.Writer
	// Hooks, if set, observe the run (method entry/exit, allocation,
	// collections, opcode counts).
	Hooks *runtime.Hooks
	// Engine executes the bytecode: "interp" (the default, also "") is
	// the portable interpreter, "aot" compiles each method at its first
	// call and runs the compiled code (package vm/aot/engine), falling
	// back to the interpreter per method.
	Engine string
	// Oat, if set, is an .oat cache (droidprof vm compile app.dex -o
	// app.oat) of a DEX file of the class path, from which the aot
	// engine takes that file's compiled methods instead of compiling
	// them at their first call. A stale or corrupt cache is an error.
	Oat string
	// Barriers selects paper 003's object-access barriers in compiled
	// code (the aot engine only): "off" (the default, also ""), "none",
	// "cache", "elim" or "all"; with any but off the heap keeps the
	// access bitmap the barriers set (gc.Config.AccessBitmap,
	// runtime.Hooks.Accesses).
	Barriers string
	// CheckBarriers adds check barriers, unoptimised, to compiled code
	// (engine.Engine.CheckBarriers): the access bitmap's shadow, which
	// runtime.Hooks.Accesses can compare with the bitmap.
	CheckBarriers bool
	// Preload names classes ("pkg.Name") that the VM loads and
	// initialises in its zygote phase, before it seals the zygote space
	// and runs the main class (Android's preloaded-classes): what their
	// static initialisers allocate lives in the zygote space, which only
	// full collections collect.
	Preload []string
}

// NewEngine returns the execution engine named by Options.Engine.
func NewEngine(name string) (runtime.Engine, error) {
	switch name {
	case "", "interp":
		return interp.New(), nil
	case "aot":
		return engine.New(), nil
	}
	return nil, fmt.Errorf("vm: unknown engine %q (want interp or aot)", name)
}

// Run loads the class path, runs mainClass.main(args) (mainClass in
// "pkg.Name" or "pkg/Name" form) and returns the process exit status
// dalvikvm would: the argument of System.exit, 1 after an uncaught
// exception, 0 otherwise. err reports a failure of the VM itself (an
// unreadable class path, a cancelled ctx), never a Java exception.
func Run(ctx context.Context, opts Options, mainClass string, args []string) (exitCode int, err error) {
	v, err := New(opts)
	if err != nil {
		return 0, err
	}
	return v.RunMain(ctx, mainClass, args)
}

// coreFile parses the embedded core library once per process; the
// runtime only reads the model, so VMs share it.
var coreFile = sync.OnceValues(func() (*dex.File, error) {
	f, err := dex.Read(core.DEX())
	if err != nil {
		return nil, fmt.Errorf("vm: core library: %w", err)
	}
	return f, nil
})

// New loads the core library and the class path into a new VM, ready to
// run one main class.
func New(opts Options) (v *runtime.VM, err error) {
	// A malformed class path must not take the process down.
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("vm: loading the class path: %v", r)
		}
	}()
	// A bad heap configuration is reported before the class path is read.
	if err := opts.GC.WithDefaults().Validate(); err != nil {
		return nil, fmt.Errorf("vm: %w", err)
	}
	eng, err := NewEngine(opts.Engine)
	if err != nil {
		return nil, err
	}
	if h := opts.Hooks; h != nil && (h.CountOpcodes || h.VirtualTime) && opts.Engine == "aot" {
		return nil, errors.New("vm: counting instructions (opcode counts, virtual time) needs the interpreter: code compiled by the aot engine does not count them")
	}
	level, err := ssa.ParseBarrierLevel(opts.Barriers)
	if err != nil {
		return nil, fmt.Errorf("vm: %w", err)
	}
	if level != ssa.BarriersOff {
		ae, ok := eng.(*engine.Engine)
		if !ok {
			return nil, fmt.Errorf("vm: barriers %q need the aot engine, not %q", opts.Barriers, opts.Engine)
		}
		ae.SetBarriers(level)
		if opts.CheckBarriers {
			ae.CheckBarriers()
		}
		opts.GC.AccessBitmap = true
	}
	boot, err := coreFile()
	if err != nil {
		return nil, err
	}
	var app []*dex.File
	for _, p := range opts.ClassPath {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("vm: class path: %w", err)
		}
		f, err := dex.ReadWithOptions(data, dex.Options{SkipSignature: true})
		if err != nil {
			return nil, fmt.Errorf("vm: class path: %s: %w", p, err)
		}
		app = append(app, f)
	}
	if opts.Oat != "" {
		if err := useOat(eng, opts.Oat, boot, app, opts.ClassPath, opts.Barriers); err != nil {
			return nil, err
		}
	}
	return runtime.New(runtime.Options{
		GC:      opts.GC,
		Stdout:  opts.Stdout,
		Stderr:  opts.Stderr,
		Engine:  eng,
		Hooks:   opts.Hooks,
		Preload: opts.Preload,
	}, []*dex.File{boot}, app, []string{"core.dex"}, opts.ClassPath)
}
