package fdlibm

import "math"

// ln2 split so that k·ln2Hi is exact for |k| < 2000, and 1/ln2.
const (
	ln2Hi  = 0x1.62e42feep-1
	ln2Lo  = 0x1.a39ef35793c76p-33
	invLn2 = 0x1.71547652b82fep0
)

// Coefficients of exp's rational approximation on [0, ln2/2] (error below
// 2^-59), shared with the last step of Pow.
const (
	expP1 = 0x1.555555555553ep-3
	expP2 = -0x1.6c16c16bebd93p-9
	expP3 = 0x1.1566aaf25de2cp-14
	expP4 = -0x1.bbd41c5d26bf1p-20
	expP5 = 0x1.6376972bea4d0p-25
)

const (
	expOverflow  = 0x1.62e42fefa39efp9  // above it exp(x) overflows
	expUnderflow = -0x1.74910d52d3051p9 // below it exp(x) underflows to 0
)

// Exp returns e**x as StrictMath.exp does.
func Exp(x float64) float64 {
	hx := hi(x)
	neg := hx < 0
	hx &= 0x7fffffff
	if hx >= 0x40862e42 { // |x| ≥ 709.78
		if hx >= 0x7ff00000 {
			if math.IsNaN(x) {
				return x + x
			}
			if neg {
				return 0
			}
			return x
		}
		if x > expOverflow {
			return math.Inf(1)
		}
		if x < expUnderflow {
			return 0
		}
	}

	// x = k·ln2 + (hi - lo), |hi - lo| ≤ ln2/2.
	var k int32
	var xhi, xlo float64
	switch {
	case hx > 0x3fd62e42: // |x| > ln2/2
		if hx < 0x3ff0a2b2 { // |x| < 1.5·ln2: k = ±1
			if neg {
				xhi, xlo, k = x+ln2Hi, -ln2Lo, -1
			} else {
				xhi, xlo, k = x-ln2Hi, ln2Lo, 1
			}
		} else {
			half := 0.5
			if neg {
				half = -0.5
			}
			k = int32(float64(invLn2*x) + half)
			t := float64(k)
			xhi = x - float64(t*ln2Hi)
			xlo = float64(t * ln2Lo)
		}
		x = xhi - xlo
	case hx < 0x3e300000: // |x| < 2^-28
		return 1 + x
	}

	t := x * x
	c := x - float64(t*(expP1+float64(t*(expP2+float64(t*(expP3+float64(t*(expP4+float64(t*expP5)))))))))
	if k == 0 {
		return 1 - (float64(x*c)/(c-2) - x)
	}
	y := 1 - ((xlo - float64(x*c)/(2-c)) - xhi)
	if k >= -1021 {
		return withHi(y, hi(y)+k<<20)
	}
	return withHi(y, hi(y)+(k+1000)<<20) * 0x1p-1000
}

// Scaled coefficients of expm1's rational approximation on [0, 0.347]
// (error below 2^-61).
const (
	expm1Q1 = -0x1.11111111110f4p-5
	expm1Q2 = 0x1.a01a019fe5585p-10
	expm1Q3 = -0x1.4ce199eaadbb7p-14
	expm1Q4 = 0x1.0cfca86e65239p-18
	expm1Q5 = -0x1.afdb76e09c32dp-23
)

// Expm1 returns e**x - 1 as StrictMath.expm1 does, accurate also when x
// is near 0.
func Expm1(x float64) float64 {
	hx := hi(x)
	neg := hx < 0
	hx &= 0x7fffffff

	if hx >= 0x4043687a { // |x| ≥ 56·ln2
		if hx >= 0x40862e42 { // |x| ≥ 709.78
			if hx >= 0x7ff00000 {
				if math.IsNaN(x) {
					return x + x
				}
				if neg {
					return -1
				}
				return x
			}
			if x > expOverflow {
				return math.Inf(1)
			}
		}
		if neg { // e**x is below half an ulp of 1
			return -1
		}
	}

	// x = k·ln2 + r, r = hi - lo rounded to x, c its rounding error.
	var k int32
	var c float64
	switch {
	case hx > 0x3fd62e42: // |x| > ln2/2
		var xhi, xlo float64
		if hx < 0x3ff0a2b2 { // |x| < 1.5·ln2
			if neg {
				xhi, xlo, k = x+ln2Hi, -ln2Lo, -1
			} else {
				xhi, xlo, k = x-ln2Hi, ln2Lo, 1
			}
		} else {
			half := 0.5
			if neg {
				half = -0.5
			}
			k = int32(float64(invLn2*x) + half)
			t := float64(k)
			xhi = x - float64(t*ln2Hi)
			xlo = float64(t * ln2Lo)
		}
		x = xhi - xlo
		c = (xhi - x) - xlo
	case hx < 0x3c900000: // |x| < 2^-54
		return x
	}

	hfx := 0.5 * x
	hxs := float64(x * hfx)
	r1 := 1 + float64(hxs*(expm1Q1+float64(hxs*(expm1Q2+float64(hxs*(expm1Q3+float64(hxs*(expm1Q4+float64(hxs*expm1Q5)))))))))
	t := 3 - float64(r1*hfx)
	e := float64(hxs * ((r1 - t) / (6 - float64(x*t))))
	if k == 0 {
		return x - (float64(x*e) - hxs)
	}
	e = float64(x*(e-c)) - c
	e -= hxs
	switch {
	case k == -1:
		return float64(0.5*(x-e)) - 0.5
	case k == 1:
		if x < -0.25 {
			return -2 * (e - (x + 0.5))
		}
		return 1 + float64(2*(x-e))
	case k <= -2 || k > 56:
		y := 1 - (e - x)
		return withHi(y, hi(y)+k<<20) - 1
	case k < 20:
		t := fromWords(0x3ff00000-0x200000>>k, 0) // 1 - 2^-k
		y := t - (e - x)
		return withHi(y, hi(y)+k<<20)
	default:
		t := fromWords((0x3ff-k)<<20, 0) // 2^-k
		y := x - (e + t)
		y++
		return withHi(y, hi(y)+k<<20)
	}
}

// Coefficients of log's approximation of (log(1+f) - 2s)/s in s² on
// [0, 0.1716], s = f/(2+f) (error below 2^-58.45); log1p uses the same.
const (
	logLg1 = 0x1.5555555555593p-1
	logLg2 = 0x1.999999997fa04p-2
	logLg3 = 0x1.2492494229359p-2
	logLg4 = 0x1.c71c51d8e78afp-3
	logLg5 = 0x1.7466496cb03dep-3
	logLg6 = 0x1.39a09d078c69fp-3
	logLg7 = 0x1.2f112df3e5244p-3
)

// Log returns the natural logarithm of x as StrictMath.log does.
func Log(x float64) float64 {
	hx := hi(x)
	var k int32
	if hx < 0x00100000 { // x < 2^-1022
		if hx&0x7fffffff == 0 && lo(x) == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x *= 0x1p54 // subnormal: scale up
		hx = hi(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += hx>>20 - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	x = withHi(x, hx|(i^0x3ff00000)) // x or x/2 in [sqrt(2)/2, sqrt(2)]
	k += i >> 20
	f := x - 1
	dk := float64(k)
	if 0x000fffff&(2+hx) < 3 { // |f| < 2^-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			return float64(dk*ln2Hi) + float64(dk*ln2Lo)
		}
		r := float64(float64(f*f) * (0.5 - float64(0.33333333333333333*f)))
		if k == 0 {
			return f - r
		}
		return float64(dk*ln2Hi) - ((r - float64(dk*ln2Lo)) - f)
	}
	s := f / (2 + f)
	z := s * s
	w := z * z
	t1 := float64(w * (logLg2 + float64(w*(logLg4+float64(w*logLg6)))))
	t2 := float64(z * (logLg1 + float64(w*(logLg3+float64(w*(logLg5+float64(w*logLg7)))))))
	r := t2 + t1
	if (hx-0x6147a)|(0x6b851-hx) > 0 { // f far from 0: finer splitting
		hfsq := float64(float64(0.5*f) * f)
		if k == 0 {
			return f - (hfsq - float64(s*(hfsq+r)))
		}
		return float64(dk*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(dk*ln2Lo))) - f)
	}
	if k == 0 {
		return f - float64(s*(f-r))
	}
	return float64(dk*ln2Hi) - ((float64(s*(f-r)) - float64(dk*ln2Lo)) - f)
}

// log10(2) in 40 leading bits and the rest, and 1/ln10.
const (
	invLn10  = 0x1.bcb7b1526e50ep-2
	log10_2H = 0x1.34413509f6p-2
	log10_2L = 0x1.9fef311f12b36p-42
)

// Log10 returns the base-10 logarithm of x as StrictMath.log10 does
// (exact for powers of ten).
func Log10(x float64) float64 {
	hx := hi(x)
	var k int32
	if hx < 0x00100000 {
		if hx&0x7fffffff == 0 && lo(x) == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x *= 0x1p54
		hx = hi(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += hx>>20 - 1023
	i := int32(uint32(k) >> 31) // 1 if k < 0
	hx = (hx & 0x000fffff) | (0x3ff-i)<<20
	y := float64(k + i)
	x = withHi(x, hx)
	z := float64(y*log10_2L) + float64(invLn10*Log(x))
	return z + float64(y*log10_2H)
}

// Log1p returns log(1+x) as StrictMath.log1p does, accurate also when x
// is near 0.
func Log1p(x float64) float64 {
	hx := hi(x)
	ax := hx & 0x7fffffff

	k := int32(1)
	var f, c float64
	var hu int32
	if hx < 0x3fda827a { // x < 0.41422
		if ax >= 0x3ff00000 { // x ≤ -1
			if x == -1 {
				return math.Inf(-1)
			}
			return math.NaN()
		}
		if ax < 0x3e200000 { // |x| < 2^-29
			if ax < 0x3c900000 { // |x| < 2^-54
				return x
			}
			return x - float64(float64(x*x)*0.5)
		}
		// -0.2929 < x < 0.41422 (0xbfd2bec3 is the upper word of -0.2929).
		if hx > 0 || hx <= -0x402d413d {
			k = 0
			f = x
			hu = 1
		}
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	if k != 0 {
		var u float64
		if hx < 0x43400000 {
			u = 1 + x
			hu = hi(u)
			k = hu>>20 - 1023
			if k > 0 { // rounding error of 1+x, relative to u
				c = 1 - (u - x)
			} else {
				c = x - (u - 1)
			}
			c /= u
		} else {
			u = x
			hu = hi(u)
			k = hu>>20 - 1023
			c = 0
		}
		hu &= 0x000fffff
		if hu < 0x6a09e {
			u = withHi(u, hu|0x3ff00000)
		} else {
			k++
			u = withHi(u, hu|0x3fe00000)
			hu = (0x00100000 - hu) >> 2
		}
		f = u - 1
	}
	hfsq := float64(float64(0.5*f) * f)
	dk := float64(k)
	if hu == 0 { // |f| < 2^-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			c += float64(dk * ln2Lo)
			return float64(dk*ln2Hi) + c
		}
		r := float64(hfsq * (1 - float64(0.66666666666666666*f)))
		if k == 0 {
			return f - r
		}
		return float64(dk*ln2Hi) - ((r - (float64(dk*ln2Lo) + c)) - f)
	}
	s := f / (2 + f)
	z := s * s
	r := float64(z * (logLg1 + float64(z*(logLg2+float64(z*(logLg3+float64(z*(logLg4+float64(z*(logLg5+float64(z*(logLg6+float64(z*logLg7)))))))))))))
	if k == 0 {
		return f - (hfsq - float64(s*(hfsq+r)))
	}
	return float64(dk*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + (float64(dk*ln2Lo) + c))) - f)
}
