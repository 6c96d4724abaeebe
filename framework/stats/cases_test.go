package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// The oracle cases: sample sets checked against golang.org/x/perf/benchmath
// (oracle_test.go, build tag benchmath_oracle) and, through the golden file
// that test writes, in every test run (golden_test.go).

type oracleSummaryCase struct {
	Name string    `json:"name"`
	Xs   []float64 `json:"xs"`
}

type oracleCompareCase struct {
	Name string    `json:"name"`
	Old  []float64 `json:"old"`
	New  []float64 `json:"new"`
}

// oracleCases returns the deterministic set of sample sets to check.
func oracleCases() (sums []oracleSummaryCase, cmps []oracleCompareCase) {
	rng := rand.New(rand.NewPCG(2026, 9))
	round := func(x float64, digits int) float64 {
		p := math.Pow(10, float64(digits))
		return math.Round(x*p) / p
	}
	normal := func(n int, mu, sigma float64, digits int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = round(mu+sigma*rng.NormFloat64(), digits)
		}
		return xs
	}
	ints := func(n, lo, hi int) []float64 { // many ties
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(lo + rng.IntN(hi-lo+1))
		}
		return xs
	}
	seq := func(n int, start, step float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = start + float64(i)*step
		}
		return xs
	}

	// Hand-made sets.
	hand := []oracleCompareCase{
		{"identical-6", []float64{10, 11, 12, 13, 14, 15}, []float64{10, 11, 12, 13, 14, 15}},
		{"separated-6-20pct", []float64{100, 101, 102, 99, 98, 100.5}, []float64{120, 121, 122, 119, 118, 120.5}},
		{"separated-3", []float64{1, 2, 3}, []float64{4, 5, 6}},
		{"separated-4", []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}},
		{"separated-5", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}},
		{"faster-10pct-3", []float64{100, 101, 102}, []float64{90, 90.9, 91.8}},
		{"faster-10pct-5", []float64{100, 101, 102, 103, 104}, []float64{90, 90.9, 91.8, 92.7, 93.6}},
		{"all-equal", []float64{5, 5, 5, 5, 5, 5}, []float64{5, 5, 5, 5, 5, 5}},
		{"constant-vs-constant", []float64{5, 5, 5, 5, 5, 5}, []float64{6, 6, 6, 6, 6, 6}},
		{"ties-across", []float64{1, 2, 2, 3, 3, 3}, []float64{2, 3, 3, 4, 4, 5}},
		{"ties-heavy", []float64{1, 1, 1, 2, 2, 2, 2}, []float64{1, 2, 2, 2, 2, 2, 3, 3}},
		{"unequal-5-6", []float64{10, 12, 11, 13, 14}, []float64{20, 21, 22, 19, 23, 24}},
		{"unequal-3-20", []float64{1, 2, 3}, seq(20, 2.5, 0.5)},
		{"interleaved-10", seq(10, 0, 2), seq(10, 1, 2)},
		{"negative", []float64{-5, -4, -3, -2, -1, -6}, []float64{-3, -2, -1, 0, 1, 2}},
		{"with-zero-median", []float64{-1, 0, 0, 0, 1, 2}, []float64{0, 0, 0, 0, 0, 1}},
		{"outlier", []float64{10, 10.1, 10.2, 9.9, 9.8, 100}, []float64{10, 10.1, 10.2, 9.9, 9.8, 10}},
		{"large-no-ties-60", seq(60, 0, 1.5), seq(60, 3, 1.5)},
		{"large-ties-30", append(seq(15, 0, 1), seq(15, 0, 1)...), append(seq(15, 2, 1), seq(15, 2, 1)...)},
		{"large-ties-40-vs-30", ints(40, 0, 9), ints(30, 1, 10)},
		// Ties make U asymmetric: benchmath's 2·P(U ≤ Usmall) exceeds 1.
		{"ties-p-above-1", []float64{1}, []float64{1, 2}},
		{"ties-p-above-1-b", []float64{1, 1, 1, 2, 3}, []float64{1, 1, 1, 2, 2, 4}},
	}
	cmps = append(cmps, hand...)

	// Random sets, n = 3..20 for each side.
	for i := 0; i < 300; i++ {
		n1, n2 := 3+rng.IntN(18), 3+rng.IntN(18)
		if i%3 == 0 {
			n2 = n1
		}
		var a, b []float64
		switch i % 4 {
		case 0: // continuous, same distribution
			a, b = normal(n1, 100, 5, 3), normal(n2, 100, 5, 3)
		case 1: // continuous, shifted
			a, b = normal(n1, 100, 5, 3), normal(n2, 100+float64(rng.IntN(15)), 5, 3)
		case 2: // coarse values: ties within and across samples
			a, b = ints(n1, 0, 6), ints(n2, rng.IntN(3), 6+rng.IntN(3))
		case 3: // rounded to 1 digit: occasional ties
			a, b = normal(n1, 50, 2, 1), normal(n2, 50+rng.Float64()*3, 2, 1)
		}
		cmps = append(cmps, oracleCompareCase{Name: fmt.Sprintf("random-%03d-n%d+%d", i, n1, n2), Old: a, New: b})
	}
	// Larger random sets exercise the normal approximations.
	for i, n := range []int{21, 26, 30, 31, 35, 40, 51, 64, 100} {
		cmps = append(cmps,
			oracleCompareCase{Name: "big-cont-" + strconv.Itoa(n), Old: normal(n, 10, 1, 6), New: normal(n+i%3, 10.3, 1, 6)},
			oracleCompareCase{Name: "big-ties-" + strconv.Itoa(n), Old: ints(n, 0, 20), New: ints(n-i%2, 1, 21)})
	}

	// Every compared sample is also a summary case; add more sizes.
	for _, c := range cmps {
		sums = append(sums, oracleSummaryCase{c.Name + "/old", c.Old}, oracleSummaryCase{c.Name + "/new", c.New})
	}
	for n := 1; n <= 120; n++ {
		sums = append(sums, oracleSummaryCase{Name: "size-" + strconv.Itoa(n), Xs: normal(n, 1000, 30, 2)})
	}
	return sums, cmps
}

// fstr renders a float exactly, including infinities, for the golden file.
func fstr(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
