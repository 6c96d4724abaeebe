package stats

import "math"

// DefaultConfidence is the confidence level of the intervals droidprof
// reports, as benchstat's.
const DefaultConfidence = 0.95

// OrderCI is a distribution-free confidence interval for a quantile, bounded
// by two order statistics of the sample.
type OrderCI struct {
	N        int     // sample size
	Quantile float64 // the quantile the interval is for, e.g. 0.5
	// Confidence is the coverage the interval actually has; it is at least
	// the requested level.
	Confidence float64
	// Lo and Hi are 1-based order statistics: the interval is
	// [x(Lo), x(Hi)] of the sorted sample. Lo < 1 means the lower bound is
	// −∞ and Hi > N that the upper bound is +∞ (the sample is too small).
	Lo, Hi int
}

// Finite reports whether both bounds fall inside the sample.
func (ci OrderCI) Finite() bool { return ci.Lo >= 1 && ci.Hi <= ci.N }

// Bounds returns the interval's bounds for a sorted sample of size ci.N.
func (ci OrderCI) Bounds(sortedXs []float64) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if ci.Lo >= 1 && ci.Lo <= len(sortedXs) {
		lo = sortedXs[ci.Lo-1]
	}
	if ci.Hi >= 1 && ci.Hi <= len(sortedXs) {
		hi = sortedXs[ci.Hi-1]
	}
	return lo, hi
}

// ciNormalThreshold is the sample size above which QuantileCI uses the
// normal approximation of the binomial distribution, as benchmath does.
const ciNormalThreshold = 30

// QuantileCI returns the order statistics bounding a confidence interval for
// the q-quantile of a sample of size n at the given confidence level, the way
// benchmath (github.com/aclements/go-moremath/stats.QuantileCI) computes it.
//
// The number of sample values below the population quantile follows the
// binomial distribution B(n, q). For n ≤ 30 the interval grows outwards from
// the distribution's (lower) mode, always taking the more probable neighbour
// and the left one on a tie, until the covered probability reaches the
// confidence level. Above 30 it uses the normal approximation with continuity
// correction, and takes a one-step left-shifted interval if that still has
// enough coverage.
func QuantileCI(n int, q, confidence float64) OrderCI {
	ci := OrderCI{N: n, Quantile: q}
	if confidence >= 1 {
		ci.Confidence, ci.Lo, ci.Hi = 1, 0, n+1
		return ci
	}
	var l, r int // the interval of binomial outcomes [l, r)
	if n <= ciNormalThreshold {
		pmf := func(k int) float64 { return binomialPMF(n, k, q) }
		mode := int(math.Ceil(float64(n+1)*q) - 1)
		if q == 0 {
			mode = 0
		}
		l, r = mode, mode+1
		covered := pmf(mode)
		left, right := pmf(l-1), pmf(r)
		for covered < confidence && (left > 0 || right > 0) {
			if left >= right {
				covered += left
				l--
				left = pmf(l - 1)
			} else {
				covered += right
				r++
				right = pmf(r)
			}
		}
		ci.Confidence = covered
	} else {
		mu := float64(n) * q
		sigma := math.Sqrt(float64(n) * q * (1 - q))
		lowTail := (1 - confidence) / 2
		l1 := normalInvCDF(mu, sigma, lowTail)
		r1 := 2*mu - l1
		// Outcome k covers [k−0.5, k+0.5] of the normal distribution;
		// round [l1, r1] outwards to such bands.
		l = int(math.Floor(l1-0.5)) + 1
		r = int(math.Ceil(r1-0.5)) + 1
		coverage := func(l, r int) float64 {
			return normalCDF(mu, sigma, float64(r)-0.5) - normalCDF(mu, sigma, float64(l)-0.5)
		}
		ci.Confidence = coverage(l, r)
		if c := coverage(l, r-1); c >= confidence && c < ci.Confidence {
			ci.Confidence = c
			r--
		}
		if l <= 0 && r >= n+1 {
			ci.Confidence = 1
		}
	}
	ci.Lo, ci.Hi = max(l, 0), min(r, n+1)
	return ci
}

// MedianCI is QuantileCI(n, 0.5, confidence).
func MedianCI(n int, confidence float64) OrderCI {
	return QuantileCI(n, 0.5, confidence)
}

// MinSamplesForCI returns the smallest sample size whose median confidence
// interval at the given level is finite (6 at 95 %), or 0 if none up to 50
// is.
func MinSamplesForCI(confidence float64) int {
	for n := 2; n <= 50; n++ {
		if MedianCI(n, confidence).Finite() {
			return n
		}
	}
	return 0
}

// binomialPMF is the probability of exactly k successes in n trials with
// success probability p.
func binomialPMF(n, k int, p float64) float64 {
	if k < 0 || k > n {
		return 0
	}
	return choose(n, k) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
}

// choose returns the binomial coefficient C(n, k): exact for n ≤ 20 (it fits
// in an int64), else through the log-gamma function.
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	if k == 0 || k == n {
		return 1
	}
	if n <= 20 {
		c := int64(1)
		for i := 1; i <= k; i++ {
			c = c * int64(n-k+i) / int64(i) // exact: C(n-k+i, i) at each step
		}
		return float64(c)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(a - b - c)
}

// normalCDF is the cumulative distribution function of N(mu, sigma²).
func normalCDF(mu, sigma, x float64) float64 {
	return math.Erfc(-(x-mu)/(sigma*math.Sqrt2)) / 2
}

// normalInvCDF is the inverse of normalCDF.
func normalInvCDF(mu, sigma, p float64) float64 {
	return mu - sigma*math.Sqrt2*math.Erfcinv(2*p)
}
