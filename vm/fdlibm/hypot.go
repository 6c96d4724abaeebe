package fdlibm

import "math"

// Hypot returns sqrt(x²+y²) without undue overflow or underflow as
// StrictMath.hypot does: infinite if either argument is, else NaN if
// either is.
func Hypot(x, y float64) float64 {
	a, b := math.Abs(x), math.Abs(y)
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	if math.IsNaN(a) || math.IsNaN(b) {
		return a + b
	}
	if b > a {
		a, b = b, a
	}
	ha, hb := hi(a), hi(b)
	if ha-hb > 0x3c00000 { // a/b > 2^60
		return a + b
	}
	k := 0
	if a > 0x1.00000ffffffffp500 { // scale down by 2^-600
		ha -= 0x25800000
		hb -= 0x25800000
		a *= 0x1p-600
		b *= 0x1p-600
		k += 600
	}
	if b < 0x1p-500 {
		if b < 0x1p-1022 { // subnormal or zero
			if b == 0 {
				return a
			}
			b *= 0x1p1022
			a *= 0x1p1022
			k -= 1022
		} else { // scale up by 2^600
			ha += 0x25800000
			hb += 0x25800000
			a *= 0x1p600
			b *= 0x1p600
			k -= 600
		}
	}
	// Form a²+b² from pieces whose products are exact.
	var r float64
	if w := a - b; w > b {
		t1 := fromWords(ha, 0)
		t2 := a - t1
		r = math.Sqrt(float64(t1*t1) - (float64(b*(-b)) - float64(t2*(a+t1))))
	} else {
		a += a
		y1 := fromWords(hb, 0)
		y2 := b - y1
		t1 := fromWords(ha+0x00100000, 0)
		t2 := a - t1
		r = math.Sqrt(float64(t1*y1) - (float64(w*(-w)) - (float64(t1*y2) + float64(t2*b))))
	}
	if k != 0 {
		return math.Float64frombits(uint64(k+1023)<<52) * r
	}
	return r
}
