// Package harness is what every storage engine's run needs around its
// worker threads: a watcher that stops the workers when the context ends
// and reports progress, and enough Go processors for workers that block in
// system calls.
package harness

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// ProgressInterval is how often Watch reports progress.
const ProgressInterval = 100 * time.Millisecond

// Watch sets abort when ctx ends, which the workers check between
// operations, and calls progress(done(), total) every ProgressInterval
// when progress is not nil. The returned function stops the watcher and
// sends the final progress report.
func Watch(ctx context.Context, abort *atomic.Bool, done func() int64, total int64, progress func(done, total int64)) (stop func()) {
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var tick <-chan time.Time
		if progress != nil {
			t := time.NewTicker(ProgressInterval)
			defer t.Stop()
			tick = t.C
		}
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				abort.Store(true)
				return
			case <-tick:
				progress(done(), total)
			}
		}
	}()
	return func() {
		close(quit)
		<-finished
		if progress != nil {
			progress(done(), total)
		}
	}
}

var procs struct {
	sync.Mutex
	users, saved int
}

// RaiseProcs raises GOMAXPROCS to at least n until the returned function
// is called, so that n workers locked to their OS threads and blocked in
// system calls do not wait for each other's processors. Concurrent runs
// share the raise; the last one to finish restores the setting.
func RaiseProcs(n int) (restore func()) {
	procs.Lock()
	defer procs.Unlock()
	if procs.users == 0 {
		procs.saved = runtime.GOMAXPROCS(0)
	}
	procs.users++
	if n > runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(n)
	}
	return func() {
		procs.Lock()
		defer procs.Unlock()
		if procs.users--; procs.users == 0 && runtime.GOMAXPROCS(0) != procs.saved {
			runtime.GOMAXPROCS(procs.saved)
		}
	}
}
