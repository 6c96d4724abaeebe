package stats

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestDescriptive(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name                                string
		xs                                  []float64
		min, max, mean, median, sd, geomean float64
	}{
		{"empty", nil, nan, nan, nan, nan, 0, nan},
		{"one", []float64{4}, 4, 4, 4, 4, 0, 4},
		{"odd", []float64{3, 1, 2}, 1, 3, 2, 2, 1, math.Cbrt(6)},
		{"even", []float64{4, 1, 3, 2}, 1, 4, 2.5, 2.5, math.Sqrt(5.0 / 3), math.Pow(24, 0.25)},
		{"non-positive geomean", []float64{-1, 1, 2}, -1, 2, 2.0 / 3, 1, math.Sqrt(7.0 / 3), nan},
		{"constant", []float64{7, 7, 7, 7}, 7, 7, 7, 7, 0, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.xs)
			for _, c := range []struct {
				what      string
				got, want float64
			}{
				{"Min", Min(tt.xs), tt.min},
				{"Max", Max(tt.xs), tt.max},
				{"Mean", Mean(tt.xs), tt.mean},
				{"Median", Median(tt.xs), tt.median},
				{"StdDev", StdDev(tt.xs), tt.sd},
				{"GeoMean", GeoMean(tt.xs), tt.geomean},
			} {
				if !closeTo(c.got, c.want) {
					t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
				}
			}
			if !slices.Equal(in, tt.xs) {
				t.Errorf("input modified: %v", tt.xs)
			}
		})
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3} // sorted 1..5
	tests := []struct {
		q, want float64
	}{
		{0, 1}, {1, 5}, {-1, 1}, {2, 5}, {0.5, 3},
		// Definition 8: position (5+1/3)·q + 1/3.
		{0.25, 1 + (1/3.0 + 0.25*(5+1/3.0) - 1)},
		{0.75, 4 + (1/3.0 + 0.75*(5+1/3.0) - 4)},
		{0.9, 5},
		{0.01, 1},
	}
	for _, tt := range tests {
		if got := Quantile(xs, tt.q); !closeTo(got, tt.want) {
			t.Errorf("Quantile(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("Quantile of empty sample is not NaN")
	}
}

func TestMedianCI(t *testing.T) {
	tests := []struct {
		n      int
		lo, hi int
		finite bool
	}{
		{1, 0, 2, false},
		{3, 0, 4, false},
		{5, 0, 5, false}, // lower bound −∞
		{6, 1, 6, true},  // min … max
		{10, 2, 9, true},
		{20, 6, 15, true},
	}
	for _, tt := range tests {
		ci := MedianCI(tt.n, 0.95)
		if ci.Lo != tt.lo || ci.Hi != tt.hi || ci.Finite() != tt.finite {
			t.Errorf("MedianCI(%d) = [%d, %d] finite %v, want [%d, %d] %v", tt.n, ci.Lo, ci.Hi, ci.Finite(), tt.lo, tt.hi, tt.finite)
		}
		if ci.Confidence < 0.95 && tt.finite {
			t.Errorf("MedianCI(%d) confidence %v < 0.95", tt.n, ci.Confidence)
		}
	}
	if got := MinSamplesForCI(0.95); got != 6 {
		t.Errorf("MinSamplesForCI(0.95) = %d, want 6", got)
	}
	if ci := QuantileCI(10, 0.5, 1); ci.Lo != 0 || ci.Hi != 11 || ci.Confidence != 1 {
		t.Errorf("QuantileCI at confidence 1 = %+v", ci)
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name     string
		xs       []float64
		median   float64
		ci       string
		warnings int
	}{
		{"n=6 min..max", []float64{100, 95, 105, 101, 99, 100}, 100, "5%", 0},
		{"n=5 infinite", []float64{1, 2, 3, 4, 5}, 3, "∞", 1},
		{"n=3 infinite", []float64{1, 2, 3}, 2, "∞", 1},
		{"zero", []float64{0, 0, 0, 0, 0, 0}, 0, "0%", 0},
		{"sign change", []float64{-1, 0, 0, 0, 1, 2}, 0, "?", 0},
		{"empty", nil, math.NaN(), "∞", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(tt.xs, 0)
			if !closeTo(s.Median, tt.median) || s.CIString() != tt.ci || len(s.Warnings) != tt.warnings {
				t.Errorf("Summarize = median %v CI %q warnings %q, want %v %q %d", s.Median, s.CIString(), s.Warnings, tt.median, tt.ci, tt.warnings)
			}
		})
	}
	s := Summarize([]float64{1, 2, 3, 4, 5}, 0.95)
	if want := "need >= 6 samples for confidence interval at level 0.95"; s.Warnings[0] != want {
		t.Errorf("warning %q, want %q", s.Warnings[0], want)
	}
}

func TestMannWhitneyU(t *testing.T) {
	seq := func(n int, start float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = start + float64(i)
		}
		return xs
	}
	tests := []struct {
		name   string
		x1, x2 []float64
		u, p   float64
		exact  bool
		err    error
	}{
		{"separated 3", seq(3, 0), seq(3, 10), 0, 0.1, true, nil},
		{"separated 4", seq(4, 10), seq(4, 0), 16, 2.0 / 70, true, nil},
		{"separated 6", seq(6, 0), seq(6, 10), 0, 2.0 / 924, true, nil},
		{"identical", seq(6, 0), seq(6, 0), 18, 1, true, nil},
		// 1,2,2 vs 2,3,3: each 2 of x1 ties one 2 of x2, so U1 = 2·0.5;
		// 6 of the 20 assignments have U1 ≤ 1.
		{"ties", []float64{1, 2, 2}, []float64{2, 3, 3}, 1, 0.3, true, nil},
		{"all equal", []float64{1, 1, 1}, []float64{1, 1}, 3, 0, true, ErrSamplesEqual},
		// benchmath gives 2·P(U ≤ 0.5) = 4/3 here.
		{"p capped", []float64{1}, []float64{1, 2}, 0.5, 1, true, nil},
		{"empty", nil, []float64{1}, 0, 0, false, ErrSampleSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := MannWhitneyU(tt.x1, tt.x2)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if r.U != tt.u || !closeTo(r.P, tt.p) || r.Exact != tt.exact {
				t.Errorf("U = %v P = %v exact %v, want %v %v %v", r.U, r.P, r.Exact, tt.u, tt.p, tt.exact)
			}
		})
	}
}

// TestUExactAgainstEnumeration checks the exact distribution with ties
// against brute-force enumeration of all assignments.
func TestUExactAgainstEnumeration(t *testing.T) {
	tests := []struct{ x1, x2 []float64 }{
		{[]float64{1, 2, 2, 3}, []float64{2, 3, 3, 4, 5}},
		{[]float64{1, 2, 2}, []float64{2, 3, 3}},
		{[]float64{1, 1, 1, 2}, []float64{1, 2, 2, 2}},
		{[]float64{0, 1, 2, 3, 4}, []float64{2.5, 5, 6}},
		{[]float64{1, 1, 2, 2, 3, 3}, []float64{1, 2, 3, 4, 4, 4}},
	}
	for _, tt := range tests {
		r, err := MannWhitneyU(tt.x1, tt.x2)
		if err != nil {
			t.Fatal(err)
		}
		all := append(slices.Clone(tt.x1), tt.x2...)
		n1, n := len(tt.x1), len(all)
		u1 := func(pick []bool) float64 {
			u := 0.0
			for i := range n {
				for j := range n {
					if pick[i] && !pick[j] {
						switch {
						case all[i] > all[j]:
							u++
						case all[i] == all[j]:
							u += 0.5
						}
					}
				}
			}
			return u
		}
		usmall := math.Min(r.U, float64(n1*len(tt.x2))-r.U)
		var le, total float64
		for mask := 0; mask < 1<<n; mask++ {
			pick := make([]bool, n)
			c := 0
			for i := range n {
				if mask&(1<<i) != 0 {
					pick[i] = true
					c++
				}
			}
			if c != n1 {
				continue
			}
			total++
			if u1(pick) <= usmall {
				le++
			}
		}
		if want := math.Min(1, 2*le/total); !closeTo(r.P, want) { // the p-value is capped at 1
			t.Errorf("%v vs %v: p = %v, enumeration %v", tt.x1, tt.x2, r.P, want)
		}
	}
}

func TestCompareSamples(t *testing.T) {
	old3 := []float64{100, 101, 102}
	new3 := []float64{90, 90.9, 91.8}
	old5 := []float64{100, 101, 102, 103, 104}
	new5 := []float64{90, 90.9, 91.8, 92.7, 93.6}
	tests := []struct {
		name       string
		old, new   []float64
		delta, str string
		warnings   int
	}{
		// Like the examples of shared/reference/plugin-host.md §5: 10 %
		// faster in every sample is not significant with n=3.
		{"10% faster n=3", old3, new3, "~", "p=0.100 n=3", 1},
		{"10% faster n=5", old5, new5, "-10.00%", "p=0.008 n=5", 0},
		{"unequal", old3, new5, "-9.11%", "p=0.036 n=3+5", 0},
		{"equal", []float64{1, 1, 1}, []float64{1, 1, 1}, "~", "p=1.000 n=3", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CompareSamples(tt.old, tt.new, 0)
			if got := c.FormatDelta(Median(tt.old), Median(tt.new)); got != tt.delta {
				t.Errorf("delta %q, want %q", got, tt.delta)
			}
			if got := c.String(); got != tt.str {
				t.Errorf("note %q, want %q", got, tt.str)
			}
			if len(c.Warnings) != tt.warnings {
				t.Errorf("warnings %q, want %d", c.Warnings, tt.warnings)
			}
		})
	}
	if got := MinSamplesForAlpha(0.05); got != 4 {
		t.Errorf("MinSamplesForAlpha(0.05) = %d, want 4", got)
	}
	if got := MinUTestP(6); !closeTo(got, 0.0021645021645021645) {
		t.Errorf("MinUTestP(6) = %v", got)
	}
}

// TestOutliers uses the cases of hyperfine's own outlier test.
func TestOutliers(t *testing.T) {
	normal := []float64{2.33269488, 1.42195907, -0.57527698, -0.31293437, 2.2948158,
		0.75813273, -1.0712388, -0.96394741, -1.15897446, 1.10976285}
	tests := []struct {
		name string
		xs   []float64
		want []int
	}{
		{"empty", nil, nil},
		{"one", []float64{50}, nil},
		{"two", []float64{1000, 0}, nil},
		{"low variance", []float64{-0.2, 0, 0.2}, nil},
		{"single", []float64{-0.2, 0, 0.2, 4}, []int{3}},
		{"single 2", []float64{0.5, 0.30, 0.29, 0.31, 0.30}, []int{0}},
		{"normal", normal, nil},
		{"two added", append(slices.Clone(normal), 20, -500), []int{10, 11}},
		{"mad 0", []float64{10, 10, 10, 10, 10, 10, 10, 100}, []int{7}},
		{"mad 0 twice", []float64{10, 10, 10, 10, 10, 10, 10, 100, 100}, []int{7, 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Outliers(tt.xs); !slices.Equal(got, tt.want) {
				t.Errorf("Outliers = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSlowFirst(t *testing.T) {
	tests := []struct {
		xs   []float64
		sign int
		want bool
	}{
		{[]float64{50, 10, 10.1, 9.9, 10, 10.2}, 1, true},
		{[]float64{50, 10, 10.1, 9.9, 10, 10.2}, -1, false},
		{[]float64{1, 10, 10.1, 9.9, 10, 10.2}, -1, true},
		{[]float64{1, 10, 10.1, 9.9, 10, 10.2}, 0, true},
		{[]float64{10, 10.1, 9.9, 10, 50}, 1, false},
		{[]float64{10}, 0, false},
	}
	for _, tt := range tests {
		if got := SlowFirst(tt.xs, tt.sign); got != tt.want {
			t.Errorf("SlowFirst(%v, %d) = %v, want %v", tt.xs, tt.sign, got, tt.want)
		}
	}
}
