package runtime

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// javaDigits returns the decimal digits Double.toString (width 64) or
// Float.toString (width 32) prints for f > 0, finite, and decExp, where
// the decimal point goes: the value is 0.digits × 10^decExp.
//
// The Java platform (up to Java 18, so Android 11's libcore too) does not
// print the shortest digits that read back as f. Its FloatingDecimal
// prints an integer below 2^63 exactly, less the digits its precision
// cannot tell apart; other values get Steele and White's free-format
// digits with a symmetric stopping test (an exact power of two gets half
// the margin below), which can stop one digit early or round the last
// digit the other way. Programs print these digits, so the VM generates
// them the same way, with the same integer widths in the same cases.
func javaDigits(f float64, width int) (digits []byte, decExp int) {
	fractBits, binExp, nSignificant := javaUnpack(f, width)
	tailZeros := bits.TrailingZeros64(fractBits)
	nFractBits := expShift + 1 - tailZeros
	nTinyBits := max(0, nFractBits-binExp-1)

	// An integer: its digits, exactly, less the insignificant ones.
	if binExp <= 62 && binExp >= -21 && nTinyBits == 0 {
		insignificant := 0
		if p2 := binExp - nSignificant - 1; binExp > nSignificant && p2 > 1 {
			insignificant = len(strconv.FormatUint(1<<p2, 10)) - 1
		}
		v := fractBits
		if binExp >= expShift {
			v <<= binExp - expShift
		} else {
			v >>= expShift - binExp
		}
		return longDigits(v, insignificant)
	}

	decExp = estimateDecExp(fractBits, binExp)
	b5 := max(0, -decExp)
	b2 := b5 + nTinyBits + binExp
	s5 := max(0, decExp)
	s2 := s5 + nTinyBits
	m5 := b5
	m2 := b2 - nSignificant
	fractBits >>= tailZeros
	b2 -= nFractBits - 1
	common := min(b2, s2)
	b2 -= common
	s2 -= common
	m2 -= common
	if nFractBits == 1 {
		m2-- // an exact power of two: the next value below is half as near
	}
	if m2 < 0 {
		b2 -= m2
		s2 -= m2
		m2 = 0
	}

	// The stopping test compares with "b+m > 10s" in int and long
	// arithmetic (which may overflow, as in Java) and "b+m >= 10s" with
	// big integers; which one runs depends on the sizes, as in Java.
	bBits := nFractBits + b2 + fiveBits(b5)
	tenSBits := s2 + 1 + fiveBits(s5+1)
	var low, high bool
	var lowDigitDiff int
	switch {
	case bBits < 32 && tenSBits < 32:
		b := int32(fractBits) * int32(pow5(b5)) << b2
		s := int32(pow5(s5)) << s2
		m := int32(pow5(m5)) << m2
		digits, decExp, low, high, lowDigitDiff = freeFormat(int64(b), int64(s), int64(m), decExp, func(v int64) int64 { return int64(int32(v)) })
	case bBits < 64 && tenSBits < 64:
		b := int64(fractBits) * int64(pow5(b5)) << b2
		s := int64(pow5(s5)) << s2
		m := int64(pow5(m5)) << m2
		digits, decExp, low, high, lowDigitDiff = freeFormat(b, s, m, decExp, func(v int64) int64 { return v })
	default:
		digits, decExp, low, high, lowDigitDiff = freeFormatBig(fractBits, b5, b2, s5, s2, m5, m2, decExp)
	}
	decExp++
	if high && (!low || lowDigitDiff > 0 || lowDigitDiff == 0 && digits[len(digits)-1]&1 != 0) {
		digits, decExp = roundUp(digits, decExp)
	}
	return digits, decExp
}

// expShift is the position of a double's hidden bit; FloatingDecimal
// works on floats with their significand moved there too.
const expShift = 52

// javaUnpack returns f's significand with its leading bit at expShift,
// its binary exponent and its number of significant bits, normalising
// subnormal values as FloatingDecimal does.
func javaUnpack(f float64, width int) (fractBits uint64, binExp, nSignificant int) {
	if width == 32 {
		fb := math.Float32bits(float32(f))
		frac, exp := fb&(1<<23-1), int(fb>>23&0xff)
		if exp == 0 {
			lz := bits.LeadingZeros32(frac)
			shift := lz - (31 - 23)
			frac <<= shift
			exp = 1 - shift
			nSignificant = 32 - lz
		} else {
			frac |= 1 << 23
			nSignificant = 24
		}
		return uint64(frac) << (expShift - 23), exp - 127, nSignificant
	}
	fb := math.Float64bits(f)
	frac, exp := fb&(1<<52-1), int(fb>>52&0x7ff)
	if exp == 0 {
		lz := bits.LeadingZeros64(frac)
		shift := lz - (63 - expShift)
		frac <<= shift
		exp = 1 - shift
		nSignificant = 64 - lz
	} else {
		frac |= 1 << expShift
		nSignificant = expShift + 1
	}
	return frac, exp - 1023, nSignificant
}

// estimateDecExp is FloatingDecimal's estimate of floor(log10(f)), which
// may be one too high (the first digit then comes out zero and is
// dropped). The products are rounded separately, as in Java.
func estimateDecExp(fractBits uint64, binExp int) int {
	d2 := math.Float64frombits(uint64(1023)<<expShift | fractBits&(1<<expShift-1))
	d := float64(float64((d2-1.5)*0.289529654)+0.176091259) + float64(float64(binExp)*0.301029995663981)
	return int(math.Floor(d))
}

// pow5 is 5^n for n ≤ 27.
func pow5(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 5
	}
	return p
}

// fiveBits is about log2(5^n) rounded up, FloatingDecimal's size estimate.
func fiveBits(n int) int {
	if n < 27 {
		return bits.Len64(pow5(n))
	}
	return 3 * n
}

// freeFormat generates digits with machine integers; wrap narrows a
// product to the width Java computes it in.
func freeFormat(b, s, m int64, decExp int, wrap func(int64) int64) (digits []byte, exp int, low, high bool, lowDigitDiff int) {
	tens := wrap(s * 10)
	q := b / s
	b = wrap(10 * (b % s))
	m = wrap(m * 10)
	low = b < m
	high = wrap(b+m) > tens
	if q == 0 && !high {
		decExp--
	} else {
		digits = append(digits, byte('0'+q))
	}
	if decExp < -3 || decExp >= 8 {
		low, high = false, false // E-form: at least two digits
	}
	for !low && !high {
		q = b / s
		b = wrap(10 * (b % s))
		m = wrap(m * 10)
		if m > 0 {
			low = b < m
			high = wrap(b+m) > tens
		} else {
			low, high = true, true // m overflowed
		}
		digits = append(digits, byte('0'+q))
	}
	lowDigitDiff = sign64(wrap(wrap(b<<1) - tens))
	return digits, decExp, low, high, lowDigitDiff
}

// freeFormatBig is freeFormat with big integers, where Java's stopping
// test includes equality.
func freeFormatBig(fractBits uint64, b5, b2, s5, s2, m5, m2, decExp int) (digits []byte, exp int, low, high bool, lowDigitDiff int) {
	pow52 := func(v uint64, p5, p2 int) *big.Int {
		r := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(p5)), nil)
		r.Mul(r, new(big.Int).SetUint64(v))
		return r.Lsh(r, uint(p2))
	}
	b := pow52(fractBits, b5, b2)
	s := pow52(1, s5, s2)
	m := pow52(1, m5+1, m2+1) // 10·m
	tens := pow52(1, s5+1, s2+1)
	q, sum := new(big.Int), new(big.Int)
	step := func() int {
		q.QuoRem(b, s, b)
		b.Mul(b, big.NewInt(10))
		return int(q.Int64())
	}
	test := func() {
		low = b.Cmp(m) < 0
		high = tens.Cmp(sum.Add(b, m)) <= 0
	}
	d := step()
	test()
	if d == 0 && !high {
		decExp--
	} else {
		digits = append(digits, byte('0'+d))
	}
	if decExp < -3 || decExp >= 8 {
		low, high = false, false
	}
	for !low && !high {
		d = step()
		m.Mul(m, big.NewInt(10))
		test()
		digits = append(digits, byte('0'+d))
	}
	if high && low {
		lowDigitDiff = new(big.Int).Lsh(b, 1).Cmp(tens)
	}
	return digits, decExp, low, high, lowDigitDiff
}

func sign64(v int64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// roundUp adds one to the last digit, carrying; all nines become a one
// with a larger exponent. Java keeps the zeros the carry leaves.
func roundUp(digits []byte, decExp int) ([]byte, int) {
	i := len(digits) - 1
	for ; i > 0 && digits[i] == '9'; i-- {
		digits[i] = '0'
	}
	if digits[i] == '9' {
		digits[0] = '1'
		return digits, decExp + 1
	}
	digits[i]++
	return digits, decExp
}

// longDigits is FloatingDecimal's easy case: the digits of the integer v,
// less its insignificant low digits (rounded half up), without trailing
// zeros.
func longDigits(v uint64, insignificant int) ([]byte, int) {
	if insignificant > 0 {
		pow10 := pow5(insignificant) << insignificant
		rest := v % pow10
		v /= pow10
		if rest >= pow10>>1 {
			v++
		}
	}
	s := strconv.FormatUint(v, 10)
	decExp := len(s) + insignificant
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return []byte(s), decExp
}
