package lexer

import (
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/smali/opcode"
)

// SpacesAPI is the first API level whose DEX format (040) allows spaces in
// backquoted class and member names.
const SpacesAPI = 30

// Lexer produces the tokens of one source text, hidden ones included.
type Lexer struct {
	src       string
	pos       int
	line, col int
	api       int
	state     state
	// No class descriptor starts strictly between these offsets.
	noClassFrom, noClassUntil int
}

type state uint8

const (
	stInitial   state = iota
	stParamList       // inside a run of two or more type descriptors
	stArrayDesc       // right after an array prefix
)

// New returns a lexer for src; api is the target API level (smali -a),
// which decides whether backquoted names may contain spaces.
func New(src string, api int) *Lexer {
	return &Lexer{src: src, line: 1, col: 1, api: api}
}

// Tokenize returns all tokens of src, hidden ones included, ending with EOF.
func Tokenize(src string, api int) []Token {
	l := New(src, api)
	var toks []Token
	for {
		t := l.Next()
		toks = append(toks, t)
		if t.Kind == EOF {
			return toks
		}
	}
}

var directives = []string{
	".class", ".super", ".implements", ".source", ".field", ".end field", ".subannotation",
	".end subannotation", ".annotation", ".end annotation", ".enum", ".method", ".end method",
	".registers", ".locals", ".array-data", ".end array-data", ".packed-switch",
	".end packed-switch", ".sparse-switch", ".end sparse-switch", ".catch", ".catchall", ".line",
	".param", ".end param", ".local", ".end local", ".restart local", ".prologue", ".epilogue",
}

// Directives lists every directive smali 2.5.2 knows, in canonical spelling.
func Directives() []string { return append([]string(nil), directives...) }

type keywordSet struct {
	words map[string]bool
	lens  []int // distinct word lengths, longest first
	first [256]bool
}

func newKeywords(words ...string) keywordSet {
	k := keywordSet{words: map[string]bool{}}
	seen := map[int]bool{}
	for _, w := range words {
		k.words[w] = true
		k.first[w[0]] = true
		if !seen[len(w)] {
			seen[len(w)] = true
			k.lens = append(k.lens, len(w))
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(k.lens)))
	return k
}

// longest returns the length of the longest keyword that s starts with;
// limit bounds the length (the run of characters keywords are made of).
func (k *keywordSet) longest(s string, limit int) int {
	if s == "" || !k.first[s[0]] {
		return 0
	}
	for _, n := range k.lens {
		if n <= limit && k.words[s[:n]] {
			return n
		}
	}
	return 0
}

// keywordRunLen is the length of the run of characters keywords consist of
// (directives, access flags, mnemonics, ...).
func keywordRunLen(s string) int {
	return runWhile(s, func(c byte) bool {
		return (c >= 'a' && c <= 'z') || isDigit(c) || c == '-' || c == '/' || c == '.' || c == ' '
	})
}

var (
	directiveWords   = newKeywords(directives...)
	visibilityWords  = newKeywords("build", "runtime", "system")
	accessWords      = newKeywords(AccessFlagNames()...)
	hiddenAPIWords   = newKeywords(HiddenAPINames()...)
	verifyErrorWords = newKeywords("no-error", "generic-error", "no-such-class", "no-such-field",
		"no-such-method", "illegal-class-access", "illegal-field-access", "illegal-method-access",
		"class-change-error", "instantiation-error")
	handleTypeWords = newKeywords("static-put", "static-get", "instance-put", "instance-get",
		"invoke-instance", "invoke-constructor")
	mnemonicWords = func() keywordSet {
		var names []string
		for _, i := range opcode.All() {
			names = append(names, i.Name)
		}
		return newKeywords(names...)
	}()
)

// AccessFlagNames lists the access flag words smali accepts.
func AccessFlagNames() []string {
	return []string{"public", "private", "protected", "static", "final", "synchronized", "bridge",
		"varargs", "native", "abstract", "strictfp", "synthetic", "constructor",
		"declared-synchronized", "interface", "enum", "annotation", "volatile", "transient"}
}

// HiddenAPINames lists the hidden API restriction words smali accepts.
func HiddenAPINames() []string {
	return []string{"whitelist", "greylist", "blacklist", "greylist-max-o", "greylist-max-p",
		"greylist-max-q", "greylist-max-r", "core-platform-api", "test-api"}
}

// rule identifies which lexical rule produced a match; lower values win ties.
type rule uint8

const (
	rNone rule = iota
	rDirective
	rBadEnd // .end / .restart followed by something that is no directive
	rPosInt
	rNegInt
	rLong
	rShort
	rByte
	rFloatOrName
	rDoubleOrName
	rFloat
	rDouble
	rBool
	rNull
	rRegister
	rVisibility
	rAccess
	rHiddenAPI
	rVerifyError
	rInline
	rVtable
	rFieldOffset
	rHandleType
	rMnemonic
	rPrimitive
	rVoid
	rClassDesc
	rArrayPrefix
	rParamListOrName
	rParamList
	rSimpleName
	rQuotedName
	rQuotedSpaceName
	rMemberName
	rDotDot
	rArrow
	rEqual
	rColon
	rComma
	rLBrace
	rRBrace
	rLParen
	rRParen
	rAt
	rWhitespace
	rBadDirective
	rBadText
)

// Next returns the next token; at the end it returns EOF tokens forever.
func (l *Lexer) Next() Token {
	switch l.state {
	case stParamList:
		if t, ok := l.typeInList(true); ok {
			return t
		}
		l.state = stInitial
	case stArrayDesc:
		if t, ok := l.typeInList(false); ok {
			return t
		}
		l.state = stInitial
	}
	if l.pos >= len(l.src) {
		return Token{Kind: EOF, Offset: l.pos, Line: l.line, Col: l.col}
	}
	s := l.src[l.pos:]
	switch s[0] {
	case '"':
		return l.quoted('"')
	case '\'':
		return l.quoted('\'')
	case '#':
		n := strings.IndexAny(s, "\r\n")
		if n < 0 {
			n = len(s)
		}
		return l.emit(Comment, n)
	case ' ', '\t', '\r', '\n':
		return l.emit(Whitespace, whitespaceLen(s))
	case '=', ':', ',', '{', '}', '(', ')', '@':
		// No other rule matches text starting with these.
		return l.emit(ruleKinds[symbolRules[s[0]]], 1)
	}

	kw := keywordRunLen(s)
	best, bestRule := 0, rNone
	try := func(n int, r rule) {
		if n > best {
			best, bestRule = n, r
		}
	}
	try(directiveWords.longest(s, kw), rDirective)
	try(badEndLen(s), rBadEnd)
	try(matchIntegers(s, rPosInt))
	try(negIntLen(s), rNegInt)
	try(suffixedIntLen(s, 'l'), rLong)
	try(suffixedIntLen(s, 's'), rShort)
	try(suffixedIntLen(s, 't'), rByte)
	try(floatOrNameLen(s, 'f'), rFloatOrName)
	try(floatOrNameLen(s, 'd'), rDoubleOrName)
	try(floatLen(s, 'f'), rFloat)
	try(floatLen(s, 'd'), rDouble)
	if strings.HasPrefix(s, "true") || strings.HasPrefix(s, "false") {
		try(len("true")+boolToInt(s[0] == 'f'), rBool)
	}
	if strings.HasPrefix(s, "null") {
		try(4, rNull)
	}
	try(registerLen(s), rRegister)
	try(visibilityWords.longest(s, kw), rVisibility)
	try(accessWords.longest(s, kw), rAccess)
	try(hiddenAPIWords.longest(s, kw), rHiddenAPI)
	try(verifyErrorWords.longest(s, kw), rVerifyError)
	try(prefixedHexLen(s, "inline@0x"), rInline)
	try(prefixedHexLen(s, "vtable@0x"), rVtable)
	try(prefixedHexLen(s, "field@0x"), rFieldOffset)
	try(handleTypeWords.longest(s, kw), rHandleType)
	try(mnemonicWords.longest(s, kw), rMnemonic)
	if isPrimitive(s[0]) {
		try(1, rPrimitive)
	}
	if s[0] == 'V' {
		try(1, rVoid)
	}
	try(l.classDescLen(l.pos), rClassDesc)
	try(runLen(s, '['), rArrayPrefix)
	if n := primRunLen(s); n >= 2 {
		try(n, rParamListOrName)
	}
	if n, count := l.typeRunLen(l.pos); count >= 2 {
		try(n, rParamList)
	}
	try(nameRunLen(s), rSimpleName)
	if n, spaces := quotedNameLen(s); n > 0 {
		if spaces {
			try(n, rQuotedSpaceName)
		} else {
			try(n, rQuotedName)
		}
	}
	try(memberNameLen(s), rMemberName)
	for _, sym := range symbols {
		if strings.HasPrefix(s, sym.text) {
			try(len(sym.text), sym.rule)
		}
	}
	try(whitespaceLen(s), rWhitespace)
	try(badDirectiveLen(s), rBadDirective)
	if best == 0 {
		_, n := utf8.DecodeRuneInString(s)
		best, bestRule = n, rBadText
	}
	return l.produce(bestRule, best)
}

var symbols = []struct {
	text string
	rule rule
}{
	{"..", rDotDot}, {"->", rArrow}, {"=", rEqual}, {":", rColon}, {",", rComma},
	{"{", rLBrace}, {"}", rRBrace}, {"(", rLParen}, {")", rRParen}, {"@", rAt},
}

var symbolRules = map[byte]rule{'=': rEqual, ':': rColon, ',': rComma, '{': rLBrace, '}': rRBrace, '(': rLParen, ')': rRParen, '@': rAt}

var ruleKinds = map[rule]Kind{
	rPosInt: Int, rNegInt: Int, rLong: Long, rShort: Short, rByte: Byte,
	rFloatOrName: FloatOrName, rDoubleOrName: DoubleOrName, rFloat: Float, rDouble: Double,
	rBool: Bool, rNull: Null, rRegister: Register, rVisibility: AnnotationVisibility,
	rAccess: AccessFlag, rHiddenAPI: HiddenAPI, rVerifyError: VerificationError,
	rInline: InlineIndex, rVtable: VtableIndex, rFieldOffset: FieldOffset,
	rHandleType: MethodHandleType, rMnemonic: Mnemonic, rPrimitive: PrimitiveType,
	rVoid: VoidType, rArrayPrefix: ArrayPrefix, rParamListOrName: ParamListOrName,
	rSimpleName: SimpleName, rMemberName: MemberName, rDotDot: DotDot, rArrow: Arrow,
	rEqual: Equal, rColon: Colon, rComma: Comma, rLBrace: LBrace, rRBrace: RBrace,
	rLParen: LParen, rRParen: RParen, rAt: At, rWhitespace: Whitespace, rDirective: Directive,
}

func (l *Lexer) produce(r rule, n int) Token {
	switch r {
	case rBadEnd, rBadDirective:
		t := l.emit(Invalid, n)
		t.Err = "invalid directive"
		return t
	case rBadText:
		t := l.emit(Invalid, n)
		t.Err = "invalid text"
		return t
	case rClassDesc:
		return l.classDesc(n)
	case rParamList:
		l.state = stParamList
		t, _ := l.typeInList(true)
		return t
	case rArrayPrefix:
		l.state = stArrayDesc
		return l.emit(ArrayPrefix, n)
	case rQuotedName, rQuotedSpaceName:
		// smali 2.5.2 does not reject spaces in a bare backquoted name
		// below API 30 (only inside class descriptors); neither do we.
		raw := l.src[l.pos : l.pos+n]
		return l.emitText(SimpleName, n, raw[1:len(raw)-1])
	}
	return l.emit(ruleKinds[r], n)
}

// emit makes a token of the next n bytes, whose text is the raw source,
// and advances past them.
func (l *Lexer) emit(k Kind, n int) Token {
	return l.emitText(k, n, l.src[l.pos:l.pos+n])
}

// emitText is emit with a text other than the raw source.
func (l *Lexer) emitText(k Kind, n int, text string) Token {
	raw := l.src[l.pos : l.pos+n]
	t := Token{Kind: k, Raw: raw, Text: text, Offset: l.pos, Line: l.line, Col: l.col}
	l.advance(n)
	return t
}

func (l *Lexer) advance(n int) {
	end := l.pos + n
	for l.pos < end {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.col = 1
			l.pos++
		case c == '\r':
			l.pos++
			if l.pos >= len(l.src) || l.src[l.pos] != '\n' {
				l.line++
				l.col = 1
			}
		case c < utf8.RuneSelf:
			l.col++
			l.pos++
		default:
			_, size := utf8.DecodeRuneInString(l.src[l.pos:end])
			l.col++
			l.pos += size
		}
	}
}

// typeInList lexes one type descriptor inside a parameter list (list) or
// right after an array prefix (!list). It reports false when the next
// characters are no such type, so the caller lexes them normally.
func (l *Lexer) typeInList(list bool) (Token, bool) {
	s := l.src[l.pos:]
	if s == "" {
		return Token{}, false
	}
	if isPrimitive(s[0]) {
		if !list {
			l.state = stInitial
		}
		return l.emit(PrimitiveType, 1), true
	}
	if n := l.classDescLen(l.pos); n > 0 {
		// The state is kept: smali returns to the state it was in.
		return l.classDesc(n), true
	}
	if list && s[0] == '[' {
		return l.emit(ArrayPrefix, runLen(s, '[')), true
	}
	return Token{}, false
}

func (l *Lexer) classDesc(n int) Token {
	raw := l.src[l.pos : l.pos+n]
	text, spaces := unquoteDescriptor(raw)
	if spaces && l.api < SpacesAPI {
		t := l.emitText(Invalid, n, text)
		t.Err = "spaces in class descriptors and member names are not supported prior to API level 30 (DEX 040)"
		return t
	}
	return l.emitText(ClassDescriptor, n, text)
}

// unquoteDescriptor removes the backquotes around the segments of a class
// descriptor and reports whether a quoted segment holds a space.
func unquoteDescriptor(raw string) (string, bool) {
	if !strings.Contains(raw, "`") {
		return raw, false
	}
	var b strings.Builder
	spaces := false
	quoted := false
	for _, r := range raw {
		if r == '`' {
			quoted = !quoted
			continue
		}
		if quoted && isUnicodeSpace(r) {
			spaces = true
		}
		b.WriteRune(r)
	}
	return b.String(), spaces
}

// quoted lexes a string (q == '"') or char (q == '\”) literal.
func (l *Lexer) quoted(q byte) Token {
	s := l.src[l.pos:]
	var units []uint16
	errMsg := ""
	setErr := func(m string) {
		if errMsg == "" {
			errMsg = m
		}
	}
	raw := func(t string) { units = append(units, utf16.Encode([]rune(t))...) }
	i := 1
	closed := false
loop:
	for i < len(s) {
		c := s[i]
		switch {
		case c == q:
			i++
			closed = true
			break loop
		case c == '\r' || c == '\n':
			break loop
		case c == '\\':
			if i+1 >= len(s) {
				raw(`\`)
				i++
				break loop
			}
			e := s[i+1]
			switch e {
			case 'b', 't', 'n', 'f', 'r', '\'', '"', '\\':
				units = append(units, uint16(escapes[e]))
				i += 2
			case 'u':
				h := hexRunLen(s[i+2:])
				switch {
				case h == 4 || (h > 4 && q == '"'):
					units = append(units, uint16(hexValue(s[i+2:i+6])))
					i += 6
				case q == '"':
					raw(s[i : i+2+h])
					i += 2 + h
					setErr(`invalid \u sequence: \u must be followed by 4 hex digits`)
				default:
					raw(s[i : i+2+h])
					i += 2 + h
					setErr(`invalid \u sequence: \u must be followed by exactly 4 hex digits`)
				}
			default:
				r, size := utf8.DecodeRuneInString(s[i+1:])
				raw(`\` + string(r))
				i += 1 + size
				setErr("invalid escape sequence " + s[i-1-size:i])
			}
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			units = append(units, utf16.Encode([]rune{r})...)
			i += size
		}
	}
	text := ast.DecodeUnits(units)
	what := "string"
	kind := String
	if q == '\'' {
		what, kind = "character", Char
	}
	if !closed {
		t := l.emitText(Invalid, i, string(q)+text)
		t.Err = "unterminated " + what + " literal"
		return t
	}
	if q == '\'' && errMsg == "" {
		switch {
		case len(units) == 0:
			errMsg = "empty character literal"
		case len(units) > 1:
			errMsg = "character literal with multiple characters"
		}
	}
	if errMsg != "" {
		t := l.emitText(Invalid, i, string(q)+text+string(q))
		t.Err = errMsg
		return t
	}
	return l.emitText(kind, i, text)
}

var escapes = map[byte]rune{'b': '\b', 't': '\t', 'n': '\n', 'f': '\f', 'r': '\r', '\'': '\'', '"': '"', '\\': '\\'}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isPrimitive(c byte) bool { return strings.IndexByte("ZBSCIJFD", c) >= 0 }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func hexValue(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			v = v*16 + int(c-'0')
		default:
			v = v*16 + int(c|0x20-'a'+10)
		}
	}
	return v
}

func runLen(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

func runWhile(s string, f func(byte) bool) int {
	n := 0
	for n < len(s) && f(s[n]) {
		n++
	}
	return n
}

func hexRunLen(s string) int { return runWhile(s, isHex) }

func decRunLen(s string) int { return runWhile(s, isDigit) }

func primRunLen(s string) int { return runWhile(s, isPrimitive) }

func whitespaceLen(s string) int {
	return runWhile(s, func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' })
}

// IsNameRune reports whether r may appear in an unquoted smali simple name.
func IsNameRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '$', r == '-', r == '_':
		return true
	case r >= 0xa1 && r <= 0x1fff, r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0xd7ff,
		r >= 0xe000 && r <= 0xffef, r >= 0x10000 && r <= utf8.MaxRune:
		return true
	}
	return false
}

func isUnicodeSpace(r rune) bool {
	return r == 0x20 || r == 0xa0 || r == 0x1680 || (r >= 0x2000 && r <= 0x200a) || r == 0x202f ||
		r == 0x205f || r == 0x3000
}

// nameRunLen is the byte length of the longest run of name characters.
func nameRunLen(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if (r == utf8.RuneError && size == 1) || !IsNameRune(r) {
			break
		}
		n += size
	}
	return n
}

// quotedNameLen matches `name` (spaces allowed inside) and reports whether
// the name contains a space.
func quotedNameLen(s string) (int, bool) {
	if s == "" || s[0] != '`' {
		return 0, false
	}
	n := 1
	spaces := false
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if r == utf8.RuneError && size == 1 {
			return 0, false
		}
		if isUnicodeSpace(r) {
			spaces = true
		} else if !IsNameRune(r) {
			break
		}
		n += size
	}
	if n == 1 || n >= len(s) || s[n] != '`' {
		return 0, false
	}
	return n + 1, spaces
}

// segmentLen matches one segment of a class descriptor: a raw or quoted
// simple name.
func segmentLen(s string) int {
	if n := nameRunLen(s); n > 0 {
		return n
	}
	n, _ := quotedNameLen(s)
	return n
}

// classDescLen matches L(name/)*name; at byte offset off of the source.
//
// A failed match that saw no backquote is remembered: every start inside
// the scanned text fails at the same place, so it is not scanned again.
// Without this, text like "L/L/L/..." would take quadratic time.
func (l *Lexer) classDescLen(off int) int {
	if off > l.noClassFrom && off < l.noClassUntil {
		return 0
	}
	n, failAt, quoted := classDescScan(l.src[off:])
	if n == 0 && !quoted {
		l.noClassFrom, l.noClassUntil = off, off+failAt
	}
	return n
}

// classDescScan matches L(name/)*name; at the start of s. On failure it
// returns where the scan stopped and whether it met a backquote.
func classDescScan(s string) (n, failAt int, quoted bool) {
	if s == "" || s[0] != 'L' {
		return 0, 0, false
	}
	i := 1
	for {
		if i < len(s) && s[i] == '`' {
			quoted = true
		}
		m := segmentLen(s[i:])
		if m == 0 {
			return 0, i, quoted
		}
		i += m
		if i >= len(s) {
			return 0, i, quoted
		}
		switch s[i] {
		case '/':
			i++
		case ';':
			return i + 1, 0, quoted
		default:
			return 0, i, quoted
		}
	}
}

// typeLen matches one field type descriptor (primitive, class or array) at
// byte offset off.
func (l *Lexer) typeLen(off int) int {
	s := l.src[off:]
	if s == "" {
		return 0
	}
	switch {
	case isPrimitive(s[0]):
		return 1
	case s[0] == 'L':
		return l.classDescLen(off)
	case s[0] == '[':
		n := runLen(s, '[')
		if n < len(s) && isPrimitive(s[n]) {
			return n + 1
		}
		if m := l.classDescLen(off + n); m > 0 {
			return n + m
		}
	}
	return 0
}

// typeRunLen matches as many consecutive type descriptors as possible at
// byte offset off.
func (l *Lexer) typeRunLen(off int) (n, count int) {
	for {
		m := l.typeLen(off + n)
		if m == 0 {
			return n, count
		}
		n += m
		count++
	}
}

func memberNameLen(s string) int {
	if s == "" || s[0] != '<' {
		return 0
	}
	n := nameRunLen(s[1:])
	if n == 0 || 1+n >= len(s) || s[1+n] != '>' {
		return 0
	}
	return n + 2
}

func registerLen(s string) int {
	if len(s) < 2 || (s[0] != 'v' && s[0] != 'p') {
		return 0
	}
	n := decRunLen(s[1:])
	if n == 0 {
		return 0
	}
	return n + 1
}

func prefixedHexLen(s, prefix string) int {
	if !strings.HasPrefix(s, prefix) {
		return 0
	}
	n := hexRunLen(s[len(prefix):])
	if n == 0 {
		return 0
	}
	return len(prefix) + n
}

// isDirectiveChar is smali's [a-zA-z0-9\-_] class; note that A-z also takes
// in [ \ ] ^ and the backquote.
func isDirectiveChar(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'z') || isDigit(c) || c == '-' || c == '_'
}

func badEndLen(s string) int {
	for _, p := range []string{".end", ".restart"} {
		if strings.HasPrefix(s, p) {
			n := len(p)
			if n < len(s) && s[n] == ' ' {
				if m := runWhile(s[n+1:], isDirectiveChar); m > 0 {
					return n + 1 + m
				}
			}
			return n
		}
	}
	return 0
}

func badDirectiveLen(s string) int {
	if s == "" || s[0] != '.' {
		return 0
	}
	if len(s) < 2 || !(isDirectiveChar(s[1]) && !isDigit(s[1])) {
		return 1
	}
	return 2 + runWhile(s[2:], isDirectiveChar)
}

// integerEnds lists the possible ends of an Integer match at the start of s:
// 0 | [1-9][0-9]* | 0[0-7]+ | 0[xX][0-9a-fA-F]+.
func integerEnds(s string) []int {
	if s == "" || !isDigit(s[0]) {
		return nil
	}
	if s[0] != '0' {
		return []int{decRunLen(s)}
	}
	ends := []int{1}
	if n := runWhile(s[1:], isOctal); n > 0 {
		ends = append(ends, 1+n)
	}
	if len(s) > 2 && (s[1] == 'x' || s[1] == 'X') {
		if n := hexRunLen(s[2:]); n > 0 {
			ends = append(ends, 2+n)
		}
	}
	return ends
}

func matchIntegers(s string, r rule) (int, rule) {
	best := 0
	for _, e := range integerEnds(s) {
		best = max(best, e)
	}
	return best, r
}

func negIntLen(s string) int {
	if s == "" || s[0] != '-' {
		return 0
	}
	n, _ := matchIntegers(s[1:], rNegInt)
	if n == 0 {
		return 0
	}
	return n + 1
}

func optMinus(s string) int {
	if s != "" && s[0] == '-' {
		return 1
	}
	return 0
}

// suffixedIntLen matches -?Integer followed by the suffix letter in either
// case.
func suffixedIntLen(s string, suffix byte) int {
	m := optMinus(s)
	best := 0
	for _, e := range integerEnds(s[m:]) {
		if m+e < len(s) && s[m+e]|0x20 == suffix {
			best = max(best, m+e+1)
		}
	}
	return best
}

// exponentLen matches [eE]-?[0-9]+ (decimal) or [pP]-?[0-9]+ (binary).
func exponentLen(s string, letter byte) int {
	if s == "" || s[0]|0x20 != letter {
		return 0
	}
	m := 1 + optMinus(s[1:])
	n := decRunLen(s[m:])
	if n == 0 {
		return 0
	}
	return m + n
}

// floatOrIDLen matches smali's FloatOrID: -?[0-9]+ exp | -?0x hex+ pexp |
// -?infinity | nan (letters in any case).
func floatOrIDLen(s string) int {
	m := optMinus(s)
	t := s[m:]
	if n := decRunLen(t); n > 0 {
		if e := exponentLen(t[n:], 'e'); e > 0 {
			return m + n + e
		}
	}
	if len(t) > 2 && t[0] == '0' && t[1]|0x20 == 'x' {
		if n := hexRunLen(t[2:]); n > 0 {
			if e := exponentLen(t[2+n:], 'p'); e > 0 {
				return m + 2 + n + e
			}
		}
	}
	if len(t) >= 8 && strings.EqualFold(t[:8], "infinity") {
		return m + 8
	}
	if m == 0 && len(t) >= 3 && strings.EqualFold(t[:3], "nan") {
		return 3
	}
	return 0
}

// floatOrNameLen matches FLOAT_LITERAL_OR_ID (suffix 'f': FloatOrID[fF] |
// -?[0-9]+[fF]) or DOUBLE_LITERAL_OR_ID (suffix 'd': FloatOrID[dD]? |
// -?[0-9]+[dD]).
func floatOrNameLen(s string, suffix byte) int {
	best := 0
	if n := floatOrIDLen(s); n > 0 {
		switch {
		case n < len(s) && s[n]|0x20 == suffix:
			best = n + 1
		case suffix == 'd':
			best = n
		}
	}
	m := optMinus(s)
	if n := decRunLen(s[m:]); n > 0 && m+n < len(s) && s[m+n]|0x20 == suffix {
		best = max(best, m+n+1)
	}
	return best
}

// floatBodyLen matches smali's Float (a number with a point):
// -?[0-9]+.[0-9]*exp? | -?.[0-9]+exp? | -?0x hex+.hex* pexp | -?0x.hex+ pexp.
func floatBodyLen(s string) int {
	m := optMinus(s)
	t := s[m:]
	if n := decRunLen(t); n > 0 && n < len(t) && t[n] == '.' {
		n++
		n += decRunLen(t[n:])
		n += exponentLen(t[n:], 'e')
		return m + n
	}
	if len(t) > 1 && t[0] == '.' {
		if n := decRunLen(t[1:]); n > 0 {
			n++
			n += exponentLen(t[n:], 'e')
			return m + n
		}
	}
	if len(t) > 2 && t[0] == '0' && t[1]|0x20 == 'x' {
		n := 2 + hexRunLen(t[2:])
		if n < len(t) && t[n] == '.' {
			digits := n - 2
			n++
			h := hexRunLen(t[n:])
			n += h
			if digits > 0 || h > 0 {
				if e := exponentLen(t[n:], 'p'); e > 0 {
					return m + n + e
				}
			}
		}
	}
	return 0
}

// floatLen matches FLOAT_LITERAL (Float[fF]) or DOUBLE_LITERAL (Float[dD]?).
func floatLen(s string, suffix byte) int {
	n := floatBodyLen(s)
	if n == 0 {
		return 0
	}
	if n < len(s) && s[n]|0x20 == suffix {
		return n + 1
	}
	if suffix == 'd' {
		return n
	}
	return 0
}
