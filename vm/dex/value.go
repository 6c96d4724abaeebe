package dex

import "math"

// ValueKind is the type of an encoded_value (the low five bits of its header
// byte).
type ValueKind uint8

// Encoded value kinds.
const (
	ValueByte         ValueKind = 0x00
	ValueShort        ValueKind = 0x02
	ValueChar         ValueKind = 0x03
	ValueInt          ValueKind = 0x04
	ValueLong         ValueKind = 0x06
	ValueFloat        ValueKind = 0x10
	ValueDouble       ValueKind = 0x11
	ValueMethodType   ValueKind = 0x15
	ValueMethodHandle ValueKind = 0x16
	ValueString       ValueKind = 0x17
	ValueType         ValueKind = 0x18
	ValueField        ValueKind = 0x19
	ValueMethod       ValueKind = 0x1a
	ValueEnum         ValueKind = 0x1b
	ValueArray        ValueKind = 0x1c
	ValueAnnotation   ValueKind = 0x1d
	ValueNull         ValueKind = 0x1e
	ValueBoolean      ValueKind = 0x1f
)

var valueKindNames = map[ValueKind]string{
	ValueByte: "byte", ValueShort: "short", ValueChar: "char", ValueInt: "int", ValueLong: "long",
	ValueFloat: "float", ValueDouble: "double", ValueMethodType: "method_type",
	ValueMethodHandle: "method_handle", ValueString: "string", ValueType: "type", ValueField: "field",
	ValueMethod: "method", ValueEnum: "enum", ValueArray: "array", ValueAnnotation: "annotation",
	ValueNull: "null", ValueBoolean: "boolean",
}

// String returns the kind's name as the DEX format documentation spells it.
func (k ValueKind) String() string {
	if s, ok := valueKindNames[k]; ok {
		return s
	}
	return "invalid"
}

// Value is a decoded encoded_value.
//
// Bits holds the payload: for byte, short, int and long the value
// sign-extended to 64 bits; for char the zero-extended value; for float the
// IEEE-754 bits in the low 32 bits, for double all 64 bits; for the reference
// kinds (method_type, method_handle, string, type, field, method, enum) the
// index; for boolean 0 or 1. Array holds the elements of an array, Annotation
// the value of an annotation.
type Value struct {
	Kind       ValueKind
	Bits       uint64
	Array      []Value
	Annotation *EncodedAnnotation
}

// Int returns an integral value (byte, short, char, int, long) as int64.
func (v Value) Int() int64 { return int64(v.Bits) }

// Float returns a float value.
func (v Value) Float() float32 { return math.Float32frombits(uint32(v.Bits)) }

// Double returns a double value.
func (v Value) Double() float64 { return math.Float64frombits(v.Bits) }

// Index returns the index of a reference value.
func (v Value) Index() uint32 { return uint32(v.Bits) }

// Bool returns a boolean value.
func (v Value) Bool() bool { return v.Bits != 0 }

// EncodedAnnotation is an encoded_annotation: an annotation type and its
// name-value pairs.
type EncodedAnnotation struct {
	Type     uint32 // type index
	Elements []AnnotationElement
}

// AnnotationElement is one name-value pair of an annotation.
type AnnotationElement struct {
	Name  uint32 // string index
	Value Value
}

// Annotation visibilities.
const (
	VisibilityBuild   = 0x00
	VisibilityRuntime = 0x01
	VisibilitySystem  = 0x02
)

// Annotation is an annotation_item.
type Annotation struct {
	Visibility uint8
	EncodedAnnotation
	Off uint32
}

// AnnotationSet is an annotation_set_item.
type AnnotationSet struct {
	Items []Annotation
	Off   uint32
}

// AnnotationsDirectory is an annotations_directory_item. A nil set pointer
// means the file has offset 0 there.
type AnnotationsDirectory struct {
	Class   *AnnotationSet
	Fields  []FieldAnnotations
	Methods []MethodAnnotations
	Params  []ParamAnnotations
}

// FieldAnnotations are the annotations of one field.
type FieldAnnotations struct {
	Field uint32 // field index
	Set   *AnnotationSet
}

// MethodAnnotations are the annotations of one method.
type MethodAnnotations struct {
	Method uint32 // method index
	Set    *AnnotationSet
}

// ParamAnnotations are the annotations of one method's parameters, one set
// per parameter (nil where the file has offset 0).
type ParamAnnotations struct {
	Method uint32 // method index
	Sets   []*AnnotationSet
	Off    uint32 // offset of the annotation_set_ref_list
}
