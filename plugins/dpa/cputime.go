package dpa

import (
	"context"
	goruntime "runtime"
	"time"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/vm/runtime"
)

// threadCPU is the CPU time the kernel has given the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID), or -1 if it cannot be read. Unlike the wall
// clock it does not advance while another process has the core, which is
// what a calibration on a shared, loaded host needs.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return -1
	}
	return time.Duration(ts.Nano())
}

// runTimed runs main on v and times the run on the wall clock and on the
// kernel's CPU clock of the OS thread it ran on. RunMain runs the Java main
// thread on the calling goroutine, so locking that goroutine to its OS
// thread for the run makes the thread's CPU clock the main thread's. cpu
// is -1 when the kernel's thread clock cannot be read.
//
// A Go garbage collection is finished first: the collector's runs make a
// new VM and record buffers each, and a Go collection starts every few
// runs, so that one run in two or three had a collection's concurrent
// work and write barriers in it and its neighbours had none
// (plugins/dpa/BENCHMARKS.md, session 9) — a mode of the host the pairs
// and the best-of runs would otherwise sample at random.
func runTimed(ctx context.Context, v *runtime.VM, main string, args []string) (code int, wall, cpu time.Duration, err error) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	goruntime.GC()
	c0, w0 := threadCPU(), time.Now()
	code, err = v.RunMain(ctx, main, args)
	wall, c1 := time.Since(w0), threadCPU()
	cpu = -1
	if c0 >= 0 && c1 >= 0 {
		cpu = c1 - c0
	}
	return code, wall, cpu, err
}
