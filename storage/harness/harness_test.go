package harness

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
)

func TestWatchAbortsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var abort atomic.Bool
	var reports []int64
	stop := Watch(ctx, &abort, func() int64 { return 7 }, 10, func(done, total int64) { reports = append(reports, done) })
	cancel()
	for !abort.Load() { // set by the watcher; the test's deadline bounds the wait
		runtime.Gosched()
	}
	stop()
	if len(reports) == 0 || reports[len(reports)-1] != 7 {
		t.Errorf("progress reports %v, want a final 7", reports)
	}
}

func TestWatchWithoutProgress(t *testing.T) {
	var abort atomic.Bool
	Watch(context.Background(), &abort, func() int64 { return 0 }, 0, nil)()
	if abort.Load() {
		t.Error("abort set without cancellation")
	}
}

func TestRaiseProcsNests(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	r1 := RaiseProcs(before + 3)
	r2 := RaiseProcs(before + 1)
	if got := runtime.GOMAXPROCS(0); got != before+3 {
		t.Fatalf("GOMAXPROCS %d, want %d", got, before+3)
	}
	r2()
	if got := runtime.GOMAXPROCS(0); got != before+3 {
		t.Errorf("after the inner restore GOMAXPROCS %d, want %d until the outer one", got, before+3)
	}
	r1()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("after both restores GOMAXPROCS %d, want %d", got, before)
	}
}
