package stats

import (
	"math"
	"sort"
)

// ranks returns the 1-based ranks of xs, ties getting the mean of the
// ranks they span.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		mean := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = mean
		}
		i = j + 1
	}
	return r
}

// Ranks returns the 1-based ranks of xs, ties getting the mean of the
// ranks they span (ascending: the smallest value has rank 1).
func Ranks(xs []float64) []float64 { return ranks(xs) }

// Spearman returns Spearman's rank correlation coefficient ρ of the
// paired samples xs and ys: Pearson's correlation of their ranks (ties
// get mean ranks). NaN if the lengths differ, fewer than two pairs are
// given, or either sample is constant.
func Spearman(xs, ys []float64) float64 {
	if len(xs) != len(ys) || len(xs) < 2 {
		return math.NaN()
	}
	return pearson(ranks(xs), ranks(ys))
}

func pearson(xs, ys []float64) float64 {
	mx, my := Mean(xs), Mean(ys)
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// KendallTau returns Kendall's rank correlation τ-b of the paired samples
// xs and ys, which accounts for ties in either. NaN as for Spearman.
func KendallTau(xs, ys []float64) float64 {
	n := len(xs)
	if n != len(ys) || n < 2 {
		return math.NaN()
	}
	var concordant, discordant, tiesX, tiesY float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := sign(xs[i]-xs[j]), sign(ys[i]-ys[j])
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tiesX++
			case dy == 0:
				tiesY++
			case dx == dy:
				concordant++
			default:
				discordant++
			}
		}
	}
	d := math.Sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY))
	if d == 0 {
		return math.NaN()
	}
	return (concordant - discordant) / d
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
