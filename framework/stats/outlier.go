package stats

import "math"

// OutlierThreshold is hyperfine's limit for the modified Z-score: a value
// whose distance from the median exceeds 10 robust standard deviations
// (1.4826·MAD estimates σ for normal data) is an outlier.
const OutlierThreshold = 1.4826 * 10

// MAD returns the median absolute deviation from the median of xs (unscaled),
// or NaN if xs is empty.
func MAD(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m := Median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	return Median(dev)
}

// ModifiedZScores returns (x − median)/MAD for every value, in input order,
// as hyperfine computes them: a MAD of 0 is replaced by the machine epsilon,
// so that any value off a constant majority scores as an outlier.
func ModifiedZScores(xs []float64) []float64 {
	if len(xs) == 0 {
		return nil
	}
	m := Median(xs)
	mad := MAD(xs)
	if !(mad > 0) {
		mad = epsilon
	}
	z := make([]float64, len(xs))
	for i, x := range xs {
		z[i] = (x - m) / mad
	}
	return z
}

// epsilon is the difference between 1 and the next float64.
const epsilon = 2.220446049250313e-16

// Outliers returns the indexes (in input order) of the values whose modified
// Z-score exceeds OutlierThreshold in absolute value.
func Outliers(xs []float64) []int {
	var idx []int
	for i, z := range ModifiedZScores(xs) {
		if math.Abs(z) > OutlierThreshold {
			idx = append(idx, i)
		}
	}
	return idx
}

// SlowFirst reports whether the first value is an outlier in the given
// direction: sign > 0 checks for an unusually large first value (a slow first
// run of a time), sign < 0 for an unusually small one (a low first
// throughput), sign == 0 for either. This is hyperfine's "first benchmarking
// run was significantly slower" check, generalized to metrics where higher
// is better.
func SlowFirst(xs []float64, sign int) bool {
	if len(xs) < 2 {
		return false
	}
	z := ModifiedZScores(xs)[0]
	switch {
	case sign > 0:
		return z > OutlierThreshold
	case sign < 0:
		return -z > OutlierThreshold
	default:
		return math.Abs(z) > OutlierThreshold
	}
}
