// Package stats gives plugins the summary statistics the host uses for
// metrics (framework/stats), so an analyzer's medians are computed the way
// `droidprof compare` computes them.
package stats

import (
	"slices"

	"github.com/droidprof/droidprof/framework/stats"
)

// Median returns the sample median of xs (the mean of the two middle values
// when len(xs) is even), or NaN if xs is empty.
func Median(xs []float64) float64 { return stats.Median(xs) }

// Quantile returns the q-quantile of xs (0 <= q <= 1), interpolated between
// order statistics as benchstat does, or NaN if xs is empty.
func Quantile(xs []float64, q float64) float64 { return stats.Quantile(xs, q) }

// Min returns the smallest value of xs, or NaN if xs is empty.
func Min(xs []float64) float64 { return stats.Min(xs) }

// Max returns the largest value of xs, or NaN if xs is empty.
func Max(xs []float64) float64 { return stats.Max(xs) }

// Mean returns the arithmetic mean of xs, or NaN if xs is empty.
func Mean(xs []float64) float64 { return stats.Mean(xs) }

// GeoMean returns the geometric mean of xs, or NaN if xs is empty or any
// value is not positive.
func GeoMean(xs []float64) float64 { return stats.GeoMean(xs) }

// MedianInterval returns the distribution-free 95 % confidence interval
// of the median of xs (two order statistics, as `droidprof compare`
// reports them); a bound is ±Inf when xs is too small for it (both
// bounds are finite from 6 values on).
func MedianInterval(xs []float64) (lo, hi float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return stats.MedianCI(len(s), stats.DefaultConfidence).Bounds(s)
}

// Spearman returns Spearman's rank correlation ρ of paired samples (ties
// get mean ranks); NaN when undefined.
func Spearman(xs, ys []float64) float64 { return stats.Spearman(xs, ys) }

// KendallTau returns Kendall's rank correlation τ-b of paired samples;
// NaN when undefined.
func KendallTau(xs, ys []float64) float64 { return stats.KendallTau(xs, ys) }

// Ranks returns the 1-based ranks of xs (ascending; ties get the mean of
// the ranks they span).
func Ranks(xs []float64) []float64 { return stats.Ranks(xs) }
