package smali

import (
	"fmt"

	"github.com/droidprof/droidprof/vm/smali/ast"
)

// ClassBuilder builds a class from Go code: the same tree Parse produces,
// ready for Format or for lowering to DEX. Mistakes (an unknown mnemonic,
// a register out of range, an undefined label, ...) are reported by Build,
// which runs Check.
//
// Nodes made by the builder have no source; so that Check's errors can be
// located, each field, method and statement gets a synthetic position whose
// File names the member (e.g. "LBench;->run(I)J") and whose Line is the
// statement's index in the method body, counting from 1 (0 for the member
// itself).
//
//	b := smali.NewClass("LBench;", ast.AccPublic).Super("Ljava/lang/Object;")
//	m := b.Method(ast.AccPublic|ast.AccStatic, "sum", "(I)I").Registers(2)
//	m.Op("const/4", smali.V(0), ast.Int(0)).
//		Label("loop").
//		Op("add-int/2addr", smali.V(0), smali.P(0)).
//		Op("add-int/lit8", smali.P(0), smali.P(0), ast.Int(-1)).
//		Op("if-gtz", smali.P(0), smali.LabelRef("loop")).
//		Op("return", smali.V(0))
//	class, err := b.Build(&smali.Options{API: 28})
type ClassBuilder struct {
	c *ast.Class
}

// NewClass starts a class with a descriptor ("Lcom/example/Foo;") and
// access flags (ast.AccPublic, ...).
func NewClass(name string, flags uint32) *ClassBuilder {
	return &ClassBuilder{c: &ast.Class{Name: name, Modifiers: ast.Modifiers(flags, ast.ClassTarget),
		Pos: ast.Pos{File: name}}}
}

// Super sets the superclass.
func (b *ClassBuilder) Super(desc string) *ClassBuilder {
	b.c.Super = &ast.TypeRef{Pos: b.c.Pos, Desc: desc}
	return b
}

// Implements adds interfaces.
func (b *ClassBuilder) Implements(descs ...string) *ClassBuilder {
	for _, d := range descs {
		b.c.Implements = append(b.c.Implements, &ast.TypeRef{Pos: b.c.Pos, Desc: d})
	}
	return b
}

// Source sets the source file name (.source).
func (b *ClassBuilder) Source(file string) *ClassBuilder {
	b.c.Source = &ast.Literal{Pos: b.c.Pos, Kind: ast.StringLit, Str: file}
	return b
}

// Annotate adds class annotations.
func (b *ClassBuilder) Annotate(annos ...*ast.Annotation) *ClassBuilder {
	b.c.Annotations = append(b.c.Annotations, annos...)
	return b
}

// Field adds a field with access flags, name and type descriptor.
func (b *ClassBuilder) Field(flags uint32, name, typ string) *FieldBuilder {
	pos := ast.Pos{File: b.c.Name + "->" + name + ":" + typ}
	f := &ast.Field{Pos: pos, Modifiers: ast.Modifiers(flags, ast.FieldTarget), Name: name,
		Type: &ast.TypeRef{Pos: pos, Desc: typ}}
	b.c.Fields = append(b.c.Fields, f)
	return &FieldBuilder{f: f}
}

// Method adds a method with access flags, name and prototype descriptor
// ("(IJ)V").
func (b *ClassBuilder) Method(flags uint32, name, proto string) *MethodBuilder {
	pos := ast.Pos{File: b.c.Name + "->" + name + proto}
	p := ProtoOf(proto)
	p.Pos = pos
	m := &ast.Method{Pos: pos, Modifiers: ast.Modifiers(flags, ast.MethodTarget), Name: name, Proto: p}
	b.c.Methods = append(b.c.Methods, m)
	return &MethodBuilder{m: m}
}

// Class returns the class built so far, unchecked.
func (b *ClassBuilder) Class() *ast.Class { return b.c }

// Build checks the class (see Check) and returns it.
func (b *ClassBuilder) Build(opts *Options) (*ast.Class, error) {
	return b.c, Check(b.c, opts)
}

// FieldBuilder adds details to a field.
type FieldBuilder struct {
	f *ast.Field
}

// Init sets a static field's initial value.
func (f *FieldBuilder) Init(v ast.Value) *FieldBuilder {
	f.f.Initial = v
	return f
}

// Annotate adds field annotations.
func (f *FieldBuilder) Annotate(annos ...*ast.Annotation) *FieldBuilder {
	f.f.Annotations = append(f.f.Annotations, annos...)
	return f
}

// Field returns the field node.
func (f *FieldBuilder) Field() *ast.Field { return f.f }

// MethodBuilder appends to a method. Its methods return the builder, so
// calls chain.
type MethodBuilder struct {
	m *ast.Method
}

// Method returns the method node.
func (b *MethodBuilder) Method() *ast.Method { return b.m }

// Registers sets the frame size (.registers n).
func (b *MethodBuilder) Registers(n int) *MethodBuilder {
	b.m.Registers = &ast.Registers{Pos: b.m.Pos, Count: n}
	return b
}

// Locals sets the registers besides the parameters (.locals n).
func (b *MethodBuilder) Locals(n int) *MethodBuilder {
	b.m.Registers = &ast.Registers{Pos: b.m.Pos, Locals: true, Count: n}
	return b
}

// Param names a parameter by its first register (.param pN, "name"); an
// empty name gives none.
func (b *MethodBuilder) Param(reg *ast.Register, name string, annos ...*ast.Annotation) *MethodBuilder {
	p := &ast.Param{Pos: b.m.Pos, Reg: reg, Annotations: annos}
	if name != "" {
		p.Name = &ast.Literal{Pos: b.m.Pos, Kind: ast.StringLit, Str: name}
	}
	b.m.Params = append(b.m.Params, p)
	return b
}

// Annotate adds method annotations.
func (b *MethodBuilder) Annotate(annos ...*ast.Annotation) *MethodBuilder {
	b.m.Annotations = append(b.m.Annotations, annos...)
	return b
}

// pos is the synthetic position of the next statement.
func (b *MethodBuilder) pos() ast.Pos {
	return ast.Pos{File: b.m.Pos.File, Line: len(b.m.Body) + 1, Col: 1}
}

// Stmt appends any statement node.
func (b *MethodBuilder) Stmt(s ast.Stmt) *MethodBuilder {
	b.m.Body = append(b.m.Body, s)
	return b
}

// Op appends an instruction: a mnemonic and its operands (registers from
// V and P, lists from Regs, ranges from Range, literals from ast.Int and
// friends, labels from LabelRef, references from TypeRef, FieldRef,
// MethodRef, ProtoOf, Handle and ast.String).
func (b *MethodBuilder) Op(name string, args ...ast.Operand) *MethodBuilder {
	pos := b.pos()
	for _, a := range args {
		setPos(a, pos)
	}
	return b.Stmt(&ast.Instruction{Pos: pos, Name: name, Args: args})
}

// Label defines a label here.
func (b *MethodBuilder) Label(name string) *MethodBuilder {
	return b.Stmt(&ast.Label{Pos: b.pos(), Name: name})
}

// Catch adds .catch excType {:start .. :end} :handler; an empty excType
// gives .catchall.
func (b *MethodBuilder) Catch(excType, start, end, handler string) *MethodBuilder {
	pos := b.pos()
	c := &ast.Catch{Pos: pos, Start: &ast.LabelRef{Pos: pos, Name: start},
		End: &ast.LabelRef{Pos: pos, Name: end}, Handler: &ast.LabelRef{Pos: pos, Name: handler}}
	if excType != "" {
		c.Type = &ast.TypeRef{Pos: pos, Desc: excType}
	}
	return b.Stmt(c)
}

// ArrayData appends an .array-data payload with elements of width bytes.
func (b *MethodBuilder) ArrayData(width int, elems ...*ast.Literal) *MethodBuilder {
	pos := b.pos()
	for _, e := range elems {
		e.Pos = pos
	}
	return b.Stmt(&ast.ArrayData{Pos: pos, Width: width, Elements: elems})
}

// PackedSwitch appends a .packed-switch payload: keys first, first+1, ...
// go to the labels in order.
func (b *MethodBuilder) PackedSwitch(first int32, labels ...string) *MethodBuilder {
	pos := b.pos()
	s := &ast.PackedSwitch{Pos: pos, FirstKey: &ast.Literal{Pos: pos, Kind: ast.IntLit, Int: int64(first)}}
	for _, l := range labels {
		s.Targets = append(s.Targets, &ast.LabelRef{Pos: pos, Name: l})
	}
	return b.Stmt(s)
}

// SparseSwitch appends a .sparse-switch payload: keys[i] goes to
// labels[i]. Extra keys or labels are ignored.
func (b *MethodBuilder) SparseSwitch(keys []int32, labels []string) *MethodBuilder {
	pos := b.pos()
	s := &ast.SparseSwitch{Pos: pos}
	for i := 0; i < len(keys) && i < len(labels); i++ {
		s.Cases = append(s.Cases, &ast.SwitchCase{Pos: pos,
			Key:    &ast.Literal{Pos: pos, Kind: ast.IntLit, Int: int64(keys[i])},
			Target: &ast.LabelRef{Pos: pos, Name: labels[i]}})
	}
	return b.Stmt(s)
}

// Line appends a .line directive.
func (b *MethodBuilder) Line(n int32) *MethodBuilder {
	return b.Stmt(&ast.Line{Pos: b.pos(), Line: n})
}

// Local appends .local reg, "name":type[, "signature"]; empty strings are
// left out.
func (b *MethodBuilder) Local(reg *ast.Register, name, typ, signature string) *MethodBuilder {
	pos := b.pos()
	setPos(reg, pos)
	l := &ast.Local{Pos: pos, Reg: reg}
	if name != "" {
		l.Name = &ast.Literal{Pos: pos, Kind: ast.StringLit, Str: name}
	}
	if typ != "" && typ != "V" {
		l.Type = &ast.TypeRef{Pos: pos, Desc: typ}
	}
	if signature != "" {
		l.Signature = &ast.Literal{Pos: pos, Kind: ast.StringLit, Str: signature}
	}
	return b.Stmt(l)
}

// EndLocal appends .end local reg.
func (b *MethodBuilder) EndLocal(reg *ast.Register) *MethodBuilder {
	pos := b.pos()
	setPos(reg, pos)
	return b.Stmt(&ast.EndLocal{Pos: pos, Reg: reg})
}

// RestartLocal appends .restart local reg.
func (b *MethodBuilder) RestartLocal(reg *ast.Register) *MethodBuilder {
	pos := b.pos()
	setPos(reg, pos)
	return b.Stmt(&ast.RestartLocal{Pos: pos, Reg: reg})
}

// Prologue appends .prologue.
func (b *MethodBuilder) Prologue() *MethodBuilder { return b.Stmt(&ast.Prologue{Pos: b.pos()}) }

// Epilogue appends .epilogue.
func (b *MethodBuilder) Epilogue() *MethodBuilder { return b.Stmt(&ast.Epilogue{Pos: b.pos()}) }

// V is register vN.
func V(n int) *ast.Register { return &ast.Register{Num: n} }

// P is parameter register pN.
func P(n int) *ast.Register { return &ast.Register{Param: true, Num: n} }

// Regs is a register list {r1, r2, ...} (invoke-*, filled-new-array).
func Regs(regs ...*ast.Register) *ast.RegisterList {
	return &ast.RegisterList{Regs: regs}
}

// Range is a register range {first .. last} (*/range instructions); nil
// first gives {}, nil last gives {first}.
func Range(first, last *ast.Register) *ast.RegisterRange {
	return &ast.RegisterRange{First: first, Last: last}
}

// LabelRef refers to a label.
func LabelRef(name string) *ast.LabelRef { return &ast.LabelRef{Name: name} }

// TypeRef is a type operand or value.
func TypeRef(desc string) *ast.TypeRef { return &ast.TypeRef{Desc: desc} }

// FieldRef refers to a field; an empty class means the class being built.
func FieldRef(class, name, typ string) *ast.FieldRef {
	return &ast.FieldRef{Class: class, Name: name, Type: typ}
}

// MethodRef refers to a method by class, name and prototype descriptor; an
// empty class means the class being built.
func MethodRef(class, name, proto string) *ast.MethodRef {
	return &ast.MethodRef{Class: class, Name: name, Proto: ProtoOf(proto)}
}

// Handle is a method handle: kind is static-put, static-get, instance-put,
// instance-get (with a *ast.FieldRef) or invoke-static, invoke-instance,
// invoke-constructor, invoke-direct, invoke-interface (with a
// *ast.MethodRef).
func Handle(kind string, ref ast.Node) *ast.MethodHandle {
	h := &ast.MethodHandle{Kind: kind}
	switch r := ref.(type) {
	case *ast.FieldRef:
		h.Field = r
	case *ast.MethodRef:
		h.Method = r
	}
	return h
}

// ProtoOf splits a prototype descriptor such as "(I[JLjava/lang/String;)V".
// A malformed descriptor gives a Proto with no parameters whose Return is
// the whole text, which Check reports as an invalid type.
func ProtoOf(desc string) *ast.Proto {
	p, err := ParseProto(desc)
	if err != nil {
		return &ast.Proto{Return: desc}
	}
	return p
}

// ParseProto splits a prototype descriptor into parameter and return
// types; it checks only the shape, not each name.
func ParseProto(desc string) (*ast.Proto, error) {
	bad := fmt.Errorf("malformed method prototype %q", desc)
	if len(desc) < 3 || desc[0] != '(' {
		return nil, bad
	}
	p := &ast.Proto{}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		n := typeLen(desc[i:])
		if n == 0 {
			return nil, bad
		}
		p.Params = append(p.Params, desc[i:i+n])
		i += n
	}
	if i >= len(desc) {
		return nil, bad
	}
	ret := desc[i+1:]
	if ret != "V" && typeLen(ret) != len(ret) {
		return nil, bad
	}
	p.Return = ret
	return p, nil
}

// typeLen is the length of the type descriptor at the start of s, 0 if
// there is none.
func typeLen(s string) int {
	i := 0
	for i < len(s) && s[i] == '[' {
		i++
	}
	if i >= len(s) {
		return 0
	}
	switch s[i] {
	case 'Z', 'B', 'S', 'C', 'I', 'J', 'F', 'D':
		return i + 1
	case 'L':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case ';':
				if j == i+1 {
					return 0
				}
				return j + 1
			case '(', ')':
				return 0
			}
		}
	}
	return 0
}

// setPos gives an operand and its parts a position, unless they have one.
func setPos(n ast.Node, pos ast.Pos) {
	switch n := n.(type) {
	case *ast.Register:
		if n != nil && !n.Pos.IsValid() {
			n.Pos = pos
		}
	case *ast.RegisterList:
		if n != nil {
			n.Pos = pos
			for _, r := range n.Regs {
				setPos(r, pos)
			}
		}
	case *ast.RegisterRange:
		if n != nil {
			n.Pos = pos
			setPos(n.First, pos)
			setPos(n.Last, pos)
		}
	case *ast.Literal:
		if n != nil && !n.Pos.IsValid() {
			n.Pos = pos
		}
	case *ast.LabelRef:
		if n != nil && !n.Pos.IsValid() {
			n.Pos = pos
		}
	case *ast.TypeRef:
		if n != nil && !n.Pos.IsValid() {
			n.Pos = pos
		}
	case *ast.FieldRef:
		if n != nil && !n.Pos.IsValid() {
			n.Pos = pos
		}
	case *ast.MethodRef:
		if n != nil {
			if !n.Pos.IsValid() {
				n.Pos = pos
			}
			setPos(n.Proto, pos)
		}
	case *ast.Proto:
		if n != nil && !n.Pos.IsValid() {
			n.Pos = pos
		}
	case *ast.MethodHandle:
		if n != nil {
			n.Pos = pos
			setPos(n.Field, pos)
			setPos(n.Method, pos)
		}
	case *ast.CallSite:
		if n != nil {
			n.Pos = pos
			setPos(n.MethodType, pos)
			setPos(n.Bootstrap, pos)
		}
	}
}
