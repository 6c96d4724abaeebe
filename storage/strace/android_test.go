package strace

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestAndroidLogs parses the real Android strace excerpts in testdata (see
// its README for where each comes from): every intact line is an event
// with its pid and return value, and the lines the pasting damaged are
// reported with their line number instead of being misread.
func TestAndroidLogs(t *testing.T) {
	tests := []struct {
		file    string
		events  int
		pid     int
		skipped []int // lines reported
	}{
		{"android-termux-10244.strace", 14, 22841, nil},
		// Lines 9 and 13 are two calls each, joined by the paste.
		{"android-termux-4837.strace", 11, 0, []int{9, 13}},
		// The terminal wrapped lines 1 and 4 before their return values.
		{"android-termux-4132.strace", 6, 0, []int{1, 2, 4, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l, err := ParseFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var skipped []int
			for _, d := range l.Skipped {
				skipped = append(skipped, d.Line)
			}
			for _, ev := range l.Events {
				if ev.PID != tt.pid || ev.Kind != Call || ev.Time != -1 {
					t.Errorf("line %d: %+v, want a call of pid %d without a time", ev.Line, ev, tt.pid)
				}
			}
			if len(l.Events) != tt.events || fmt.Sprint(skipped) != fmt.Sprint(tt.skipped) {
				t.Errorf("%d events, skipped lines %v (%v); want %d events, skipped %v", len(l.Events), skipped, l.Skipped, tt.events, tt.skipped)
			}
		})
	}
}
