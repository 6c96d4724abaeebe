package vm_test

import (
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
)

// TestHeapConfigErrors checks that a bad heap configuration is an error
// naming the dalvikvm option, reported before the class path is read
// (the class path here does not exist), never a panic.
func TestHeapConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  gc.Config
		want string
	}{
		{gc.Config{Max: 512 << 10}, "-Xmx 512KB: out of range"},
		{gc.Config{Max: 2 << 30}, "-Xmx 2048MB: out of range"},
		{gc.Config{Start: 8 << 20, Max: 4 << 20}, "-Xms 8192KB: larger than -Xmx 4096KB"},
		{gc.Config{Collector: "g1"}, "-Xgc:g1: unknown collector"},
		{gc.Config{TargetUtilization: 1.5}, "-XX:HeapTargetUtilization=1.5"},
	} {
		_, err := vm.New(vm.Options{ClassPath: []string{"/nonexistent/app.dex"}, GC: tc.cfg})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.cfg, err, tc.want)
		}
	}
}
