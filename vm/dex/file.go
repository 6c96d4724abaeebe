package dex

import "sort"

// NoIndex marks an absent index (superclass of java.lang.Object, unknown
// source file, catch-all handler type, unnamed debug local).
const NoIndex = 0xffffffff

// HeaderSize is the size of a DEX header for versions 035 to 040.
const HeaderSize = 0x70

// EndianConstant is the endian_tag of a little-endian DEX file.
const EndianConstant = 0x12345678

// File is a decoded DEX file.
type File struct {
	Header        Header
	Strings       []string // decoded from MUTF-8; see EncodeMUTF8
	Types         []uint32 // descriptor string index of each type_id
	Protos        []Proto
	Fields        []FieldRef
	Methods       []MethodRef
	ClassDefs     []ClassDef
	CallSites     []CallSite
	MethodHandles []MethodHandle
	MapList       []MapItem
}

// Header is the header_item.
type Header struct {
	Magic     [8]byte
	Version   int // 35 to 40, from the magic
	Checksum  uint32
	Signature [20]byte
	FileSize  uint32
	HeaderSize,
	EndianTag,
	LinkSize, LinkOff,
	MapOff,
	StringIDsSize, StringIDsOff,
	TypeIDsSize, TypeIDsOff,
	ProtoIDsSize, ProtoIDsOff,
	FieldIDsSize, FieldIDsOff,
	MethodIDsSize, MethodIDsOff,
	ClassDefsSize, ClassDefsOff,
	DataSize, DataOff uint32
}

// Proto is a proto_id: a method prototype.
type Proto struct {
	Shorty    uint32   // string index
	Return    uint32   // type index
	Params    []uint32 // type indices
	ParamsOff uint32   // offset of the parameters type_list, 0 if none
}

// FieldRef is a field_id.
type FieldRef struct {
	Class uint32 // type index of the defining class
	Type  uint32 // type index of the field's type
	Name  uint32 // string index
}

// MethodRef is a method_id.
type MethodRef struct {
	Class uint32 // type index of the defining class
	Proto uint32 // proto index
	Name  uint32 // string index
}

// ClassDef is a class_def_item with everything it points to.
type ClassDef struct {
	Class           uint32 // type index
	Access          uint32
	Super           uint32   // type index or NoIndex
	Interfaces      []uint32 // type indices
	SourceFile      uint32   // string index or NoIndex
	Annotations     *AnnotationsDirectory
	Data            *ClassData
	StaticValues    []Value // initial values of the leading static fields
	InterfacesOff   uint32
	AnnotationsOff  uint32
	ClassDataOff    uint32
	StaticValuesOff uint32
}

// ClassData is a class_data_item. Field and method indices are absolute (the
// file stores differences).
type ClassData struct {
	StaticFields   []EncodedField
	InstanceFields []EncodedField
	DirectMethods  []EncodedMethod
	VirtualMethods []EncodedMethod
}

// EncodedField is one field of a class.
type EncodedField struct {
	Field  uint32 // field index
	Access uint32
}

// EncodedMethod is one method of a class; Code is nil for abstract and native
// methods.
type EncodedMethod struct {
	Method uint32 // method index
	Access uint32
	Code   *Code
}

// Code is a code_item.
type Code struct {
	Registers uint16
	Ins       uint16
	Outs      uint16
	Insns     []uint16 // the instructions, in 16-bit code units
	Tries     []Try
	Handlers  []CatchHandler // the encoded_catch_handler_list, in file order
	Debug     *DebugInfo     // nil if the method has none
	Off       uint32         // file offset of the code_item
}

// InsnsOff is the file offset of the first code unit.
func (c *Code) InsnsOff() uint32 { return c.Off + 16 }

// TryAt returns the try item covering the code unit at pc, or nil. It
// searches by halves, so the items must be sorted and must not overlap,
// as the DEX format requires and the verifier checks (a method with
// thousands of try blocks, as a generated one may have, would otherwise
// pay for a scan at every throw).
func (c *Code) TryAt(pc uint32) *Try {
	i := sort.Search(len(c.Tries), func(i int) bool { return c.Tries[i].Start+uint32(c.Tries[i].Count) > pc })
	if i < len(c.Tries) && c.Tries[i].Start <= pc {
		return &c.Tries[i]
	}
	return nil
}

// Try is a try_item: the code units [Start, Start+Count) are covered by
// Handlers[Handler].
type Try struct {
	Start   uint32
	Count   uint16
	Handler int // index into Code.Handlers
}

// CatchHandler is an encoded_catch_handler.
type CatchHandler struct {
	Catches     []Catch
	HasCatchAll bool
	CatchAll    uint32 // code unit address of the catch-all handler
	Off         uint32 // byte offset within the handler list (try_item.handler_off)
}

// Catch is one typed handler.
type Catch struct {
	Type uint32 // type index
	Addr uint32 // code unit address
}

// Access flags of classes, fields and methods.
const (
	AccPublic               = 0x1
	AccPrivate              = 0x2
	AccProtected            = 0x4
	AccStatic               = 0x8
	AccFinal                = 0x10
	AccSynchronized         = 0x20
	AccVolatile             = 0x40
	AccBridge               = 0x40
	AccTransient            = 0x80
	AccVarargs              = 0x80
	AccNative               = 0x100
	AccInterface            = 0x200
	AccAbstract             = 0x400
	AccStrict               = 0x800
	AccSynthetic            = 0x1000
	AccAnnotation           = 0x2000
	AccEnum                 = 0x4000
	AccConstructor          = 0x10000
	AccDeclaredSynchronized = 0x20000
)

// CallSite is a call_site_id with its decoded encoded_array_item: method
// handle, method name, method type, then extra bootstrap arguments.
type CallSite struct {
	Values []Value
	Off    uint32 // offset of the encoded_array_item
}

// Method handle kinds (method_handle_item.method_handle_type).
const (
	HandleStaticPut         = 0x00
	HandleStaticGet         = 0x01
	HandleInstancePut       = 0x02
	HandleInstanceGet       = 0x03
	HandleInvokeStatic      = 0x04
	HandleInvokeInstance    = 0x05
	HandleInvokeConstructor = 0x06
	HandleInvokeDirect      = 0x07
	HandleInvokeInterface   = 0x08
)

// MethodHandle is a method_handle_item.
type MethodHandle struct {
	Kind   uint16
	Target uint32 // field index for the put/get kinds, method index otherwise
}

// IsField reports whether the handle's target is a field.
func (h MethodHandle) IsField() bool { return h.Kind <= HandleInstanceGet }

// Map item types (map_item.type).
const (
	TypeHeaderItem               = 0x0000
	TypeStringIDItem             = 0x0001
	TypeTypeIDItem               = 0x0002
	TypeProtoIDItem              = 0x0003
	TypeFieldIDItem              = 0x0004
	TypeMethodIDItem             = 0x0005
	TypeClassDefItem             = 0x0006
	TypeCallSiteIDItem           = 0x0007
	TypeMethodHandleItem         = 0x0008
	TypeMapList                  = 0x1000
	TypeTypeList                 = 0x1001
	TypeAnnotationSetRefList     = 0x1002
	TypeAnnotationSetItem        = 0x1003
	TypeClassDataItem            = 0x2000
	TypeCodeItem                 = 0x2001
	TypeStringDataItem           = 0x2002
	TypeDebugInfoItem            = 0x2003
	TypeAnnotationItem           = 0x2004
	TypeEncodedArrayItem         = 0x2005
	TypeAnnotationsDirectoryItem = 0x2006
	TypeHiddenapiClassDataItem   = 0xf000
)

// MapItem is one entry of the map_list.
type MapItem struct {
	Type uint16
	Size uint32
	Off  uint32
}
