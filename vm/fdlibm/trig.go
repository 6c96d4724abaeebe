package fdlibm

import "math"

// Minimax coefficients of sin on [-π/4, π/4] (error below 2^-58).
const (
	sinS1 = -0x1.5555555555549p-3
	sinS2 = 0x1.111111110f8a6p-7
	sinS3 = -0x1.a01a019c161d5p-13
	sinS4 = 0x1.71de357b1fe7dp-19
	sinS5 = -0x1.ae5e68a2b9cebp-26
	sinS6 = 0x1.5d93a5acfd57cp-33
)

// Minimax coefficients of cos on [-π/4, π/4] (error below 2^-58).
const (
	cosC1 = 0x1.555555555554cp-5
	cosC2 = -0x1.6c16c16c15177p-10
	cosC3 = 0x1.a01a019cb159p-16
	cosC4 = -0x1.27e4f809c52adp-22
	cosC5 = 0x1.1ee9ebdb4b1c4p-29
	cosC6 = -0x1.8fae9be8838d4p-37
)

// Sin returns the sine of x as StrictMath.sin does.
func Sin(x float64) float64 {
	ix := absHi(x)
	switch {
	case ix <= 0x3fe921fb:
		return kernelSin(x, 0, false)
	case ix >= 0x7ff00000:
		return x - x
	}
	n, y0, y1 := remPio2(x)
	switch n & 3 {
	case 0:
		return kernelSin(y0, y1, true)
	case 1:
		return kernelCos(y0, y1)
	case 2:
		return -kernelSin(y0, y1, true)
	default:
		return -kernelCos(y0, y1)
	}
}

// Cos returns the cosine of x as StrictMath.cos does.
func Cos(x float64) float64 {
	ix := absHi(x)
	switch {
	case ix <= 0x3fe921fb:
		return kernelCos(x, 0)
	case ix >= 0x7ff00000:
		return x - x
	}
	n, y0, y1 := remPio2(x)
	switch n & 3 {
	case 0:
		return kernelCos(y0, y1)
	case 1:
		return -kernelSin(y0, y1, true)
	case 2:
		return -kernelCos(y0, y1)
	default:
		return kernelSin(y0, y1, true)
	}
}

// Tan returns the tangent of x as StrictMath.tan does.
func Tan(x float64) float64 {
	ix := absHi(x)
	switch {
	case ix <= 0x3fe921fb:
		return kernelTan(x, 0, 1)
	case ix >= 0x7ff00000:
		return x - x
	}
	n, y0, y1 := remPio2(x)
	return kernelTan(y0, y1, 1-(n&1)<<1)
}

// kernelSin is sin(x+y) for |x| ≤ π/4, y the tail of x (ignored unless
// hasTail).
func kernelSin(x, y float64, hasTail bool) float64 {
	if absHi(x) < 0x3e400000 && int32(x) == 0 { // |x| < 2^-27
		return x
	}
	z := x * x
	v := z * x
	r := sinS2 + float64(z*(sinS3+float64(z*(sinS4+float64(z*(sinS5+float64(z*sinS6)))))))
	if !hasTail {
		return x + float64(v*(sinS1+float64(z*r)))
	}
	return x - ((float64(z*(float64(0.5*y)-float64(v*r))) - y) - float64(v*sinS1))
}

// kernelCos is cos(x+y) for |x| ≤ π/4, y the tail of x.
func kernelCos(x, y float64) float64 {
	ix := absHi(x)
	if ix < 0x3e400000 && int32(x) == 0 { // |x| < 2^-27
		return 1
	}
	z := x * x
	r := z * (cosC1 + float64(z*(cosC2+float64(z*(cosC3+float64(z*(cosC4+float64(z*(cosC5+float64(z*cosC6))))))))))
	if ix < 0x3fd33333 { // |x| < 0.3
		return 1 - (float64(0.5*z) - (float64(z*r) - float64(x*y)))
	}
	// Subtract a quarter of x exactly first so the final subtraction
	// loses less.
	qx := 0.28125
	if ix <= 0x3fe90000 { // |x| ≤ 0.78125
		qx = fromWords(ix-0x00200000, 0)
	}
	hz := float64(0.5*z) - qx
	a := 1 - qx
	return a - (hz - (float64(z*r) - float64(x*y)))
}

// Minimax coefficients of tan on [0, 0.67434] (error below 2^-59.2).
var tanT = [...]float64{
	0x1.5555555555563p-2,
	0x1.111111110fe7ap-3,
	0x1.ba1ba1bb341fep-5,
	0x1.664f48406d637p-6,
	0x1.226e3e96e8493p-7,
	0x1.d6d22c9560328p-9,
	0x1.7dbc8fee08315p-10,
	0x1.344d8f2f26501p-11,
	0x1.026f71a8d1068p-12,
	0x1.47e88a03792a6p-14,
	0x1.2b80f32f0a7e9p-14,
	-0x1.375cbdb605373p-16,
	0x1.b2a7074bf7ad4p-16,
}

const (
	pio4   = 0x1.921fb54442d18p-1
	pio4lo = 0x1.1a62633145c07p-55
)

// kernelTan is tan(x+y) for |x| ≤ π/4 when k is 1, and -1/tan(x+y) when k
// is -1.
func kernelTan(x, y float64, k int32) float64 {
	hx := hi(x)
	ix := hx & 0x7fffffff
	if ix < 0x3e300000 && int32(x) == 0 { // |x| < 2^-28
		if (uint32(ix)|lo(x)) == 0 && k == -1 {
			return 1 / math.Abs(x)
		}
		if k == 1 {
			return x
		}
		return negRecip(x+y, x, y)
	}
	big := ix >= 0x3fe59428 // |x| ≥ 0.6744: use tan(π/4 - x)
	if big {
		if hx < 0 {
			x, y = -x, -y
		}
		z := pio4 - x
		w := pio4lo - y
		x = z + w
		y = 0
	}
	z := x * x
	w := z * z
	// Odd and even halves of the polynomial, evaluated in w = x^4.
	r := tanT[1] + float64(w*(tanT[3]+float64(w*(tanT[5]+float64(w*(tanT[7]+float64(w*(tanT[9]+float64(w*tanT[11])))))))))
	v := float64(z * (tanT[2] + float64(w*(tanT[4]+float64(w*(tanT[6]+float64(w*(tanT[8]+float64(w*(tanT[10]+float64(w*tanT[12])))))))))))
	s := z * x
	r = y + float64(z*(float64(s*(r+v))+y))
	r += float64(tanT[0] * s)
	w = x + r
	if big {
		v = float64(k)
		sign := float64(1 - (hx>>30)&2)
		return sign * (v - float64(2*(x-(float64(w*w)/(w+v)-r))))
	}
	if k == 1 {
		return w
	}
	return negRecip(w, x, r)
}

// negRecip is -1/w for w = x+r, computed with w's head and tail so the
// result is within an ulp.
func negRecip(w, x, r float64) float64 {
	z := trunc32(w)
	v := r - (z - x) // z + v = x + r
	a := -1 / w
	t := trunc32(a)
	s := 1 + float64(t*z)
	return t + float64(a*(s+float64(t*v)))
}
