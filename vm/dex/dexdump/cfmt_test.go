package dexdump

import (
	"math"
	"testing"
)

// The expectations are glibc printf("%g") outputs.
func TestFormatG(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "-0"},
		{1, "1"},
		{-1.5, "-1.5"},
		{3.14159265, "3.14159"},
		{46.47, "46.47"},
		{100000, "100000"},
		{1e6, "1e+06"},
		{123456789, "1.23457e+08"},
		{0.0001, "0.0001"},
		{0.00001, "1e-05"},
		{0.000123456789, "0.000123457"},
		{math.MaxFloat64, "1.79769e+308"},
		{4.9406564584124654e-324, "4.94066e-324"},
		{float64(math.MaxFloat32), "3.40282e+38"},
		{float64(math.SmallestNonzeroFloat32), "1.4013e-45"},
		{999999.5, "1e+06"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
		{math.NaN(), "nan"},
		{math.Copysign(math.NaN(), -1), "-nan"},
	} {
		if got := formatG(c.in); got != c.want {
			t.Errorf("formatG(%v) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := formatG32(0xffc00000); got != "-nan" {
		t.Errorf("formatG32(0xffc00000) = %q, want -nan", got)
	}
}
