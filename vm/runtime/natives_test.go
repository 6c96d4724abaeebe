package runtime_test

import (
	"slices"
	"testing"

	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/runtime"
)

// The VM implements exactly the natives the core library declares (the
// core package checks the DEX against the same list).
func TestNativesMatchCoreLibrary(t *testing.T) {
	got := runtime.NativeNames()
	want := slices.Clone(core.Natives)
	slices.Sort(got)
	slices.Sort(want)
	for _, n := range want {
		if _, ok := slices.BinarySearch(got, n); !ok {
			t.Errorf("core library native %s has no implementation", n)
		}
	}
	for _, n := range got {
		if _, ok := slices.BinarySearch(want, n); !ok {
			t.Errorf("VM implements %s, which the core library does not declare", n)
		}
	}
}
