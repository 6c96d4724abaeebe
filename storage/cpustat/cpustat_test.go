package cpustat

import (
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Times
		wantErr string
	}{
		{"modern", "cpu  10478 1 4661 62274 391 2 74 27 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n", Times{10478, 1, 4661, 62274, 391, 2, 74, 27}, ""},
		{"five fields", "intr 1\ncpu  1 2 3 4 5\n", Times{User: 1, Nice: 2, System: 3, Idle: 4, IOWait: 5}, ""},
		{"four fields", "cpu  1 2 3 4\n", Times{}, "want at least 5"},
		{"no line", "cpu0 1 2 3 4 5\n", Times{}, "no aggregate"},
		{"garbage", "cpu  1 2 x 4 5\n", Times{}, "field 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Parse = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestBetween(t *testing.T) {
	tests := []struct {
		name          string
		before, after Times
		want          Usage
	}{
		// Mobibench's blog sample ratio: irq/softirq/steal are ignored.
		{"mixed", Times{}, Times{User: 50, Nice: 10, System: 40, Idle: 800, IOWait: 100, IRQ: 999, SoftIRQ: 999, Steal: 999}, Usage{Active: 10, Idle: 80, IOWait: 10, Ticks: 1000}},
		{"no time", Times{User: 5}, Times{User: 5}, Usage{}},
		{"counter went back", Times{Idle: 10}, Times{Idle: 5, User: 4}, Usage{Active: 100, Ticks: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Between(tt.before, tt.after)
			if math.Abs(got.Active-tt.want.Active) > 1e-9 || math.Abs(got.Idle-tt.want.Idle) > 1e-9 ||
				math.Abs(got.IOWait-tt.want.IOWait) > 1e-9 || got.Ticks != tt.want.Ticks {
				t.Fatalf("Between = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestReadLive(t *testing.T) {
	a, err := Read()
	if err != nil {
		t.Skipf("no /proc/stat here: %v", err)
	}
	if a.User+a.System+a.Idle == 0 {
		t.Fatalf("implausible /proc/stat: %+v", a)
	}
}

func TestParseStatusSwitches(t *testing.T) {
	tests := []struct {
		name, in string
		want     Switches
		ok       bool
	}{
		{"both", "Name:\tx\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n", Switches{12, 3}, true},
		{"missing", "voluntary_ctxt_switches:\t12\n", Switches{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseStatusSwitches([]byte(tt.in))
			if (err == nil) != tt.ok || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v ok=%v", got, err, tt.want, tt.ok)
			}
		})
	}
}

// The two ways of reading a thread's switches agree, and blocking system
// calls show up as voluntary switches.
func TestThreadSwitchesAgreeWithProc(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, _, err := ThreadUsage()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		var ts = unix.Timespec{Nsec: 100_000} // each nanosleep blocks, a voluntary switch
		_ = unix.Nanosleep(&ts, nil)
	}
	after, _, err := ThreadUsage()
	if err != nil {
		t.Fatal(err)
	}
	if d := after.Sub(before); d.Voluntary < 5 {
		t.Errorf("5 nanosleeps gave %d voluntary switches, want >= 5", d.Voluntary)
	}
	proc, err := TaskSwitches(unix.Gettid())
	if err != nil {
		if os.IsNotExist(err) {
			t.Skip("no /proc/self/task")
		}
		t.Fatal(err)
	}
	if proc.Voluntary < after.Voluntary || proc.Voluntary > after.Voluntary+2 {
		t.Errorf("/proc says %+v, getrusage said %+v", proc, after)
	}
}
