package stats

import (
	"errors"
	"math"
)

// Errors of MannWhitneyU. benchstat reports either as "no difference"
// (p = 1) together with the error's message.
var (
	ErrSampleSize   = errors.New("sample is too small")
	ErrSamplesEqual = errors.New("all samples are equal")
)

// Sample sizes up to which MannWhitneyU computes the exact null distribution
// of U (the same limits as benchmath's); larger samples use the normal
// approximation.
const (
	uExactLimit     = 50 // without ties
	uTiesExactLimit = 25 // with ties
)

// UTest is the result of a two-sided Mann–Whitney U test.
type UTest struct {
	N1, N2 int
	// U is the statistic of the first sample: the number of pairs (a, b),
	// a from x1 and b from x2, with a > b, ties counting one half.
	U float64
	// P is the two-sided p-value of the null hypothesis that both samples
	// come from the same distribution.
	P float64
	// Exact reports whether P comes from the exact distribution of U
	// (counting every assignment of the values to the samples, which
	// handles ties) rather than the normal approximation.
	Exact bool
}

// MannWhitneyU runs the two-sided Mann–Whitney U (Wilcoxon rank-sum) test the
// way benchmath.AssumeNothing does: the exact distribution of U, also in the
// presence of ties, when both samples have at most 50 values (25 if there
// are ties), else the normal approximation with tie and continuity
// correction. The one deliberate difference: where ties make benchmath's
// p-value exceed 1, it is 1 here. It returns ErrSampleSize if a sample is empty and
// ErrSamplesEqual if all values of both samples are equal.
func MannWhitneyU(x1, x2 []float64) (UTest, error) {
	n1, n2 := len(x1), len(x2)
	res := UTest{N1: n1, N2: n2}
	if n1 == 0 || n2 == 0 {
		return res, ErrSampleSize
	}

	// Rank the merged samples. Tied values form a group that shares the
	// mean of its ranks.
	a, b := sorted(x1), sorted(x2)
	var (
		groups  []int   // size of each tie group, in ascending order
		inFirst []int   // how many of each group come from x1
		rankSum float64 // of x1
		hasTies bool
	)
	for i, j := 0, 0; i < n1 || j < n2; {
		var v float64
		switch {
		case j >= n2:
			v = a[i]
		case i >= n1:
			v = b[j]
		default:
			v = min(a[i], b[j])
		}
		start := i + j // ranks start+1 … start+size
		c1 := 0
		for i < n1 && a[i] == v {
			i++
			c1++
		}
		c2 := 0
		for j < n2 && b[j] == v {
			j++
			c2++
		}
		size := c1 + c2
		if size == 0 { // NaN never equals itself; treat it as its own group
			if i < n1 && (j >= n2 || math.IsNaN(a[i])) {
				i, c1 = i+1, 1
			} else {
				j, c2 = j+1, 1
			}
			size = 1
		}
		groups = append(groups, size)
		inFirst = append(inFirst, c1)
		if size > 1 {
			hasTies = true
		}
		meanRank := float64(2*start+size+1) / 2
		rankSum += meanRank * float64(c1)
	}
	u1 := rankSum - float64(n1*(n1+1))/2
	u2 := float64(n1*n2) - u1
	res.U = u1

	exact := !hasTies && n1 <= uExactLimit && n2 <= uExactLimit ||
		hasTies && n1 <= uTiesExactLimit && n2 <= uTiesExactLimit
	if exact {
		res.Exact = true
		if len(groups) == 1 {
			return res, ErrSamplesEqual
		}
		if u1 == u2 {
			res.P = 1
			return res, nil
		}
		// With ties U is not symmetric, and benchmath's doubled tail can
		// exceed 1 (e.g. 1 vs 1, 2 gives 4/3); a p-value is capped at 1.
		res.P = min(1, 2*uCDF(n1, n2, groups, min(u1, u2)))
		return res, nil
	}

	// Normal approximation.
	tieSum := 0.0
	for _, t := range groups {
		tf := float64(t)
		tieSum += tf*tf*tf - tf
	}
	n := float64(n1 + n2)
	mean := float64(n1*n2) / 2
	sd := math.Sqrt(float64(n1*n2) * ((n + 1) - tieSum/(n*(n-1))) / 12)
	if sd == 0 {
		return res, ErrSamplesEqual
	}
	d := u1 - mean
	switch { // continuity correction towards the mean
	case d > 0:
		d -= 0.5
	case d < 0:
		d += 0.5
	}
	z := d / sd
	cdf := normalCDF(0, 1, z)
	res.P = 2 * min(cdf, 1-cdf)
	return res, nil
}

// uCDF returns P(U ≤ u) under the null hypothesis for samples of sizes n1 and
// n2 whose merged, sorted values form tie groups of the given sizes.
//
// Under the null hypothesis every choice of which n1 of the n1+n2 positions
// hold the first sample is equally likely. Walking the groups in ascending
// order, taking r members of a group of size t, after c members of the
// first sample and start values overall, adds r·(2·(start−c) + t − r) to 2U:
// each taken value is above the start−c values of the second sample seen so
// far and ties with the t−r of this group. Counting the choices with
// 2U ≤ 2u by dynamic programming over (c, 2U) gives the exact probability.
func uCDF(n1, n2 int, groups []int, u float64) float64 {
	limit := int(math.Floor(2 * u)) // in half units
	if limit < 0 {
		return 0
	}
	total := n1 + n2
	// Without ties U is symmetric about n1·n2/2 and its distribution does
	// not depend on which sample is first, so count choices of the smaller
	// sample. (With ties neither holds.)
	if n2 < n1 && len(groups) == total {
		n1, n2 = n2, n1
	}
	width := limit + 1
	// ways[c*width+s]: number of choices of c values with 2U = s; reach[c]
	// is the largest s with a non-zero count.
	ways := make([]float64, (n1+1)*width)
	next := make([]float64, len(ways))
	reach := make([]int, n1+1)
	nextReach := make([]int, n1+1)
	for c := range reach {
		reach[c] = -1
	}
	ways[0], reach[0] = 1, 0
	start := 0
	for _, t := range groups {
		clear(next)
		for c := range nextReach {
			nextReach[c] = -1
		}
		for c := 0; c <= n1 && c <= start; c++ {
			row := ways[c*width : c*width+reach[c]+1]
			for s, w := range row {
				if w == 0 {
					continue
				}
				for r := 0; r <= t && c+r <= n1; r++ {
					s2 := s + r*(2*(start-c)+t-r)
					if s2 > limit {
						continue
					}
					next[(c+r)*width+s2] += w * choose64(t, r)
					nextReach[c+r] = max(nextReach[c+r], s2)
				}
			}
		}
		ways, next = next, ways
		reach, nextReach = nextReach, reach
		start += t
	}
	count := 0.0
	for _, w := range ways[n1*width:] {
		count += w
	}
	return count / choose64(total, n1)
}

// choose64 returns C(n, k) as a float64 computed by multiplication, exact as
// long as the result fits the 53-bit mantissa and within rounding otherwise.
func choose64(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}

// MinUTestP returns the smallest two-sided p-value the U test can give for two
// samples of n values each: 2 / C(2n, n).
func MinUTestP(n int) float64 {
	if n <= 0 {
		return 1
	}
	return min(1, 2/choose64(2*n, n))
}

// MinSamplesForAlpha returns the smallest n for which two samples of n values
// each can reach p ≤ alpha (4 at α = 0.05).
func MinSamplesForAlpha(alpha float64) int {
	for n := 1; ; n++ {
		if MinUTestP(n) <= alpha || n >= 1000 {
			return n
		}
	}
}
