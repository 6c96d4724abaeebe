package smali

import (
	"fmt"
	"os"
	"strings"

	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/smali/lexer"
	"github.com/droidprof/droidprof/vm/smali/opcode"
)

// DefaultAPI is the API level assumed when Options.API is 0; it is smali's
// own default (DEX 035).
const DefaultAPI = 15

// maxErrors bounds the errors reported for one file.
const maxErrors = 100

// Options controls parsing and checking.
type Options struct {
	// API is the target Android API level, as smali's -a flag: it decides
	// which instructions exist (invoke-polymorphic and invoke-custom from
	// 26, const-method-handle and const-method-type from 28), whether
	// hidden API restrictions may be given (29) and whether names may hold
	// spaces (30). 0 means DefaultAPI.
	API int
}

func (o *Options) api() int {
	if o == nil || o.API == 0 {
		return DefaultAPI
	}
	return o.API
}

// ParseFile reads and parses one smali file; see Parse.
func ParseFile(path string, opts *Options) (*ast.Class, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src, opts)
}

// Parse parses and checks the smali source of one class. filename is used
// in positions only. On error it returns an ErrorList together with as much
// of the class as it could parse.
func Parse(filename string, src []byte, opts *Options) (*ast.Class, error) {
	p := &parser{file: filename, api: opts.api(), toks: make([]lexer.Token, 0, len(src)/8+1)}
	l := lexer.New(string(src), p.api)
	for {
		t := l.Next()
		if !t.Kind.Hidden() {
			p.toks = append(p.toks, t)
		}
		if t.Kind == lexer.EOF {
			break
		}
	}
	c := p.parseFile()
	if len(p.errs) < maxErrors {
		p.errs = append(p.errs, check(c, p.api, p.broken)...)
	}
	return c, p.errs.Err()
}

type parser struct {
	file string
	api  int
	toks []lexer.Token
	i    int
	errs ErrorList
	// broken holds the methods with syntax errors, whose bodies are
	// incomplete: the checker does not look for undefined labels there.
	broken map[*ast.Method]bool
	depth  int // nesting of values being parsed
}

// maxDepth bounds the nesting of arrays and subannotations in values.
const maxDepth = 200

// bailout unwinds the parse of one statement after an error.
type bailout struct{}

// tooMany unwinds the whole parse when maxErrors is reached.
type tooMany struct{}

func (p *parser) tok() lexer.Token { return p.toks[p.i] }

func (p *parser) peek(n int) lexer.Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() lexer.Token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) pos(t lexer.Token) ast.Pos { return ast.Pos{File: p.file, Line: t.Line, Col: t.Col} }

func (p *parser) errorAt(pos ast.Pos, format string, args ...any) {
	p.errs.add(pos, format, args...)
	if len(p.errs) >= maxErrors {
		p.errs.add(pos, "too many errors")
		panic(tooMany{})
	}
}

// fail reports an error at token t and abandons the current statement.
func (p *parser) fail(t lexer.Token, format string, args ...any) {
	p.errorAt(p.pos(t), format, args...)
	panic(bailout{})
}

// describe renders a token for an error message.
func describe(t lexer.Token) string {
	switch t.Kind {
	case lexer.EOF:
		return "end of file"
	case lexer.Invalid:
		return fmt.Sprintf("%q (%s)", t.Raw, t.Err)
	}
	return fmt.Sprintf("%q", t.Raw)
}

// expected fails at the current token, saying what was wanted.
func (p *parser) expected(what string) {
	p.fail(p.tok(), "expected %s, found %s", what, describe(p.tok()))
}

func (p *parser) is(k lexer.Kind) bool { return p.tok().Kind == k }

func (p *parser) isDirective(name string) bool {
	t := p.tok()
	return t.Kind == lexer.Directive && t.Text == name
}

func (p *parser) expect(k lexer.Kind, what string) lexer.Token {
	if !p.is(k) {
		p.expected(what)
	}
	return p.next()
}

func (p *parser) expectDirective(name string) lexer.Token {
	if !p.isDirective(name) {
		p.expected(name)
	}
	return p.next()
}

// guard runs f; an error inside abandons f and resynchronises with sync.
func (p *parser) guard(f func(), sync func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			sync()
		}
	}()
	f()
}

// topDirectives start a top-level item.
var topDirectives = map[string]bool{".class": true, ".super": true, ".implements": true,
	".source": true, ".field": true, ".method": true, ".annotation": true}

func (p *parser) parseFile() (c *ast.Class) {
	c = &ast.Class{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(tooMany); !ok {
				panic(r)
			}
		}
	}()
	var seenClass, seenSuper, seenSource bool
	syncTop := func() {
		// Skip to the next top-level directive, on any line.
		for !p.is(lexer.EOF) && !(p.is(lexer.Directive) && topDirectives[p.tok().Text] && p.tok().Text != ".annotation") {
			p.next()
		}
	}
	for !p.is(lexer.EOF) {
		p.guard(func() {
			t := p.tok()
			if t.Kind != lexer.Directive {
				p.expected("a directive (.class, .super, .field, .method, ...)")
			}
			switch t.Text {
			case ".class":
				if seenClass {
					p.fail(t, "duplicate .class directive (a file holds one class)")
				}
				seenClass = true
				p.next()
				c.Pos = p.pos(t)
				c.Modifiers = p.modifiers(false)
				c.Name = p.expect(lexer.ClassDescriptor, "class descriptor").Text
			case ".super":
				if seenSuper {
					p.fail(t, "duplicate .super directive")
				}
				seenSuper = true
				p.next()
				c.Super = p.classType()
			case ".implements":
				p.next()
				c.Implements = append(c.Implements, p.classType())
			case ".source":
				if seenSource {
					p.fail(t, "duplicate .source directive")
				}
				seenSource = true
				p.next()
				c.Source = p.stringLit()
			case ".field":
				p.field(c)
			case ".method":
				c.Methods = append(c.Methods, p.method())
			case ".annotation":
				c.Annotations = append(c.Annotations, p.annotation())
			default:
				p.fail(t, "unexpected %s at top level", describe(t))
			}
		}, syncTop)
	}
	if !seenClass {
		p.errorAt(p.pos(p.tok()), "the file must contain a .class directive")
	}
	return c
}

func (p *parser) classType() *ast.TypeRef {
	t := p.expect(lexer.ClassDescriptor, "class descriptor")
	return &ast.TypeRef{Pos: p.pos(t), Desc: t.Text}
}

func (p *parser) stringLit() *ast.Literal {
	t := p.expect(lexer.String, "string literal")
	return &ast.Literal{Pos: p.pos(t), Kind: ast.StringLit, Str: t.Text}
}

// modifiers reads access flags and, for members, hidden API restrictions.
func (p *parser) modifiers(member bool) []*ast.Modifier {
	var mods []*ast.Modifier
	for p.is(lexer.AccessFlag) || (member && p.is(lexer.HiddenAPI)) {
		// A flag word followed by ":" or "(" is the member's name.
		if member {
			if k := p.peek(1).Kind; k == lexer.Colon || k == lexer.LParen {
				break
			}
		}
		t := p.next()
		mods = append(mods, &ast.Modifier{Pos: p.pos(t), Name: t.Text})
	}
	return mods
}

// isSimpleName reports whether smali accepts the token as a simple name
// (member, label or annotation element name).
func isSimpleName(t lexer.Token) bool {
	switch t.Kind {
	case lexer.SimpleName, lexer.AccessFlag, lexer.HiddenAPI, lexer.VerificationError, lexer.Int,
		lexer.FloatOrName, lexer.DoubleOrName, lexer.Bool, lexer.Null, lexer.Register,
		lexer.ParamListOrName, lexer.PrimitiveType, lexer.VoidType, lexer.AnnotationVisibility,
		lexer.MethodHandleType:
		return true
	case lexer.Mnemonic:
		// smali's grammar lists every instruction token except those whose
		// mnemonics hold a "/" and throw-verification-error; it does list
		// invoke-polymorphic/range.
		return t.Text == "invoke-polymorphic/range" ||
			(t.Text != "throw-verification-error" && !strings.Contains(t.Text, "/"))
	}
	return false
}

func (p *parser) simpleName(what string) lexer.Token {
	if !isSimpleName(p.tok()) {
		p.expected(what)
	}
	return p.next()
}

func (p *parser) memberName() lexer.Token {
	if p.is(lexer.MemberName) {
		return p.next()
	}
	return p.simpleName("member name")
}

func (p *parser) field(c *ast.Class) {
	t := p.expectDirective(".field")
	f := &ast.Field{Pos: p.pos(t)}
	f.Modifiers = p.modifiers(true)
	f.Name = p.memberName().Text
	p.expect(lexer.Colon, `":"`)
	f.Type = p.nonvoidType()
	if p.is(lexer.Equal) {
		p.next()
		f.Initial = p.value()
	}
	c.Fields = append(c.Fields, f)
	// Annotations that follow belong to the field only if .end field
	// closes them; otherwise they are the class's.
	var annos []*ast.Annotation
	for p.isDirective(".annotation") {
		annos = append(annos, p.annotation())
	}
	if p.isDirective(".end field") {
		p.next()
		f.Annotations = annos
	} else {
		c.Annotations = append(c.Annotations, annos...)
	}
}

// nonvoidType reads a field type descriptor.
func (p *parser) nonvoidType() *ast.TypeRef {
	t := p.tok()
	switch t.Kind {
	case lexer.PrimitiveType, lexer.ClassDescriptor:
		p.next()
		return &ast.TypeRef{Pos: p.pos(t), Desc: t.Text}
	case lexer.ArrayPrefix:
		p.next()
		e := p.tok()
		if e.Kind != lexer.PrimitiveType && e.Kind != lexer.ClassDescriptor {
			p.expected("array element type")
		}
		p.next()
		return &ast.TypeRef{Pos: p.pos(t), Desc: t.Text + e.Text}
	}
	p.expected("type descriptor")
	return nil
}

// typeDesc reads a type descriptor, V included.
func (p *parser) typeDesc() *ast.TypeRef {
	if t := p.tok(); t.Kind == lexer.VoidType {
		p.next()
		return &ast.TypeRef{Pos: p.pos(t), Desc: "V"}
	}
	return p.nonvoidType()
}

func (p *parser) referenceType() *ast.TypeRef {
	if !p.is(lexer.ClassDescriptor) && !p.is(lexer.ArrayPrefix) {
		p.expected("class or array type")
	}
	return p.nonvoidType()
}

func (p *parser) proto() *ast.Proto {
	t := p.expect(lexer.LParen, `"("`)
	pr := &ast.Proto{Pos: p.pos(t), Params: []string{}}
	if p.is(lexer.ParamListOrName) {
		for _, c := range p.next().Text {
			pr.Params = append(pr.Params, string(c))
		}
	} else {
		for !p.is(lexer.RParen) {
			pr.Params = append(pr.Params, p.nonvoidType().Desc)
		}
	}
	p.expect(lexer.RParen, `")"`)
	pr.Return = p.typeDesc().Desc
	return pr
}

func (p *parser) method() *ast.Method {
	t := p.expectDirective(".method")
	m := &ast.Method{Pos: p.pos(t)}
	done := false
	p.guard(func() {
		m.Modifiers = p.modifiers(true)
		m.Name = p.memberName().Text
		m.Proto = p.proto()
	}, func() {
		// A broken header: skip the method.
		for !p.is(lexer.EOF) && !p.isDirective(".end method") && !p.isDirective(".method") {
			p.next()
		}
		if p.isDirective(".end method") {
			p.next()
		}
		done = true
	})
	if m.Proto == nil {
		m.Proto = &ast.Proto{Pos: m.Pos, Params: []string{}, Return: "V"}
	}
	for !done {
		t := p.tok()
		switch {
		case t.Kind == lexer.Directive && t.Text == ".end method":
			p.next()
			return m
		case t.Kind == lexer.EOF || (t.Kind == lexer.Directive && topDirectives[t.Text] && t.Text != ".annotation" && t.Text != ".source"):
			p.errorAt(p.pos(t), "missing .end method for the method at %s", m.Pos)
			return m
		}
		p.guard(func() { p.methodItem(m) }, func() {
			if p.broken == nil {
				p.broken = map[*ast.Method]bool{}
			}
			p.broken[m] = true
			p.syncStmt()
		})
	}
	return m
}

// stmtDirectives start a method body item.
var stmtDirectives = map[string]bool{".registers": true, ".locals": true, ".param": true,
	".annotation": true, ".catch": true, ".catchall": true, ".line": true, ".local": true,
	".end local": true, ".restart local": true, ".prologue": true, ".epilogue": true,
	".source": true, ".array-data": true, ".packed-switch": true, ".sparse-switch": true,
	".end method": true, ".method": true, ".field": true, ".class": true, ".super": true,
	".implements": true}

// syncStmt skips to the next token that can start a method body item on a
// later line than the error.
func (p *parser) syncStmt() {
	line := p.tok().Line
	if len(p.errs) > 0 {
		line = p.errs[len(p.errs)-1].Pos.Line
	}
	for !p.is(lexer.EOF) {
		t := p.tok()
		if t.Kind == lexer.Directive && t.Text == ".end method" {
			return
		}
		if t.Line > line && (t.Kind == lexer.Mnemonic || t.Kind == lexer.Colon ||
			(t.Kind == lexer.Directive && stmtDirectives[t.Text])) {
			return
		}
		p.next()
	}
}

func (p *parser) methodItem(m *ast.Method) {
	t := p.tok()
	pos := p.pos(t)
	switch t.Kind {
	case lexer.Colon:
		p.next()
		n := p.simpleName("label name")
		m.Body = append(m.Body, &ast.Label{Pos: pos, Name: n.Text})
		return
	case lexer.Mnemonic:
		m.Body = append(m.Body, p.instruction())
		return
	case lexer.Directive:
	default:
		p.expected("an instruction, label or directive")
	}
	switch t.Text {
	case ".registers", ".locals":
		p.next()
		if m.Registers != nil {
			p.fail(t, "there can only be a single .registers or .locals directive in a method")
		}
		lit := p.literal(integralKinds, "integer literal")
		n, err := lit.ShortIntegral()
		if err != nil {
			p.fail(t, "%v", err)
		}
		m.Registers = &ast.Registers{Pos: pos, Locals: t.Text == ".locals", Count: int(uint16(n))}
	case ".param":
		p.next()
		prm := &ast.Param{Pos: pos, Reg: p.register()}
		if p.is(lexer.Comma) {
			p.next()
			prm.Name = p.stringLit()
		}
		m.Params = append(m.Params, prm)
		var annos []*ast.Annotation
		for p.isDirective(".annotation") {
			annos = append(annos, p.annotation())
		}
		if p.isDirective(".end param") {
			p.next()
			prm.Annotations = annos
		} else {
			m.Annotations = append(m.Annotations, annos...)
		}
	case ".annotation":
		m.Annotations = append(m.Annotations, p.annotation())
	case ".catch", ".catchall":
		p.next()
		c := &ast.Catch{Pos: pos}
		if t.Text == ".catch" {
			c.Type = p.nonvoidType()
		}
		p.expect(lexer.LBrace, `"{"`)
		c.Start = p.labelRef()
		p.expect(lexer.DotDot, `".."`)
		c.End = p.labelRef()
		p.expect(lexer.RBrace, `"}"`)
		c.Handler = p.labelRef()
		m.Body = append(m.Body, c)
	case ".line":
		p.next()
		lit := p.literal(lineKinds, "integer literal")
		n, err := lit.Integral()
		if err != nil {
			p.fail(t, "%v", err)
		}
		m.Body = append(m.Body, &ast.Line{Pos: pos, Line: n})
	case ".local":
		p.next()
		l := &ast.Local{Pos: pos, Reg: p.register()}
		if p.is(lexer.Comma) {
			p.next()
			switch {
			case p.is(lexer.Null):
				p.next()
			case p.is(lexer.String):
				l.Name = p.stringLit()
			default:
				p.expected("local variable name (string literal or null)")
			}
			p.expect(lexer.Colon, `":"`)
			if ty := p.typeDesc(); ty.Desc != "V" {
				l.Type = ty
			}
			if p.is(lexer.Comma) {
				p.next()
				l.Signature = p.stringLit()
			}
		}
		m.Body = append(m.Body, l)
	case ".end local":
		p.next()
		m.Body = append(m.Body, &ast.EndLocal{Pos: pos, Reg: p.register()})
	case ".restart local":
		p.next()
		m.Body = append(m.Body, &ast.RestartLocal{Pos: pos, Reg: p.register()})
	case ".prologue":
		p.next()
		m.Body = append(m.Body, &ast.Prologue{Pos: pos})
	case ".epilogue":
		p.next()
		m.Body = append(m.Body, &ast.Epilogue{Pos: pos})
	case ".source":
		p.next()
		s := &ast.SourceFile{Pos: pos}
		if p.is(lexer.String) {
			s.File = p.stringLit()
		}
		m.Body = append(m.Body, s)
	case ".array-data":
		m.Body = append(m.Body, p.arrayData())
	case ".packed-switch":
		m.Body = append(m.Body, p.packedSwitch())
	case ".sparse-switch":
		m.Body = append(m.Body, p.sparseSwitch())
	default:
		p.fail(t, "unexpected %s in a method", describe(t))
	}
}

func (p *parser) register() *ast.Register {
	t := p.expect(lexer.Register, "register")
	return p.registerOf(t)
}

func (p *parser) registerOf(t lexer.Token) *ast.Register {
	n := 0
	for _, c := range t.Text[1:] {
		n = n*10 + int(c-'0')
		if n > 1<<24 {
			p.fail(t, "register %s is out of range", t.Text)
		}
	}
	return &ast.Register{Pos: p.pos(t), Param: t.Text[0] == 'p', Num: n}
}

func (p *parser) labelRef() *ast.LabelRef {
	t := p.expect(lexer.Colon, `label (":name")`)
	n := p.simpleName("label name")
	return &ast.LabelRef{Pos: p.pos(t), Name: n.Text}
}

// Literal kinds smali's grammar accepts in each context.
var (
	integralKinds = kindSet(lexer.Long, lexer.Int, lexer.Short, lexer.Char, lexer.Byte)
	lineKinds     = kindSet(lexer.Long, lexer.Int, lexer.Short, lexer.Byte)
	fixed32Kinds  = kindSet(lexer.Long, lexer.Int, lexer.Short, lexer.Byte, lexer.Float,
		lexer.FloatOrName, lexer.Char, lexer.Bool)
	fixedKinds = kindSet(lexer.Int, lexer.Long, lexer.Short, lexer.Byte, lexer.Float,
		lexer.FloatOrName, lexer.Double, lexer.DoubleOrName, lexer.Char, lexer.Bool)
)

func kindSet(kinds ...lexer.Kind) map[lexer.Kind]bool {
	m := map[lexer.Kind]bool{}
	for _, k := range kinds {
		m[k] = true
	}
	return m
}

// literal reads a literal token of one of the kinds.
func (p *parser) literal(kinds map[lexer.Kind]bool, what string) *ast.Literal {
	t := p.tok()
	if !kinds[t.Kind] {
		p.expected(what)
	}
	p.next()
	lit, err := literalFromToken(t)
	if err != nil {
		p.fail(t, "%v", err)
	}
	lit.Pos = p.pos(t)
	return lit
}

// operandLiteralKinds gives the literal tokens smali's grammar accepts for
// each literal operand kind (const-wide/high16 takes no double there).
var operandLiteralKinds = map[opcode.Operand]map[lexer.Kind]bool{
	opcode.LitNibble: integralKinds, opcode.LitByte: integralKinds, opcode.LitShort: integralKinds,
	opcode.LitInt: fixed32Kinds, opcode.LitHigh16: fixed32Kinds, opcode.LitWideHigh16: fixed32Kinds,
	opcode.LitWide: fixedKinds,
}

func (p *parser) instruction() *ast.Instruction {
	t := p.next()
	info := opcode.Lookup(t.Text)
	in := &ast.Instruction{Pos: p.pos(t), Name: t.Text}
	if info.Odex {
		p.fail(t, "%s is an odex instruction; smali cannot assemble it (deodex the file first)", t.Text)
	}
	for i, k := range info.Operands {
		if i > 0 {
			if !p.is(lexer.Comma) {
				if p.tok().Line != t.Line {
					p.fail(t, "%s takes %d operands (%s), found %d", t.Text, len(info.Operands), shapeString(info), i)
				}
				p.fail(p.tok(), "expected \",\" and %s, found %s", k, describe(p.tok()))
			}
			p.next()
		}
		in.Args = append(in.Args, p.operand(k))
	}
	return in
}

func shapeString(info *opcode.Info) string {
	parts := make([]string, len(info.Operands))
	for i, k := range info.Operands {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
}

func (p *parser) operand(k opcode.Operand) ast.Operand {
	switch k {
	case opcode.RegNibble, opcode.RegByte, opcode.RegShort:
		return p.register()
	case opcode.RegList:
		t := p.expect(lexer.LBrace, `register list ("{")`)
		l := &ast.RegisterList{Pos: p.pos(t), Regs: []*ast.Register{}}
		if p.is(lexer.Register) {
			l.Regs = append(l.Regs, p.register())
			for p.is(lexer.Comma) {
				p.next()
				l.Regs = append(l.Regs, p.register())
			}
		}
		p.expect(lexer.RBrace, `"}"`)
		return l
	case opcode.RegRange:
		t := p.expect(lexer.LBrace, `register range ("{")`)
		r := &ast.RegisterRange{Pos: p.pos(t)}
		if p.is(lexer.Register) {
			r.First = p.register()
			if p.is(lexer.DotDot) {
				p.next()
				r.Last = p.register()
			}
		}
		p.expect(lexer.RBrace, `"}"`)
		return r
	case opcode.LitNibble, opcode.LitByte, opcode.LitShort, opcode.LitInt, opcode.LitHigh16,
		opcode.LitWide, opcode.LitWideHigh16:
		return p.literal(operandLiteralKinds[k], k.String())
	case opcode.Label:
		return p.labelRef()
	case opcode.StringRef:
		return p.stringLit()
	case opcode.TypeRef:
		return p.nonvoidType()
	case opcode.FieldRef:
		return p.fieldRef()
	case opcode.MethodRef:
		return p.methodRef()
	case opcode.ProtoRef:
		return p.proto()
	case opcode.CallSiteRef:
		return p.callSite()
	case opcode.MethodHandleRef:
		return p.methodHandle()
	}
	p.expected(k.String())
	return nil
}

// memberClass reads the optional "Lclass;->" of a member reference.
func (p *parser) memberClass() (string, ast.Pos) {
	pos := p.pos(p.tok())
	if p.is(lexer.ClassDescriptor) || p.is(lexer.ArrayPrefix) {
		c := p.referenceType().Desc
		p.expect(lexer.Arrow, `"->"`)
		return c, pos
	}
	return "", pos
}

func (p *parser) fieldRef() *ast.FieldRef {
	class, pos := p.memberClass()
	f := &ast.FieldRef{Pos: pos, Class: class, Name: p.memberName().Text}
	p.expect(lexer.Colon, `":"`)
	f.Type = p.nonvoidType().Desc
	return f
}

func (p *parser) methodRef() *ast.MethodRef {
	class, pos := p.memberClass()
	m := &ast.MethodRef{Pos: pos, Class: class, Name: p.memberName().Text}
	m.Proto = p.proto()
	return m
}

// methodHandleKinds maps method handle kinds to whether they take a field.
var methodHandleKinds = map[string]bool{"static-put": true, "static-get": true,
	"instance-put": true, "instance-get": true, "invoke-static": false, "invoke-instance": false,
	"invoke-constructor": false, "invoke-direct": false, "invoke-interface": false}

// isMethodHandleStart reports whether a method handle starts here.
func (p *parser) isMethodHandleStart() bool {
	t := p.tok()
	_, ok := methodHandleKinds[t.Text]
	return ok && (t.Kind == lexer.MethodHandleType || t.Kind == lexer.Mnemonic) && p.peek(1).Kind == lexer.At
}

func (p *parser) methodHandle() *ast.MethodHandle {
	if !p.isMethodHandleStart() {
		p.expected("method handle (kind@reference)")
	}
	t := p.next()
	p.next() // @
	h := &ast.MethodHandle{Pos: p.pos(t), Kind: t.Text}
	if methodHandleKinds[t.Text] {
		h.Field = p.fieldRef()
	} else {
		h.Method = p.methodRef()
	}
	return h
}

func (p *parser) callSite() *ast.CallSite {
	t := p.simpleName("call site name")
	cs := &ast.CallSite{Pos: p.pos(t), Name: t.Text}
	p.expect(lexer.LParen, `"("`)
	cs.MethodName = p.stringLit().Str
	p.expect(lexer.Comma, `","`)
	cs.MethodType = p.proto()
	cs.Args = []ast.Value{}
	for p.is(lexer.Comma) {
		p.next()
		cs.Args = append(cs.Args, p.value())
	}
	p.expect(lexer.RParen, `")"`)
	p.expect(lexer.At, `"@"`)
	cs.Bootstrap = p.methodRef()
	return cs
}

func (p *parser) annotation() *ast.Annotation {
	t := p.expectDirective(".annotation")
	a := &ast.Annotation{Pos: p.pos(t)}
	a.Visibility = p.expect(lexer.AnnotationVisibility, "annotation visibility (build, runtime or system)").Text
	a.Type = p.expect(lexer.ClassDescriptor, "annotation type").Text
	a.Elements = p.elements(".end annotation")
	return a
}

func (p *parser) elements(end string) []*ast.AnnotationElement {
	els := []*ast.AnnotationElement{}
	for !p.isDirective(end) {
		n := p.simpleName("annotation element name or " + end)
		p.expect(lexer.Equal, `"="`)
		els = append(els, &ast.AnnotationElement{Pos: p.pos(n), Name: n.Text, Value: p.value()})
	}
	p.next()
	return els
}

// value reads an encoded value.
func (p *parser) value() ast.Value {
	t := p.tok()
	if p.depth >= maxDepth {
		p.fail(t, "values nested more than %d deep", maxDepth)
	}
	p.depth++
	defer func() { p.depth-- }()
	pos := p.pos(t)
	memberNext := func() bool { k := p.peek(1).Kind; return k == lexer.Colon || k == lexer.LParen }
	switch t.Kind {
	case lexer.Long, lexer.Short, lexer.Byte, lexer.Float, lexer.Double, lexer.Char, lexer.String:
		return p.literal(kindSet(t.Kind), "literal")
	case lexer.Int, lexer.FloatOrName, lexer.DoubleOrName, lexer.Bool, lexer.Null:
		if !memberNext() {
			return p.literal(kindSet(t.Kind), "literal")
		}
	case lexer.LBrace:
		p.next()
		a := &ast.ArrayValue{Pos: pos, Elements: []ast.Value{}}
		if !p.is(lexer.RBrace) {
			a.Elements = append(a.Elements, p.value())
			for p.is(lexer.Comma) {
				p.next()
				a.Elements = append(a.Elements, p.value())
			}
		}
		p.expect(lexer.RBrace, `"," or "}"`)
		return a
	case lexer.LParen:
		return p.proto()
	case lexer.Directive:
		switch t.Text {
		case ".subannotation":
			p.next()
			s := &ast.Subannotation{Pos: pos}
			s.Type = p.expect(lexer.ClassDescriptor, "annotation type").Text
			s.Elements = p.elements(".end subannotation")
			return s
		case ".enum":
			p.next()
			return &ast.EnumRef{Pos: pos, Field: p.fieldRef()}
		}
		p.expected("value")
	case lexer.ClassDescriptor, lexer.ArrayPrefix:
		after := 1
		if t.Kind == lexer.ArrayPrefix {
			after = 2
		}
		if p.peek(after).Kind != lexer.Arrow {
			return p.referenceType()
		}
		class, _ := p.memberClass()
		return p.memberValue(pos, class)
	case lexer.PrimitiveType, lexer.VoidType:
		if !memberNext() {
			return p.typeDesc()
		}
	}
	if p.isMethodHandleStart() {
		return p.methodHandle()
	}
	if isSimpleName(t) || t.Kind == lexer.MemberName {
		return p.memberValue(pos, "")
	}
	p.expected("value")
	return nil
}

// memberValue reads name:Type (a field) or name(Params)Return (a method).
func (p *parser) memberValue(pos ast.Pos, class string) ast.Value {
	name := p.memberName().Text
	if p.is(lexer.Colon) {
		p.next()
		return &ast.FieldRef{Pos: pos, Class: class, Name: name, Type: p.nonvoidType().Desc}
	}
	if !p.is(lexer.LParen) {
		p.expected(`":" or "(" after a member name`)
	}
	return &ast.MethodRef{Pos: pos, Class: class, Name: name, Proto: p.proto()}
}

// skipTo skips to the end directive of a block after an error inside it.
func (p *parser) skipTo(end string) {
	for !p.is(lexer.EOF) && !p.isDirective(end) && !p.isDirective(".end method") {
		p.next()
	}
	if p.isDirective(end) {
		p.next()
	}
}

func (p *parser) arrayData() *ast.ArrayData {
	t := p.next()
	a := &ast.ArrayData{Pos: p.pos(t), Elements: []*ast.Literal{}}
	ok := true
	p.guard(func() {
		w := p.literal(kindSet(lexer.Int), "element width (1, 2, 4 or 8)")
		a.Width = int(w.Int)
		if a.Width != 1 && a.Width != 2 && a.Width != 4 && a.Width != 8 {
			p.fail(t, "invalid element width %d: must be 1, 2, 4 or 8", w.Int)
		}
		for !p.isDirective(".end array-data") {
			a.Elements = append(a.Elements, p.literal(fixedKinds, "array element or .end array-data"))
		}
		p.next()
	}, func() { ok = false; p.skipTo(".end array-data") })
	if !ok {
		panic(bailout{})
	}
	return a
}

func (p *parser) packedSwitch() *ast.PackedSwitch {
	t := p.next()
	s := &ast.PackedSwitch{Pos: p.pos(t), Targets: []*ast.LabelRef{}}
	ok := true
	p.guard(func() {
		s.FirstKey = p.literal(fixed32Kinds, "first key")
		for !p.isDirective(".end packed-switch") {
			if !p.is(lexer.Colon) {
				p.expected("label or .end packed-switch")
			}
			s.Targets = append(s.Targets, p.labelRef())
		}
		p.next()
	}, func() { ok = false; p.skipTo(".end packed-switch") })
	if !ok {
		panic(bailout{})
	}
	return s
}

func (p *parser) sparseSwitch() *ast.SparseSwitch {
	t := p.next()
	s := &ast.SparseSwitch{Pos: p.pos(t), Cases: []*ast.SwitchCase{}}
	ok := true
	p.guard(func() {
		for !p.isDirective(".end sparse-switch") {
			key := p.literal(fixed32Kinds, "key or .end sparse-switch")
			p.expect(lexer.Arrow, `"->"`)
			s.Cases = append(s.Cases, &ast.SwitchCase{Pos: key.Pos, Key: key, Target: p.labelRef()})
		}
		p.next()
	}, func() { ok = false; p.skipTo(".end sparse-switch") })
	if !ok {
		panic(bailout{})
	}
	return s
}
