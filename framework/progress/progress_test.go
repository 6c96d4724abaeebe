package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/api"
)

// fake returns a plain reporter on a clock the test moves.
func fake() (*Reporter, *bytes.Buffer, *time.Time) {
	var buf bytes.Buffer
	clock := time.Unix(0, 0)
	r := &Reporter{w: &buf, now: func() time.Time { return clock }, every: PlainEvery}
	return r, &buf, &clock
}

func TestPlainLines(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf)
	r.Step(0, 2, "a_r0")
	r.Update(&api.Progress{Done: 1, Total: 2})
	r.Step(1, 2, "a_r1")
	r.Done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 || lines[0] != "[1/2] a_r0" || !strings.HasPrefix(lines[1], "[2/2] a_r1  ETA ") || !strings.HasPrefix(lines[2], "2 steps in ") {
		t.Fatalf("plain output = %q", buf.String())
	}
}

// TestPlainETAAndLongStep: without a terminal, each step line has the ETA,
// and a long step prints its progress every PlainEvery, not every update.
func TestPlainETAAndLongStep(t *testing.T) {
	r, buf, clock := fake()
	r.Step(0, 4, "a")
	*clock = clock.Add(10 * time.Second)
	r.Step(1, 4, "b")
	for i := 1; i <= 40; i++ {
		*clock = clock.Add(time.Second)
		r.Update(&api.Progress{Done: float64(i * 1000), Total: 40000, Unit: "I/Os", Message: "access 1 sync 2"})
	}
	r.Done()
	want := []string{
		"[1/4] a",
		"[2/4] b  ETA 30s", // one of four steps in 10 s
		// 20 s for 1.25 of 4 steps: 64 s in all, 44 s to go.
		"  b: 25% (10.0k/40.0k I/Os, 1000 I/Os/s) access 1 sync 2  run ETA 44s",
		"  b: 50% (20.0k/40.0k I/Os, 1000 I/Os/s) access 1 sync 2  run ETA 50s",
		"  b: 75% (30.0k/40.0k I/Os, 1000 I/Os/s) access 1 sync 2  run ETA 51s",
		"  b: 100% (40.0k/40.0k I/Os, 1000 I/Os/s) access 1 sync 2  run ETA 50s",
		"2 of 4 steps in 50s",
	}
	if got := strings.Split(strings.TrimSpace(buf.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("output:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestBarRateAndETA(t *testing.T) {
	clock := time.Unix(0, 0)
	r := &Reporter{w: &bytes.Buffer{}, now: func() time.Time { return clock }}
	r.Step(0, 4, "x")
	clock = clock.Add(10 * time.Second)
	r.Update(&api.Progress{Done: 1, Total: 1})
	// One of four steps done in 10 s: 0.10 steps/s, 30 s to go.
	if got := r.Line(); !strings.Contains(got, "0.10 steps/s") || !strings.Contains(got, "ETA 30s") || !strings.Contains(got, "100%") {
		t.Fatalf("line = %q", got)
	}
	r.Update(&api.Progress{Done: 500, Total: 1000, Unit: "transactions", Message: "insert"})
	if got := r.Line(); !strings.Contains(got, "50% (500/1000 transactions, 50 transactions/s) insert") {
		t.Fatalf("line = %q", got)
	}
}
