package dpa

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/droidprof/droidprof/plugins/dpa/trace"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// calibrationSmali is a program that calls an empty static method n
// times. Run traced and untraced, the difference in run time is 2n times
// the cost of one recorded event, measured where the events really
// happen: inside the interpreter, through the VM's hooks, into the real
// record buffer. (A tight loop of clock reads alone, as Traceview does,
// misses the hook dispatch and the record store and underestimates.)
const calibrationSmali = `.class public LDpaCalibrate;
.super Ljava/lang/Object;

.method public static empty()V
    .registers 0
    return-void
.end method

.method public static main([Ljava/lang/String;)V
    .registers 3
    const/4 v0, 0
    aget-object v0, p0, v0
    invoke-static {v0}, Ljava/lang/Integer;->parseInt(Ljava/lang/String;)I
    move-result v0
    :loop
    if-lez v0, :done
    invoke-static {}, LDpaCalibrate;->empty()V
    add-int/lit8 v0, v0, -1
    goto :loop
    :done
    return-void
.end method
`

// calibrationRounds runs of each kind, traced and untraced, are made.
const calibrationRounds = 5

// calibrateEvents measures the cost of one recorded event with a record
// buffer of the given size (records written to a scratch file in dir),
// and the mean of the part each event measures itself (Event.Cost) in the
// fastest traced run.
func calibrateEvents(ctx context.Context, dir string, calls, buffer int, measure bool) (event, measured time.Duration, err error) {
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
	// The fastest of several runs of each kind, like the runs being
	// measured (Config.BestOf): differences of single runs are at the
	// mercy of a host whose speed jumps between runs.
	plain, traced := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for i := 0; i < calibrationRounds; i++ {
		d, err := run(false)
		if err != nil {
			return 0, 0, err
		}
		plain = min(plain, d)
		if d, err = run(true); err != nil {
			return 0, 0, err
		}
		if d < traced {
			traced, measured = d, lastMeasured
		}
	}
	return max(traced-plain, 0) / time.Duration(2*calls), measured, nil
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
