// Package lexer splits smali source text into tokens, the way smali 2.5.2's
// lexer does: the longest match wins and, between matches of equal length,
// the more specific rule (directive, literal, keyword, type) beats a plain
// simple name. Words such as "move", "I", "v0" or "public" are lexed as what
// they usually mean; the parser accepts them as names where a name is due.
package lexer

import "fmt"

// Kind is the kind of a token.
type Kind uint8

// Token kinds.
const (
	EOF                  Kind = iota
	Invalid                   // text no rule accepts; Token.Err says why
	Whitespace                // spaces, tabs and line breaks (hidden)
	Comment                   // # to the end of the line (hidden)
	Directive                 // .class, .end method, ...; Text is the canonical spelling
	Mnemonic                  // an instruction mnemonic from package opcode
	AccessFlag                // public, static, declared-synchronized, ...
	HiddenAPI                 // whitelist, greylist-max-o, core-platform-api, ...
	VerificationError         // no-error, no-such-class, ... (odex only)
	AnnotationVisibility      // build, runtime, system
	MethodHandleType          // static-put, static-get, instance-put, instance-get, invoke-instance, invoke-constructor
	InlineIndex               // inline@0x12 (odex only)
	VtableIndex               // vtable@0x12 (odex only)
	FieldOffset               // field@0x12 (odex only)
	Register                  // v0, p1
	Int                       // 12, -0x1f, 017
	Long                      // 12L
	Short                     // 12s
	Byte                      // 12t
	Float                     // 1.5f, 0x1.8p1f
	FloatOrName               // 1e5f, 12f, NaNf, -Infinityf: a float that is also a valid simple name
	Double                    // 1.5, .5d, 0x1.8p1
	DoubleOrName              // 1e5, 12d, NaN, Infinity: a double that is also a valid simple name
	Char                      // 'a', '\n', '\u1234'; Text is the decoded character
	String                    // "..."; Text is the decoded string (see ast.DecodeUnits)
	Bool                      // true, false
	Null                      // null
	PrimitiveType             // Z B S C I J F D
	VoidType                  // V
	ClassDescriptor           // Ljava/lang/String;; Text has backquotes removed
	ArrayPrefix               // one or more [
	ParamListOrName           // two or more primitive type letters, e.g. "IJZ": a parameter list or a name
	SimpleName                // a name; Text has backquotes removed
	MemberName                // <init>, <clinit>
	DotDot                    // ..
	Arrow                     // ->
	Equal                     // =
	Colon                     // :
	Comma                     // ,
	LBrace                    // {
	RBrace                    // }
	LParen                    // (
	RParen                    // )
	At                        // @
)

var kindNames = [...]string{
	EOF: "end of file", Invalid: "invalid token", Whitespace: "whitespace", Comment: "comment",
	Directive: "directive", Mnemonic: "instruction", AccessFlag: "access flag",
	HiddenAPI: "hidden API restriction", VerificationError: "verification error type",
	AnnotationVisibility: "annotation visibility", MethodHandleType: "method handle type",
	InlineIndex: "inline index", VtableIndex: "vtable index", FieldOffset: "field offset",
	Register: "register", Int: "integer literal", Long: "long literal", Short: "short literal",
	Byte: "byte literal", Float: "float literal", FloatOrName: "float literal",
	Double: "double literal", DoubleOrName: "double literal", Char: "char literal",
	String: "string literal", Bool: "boolean literal", Null: "null", PrimitiveType: "primitive type",
	VoidType: "void type", ClassDescriptor: "class descriptor", ArrayPrefix: "array type prefix",
	ParamListOrName: "parameter list", SimpleName: "name", MemberName: "member name",
	DotDot: `".."`, Arrow: `"->"`, Equal: `"="`, Colon: `":"`, Comma: `","`, LBrace: `"{"`,
	RBrace: `"}"`, LParen: `"("`, RParen: `")"`, At: `"@"`,
}

// String describes the kind for error messages.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Hidden reports whether the parser ignores tokens of this kind.
func (k Kind) Hidden() bool { return k == Whitespace || k == Comment }

// Token is one token of smali source.
type Token struct {
	Kind Kind
	// Raw is the exact source text of the token.
	Raw string
	// Text is the token's meaning: for strings and chars the decoded value
	// without quotes; for names and class descriptors the text without
	// backquotes; for directives the canonical spelling; otherwise Raw.
	Text string
	// Offset is the byte offset of the token in the source.
	Offset int
	// Line and Col locate the token's first character, both 1-based; Col
	// counts characters (Unicode code points), not bytes.
	Line, Col int
	// Err explains an Invalid token.
	Err string
}

// String renders the token for debugging, e.g. Register("v0").
func (t Token) String() string { return fmt.Sprintf("%v(%q)", t.Kind, t.Raw) }
