package fdlibm

import "math"

// Constants of Cbrt: the integer cube-root guesses of the upper word
// (B1 for normal, B2 for subnormal arguments scaled by 2^54) and the
// rational step that takes the guess to 23 bits.
const (
	cbrtB1 = 715094163 // (682 - 0.03306235651)·2^20
	cbrtB2 = 696219795 // (664 - 0.03306235651)·2^20
	cbrtC  = 0x1.15f15f15f15f1p-1
	cbrtD  = -0x1.691de2532c834p-1
	cbrtE  = 0x1.6a0ea0ea0ea0fp0
	cbrtF  = 0x1.9b6db6db6db6ep0
	cbrtG  = 0x1.6db6db6db6db7p-2
)

// Cbrt returns the cube root of x as StrictMath.cbrt does.
func Cbrt(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	sign := 1.0
	if x < 0 {
		sign = -1
	}
	x = math.Abs(x)

	var t float64
	if x < 0x1p-1022 {
		t = 0x1p54 * x
		t = withHi(t, hi(t)/3+cbrtB2)
	} else {
		t = fromWords(hi(x)/3+cbrtB1, 0)
	}

	r := float64(t*t) / x
	s := cbrtC + float64(r*t)
	t *= cbrtG + cbrtF/(s+cbrtE+cbrtD/s)

	// Chop to 20 bits and round up, so t exceeds the cube root.
	t = trunc32(t)
	t = withHi(t, hi(t)+1)

	// One Newton step to 53 bits.
	s = t * t // exact
	r = x / s
	w := t + t
	r = (r - t) / (w + r)
	t += float64(t * r)
	return sign * t
}
