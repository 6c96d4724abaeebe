package runtime

import (
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
)

// Class states, in the order linking and initialisation move through them.
const (
	ClassLoaded = iota
	ClassLinked
	ClassInitializing
	ClassInitialized
	ClassErroneous
)

// Class is a loaded class, interface, array class or primitive type.
type Class struct {
	ID         int    // index in VM.classes; stored in the Class object
	Descriptor string // "Ljava/lang/String;", "[I", "I"
	Name       string // "java.lang.String", "[I", "int" (Class.getName)
	Access     uint32
	Super      *Class
	Interfaces []*Class // declared ones
	allIfaces  map[*Class]bool

	File *DexFile // defining DEX file; nil for arrays and primitives
	Def  *dex.ClassDef

	State int
	// VerifyError is the message of the VerifyError the class throws
	// at its first use, when it failed verification at link time.
	VerifyError string
	// LinkageError is the message of the LinkageError the class throws
	// at its first use when linking found a rule broken (a method
	// overriding a final one).
	LinkageError string
	initThread   *Thread
	Boot         bool // loaded from the boot class path (core.dex)

	// Instance layout: ObjectSize bytes (unaligned) including the super
	// class's fields; RefOffsets are the offsets of every reference field.
	ObjectSize uint32
	RefOffsets []uint32
	// Statics live in the Class object after its header and class id.
	StaticSize       uint32
	StaticRefOffsets []uint32
	// isReference marks java.lang.ref.Reference and its subclasses,
	// whose referent the collectors treat apart.
	isReference bool
	// finalize is 0 until the class is first instantiated, then
	// finalizeYes if it overrides Object.finalize, else finalizeNo.
	finalize int8

	Fields  []*Field // declared, static and instance
	Methods []*Method
	VTable  []*Method
	byName  map[string]*Method // name+signature -> most derived virtual or interface method
	itab    map[*Method]*Method
	Clinit  *Method

	// Arrays and primitives.
	Component *Class
	ElemShift uint8 // log2 of the element size
	Prim      byte  // 'I', 'J', ... for primitive classes, 'L' for references

	Addr uint32 // the java.lang.Class object

	proxyOf []*Class // the interfaces of a proxy class (java.lang.reflect.Proxy), else nil
}

// IsInterface reports whether c is an interface.
func (c *Class) IsInterface() bool { return c.Access&dex.AccInterface != 0 }

// IsArray reports whether c is an array class.
func (c *Class) IsArray() bool { return c.Component != nil }

// IsPrimitive reports whether c is a primitive type or void.
func (c *Class) IsPrimitive() bool { return c.Prim != 0 && c.Prim != 'L' }

// IsAbstract reports whether instances of c cannot be created.
func (c *Class) IsAbstract() bool { return c.Access&(dex.AccAbstract|dex.AccInterface) != 0 }

// SubclassOf reports whether c is d or extends it.
func (c *Class) SubclassOf(d *Class) bool {
	for k := c; k != nil; k = k.Super {
		if k == d {
			return true
		}
	}
	return false
}

// AssignableTo reports whether a value of class c may be stored in a
// variable of type d (the Java assignment rules, arrays included).
func (c *Class) AssignableTo(d *Class) bool {
	if c == d {
		return true
	}
	if d.IsInterface() {
		return c.allIfaces[d]
	}
	if c.IsArray() {
		if d.IsArray() {
			if c.Component.IsPrimitive() || d.Component.IsPrimitive() {
				return false
			}
			return c.Component.AssignableTo(d.Component)
		}
		return d.Super == nil && !d.IsPrimitive() // java.lang.Object
	}
	return c.SubclassOf(d)
}

// Field is a resolved field.
type Field struct {
	Class  *Class
	Name   string
	Type   string // descriptor
	Access uint32
	Offset uint32 // within the object, or within the Class object for statics
	Kind   byte   // first character of Type, 'L' for arrays too
	Static bool
}

// Size is the field's storage size in bytes.
func (f *Field) Size() uint32 { return kindSize(f.Kind) }

// IsRef reports whether the field holds a reference.
func (f *Field) IsRef() bool { return f.Kind == 'L' }

func kindSize(k byte) uint32 {
	switch k {
	case 'J', 'D':
		return 8
	case 'I', 'F', 'L':
		return 4
	case 'S', 'C':
		return 2
	default:
		return 1
	}
}

// NativeFunc implements a native method. args holds the argument words
// (this first for instance methods); the result goes to t.Ret, an
// exception to t.Throw.
type NativeFunc func(t *Thread, args []uint32)

// Method is a resolved method.
type Method struct {
	ID        int
	Class     *Class
	Name      string
	Signature string // "(ILjava/lang/String;)V"
	Shorty    string
	Access    uint32
	Code      *dex.Code
	VIndex    int // vtable index, -1 for direct methods
	Native    NativeFunc
	ArgWords  int // words of arguments including this
	RefArgs   []bool
	ReturnRef bool
	lines     []dex.Position
}

// IsStatic reports whether m has no receiver.
func (m *Method) IsStatic() bool { return m.Access&dex.AccStatic != 0 }

// IsAbstract reports whether m has no code.
func (m *Method) IsAbstract() bool { return m.Access&dex.AccAbstract != 0 }

// IsSynchronized reports whether a call of the method locks its receiver
// or class around the body. Only ACC_SYNCHRONIZED asks for that: the DEX
// format gives ACC_DECLARED_SYNCHRONIZED no effect on execution (it
// records the source's modifier for reflection), because the compilers
// that set it also emit the method's monitor-enter/monitor-exit pair in
// its code; ART locks around a call itself only for synchronized native
// methods. Treating both as a lock made a `synchronized` Java method
// lock twice. A method with code and ACC_SYNCHRONIZED (hand-written
// smali: the format allows the flag only with ACC_NATIVE) still locks.
func (m *Method) IsSynchronized() bool {
	return m.Access&dex.AccSynchronized != 0
}

// String is "Lpkg/Cls;->name(sig)", the smali form.
func (m *Method) String() string { return m.Class.Descriptor + "->" + m.Name + m.Signature }

// PrettyName is "pkg.Cls.name", the form Java stack traces use.
func (m *Method) PrettyName() string { return m.Class.Name + "." + m.Name }

// Line returns the source line of the instruction at pc, or -1.
func (m *Method) Line(pc int) int {
	if m.Code == nil || m.Code.Debug == nil {
		return -1
	}
	if m.lines == nil {
		m.lines = m.Code.Debug.Positions()
		if m.lines == nil {
			m.lines = []dex.Position{}
		}
	}
	line := -1
	for _, p := range m.lines {
		if int(p.Addr) > pc {
			break
		}
		line = int(p.Line)
	}
	return line
}

// javaName turns a descriptor into Class.getName's form.
func javaName(desc string) string {
	switch desc {
	case "Z":
		return "boolean"
	case "B":
		return "byte"
	case "S":
		return "short"
	case "C":
		return "char"
	case "I":
		return "int"
	case "J":
		return "long"
	case "F":
		return "float"
	case "D":
		return "double"
	case "V":
		return "void"
	}
	if strings.HasPrefix(desc, "[") {
		return strings.ReplaceAll(desc, "/", ".")
	}
	return strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(desc, "L"), ";"), "/", ".")
}

// prettyType is the Java source form of a descriptor ("int[]",
// "java.lang.String"), used in exception messages.
func prettyType(desc string) string {
	dims := 0
	for strings.HasPrefix(desc, "[") {
		dims++
		desc = desc[1:]
	}
	return javaName(desc) + strings.Repeat("[]", dims)
}

// shortyOf is the shorty character of a descriptor.
func shortyOf(desc string) byte {
	if desc[0] == '[' {
		return 'L'
	}
	return desc[0]
}

// SourceFile is the name of the source file m's class was compiled from,
// or "" if the DEX does not say.
func (m *Method) SourceFile() string {
	c := m.Class
	if c.Def == nil || c.Def.SourceFile == dex.NoIndex {
		return ""
	}
	return c.File.F.Strings[c.Def.SourceFile]
}

// FirstLine is the source line of m's first instruction, or 0.
func (m *Method) FirstLine() int { return max(m.Line(0), 0) }
