package stats

import (
	"math"
	"testing"
)

func TestRankCorrelation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		xs, ys   []float64
		rho, tau float64
	}{
		// The textbook example (IQ against hours of TV per week, ten
		// people): ρ = −29/165; of its 45 pairs 20 are concordant and
		// 25 discordant, no ties: τ = −5/45.
		{"iq-tv", []float64{106, 86, 100, 101, 99, 103, 97, 113, 112, 110}, []float64{7, 0, 27, 50, 28, 29, 20, 12, 6, 17}, -29.0 / 165, -5.0 / 45},
		{"same order", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1, 1},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1, -1},
		// Ties: ranks of xs (1, 2.5, 2.5, 4); τ-b = (5−0)/√(5·6).
		{"ties", []float64{1, 2, 2, 3}, []float64{1, 2, 3, 4}, 0.9486832980505138, 5 / math.Sqrt(30)},
	} {
		if got := Spearman(tc.xs, tc.ys); math.Abs(got-tc.rho) > 1e-12 {
			t.Errorf("%s: Spearman %v, want %v", tc.name, got, tc.rho)
		}
		if got := KendallTau(tc.xs, tc.ys); math.Abs(got-tc.tau) > 1e-12 {
			t.Errorf("%s: Kendall %v, want %v", tc.name, got, tc.tau)
		}
	}
	if !math.IsNaN(Spearman([]float64{1, 1}, []float64{1, 2})) || !math.IsNaN(KendallTau([]float64{1}, []float64{1})) {
		t.Error("undefined correlations are not NaN")
	}
}
