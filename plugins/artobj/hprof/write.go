// Package hprof writes and reads heap dumps in the HPROF format (JAVA
// PROFILE 1.0.2), the format of the JVM's jmap -dump and of Android's
// heap dumps, which Android Studio, Eclipse MAT and other heap analysers
// open.
//
// Write dumps droidprof's VM heap: a LOAD CLASS record per loaded class,
// a STACK TRACE per thread with a STACK FRAME per Java frame, then HEAP
// DUMP SEGMENTs with a root per VM root, of the kind the JVM writes for
// the same holder (ROOT JAVA FRAME with thread serial and frame depth,
// ROOT THREAD OBJECT with its stack trace, ROOT STICKY CLASS for class
// objects and so their statics, ROOT MONITOR USED for locked objects,
// ROOT JNI LOCAL for natives' references, ROOT THREAD BLOCK for pending
// exceptions, ROOT UNKNOWN for strings and the VM's own), a CLASS DUMP per class (super class,
// instance size, static fields with their values, instance fields), an
// INSTANCE DUMP per object, and an OBJ ARRAY DUMP or PRIM ARRAY DUMP per
// array, with the object's address as its ID (identifier size 4, as
// Android's dumps). Read parses a dump, from droidprof or from a JVM
// (identifier size 8), into its classes, a histogram of objects per class
// and the checks a reader can make.
//
// All integers are big-endian. Records: u1 tag, u4 time offset (µs), u4
// body length, body. Basic types: 2 object, 4 boolean, 5 char, 6 float,
// 7 double, 8 byte, 9 short, 10 int, 11 long.
package hprof

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/droidprof/droidprof/vm/runtime"
)

// Header is the format's magic and version, NUL-terminated in the file.
const Header = "JAVA PROFILE 1.0.2"

// Record tags.
const (
	tagUTF8            = 0x01
	tagLoadClass       = 0x02
	tagStackFrame      = 0x04
	tagStackTrace      = 0x05
	tagHeapDump        = 0x0c
	tagHeapDumpSegment = 0x1c
	tagHeapDumpEnd     = 0x2c
)

// Heap dump sub-record tags.
const (
	subRootUnknown     = 0xff
	subRootJNIGlobal   = 0x01
	subRootJNILocal    = 0x02
	subRootJavaFrame   = 0x03
	subRootNativeStack = 0x04
	subRootStickyClass = 0x05
	subRootThreadBlock = 0x06
	subRootMonitorUsed = 0x07
	subRootThreadObj   = 0x08
	subClassDump       = 0x20
	subInstanceDump    = 0x21
	subObjArrayDump    = 0x22
	subPrimArrayDump   = 0x23
)

// Basic types.
const (
	typeObject  = 2
	typeBoolean = 4
	typeChar    = 5
	typeFloat   = 6
	typeDouble  = 7
	typeByte    = 8
	typeShort   = 9
	typeInt     = 10
	typeLong    = 11
)

// typeSize is the size of a value of basic type t with identifiers of
// idSize bytes; 0 for an unknown type.
func typeSize(t byte, idSize int) int {
	switch t {
	case typeObject:
		return idSize
	case typeBoolean, typeByte:
		return 1
	case typeChar, typeShort:
		return 2
	case typeFloat, typeInt:
		return 4
	case typeDouble, typeLong:
		return 8
	}
	return 0
}

// basicType is the HPROF type of a field or element descriptor.
func basicType(desc byte) byte {
	switch desc {
	case 'Z':
		return typeBoolean
	case 'C':
		return typeChar
	case 'F':
		return typeFloat
	case 'D':
		return typeDouble
	case 'B':
		return typeByte
	case 'S':
		return typeShort
	case 'I':
		return typeInt
	case 'J':
		return typeLong
	}
	return typeObject
}

// writer builds the dump: string IDs are numbered from 1 in a space of
// their own; object IDs are addresses.
type writer struct {
	w       *bufio.Writer
	strings map[string]uint32
	seg     []byte // the heap dump segment under construction
	err     error
}

// segmentMax is the size at which a heap dump segment is written out and
// a new one started.
const segmentMax = 1 << 20

// Write writes a heap dump of v's heap as it is now (call it while the
// VM is stopped: from a hook, or after the program). The image space's
// objects are dumped too (boot classes' statics and interned strings).
func Write(out io.Writer, v *runtime.VM, now time.Time) error {
	wr := &writer{w: bufio.NewWriterSize(out, 1<<16), strings: map[string]uint32{}}
	wr.w.WriteString(Header)
	wr.w.WriteByte(0)
	wr.u4(4) // identifier size
	ms := uint64(now.UnixMilli())
	wr.u4(uint32(ms >> 32))
	wr.u4(uint32(ms))
	// Stack trace serial 1 is empty: every object names it (the VM does
	// not record allocation stacks in the heap).
	wr.record(tagStackTrace, be32(1, 0, 0))

	h := v.Heap
	classClass := v.Class("Ljava/lang/Class;")
	classSerial := map[*runtime.Class]uint32{}
	for serial, c := range v.Classes() {
		if c.Addr == 0 {
			continue
		}
		classSerial[c] = uint32(serial + 1)
		body := be32(uint32(serial+1), c.Addr, 1, wr.str(slashName(c)))
		wr.record(tagLoadClass, body)
	}
	// Threads: serial i+1, stack trace serial i+2, frames top first.
	threads := map[*runtime.Thread]uint32{}
	frameID := uint32(0)
	for i, t := range v.Threads() {
		serial := uint32(i + 1)
		threads[t] = serial
		var ids []uint32
		for j := len(t.Frames) - 1; j >= 0; j-- {
			m := t.Frames[j].Method
			if m == nil {
				continue // a transition frame of the VM's own
			}
			frameID++
			ids = append(ids, frameID)
			line := uint32(max(m.Line(t.Frames[j].PC), 0))
			switch {
			case m.Native != nil:
				line = 0xfffffffd // -3: native
			case line == 0:
				line = 0xffffffff // -1: unknown
			}
			wr.record(tagStackFrame, be32(frameID, wr.str(m.Name), wr.str(m.Signature), wr.str(m.SourceFile()), classSerial[m.Class], line))
		}
		wr.record(tagStackTrace, append(be32(serial+1, serial, uint32(len(ids))), be32(ids...)...))
	}
	// Roots, once per holder.
	type rootKey struct {
		tag          byte
		addr, thread uint32
		depth        int
	}
	seen := map[rootKey]bool{}
	root := func(tag byte, addr, thread uint32, depth int, body []byte) {
		k := rootKey{tag, addr, thread, depth}
		if !seen[k] {
			seen[k] = true
			wr.sub(tag, body)
		}
	}
	v.HeapRoots(func(r runtime.HeapRoot) {
		ts := threads[r.Thread]
		switch r.Kind {
		case runtime.RootClass:
			root(subRootStickyClass, r.Addr, 0, 0, be32(r.Addr))
		case runtime.RootThreadObject:
			root(subRootThreadObj, r.Addr, ts, 0, be32(r.Addr, ts, ts+1))
		case runtime.RootFrame:
			root(subRootJavaFrame, r.Addr, ts, r.Depth, be32(r.Addr, ts, uint32(r.Depth)))
		case runtime.RootNative:
			root(subRootJNILocal, r.Addr, ts, r.Depth, be32(r.Addr, ts, uint32(r.Depth)))
		case runtime.RootThreadBlock:
			root(subRootThreadBlock, r.Addr, ts, 0, be32(r.Addr, ts))
		default: // strings and the VM's own references
			root(subRootUnknown, r.Addr, 0, 0, be32(r.Addr))
		}
	})
	// Classes.
	for _, c := range v.Classes() {
		if c.Addr == 0 {
			continue
		}
		var b []byte
		super := uint32(0)
		if c.Super != nil {
			super = c.Super.Addr
		}
		b = append(b, be32(c.Addr, 1, super, 0, 0, 0, 0, 0, instanceBytes(c))...)
		b = binary.BigEndian.AppendUint16(b, 0) // constant pool
		var statics, fields []*runtime.Field
		for _, f := range c.Fields {
			if f.Static {
				statics = append(statics, f)
			} else {
				fields = append(fields, f)
			}
		}
		b = binary.BigEndian.AppendUint16(b, uint16(len(statics)))
		for _, f := range statics {
			t := basicType(f.Type[0])
			b = binary.BigEndian.AppendUint32(b, wr.str(f.Name))
			b = append(b, t)
			b = appendValue(b, h.Bytes(c.Addr+f.Offset, uint32(typeSize(t, 4))), t)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(len(fields)))
		for _, f := range fields {
			b = binary.BigEndian.AppendUint32(b, wr.str(f.Name))
			b = append(b, basicType(f.Type[0]))
		}
		wr.sub(subClassDump, b)
	}
	// Objects.
	dump := func(a uint32) {
		if v.LockOwner(a) != 0 {
			root(subRootMonitorUsed, a, 0, 0, be32(a))
		}
		k := v.ClassOf(a)
		switch {
		case k == classClass:
			// A CLASS DUMP above (or a class not loaded any more).
		case k.IsArray() && k.Component.IsPrimitive():
			n := uint32(v.ArrayLength(a))
			t := basicType(k.Component.Prim)
			b := be32(a, 1, n)
			b = append(b, t)
			es := uint32(typeSize(t, 4))
			data := h.Bytes(a+runtime.ArrayData(k), n*es)
			for i := uint32(0); i < n; i++ {
				b = appendValue(b, data[i*es:(i+1)*es], t)
			}
			wr.sub(subPrimArrayDump, b)
		case k.IsArray():
			n := uint32(v.ArrayLength(a))
			b := be32(a, 1, n, k.Addr)
			for i := uint32(0); i < n; i++ {
				b = binary.BigEndian.AppendUint32(b, h.U32(a+12+4*i))
			}
			wr.sub(subObjArrayDump, b)
		default:
			var vals []byte
			for c := k; c != nil; c = c.Super {
				for _, f := range c.Fields {
					if !f.Static {
						t := basicType(f.Type[0])
						vals = appendValue(vals, h.Bytes(a+f.Offset, uint32(typeSize(t, 4))), t)
					}
				}
			}
			b := be32(a, 1, k.Addr, uint32(len(vals)))
			wr.sub(subInstanceDump, append(b, vals...))
		}
	}
	v.WalkImage(dump)
	v.GCHeap.Walk(dump)
	wr.flushSegment()
	wr.record(tagHeapDumpEnd, nil)
	if wr.err != nil {
		return fmt.Errorf("hprof: %w", wr.err)
	}
	if err := wr.w.Flush(); err != nil {
		return fmt.Errorf("hprof: %w", err)
	}
	return nil
}

// instanceBytes is the size of an instance's field values in a dump:
// its own and its super classes' instance fields.
func instanceBytes(c *runtime.Class) uint32 {
	if c.IsArray() {
		return 0
	}
	n := 0
	for ; c != nil; c = c.Super {
		for _, f := range c.Fields {
			if !f.Static {
				n += typeSize(basicType(f.Type[0]), 4)
			}
		}
	}
	return uint32(n)
}

// slashName is the class name as the JVM writes it in LOAD CLASS:
// java/lang/String, [I, [Ljava/lang/String;.
func slashName(c *runtime.Class) string {
	if c.IsArray() {
		return strings.ReplaceAll(c.Descriptor, ".", "/")
	}
	return strings.ReplaceAll(c.Name, ".", "/")
}

// appendValue appends a little-endian heap value as big-endian.
func appendValue(b, le []byte, t byte) []byte {
	for i := len(le) - 1; i >= 0; i-- {
		b = append(b, le[i])
	}
	if t == typeBoolean && len(le) == 1 && le[0] > 1 {
		b[len(b)-1] = 1
	}
	return b
}

func be32(xs ...uint32) []byte {
	b := make([]byte, 0, 4*len(xs))
	for _, x := range xs {
		b = binary.BigEndian.AppendUint32(b, x)
	}
	return b
}

func (wr *writer) u4(x uint32) {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], x)
	wr.w.Write(b[:])
}

// record writes a top-level record.
func (wr *writer) record(tag byte, body []byte) {
	wr.w.WriteByte(tag)
	wr.u4(0) // time offset
	wr.u4(uint32(len(body)))
	if _, err := wr.w.Write(body); err != nil && wr.err == nil {
		wr.err = err
	}
}

// str returns the ID of a UTF8 record holding s, writing it on first use.
func (wr *writer) str(s string) uint32 {
	if id, ok := wr.strings[s]; ok {
		return id
	}
	id := uint32(len(wr.strings) + 1)
	wr.strings[s] = id
	wr.record(tagUTF8, append(be32(id), s...))
	return id
}

// sub adds a heap dump sub-record to the segment under construction.
func (wr *writer) sub(tag byte, body []byte) {
	wr.seg = append(wr.seg, tag)
	wr.seg = append(wr.seg, body...)
	if len(wr.seg) >= segmentMax {
		wr.flushSegment()
	}
}

func (wr *writer) flushSegment() {
	if len(wr.seg) > 0 {
		wr.record(tagHeapDumpSegment, wr.seg)
		wr.seg = wr.seg[:0]
	}
}
