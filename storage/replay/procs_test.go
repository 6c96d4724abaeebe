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
