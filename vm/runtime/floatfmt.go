package runtime

import (
	"math"
	"strconv"
	"strings"
)

// JavaFloatString formats f like Double.toString (bits 64) or
// Float.toString (bits 32): the digits of javaDigits, in plain notation
// when the decimal exponent puts the value in [1e-3, 1e7), otherwise as
// "d.dddE±n", always with a fractional digit.
func JavaFloatString(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	d, decExp := javaDigits(f, bits)
	digits := string(d)
	switch {
	case decExp > 0 && decExp < 8:
		if len(digits) <= decExp {
			return sign + digits + strings.Repeat("0", decExp-len(digits)) + ".0"
		}
		return sign + digits[:decExp] + "." + digits[decExp:]
	case decExp <= 0 && decExp > -3:
		return sign + "0." + strings.Repeat("0", -decExp) + digits
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(decExp-1)
}

// parseJavaFloat parses like Double.parseDouble / Float.parseFloat:
// surrounding whitespace, an optional sign, "NaN", "Infinity", decimal or
// hexadecimal notation and an optional type suffix.
func parseJavaFloat(s string, bits int) (float64, bool) {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		return 0, false
	}
	neg := strings.HasPrefix(s, "-")
	switch body {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if n := len(body); n > 1 && strings.ContainsRune("dDfF", rune(body[n-1])) {
		body = body[:n-1]
	}
	hex := strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X")
	for _, r := range body {
		ok := r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E'
		if hex {
			ok = ok || r == 'x' || r == 'X' || r == 'p' || r == 'P' || r == '+' || r == '-' || (r|0x20) >= 'a' && (r|0x20) <= 'f'
		} else {
			ok = ok || r == '+' || r == '-'
		}
		if !ok {
			return 0, false
		}
	}
	if hex && !strings.ContainsAny(body, "pP") {
		return 0, false
	}
	f, err := strconv.ParseFloat(body, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	if neg {
		f = -f
	}
	return f, true
}
