package replay

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// procScript is a script of n threads that each stat a file at 0 and at
// last µs, so the replay holds its GOMAXPROCS raise for that long.
func procScript(t *testing.T, n int, last int64) *Script {
	var b strings.Builder
	for tid := range n {
		fmt.Fprintf(&b, "%d 0 stat64 \"/a\" -1\n%d %d stat64 \"/a\" -1\n", tid, tid, last)
	}
	return parse(t, b.String())
}

// TestConcurrentReplaysRestoreProcs overlaps two replays the way that broke
// a plain save-and-restore: the small one starts first and ends first. Its
// end must not take the processors from the big one still running, and
// after both GOMAXPROCS is back where it was.
func TestConcurrentReplaysRestoreProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	small, big := procScript(t, 1, 100_000), procScript(t, 4, 400_000)
	needSmall, needBig := 1+2, 4+2
	replay := func(s *Script) chan error {
		done := make(chan error, 1)
		dir := t.TempDir()
		go func() {
			_, err := Replay(context.Background(), s, Options{Dir: dir})
			done <- err
		}()
		return done
	}
	// Polling with Gosched, bounded by the test's deadline: the raise
	// happens inside Replay before its clock starts.
	waitProcs := func(n int) {
		for runtime.GOMAXPROCS(0) < n {
			runtime.Gosched()
		}
	}
	smallDone := replay(small)
	waitProcs(needSmall)
	bigDone := replay(big)
	waitProcs(needBig)
	if err := <-smallDone; err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-bigDone:
		t.Fatalf("the big replay (400 ms) ended before the small one (100 ms) it started after: %v", err)
	default:
	}
	if got := runtime.GOMAXPROCS(0); got < needBig {
		t.Errorf("with the big replay still running GOMAXPROCS is %d, want at least %d", got, needBig)
	}
	if err := <-bigDone; err != nil {
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("after both replays GOMAXPROCS is %d, want the 1 it was", got)
	}
}

// TestHeldCalls: calls scheduled at the same µs as their thread's previous
// call cannot be issued on time (the thread is inside that call at their
// time), so they are counted held, not in the timing error; the first call
// of each thread, whose thread starts early, is on time.
func TestHeldCalls(t *testing.T) {
	s := parse(t, `0 20000 open "/a" O_RDWR|O_CREAT 3
0 20000 write 3 4096
0 20000 write 3 4096
0 20000 fsync 3 0
1 30000 stat64 "/a" 0
1 50000 stat64 "/a" 0
`)
	res, err := Replay(context.Background(), s, Options{Dir: t.TempDir(), Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Held != 3 || res.OnTime+res.Held != res.IOCount || res.IOCount != 6 {
		t.Errorf("held %d, on time %d of %d calls; want 3 held (thread 0's calls after its first) and 6 calls", res.Held, res.OnTime, res.IOCount)
		for _, is := range res.Trace {
			t.Logf("%+v", is)
		}
	}
	if res.LagHeld.Max <= 0 {
		t.Errorf("held calls late by %v at most, want more than 0", res.LagHeld.Max)
	}
}
