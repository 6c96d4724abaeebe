package smali

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/smali/lexer"
)

// Format renders a class as smali source. Parsing the result gives the same
// tree (positions aside) for every tree Check accepts.
func Format(c *ast.Class) []byte {
	var b bytes.Buffer
	Fprint(&b, c)
	return b.Bytes()
}

// Fprint writes a class as smali source to w.
func Fprint(w io.Writer, c *ast.Class) error {
	bw := bufio.NewWriter(w)
	p := &printer{w: bw}
	p.class(c)
	return bw.Flush()
}

type printer struct {
	w      *bufio.Writer
	indent int
}

func (p *printer) line(format string, args ...any) {
	p.w.WriteString(strings.Repeat("    ", p.indent))
	fmt.Fprintf(p.w, format, args...)
	p.w.WriteByte('\n')
}

func (p *printer) class(c *ast.Class) {
	p.line(".class %s%s", modifiers(c.Modifiers), Desc(c.Name))
	if c.Super != nil {
		p.line(".super %s", Desc(c.Super.Desc))
	}
	if c.Source != nil {
		p.line(".source %s", c.Source)
	}
	if len(c.Implements) > 0 {
		p.line("")
		for _, t := range c.Implements {
			p.line(".implements %s", Desc(t.Desc))
		}
	}
	for _, a := range c.Annotations {
		p.line("")
		p.annotation(a)
	}
	for i, f := range c.Fields {
		if i == 0 || len(f.Annotations) > 0 || len(c.Fields[i-1].Annotations) > 0 {
			p.line("")
		}
		p.field(f)
	}
	for _, m := range c.Methods {
		p.line("")
		p.method(m)
	}
}

func modifiers(mods []*ast.Modifier) string {
	var b strings.Builder
	for _, m := range mods {
		b.WriteString(m.Name)
		b.WriteByte(' ')
	}
	return b.String()
}

func (p *printer) field(f *ast.Field) {
	s := fmt.Sprintf(".field %s%s:%s", modifiers(f.Modifiers), memberName(f.Name), Desc(descOf(f.Type)))
	if f.Initial != nil {
		s += " = " + p.value(f.Initial)
	}
	p.line("%s", s)
	if len(f.Annotations) > 0 {
		p.indent++
		for _, a := range f.Annotations {
			p.annotation(a)
		}
		p.indent--
		p.line(".end field")
	}
}

func (p *printer) method(m *ast.Method) {
	p.line(".method %s%s%s", modifiers(m.Modifiers), memberName(m.Name), proto(m.Proto))
	p.indent++
	if r := m.Registers; r != nil {
		if r.Locals {
			p.line(".locals %d", r.Count)
		} else {
			p.line(".registers %d", r.Count)
		}
	}
	for _, a := range m.Annotations {
		p.annotation(a)
	}
	for _, prm := range m.Params {
		s := ".param " + prm.Reg.String()
		if prm.Name != nil {
			s += ", " + prm.Name.String()
		}
		p.line("%s", s)
		if len(prm.Annotations) > 0 {
			p.indent++
			for _, a := range prm.Annotations {
				p.annotation(a)
			}
			p.indent--
			p.line(".end param")
		}
	}
	for _, s := range m.Body {
		p.stmt(s)
	}
	p.indent--
	p.line(".end method")
}

func (p *printer) annotation(a *ast.Annotation) {
	p.line(".annotation %s %s", a.Visibility, Desc(a.Type))
	p.elements(a.Elements)
	p.line(".end annotation")
}

func (p *printer) elements(els []*ast.AnnotationElement) {
	p.indent++
	for _, e := range els {
		p.line("%s = %s", simpleName(e.Name), p.value(e.Value))
	}
	p.indent--
}

// value renders an encoded value; subannotations span several lines.
func (p *printer) value(v ast.Value) string {
	switch v := v.(type) {
	case *ast.Literal:
		return v.String()
	case *ast.TypeRef:
		return Desc(v.Desc)
	case *ast.FieldRef:
		return fieldRef(v)
	case *ast.MethodRef:
		return methodRef(v)
	case *ast.EnumRef:
		return ".enum " + fieldRef(v.Field)
	case *ast.ArrayValue:
		parts := make([]string, len(v.Elements))
		for i, e := range v.Elements {
			parts[i] = p.value(e)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *ast.Subannotation:
		var b bytes.Buffer
		sub := &printer{w: bufio.NewWriter(&b), indent: p.indent}
		sub.elements(v.Elements)
		sub.w.Flush()
		return ".subannotation " + Desc(v.Type) + "\n" + b.String() +
			strings.Repeat("    ", p.indent) + ".end subannotation"
	case *ast.MethodHandle:
		return methodHandle(v)
	case *ast.Proto:
		return proto(v)
	}
	return fmt.Sprintf("<bad value %T>", v)
}

func (p *printer) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.Label:
		p.line(":%s", simpleName(s.Name))
	case *ast.Instruction:
		if len(s.Args) == 0 {
			p.line("%s", s.Name)
			return
		}
		parts := make([]string, len(s.Args))
		for i, a := range s.Args {
			parts[i] = p.operand(a)
		}
		p.line("%s %s", s.Name, strings.Join(parts, ", "))
	case *ast.ArrayData:
		p.line(".array-data %d", s.Width)
		p.indent++
		for _, e := range s.Elements {
			p.line("%s", e)
		}
		p.indent--
		p.line(".end array-data")
	case *ast.PackedSwitch:
		p.line(".packed-switch %s", s.FirstKey)
		p.indent++
		for _, t := range s.Targets {
			p.line("%s", labelRef(t))
		}
		p.indent--
		p.line(".end packed-switch")
	case *ast.SparseSwitch:
		p.line(".sparse-switch")
		p.indent++
		for _, c := range s.Cases {
			p.line("%s -> %s", c.Key, labelRef(c.Target))
		}
		p.indent--
		p.line(".end sparse-switch")
	case *ast.Catch:
		if s.Type == nil {
			p.line(".catchall {%s .. %s} %s", labelRef(s.Start), labelRef(s.End), labelRef(s.Handler))
		} else {
			p.line(".catch %s {%s .. %s} %s", Desc(s.Type.Desc), labelRef(s.Start), labelRef(s.End), labelRef(s.Handler))
		}
	case *ast.Line:
		p.line(".line %d", s.Line)
	case *ast.Local:
		str := ".local " + s.Reg.String()
		if s.Name != nil || s.Type != nil || s.Signature != nil {
			name, typ := "null", "V"
			if s.Name != nil {
				name = s.Name.String()
			}
			if s.Type != nil {
				typ = Desc(s.Type.Desc)
			}
			str += ", " + name + ":" + typ
			if s.Signature != nil {
				str += ", " + s.Signature.String()
			}
		}
		p.line("%s", str)
	case *ast.EndLocal:
		p.line(".end local %s", s.Reg)
	case *ast.RestartLocal:
		p.line(".restart local %s", s.Reg)
	case *ast.Prologue:
		p.line(".prologue")
	case *ast.Epilogue:
		p.line(".epilogue")
	case *ast.SourceFile:
		if s.File == nil {
			p.line(".source")
		} else {
			p.line(".source %s", s.File)
		}
	default:
		p.line("# <bad statement %T>", s)
	}
}

func (p *printer) operand(o ast.Operand) string {
	switch o := o.(type) {
	case *ast.Register:
		return o.String()
	case *ast.RegisterList:
		parts := make([]string, len(o.Regs))
		for i, r := range o.Regs {
			parts[i] = r.String()
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *ast.RegisterRange:
		switch {
		case o.First == nil:
			return "{}"
		case o.Last == nil:
			return "{" + o.First.String() + "}"
		}
		return "{" + o.First.String() + " .. " + o.Last.String() + "}"
	case *ast.Literal:
		return o.String()
	case *ast.LabelRef:
		return labelRef(o)
	case *ast.TypeRef:
		return Desc(o.Desc)
	case *ast.FieldRef:
		return fieldRef(o)
	case *ast.MethodRef:
		return methodRef(o)
	case *ast.Proto:
		return proto(o)
	case *ast.MethodHandle:
		return methodHandle(o)
	case *ast.CallSite:
		parts := []string{ast.Quote(o.MethodName), proto(o.MethodType)}
		for _, a := range o.Args {
			parts = append(parts, p.value(a))
		}
		return simpleName(o.Name) + "(" + strings.Join(parts, ", ") + ")@" + methodRef(o.Bootstrap)
	}
	return fmt.Sprintf("<bad operand %T>", o)
}

func labelRef(l *ast.LabelRef) string { return ":" + simpleName(l.Name) }

func fieldRef(f *ast.FieldRef) string {
	s := memberName(f.Name) + ":" + Desc(f.Type)
	if f.Class != "" {
		s = Desc(f.Class) + "->" + s
	}
	return s
}

func methodRef(m *ast.MethodRef) string {
	s := memberName(m.Name) + proto(m.Proto)
	if m.Class != "" {
		s = Desc(m.Class) + "->" + s
	}
	return s
}

func methodHandle(h *ast.MethodHandle) string {
	if h.Field != nil {
		return h.Kind + "@" + fieldRef(h.Field)
	}
	return h.Kind + "@" + methodRef(h.Method)
}

func proto(p *ast.Proto) string {
	if p == nil {
		return "()V"
	}
	var b strings.Builder
	b.WriteByte('(')
	for _, t := range p.Params {
		b.WriteString(Desc(t))
	}
	b.WriteByte(')')
	b.WriteString(Desc(p.Return))
	return b.String()
}

// Desc renders a type descriptor in smali, backquoting the class name
// segments that hold spaces.
func Desc(desc string) string {
	dims := strings.LastIndexByte(desc, '[') + 1
	elem := desc[dims:]
	if len(elem) < 3 || elem[0] != 'L' || !strings.ContainsFunc(elem, isSpace) {
		return desc
	}
	segs := strings.Split(elem[1:len(elem)-1], "/")
	for i, s := range segs {
		if strings.ContainsFunc(s, isSpace) {
			segs[i] = "`" + s + "`"
		}
	}
	return desc[:dims] + "L" + strings.Join(segs, "/") + ";"
}

// simpleName renders a name so that smali reads it back as that name:
// bare when it lexes as a token smali takes for a name, else backquoted.
func simpleName(name string) string {
	toks := lexer.Tokenize(name, 10000)
	if len(toks) == 2 && toks[0].Raw == name && toks[0].Text == name && isSimpleName(toks[0]) {
		return name
	}
	if name == "" || strings.ContainsAny(name, "`") {
		return strconv.Quote(name) // unrepresentable; Check rejects such names
	}
	return "`" + name + "`"
}

// memberName is simpleName for field and method names: <init>-style names
// stay bare, and access flag words are backquoted so that they do not read
// as flags.
func memberName(name string) string {
	toks := lexer.Tokenize(name, 10000)
	if len(toks) == 2 && toks[0].Raw == name {
		switch toks[0].Kind {
		case lexer.MemberName:
			return name
		case lexer.AccessFlag, lexer.HiddenAPI:
			return "`" + name + "`"
		}
	}
	return simpleName(name)
}
