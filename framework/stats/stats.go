// Package stats holds the statistics droidprof uses to summarize and compare
// runs. It follows benchstat (golang.org/x/perf/benchmath, AssumeNothing):
// the sample median with a 95 % order-statistic confidence interval and the
// two-sided Mann–Whitney U test; and hyperfine's hygiene: mean, standard
// deviation and outlier detection with the modified Z-score.
//
// The results agree with benchmath's to floating-point precision; the oracle
// test (build tag benchmath_oracle) checks that directly, and the golden file
// testdata/benchmath_golden.json, made by that test, keeps it checked in every
// ordinary test run.
//
// No function modifies its input slice.
package stats

import (
	"math"
	"slices"
)

// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

// Min returns the smallest value of xs, or NaN if xs is empty.
func Min(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return slices.Min(xs)
}

// Max returns the largest value of xs, or NaN if xs is empty.
func Max(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return slices.Max(xs)
}

// Mean returns the arithmetic mean of xs, or NaN if xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// StdDev returns the sample standard deviation of xs (with Bessel's
// correction, n−1 in the denominator, as hyperfine reports σ). It is 0 for
// fewer than two values.
func StdDev(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := Mean(xs)
	ss := 0.0
	for _, x := range xs {
		d := x - m
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// GeoMean returns the geometric mean of xs. Like benchstat, it returns NaN if
// xs is empty or any value is not positive.
func GeoMean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	logSum := 0.0
	for _, x := range xs {
		if !(x > 0) {
			return math.NaN()
		}
		logSum += math.Log(x)
	}
	return math.Exp(logSum / float64(len(xs)))
}

// Median returns the sample median of xs (the mean of the two middle values
// when len(xs) is even), or NaN if xs is empty.
func Median(xs []float64) float64 {
	return Quantile(xs, 0.5)
}

// Quantile returns the q-th quantile of xs (0 ≤ q ≤ 1), or NaN if xs is
// empty. Between order statistics it interpolates linearly with Hyndman and
// Fan's definition 8 (median-unbiased), the definition benchstat uses; for
// q = 0.5 that is the ordinary median.
func Quantile(xs []float64, q float64) float64 {
	return quantileSorted(sorted(xs), q)
}

func quantileSorted(s []float64, q float64) float64 {
	n := len(s)
	switch {
	case n == 0 || math.IsNaN(q):
		return math.NaN()
	case q <= 0:
		return s[0]
	case q >= 1:
		return s[n-1]
	}
	// Definition 8: the 1-based position is (n + 1/3)·q + 1/3.
	pos := 1/3.0 + q*(float64(n)+1/3.0)
	whole, frac := math.Modf(pos)
	k := int(whole)
	if k <= 0 {
		return s[0]
	}
	if k >= n {
		return s[n-1]
	}
	return s[k-1] + frac*(s[k]-s[k-1])
}
