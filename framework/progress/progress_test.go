package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/api"
)

func TestPlainLines(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf)
	r.Step(0, 2, "a_r0")
	r.Update(&api.Progress{Done: 1, Total: 2})
	r.Step(1, 2, "a_r1")
	r.Done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 || lines[0] != "[1/2] a_r0" || lines[1] != "[2/2] a_r1" || !strings.HasPrefix(lines[2], "2 steps in ") {
		t.Fatalf("plain output = %q", buf.String())
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
}
