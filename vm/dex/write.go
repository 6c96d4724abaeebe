package dex

import (
	"cmp"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"slices"
	"unicode/utf8"
)

// Write lays out f as a DEX file and returns its bytes.
//
// The model's id tables (Strings, Types, Protos, Fields, Methods) must already
// be in the order the format requires (strings by UTF-16 code units, types by
// descriptor index, protos by return type then parameters, fields by class,
// name and type, methods by class, name and proto), as they are in every File
// that Read returns; Write reports the first entry out of order instead of
// renumbering. Class definitions need not be ordered: Write moves a class
// after its superclass and interfaces where needed (a valid order is kept as
// it is). The annotations of a set are written sorted by type.
//
// Fields named Off and the header's offsets, sizes, checksum and signature
// are ignored: Write computes them. The magic (and so the version) is taken
// from f.Header.Magic, or from f.Header.Version, or is 035. Shared items
// (equal type lists, encoded arrays, annotations and annotation sets; the
// same *Code or *DebugInfo) are written once. The link section and
// hiddenapi data are not part of the model and are not written.
//
// The layout follows smali's: header, id tables, class_defs, call_site_ids,
// method_handles, then the data section (string data, type lists, encoded
// arrays, annotations, annotation sets, set ref lists, annotations
// directories, debug info, code, class data) ending with the map_list.
func Write(f *File) (out []byte, err error) {
	if err := checkOrder(f); err != nil {
		return nil, err
	}
	order, err := classOrder(f)
	if err != nil {
		return nil, err
	}
	defer func() {
		// The model is trusted like a File from Read; an index out of
		// range in a hand-built model is reported, not a crash.
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("dex: write: invalid model: %v", r)
		}
	}()
	w := &writer{f: f, order: order}
	return w.write()
}

// checkOrder verifies the sort order of the id tables.
func checkOrder(f *File) error {
	for i := 1; i < len(f.Strings); i++ {
		if CompareUTF16(f.Strings[i-1], f.Strings[i]) >= 0 {
			return fmt.Errorf("dex: write: string table out of order: strings[%d] %q must sort after strings[%d] %q (UTF-16 order, no duplicates)", i, f.Strings[i], i-1, f.Strings[i-1])
		}
	}
	for i := 1; i < len(f.Types); i++ {
		if f.Types[i-1] >= f.Types[i] {
			return fmt.Errorf("dex: write: type table out of order: types[%d] (string %d) must sort after types[%d] (string %d)", i, f.Types[i], i-1, f.Types[i-1])
		}
	}
	for i := 1; i < len(f.Protos); i++ {
		a, b := f.Protos[i-1], f.Protos[i]
		if c := cmp.Or(cmp.Compare(a.Return, b.Return), slices.Compare(a.Params, b.Params)); c >= 0 {
			return fmt.Errorf("dex: write: proto table out of order: protos[%d] must sort after protos[%d] (return type, then parameters; no duplicates)", i, i-1)
		}
	}
	for i := 1; i < len(f.Fields); i++ {
		a, b := f.Fields[i-1], f.Fields[i]
		if c := cmp.Or(cmp.Compare(a.Class, b.Class), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Type, b.Type)); c >= 0 {
			return fmt.Errorf("dex: write: field table out of order: fields[%d] must sort after fields[%d] (class, name, type; no duplicates)", i, i-1)
		}
	}
	for i := 1; i < len(f.Methods); i++ {
		a, b := f.Methods[i-1], f.Methods[i]
		if c := cmp.Or(cmp.Compare(a.Class, b.Class), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Proto, b.Proto)); c >= 0 {
			return fmt.Errorf("dex: write: method table out of order: methods[%d] must sort after methods[%d] (class, name, proto; no duplicates)", i, i-1)
		}
	}
	return nil
}

// classOrder returns the class_defs indices in an order where every class
// comes after its superclass and interfaces defined in the same file,
// keeping the given order where it is already valid.
func classOrder(f *File) ([]int, error) {
	byType := make(map[uint32]int, len(f.ClassDefs))
	for i, cd := range f.ClassDefs {
		if prev, dup := byType[cd.Class]; dup {
			return nil, fmt.Errorf("dex: write: class_defs[%d] and class_defs[%d] define the same class", prev, i)
		}
		byType[cd.Class] = i
	}
	state := make([]uint8, len(f.ClassDefs)) // 0 new, 1 visiting, 2 done
	order := make([]int, 0, len(f.ClassDefs))
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case 1:
			return fmt.Errorf("dex: write: class_defs[%d] is its own superclass or superinterface", i)
		case 2:
			return nil
		}
		state[i] = 1
		cd := &f.ClassDefs[i]
		for _, t := range append([]uint32{cd.Super}, cd.Interfaces...) {
			if j, ok := byType[t]; ok && t != NoIndex {
				if err := visit(j); err != nil {
					return err
				}
			}
		}
		state[i] = 2
		order = append(order, i)
		return nil
	}
	for i := range f.ClassDefs {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// utf16Units appends the UTF-16 code units of s, decoded as the model
// stores strings (unpaired surrogates in their 3-byte form).
func utf16Units(b []uint16, s string) []uint16 {
	for i := 0; i < len(s); {
		if s[i] < 0x80 {
			b = append(b, uint16(s[i]))
			i++
			continue
		}
		if isSurrogateBytes(s[i:]) {
			b = append(b, uint16(s[i]&0x0f)<<12|uint16(s[i+1]&0x3f)<<6|uint16(s[i+2]&0x3f))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			b = append(b, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
		} else {
			b = append(b, uint16(r))
		}
	}
	return b
}

// CompareUTF16 compares two strings by their UTF-16 code units, the order
// of a DEX string table. It differs from Go's byte order for supplementary
// characters (which sort below U+E000..U+FFFF) and agrees with it otherwise.
func CompareUTF16(a, b string) int {
	var ba, bb [64]uint16
	return slices.Compare(utf16Units(ba[:0], a), utf16Units(bb[:0], b))
}

type writer struct {
	f     *File
	order []int // class_defs order
	buf   []byte
	maps  []MapItem

	stringOff   []uint32
	typeLists   map[string]uint32
	arrays      map[string]uint32
	annItems    map[string]uint32
	annSets     map[string]uint32
	setOff      map[*AnnotationSet]uint32
	refLists    map[string]uint32
	paramOff    map[*ParamAnnotations]uint32
	dirOff      map[*AnnotationsDirectory]uint32
	debugOff    map[*DebugInfo]uint32
	codeOff     map[*Code]uint32
	classData   []uint32 // by class_defs index
	staticOff   []uint32 // by class_defs index
	callSiteOff []uint32
}

func (w *writer) align(n int) {
	for len(w.buf)%n != 0 {
		w.buf = append(w.buf, 0)
	}
}

func (w *writer) off() uint32 { return uint32(len(w.buf)) }

func (w *writer) u16(v uint16)  { w.buf = binary.LittleEndian.AppendUint16(w.buf, v) }
func (w *writer) u32(v uint32)  { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }
func (w *writer) uleb(v uint32) { w.buf = appendUleb(w.buf, v) }

func appendUleb(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendSleb(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// section records a map entry for the items written since start.
func (w *writer) section(typ uint16, start uint32, count int) {
	if count > 0 {
		w.maps = append(w.maps, MapItem{Type: typ, Size: uint32(count), Off: start})
	}
}

func (w *writer) write() ([]byte, error) {
	f := w.f
	n := func(k int) uint32 { return uint32(k) }
	var h Header
	h.StringIDsSize, h.TypeIDsSize, h.ProtoIDsSize = n(len(f.Strings)), n(len(f.Types)), n(len(f.Protos))
	h.FieldIDsSize, h.MethodIDsSize, h.ClassDefsSize = n(len(f.Fields)), n(len(f.Methods)), n(len(f.ClassDefs))
	pos := uint32(HeaderSize)
	place := func(size, entry uint32) uint32 {
		if size == 0 {
			return 0
		}
		o := pos
		pos += size * entry
		return o
	}
	h.StringIDsOff = place(h.StringIDsSize, 4)
	h.TypeIDsOff = place(h.TypeIDsSize, 4)
	h.ProtoIDsOff = place(h.ProtoIDsSize, 12)
	h.FieldIDsOff = place(h.FieldIDsSize, 8)
	h.MethodIDsOff = place(h.MethodIDsSize, 8)
	h.ClassDefsOff = place(h.ClassDefsSize, 32)
	callSitesOff := place(n(len(f.CallSites)), 4)
	handlesOff := place(n(len(f.MethodHandles)), 8)
	h.DataOff = pos
	w.buf = make([]byte, pos, pos*4+1024)

	w.maps = append(w.maps, MapItem{Type: TypeHeaderItem, Size: 1})
	w.section(TypeStringIDItem, h.StringIDsOff, len(f.Strings))
	w.section(TypeTypeIDItem, h.TypeIDsOff, len(f.Types))
	w.section(TypeProtoIDItem, h.ProtoIDsOff, len(f.Protos))
	w.section(TypeFieldIDItem, h.FieldIDsOff, len(f.Fields))
	w.section(TypeMethodIDItem, h.MethodIDsOff, len(f.Methods))
	w.section(TypeClassDefItem, h.ClassDefsOff, len(f.ClassDefs))
	w.section(TypeCallSiteIDItem, callSitesOff, len(f.CallSites))
	w.section(TypeMethodHandleItem, handlesOff, len(f.MethodHandles))

	w.strings()
	w.typeListSection()
	w.encodedArrays()
	w.annotationSections()
	w.debugInfos()
	w.codes()
	w.classDatas()

	// map_list, last.
	w.align(4)
	h.MapOff = w.off()
	w.maps = append(w.maps, MapItem{Type: TypeMapList, Size: 1, Off: h.MapOff})
	w.u32(uint32(len(w.maps)))
	for _, m := range w.maps {
		w.u16(m.Type)
		w.u16(0)
		w.u32(m.Size)
		w.u32(m.Off)
	}
	h.FileSize = w.off()
	h.DataSize = h.FileSize - h.DataOff

	// Id tables.
	b := w.buf
	le := binary.LittleEndian
	for i := range f.Strings {
		le.PutUint32(b[h.StringIDsOff+4*uint32(i):], w.stringOff[i])
	}
	for i, t := range f.Types {
		le.PutUint32(b[h.TypeIDsOff+4*uint32(i):], t)
	}
	for i, p := range f.Protos {
		o := h.ProtoIDsOff + 12*uint32(i)
		le.PutUint32(b[o:], p.Shorty)
		le.PutUint32(b[o+4:], p.Return)
		le.PutUint32(b[o+8:], w.typeListOff(p.Params))
	}
	for i, fr := range f.Fields {
		o := h.FieldIDsOff + 8*uint32(i)
		le.PutUint16(b[o:], u16idx(fr.Class, "field class"))
		le.PutUint16(b[o+2:], u16idx(fr.Type, "field type"))
		le.PutUint32(b[o+4:], fr.Name)
	}
	for i, m := range f.Methods {
		o := h.MethodIDsOff + 8*uint32(i)
		le.PutUint16(b[o:], u16idx(m.Class, "method class"))
		le.PutUint16(b[o+2:], u16idx(m.Proto, "method proto"))
		le.PutUint32(b[o+4:], m.Name)
	}
	for k, i := range w.order {
		cd := &f.ClassDefs[i]
		o := h.ClassDefsOff + 32*uint32(k)
		var ann uint32
		if cd.Annotations != nil {
			ann = w.dirOff[cd.Annotations]
		}
		for j, v := range []uint32{cd.Class, cd.Access, cd.Super, w.typeListOff(cd.Interfaces), cd.SourceFile, ann, w.classData[i], w.staticOff[i]} {
			le.PutUint32(b[o+4*uint32(j):], v)
		}
	}
	for i := range f.CallSites {
		le.PutUint32(b[callSitesOff+4*uint32(i):], w.callSiteOff[i])
	}
	for i, mh := range f.MethodHandles {
		o := handlesOff + 8*uint32(i)
		le.PutUint16(b[o:], mh.Kind)
		le.PutUint16(b[o+4:], u16idx(mh.Target, "method handle target"))
	}

	// Header.
	magic := f.Header.Magic
	if string(magic[:4]) != "dex\n" {
		v := f.Header.Version
		if v == 0 {
			v = 35
		}
		copy(magic[:], fmt.Sprintf("dex\n%03d\x00", v))
	}
	copy(b, magic[:])
	hdr := []uint32{h.FileSize, HeaderSize, EndianConstant, 0, 0, h.MapOff,
		h.StringIDsSize, h.StringIDsOff, h.TypeIDsSize, h.TypeIDsOff, h.ProtoIDsSize, h.ProtoIDsOff,
		h.FieldIDsSize, h.FieldIDsOff, h.MethodIDsSize, h.MethodIDsOff, h.ClassDefsSize, h.ClassDefsOff,
		h.DataSize, h.DataOff}
	for i, v := range hdr {
		le.PutUint32(b[32+4*i:], v)
	}
	sig := sha1.Sum(b[32:])
	copy(b[12:32], sig[:])
	le.PutUint32(b[8:], adler32.Checksum(b[12:]))
	return b, nil
}

// u16idx checks that an index fits the 16-bit field of an id item.
func u16idx(v uint32, what string) uint16 {
	if v > 0xffff {
		panic(fmt.Sprintf("%s index %d does not fit in 16 bits", what, v))
	}
	return uint16(v)
}

func (w *writer) strings() {
	start := w.off()
	w.stringOff = make([]uint32, len(w.f.Strings))
	for i, s := range w.f.Strings {
		w.stringOff[i] = w.off()
		w.uleb(uint32(UTF16Len(s)))
		w.buf = AppendMUTF8(w.buf, s)
		w.buf = append(w.buf, 0)
	}
	w.section(TypeStringDataItem, start, len(w.f.Strings))
}

func typeListKey(l []uint32) string {
	b := make([]byte, 0, 2*len(l))
	for _, t := range l {
		b = binary.LittleEndian.AppendUint16(b, u16idx(t, "type list entry"))
	}
	return string(b)
}

// typeListOff returns the offset of a written type list (0 if empty).
func (w *writer) typeListOff(l []uint32) uint32 {
	if len(l) == 0 {
		return 0
	}
	return w.typeLists[typeListKey(l)]
}

func (w *writer) typeListSection() {
	w.typeLists = map[string]uint32{}
	var start uint32
	add := func(l []uint32) {
		if len(l) == 0 {
			return
		}
		k := typeListKey(l)
		if _, ok := w.typeLists[k]; ok {
			return
		}
		w.align(4)
		if len(w.typeLists) == 0 {
			start = w.off()
		}
		w.typeLists[k] = w.off()
		w.u32(uint32(len(l)))
		w.buf = append(w.buf, k...)
	}
	for _, p := range w.f.Protos {
		add(p.Params)
	}
	for _, i := range w.order {
		add(w.f.ClassDefs[i].Interfaces)
	}
	w.section(TypeTypeList, start, len(w.typeLists))
}

// appendValue appends an encoded_value.
func appendValue(b []byte, v Value) []byte {
	header := func(size int) { b = append(b, byte(size-1)<<5|byte(v.Kind)) }
	bytesLE := func(bits uint64, size int) {
		for i := 0; i < size; i++ {
			b = append(b, byte(bits>>(8*i)))
		}
	}
	switch v.Kind {
	case ValueByte:
		header(1)
		bytesLE(v.Bits, 1)
	case ValueShort, ValueInt, ValueLong:
		size := 1
		for size < 8 {
			shift := 64 - 8*size
			if int64(v.Bits<<shift)>>shift == int64(v.Bits) {
				break
			}
			size++
		}
		header(size)
		bytesLE(v.Bits, size)
	case ValueChar, ValueMethodType, ValueMethodHandle, ValueString, ValueType, ValueField, ValueMethod, ValueEnum:
		size := 1
		for size < 8 && v.Bits>>(8*size) != 0 {
			size++
		}
		header(size)
		bytesLE(v.Bits, size)
	case ValueFloat, ValueDouble:
		size := 4
		bits := v.Bits & 0xffffffff
		if v.Kind == ValueDouble {
			size, bits = 8, v.Bits
		}
		for size > 1 && bits&0xff == 0 {
			bits >>= 8
			size--
		}
		header(size)
		bytesLE(bits, size)
	case ValueArray:
		b = append(b, byte(ValueArray))
		b = appendArray(b, v.Array)
	case ValueAnnotation:
		b = append(b, byte(ValueAnnotation))
		var a EncodedAnnotation
		if v.Annotation != nil {
			a = *v.Annotation
		}
		b = appendAnnotation(b, a)
	case ValueNull:
		b = append(b, byte(ValueNull))
	case ValueBoolean:
		b = append(b, byte(v.Bits&1)<<5|byte(ValueBoolean))
	default:
		panic(fmt.Sprintf("unknown encoded value kind %#x", uint8(v.Kind)))
	}
	return b
}

func appendArray(b []byte, vals []Value) []byte {
	b = appendUleb(b, uint32(len(vals)))
	for _, v := range vals {
		b = appendValue(b, v)
	}
	return b
}

func appendAnnotation(b []byte, a EncodedAnnotation) []byte {
	b = appendUleb(b, a.Type)
	b = appendUleb(b, uint32(len(a.Elements)))
	for _, e := range a.Elements {
		b = appendUleb(b, e.Name)
		b = appendValue(b, e.Value)
	}
	return b
}

func (w *writer) encodedArrays() {
	w.arrays = map[string]uint32{}
	start := w.off()
	add := func(vals []Value) uint32 {
		k := string(appendArray(nil, vals))
		if o, ok := w.arrays[k]; ok {
			return o
		}
		o := w.off()
		w.arrays[k] = o
		w.buf = append(w.buf, k...)
		return o
	}
	w.callSiteOff = make([]uint32, len(w.f.CallSites))
	for i, cs := range w.f.CallSites {
		w.callSiteOff[i] = add(cs.Values)
	}
	w.staticOff = make([]uint32, len(w.f.ClassDefs))
	for _, i := range w.order {
		if vals := w.f.ClassDefs[i].StaticValues; len(vals) > 0 {
			w.staticOff[i] = add(vals)
		}
	}
	w.section(TypeEncodedArrayItem, start, len(w.arrays))
}

// sortedItems returns a set's annotations sorted by type.
func sortedItems(s *AnnotationSet) []Annotation {
	items := slices.Clone(s.Items)
	slices.SortStableFunc(items, func(a, b Annotation) int { return cmp.Compare(a.Type, b.Type) })
	return items
}

func annotationKey(a Annotation) string {
	return string(appendAnnotation([]byte{a.Visibility}, a.EncodedAnnotation))
}

// eachSet calls fn for every annotation set of the directories, in class
// order.
func (w *writer) eachDir(fn func(d *AnnotationsDirectory)) {
	seen := map[*AnnotationsDirectory]bool{}
	for _, i := range w.order {
		if d := w.f.ClassDefs[i].Annotations; d != nil && !seen[d] {
			seen[d] = true
			fn(d)
		}
	}
}

func (w *writer) eachSet(fn func(s *AnnotationSet)) {
	w.eachDir(func(d *AnnotationsDirectory) {
		if d.Class != nil {
			fn(d.Class)
		}
		for _, fa := range d.Fields {
			if fa.Set != nil {
				fn(fa.Set)
			}
		}
		for _, ma := range d.Methods {
			if ma.Set != nil {
				fn(ma.Set)
			}
		}
		for _, pa := range d.Params {
			for _, s := range pa.Sets {
				if s != nil {
					fn(s)
				}
			}
		}
	})
}

func (w *writer) annotationSections() {
	// annotation_items
	w.annItems = map[string]uint32{}
	start := w.off()
	w.eachSet(func(s *AnnotationSet) {
		for _, a := range s.Items {
			k := annotationKey(a)
			if _, ok := w.annItems[k]; !ok {
				w.annItems[k] = w.off()
				w.buf = append(w.buf, k...)
			}
		}
	})
	w.section(TypeAnnotationItem, start, len(w.annItems))

	// annotation_set_items
	w.annSets = map[string]uint32{}
	w.setOff = map[*AnnotationSet]uint32{}
	w.align(4)
	start = w.off()
	w.eachSet(func(s *AnnotationSet) {
		if _, ok := w.setOff[s]; ok {
			return
		}
		items := sortedItems(s)
		k := make([]byte, 0, 4+4*len(items))
		k = binary.LittleEndian.AppendUint32(k, uint32(len(items)))
		for _, a := range items {
			k = binary.LittleEndian.AppendUint32(k, w.annItems[annotationKey(a)])
		}
		o, ok := w.annSets[string(k)]
		if !ok {
			o = w.off()
			w.annSets[string(k)] = o
			w.buf = append(w.buf, k...)
		}
		w.setOff[s] = o
	})
	w.section(TypeAnnotationSetItem, start, len(w.annSets))

	// annotation_set_ref_lists
	w.refLists = map[string]uint32{}
	w.paramOff = map[*ParamAnnotations]uint32{}
	start = w.off()
	w.eachDir(func(d *AnnotationsDirectory) {
		for i := range d.Params {
			pa := &d.Params[i]
			if pa.Sets == nil {
				continue
			}
			k := binary.LittleEndian.AppendUint32(nil, uint32(len(pa.Sets)))
			for _, s := range pa.Sets {
				var o uint32
				if s != nil {
					o = w.setOff[s]
				}
				k = binary.LittleEndian.AppendUint32(k, o)
			}
			o, ok := w.refLists[string(k)]
			if !ok {
				o = w.off()
				w.refLists[string(k)] = o
				w.buf = append(w.buf, k...)
			}
			w.paramOff[pa] = o
		}
	})
	w.section(TypeAnnotationSetRefList, start, len(w.refLists))

	// annotations_directory_items
	w.dirOff = map[*AnnotationsDirectory]uint32{}
	start = w.off()
	w.eachDir(func(d *AnnotationsDirectory) {
		w.dirOff[d] = w.off()
		set := func(s *AnnotationSet) uint32 {
			if s == nil {
				return 0
			}
			return w.setOff[s]
		}
		w.u32(set(d.Class))
		w.u32(uint32(len(d.Fields)))
		w.u32(uint32(len(d.Methods)))
		w.u32(uint32(len(d.Params)))
		for _, fa := range d.Fields {
			w.u32(fa.Field)
			w.u32(set(fa.Set))
		}
		for _, ma := range d.Methods {
			w.u32(ma.Method)
			w.u32(set(ma.Set))
		}
		for i := range d.Params {
			w.u32(d.Params[i].Method)
			w.u32(w.paramOff[&d.Params[i]])
		}
	})
	w.section(TypeAnnotationsDirectoryItem, start, len(w.dirOff))
}

// eachCode calls fn for every distinct code item, in class order.
func (w *writer) eachCode(fn func(c *Code)) {
	seen := map[*Code]bool{}
	for _, i := range w.order {
		d := w.f.ClassDefs[i].Data
		if d == nil {
			continue
		}
		for _, l := range [][]EncodedMethod{d.DirectMethods, d.VirtualMethods} {
			for _, m := range l {
				if m.Code != nil && !seen[m.Code] {
					seen[m.Code] = true
					fn(m.Code)
				}
			}
		}
	}
}

func (w *writer) debugInfos() {
	w.debugOff = map[*DebugInfo]uint32{}
	start := w.off()
	w.eachCode(func(c *Code) {
		d := c.Debug
		if d == nil {
			return
		}
		if _, ok := w.debugOff[d]; ok {
			return
		}
		w.debugOff[d] = w.off()
		w.uleb(d.LineStart)
		w.uleb(uint32(len(d.ParamNames)))
		for _, n := range d.ParamNames {
			w.uleb(n + 1)
		}
		for _, o := range d.Ops {
			w.buf = append(w.buf, o.Op)
			switch o.Op {
			case DbgAdvancePC:
				w.uleb(uint32(o.Value))
			case DbgAdvanceLine:
				w.buf = appendSleb(w.buf, o.Value)
			case DbgStartLocal, DbgStartLocalExtended:
				w.uleb(o.Reg)
				w.uleb(o.Name + 1)
				w.uleb(o.Type + 1)
				if o.Op == DbgStartLocalExtended {
					w.uleb(o.Sig + 1)
				}
			case DbgEndLocal, DbgRestartLocal:
				w.uleb(o.Reg)
			case DbgSetFile:
				w.uleb(o.Name + 1)
			case DbgEndSequence:
				panic("DBG_END_SEQUENCE inside debug info ops (it is implicit)")
			}
		}
		w.buf = append(w.buf, DbgEndSequence)
	})
	w.section(TypeDebugInfoItem, start, len(w.debugOff))
}

func (w *writer) codes() {
	w.codeOff = map[*Code]uint32{}
	w.align(4)
	start := w.off()
	w.eachCode(func(c *Code) {
		w.align(4)
		w.codeOff[c] = w.off()
		w.u16(c.Registers)
		w.u16(c.Ins)
		w.u16(c.Outs)
		if len(c.Tries) > 0xffff {
			panic(fmt.Sprintf("%d tries do not fit in tries_size", len(c.Tries)))
		}
		w.u16(uint16(len(c.Tries)))
		var dbg uint32
		if c.Debug != nil {
			dbg = w.debugOff[c.Debug]
		}
		w.u32(dbg)
		w.u32(uint32(len(c.Insns)))
		for _, u := range c.Insns {
			w.u16(u)
		}
		if len(c.Tries) == 0 {
			return
		}
		if len(c.Insns)%2 == 1 {
			w.u16(0)
		}
		// The handler list first, to know each handler's offset.
		list := appendUleb(nil, uint32(len(c.Handlers)))
		offs := make([]uint32, len(c.Handlers))
		for i, h := range c.Handlers {
			offs[i] = uint32(len(list))
			size := int32(len(h.Catches))
			if h.HasCatchAll {
				size = -size
			}
			list = appendSleb(list, size)
			for _, ct := range h.Catches {
				list = appendUleb(list, ct.Type)
				list = appendUleb(list, ct.Addr)
			}
			if h.HasCatchAll {
				list = appendUleb(list, h.CatchAll)
			}
		}
		for _, t := range c.Tries {
			w.u32(t.Start)
			w.u16(t.Count)
			if offs[t.Handler] > 0xffff {
				panic("catch handler list longer than 64 KiB")
			}
			w.u16(uint16(offs[t.Handler]))
		}
		w.buf = append(w.buf, list...)
	})
	w.section(TypeCodeItem, start, len(w.codeOff))
}

func (w *writer) classDatas() {
	w.classData = make([]uint32, len(w.f.ClassDefs))
	start := w.off()
	count := 0
	for _, i := range w.order {
		cd := &w.f.ClassDefs[i]
		d := cd.Data
		if d == nil {
			continue
		}
		count++
		w.classData[i] = w.off()
		w.uleb(uint32(len(d.StaticFields)))
		w.uleb(uint32(len(d.InstanceFields)))
		w.uleb(uint32(len(d.DirectMethods)))
		w.uleb(uint32(len(d.VirtualMethods)))
		for _, l := range [][]EncodedField{d.StaticFields, d.InstanceFields} {
			var prev uint32
			for k, fl := range l {
				if k > 0 && fl.Field <= prev {
					panic(fmt.Sprintf("class %s: field indices not increasing in class data", w.f.TypeName(cd.Class)))
				}
				w.uleb(fl.Field - prev)
				w.uleb(fl.Access)
				prev = fl.Field
			}
		}
		for _, l := range [][]EncodedMethod{d.DirectMethods, d.VirtualMethods} {
			var prev uint32
			for k, m := range l {
				if k > 0 && m.Method <= prev {
					panic(fmt.Sprintf("class %s: method indices not increasing in class data", w.f.TypeName(cd.Class)))
				}
				w.uleb(m.Method - prev)
				w.uleb(m.Access)
				var co uint32
				if m.Code != nil {
					co = w.codeOff[m.Code]
				}
				w.uleb(co)
				prev = m.Method
			}
		}
	}
	w.section(TypeClassDataItem, start, count)
}
