package trace

import (
	"fmt"
	"strings"
	"testing"
)

// TestWalk covers the repairs walk makes to event streams that are not
// well nested, which every exporter relies on.
func TestWalk(t *testing.T) {
	ev := func(tid uint32, a Action, m uint32, wall int64) Event {
		return Event{Thread: tid, Action: a, Method: m, Wall: wall, CPU: wall / 2}
	}
	for _, tc := range []struct {
		name   string
		events []Event
		want   string // closed activations: method@enter-exit/how/children, in closing order
	}{
		{"well nested", []Event{ev(1, Enter, 1, 0), ev(1, Enter, 2, 10), ev(1, Exit, 2, 20), ev(1, Exit, 1, 30)},
			"2@10-20/0/0 1@0-30/0/1"},
		{"exit skips frames left by unwinding", []Event{ev(1, Enter, 1, 0), ev(1, Enter, 2, 10), ev(1, Enter, 3, 15), ev(1, Unroll, 1, 30)},
			"3@15-30/2/0 2@10-30/2/1 1@0-30/1/1"},
		{"exit of a method entered before tracing", []Event{ev(1, Exit, 7, 5), ev(1, Enter, 1, 10), ev(1, Exit, 1, 20)},
			"1@10-20/0/0"},
		{"open at the end, per thread", []Event{ev(1, Enter, 1, 0), ev(2, Enter, 1, 5), ev(1, Enter, 2, 10), ev(2, Enter, 3, 40), ev(1, Exit, 2, 20)},
			"2@10-20/0/0 1@0-20/2/1 3@40-40/2/0 1@5-40/2/1"},
		{"recursion closes the innermost", []Event{ev(1, Enter, 1, 0), ev(1, Enter, 1, 10), ev(1, Exit, 1, 20), ev(1, Exit, 1, 30)},
			"1@10-20/0/0 1@0-30/0/1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			depthOK := true
			walk(&Trace{Events: tc.events}, walker{
				enter: func(_ uint32, parent, f *frame) {
					if parent == nil && f.depth != 1 || parent != nil && f.depth != parent.depth+1 {
						depthOK = false
					}
				},
				close: func(_ uint32, f *frame, exitWall, exitCPU int64, how closeKind) {
					if exitCPU != exitWall/2 {
						t.Errorf("exit CPU %d for wall %d", exitCPU, exitWall)
					}
					got = append(got, fmt.Sprintf("%d@%d-%d/%d/%d", f.method, f.enterWall, exitWall, how, f.children))
				},
			})
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
			if !depthOK {
				t.Error("frame depths do not follow the stack")
			}
		})
	}
}
