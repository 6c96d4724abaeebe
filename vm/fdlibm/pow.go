package fdlibm

import "math"

// Constants of Pow: log2(x) is computed as n + log2 of a mantissa near 1
// or 1.5 through s = (m-b)/(m+b) and a polynomial in s², then 2^z as
// 2^n·exp(z'·ln2) with exp's rational approximation.
const (
	powInvLn2  = 0x1.71547652b82fep0 // 1/ln2
	powInvLn2H = 0x1.715476p0        // its first 24 bits
	powInvLn2L = 0x1.4ae0bf85ddf44p-26

	powCP  = 0x1.ec709dc3a03fdp-1 // 2/(3·ln2)
	powCPH = 0x1.ec709ep-1
	powCPL = -0x1.e2fe0145b01f5p-28

	powDPH1 = 0x1.2b8034p-1 // log2(1.5), head and tail
	powDPL1 = 0x1.cfdeb43cfd006p-27

	powL1 = 0x1.3333333333303p-1
	powL2 = 0x1.b6db6db6fabffp-2
	powL3 = 0x1.55555518f264dp-2
	powL4 = 0x1.17460a91d4101p-2
	powL5 = 0x1.d864a93c9db65p-3
	powL6 = 0x1.a7e284a454eefp-3

	powP1 = 0x1.555555555553ep-3
	powP2 = -0x1.6c16c16bebd93p-9
	powP3 = 0x1.1566aaf25de2cp-14
	powP4 = -0x1.bbd41c5d26bf1p-20
	powP5 = 0x1.6376972bea4d0p-25

	powLg2  = 0x1.62e42fefa39efp-1
	powLg2H = 0x1.62e43p-1
	powLg2L = -0x1.05c610ca86c39p-29

	powOvt = 8.0085662595372944372e-17 // -(1024 - log2(MaxFloat64 + ulp/2))
)

// Pow returns x raised to the power y as StrictMath.pow does, including
// its special cases (x**0 = 1 even for NaN x, (-1)**±Inf = NaN, negative
// bases only to integer powers, and the signs of 0 and Inf results).
func Pow(x, y float64) float64 {
	if y == 0 {
		return 1
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		return x + y
	}
	yAbs := math.Abs(y)
	xAbs := math.Abs(x)
	switch {
	case y == 2:
		return x * x
	case y == 0.5:
		if x >= -math.MaxFloat64 { // -Inf goes the general way
			return math.Sqrt(x + 0) // x + 0 turns -0 into +0
		}
	case yAbs == 1:
		if y == 1 {
			return x
		}
		return 1 / x
	case math.IsInf(y, 0):
		switch {
		case xAbs == 1:
			return y - y // NaN
		case xAbs > 1:
			if y >= 0 {
				return y
			}
			return 0
		default:
			if y < 0 {
				return -y
			}
			return 0
		}
	}

	hx := hi(x)
	ix := hx & 0x7fffffff

	// For negative x: 0 if y is not an integer, 1 if odd, 2 if even.
	yIsInt := int32(0)
	if hx < 0 {
		if yAbs >= 0x1p53 {
			yIsInt = 2
		} else if yAbs >= 1 {
			if l := int64(yAbs); float64(l) == yAbs {
				yIsInt = 2 - int32(l&1)
			}
		}
	}

	if xAbs == 0 || math.IsInf(xAbs, 0) || xAbs == 1 {
		z := xAbs
		if y < 0 {
			z = 1 / z
		}
		if hx < 0 {
			if (ix-0x3ff00000)|yIsInt == 0 {
				z = (z - z) / (z - z) // (-1)**non-integer
			} else if yIsInt == 1 {
				z = -z
			}
		}
		return z
	}

	n := hx>>31 + 1 // 0 for negative x
	if n|yIsInt == 0 {
		return (x - x) / (x - x) // negative**non-integer
	}
	s := 1.0 // sign of the result
	if n|(yIsInt-1) == 0 {
		s = -1
	}

	// t1 + t2 = log2(|x|), t1 with its low 32 bits clear.
	var t1, t2 float64
	if yAbs > 0x1.00000ffffffffp31 { // |y| > 2^31
		if xAbs < 0x1.fffff00000000p-1 {
			if y < 0 {
				return s * math.Inf(1)
			}
			return s * 0
		}
		if xAbs > 0x1.00000ffffffffp0 {
			if y > 0 {
				return s * math.Inf(1)
			}
			return s * 0
		}
		// |1-x| ≤ 2^-20: log(x) = t - t²/2 + t³/3 - t⁴/4.
		t := xAbs - 1
		w := float64(float64(t*t) * (0.5 - float64(t*(0.3333333333333333333333-float64(t*0.25)))))
		u := float64(powInvLn2H * t)
		v := float64(t*powInvLn2L) - float64(w*powInvLn2)
		t1 = trunc32(u + v)
		t2 = v - (t1 - u)
	} else {
		n = 0
		if ix < 0x00100000 { // subnormal
			xAbs *= 0x1p53
			n -= 53
			ix = hi(xAbs)
		}
		n += ix>>20 - 0x3ff
		j := ix & 0x000fffff
		ix = j | 0x3ff00000 // mantissa in [1, 2)
		var k int32
		switch {
		case j <= 0x3988e: // < sqrt(3/2)
			k = 0
		case j < 0xbb67a: // < sqrt(3)
			k = 1
		default:
			k = 0
			n++
			ix -= 0x00100000
		}
		xAbs = withHi(xAbs, ix)

		// ss = sH + sL = (x-bp)/(x+bp), bp = 1 or 1.5.
		bp := 1 + 0.5*float64(k)
		u := xAbs - bp
		v := 1 / (xAbs + bp)
		ss := float64(u * v)
		sH := trunc32(ss)
		tH := fromWords(((ix>>1)|0x20000000)+0x00080000+k<<18, 0) // x+bp, head
		tL := xAbs - (tH - bp)
		sL := float64(v * ((u - float64(sH*tH)) - float64(sH*tL)))

		s2 := ss * ss
		r := float64(float64(s2*s2) * (powL1 + float64(s2*(powL2+float64(s2*(powL3+float64(s2*(powL4+float64(s2*(powL5+float64(s2*powL6)))))))))))
		r += float64(sL * (sH + ss))
		s2 = float64(sH * sH)
		tH = trunc32(3 + s2 + r)
		tL = r - ((tH - 3) - s2)
		u = float64(sH * tH)
		v = float64(sL*tH) + float64(tL*ss)
		pH := trunc32(u + v)
		pL := v - (pH - u)
		zH := float64(powCPH * pH)
		zL := float64(powCPL*pH) + float64(pL*powCP) + float64(powDPL1*float64(k))
		t := float64(n)
		dpH := float64(powDPH1 * float64(k))
		t1 = trunc32(((zH + zL) + dpH) + t)
		t2 = zL - (((t1 - t) - dpH) - zH)
	}

	// y·log2(x) = pH + pL, y split as y1 + (y - y1).
	y1 := trunc32(y)
	pL := float64((y-y1)*t1) + float64(y*t2)
	pH := float64(y1 * t1)
	z := pL + pH
	j := hi(z)
	i := lo(z)
	if j >= 0x40900000 { // z ≥ 1024
		if (j-0x40900000) != 0 || i != 0 {
			return s * math.Inf(1)
		}
		if pL+powOvt > z-pH {
			return s * math.Inf(1)
		}
	} else if j&0x7fffffff >= 0x4090cc00 { // z ≤ -1075
		if uint32(j)-0xc090cc00 != 0 || i != 0 {
			return s * 0
		}
		if pL <= z-pH {
			return s * 0
		}
	}

	// 2^(pH+pL) = 2^n · exp(z·ln2) with |z| ≤ 1/2.
	ij := j & 0x7fffffff
	k := ij>>20 - 0x3ff
	n = 0
	if ij > 0x3fe00000 { // |z| > 1/2: n = nearest integer
		n = j + 0x00100000>>(k+1)
		k = (n&0x7fffffff)>>20 - 0x3ff
		t := fromWords(n&^(0x000fffff>>k), 0)
		n = ((n & 0x000fffff) | 0x00100000) >> (20 - k)
		if j < 0 {
			n = -n
		}
		pH -= t
	}
	t := trunc32(pL + pH)
	u := float64(t * powLg2H)
	v := float64((pL-(t-pH))*powLg2) + float64(t*powLg2L)
	z = u + v
	w := v - (z - u)
	t = z * z
	t1 = z - float64(t*(powP1+float64(t*(powP2+float64(t*(powP3+float64(t*(powP4+float64(t*powP5)))))))))
	r := float64(z*t1)/(t1-2) - (w + float64(z*w))
	z = 1 - (r - z)
	if (hi(z)+n<<20)>>20 <= 0 {
		z = math.Ldexp(z, int(n)) // subnormal result
	} else {
		z = withHi(z, hi(z)+n<<20)
	}
	return s * z
}
