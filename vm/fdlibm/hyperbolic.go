package fdlibm

import "math"

// Sinh returns the hyperbolic sine of x as StrictMath.sinh does.
func Sinh(x float64) float64 {
	jx := hi(x)
	ix := jx & 0x7fffffff
	if ix >= 0x7ff00000 {
		return x + x
	}
	h := 0.5
	if jx < 0 {
		h = -h
	}
	if ix < 0x40360000 { // |x| < 22: from expm1, exact near 0
		if ix < 0x3e300000 { // |x| < 2^-28
			return x
		}
		t := Expm1(math.Abs(x))
		if ix < 0x3ff00000 {
			return h * (float64(2*t) - float64(t*t)/(t+1))
		}
		return h * (t + t/(t+1))
	}
	if ix < 0x40862e42 { // |x| < log(MaxFloat64)
		return h * Exp(math.Abs(x))
	}
	if ix < 0x408633ce || ix == 0x408633ce && lo(x) <= 0x8fb9f87d {
		// exp(|x|) overflows but its half does not: square exp(|x|/2).
		w := Exp(0.5 * math.Abs(x))
		t := h * w
		return t * w
	}
	return x * 1e307 // overflow
}

// Cosh returns the hyperbolic cosine of x as StrictMath.cosh does.
func Cosh(x float64) float64 {
	ix := absHi(x)
	if ix >= 0x7ff00000 {
		return x * x
	}
	if ix < 0x3fd62e43 { // |x| < ln2/2
		t := Expm1(math.Abs(x))
		w := 1 + t
		if ix < 0x3c800000 { // |x| < 2^-55
			return w
		}
		return 1 + float64(t*t)/(w+w)
	}
	if ix < 0x40360000 { // |x| < 22
		t := Exp(math.Abs(x))
		return float64(0.5*t) + 0.5/t
	}
	if ix < 0x40862e42 {
		return 0.5 * Exp(math.Abs(x))
	}
	if ix < 0x408633ce || ix == 0x408633ce && lo(x) <= 0x8fb9f87d {
		w := Exp(0.5 * math.Abs(x))
		t := 0.5 * w
		return t * w
	}
	return math.Inf(1)
}

// Tanh returns the hyperbolic tangent of x as StrictMath.tanh does.
func Tanh(x float64) float64 {
	jx := hi(x)
	ix := jx & 0x7fffffff
	if ix >= 0x7ff00000 {
		if jx >= 0 {
			return 1/x + 1
		}
		return 1/x - 1
	}
	var z float64
	switch {
	case ix >= 0x40360000: // |x| ≥ 22
		z = 1
	case ix < 0x3c800000: // |x| < 2^-55
		return x * (1 + x)
	case ix >= 0x3ff00000: // |x| ≥ 1
		t := Expm1(2 * math.Abs(x))
		z = 1 - 2/(t+2)
	default:
		t := Expm1(-2 * math.Abs(x))
		z = -t / (t + 2)
	}
	if jx < 0 {
		return -z
	}
	return z
}
