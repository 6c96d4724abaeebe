package lexer

import (
	"strings"
	"testing"
)

type tok struct {
	kind Kind
	text string
}

func lex(src string, api int) []tok {
	var out []tok
	for _, t := range Tokenize(src, api) {
		if t.Kind.Hidden() || t.Kind == EOF {
			continue
		}
		out = append(out, tok{t.Kind, t.Text})
	}
	return out
}

func TestTokens(t *testing.T) {
	tests := []struct {
		src  string
		want []tok
	}{
		{"move/from16 v0, v1", []tok{{Mnemonic, "move/from16"}, {Register, "v0"}, {Comma, ","}, {Register, "v1"}}},
		{"const-string/jumbo", []tok{{Mnemonic, "const-string/jumbo"}}},
		{"invoke-virtual/range {v0 .. v2}", []tok{{Mnemonic, "invoke-virtual/range"}, {LBrace, "{"},
			{Register, "v0"}, {DotDot, ".."}, {Register, "v2"}, {RBrace, "}"}}},
		{"{v0..v2}", []tok{{LBrace, "{"}, {Register, "v0"}, {DotDot, ".."}, {Register, "v2"}, {RBrace, "}"}}},
		{"Ljava/lang/String;->valueOf(I)Ljava/lang/String;", []tok{{ClassDescriptor, "Ljava/lang/String;"},
			{Arrow, "->"}, {SimpleName, "valueOf"}, {LParen, "("}, {PrimitiveType, "I"}, {RParen, ")"},
			{ClassDescriptor, "Ljava/lang/String;"}}},
		{"m(IJZ)V", []tok{{SimpleName, "m"}, {LParen, "("}, {ParamListOrName, "IJZ"}, {RParen, ")"}, {VoidType, "V"}}},
		{"(I[JLa;)[[La;", []tok{{LParen, "("}, {PrimitiveType, "I"}, {ArrayPrefix, "["}, {PrimitiveType, "J"},
			{ClassDescriptor, "La;"}, {RParen, ")"}, {ArrayPrefix, "[["}, {ClassDescriptor, "La;"}}},
		{"[I->clone()", []tok{{ArrayPrefix, "["}, {PrimitiveType, "I"}, {Arrow, "->"}, {SimpleName, "clone"},
			{LParen, "("}, {RParen, ")"}}},
		{"<init> <clinit>", []tok{{MemberName, "<init>"}, {MemberName, "<clinit>"}}},
		{"-0x10 10L 10s 10t 0x7fT", []tok{{Int, "-0x10"}, {Long, "10L"}, {Short, "10s"}, {Byte, "10t"}, {Byte, "0x7fT"}}},
		{"1.5f 1.5 1e5 NaN -Infinityf 0x1.8p1", []tok{{Float, "1.5f"}, {Double, "1.5"}, {DoubleOrName, "1e5"},
			{DoubleOrName, "NaN"}, {FloatOrName, "-Infinityf"}, {Double, "0x1.8p1"}}},
		{`'\n' '\u2603' "a\tb\u0041"`, []tok{{Char, "\n"}, {Char, "☃"}, {String, "a\tbA"}}},
		{`"\ud83d\ude00" "\ud800"`, []tok{{String, "😀"}, {String, "\xed\xa0\x80"}}},
		{"true false null", []tok{{Bool, "true"}, {Bool, "false"}, {Null, "null"}}},
		{"public static final declared-synchronized", []tok{{AccessFlag, "public"}, {AccessFlag, "static"},
			{AccessFlag, "final"}, {AccessFlag, "declared-synchronized"}}},
		{"publicity movement v0x", []tok{{SimpleName, "publicity"}, {SimpleName, "movement"}, {SimpleName, "v0x"}}},
		{".end method .end  method", []tok{{Directive, ".end method"}, {Invalid, ".end"}, {SimpleName, "method"}}},
		{".restart local v0", []tok{{Directive, ".restart local"}, {Register, "v0"}}},
		{"invoke-static@LFoo;->m()V", []tok{{Mnemonic, "invoke-static"}, {At, "@"}, {ClassDescriptor, "LFoo;"},
			{Arrow, "->"}, {SimpleName, "m"}, {LParen, "("}, {RParen, ")"}, {VoidType, "V"}}},
		{"static-get@f:I", []tok{{MethodHandleType, "static-get"}, {At, "@"}, {SimpleName, "f"}, {Colon, ":"}, {PrimitiveType, "I"}}},
		{"`a b` `c`", []tok{{SimpleName, "a b"}, {SimpleName, "c"}}},
		{"nop # comment\nnop", []tok{{Mnemonic, "nop"}, {Mnemonic, "nop"}}},
		{"a = 1", []tok{{SimpleName, "a"}, {Equal, "="}, {Int, "1"}}},
		{"\x00 ~", []tok{{Invalid, "\x00"}, {Invalid, "~"}}},
	}
	for _, tt := range tests {
		got := lex(tt.src, 28)
		if len(got) != len(tt.want) {
			t.Errorf("%q: got %v, want %v", tt.src, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: token %d is %v %q, want %v %q", tt.src, i, got[i].kind, got[i].text, tt.want[i].kind, tt.want[i].text)
			}
		}
	}
}

func TestSpacesInDescriptors(t *testing.T) {
	for _, tt := range []struct {
		api  int
		kind Kind
	}{{29, Invalid}, {30, ClassDescriptor}} {
		got := lex("L`a b`/c;", tt.api)
		if len(got) != 1 || got[0].kind != tt.kind || got[0].text != "La b/c;" {
			t.Errorf("API %d: got %v, want one %v", tt.api, got, tt.kind)
		}
	}
}

func TestPositions(t *testing.T) {
	src := "a\tb\r\nc\rd\n  é f"
	want := []struct {
		text      string
		line, col int
	}{
		{"a", 1, 1}, {"b", 1, 3}, {"c", 2, 1}, {"d", 3, 1}, {"é", 4, 3}, {"f", 4, 5},
	}
	var got []Token
	for _, tok := range Tokenize(src, 28) {
		if tok.Kind == SimpleName {
			got = append(got, tok)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %d names, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Text != w.text || got[i].Line != w.line || got[i].Col != w.col {
			t.Errorf("token %d: %q at %d:%d, want %q at %d:%d", i, got[i].Text, got[i].Line, got[i].Col, w.text, w.line, w.col)
		}
	}
}

// TestNoQuadraticBlowUp lexes texts that made an early version rescan the
// rest of the input at every token. Quadratic work would take minutes here.
func TestNoQuadraticBlowUp(t *testing.T) {
	for _, unit := range []string{"L/", "La/", "IL/", "[La/", "Lx/y", "L`a/"} {
		src := strings.Repeat(unit, 200000/len(unit))
		var b strings.Builder
		for _, tok := range Tokenize(src, 28) {
			b.WriteString(tok.Raw)
		}
		if b.String() != src {
			t.Errorf("%q: tokens do not cover the input", unit)
		}
	}
}
