package dexdump

import (
	"math"
	"strconv"
	"strings"
)

// formatG formats f as C's printf("%g") does with glibc: six significant
// digits, exponent form below 1e-4 or from 1e6 on, trailing zeros removed,
// and "nan", "-nan", "inf", "-inf" for the special values.
func formatG(f float64) string {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case f == 0:
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	const precision = 6
	e := strconv.FormatFloat(f, 'e', precision-1, 64)
	i := strings.LastIndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[i+1:])
	if exp < -4 || exp >= precision {
		return trimZeros(e[:i]) + e[i:]
	}
	return trimZeros(strconv.FormatFloat(f, 'f', precision-1-exp, 64))
}

// formatG32 formats the float with the given bits as C's "%g" does after
// promotion to double (a NaN keeps its sign).
func formatG32(bits uint32) string {
	f := math.Float32frombits(bits)
	if f != f {
		if bits>>31 != 0 {
			return "-nan"
		}
		return "nan"
	}
	return formatG(float64(f))
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
