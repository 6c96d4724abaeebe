// Package opcode is the table of Dalvik instruction mnemonics as the smali
// language spells them: the opcode value, the instruction format, the shape
// of the operands, and the API level from which smali 2.5.2 accepts each one.
//
// The smali front end validates instructions against this table, and the
// lowering to DEX takes opcode values and formats from it.
package opcode

import (
	"fmt"
	"sort"
)

// Format is a Dalvik instruction format ("10x", "35c", ...), which fixes the
// size of an instruction and how its operands are packed.
type Format uint8

// The instruction formats. Format21h covers both const/high16 and
// const-wide/high16 (smali's 21ih and 21lh). The three payload pseudo-formats
// are the .array-data, .packed-switch and .sparse-switch directives.
const (
	FormatInvalid Format = iota
	Format10x
	Format10t
	Format11n
	Format11x
	Format12x
	Format20bc
	Format20t
	Format21c
	Format21h
	Format21s
	Format21t
	Format22b
	Format22c
	Format22cs
	Format22s
	Format22t
	Format22x
	Format23x
	Format30t
	Format31c
	Format31i
	Format31t
	Format32x
	Format35c
	Format35mi
	Format35ms
	Format3rc
	Format3rmi
	Format3rms
	Format45cc
	Format4rcc
	Format51l
	FormatArrayPayload
	FormatPackedSwitchPayload
	FormatSparseSwitchPayload
)

var formatNames = [...]string{
	FormatInvalid: "invalid", Format10x: "10x", Format10t: "10t", Format11n: "11n", Format11x: "11x",
	Format12x: "12x", Format20bc: "20bc", Format20t: "20t", Format21c: "21c", Format21h: "21h",
	Format21s: "21s", Format21t: "21t", Format22b: "22b", Format22c: "22c", Format22cs: "22cs",
	Format22s: "22s", Format22t: "22t", Format22x: "22x", Format23x: "23x", Format30t: "30t",
	Format31c: "31c", Format31i: "31i", Format31t: "31t", Format32x: "32x", Format35c: "35c",
	Format35mi: "35mi", Format35ms: "35ms", Format3rc: "3rc", Format3rmi: "3rmi", Format3rms: "3rms",
	Format45cc: "45cc", Format4rcc: "4rcc", Format51l: "51l",
	FormatArrayPayload: "array-payload", FormatPackedSwitchPayload: "packed-switch-payload",
	FormatSparseSwitchPayload: "sparse-switch-payload",
}

// String returns the format's name as the Dalvik documentation writes it.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Units is the size of an instruction of this format in 16-bit code units;
// payloads have a variable size and report 0.
func (f Format) Units() int {
	switch f {
	case Format10x, Format10t, Format11n, Format11x, Format12x:
		return 1
	case Format20bc, Format20t, Format21c, Format21h, Format21s, Format21t, Format22b,
		Format22c, Format22cs, Format22s, Format22t, Format22x, Format23x:
		return 2
	case Format30t, Format31c, Format31i, Format31t, Format32x, Format35c, Format35mi,
		Format35ms, Format3rc, Format3rmi, Format3rms:
		return 3
	case Format45cc, Format4rcc:
		return 4
	case Format51l:
		return 5
	}
	return 0
}

// Operand is the kind of one operand position of an instruction.
type Operand uint8

// Operand kinds. Register kinds give the widest register number the format
// can encode; literal kinds give the value range after smali's conversions.
const (
	OperandInvalid    Operand = iota
	RegNibble                 // vA in 4 bits (v0–v15)
	RegByte                   // vAA in 8 bits (v0–v255)
	RegShort                  // vAAAA in 16 bits (v0–v65535)
	RegList                   // {vC, vD, ...}: at most 5 registers, each in 4 bits
	RegRange                  // {vCCCC .. vNNNN}: at most 255 consecutive registers
	LitNibble                 // signed 4-bit literal
	LitByte                   // signed 8-bit literal
	LitShort                  // signed 16-bit literal
	LitInt                    // 32-bit literal
	LitHigh16                 // 32-bit literal whose low 16 bits are zero
	LitWide                   // 64-bit literal
	LitWideHigh16             // 64-bit literal whose low 48 bits are zero
	Label                     // branch or payload target (:name)
	StringRef                 // "string"
	TypeRef                   // type descriptor
	FieldRef                  // Lclass;->name:Type
	MethodRef                 // Lclass;->name(Args)Ret
	ProtoRef                  // (Args)Ret, a method type
	CallSiteRef               // name("method", (Args)Ret, extra...)@Lclass;->bootstrap(...)...
	MethodHandleRef           // kind@Lclass;->member
	VerificationError         // odex throw-verification-error kind
	InlineIndex               // odex inline@0x...
	VtableIndex               // odex vtable@0x...
	FieldOffset               // odex field@0x...
)

var operandNames = [...]string{
	OperandInvalid: "invalid", RegNibble: "register (v0-v15)", RegByte: "register (v0-v255)",
	RegShort: "register (v0-v65535)", RegList: "register list", RegRange: "register range",
	LitNibble: "4-bit literal", LitByte: "8-bit literal", LitShort: "16-bit literal",
	LitInt: "32-bit literal", LitHigh16: "32-bit literal with zero low 16 bits",
	LitWide: "64-bit literal", LitWideHigh16: "64-bit literal with zero low 48 bits",
	Label: "label", StringRef: "string", TypeRef: "type", FieldRef: "field reference",
	MethodRef: "method reference", ProtoRef: "method prototype", CallSiteRef: "call site",
	MethodHandleRef: "method handle", VerificationError: "verification error type",
	InlineIndex: "inline index", VtableIndex: "vtable index", FieldOffset: "field offset",
}

// String describes the operand kind for error messages.
func (o Operand) String() string {
	if int(o) < len(operandNames) {
		return operandNames[o]
	}
	return fmt.Sprintf("Operand(%d)", uint8(o))
}

// IsRegister reports whether the operand is a single register.
func (o Operand) IsRegister() bool { return o == RegNibble || o == RegByte || o == RegShort }

// IsLiteral reports whether the operand is a numeric literal.
func (o Operand) IsLiteral() bool { return o >= LitNibble && o <= LitWideHigh16 }

// Info describes one mnemonic.
type Info struct {
	// Name is the mnemonic, e.g. "move/from16".
	Name string
	// Opcode is the byte value in the instruction stream. For payload
	// pseudo-instructions it is the payload identifier's low byte (0x00, with
	// Ident giving the full identifier); odex-only mnemonics have 0.
	Opcode uint8
	// Ident is the 16-bit payload identifier (0x0100, 0x0200, 0x0300) for
	// payload pseudo-instructions, 0 otherwise.
	Ident uint16
	// Format is the instruction format.
	Format Format
	// Operands lists the operand kinds in source order.
	Operands []Operand
	// MinAPI is the lowest API level (smali -a) that accepts the mnemonic.
	MinAPI int
	// Odex marks instructions that exist only in optimised DEX files; smali
	// lexes them but refuses to assemble them.
	Odex bool
}

// String returns the mnemonic.
func (i *Info) String() string { return i.Name }

var (
	byName = map[string]*Info{}
	all    []*Info
)

func def(name string, op uint8, f Format, operands ...Operand) *Info {
	i := &Info{Name: name, Opcode: op, Format: f, Operands: operands, MinAPI: 1}
	if _, dup := byName[name]; dup {
		panic("opcode: duplicate mnemonic " + name)
	}
	byName[name] = i
	all = append(all, i)
	return i
}

func odex(name string, f Format, operands ...Operand) {
	def(name, 0, f, operands...).Odex = true
}

// Shapes shared by many mnemonics.
var (
	shape12x = []Operand{RegNibble, RegNibble}
	shape23x = []Operand{RegByte, RegByte, RegByte}
	shape22b = []Operand{RegByte, RegByte, LitByte}
	shape22s = []Operand{RegNibble, RegNibble, LitShort}
	shape22t = []Operand{RegNibble, RegNibble, Label}
	shape21t = []Operand{RegByte, Label}
)

func init() {
	def("nop", 0x00, Format10x)
	def("move", 0x01, Format12x, shape12x...)
	def("move/from16", 0x02, Format22x, RegByte, RegShort)
	def("move/16", 0x03, Format32x, RegShort, RegShort)
	def("move-wide", 0x04, Format12x, shape12x...)
	def("move-wide/from16", 0x05, Format22x, RegByte, RegShort)
	def("move-wide/16", 0x06, Format32x, RegShort, RegShort)
	def("move-object", 0x07, Format12x, shape12x...)
	def("move-object/from16", 0x08, Format22x, RegByte, RegShort)
	def("move-object/16", 0x09, Format32x, RegShort, RegShort)
	def("move-result", 0x0a, Format11x, RegByte)
	def("move-result-wide", 0x0b, Format11x, RegByte)
	def("move-result-object", 0x0c, Format11x, RegByte)
	def("move-exception", 0x0d, Format11x, RegByte)
	def("return-void", 0x0e, Format10x)
	def("return", 0x0f, Format11x, RegByte)
	def("return-wide", 0x10, Format11x, RegByte)
	def("return-object", 0x11, Format11x, RegByte)
	def("const/4", 0x12, Format11n, RegNibble, LitNibble)
	def("const/16", 0x13, Format21s, RegByte, LitShort)
	def("const", 0x14, Format31i, RegByte, LitInt)
	def("const/high16", 0x15, Format21h, RegByte, LitHigh16)
	def("const-wide/16", 0x16, Format21s, RegByte, LitShort)
	def("const-wide/32", 0x17, Format31i, RegByte, LitInt)
	def("const-wide", 0x18, Format51l, RegByte, LitWide)
	def("const-wide/high16", 0x19, Format21h, RegByte, LitWideHigh16)
	def("const-string", 0x1a, Format21c, RegByte, StringRef)
	def("const-string/jumbo", 0x1b, Format31c, RegByte, StringRef)
	def("const-class", 0x1c, Format21c, RegByte, TypeRef)
	def("monitor-enter", 0x1d, Format11x, RegByte)
	def("monitor-exit", 0x1e, Format11x, RegByte)
	def("check-cast", 0x1f, Format21c, RegByte, TypeRef)
	def("instance-of", 0x20, Format22c, RegNibble, RegNibble, TypeRef)
	def("array-length", 0x21, Format12x, shape12x...)
	def("new-instance", 0x22, Format21c, RegByte, TypeRef)
	def("new-array", 0x23, Format22c, RegNibble, RegNibble, TypeRef)
	def("filled-new-array", 0x24, Format35c, RegList, TypeRef)
	def("filled-new-array/range", 0x25, Format3rc, RegRange, TypeRef)
	def("fill-array-data", 0x26, Format31t, RegByte, Label)
	def("throw", 0x27, Format11x, RegByte)
	def("goto", 0x28, Format10t, Label)
	def("goto/16", 0x29, Format20t, Label)
	def("goto/32", 0x2a, Format30t, Label)
	def("packed-switch", 0x2b, Format31t, RegByte, Label)
	def("sparse-switch", 0x2c, Format31t, RegByte, Label)
	for i, n := range []string{"cmpl-float", "cmpg-float", "cmpl-double", "cmpg-double", "cmp-long"} {
		def(n, 0x2d+uint8(i), Format23x, shape23x...)
	}
	for i, n := range []string{"eq", "ne", "lt", "ge", "gt", "le"} {
		def("if-"+n, 0x32+uint8(i), Format22t, shape22t...)
		def("if-"+n+"z", 0x38+uint8(i), Format21t, shape21t...)
	}
	kinds := []string{"", "-wide", "-object", "-boolean", "-byte", "-char", "-short"}
	for i, k := range kinds {
		op := uint8(i)
		def("aget"+k, 0x44+op, Format23x, shape23x...)
		def("aput"+k, 0x4b+op, Format23x, shape23x...)
		def("iget"+k, 0x52+op, Format22c, RegNibble, RegNibble, FieldRef)
		def("iput"+k, 0x59+op, Format22c, RegNibble, RegNibble, FieldRef)
		def("sget"+k, 0x60+op, Format21c, RegByte, FieldRef)
		def("sput"+k, 0x67+op, Format21c, RegByte, FieldRef)
	}
	for i, n := range []string{"virtual", "super", "direct", "static", "interface"} {
		def("invoke-"+n, 0x6e+uint8(i), Format35c, RegList, MethodRef)
		def("invoke-"+n+"/range", 0x74+uint8(i), Format3rc, RegRange, MethodRef)
	}
	for i, n := range []string{"neg-int", "not-int", "neg-long", "not-long", "neg-float", "neg-double",
		"int-to-long", "int-to-float", "int-to-double", "long-to-int", "long-to-float", "long-to-double",
		"float-to-int", "float-to-long", "float-to-double", "double-to-int", "double-to-long",
		"double-to-float", "int-to-byte", "int-to-char", "int-to-short"} {
		def(n, 0x7b+uint8(i), Format12x, shape12x...)
	}
	var binops []string
	for _, t := range []string{"int", "long"} {
		for _, o := range []string{"add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "ushr"} {
			binops = append(binops, o+"-"+t)
		}
	}
	for _, t := range []string{"float", "double"} {
		for _, o := range []string{"add", "sub", "mul", "div", "rem"} {
			binops = append(binops, o+"-"+t)
		}
	}
	for i, n := range binops {
		def(n, 0x90+uint8(i), Format23x, shape23x...)
		def(n+"/2addr", 0xb0+uint8(i), Format12x, shape12x...)
	}
	for i, n := range []string{"add-int/lit16", "rsub-int", "mul-int/lit16", "div-int/lit16",
		"rem-int/lit16", "and-int/lit16", "or-int/lit16", "xor-int/lit16"} {
		def(n, 0xd0+uint8(i), Format22s, shape22s...)
	}
	for i, n := range []string{"add-int/lit8", "rsub-int/lit8", "mul-int/lit8", "div-int/lit8",
		"rem-int/lit8", "and-int/lit8", "or-int/lit8", "xor-int/lit8", "shl-int/lit8",
		"shr-int/lit8", "ushr-int/lit8"} {
		def(n, 0xd8+uint8(i), Format22b, shape22b...)
	}
	def("invoke-polymorphic", 0xfa, Format45cc, RegList, MethodRef, ProtoRef).MinAPI = 26
	def("invoke-polymorphic/range", 0xfb, Format4rcc, RegRange, MethodRef, ProtoRef).MinAPI = 26
	def("invoke-custom", 0xfc, Format35c, RegList, CallSiteRef).MinAPI = 26
	def("invoke-custom/range", 0xfd, Format3rc, RegRange, CallSiteRef).MinAPI = 26
	def("const-method-handle", 0xfe, Format21c, RegByte, MethodHandleRef).MinAPI = 28
	def("const-method-type", 0xff, Format21c, RegByte, ProtoRef).MinAPI = 28

	// Mnemonics of optimised DEX (odex) files: lexed, never assembled.
	odex("return-void-barrier", Format10x)
	odex("return-void-no-barrier", Format10x)
	odex("throw-verification-error", Format20bc, VerificationError, TypeRef)
	for _, n := range []string{"sget-volatile", "sget-wide-volatile", "sget-object-volatile",
		"sput-volatile", "sput-wide-volatile", "sput-object-volatile"} {
		odex(n, Format21c, RegByte, FieldRef)
	}
	for _, n := range []string{"iget-volatile", "iget-wide-volatile", "iget-object-volatile",
		"iput-volatile", "iput-wide-volatile", "iput-object-volatile"} {
		odex(n, Format22c, RegNibble, RegNibble, FieldRef)
	}
	for _, n := range []string{"iget-quick", "iget-wide-quick", "iget-object-quick", "iput-quick",
		"iput-wide-quick", "iput-object-quick", "iput-boolean-quick", "iput-byte-quick",
		"iput-char-quick", "iput-short-quick"} {
		odex(n, Format22cs, RegNibble, RegNibble, FieldOffset)
	}
	odex("invoke-direct-empty", Format35c, RegList, MethodRef)
	odex("execute-inline", Format35mi, RegList, InlineIndex)
	odex("execute-inline/range", Format3rmi, RegRange, InlineIndex)
	odex("invoke-virtual-quick", Format35ms, RegList, VtableIndex)
	odex("invoke-super-quick", Format35ms, RegList, VtableIndex)
	odex("invoke-virtual-quick/range", Format3rms, RegRange, VtableIndex)
	odex("invoke-super-quick/range", Format3rms, RegRange, VtableIndex)
	odex("invoke-object-init/range", Format3rc, RegRange, MethodRef)

	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Odex != b.Odex {
			return !a.Odex
		}
		if a.Opcode != b.Opcode {
			return a.Opcode < b.Opcode
		}
		return a.Name < b.Name
	})
}

// Payload pseudo-instructions. They are written as directives
// (.array-data, .packed-switch, .sparse-switch), not looked up by Lookup.
var (
	ArrayData    = &Info{Name: ".array-data", Ident: 0x0300, Format: FormatArrayPayload, MinAPI: 1}
	PackedSwitch = &Info{Name: ".packed-switch", Ident: 0x0100, Format: FormatPackedSwitchPayload, MinAPI: 1}
	SparseSwitch = &Info{Name: ".sparse-switch", Ident: 0x0200, Format: FormatSparseSwitchPayload, MinAPI: 1}
)

// Lookup returns the mnemonic's description, or nil when it is not a Dalvik
// mnemonic smali knows.
func Lookup(name string) *Info { return byName[name] }

// All returns every mnemonic: the assemblable ones by opcode, then the
// odex-only ones. The slice must not be modified.
func All() []*Info { return all }
