package hprof

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Dump is a heap dump read back.
type Dump struct {
	IDSize int
	// Classes by class object ID: the dotted name (java.lang.String, [I,
	// [Ljava.lang.String;), from the LOAD CLASS records.
	Classes map[uint64]string
	// Histogram counts the objects per class name: instances, object
	// arrays by their class, primitive arrays by "[I" and the like.
	Histogram map[string]int
	// Records counts the top-level records and heap dump sub-records by
	// tag, e.g. "LOAD CLASS", "INSTANCE DUMP".
	Records map[string]int
	Roots   int
	// RootList holds every root sub-record, in file order.
	RootList []Root
	// Frames holds the STACK FRAME records by frame ID; Traces the STACK
	// TRACE records by serial.
	Frames map[uint64]Frame
	Traces map[uint32]Trace
	// ObjectClass names the class of every instance and array by its ID.
	ObjectClass map[uint64]string
	// Dangling lists references (instance fields, array elements, super
	// classes, static fields) to an object the dump does not hold; at most
	// 10 are kept, DanglingCount counts them all.
	Dangling      []string
	DanglingCount int

	fields  map[uint64][]byte // class ID -> its instance fields' types
	supers  map[uint64]uint64
	objects map[uint64]bool
	refs    []ref
}

type ref struct{ from, to uint64 }

// Root is a root sub-record: its kind ("JAVA FRAME", "STICKY CLASS",
// …), the object, and for thread-held kinds the thread serial, the frame
// depth (JAVA FRAME, JNI LOCAL) and the stack trace serial (THREAD
// OBJECT).
type Root struct {
	Kind   string
	ID     uint64
	Thread uint32
	Depth  int
	Trace  uint32
}

// Frame is a STACK FRAME record, its class named by its LOAD CLASS.
type Frame struct {
	Method, Signature, Source, Class string
	Line                             int32
}

// Trace is a STACK TRACE record: the thread serial and the frame IDs,
// top first.
type Trace struct {
	Thread uint32
	Frames []uint64
}

// Method names the frame at depth of trace serial s ("" if none), as
// class.method.
func (d *Dump) Method(s uint32, depth int) string {
	tr, ok := d.Traces[s]
	if !ok || depth < 0 || depth >= len(tr.Frames) {
		return ""
	}
	f := d.Frames[tr.Frames[depth]]
	return f.Class + "." + f.Method
}

// TraceOf returns the stack trace serial of thread serial th, from its
// ROOT THREAD OBJECT; 0 if the dump has none.
func (d *Dump) TraceOf(th uint32) uint32 {
	for _, r := range d.RootList {
		if r.Kind == "THREAD OBJECT" && r.Thread == th {
			return r.Trace
		}
	}
	return 0
}

var rootNames = map[byte]string{0xff: "UNKNOWN", 0x01: "JNI GLOBAL", 0x02: "JNI LOCAL", 0x03: "JAVA FRAME", 0x04: "NATIVE STACK",
	0x05: "STICKY CLASS", 0x06: "THREAD BLOCK", 0x07: "MONITOR USED", 0x08: "THREAD OBJECT", 0x89: "INTERNED STRING",
	0x8a: "FINALIZING", 0x8b: "DEBUGGER", 0x8c: "REFERENCE CLEANUP", 0x8d: "VM INTERNAL", 0x8e: "JNI MONITOR", 0x90: "UNREACHABLE"}

var recordNames = map[byte]string{tagUTF8: "UTF8", tagLoadClass: "LOAD CLASS", tagStackTrace: "STACK TRACE", 0x04: "STACK FRAME",
	tagHeapDump: "HEAP DUMP", tagHeapDumpSegment: "HEAP DUMP SEGMENT", tagHeapDumpEnd: "HEAP DUMP END"}

var subNames = map[byte]string{subClassDump: "CLASS DUMP", subInstanceDump: "INSTANCE DUMP", subObjArrayDump: "OBJ ARRAY DUMP", subPrimArrayDump: "PRIM ARRAY DUMP"}

// rootSize is the size after the ID of each root sub-record (the JVM's
// and Android's): -1 for a tag that is not a root.
func rootSize(tag byte) int {
	switch tag {
	case subRootUnknown, 0x05, 0x07, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x90: // unknown, sticky class, monitor used, Android's
		return 0
	case 0x01: // JNI global: + ID of the global ref (counted in IDs below)
		return -2
	case 0x04, 0x06: // native stack, thread block: + thread serial
		return 4
	case 0x02, 0x03, 0x08, 0x8e: // JNI local, Java frame, thread object, JNI monitor
		return 8
	}
	return -1
}

// Read parses a heap dump. Errors name the offset of the bad record.
func Read(r io.Reader) (*Dump, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	hdr, err := br.ReadString(0)
	if err != nil || !strings.HasPrefix(hdr, "JAVA PROFILE 1.0") {
		return nil, fmt.Errorf("hprof: not an HPROF file: header %q at offset 0", strings.TrimRight(hdr, "\x00"))
	}
	off := int64(len(hdr))
	var fixed [12]byte
	if _, err := io.ReadFull(br, fixed[:]); err != nil {
		return nil, fmt.Errorf("hprof: header cut short at offset %d", off)
	}
	d := &Dump{IDSize: int(binary.BigEndian.Uint32(fixed[:4])), Classes: map[uint64]string{}, Histogram: map[string]int{}, Records: map[string]int{},
		Frames: map[uint64]Frame{}, Traces: map[uint32]Trace{}, ObjectClass: map[uint64]string{},
		fields: map[uint64][]byte{}, supers: map[uint64]uint64{}, objects: map[uint64]bool{}}
	if d.IDSize != 4 && d.IDSize != 8 {
		return nil, fmt.Errorf("hprof: identifier size %d at offset %d: want 4 or 8", d.IDSize, off)
	}
	off += 12
	strs := map[uint64]string{}
	classSerials := map[uint32]string{}
	var instances []instance
	for {
		var rh [9]byte
		n, err := io.ReadFull(br, rh[:])
		if err == io.EOF {
			break
		}
		if err != nil {
			return d, fmt.Errorf("hprof: record header at offset %d cut short (%d of 9 bytes)", off, n)
		}
		tag, length := rh[0], binary.BigEndian.Uint32(rh[5:])
		body := make([]byte, length)
		if _, err := io.ReadFull(br, body); err != nil {
			return d, fmt.Errorf("hprof: record %#x at offset %d cut short (%d bytes declared)", tag, off, length)
		}
		name := recordNames[tag]
		if name == "" {
			name = fmt.Sprintf("%#x", tag)
		}
		d.Records[name]++
		switch tag {
		case tagUTF8:
			if int(length) < d.IDSize {
				return d, fmt.Errorf("hprof: UTF8 record at offset %d too short", off)
			}
			strs[d.id(body)] = string(body[d.IDSize:])
		case tagLoadClass:
			if int(length) < 8+2*d.IDSize {
				return d, fmt.Errorf("hprof: LOAD CLASS record at offset %d too short", off)
			}
			cls := d.id(body[4:])
			nameID := d.id(body[8+d.IDSize:])
			d.Classes[cls] = strings.ReplaceAll(strs[nameID], "/", ".")
			classSerials[binary.BigEndian.Uint32(body)] = d.Classes[cls]
		case tagStackFrame:
			if int(length) != 4*d.IDSize+8 {
				return d, fmt.Errorf("hprof: STACK FRAME record at offset %d: %d bytes, want %d", off, length, 4*d.IDSize+8)
			}
			ids := d.IDSize
			d.Frames[d.id(body)] = Frame{Method: strs[d.id(body[ids:])], Signature: strs[d.id(body[2*ids:])], Source: strs[d.id(body[3*ids:])],
				Class: classSerials[binary.BigEndian.Uint32(body[4*ids:])], Line: int32(binary.BigEndian.Uint32(body[4*ids+4:]))}
		case tagStackTrace:
			if length < 12 || int(length) != 12+int(binary.BigEndian.Uint32(body[8:]))*d.IDSize {
				return d, fmt.Errorf("hprof: STACK TRACE record at offset %d: %d bytes do not hold its frames", off, length)
			}
			tr := Trace{Thread: binary.BigEndian.Uint32(body[4:])}
			for p := 12; p < int(length); p += d.IDSize {
				tr.Frames = append(tr.Frames, d.id(body[p:]))
			}
			d.Traces[binary.BigEndian.Uint32(body)] = tr
		case tagHeapDump, tagHeapDumpSegment:
			insts, err := d.heapDump(body, off+9)
			if err != nil {
				return d, err
			}
			instances = append(instances, insts...)
		}
		off += 9 + int64(length)
	}
	// Instances are decoded once every class dump is known (a segment may
	// precede the class dumps of its objects' classes).
	for _, in := range instances {
		d.Histogram[d.Classes[in.class]]++
		d.ObjectClass[in.id] = d.Classes[in.class]
		if err := d.instanceRefs(in); err != nil {
			return d, err
		}
	}
	for _, r := range d.refs {
		if r.to != 0 && !d.objects[r.to] && d.Classes[r.to] == "" {
			d.DanglingCount++
			if len(d.Dangling) < 10 {
				d.Dangling = append(d.Dangling, fmt.Sprintf("%#x -> %#x", r.from, r.to))
			}
		}
	}
	return d, nil
}

type instance struct {
	id, class uint64
	values    []byte
	off       int64
}

func (d *Dump) id(b []byte) uint64 {
	if d.IDSize == 4 {
		return uint64(binary.BigEndian.Uint32(b))
	}
	return binary.BigEndian.Uint64(b)
}

// heapDump reads the sub-records of a heap dump (segment) body that
// starts at file offset base.
func (d *Dump) heapDump(b []byte, base int64) ([]instance, error) {
	ids := d.IDSize
	var out []instance
	p := 0
	short := func(what string) error {
		return fmt.Errorf("hprof: %s at offset %d runs past its segment", what, base+int64(p))
	}
	need := func(n int) bool { return p+n <= len(b) }
	for p < len(b) {
		tag := b[p]
		start := p
		p++
		if rs := rootSize(tag); rs != -1 {
			n := ids + rs
			if rs == -2 {
				n = 2 * ids
			}
			if !need(n) {
				return out, short("a root")
			}
			d.Roots++
			d.Records["ROOT"]++
			r := Root{Kind: rootNames[tag], ID: d.id(b[p:])}
			switch tag {
			case 0x02, 0x03, 0x8e: // thread serial, frame depth
				r.Thread, r.Depth = binary.BigEndian.Uint32(b[p+ids:]), int(int32(binary.BigEndian.Uint32(b[p+ids+4:])))
			case 0x08: // thread serial, stack trace serial
				r.Thread, r.Trace = binary.BigEndian.Uint32(b[p+ids:]), binary.BigEndian.Uint32(b[p+ids+4:])
			case 0x04, 0x06:
				r.Thread = binary.BigEndian.Uint32(b[p+ids:])
			}
			d.RootList = append(d.RootList, r)
			p += n
			continue
		}
		d.Records[subNames[tag]]++
		switch tag {
		case subClassDump:
			if !need(7*ids + 8 + 2) {
				return out, short("a CLASS DUMP")
			}
			cls := d.id(b[p:])
			super := d.id(b[p+ids+4:])
			d.supers[cls] = super
			d.refs = append(d.refs, ref{cls, super})
			p += 7*ids + 8
			cp := int(binary.BigEndian.Uint16(b[p:]))
			p += 2
			for range cp {
				if !need(3) {
					return out, short("a constant pool entry")
				}
				t := b[p+2]
				p += 3 + typeSize(t, ids)
			}
			if !need(2) {
				return out, short("a CLASS DUMP")
			}
			ns := int(binary.BigEndian.Uint16(b[p:]))
			p += 2
			for range ns {
				if !need(ids + 1) {
					return out, short("a static field")
				}
				t := b[p+ids]
				sz := typeSize(t, ids)
				if sz == 0 || !need(ids+1+sz) {
					return out, fmt.Errorf("hprof: static field of type %d at offset %d", t, base+int64(p))
				}
				if t == typeObject {
					d.refs = append(d.refs, ref{cls, d.id(b[p+ids+1:])})
				}
				p += ids + 1 + sz
			}
			if !need(2) {
				return out, short("a CLASS DUMP")
			}
			nf := int(binary.BigEndian.Uint16(b[p:]))
			p += 2
			if !need(nf * (ids + 1)) {
				return out, short("instance fields")
			}
			var types []byte
			for range nf {
				types = append(types, b[p+ids])
				p += ids + 1
			}
			d.fields[cls] = types
		case subInstanceDump:
			if !need(2*ids + 8) {
				return out, short("an INSTANCE DUMP")
			}
			id, cls := d.id(b[p:]), d.id(b[p+ids+4:])
			n := int(binary.BigEndian.Uint32(b[p+2*ids+4:]))
			p += 2*ids + 8
			if !need(n) {
				return out, short("an INSTANCE DUMP's values")
			}
			d.objects[id] = true
			out = append(out, instance{id, cls, b[p : p+n], base + int64(start)})
			p += n
		case subObjArrayDump:
			if !need(2*ids + 8) {
				return out, short("an OBJ ARRAY DUMP")
			}
			id := d.id(b[p:])
			n := int(binary.BigEndian.Uint32(b[p+ids+4:]))
			cls := d.id(b[p+ids+8:])
			p += 2*ids + 8
			if !need(n * ids) {
				return out, short("an OBJ ARRAY DUMP's elements")
			}
			d.objects[id] = true
			d.ObjectClass[id] = d.className(cls, "[Ljava.lang.Object;")
			d.Histogram[d.ObjectClass[id]]++
			for i := range n {
				d.refs = append(d.refs, ref{id, d.id(b[p+i*ids:])})
			}
			p += n * ids
		case subPrimArrayDump:
			if !need(ids + 9) {
				return out, short("a PRIM ARRAY DUMP")
			}
			id := d.id(b[p:])
			n := int(binary.BigEndian.Uint32(b[p+ids+4:]))
			t := b[p+ids+8]
			sz := typeSize(t, ids)
			if sz == 0 || t == typeObject {
				return out, fmt.Errorf("hprof: primitive array of type %d at offset %d", t, base+int64(start))
			}
			p += ids + 9
			if !need(n * sz) {
				return out, short("a PRIM ARRAY DUMP's elements")
			}
			d.objects[id] = true
			d.ObjectClass[id] = primArrayName[t]
			d.Histogram[primArrayName[t]]++
			p += n * sz
		default:
			return out, fmt.Errorf("hprof: unknown heap dump sub-record %#x at offset %d", tag, base+int64(start))
		}
	}
	return out, nil
}

// className names a class ID; classes of arrays dumped before their LOAD
// CLASS fall back to def (resolved in Read's second pass otherwise).
func (d *Dump) className(cls uint64, def string) string {
	if n, ok := d.Classes[cls]; ok {
		return n
	}
	return def
}

var primArrayName = map[byte]string{typeBoolean: "[Z", typeChar: "[C", typeFloat: "[F", typeDouble: "[D", typeByte: "[B", typeShort: "[S", typeInt: "[I", typeLong: "[J"}

// instanceRefs decodes an instance's values by its class chain's field
// types and notes its references.
func (d *Dump) instanceRefs(in instance) error {
	p := 0
	for c := in.class; c != 0; c = d.supers[c] {
		types, ok := d.fields[c]
		if !ok {
			return fmt.Errorf("hprof: INSTANCE DUMP at offset %d: class %#x has no CLASS DUMP", in.off, c)
		}
		for _, t := range types {
			sz := typeSize(t, d.IDSize)
			if p+sz > len(in.values) {
				return errors.New("hprof: INSTANCE DUMP at offset " + fmt.Sprint(in.off) + ": values shorter than its class's fields")
			}
			if t == typeObject {
				d.refs = append(d.refs, ref{in.id, d.id(in.values[p:])})
			}
			p += sz
		}
	}
	if p != len(in.values) {
		return fmt.Errorf("hprof: INSTANCE DUMP at offset %d: %d bytes of values, its class's fields take %d", in.off, len(in.values), p)
	}
	return nil
}
