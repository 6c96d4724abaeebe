package dpa

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/droidprof/droidprof/plugins/dpa/trace"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// calibrationSmali is a program that calls a small static method n
// times. Run traced and untraced, the difference in run time is 2n times
// the cost of one recorded event, measured where the events really
// happen: inside the interpreter, through the VM's hooks, into the real
// record buffer. (A tight loop of clock reads alone, as Traceview does,
// misses the hook dispatch and the record store and underestimates.)
//
// The method does a little arithmetic, as real methods do, rather than
// nothing: the part of an event no clock read can see grows with the work
// around it (the program's own instructions run slower next to the
// tracer's); on the development VM 11-13 ns around an empty method, 15-21
// ns around 32 additions (plugins/dpa/BENCHMARKS.md).
const calibrationSmali = `.class public LDpaCalibrate;
.super Ljava/lang/Object;

.method public static work(I)I
    .registers 1
    add-int/lit8 p0, p0, 1
    add-int/lit8 p0, p0, 1
    add-int/lit8 p0, p0, 1
    add-int/lit8 p0, p0, 1
    add-int/lit8 p0, p0, 1
    add-int/lit8 p0, p0, 1
    add-int/lit8 p0, p0, 1
    add-int/lit8 p0, p0, 1
    return p0
.end method

.method public static main([Ljava/lang/String;)V
    .registers 3
    const/4 v0, 0
    aget-object v0, p0, v0
    invoke-static {v0}, Ljava/lang/Integer;->parseInt(Ljava/lang/String;)I
    move-result v0
    :loop
    if-lez v0, :done
    invoke-static {v0}, LDpaCalibrate;->work(I)I
    move-result v1
    add-int/lit8 v0, v0, -1
    goto :loop
    :done
    return-void
.end method
`

// calibrationRounds pairs of runs, untraced and traced, are made.
const calibrationRounds = 31

// calibrateEvents measures the cost of one recorded event with a record
// buffer of the given size (records written to a scratch file in dir)
// and, when measure is set, the part of it the event cannot measure itself
// (the cost less Event.Cost): what the analysis deducts per event on top
// of the measured costs.
func calibrateEvents(ctx context.Context, dir string, calls, buffer int, measure bool) (event, unmeasured time.Duration, err error) {
	cls, err := smali.Parse("DpaCalibrate.smali", []byte(calibrationSmali), nil)
	if err != nil {
		return 0, 0, err
	}
	data, err := smali.Assemble([]*ast.Class{cls}, nil)
	if err != nil {
		return 0, 0, err
	}
	dexPath := filepath.Join(dir, "calibrate.dex")
	if err := os.WriteFile(dexPath, data, 0o644); err != nil {
		return 0, 0, err
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
			tr := &tracer{rec: rec, names: map[int]string{}, measure: measure}
			opts.Hooks = tr.hooks()
			v, err := vm.New(opts)
			if err != nil {
				return 0, err
			}
			tr.v = v
			d, err := timeMain(ctx, v, args)
			if n := rec.Records(); n > 0 {
				lastMeasured = time.Duration(tr.costs / n)
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
			return 0, 0, err
		}
		traced, err := run(true)
		if err != nil {
			return 0, 0, err
		}
		c := max(traced-plain, 0) / time.Duration(2*calls)
		costs = append(costs, c)
		us = append(us, max(c-lastMeasured, 0))
	}
	return median(costs), median(us), nil
}

// median returns the middle value of xs (the lower of the two middle ones
// for an even count); xs is reordered.
func median(xs []time.Duration) time.Duration {
	slices.Sort(xs)
	return xs[(len(xs)-1)/2]
}

func timeMain(ctx context.Context, v *runtime.VM, args []string) (time.Duration, error) {
	start := time.Now()
	code, err := v.RunMain(ctx, "DpaCalibrate", args)
	d := time.Since(start)
	if err == nil && code != 0 {
		err = fmt.Errorf("calibration program exited with %d", code)
	}
	return d, err
}
