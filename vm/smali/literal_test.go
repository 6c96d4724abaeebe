package smali

import (
	"math"
	"math/rand"
	"testing"

	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/smali/lexer"
)

// lexLiteral lexes text as one literal token and evaluates it.
func lexLiteral(t *testing.T, text string) *ast.Literal {
	t.Helper()
	toks := lexer.Tokenize(text, 28)
	if len(toks) != 2 {
		t.Fatalf("%q lexes as %v", text, toks)
	}
	l, err := literalFromToken(toks[0])
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return l
}

func TestLiteralValues(t *testing.T) {
	tests := []struct {
		text string
		kind ast.LitKind
		i    int64
		bits uint64
		err  bool
	}{
		{text: "0", kind: ast.IntLit, i: 0},
		{text: "017", kind: ast.IntLit, i: 15},
		{text: "-0x10", kind: ast.IntLit, i: -16},
		{text: "0xFFFFFFFF", kind: ast.IntLit, i: -1},
		{text: "4294967295", kind: ast.IntLit, i: -1},
		{text: "-2147483648", kind: ast.IntLit, i: math.MinInt32},
		{text: "-2147483649", err: true},
		{text: "4294967296", err: true},
		{text: "0xFFFFFFFFFFFFFFFFL", kind: ast.LongLit, i: -1},
		{text: "-0x8000000000000000L", kind: ast.LongLit, i: math.MinInt64},
		{text: "-0x8000000000000001L", err: true},
		{text: "0xFFFFs", kind: ast.ShortLit, i: -1},
		{text: "-0x8000s", kind: ast.ShortLit, i: -32768},
		{text: "0x10000s", err: true},
		{text: "0xFFt", kind: ast.ByteLit, i: -1},
		{text: "-129t", err: true},
		{text: "'\\uffff'", kind: ast.CharLit, i: 0xffff},
		{text: "true", kind: ast.BoolLit, i: 1},
		{text: "1.5f", kind: ast.FloatLit, bits: uint64(math.Float32bits(1.5))},
		{text: "-0.0f", kind: ast.FloatLit, bits: uint64(math.Float32bits(float32(math.Copysign(0, -1))))},
		{text: "NaNf", kind: ast.FloatLit, bits: 0x7fc00000},
		{text: "NaN", kind: ast.DoubleLit, bits: 0x7ff8000000000000},
		{text: "-Infinity", kind: ast.DoubleLit, bits: math.Float64bits(math.Inf(-1))},
		{text: "1e400", kind: ast.DoubleLit, bits: math.Float64bits(math.Inf(1))},
		{text: "0x1.8p1", kind: ast.DoubleLit, bits: math.Float64bits(3)},
		{text: "0x.8p1f", kind: ast.FloatLit, bits: uint64(math.Float32bits(1))},
		{text: "1234.", kind: ast.DoubleLit, bits: math.Float64bits(1234)},
		{text: ".5d", kind: ast.DoubleLit, bits: math.Float64bits(0.5)},
		{text: "12f", kind: ast.FloatLit, bits: uint64(math.Float32bits(12))},
	}
	for _, tt := range tests {
		toks := lexer.Tokenize(tt.text, 28)
		l, err := literalFromToken(toks[0])
		if tt.err {
			if err == nil {
				t.Errorf("%q: got %v, want an error", tt.text, l)
			}
			continue
		}
		if err != nil || l.Kind != tt.kind || l.Int != tt.i || l.Bits != tt.bits {
			t.Errorf("%q: got %+v (%v), want kind %v int %d bits %#x", tt.text, l, err, tt.kind, tt.i, tt.bits)
		}
	}
}

// TestLiteralConversions checks smali's conversions, quirks included.
func TestLiteralConversions(t *testing.T) {
	type conv struct {
		v  int64
		ok bool
	}
	tests := []struct {
		lit                           *ast.Literal
		short, fixed32, fixed64, line conv
	}{
		{ast.Int(65535), conv{-1, true}, conv{65535, true}, conv{65535, true}, conv{65535, true}},
		{ast.Int(65536), conv{0, false}, conv{65536, true}, conv{65536, true}, conv{65536, true}},
		{ast.Long(5), conv{5, true}, conv{0, false}, conv{5, true}, conv{0, false}},
		{ast.Long(-5), conv{-5, true}, conv{-5, true}, conv{-5, true}, conv{-5, true}},
		{ast.Char(0xffff), conv{-1, true}, conv{0xffff, true}, conv{0xffff, true}, conv{0, false}},
		{ast.Bool(true), conv{0, false}, conv{1, true}, conv{1, true}, conv{0, false}},
		{ast.Float(-1), conv{0, false}, conv{int64(int32(math.Float32bits(-1))), true},
			conv{int64(int32(math.Float32bits(-1))), true}, conv{0, false}},
		{ast.Double(2), conv{0, false}, conv{0, false}, conv{int64(math.Float64bits(2)), true}, conv{0, false}},
		{ast.String("x"), conv{0, false}, conv{0, false}, conv{0, false}, conv{0, false}},
	}
	check := func(what string, l *ast.Literal, v int64, err error, want conv) {
		if (err == nil) != want.ok || (err == nil && v != want.v) {
			t.Errorf("%s(%s) = %d, %v; want %d ok=%v", what, l, v, err, want.v, want.ok)
		}
	}
	for _, tt := range tests {
		s, err := tt.lit.ShortIntegral()
		check("ShortIntegral", tt.lit, int64(s), err, tt.short)
		f32, err := tt.lit.Fixed32()
		check("Fixed32", tt.lit, int64(f32), err, tt.fixed32)
		f64, err := tt.lit.Fixed64()
		check("Fixed64", tt.lit, f64, err, tt.fixed64)
		n, err := tt.lit.Integral()
		check("Integral", tt.lit, int64(n), err, tt.line)
	}
}

// TestLiteralPrintRoundTrip prints literals and reads them back: the bits
// must survive for every float and double, and every string.
func TestLiteralPrintRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var lits []*ast.Literal
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-45, 1.4e-45, math.MaxFloat32,
		math.SmallestNonzeroFloat32, math.Inf(1), math.Inf(-1), 123456789, 1e38, 3.4028235e38} {
		lits = append(lits, ast.Float(float32(f)))
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 0.1, 1e100, 5e-324, math.MaxFloat64, 2, 1e21, 123e-7} {
		lits = append(lits, ast.Double(f))
	}
	for range 2000 {
		lits = append(lits, ast.Float(math.Float32frombits(r.Uint32())), ast.Double(math.Float64frombits(r.Uint64())))
	}
	for _, v := range []int64{math.MinInt64, -1, 0, math.MaxInt64} {
		lits = append(lits, ast.Long(v))
	}
	lits = append(lits, ast.Int(math.MinInt32), ast.Short(math.MinInt16), ast.Byte(math.MinInt8),
		ast.Char(0), ast.Char('\''), ast.Char(0xd800), ast.Char(0xffff), ast.Char(0x7f),
		ast.String(""), ast.String("\"\\\x00\x01\u007f\u0080\u00a0\u2028\ufeff😀"),
		ast.String(ast.DecodeUnits([]uint16{0xdc00, 0xd800, 'a', 0xd83d})), ast.Bool(false), ast.Null())
	for _, l := range lits {
		if (l.Kind == ast.FloatLit && math.IsNaN(float64(l.Float32()))) || (l.Kind == ast.DoubleLit && math.IsNaN(l.Float64())) {
			continue // NaN payloads are not written; NaN reads back as Java's canonical NaN
		}
		got := lexLiteral(t, l.String())
		if got.Kind != l.Kind || got.Int != l.Int || got.Bits != l.Bits || got.Str != l.Str {
			t.Errorf("%s read back as %+v, want %+v", l, got, l)
		}
	}
}
