// This test runs golang.org/x/perf/benchmath — the statistics behind
// benchstat — as the oracle for this package.

package stats

import (
	"slices"
	"testing"

	"golang.org/x/perf/benchmath"
)

func benchmathSummary(name string, xs []float64) goldenSummary {
	g := goldenSummary{Name: name, Xs: xs}
	for _, level := range oracleLevels {
		g.Levels = append(g.Levels, benchmathCI(xs, level))
	}
	return g
}

func benchmathCI(xs []float64, level float64) goldenCI {
	s := benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, level)
	g := goldenCI{Level: level,
		Center: fstr(sum.Center), Lo: fstr(sum.Lo), Hi: fstr(sum.Hi),
		Confidence: fstr(sum.Confidence), PctRange: sum.PctRangeString()}
	for _, w := range sum.Warnings {
		g.Warnings = append(g.Warnings, w.Error())
	}
	return g
}

func benchmathCompare(name string, old, new []float64) goldenCompare {
	so := benchmath.NewSample(slices.Clone(old), &benchmath.DefaultThresholds)
	sn := benchmath.NewSample(slices.Clone(new), &benchmath.DefaultThresholds)
	c := benchmath.AssumeNothing.Compare(so, sn)
	mo := benchmath.AssumeNothing.Summary(so, 0.95).Center
	mn := benchmath.AssumeNothing.Summary(sn, 0.95).Center
	g := goldenCompare{Name: name, Old: old, New: new, P: fstr(c.P), Note: c.String(), Delta: c.FormatDelta(mo, mn)}
	for _, w := range c.Warnings {
		g.Warnings = append(g.Warnings, w.Error())
	}
	return g
}

// TestBenchmathOracle checks median, confidence interval and p-value against
// benchmath directly on every oracle case.
func TestBenchmathOracle(t *testing.T) {
	sums, cmps := oracleCases()
	for _, c := range sums {
		checkSummary(t, benchmathSummary(c.Name, c.Xs))
	}
	for _, c := range cmps {
		checkCompare(t, benchmathCompare(c.Name, c.Old, c.New))
	}
	t.Logf("checked %d summaries and %d comparisons against benchmath", len(sums), len(cmps))
}
