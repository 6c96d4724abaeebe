package fdlibm

import "math"

// twoOverPi holds the binary digits of 2/π, 24 bits per entry, enough for
// the reduction of the largest finite double (1584 bits).
var twoOverPi = [...]int32{
	0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62,
	0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7, 0x246E3A,
	0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
	0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41,
	0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8,
	0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
	0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5,
	0xF17B3D, 0x0739F7, 0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08,
	0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
	0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880,
	0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B,
}

// npio2Hi[i] is the upper word of (i+1)·π/2: an argument with that upper
// word may lie close enough to a multiple of π/2 for the first subtraction
// to cancel.
var npio2Hi = [...]int32{
	0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C,
	0x4025FDBB, 0x402921FB, 0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C,
	0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A,
	0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C,
	0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB, 0x4046C6CB, 0x40478FDB,
	0x404858EB, 0x404921FB,
}

// π/2 split into 33-bit pieces (pio2N) and the remainder after each
// (pio2Nt), so that n·pio2N is exact for the n of a medium argument.
const (
	invPio2 = 0x1.45f306dc9c883p-1
	pio2_1  = 0x1.921fb544p0
	pio2_1t = 0x1.0b4611a626331p-34
	pio2_2  = 0x1.0b4611a6p-34
	pio2_2t = 0x1.3198a2e037073p-69
	pio2_3  = 0x1.3198a2ep-69
	pio2_3t = 0x1.b839a252049c1p-104
)

// remPio2 reduces x to y0+y1 = x - n·π/2 with |y0+y1| ≤ π/4 (about),
// y1 carrying the bits y0 cannot hold. x is finite and above π/4 in
// magnitude: the callers handle the rest. Only the low bits of n matter to
// the callers. Arguments up to 2^19·π/2 use a three-step Cody–Waite
// subtraction; larger ones the multi-precision product with 2/π.
func remPio2(x float64) (n int32, y0, y1 float64) {
	hx := hi(x)
	ix := hx & 0x7fffffff
	if ix < 0x4002d97c { // |x| < 3π/4: n = ±1
		if hx > 0 {
			z := x - pio2_1
			if ix != 0x3ff921fb {
				y0 = z - pio2_1t
				y1 = (z - y0) - pio2_1t
			} else { // near π/2: 33+33+53 bits of π/2
				z -= pio2_2
				y0 = z - pio2_2t
				y1 = (z - y0) - pio2_2t
			}
			return 1, y0, y1
		}
		z := x + pio2_1
		if ix != 0x3ff921fb {
			y0 = z + pio2_1t
			y1 = (z - y0) + pio2_1t
		} else {
			z += pio2_2
			y0 = z + pio2_2t
			y1 = (z - y0) + pio2_2t
		}
		return -1, y0, y1
	}
	if ix <= 0x413921fb { // |x| ≤ 2^19·π/2: medium
		t := math.Abs(x)
		n = int32(float64(t*invPio2) + 0.5)
		fn := float64(n)
		r := t - float64(fn*pio2_1)
		w := float64(fn * pio2_1t) // good to 85 bits
		if n < 32 && ix != npio2Hi[n-1] {
			y0 = r - w
		} else {
			j := ix >> 20
			y0 = r - w
			if j-(hi(y0)>>20)&0x7ff > 16 { // cancellation: 118 bits
				t = r
				w = float64(fn * pio2_2)
				r = t - w
				w = float64(fn*pio2_2t) - ((t - r) - w)
				y0 = r - w
				if j-(hi(y0)>>20)&0x7ff > 49 { // again: 151 bits
					t = r
					w = float64(fn * pio2_3)
					r = t - w
					w = float64(fn*pio2_3t) - ((t - r) - w)
					y0 = r - w
				}
			}
		}
		y1 = (r - y0) - w
		if hx < 0 {
			return -n, -y0, -y1
		}
		return n, y0, y1
	}
	// Split |x| into three 24-bit integers scaled by 2^e0.
	e0 := ix>>20 - 1046 // ilogb(x) - 23
	z := fromWords(ix-e0<<20, lo(x))
	var tx [3]float64
	for i := 0; i < 2; i++ {
		tx[i] = float64(int32(z))
		z = (z - tx[i]) * 0x1p24
	}
	tx[2] = z
	nx := 3
	for tx[nx-1] == 0 {
		nx--
	}
	n, y0, y1 = kernelRemPio2(tx[:nx], int(e0))
	if hx < 0 {
		return -n, -y0, -y1
	}
	return n, y0, y1
}

// piO2Chunks is π/2 cut into 24-bit pieces.
var piO2Chunks = [...]float64{
	0x1.921fb4p0,
	0x1.4442dp-24,
	0x1.846988p-48,
	0x1.8cc516p-72,
	0x1.01b838p-96,
	0x1.a25204p-120,
	0x1.382228p-145,
	0x1.9f31dp-169,
}

// kernelRemPio2 is fdlibm's multi-precision reduction at its "extended"
// precision (jk = 4 terms of 2/π to start), the one the double functions
// use: x holds 24-bit integer pieces of the argument, x[0] scaled by 2^e0.
// It returns n mod 8 and the reduced value as y0+y1. Only the product
// digits that can affect the fraction and the last three bits of the
// integer part are formed, so the cost does not grow with the exponent.
func kernelRemPio2(x []float64, e0 int) (int32, float64, float64) {
	const jk = 4
	const jp = jk
	var iq [20]int32
	var f, fq, q [20]float64

	jx := len(x) - 1
	jv := (e0 - 3) / 24
	if jv < 0 {
		jv = 0
	}
	q0 := e0 - 24*(jv+1)

	for i, j := 0, jv-jx; i <= jx+jk; i, j = i+1, j+1 {
		if j >= 0 {
			f[i] = float64(twoOverPi[j])
		}
	}
	for i := 0; i <= jk; i++ {
		fw := 0.0
		for j := 0; j <= jx; j++ {
			fw += float64(x[j] * f[jx+i-j])
		}
		q[i] = fw
	}

	jz := jk
	var z float64
	var n, ih int32
	for {
		// Distill q into 24-bit integers, most significant last.
		i := 0
		z = q[jz]
		for j := jz; j > 0; i, j = i+1, j-1 {
			fw := float64(int32(0x1p-24 * z))
			iq[i] = int32(z - float64(0x1p24*fw))
			z = q[j-1] + fw
		}

		z = math.Ldexp(z, q0)
		z -= float64(8 * math.Floor(z*0.125)) // keep the integer part mod 8
		n = int32(z)
		z -= float64(n)
		ih = 0
		switch {
		case q0 > 0: // iq[jz-1] holds integer bits too
			i := iq[jz-1] >> (24 - q0)
			n += i
			iq[jz-1] -= i << (24 - q0)
			ih = iq[jz-1] >> (23 - q0)
		case q0 == 0:
			ih = iq[jz-1] >> 23
		case z >= 0.5:
			ih = 2
		}

		if ih > 0 { // fraction ≥ 0.5: take 1 - fraction, round n up
			n++
			carry := int32(0)
			for i := 0; i < jz; i++ {
				j := iq[i]
				if carry == 0 {
					if j != 0 {
						carry = 1
						iq[i] = 0x1000000 - j
					}
				} else {
					iq[i] = 0xffffff - j
				}
			}
			switch q0 {
			case 1:
				iq[jz-1] &= 0x7fffff
			case 2:
				iq[jz-1] &= 0x3fffff
			}
			if ih == 2 {
				z = 1 - z
				if carry != 0 {
					z -= math.Ldexp(1, q0)
				}
			}
		}

		if z != 0 {
			break
		}
		j := int32(0)
		for i := jz - 1; i >= jk; i-- {
			j |= iq[i]
		}
		if j != 0 {
			break
		}
		// The fraction cancelled to zero: take more digits of 2/π.
		k := 1
		for iq[jk-k] == 0 {
			k++
		}
		for i := jz + 1; i <= jz+k; i++ {
			f[jx+i] = float64(twoOverPi[jv+i])
			fw := 0.0
			for j := 0; j <= jx; j++ {
				fw += float64(x[j] * f[jx+i-j])
			}
			q[i] = fw
		}
		jz += k
	}

	// Drop zero chunks, or split z into chunks.
	if z == 0 {
		jz--
		q0 -= 24
		for iq[jz] == 0 {
			jz--
			q0 -= 24
		}
	} else {
		z = math.Ldexp(z, -q0)
		if z >= 0x1p24 {
			fw := float64(int32(0x1p-24 * z))
			iq[jz] = int32(z - float64(0x1p24*fw))
			jz++
			q0 += 24
			iq[jz] = int32(fw)
		} else {
			iq[jz] = int32(z)
		}
	}

	fw := math.Ldexp(1, q0)
	for i := jz; i >= 0; i-- {
		q[i] = fw * float64(iq[i])
		fw *= 0x1p-24
	}

	// fq = π/2 · q.
	for i := jz; i >= 0; i-- {
		fw := 0.0
		for k := 0; k <= jp && k <= jz-i; k++ {
			fw += float64(piO2Chunks[k] * q[i+k])
		}
		fq[jz-i] = fw
	}

	fw = 0
	for i := jz; i >= 0; i-- {
		fw += fq[i]
	}
	y0 := fw
	fw = fq[0] - fw
	for i := 1; i <= jz; i++ {
		fw += fq[i]
	}
	y1 := fw
	if ih != 0 {
		y0, y1 = -y0, -y1
	}
	return n & 7, y0, y1
}
