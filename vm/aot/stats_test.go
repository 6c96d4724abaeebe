package aot_test

import (
	"testing"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/workloads"
)

// checkCounts counts the explicit checks and all values of a function.
type checkCounts struct{ null, bounds, div, values int }

func countChecks(f *ssa.Func) checkCounts {
	var c checkCounts
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			c.values++
			switch v.Op {
			case ssa.OpNullCheck:
				c.null++
			case ssa.OpBoundsCheck:
				c.bounds++
			case ssa.OpDivZeroCheck:
				c.div++
			}
		}
	}
	return c
}

func (c *checkCounts) add(d checkCounts) {
	c.null += d.null
	c.bounds += d.bounds
	c.div += d.div
	c.values += d.values
}

// TestCheckElimination compiles core.dex and the workloads and counts the
// checks (and values) before and after the passes: the passes must remove
// some null checks everywhere and some bounds checks in the array-heavy
// kernels, and never add any. The counts are those in BENCHMARKS.md.
func TestCheckElimination(t *testing.T) {
	files := []struct{ name, dex string }{{"core.dex", ""}}
	for _, d := range workloads.DEXFiles() {
		files = append(files, struct{ name, dex string }{d.Name, d.Name})
	}
	t.Logf("%-22s %14s %14s %12s %14s", "file", "null checks", "bounds checks", "div checks", "values")
	for _, file := range files {
		data := core.DEX()
		if file.dex != "" {
			var err error
			if data, err = (workloads.Workload{Name: file.name, DEX: file.dex}).Bytes(); err != nil {
				t.Fatal(err)
			}
		}
		var before, after checkCounts
		cfg := ssa.Config{After: func(pass string, f *ssa.Func) {
			switch pass {
			case "build":
				before.add(countChecks(f))
			case "deadcode2":
				after.add(countChecks(f))
			}
		}}
		aot.Compile(readDEX(t, data), aot.Options{Passes: cfg})
		t.Logf("%-22s %6d → %5d %6d → %5d %5d → %4d %6d → %5d", file.name,
			before.null, after.null, before.bounds, after.bounds, before.div, after.div, before.values, after.values)
		if after.null > before.null || after.bounds > before.bounds || after.div > before.div {
			t.Errorf("%s: the passes added checks", file.name)
		}
		if before.null > 0 && after.null == before.null {
			t.Errorf("%s: no null check removed of %d", file.name, before.null)
		}
		switch file.name {
		case "scimark-lu.dex", "scimark-sor.dex", "dpa-bubblesort.dex", "dpa-sieve.dex", "caffeine-sieve.dex":
			if after.bounds == before.bounds {
				t.Errorf("%s: no bounds check removed of %d", file.name, before.bounds)
			}
		}
	}
}
