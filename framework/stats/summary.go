package stats

import (
	"cmp"
	"fmt"
	"math"
)

// Summary describes one sample set: benchstat's median with its confidence
// interval and hyperfine's mean ± σ, range and outliers.
type Summary struct {
	N      int
	Median float64
	// Lo and Hi bound the confidence interval of the median; they are ±Inf
	// when the sample is too small (n < 6 at 95 %).
	Lo, Hi float64
	// Confidence is the interval's actual coverage (≥ the requested level).
	Confidence float64
	Min, Max   float64
	Mean       float64
	StdDev     float64
	// Outliers are the indexes of values with a modified Z-score above
	// OutlierThreshold.
	Outliers []int
	// Warnings explains an infinite interval, in benchstat's words ("need
	// >= 6 samples for confidence interval at level 0.95").
	Warnings []string
}

// Summarize computes the Summary of xs with a median confidence interval at
// the given level (DefaultConfidence if confidence ≤ 0). For an empty sample
// every number is NaN.
func Summarize(xs []float64, confidence float64) Summary {
	if confidence <= 0 {
		confidence = DefaultConfidence
	}
	s := sorted(xs)
	n := len(s)
	if n == 0 {
		nan := math.NaN()
		return Summary{Median: nan, Lo: math.Inf(-1), Hi: math.Inf(1), Min: nan, Max: nan, Mean: nan, StdDev: nan,
			Warnings: []string{"no samples"}}
	}
	ci := MedianCI(n, confidence)
	lo, hi := ci.Bounds(s)
	var warnings []string
	if !ci.Finite() {
		op, need := ">=", MinSamplesForCI(confidence)
		if need == 0 {
			op, need = ">", 50
		}
		warnings = append(warnings, fmt.Sprintf("need %s %d samples for confidence interval at level %v", op, need, confidence))
	}
	return Summary{
		N:          n,
		Median:     quantileSorted(s, 0.5),
		Lo:         lo,
		Hi:         hi,
		Confidence: ci.Confidence,
		Min:        s[0],
		Max:        s[n-1],
		Mean:       Mean(xs),
		StdDev:     StdDev(xs),
		Outliers:   Outliers(xs),
		Warnings:   warnings,
	}
}

// HasCI reports whether the confidence interval is finite.
func (s Summary) HasCI() bool {
	return !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) && !math.IsNaN(s.Lo) && !math.IsNaN(s.Hi)
}

// CIPercent returns the half-width of the confidence interval relative to
// the median, benchstat's max(hi/median − 1, 1 − lo/median), as a fraction
// (0.05 = 5 %). ok is false when the interval is infinite, when a bound has
// another sign than the median, or the median is 0 with a non-zero interval.
func (s Summary) CIPercent() (frac float64, ok bool) {
	if !s.HasCI() {
		return math.Inf(1), false
	}
	if cmp.Compare(s.Median, 0) != cmp.Compare(s.Lo, 0) || cmp.Compare(s.Median, 0) != cmp.Compare(s.Hi, 0) {
		return math.NaN(), false
	}
	if s.Median == 0 {
		return 0, true
	}
	return math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median), true
}

// CIString renders the interval as benchstat does after "± ": "3%", "∞" for
// an infinite interval, "?" when it cannot be a percentage.
func (s Summary) CIString() string {
	if !s.HasCI() {
		return "∞"
	}
	frac, ok := s.CIPercent()
	if !ok {
		return "?"
	}
	return fmt.Sprintf("%.0f%%", 100*frac)
}
