package dpa

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/droidprof/droidprof/plugins/dpa/analysis"
	"github.com/droidprof/droidprof/plugins/dpa/trace"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// calibrationMethods is how many different small methods the calibration
// program calls in turn.
const calibrationMethods = 64

// calibrationSmali returns a program that calls small static methods n
// times in all. Run traced and untraced, the difference in run time is 2n
// times the cost of one recorded event, measured where the events really
// happen: inside the interpreter, through the VM's hooks, into the real
// record buffer. (A tight loop of clock reads alone, as Traceview does,
// misses the hook dispatch and the record store and underestimates.)
//
// The part of an event no clock read can see is mostly what the event
// costs the program's own instructions around it, and that grows with the
// program's variety: calling one method, the calibration put it at 8-12
// ns; calling 16 or 64 different ones that each do a little arithmetic
// with different instructions, at 13-16 ns, which is where the suite's
// call-heavy workloads put it (plugins/dpa/BENCHMARKS.md). Real programs
// call many methods, so this one does too.
func calibrationSmali() string {
	ops := []string{"add-int/lit8", "mul-int/lit8", "xor-int/lit8", "shl-int/lit8", "ushr-int/lit8", "and-int/lit8", "or-int/lit8"}
	var b strings.Builder
	b.WriteString(".class public LDpaCalibrate;\n.super Ljava/lang/Object;\n\n")
	for i := range calibrationMethods {
		fmt.Fprintf(&b, ".method public static w%d(I)I\n    .registers 1\n", i)
		for j := range 8 {
			fmt.Fprintf(&b, "    %s p0, p0, %d\n", ops[(i+j)%len(ops)], (i+j)%5+1)
		}
		b.WriteString("    return p0\n.end method\n\n")
	}
	// main(n): n / calibrationMethods rounds of calling every method once.
	fmt.Fprintf(&b, `.method public static main([Ljava/lang/String;)V
    .registers 3
    const/4 v0, 0
    aget-object v0, p0, v0
    invoke-static {v0}, Ljava/lang/Integer;->parseInt(Ljava/lang/String;)I
    move-result v0
    div-int/lit8 v0, v0, %d
    const/4 v1, 0
    :loop
    if-lez v0, :done
`, calibrationMethods)
	for i := range calibrationMethods {
		fmt.Fprintf(&b, "    invoke-static {v1}, LDpaCalibrate;->w%d(I)I\n    move-result v1\n", i)
	}
	b.WriteString("    add-int/lit8 v0, v0, -1\n    goto :loop\n    :done\n    return-void\n.end method\n")
	return b.String()
}

// calibrationRounds pairs of runs, untraced and traced, are made. (31
// until the per-program calibration took over the deduction: the
// calibration program is now its cross-check and the figure of programs
// with too few events to calibrate on themselves, where it moves Err_p by
// well under the bar; 15 rounds halve its 1–3 s a step.)
const calibrationRounds = 15

// calibrateEvents measures the cost of one recorded event with a record
// buffer of the given size (records written to a scratch file in dir)
// and, when measure is set, the part of it the event cannot measure itself
// (the cost less Event.Cost): what the analysis deducts per event on top
// of the measured costs. notSlower counts the rounds whose traced run was
// no slower than the untraced one: a host too noisy to calibrate on, whose
// median cost of 0 would silently deduct nothing.
func calibrateEvents(ctx context.Context, dir string, calls, buffer int, measure bool) (event, unmeasured time.Duration, notSlower int, err error) {
	calls -= calls % calibrationMethods
	cls, err := smali.Parse("DpaCalibrate.smali", []byte(calibrationSmali()), nil)
	if err != nil {
		return 0, 0, 0, err
	}
	data, err := smali.Assemble([]*ast.Class{cls}, nil)
	if err != nil {
		return 0, 0, 0, err
	}
	dexPath := filepath.Join(dir, "calibrate.dex")
	if err := os.WriteFile(dexPath, data, 0o644); err != nil {
		return 0, 0, 0, err
	}
	defer os.Remove(dexPath)
	args := []string{strconv.Itoa(calls)}
	var lastMeasured time.Duration // mean measured cost of the last traced run
	run := func(traced bool) (time.Duration, error) {
		opts := vm.Options{ClassPath: []string{dexPath}, Stdout: io.Discard, Stderr: io.Discard}
		var f *os.File
		if traced {
			if f, err = os.CreateTemp(dir, "calibrate-*.records"); err != nil {
				return 0, err
			}
			defer os.Remove(f.Name())
			defer f.Close()
			rec, err := trace.NewRecorder(f, buffer)
			if err != nil {
				return 0, err
			}
			// Stops the record writer (after the timed run); the scratch
			// records themselves are never read.
			defer rec.Flush()
			tr := &tracer{rec: rec, names: map[int]string{}, measure: measure}
			opts.Hooks = tr.hooks()
			v, err := vm.New(opts)
			if err != nil {
				return 0, err
			}
			tr.v = v
			d, err := timeMain(ctx, v, args)
			if n := rec.Records(); n > 0 {
				lastMeasured = time.Duration(rec.Costs() / n)
			}
			return d, err
		}
		v, err := vm.New(opts)
		if err != nil {
			return 0, err
		}
		return timeMain(ctx, v, args)
	}
	// Each round runs the program untraced and then traced, a few
	// milliseconds apart, and yields one estimate of the event's cost; the
	// median over the rounds is kept. (The fastest run of each kind, the
	// earlier rule, paired runs from different moments of a host whose
	// speed changes every second or so, and moved the cost by 2x.)
	costs := make([]time.Duration, 0, calibrationRounds)
	us := make([]time.Duration, 0, calibrationRounds)
	for i := 0; i < calibrationRounds; i++ {
		plain, err := run(false)
		if err != nil {
			return 0, 0, 0, err
		}
		traced, err := run(true)
		if err != nil {
			return 0, 0, 0, err
		}
		if traced <= plain {
			notSlower++
		}
		c := max(traced-plain, 0) / time.Duration(2*calls)
		costs = append(costs, c)
		us = append(us, max(c-lastMeasured, 0))
	}
	return median(costs), median(us), notSlower, nil
}

// median returns the middle value of xs (the lower of the two middle ones
// for an even count); xs is reordered.
func median(xs []time.Duration) time.Duration {
	slices.Sort(xs)
	return xs[(len(xs)-1)/2]
}

// timeMain runs the calibration program and times it on the kernel's CPU
// clock of its main thread (the wall clock if that cannot be read), like
// the program's own pairs: on a loaded host the wall clock put the
// calibration program's event anywhere between 20 and 77 ns from one step
// to the next (plugins/dpa/BENCHMARKS.md).
func timeMain(ctx context.Context, v *runtime.VM, args []string) (time.Duration, error) {
	code, wall, cpu, err := runTimed(ctx, v, "DpaCalibrate", args)
	if err == nil && code != 0 {
		err = fmt.Errorf("calibration program exited with %d", code)
	}
	return cpuOr(cpu, wall), err
}

// calibrateProgram runs the profiled program itself, untraced and traced
// with the step's tracer settings, in pairs, and derives from them what one
// event costs this program (analysis.CalibrateFromPairs). It returns
// errThreads for a program that runs Java code on more than one thread. This is issue 18's
// per-program calibration: what an event costs beyond what it measures is
// mostly what it costs the program's own instructions around it, which
// differs from program to program (a one-method recursion pays less than
// the calibration program's 64 methods), so no calibration program can
// stand for all. The runs are timed on the kernel's CPU clock of the
// thread that runs main, which leaves out the time other processes had
// the core, and the order alternates (untraced first, then traced first)
// so that a drift of the host's speed cancels within two pairs. The
// method-level baseline (the self-timed variant) is never run here, so
// Err_m stays independent of the calibration; the process-level one is
// the same program untraced, so Err_p becomes a consistency check of
// the deduction rather than an independent measurement.
//
// seed are pairs already made (the collector's best-of runs with their
// paired baselines, untraced first); the pairs made here continue from
// them.
func calibrateProgram(ctx context.Context, p program, cfg Config, dir string, seed []analysis.Pair) (analysis.Calibration, error) {
	untraced := func() (time.Duration, error) {
		v, err := vm.New(p.options(io.Discard, io.Discard, nil))
		if err != nil {
			return 0, err
		}
		code, wall, cpu, err := p.run(ctx, v, p.main)
		if err == nil && code != 0 {
			err = fmt.Errorf("%s exited with %d (untraced)", p.main, code)
		}
		return cpuOr(cpu, wall), err
	}
	traced := func() (time.Duration, *tracedRun, error) {
		r, err := runTraced(ctx, p, cfg, dir, "calibrate-program.records", io.Discard, io.Discard, false)
		if err != nil {
			return 0, nil, err
		}
		os.Remove(r.path)
		if r.code != 0 {
			return 0, nil, fmt.Errorf("%s exited with %d (traced)", p.main, r.code)
		}
		if len(r.meta.Threads) > 1 {
			return 0, nil, errThreads
		}
		return cpuOr(r.cpu, r.meta.Elapsed), r, nil
	}
	pairs := slices.Clone(seed)
	// The seed's pairs all ran untraced first: as many of the pairs made
	// here run traced first before the order alternates again.
	surplus := len(seed)
	for i := len(pairs); ; i++ {
		if i >= programMinPairs && i%2 == 0 {
			c, err := analysis.CalibrateFromPairs(pairs)
			if err != nil || enoughPairs(c, i, cfg.ProgramPairs) {
				return c, err
			}
		}
		// No untimed warm-up run: the plugin's process has run the VM
		// before, and the median over the pairs discounts a slow first
		// one (a warm-up run cost a whole traced run, 1.6 s on fib
		// without a record buffer). The first traced run finds out
		// whether the program runs Java code on other threads than main.
		var pt analysis.Pair
		var r *tracedRun
		var err error
		untracedFirst := i%2 == 0
		if surplus > 0 {
			untracedFirst, surplus = false, surplus-1
		}
		if untracedFirst {
			if pt.Plain, err = untraced(); err == nil {
				pt.Traced, r, err = traced()
			}
		} else if pt.Traced, r, err = traced(); err == nil {
			pt.Plain, err = untraced()
		}
		if err != nil {
			if errors.Is(err, errThreads) {
				return analysis.Calibration{}, err
			}
			return analysis.Calibration{}, fmt.Errorf("program pair %d: %w", i, err)
		}
		pt.Events, pt.Costs = r.meta.Records, r.costs
		pairs = append(pairs, pt)
	}
}

// enoughPairs reports whether the program's pairs, n of them, have
// calibrated it as well as more pairs could: the median per-event cost is
// known to within programResolution ns either way (after at least min
// pairs, Config.ProgramPairs), or to within programRelResolution of itself
// for events of a microsecond (those cells are the paper's ablation, off
// by tens of times the bar whatever the deduction; from programMinPairs
// on, the fewest with a finite interval); or the pairs have reached
// programPairsGrowth times min; or, after min pairs, the interval, which
// narrows as 1/√n, would reach the resolution only beyond that limit
// (before min pairs, only beyond programHopeless times that limit; after
// them, only if the interval is also wider than programTrust).
// (The last rule stops the loop-only programs, whose ~2 300 events put
// the interval at ±20–500 ns: they went on to 44 pairs, 5–9 s a step,
// and then kept the calibration program's figure anyway.)
func enoughPairs(c analysis.Calibration, n, min int) bool {
	tol := max(programResolution, programRelResolution*c.Event)
	relative := tol > programResolution
	switch {
	case c.Resolved(tol):
		return relative || n >= min
	case n >= programPairsGrowth*min:
		return true
	}
	// The pairs the interval says resolving would take.
	half := max(c.Event-c.Lo, c.Hi-c.Event)
	need := float64(n) * (half / tol) * (half / tol)
	if n < min {
		// Before min pairs the interval of a few pairs is their whole
		// range, so only a program that is off by far more than
		// sampling can explain stops here: at 6 pairs, an interval
		// wider than ±45 ns (the loop-only programs' are ±10–500 ns;
		// concat's reached ±11 ns at load 9, and then it kept the
		// calibration program's figure instead of its own).
		return need > programHopeless*float64(programPairsGrowth*min)
	}
	// After min pairs, a program whose figure will be deducted
	// (programResolved: within programTrust) goes on to the limit, each
	// pair narrowing what is deducted: stopped at 12 pairs within ±1.5 ns,
	// concat fell short of the trust in one step of two on the idle host
	// and kept the calibration program's figure, 2 ns an event short of
	// its own (Err_m +2.6 %).
	return half > programTrust && need > float64(programPairsGrowth*min)
}

// The program's pairs go on, up to programPairsGrowth times
// Config.ProgramPairs, until the median per-event cost is known to within
// programResolution ns either way: on a call-heavy method 1 ns per event
// moves Err_m by several per cent (3.3 % on fib), so the 2 % bar needs the
// deduction right to about half a nanosecond. An event of a microsecond
// (no record buffer: a write per event) is known well enough to within
// programRelResolution of its cost; those cells are the paper's ablation,
// off by tens of times the bar whatever the deduction. programMinPairs is
// the fewest pairs whose median has a 95 % interval (stats.MedianInterval).
const (
	programResolution    = 0.5
	programRelResolution = 0.02
	programPairsGrowth   = 4
	programMinPairs      = 6
	programHopeless      = 1024
)

// errThreads: the traced run ran Java code on more than one thread. The
// main thread's CPU clock sees only its own events, and on the wall clock
// such a program's traced and untraced runs differ by how its threads
// happened to share the VM far more than by its events (a test program
// with two threads and 2 400 events came out at 115 µs per event), so a
// multi-threaded program is not calibrated on itself.
var errThreads = errors.New("dpa: the program runs Java code on more than one thread")

// cpuOr is cpu when the kernel's thread clock was read, else wall.
func cpuOr(cpu, wall time.Duration) time.Duration {
	if cpu >= 0 {
		return cpu
	}
	return wall
}
