package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestParseJVMLog reads HotSpot's -Xlog:gc lines of the serial collector:
// pauses by kind, other lines skipped.
func TestParseJVMLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gc.log")
	log := `[0.004s][info][gc] Using Serial
[1.475s][info][gc] GC(11) Pause Young (Allocation Failure) 8M->0M(30M) 0.481ms
[2.001s][info][gc] GC(12) Pause Full (System.gc()) 10M->2M(30M) 12.500ms
`
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := parseJVMLog(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []pause{{"young", 481 * time.Microsecond, 481 * time.Microsecond}, {"full", 12500 * time.Microsecond, 12500 * time.Microsecond}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestPercentile checks the nearest-rank percentile.
func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i))
	}
	for _, tc := range []struct {
		ds   []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 0.5, 0},
		{[]time.Duration{7}, 0.99, 7},
		{[]time.Duration{3, 1, 2}, 0.5, 2},
		{[]time.Duration{4, 1, 3, 2}, 0.5, 2},
		{ds, 0.5, 50},
		{ds, 0.99, 99},
		{append(ds, 1000), 0.99, 100},
	} {
		if got := percentile(tc.ds, tc.p); got != tc.want {
			t.Errorf("percentile(%d values, %g) = %d, want %d", len(tc.ds), tc.p, got, tc.want)
		}
	}
}
