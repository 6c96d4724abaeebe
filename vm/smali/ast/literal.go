package ast

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Int returns an int literal.
func Int(v int32) *Literal { return &Literal{Kind: IntLit, Int: int64(v)} }

// Long returns a long literal.
func Long(v int64) *Literal { return &Literal{Kind: LongLit, Int: v} }

// Short returns a short literal.
func Short(v int16) *Literal { return &Literal{Kind: ShortLit, Int: int64(v)} }

// Byte returns a byte literal.
func Byte(v int8) *Literal { return &Literal{Kind: ByteLit, Int: int64(v)} }

// Char returns a char literal holding one UTF-16 code unit.
func Char(v uint16) *Literal { return &Literal{Kind: CharLit, Int: int64(v)} }

// Float returns a float literal.
func Float(v float32) *Literal { return &Literal{Kind: FloatLit, Bits: uint64(math.Float32bits(v))} }

// Double returns a double literal.
func Double(v float64) *Literal { return &Literal{Kind: DoubleLit, Bits: math.Float64bits(v)} }

// Bool returns a boolean literal.
func Bool(v bool) *Literal {
	l := &Literal{Kind: BoolLit}
	if v {
		l.Int = 1
	}
	return l
}

// String returns a string literal.
func String(s string) *Literal { return &Literal{Kind: StringLit, Str: s} }

// Null returns the null literal.
func Null() *Literal { return &Literal{Kind: NullLit} }

// Float32 is the value of a float literal.
func (l *Literal) Float32() float32 { return math.Float32frombits(uint32(l.Bits)) }

// Float64 is the value of a double literal.
func (l *Literal) Float64() float64 { return math.Float64frombits(l.Bits) }

// String renders the literal in smali syntax.
func (l *Literal) String() string {
	switch l.Kind {
	case IntLit:
		return strconv.FormatInt(l.Int, 10)
	case LongLit:
		return strconv.FormatInt(l.Int, 10) + "L"
	case ShortLit:
		return strconv.FormatInt(l.Int, 10) + "S"
	case ByteLit:
		return strconv.FormatInt(l.Int, 10) + "T"
	case CharLit:
		return "'" + escape(DecodeUnits([]uint16{uint16(l.Int)}), '\'') + "'"
	case FloatLit:
		return formatFloat(float64(l.Float32()), 32) + "f"
	case DoubleLit:
		return formatFloat(l.Float64(), 64)
	case BoolLit:
		return strconv.FormatBool(l.Int != 0)
	case StringLit:
		return Quote(l.Str)
	case NullLit:
		return "null"
	}
	return fmt.Sprintf("<bad literal kind %d>", l.Kind)
}

// formatFloat writes a float so that smali's lexer reads it back as a
// float or double and Java's parser returns the same bits.
func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'g', -1, bits)
	s = strings.Replace(s, "e+", "e", 1)
	mant, exp, hasExp := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	if hasExp {
		return mant + "e" + exp
	}
	return mant
}

// Quote renders s as a smali string literal with escapes.
func Quote(s string) string { return `"` + escape(s, '"') + `"` }

func escape(s string, quote byte) string {
	var b strings.Builder
	units := EncodeUnits(s)
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch u {
		case '\b':
			b.WriteString(`\b`)
			continue
		case '\t':
			b.WriteString(`\t`)
			continue
		case '\n':
			b.WriteString(`\n`)
			continue
		case '\f':
			b.WriteString(`\f`)
			continue
		case '\r':
			b.WriteString(`\r`)
			continue
		case '\\':
			b.WriteString(`\\`)
			continue
		case uint16(quote):
			b.WriteByte('\\')
			b.WriteByte(quote)
			continue
		}
		r := rune(u)
		if utf16.IsSurrogate(r) {
			if i+1 < len(units) {
				if p := utf16.DecodeRune(r, rune(units[i+1])); p != utf8.RuneError && unicode.IsPrint(p) {
					b.WriteRune(p)
					i++
					continue
				}
			}
			fmt.Fprintf(&b, `\u%04x`, u)
			continue
		}
		if r >= 0x20 && r < 0x7f || (r >= 0xa0 && unicode.IsPrint(r)) {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, u)
	}
	return b.String()
}

// EncodeUnits turns a string value (as the lexer decodes it: UTF-8 with
// unpaired surrogates in their 3-byte form) into UTF-16 code units.
func EncodeUnits(s string) []uint16 {
	var units []uint16
	for i := 0; i < len(s); {
		if i+2 < len(s) && s[i] == 0xed && s[i+1] >= 0xa0 && s[i+1] <= 0xbf && s[i+2]&0xc0 == 0x80 {
			units = append(units, 0xd000|uint16(s[i+1]&0x3f)<<6|uint16(s[i+2]&0x3f))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		units = utf16.AppendRune(units, r)
		i += size
	}
	return units
}

// DecodeUnits turns UTF-16 code units into a string value: valid pairs
// become one code point, unpaired surrogates keep a 3-byte form.
func DecodeUnits(units []uint16) string {
	var b strings.Builder
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if u >= 0xd800 && u < 0xdc00 && i+1 < len(units) {
			if r := utf16.DecodeRune(u, rune(units[i+1])); r != utf8.RuneError {
				b.WriteRune(r)
				i++
				continue
			}
		}
		if utf16.IsSurrogate(u) {
			b.WriteByte(byte(0xe0 | u>>12))
			b.WriteByte(byte(0x80 | (u>>6)&0x3f))
			b.WriteByte(byte(0x80 | u&0x3f))
			continue
		}
		b.WriteRune(u)
	}
	return b.String()
}

// The conversions below give a literal's value where an instruction or
// directive needs a number, with the rules (and the quirks) of smali 2.5.2.

// LiteralError explains why a literal does not fit where it is used.
type LiteralError struct {
	Lit *Literal
	Msg string
}

func (e *LiteralError) Error() string { return e.Lit.String() + ": " + e.Msg }

func litErr(l *Literal, format string, args ...any) error {
	return &LiteralError{Lit: l, Msg: fmt.Sprintf(format, args...)}
}

// checkIntQuirk is smali's LiteralTools.checkInt: it compares a long with
// the int constant 0xFFFFFFFF, which Java reads as -1, so only longs in
// [-2^31, -1] pass.
func checkIntQuirk(l *Literal) error {
	if l.Int > -1 || l.Int < math.MinInt32 {
		return litErr(l, "long literal does not fit in an int (smali 2.5.2 takes only long literals from -2147483648L to -1L here; write it without L)")
	}
	return nil
}

// Integral is the value of a literal where smali wants an integral_literal
// (.line): int, long, short or byte.
func (l *Literal) Integral() (int32, error) {
	switch l.Kind {
	case IntLit, ShortLit, ByteLit:
		return int32(l.Int), nil
	case LongLit:
		if err := checkIntQuirk(l); err != nil {
			return 0, err
		}
		return int32(l.Int), nil
	}
	return 0, litErr(l, "%s literal where an integer is expected", l.Kind)
}

// ShortIntegral is the value of a literal where smali wants a 16-bit
// integral literal (.registers, const/4, const/16, the lit8 and lit16
// instructions): ints and longs from -32768 to 65535 wrap to 16 bits;
// shorts, chars and bytes are taken as they are.
func (l *Literal) ShortIntegral() (int16, error) {
	switch l.Kind {
	case IntLit, LongLit:
		if l.Int > 0xffff || l.Int < -0x8000 {
			return 0, litErr(l, "does not fit in a short")
		}
		return int16(l.Int), nil
	case ShortLit, ByteLit, CharLit:
		return int16(l.Int), nil
	}
	return 0, litErr(l, "%s literal where an integer is expected", l.Kind)
}

// Fixed32 is the value of a literal where smali wants a 32-bit value
// (const, const/high16, const-wide/32, switch keys): floats give their bit
// pattern, booleans 0 or 1.
func (l *Literal) Fixed32() (int32, error) {
	switch l.Kind {
	case IntLit, ShortLit, ByteLit, CharLit, BoolLit:
		return int32(l.Int), nil
	case LongLit:
		if err := checkIntQuirk(l); err != nil {
			return 0, err
		}
		return int32(l.Int), nil
	case FloatLit:
		return int32(uint32(l.Bits)), nil
	}
	return 0, litErr(l, "%s literal where a 32-bit value is expected", l.Kind)
}

// Fixed64 is the value of a literal where smali wants a 64-bit value
// (const-wide, const-wide/high16, .array-data elements). Like smali, a
// float gives its 32-bit pattern sign-extended.
func (l *Literal) Fixed64() (int64, error) {
	switch l.Kind {
	case IntLit, LongLit, ShortLit, ByteLit, CharLit, BoolLit:
		return l.Int, nil
	case FloatLit:
		return int64(int32(uint32(l.Bits))), nil
	case DoubleLit:
		return int64(l.Bits), nil
	}
	return 0, litErr(l, "%s literal where a 64-bit value is expected", l.Kind)
}
