package smali

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/smali/lexer"
)

// literalFromToken evaluates a literal token the way smali's LiteralTools
// does.
func literalFromToken(t lexer.Token) (*ast.Literal, error) {
	text := t.Text
	switch t.Kind {
	case lexer.Int:
		v, err := parseIntegral(text, 32)
		return &ast.Literal{Kind: ast.IntLit, Int: int64(int32(v))}, err
	case lexer.Long:
		v, err := parseIntegral(text[:len(text)-1], 64)
		return &ast.Literal{Kind: ast.LongLit, Int: v}, err
	case lexer.Short:
		v, err := parseIntegral(text[:len(text)-1], 16)
		return &ast.Literal{Kind: ast.ShortLit, Int: int64(int16(v))}, err
	case lexer.Byte:
		v, err := parseIntegral(text[:len(text)-1], 8)
		return &ast.Literal{Kind: ast.ByteLit, Int: int64(int8(v))}, err
	case lexer.Float, lexer.FloatOrName:
		f, err := parseFloat(text, 32)
		if math.IsNaN(f) {
			return &ast.Literal{Kind: ast.FloatLit, Bits: javaFloatNaN}, err
		}
		return ast.Float(float32(f)), err
	case lexer.Double, lexer.DoubleOrName:
		f, err := parseFloat(text, 64)
		if math.IsNaN(f) {
			return &ast.Literal{Kind: ast.DoubleLit, Bits: javaDoubleNaN}, err
		}
		return ast.Double(f), err
	case lexer.Char:
		units := ast.EncodeUnits(text)
		if len(units) != 1 {
			return nil, fmt.Errorf("character literal with %d UTF-16 code units", len(units))
		}
		return ast.Char(units[0]), nil
	case lexer.String:
		return ast.String(text), nil
	case lexer.Bool:
		return ast.Bool(text == "true"), nil
	case lexer.Null:
		return ast.Null(), nil
	}
	return nil, fmt.Errorf("%v is not a literal", t.Kind)
}

// Java's canonical NaNs, which Float.parseFloat and Double.parseDouble
// return for "NaN".
const (
	javaFloatNaN  = 0x7fc00000
	javaDoubleNaN = 0x7ff8000000000000
)

var bitsName = map[int]string{8: "a byte", 16: "a short", 32: "an int", 64: "a long"}

// parseIntegral parses an integer as smali does: decimal, 0-prefixed octal
// or 0x-prefixed hex; the magnitude may use all bits (0xFFFFFFFF is -1 as an
// int) but a negative value may not go below the type's minimum.
func parseIntegral(text string, bits int) (int64, error) {
	s := text
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	base := 10
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	mag, err := strconv.ParseUint(s, base, 64)
	limit := uint64(1)<<bits - 1
	if bits == 64 {
		limit = math.MaxUint64
	}
	if err != nil || mag > limit || (neg && mag > uint64(1)<<(bits-1)) {
		return 0, fmt.Errorf("%s does not fit in %s", text, bitsName[bits])
	}
	if neg {
		return -int64(mag), nil
	}
	// Wrap to the signed type (two's complement), then widen.
	shift := 64 - bits
	return int64(mag<<shift) >> shift, nil
}

// parseFloat parses a float (bits 32) or double (bits 64) literal as Java
// does, including NaN and [-]Infinity in any letter case. Values out of
// range become infinities or zero, as in Java.
func parseFloat(text string, bits int) (float64, error) {
	s := text
	if c := s[len(s)-1] | 0x20; c == 'f' || c == 'd' {
		// The type suffix. Every literal without one ends in a digit, a
		// point, or the last letter of NaN or Infinity.
		s = s[:len(s)-1]
	}
	switch strings.ToLower(s) {
	case "nan":
		return math.NaN(), nil
	case "infinity":
		return math.Inf(1), nil
	case "-infinity":
		return math.Inf(-1), nil
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, nil
		}
		return 0, fmt.Errorf("invalid floating-point literal %s", text)
	}
	return f, nil
}
