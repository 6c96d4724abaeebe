// Package ast is the syntax tree of a smali class: what the smali parser
// produces, what the Go builder produces, what the printer renders, and what
// the lowering to DEX consumes. Every node carries the position it came from.
//
// References keep descriptors as written in smali: "Ljava/lang/String;",
// "[I", "V". A field or method reference whose class was omitted in the
// source has an empty Class and means the class being defined.
package ast

import (
	"fmt"
	"strings"
)

// Pos is a position in a source file. Line and Col are 1-based and Col
// counts characters. The zero Pos means "no position" (nodes built in Go).
type Pos struct {
	File      string
	Line, Col int
}

// IsValid reports whether the position is known.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders the position as file:line:col (parts that are unknown are
// left out).
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return "-"
	case !p.IsValid():
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Node is any syntax tree node.
type Node interface {
	Position() Pos
}

// Value is an encoded value: a field's initial value, an annotation
// element's value, an array element, or a call site argument. It is one of
// *Literal, *TypeRef, *FieldRef, *MethodRef, *EnumRef, *ArrayValue,
// *Subannotation, *MethodHandle or *Proto.
type Value interface {
	Node
	isValue()
}

// Operand is an instruction operand: *Register, *RegisterList,
// *RegisterRange, *Literal, *LabelRef, *TypeRef, *FieldRef, *MethodRef,
// *Proto, *MethodHandle or *CallSite. Odex-only operands never reach the tree.
type Operand interface {
	Node
	isOperand()
}

// Stmt is one item of a method body, in source order: *Label,
// *Instruction, *ArrayData, *PackedSwitch, *SparseSwitch, *Catch, *Line,
// *Local, *EndLocal, *RestartLocal, *Prologue, *Epilogue or *SourceFile.
type Stmt interface {
	Node
	isStmt()
}

// Class is one smali file: a class definition.
type Class struct {
	Pos         Pos
	Modifiers   []*Modifier
	Name        string   // descriptor, e.g. "Lcom/example/Foo;"
	Super       *TypeRef // nil when absent (only java.lang.Object may omit it)
	Implements  []*TypeRef
	Source      *Literal // .source "File.java", a string literal; nil when absent
	Fields      []*Field
	Methods     []*Method
	Annotations []*Annotation
}

// Modifier is an access flag ("public", "static", ...) or, on fields and
// methods, a hidden API restriction ("whitelist", "core-platform-api", ...).
type Modifier struct {
	Pos  Pos
	Name string
}

// Field is a .field definition.
type Field struct {
	Pos         Pos
	Modifiers   []*Modifier
	Name        string
	Type        *TypeRef
	Initial     Value // nil when there is no "= value"
	Annotations []*Annotation
}

// Method is a .method definition.
type Method struct {
	Pos         Pos
	Modifiers   []*Modifier
	Name        string
	Proto       *Proto
	Registers   *Registers // nil when the method has neither .registers nor .locals
	Params      []*Param
	Annotations []*Annotation
	Body        []Stmt
}

// Registers is a .registers N (all registers) or .locals N (registers
// besides the parameters) directive.
type Registers struct {
	Pos    Pos
	Locals bool
	Count  int // 0..65535
}

// Param is a .param directive: a parameter's debug name and annotations.
type Param struct {
	Pos         Pos
	Reg         *Register
	Name        *Literal // string literal; nil when absent
	Annotations []*Annotation
}

// Annotation is an .annotation block.
type Annotation struct {
	Pos        Pos
	Visibility string // "build", "runtime" or "system"
	Type       string // class descriptor of the annotation type
	Elements   []*AnnotationElement
}

// AnnotationElement is one name = value pair of an annotation.
type AnnotationElement struct {
	Pos   Pos
	Name  string
	Value Value
}

// Subannotation is a .subannotation value: an annotation nested in a value.
type Subannotation struct {
	Pos      Pos
	Type     string
	Elements []*AnnotationElement
}

// LitKind is the kind of a literal as written in the source.
type LitKind uint8

// Literal kinds.
const (
	IntLit    LitKind = iota + 1 // 5, -0x10, 017
	LongLit                      // 5L
	ShortLit                     // 5s
	ByteLit                      // 5t
	CharLit                      // 'a'
	FloatLit                     // 1.5f
	DoubleLit                    // 1.5, 1.5d
	BoolLit                      // true, false
	StringLit                    // "text"
	NullLit                      // null
)

var litKindNames = [...]string{IntLit: "int", LongLit: "long", ShortLit: "short", ByteLit: "byte",
	CharLit: "char", FloatLit: "float", DoubleLit: "double", BoolLit: "boolean", StringLit: "string",
	NullLit: "null"}

// String names the kind.
func (k LitKind) String() string {
	if int(k) < len(litKindNames) && litKindNames[k] != "" {
		return litKindNames[k]
	}
	return fmt.Sprintf("LitKind(%d)", uint8(k))
}

// Literal is a literal value.
type Literal struct {
	Pos  Pos
	Kind LitKind
	// Int is the value of integral kinds: IntLit holds an int32, LongLit an
	// int64, ShortLit an int16, ByteLit an int8 (all sign-extended), CharLit
	// a UTF-16 code unit, BoolLit 0 or 1.
	Int int64
	// Bits is the IEEE 754 encoding of FloatLit (low 32 bits) and DoubleLit.
	Bits uint64
	// Str is the value of StringLit, as produced by lexer.DecodeUTF16
	// (unpaired surrogates survive).
	Str string
}

// TypeRef is a type descriptor.
type TypeRef struct {
	Pos  Pos
	Desc string
}

// FieldRef is a field reference, Lclass;->name:Type.
type FieldRef struct {
	Pos   Pos
	Class string // "" when omitted: the class being defined
	Name  string
	Type  string
}

// MethodRef is a method reference, Lclass;->name(Params)Return.
type MethodRef struct {
	Pos   Pos
	Class string // "" when omitted: the class being defined
	Name  string
	Proto *Proto
}

// Proto is a method prototype, (Params)Return; as a value or operand it is
// a method type.
type Proto struct {
	Pos    Pos
	Params []string
	Return string
}

// EnumRef is an .enum value: an enum constant's field.
type EnumRef struct {
	Pos   Pos
	Field *FieldRef
}

// ArrayValue is an array value, {a, b, c}.
type ArrayValue struct {
	Pos      Pos
	Elements []Value
}

// MethodHandle is a method handle, kind@reference.
type MethodHandle struct {
	Pos Pos
	// Kind is one of static-put, static-get, instance-put, instance-get
	// (with Field set) or invoke-static, invoke-instance,
	// invoke-constructor, invoke-direct, invoke-interface (with Method set).
	Kind   string
	Field  *FieldRef
	Method *MethodRef
}

// CallSite is an invoke-custom call site,
// name("methodName", (Params)Return, args...)@bootstrapMethod.
type CallSite struct {
	Pos        Pos
	Name       string
	MethodName string
	MethodType *Proto
	Args       []Value
	Bootstrap  *MethodRef
}

// Register is a register, vN or pN.
type Register struct {
	Pos   Pos
	Param bool // pN rather than vN
	Num   int
}

// RegisterList is {vC, vD, ...} (formats 35c, 45cc).
type RegisterList struct {
	Pos  Pos
	Regs []*Register
}

// RegisterRange is {vN .. vM} (formats 3rc, 4rcc). First and Last are nil
// for the empty range {}; Last is nil for a one-register range {vN}.
type RegisterRange struct {
	Pos         Pos
	First, Last *Register
}

// LabelRef is a use of a label, :name.
type LabelRef struct {
	Pos  Pos
	Name string
}

// Label defines a label, :name, at this point of the code.
type Label struct {
	Pos  Pos
	Name string
}

// Instruction is one instruction: a mnemonic from package opcode and its
// operands in source order.
type Instruction struct {
	Pos  Pos
	Name string
	Args []Operand
}

// ArrayData is an .array-data payload.
type ArrayData struct {
	Pos      Pos
	Width    int // element width in bytes: 1, 2, 4 or 8
	Elements []*Literal
}

// PackedSwitch is a .packed-switch payload.
type PackedSwitch struct {
	Pos      Pos
	FirstKey *Literal
	Targets  []*LabelRef
}

// SparseSwitch is a .sparse-switch payload.
type SparseSwitch struct {
	Pos   Pos
	Cases []*SwitchCase
}

// SwitchCase is one key -> :label line of a .sparse-switch.
type SwitchCase struct {
	Pos    Pos
	Key    *Literal
	Target *LabelRef
}

// Catch is a .catch Type {:start .. :end} :handler directive, or a
// .catchall when Type is nil. The range includes start and excludes end.
type Catch struct {
	Pos     Pos
	Type    *TypeRef
	Start   *LabelRef
	End     *LabelRef
	Handler *LabelRef
}

// Line is a .line directive.
type Line struct {
	Pos  Pos
	Line int32
}

// Local is a .local directive: a local variable comes into scope. Name,
// Type and Signature are nil when not given (.local v0, or null:V).
type Local struct {
	Pos       Pos
	Reg       *Register
	Name      *Literal // string literal
	Type      *TypeRef // never "V"
	Signature *Literal // string literal
}

// EndLocal is an .end local directive.
type EndLocal struct {
	Pos Pos
	Reg *Register
}

// RestartLocal is a .restart local directive.
type RestartLocal struct {
	Pos Pos
	Reg *Register
}

// Prologue is a .prologue directive.
type Prologue struct{ Pos Pos }

// Epilogue is an .epilogue directive.
type Epilogue struct{ Pos Pos }

// SourceFile is a .source directive inside a method: the following code
// comes from another source file (File is nil to reset it).
type SourceFile struct {
	Pos  Pos
	File *Literal // string literal
}

// Position methods.

func (n *Class) Position() Pos             { return n.Pos }
func (n *Modifier) Position() Pos          { return n.Pos }
func (n *Field) Position() Pos             { return n.Pos }
func (n *Method) Position() Pos            { return n.Pos }
func (n *Registers) Position() Pos         { return n.Pos }
func (n *Param) Position() Pos             { return n.Pos }
func (n *Annotation) Position() Pos        { return n.Pos }
func (n *AnnotationElement) Position() Pos { return n.Pos }
func (n *Subannotation) Position() Pos     { return n.Pos }
func (n *Literal) Position() Pos           { return n.Pos }
func (n *TypeRef) Position() Pos           { return n.Pos }
func (n *FieldRef) Position() Pos          { return n.Pos }
func (n *MethodRef) Position() Pos         { return n.Pos }
func (n *Proto) Position() Pos             { return n.Pos }
func (n *EnumRef) Position() Pos           { return n.Pos }
func (n *ArrayValue) Position() Pos        { return n.Pos }
func (n *MethodHandle) Position() Pos      { return n.Pos }
func (n *CallSite) Position() Pos          { return n.Pos }
func (n *Register) Position() Pos          { return n.Pos }
func (n *RegisterList) Position() Pos      { return n.Pos }
func (n *RegisterRange) Position() Pos     { return n.Pos }
func (n *LabelRef) Position() Pos          { return n.Pos }
func (n *Label) Position() Pos             { return n.Pos }
func (n *Instruction) Position() Pos       { return n.Pos }
func (n *ArrayData) Position() Pos         { return n.Pos }
func (n *PackedSwitch) Position() Pos      { return n.Pos }
func (n *SparseSwitch) Position() Pos      { return n.Pos }
func (n *SwitchCase) Position() Pos        { return n.Pos }
func (n *Catch) Position() Pos             { return n.Pos }
func (n *Line) Position() Pos              { return n.Pos }
func (n *Local) Position() Pos             { return n.Pos }
func (n *EndLocal) Position() Pos          { return n.Pos }
func (n *RestartLocal) Position() Pos      { return n.Pos }
func (n *Prologue) Position() Pos          { return n.Pos }
func (n *Epilogue) Position() Pos          { return n.Pos }
func (n *SourceFile) Position() Pos        { return n.Pos }

func (*Literal) isValue()       {}
func (*TypeRef) isValue()       {}
func (*FieldRef) isValue()      {}
func (*MethodRef) isValue()     {}
func (*EnumRef) isValue()       {}
func (*ArrayValue) isValue()    {}
func (*Subannotation) isValue() {}
func (*MethodHandle) isValue()  {}
func (*Proto) isValue()         {}

func (*Register) isOperand()      {}
func (*RegisterList) isOperand()  {}
func (*RegisterRange) isOperand() {}
func (*Literal) isOperand()       {}
func (*LabelRef) isOperand()      {}
func (*TypeRef) isOperand()       {}
func (*FieldRef) isOperand()      {}
func (*MethodRef) isOperand()     {}
func (*Proto) isOperand()         {}
func (*MethodHandle) isOperand()  {}
func (*CallSite) isOperand()      {}

func (*Label) isStmt()        {}
func (*Instruction) isStmt()  {}
func (*ArrayData) isStmt()    {}
func (*PackedSwitch) isStmt() {}
func (*SparseSwitch) isStmt() {}
func (*Catch) isStmt()        {}
func (*Line) isStmt()         {}
func (*Local) isStmt()        {}
func (*EndLocal) isStmt()     {}
func (*RestartLocal) isStmt() {}
func (*Prologue) isStmt()     {}
func (*Epilogue) isStmt()     {}
func (*SourceFile) isStmt()   {}

// String renders the register as written, e.g. "v3" or "p0".
func (r *Register) String() string {
	if r.Param {
		return fmt.Sprintf("p%d", r.Num)
	}
	return fmt.Sprintf("v%d", r.Num)
}

// Descriptor renders the prototype as a descriptor, e.g. "(ILjava/lang/String;)V".
func (p *Proto) Descriptor() string {
	return "(" + strings.Join(p.Params, "") + ")" + p.Return
}

// ParamRegisters is the number of registers the parameters of a method
// with this prototype take, not counting "this": 2 for J and D, 1 otherwise.
func (p *Proto) ParamRegisters() int {
	n := 0
	for _, t := range p.Params {
		n++
		if t == "J" || t == "D" {
			n++
		}
	}
	return n
}
