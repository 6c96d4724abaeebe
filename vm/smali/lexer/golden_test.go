package lexer

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/droidprof/droidprof/internal/debsrc"
	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/smali/opcode"
)

// smali's LexerTest runs every golden file at its "most recent" API level
// (10000) unless the name says otherwise, and compares hidden tokens
// (whitespace, comments) only for these two files.
var goldenWithHidden = map[string]bool{"CommentTest": true, "SymbolTest": true}

// goldenAPI is the API level each golden file is lexed at.
func goldenAPI(name string) int {
	if strings.HasSuffix(name, "_api29") {
		return 29
	}
	return 10000
}

// TestLexerGoldens compares our token stream with the token goldens of
// smali's own lexer tests (smali/src/test/resources/LexerTest in the
// libsmali-java source package): token types through smaliTokenName and
// token texts through smaliTokenText.
//
// Intentional differences, normalised here rather than counted as failures:
//   - A run of two or more primitive type letters ("IJZ") is one
//     ParamListOrName token for us; smali emits one
//     PARAM_LIST_OR_ID_PRIMITIVE_TYPE token per letter. We expand it.
//   - Positive and negative integers are one kind (Int) for us; the sign is
//     in the text.
func TestLexerGoldens(t *testing.T) {
	dir := debsrc.ForTest(t, "libsmali-java", "*/smali/src/test/resources/*")
	goldens, err := filepath.Glob(filepath.Join(dir, "*", "smali", "src", "test", "resources", "LexerTest", "*.tokens"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no LexerTest/*.tokens under %s (%v)", dir, err)
	}
	total, matched := 0, 0
	for _, golden := range goldens {
		name := strings.TrimSuffix(filepath.Base(golden), ".tokens")
		t.Run(name, func(t *testing.T) {
			want := readGolden(t, golden)
			src, err := os.ReadFile(strings.TrimSuffix(golden, ".tokens") + ".smali")
			if err != nil {
				t.Fatal(err)
			}
			var got []goldenToken
			for _, tok := range Tokenize(string(src), goldenAPI(name)) {
				if tok.Kind == EOF || (tok.Kind.Hidden() && !goldenWithHidden[name]) {
					continue
				}
				got = append(got, asSmali(tok)...)
			}
			n := 0
			for i := 0; i < min(len(got), len(want)); i++ {
				if got[i] == want[i] || (want[i].text == anyText && got[i].name == want[i].name) {
					n++
					continue
				}
				t.Errorf("token %d: got %s, want %s", i, got[i], want[i])
			}
			if len(got) != len(want) {
				t.Errorf("got %d tokens, want %d", len(got), len(want))
			}
			total += len(want)
			matched += n
			t.Logf("%d/%d tokens match", n, len(want))
		})
	}
	t.Logf("all goldens: %d/%d tokens match in %d files", matched, total, len(goldens))
}

type goldenToken struct{ name, text string }

// anyText stands for a golden token given without text.
const anyText = "\x00any"

func (g goldenToken) String() string { return fmt.Sprintf("%s(%q)", g.name, g.text) }

// asSmali maps one of our tokens to the token(s) smali's lexer produces.
func asSmali(t Token) []goldenToken {
	switch t.Kind {
	case ParamListOrName:
		var out []goldenToken
		for _, c := range t.Text {
			out = append(out, goldenToken{"PARAM_LIST_OR_ID_PRIMITIVE_TYPE", string(c)})
		}
		return out
	case String:
		return []goldenToken{{"STRING_LITERAL", `"` + t.Text + `"`}}
	case Char:
		return []goldenToken{{"CHAR_LITERAL", `'` + t.Text + `'`}}
	}
	return []goldenToken{{smaliTokenName(t), t.Text}}
}

var directiveTokenNames = map[string]string{
	".class": "CLASS_DIRECTIVE", ".super": "SUPER_DIRECTIVE", ".implements": "IMPLEMENTS_DIRECTIVE",
	".source": "SOURCE_DIRECTIVE", ".field": "FIELD_DIRECTIVE", ".end field": "END_FIELD_DIRECTIVE",
	".subannotation": "SUBANNOTATION_DIRECTIVE", ".end subannotation": "END_SUBANNOTATION_DIRECTIVE",
	".annotation": "ANNOTATION_DIRECTIVE", ".end annotation": "END_ANNOTATION_DIRECTIVE",
	".enum": "ENUM_DIRECTIVE", ".method": "METHOD_DIRECTIVE", ".end method": "END_METHOD_DIRECTIVE",
	".registers": "REGISTERS_DIRECTIVE", ".locals": "LOCALS_DIRECTIVE",
	".array-data": "ARRAY_DATA_DIRECTIVE", ".end array-data": "END_ARRAY_DATA_DIRECTIVE",
	".packed-switch": "PACKED_SWITCH_DIRECTIVE", ".end packed-switch": "END_PACKED_SWITCH_DIRECTIVE",
	".sparse-switch": "SPARSE_SWITCH_DIRECTIVE", ".end sparse-switch": "END_SPARSE_SWITCH_DIRECTIVE",
	".catch": "CATCH_DIRECTIVE", ".catchall": "CATCHALL_DIRECTIVE", ".line": "LINE_DIRECTIVE",
	".param": "PARAMETER_DIRECTIVE", ".end param": "END_PARAMETER_DIRECTIVE",
	".local": "LOCAL_DIRECTIVE", ".end local": "END_LOCAL_DIRECTIVE",
	".restart local": "RESTART_LOCAL_DIRECTIVE", ".prologue": "PROLOGUE_DIRECTIVE",
	".epilogue": "EPILOGUE_DIRECTIVE",
}

var kindTokenNames = map[Kind]string{
	Invalid: "INVALID_TOKEN", Whitespace: "WHITE_SPACE", Comment: "LINE_COMMENT",
	AccessFlag: "ACCESS_SPEC", HiddenAPI: "HIDDENAPI_RESTRICTION",
	VerificationError: "VERIFICATION_ERROR_TYPE", AnnotationVisibility: "ANNOTATION_VISIBILITY",
	InlineIndex: "INLINE_INDEX", VtableIndex: "VTABLE_INDEX", FieldOffset: "FIELD_OFFSET",
	Register: "REGISTER", Long: "LONG_LITERAL", Short: "SHORT_LITERAL", Byte: "BYTE_LITERAL",
	Float: "FLOAT_LITERAL", FloatOrName: "FLOAT_LITERAL_OR_ID", Double: "DOUBLE_LITERAL",
	DoubleOrName: "DOUBLE_LITERAL_OR_ID", Bool: "BOOL_LITERAL", Null: "NULL_LITERAL",
	PrimitiveType: "PRIMITIVE_TYPE", VoidType: "VOID_TYPE", ClassDescriptor: "CLASS_DESCRIPTOR",
	ArrayPrefix: "ARRAY_TYPE_PREFIX", SimpleName: "SIMPLE_NAME", MemberName: "MEMBER_NAME",
	DotDot: "DOTDOT", Arrow: "ARROW", Equal: "EQUAL", Colon: "COLON", Comma: "COMMA",
	LBrace: "OPEN_BRACE", RBrace: "CLOSE_BRACE", LParen: "OPEN_PAREN", RParen: "CLOSE_PAREN", At: "AT",
}

func smaliTokenName(t Token) string {
	switch t.Kind {
	case Directive:
		return directiveTokenNames[t.Text]
	case Int:
		if strings.HasPrefix(t.Text, "-") {
			return "NEGATIVE_INTEGER_LITERAL"
		}
		return "POSITIVE_INTEGER_LITERAL"
	case MethodHandleType:
		if strings.HasPrefix(t.Text, "invoke-") {
			return "METHOD_HANDLE_TYPE_METHOD"
		}
		return "METHOD_HANDLE_TYPE_FIELD"
	case Mnemonic:
		return mnemonicTokenName(opcode.Lookup(t.Text))
	}
	if n, ok := kindTokenNames[t.Kind]; ok {
		return n
	}
	return "?" + t.Kind.String()
}

// mnemonicTokenName derives smali's INSTRUCTION_FORMAT* token name from our
// opcode table, so the goldens also check each mnemonic's format and
// reference kind.
func mnemonicTokenName(i *opcode.Info) string {
	name := "INSTRUCTION_FORMAT" + i.Format.String()
	switch i.Name {
	case "const/high16":
		return "INSTRUCTION_FORMAT21ih"
	case "const-wide/high16":
		return "INSTRUCTION_FORMAT21lh"
	case "rsub-int", "const":
		return name + "_OR_ID"
	case "invoke-direct", "invoke-static", "invoke-interface":
		return name + "_METHOD_OR_METHOD_HANDLE_TYPE"
	case "invoke-direct-empty":
		return name + "_METHOD_ODEX"
	case "invoke-object-init/range":
		return name + "_METHOD_ODEX"
	}
	if i.Format == opcode.Format12x && !strings.Contains(i.Name, "/") {
		return name + "_OR_ID"
	}
	switch i.Format {
	case opcode.Format21c, opcode.Format22c, opcode.Format35c, opcode.Format3rc, opcode.Format22cs,
		opcode.Format35mi, opcode.Format35ms, opcode.Format3rmi, opcode.Format3rms,
		opcode.Format45cc, opcode.Format4rcc:
		suffix := map[opcode.Operand]string{
			opcode.StringRef: "_STRING", opcode.TypeRef: "_TYPE", opcode.FieldRef: "_FIELD",
			opcode.MethodRef: "_METHOD", opcode.ProtoRef: "_METHOD_TYPE", opcode.CallSiteRef: "_CALL_SITE",
			opcode.MethodHandleRef: "_METHOD_HANDLE", opcode.FieldOffset: "_FIELD",
			opcode.InlineIndex: "_METHOD", opcode.VtableIndex: "_METHOD",
		}[i.Operands[len(i.Operands)-1]]
		if i.Format == opcode.Format45cc || i.Format == opcode.Format4rcc {
			suffix = "_METHOD"
		}
		name += suffix
	}
	if i.Odex && (i.Format == opcode.Format10x || i.Format == opcode.Format21c || i.Format == opcode.Format22c) {
		name += "_ODEX"
	}
	return name
}

// readGolden parses a .tokens file: NAME or NAME("text") items separated by
// white space, with Java escapes in the text.
func readGolden(t *testing.T, path string) []goldenToken {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	var out []goldenToken
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			i++
			continue
		}
		j := i
		for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		if j == i {
			t.Fatalf("%s: unexpected %q at byte %d", path, c, i)
		}
		tok := goldenToken{name: s[i:j]}
		i = j
		if strings.HasPrefix(s[i:], `("`) {
			var units []uint16
			i += 2
			for s[i] != '"' {
				if s[i] == '\\' {
					e := s[i+1]
					if e == 'u' {
						v, err := strconv.ParseUint(s[i+2:i+6], 16, 16)
						if err != nil {
							t.Fatalf("%s: bad escape at %d", path, i)
						}
						units = append(units, uint16(v))
						i += 6
						continue
					}
					units = append(units, uint16(map[byte]rune{'b': '\b', 't': '\t', 'n': '\n', 'f': '\f', 'r': '\r', '"': '"', '\'': '\'', '\\': '\\'}[e]))
					i += 2
					continue
				}
				r := []rune(s[i:])[0]
				units = append(units, utf16.Encode([]rune{r})...)
				i += len(string(r))
			}
			if !strings.HasPrefix(s[i:], `")`) {
				t.Fatalf("%s: unterminated text at %d", path, i)
			}
			i += 2
			tok.text = ast.DecodeUnits(units)
		} else {
			tok.text = anyText
		}
		out = append(out, tok)
	}
	return out
}
