package fdlibm

import "math"

// π/2 and π/4 as a double and the double's error, and π as a double.
const (
	pio2Hi = 0x1.921fb54442d18p0
	pio2Lo = 0x1.1a62633145c07p-54
	pio4Hi = 0x1.921fb54442d18p-1
	piHi   = 0x1.921fb54442d18p1
	piLo   = 0x1.1a62633145c07p-53
)

// Coefficients of the rational approximation of (asin(x)-x)/x³ in x² on
// [0, 0.5] (error below 2^-58.75), shared by Asin and Acos.
const (
	asinPS0 = 0x1.5555555555555p-3
	asinPS1 = -0x1.4d61203eb6f7dp-2
	asinPS2 = 0x1.9c1550e884455p-3
	asinPS3 = -0x1.48228b5688f3bp-5
	asinPS4 = 0x1.9efe07501b288p-11
	asinPS5 = 0x1.23de10dfdf709p-15
	asinQS1 = -0x1.33a271c8a2d4bp1
	asinQS2 = 0x1.02ae59c598ac8p1
	asinQS3 = -0x1.6066c1b8d0159p-1
	asinQS4 = 0x1.3b8c5b12e9282p-4
)

// asinR returns the numerator and denominator of the rational
// approximation at t = x².
func asinR(t float64) (p, q float64) {
	p = float64(t * (asinPS0 + float64(t*(asinPS1+float64(t*(asinPS2+float64(t*(asinPS3+float64(t*(asinPS4+float64(t*asinPS5)))))))))))
	q = 1 + float64(t*(asinQS1+float64(t*(asinQS2+float64(t*(asinQS3+float64(t*asinQS4)))))))
	return p, q
}

// Asin returns the arcsine of x as StrictMath.asin does.
func Asin(x float64) float64 {
	hx := hi(x)
	ix := hx & 0x7fffffff
	if ix >= 0x3ff00000 { // |x| ≥ 1
		if ix == 0x3ff00000 && lo(x) == 0 {
			return float64(x*pio2Hi) + float64(x*pio2Lo)
		}
		return (x - x) / (x - x)
	}
	if ix < 0x3fe00000 { // |x| < 0.5
		if ix < 0x3e400000 { // |x| < 2^-27
			return x
		}
		p, q := asinR(x * x)
		return x + float64(x*(p/q))
	}
	// asin(x) = π/2 - 2·asin(sqrt((1-x)/2)).
	t := float64(1-math.Abs(x)) * 0.5
	p, q := asinR(t)
	s := math.Sqrt(t)
	if ix >= 0x3fef3333 { // |x| > 0.975
		w := p / q
		t = pio2Hi - (float64(2*(s+float64(s*w))) - pio2Lo)
	} else {
		// sqrt(t) = w + c with w's low word clear.
		w := trunc32(s)
		c := (t - float64(w*w)) / (s + w)
		r := p / q
		p = float64(float64(2*s)*r) - (pio2Lo - float64(2*c))
		q = pio4Hi - float64(2*w)
		t = pio4Hi - (p - q)
	}
	if hx > 0 {
		return t
	}
	return -t
}

// Acos returns the arccosine of x as StrictMath.acos does.
func Acos(x float64) float64 {
	hx := hi(x)
	ix := hx & 0x7fffffff
	if ix >= 0x3ff00000 { // |x| ≥ 1
		if ix == 0x3ff00000 && lo(x) == 0 {
			if hx > 0 {
				return 0
			}
			return piHi + 2*pio2Lo
		}
		return (x - x) / (x - x)
	}
	if ix < 0x3fe00000 { // |x| < 0.5
		if ix <= 0x3c600000 { // |x| ≤ 2^-57
			return pio2Hi + pio2Lo
		}
		p, q := asinR(x * x)
		r := p / q
		return pio2Hi - (x - (pio2Lo - float64(x*r)))
	}
	if hx < 0 { // x < -0.5: π - 2·asin(sqrt((1+x)/2))
		z := (1 + x) * 0.5
		p, q := asinR(z)
		s := math.Sqrt(z)
		r := p / q
		w := float64(r*s) - pio2Lo
		return piHi - float64(2*(s+w))
	}
	// x > 0.5: 2·asin(sqrt((1-x)/2)), the root split as df + c.
	z := (1 - x) * 0.5
	s := math.Sqrt(z)
	df := trunc32(s)
	c := (z - float64(df*df)) / (s + df)
	p, q := asinR(z)
	r := p / q
	w := float64(r*s) + c
	return 2 * (df + w)
}

// atan at 0.5, 1, 1.5 and ∞, each as a double and its error.
var (
	atanHi = [...]float64{0x1.dac670561bb4fp-2, 0x1.921fb54442d18p-1, 0x1.f730bd281f69bp-1, 0x1.921fb54442d18p0}
	atanLo = [...]float64{0x1.a2b7f222f65e2p-56, 0x1.1a62633145c07p-55, 0x1.007887af0cbbdp-56, 0x1.1a62633145c07p-54}
)

// Coefficients of atan's odd polynomial on [0, 7/16].
var atanT = [...]float64{
	0x1.555555555550dp-2,
	-0x1.999999998ebc4p-3,
	0x1.24924920083ffp-3,
	-0x1.c71c6fe231671p-4,
	0x1.745cdc54c206ep-4,
	-0x1.3b0f2af749a6dp-4,
	0x1.10d66a0d03d51p-4,
	-0x1.dde2d52defd9ap-5,
	0x1.97b4b24760debp-5,
	-0x1.2b4442c6a6c2fp-5,
	0x1.0ad3ae322da11p-6,
}

// Atan returns the arctangent of x as StrictMath.atan does.
func Atan(x float64) float64 {
	hx := hi(x)
	ix := hx & 0x7fffffff
	if ix >= 0x44100000 { // |x| ≥ 2^66
		if math.IsNaN(x) {
			return x + x
		}
		if hx > 0 {
			return atanHi[3] + atanLo[3]
		}
		return -atanHi[3] - atanLo[3]
	}
	// Reduce |x| to an interval around 0, 0.5, 1, 1.5 or ∞ (id).
	id := -1
	if ix < 0x3fdc0000 { // |x| < 7/16
		if ix < 0x3e200000 { // |x| < 2^-29
			return x
		}
	} else {
		x = math.Abs(x)
		switch {
		case ix < 0x3fe60000: // < 11/16
			id = 0
			x = (float64(2*x) - 1) / (2 + x)
		case ix < 0x3ff30000: // < 19/16
			id = 1
			x = (x - 1) / (x + 1)
		case ix < 0x40038000: // < 39/16
			id = 2
			x = (x - 1.5) / (1 + float64(1.5*x))
		default:
			id = 3
			x = -1 / x
		}
	}
	z := x * x
	w := z * z
	// Odd and even terms of the polynomial, in w = x⁴.
	s1 := float64(z * (atanT[0] + float64(w*(atanT[2]+float64(w*(atanT[4]+float64(w*(atanT[6]+float64(w*(atanT[8]+float64(w*atanT[10])))))))))))
	s2 := float64(w * (atanT[1] + float64(w*(atanT[3]+float64(w*(atanT[5]+float64(w*(atanT[7]+float64(w*atanT[9])))))))))
	if id < 0 {
		return x - float64(x*(s1+s2))
	}
	z = atanHi[id] - ((float64(x*(s1+s2)) - atanLo[id]) - x)
	if hx < 0 {
		return -z
	}
	return z
}

// Atan2 returns the angle of the point (x, y) as StrictMath.atan2(y, x)
// does, with its signed zeros, ±π and infinities.
func Atan2(y, x float64) float64 {
	if math.IsNaN(x) || math.IsNaN(y) {
		return x + y
	}
	if x == 1 {
		return Atan(y)
	}
	hx, hy := hi(x), hi(y)
	ix, iy := hx&0x7fffffff, hy&0x7fffffff
	m := (hy>>31)&1 | (hx>>30)&2 // 2·sign(x) + sign(y)

	if y == 0 {
		switch m {
		case 0, 1:
			return y
		case 2:
			return piHi
		default:
			return -piHi
		}
	}
	if x == 0 {
		if hy < 0 {
			return -pio2Hi
		}
		return pio2Hi
	}
	if math.IsInf(x, 0) {
		if math.IsInf(y, 0) {
			switch m {
			case 0:
				return pio4Hi
			case 1:
				return -pio4Hi
			case 2:
				return 3 * pio4Hi
			default:
				return -3 * pio4Hi
			}
		}
		switch m {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return piHi
		default:
			return -piHi
		}
	}
	if math.IsInf(y, 0) {
		if hy < 0 {
			return -pio2Hi
		}
		return pio2Hi
	}

	var z float64
	k := (iy - ix) >> 20
	switch {
	case k > 60: // |y/x| > 2^60
		z = pio2Hi + 0.5*piLo
	case hx < 0 && k < -60: // |y|/x < -2^60
		z = 0
	default:
		z = Atan(math.Abs(y / x))
	}
	switch m {
	case 0:
		return z
	case 1:
		return -z
	case 2:
		return piHi - (z - piLo)
	default:
		return (z - piLo) - piHi
	}
}
