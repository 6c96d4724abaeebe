package opcost

import (
	"context"
	"testing"

	"github.com/droidprof/droidprof/vm/vmconfig"
)

// BenchmarkCallShapes measures what one call costs in the shapes real
// programs make, against the table's invoke (a loop of calls of an empty
// method without arguments): with an argument and a returned value, with
// four, through a virtual call, at a call site whose target changes at
// random (poly-virtual) or not, and recursive (trees of depth 13). Each shape runs as
// many calls as fib(25) makes in a program of its own, timed on the
// thread CPU clock; the shapes alternate within each iteration, and the
// loop without a call is subtracted. Reported: ns per call, the median
// over the iterations (the recursion's body included in its figure).
func BenchmarkCallShapes(b *testing.B) {
	gcCfg, err := vmconfig.Settings{}.Config()
	if err != nil {
		b.Fatal(err)
	}
	var cs *CallShapes
	for b.Loop() {
		c, err := measureCallShapes(context.Background(), b.TempDir(), 1, "interp", gcCfg)
		if err != nil {
			b.Fatal(err)
		}
		if cs == nil {
			cs = c
			continue
		}
		for k, v := range c.Samples {
			cs.Samples[k] = append(cs.Samples[k], v...)
		}
	}
	loop := median(cs.Samples["loop"])
	for _, name := range shapeNames[1:] {
		ns, calls := median(cs.Samples[name]), cs.Calls
		if name == "recursion" {
			calls = cs.Trees * treeCalls // whole trees: a few calls fewer
		} else {
			ns -= loop
		}
		b.ReportMetric(ns/float64(calls), name+"-ns/call")
	}
	// Unpriced: B's body (two instructions) against A's (one) is in it.
	b.ReportMetric((median(cs.Samples["poly-virtual"])-median(cs.Samples["mono-virtual"]))/float64(cs.PolySwitches), "poly-minus-mono-ns/switch")
}
