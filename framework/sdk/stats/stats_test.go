package stats

import (
	"math"
	"testing"
)

func TestMedianInterval(t *testing.T) {
	for _, tc := range []struct {
		xs     []float64
		lo, hi float64
	}{
		// Bin(10, ½) puts 97.9 % between 2 and 8 values below the
		// median: the interval is [x(2), x(9)] of the sorted sample.
		{[]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 2, 9},
		{[]float64{3, 1, 2, 6, 5, 4}, 1, 6},
		{[]float64{1, 2, 3, 4, 5}, math.Inf(-1), 5}, // too few for a lower bound
		{nil, math.Inf(-1), math.Inf(1)},
	} {
		lo, hi := MedianInterval(tc.xs)
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("MedianInterval(%v) = [%v, %v], want [%v, %v]", tc.xs, lo, hi, tc.lo, tc.hi)
		}
	}
}
