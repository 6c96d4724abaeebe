package opcost

import (
	"fmt"
	"reflect"

	"github.com/droidprof/droidprof/vm/interp"
)

// placement names where this binary's interpreter loop lies. The
// linearity study's errors follow it: the same source linked with the
// loop 32 bytes further into its cache line took the invoke pair from
// +24 to −2 % and div-int alone from 4.7 to 4.4 ns (BENCHMARKS.md), so a
// study compares only with one of the same placement.
func placement() string {
	pc := reflect.ValueOf((*interp.Interp).Execute).Pointer()
	return fmt.Sprintf("interp.(*Interp).Execute at %#x, byte %d of its 64-byte line", pc, pc%64)
}
