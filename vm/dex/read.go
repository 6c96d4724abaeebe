package dex

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"hash/adler32"
	"os"
)

// Options change how Read treats a file.
type Options struct {
	// SkipChecksum skips checking the header's Adler-32 checksum (like
	// dexdump -i). Everything else is still validated.
	SkipChecksum bool
	// SkipSignature skips checking the header's SHA-1 signature. ART and
	// dexdump never check it, and at least one ART test file
	// (test/dexdump/invoke-custom.dex) carries a stale one, so tools that
	// must accept what ART accepts set this.
	SkipSignature bool
}

// Read decodes a DEX file, verifying its checksum and signature.
func Read(data []byte) (*File, error) { return ReadWithOptions(data, Options{}) }

// ReadFile reads and decodes the DEX file at path.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// ReadWithOptions decodes a DEX file. The returned File does not refer to
// data.
func ReadWithOptions(data []byte, opt Options) (*File, error) {
	r := &reader{data: data, f: &File{}}
	steps := []func() error{
		func() error { return r.header(opt) },
		r.makeCaches,
		r.mapList,
		r.stringIDs,
		r.typeIDs,
		r.protoIDs,
		r.fieldIDs,
		r.methodIDs,
		r.methodHandles,
		r.callSites,
		r.classDefs,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return r.f, nil
}

type reader struct {
	data []byte
	f    *File

	// Items already decoded, by file offset: the format lets several
	// references share one item, and decoding each reference anew would let
	// a small file expand without bound.
	strCache      map[uint32]string
	typeListCache map[uint32][]uint32
	codeCache     map[uint32]*Code
	debugCache    map[uint32]*DebugInfo

	debugOps       []DebugOp // scratch for decoding debug info
	classDataCache map[uint32]*ClassData
	annDirCache    map[uint32]*AnnotationsDirectory
	annSetCache    map[uint32]*AnnotationSet
	annItemCache   map[uint32]Annotation
	arrayCache     map[uint32][]Value
}

// makeCaches sizes the caches by the header's counts (bounded by the file
// size, which the header check has verified).
func (r *reader) makeCaches() error {
	h := &r.f.Header
	r.strCache = make(map[uint32]string, h.StringIDsSize)
	r.typeListCache = map[uint32][]uint32{}
	r.codeCache = make(map[uint32]*Code, h.MethodIDsSize)
	r.debugCache = make(map[uint32]*DebugInfo, h.MethodIDsSize)
	r.classDataCache = make(map[uint32]*ClassData, h.ClassDefsSize)
	r.annDirCache = map[uint32]*AnnotationsDirectory{}
	r.annSetCache = map[uint32]*AnnotationSet{}
	r.annItemCache = map[uint32]Annotation{}
	r.arrayCache = map[uint32][]Value{}
	return nil
}

// at returns a cursor at off for reading item; off must lie inside the file.
func (r *reader) at(off uint32, item, what string) *cursor {
	c := &cursor{data: r.data, pos: int(off), item: item}
	if int64(off) >= int64(len(r.data)) {
		c.pos = 0
		c.err = &FormatError{Item: item, Offset: int64(off), Problem: fmt.Sprintf("%s %#x beyond file size %#x", what, off, len(r.data))}
	}
	return c
}

// table checks that size entries of entrySize bytes at off fit in the file.
func (r *reader) table(name string, size, off uint32, entrySize int) error {
	if size == 0 {
		return nil
	}
	end := int64(off) + int64(size)*int64(entrySize)
	if int64(off) < HeaderSize || end > int64(len(r.data)) {
		return errorf(name, int64(off), "%d entries of %d bytes at %#x do not fit in the file (size %#x)", size, entrySize, off, len(r.data))
	}
	return nil
}

func (r *reader) header(opt Options) error {
	if len(r.data) < HeaderSize {
		return errorf("header", 0, "file is %d bytes, shorter than the %d-byte header", len(r.data), HeaderSize)
	}
	h := &r.f.Header
	copy(h.Magic[:], r.data)
	if !bytes.Equal(h.Magic[:4], []byte("dex\n")) || h.Magic[7] != 0 ||
		h.Magic[4] < '0' || h.Magic[4] > '9' || h.Magic[5] < '0' || h.Magic[5] > '9' || h.Magic[6] < '0' || h.Magic[6] > '9' {
		return errorf("header", 0, "bad magic %q, want \"dex\\n0NN\\x00\"", h.Magic[:])
	}
	h.Version = int(h.Magic[4]-'0')*100 + int(h.Magic[5]-'0')*10 + int(h.Magic[6]-'0')
	if h.Version < 35 || h.Version > 40 {
		return errorf("header", 4, "unsupported DEX version %03d (supported: 035 to 040)", h.Version)
	}
	c := &cursor{data: r.data, pos: 8, item: "header"}
	h.Checksum = c.u32("checksum")
	copy(h.Signature[:], r.data[12:32])
	c.pos = 32
	h.FileSize = c.u32("file_size")
	h.HeaderSize = c.u32("header_size")
	h.EndianTag = c.u32("endian_tag")
	h.LinkSize, h.LinkOff = c.u32("link_size"), c.u32("link_off")
	h.MapOff = c.u32("map_off")
	h.StringIDsSize, h.StringIDsOff = c.u32("string_ids_size"), c.u32("string_ids_off")
	h.TypeIDsSize, h.TypeIDsOff = c.u32("type_ids_size"), c.u32("type_ids_off")
	h.ProtoIDsSize, h.ProtoIDsOff = c.u32("proto_ids_size"), c.u32("proto_ids_off")
	h.FieldIDsSize, h.FieldIDsOff = c.u32("field_ids_size"), c.u32("field_ids_off")
	h.MethodIDsSize, h.MethodIDsOff = c.u32("method_ids_size"), c.u32("method_ids_off")
	h.ClassDefsSize, h.ClassDefsOff = c.u32("class_defs_size"), c.u32("class_defs_off")
	h.DataSize, h.DataOff = c.u32("data_size"), c.u32("data_off")
	if c.err != nil {
		return c.err
	}
	if int64(h.FileSize) != int64(len(r.data)) {
		return errorf("header", 32, "file_size %#x does not match the data size %#x", h.FileSize, len(r.data))
	}
	if !opt.SkipChecksum {
		if sum := adler32.Checksum(r.data[12:]); sum != h.Checksum {
			return errorf("header", 8, "checksum mismatch: header has %08x, Adler-32 of the file is %08x", h.Checksum, sum)
		}
	}
	if !opt.SkipSignature {
		if sig := sha1.Sum(r.data[32:]); sig != h.Signature {
			return errorf("header", 12, "signature mismatch: header has %x, SHA-1 of the file is %x", h.Signature, sig)
		}
	}
	if h.HeaderSize != HeaderSize {
		return errorf("header", 36, "header_size %#x, want %#x", h.HeaderSize, HeaderSize)
	}
	if h.EndianTag != EndianConstant {
		return errorf("header", 40, "endian_tag %#x, want %#x (big-endian files are not supported)", h.EndianTag, EndianConstant)
	}
	if h.TypeIDsSize > 65536 {
		return errorf("header", 64, "type_ids_size %d exceeds 65536", h.TypeIDsSize)
	}
	if h.ProtoIDsSize > 65536 {
		return errorf("header", 72, "proto_ids_size %d exceeds 65536", h.ProtoIDsSize)
	}
	for _, t := range []struct {
		name      string
		size, off uint32
		entry     int
	}{
		{"string_ids", h.StringIDsSize, h.StringIDsOff, 4},
		{"type_ids", h.TypeIDsSize, h.TypeIDsOff, 4},
		{"proto_ids", h.ProtoIDsSize, h.ProtoIDsOff, 12},
		{"field_ids", h.FieldIDsSize, h.FieldIDsOff, 8},
		{"method_ids", h.MethodIDsSize, h.MethodIDsOff, 8},
		{"class_defs", h.ClassDefsSize, h.ClassDefsOff, 32},
	} {
		if err := r.table(t.name, t.size, t.off, t.entry); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) mapList() error {
	off := r.f.Header.MapOff
	if off == 0 {
		return nil
	}
	c := r.at(off, "map_list", "map_off")
	n := c.u32("size")
	if !c.has(int(min(n, 1<<28)) * 12) {
		c.failf("%d map items run past the end of the file (size %#x)", n, len(r.data))
		return c.err
	}
	r.f.MapList = make([]MapItem, n)
	for i := range r.f.MapList {
		it := &r.f.MapList[i]
		it.Type = c.u16("type")
		c.u16("unused")
		it.Size = c.u32("size")
		it.Off = c.u32("offset")
		if c.err == nil && int64(it.Off) > int64(len(r.data)) {
			return errorf(fmt.Sprintf("map_list[%d]", i), int64(c.pos-4), "offset %#x beyond file size %#x", it.Off, len(r.data))
		}
	}
	return c.err
}

// mapItem finds the map entry of a type.
func (r *reader) mapItem(typ uint16) (MapItem, bool) {
	for _, it := range r.f.MapList {
		if it.Type == typ {
			return it, true
		}
	}
	return MapItem{}, false
}

func (r *reader) stringIDs() error {
	h := &r.f.Header
	r.f.Strings = make([]string, h.StringIDsSize)
	c := &cursor{data: r.data, pos: int(h.StringIDsOff)}
	for i := range r.f.Strings {
		idOff := c.pos
		off := c.u32("string_data_off")
		if s, ok := r.strCache[off]; ok {
			r.f.Strings[i] = s
			continue
		}
		if int64(off) >= int64(len(r.data)) {
			return errorf(fmt.Sprintf("string_ids[%d]", i), int64(idOff), "string_data_off %#x beyond file size %#x", off, len(r.data))
		}
		sc := &cursor{data: r.data, pos: int(off)}
		units := sc.uleb("utf16_size")
		if sc.err != nil {
			return withItem(sc.err, fmt.Sprintf("string_ids[%d] string_data_item", i))
		}
		s, _, err := decodeMUTF8(r.data[sc.pos:], units)
		if err != nil {
			return errorf(fmt.Sprintf("string_ids[%d] string_data_item", i), int64(off), "%v", err)
		}
		r.strCache[off] = s
		r.f.Strings[i] = s
	}
	return c.err
}

func (r *reader) checkString(idx uint32, item, what string, off int, noIndexOK bool) error {
	if idx < uint32(len(r.f.Strings)) || idx == NoIndex && noIndexOK {
		return nil
	}
	return errorf(item, int64(off), "%s %d out of range (%d strings)", what, idx, len(r.f.Strings))
}

func (r *reader) checkType(idx uint32, item, what string, off int, noIndexOK bool) error {
	if idx < uint32(len(r.f.Types)) || idx == NoIndex && noIndexOK {
		return nil
	}
	return errorf(item, int64(off), "%s %d out of range (%d types)", what, idx, len(r.f.Types))
}

func (r *reader) typeIDs() error {
	h := &r.f.Header
	r.f.Types = make([]uint32, h.TypeIDsSize)
	c := &cursor{data: r.data, pos: int(h.TypeIDsOff)}
	for i := range r.f.Types {
		pos := c.pos
		r.f.Types[i] = c.u32("descriptor_idx")
		if err := r.checkString(r.f.Types[i], "", "descriptor_idx", pos, false); err != nil {
			return withItem(err, fmt.Sprintf("type_ids[%d]", i))
		}
	}
	return c.err
}

// typeList reads a type_list at off (0 means none). Its errors name the item
// " type_list", to be prefixed by the caller's name.
func (r *reader) typeList(off uint32) ([]uint32, error) {
	if off == 0 {
		return nil, nil
	}
	if l, ok := r.typeListCache[off]; ok {
		return l, nil
	}
	const item = " type_list"
	c := r.at(off, item, "offset")
	n := c.u32("size")
	if c.err == nil && !c.has(int(min(n, 1<<29))*2) {
		c.failf("%d type entries run past the end of the file (size %#x)", n, len(r.data))
	}
	if c.err != nil {
		return nil, c.err
	}
	l := make([]uint32, n)
	for i := range l {
		pos := c.pos
		l[i] = uint32(c.u16("type_idx"))
		if l[i] >= uint32(len(r.f.Types)) {
			return nil, errorf(item, int64(pos), "entry %d: type_idx %d out of range (%d types)", i, l[i], len(r.f.Types))
		}
	}
	r.typeListCache[off] = l
	return l, nil
}

func (r *reader) protoIDs() error {
	h := &r.f.Header
	r.f.Protos = make([]Proto, h.ProtoIDsSize)
	c := &cursor{data: r.data, pos: int(h.ProtoIDsOff)}
	for i := range r.f.Protos {
		p := &r.f.Protos[i]
		pos := c.pos
		p.Shorty = c.u32("shorty_idx")
		p.Return = c.u32("return_type_idx")
		p.ParamsOff = c.u32("parameters_off")
		if err := r.checkString(p.Shorty, "", "shorty_idx", pos, false); err != nil {
			return withItem(err, fmt.Sprintf("proto_ids[%d]", i))
		}
		if err := r.checkType(p.Return, "", "return_type_idx", pos+4, false); err != nil {
			return withItem(err, fmt.Sprintf("proto_ids[%d]", i))
		}
		params, err := r.typeList(p.ParamsOff)
		if err != nil {
			return withItem(err, fmt.Sprintf("proto_ids[%d]", i))
		}
		p.Params = params
	}
	return c.err
}

func (r *reader) fieldIDs() error {
	h := &r.f.Header
	r.f.Fields = make([]FieldRef, h.FieldIDsSize)
	c := &cursor{data: r.data, pos: int(h.FieldIDsOff)}
	for i := range r.f.Fields {
		fr := &r.f.Fields[i]
		pos := c.pos
		fr.Class = uint32(c.u16("class_idx"))
		fr.Type = uint32(c.u16("type_idx"))
		fr.Name = c.u32("name_idx")
		err := r.checkType(fr.Class, "", "class_idx", pos, false)
		if err == nil {
			err = r.checkType(fr.Type, "", "type_idx", pos+2, false)
		}
		if err == nil {
			err = r.checkString(fr.Name, "", "name_idx", pos+4, false)
		}
		if err != nil {
			return withItem(err, fmt.Sprintf("field_ids[%d]", i))
		}
	}
	return c.err
}

func (r *reader) methodIDs() error {
	h := &r.f.Header
	r.f.Methods = make([]MethodRef, h.MethodIDsSize)
	c := &cursor{data: r.data, pos: int(h.MethodIDsOff)}
	for i := range r.f.Methods {
		m := &r.f.Methods[i]
		pos := c.pos
		m.Class = uint32(c.u16("class_idx"))
		m.Proto = uint32(c.u16("proto_idx"))
		m.Name = c.u32("name_idx")
		err := r.checkType(m.Class, "", "class_idx", pos, false)
		if err == nil && m.Proto >= uint32(len(r.f.Protos)) {
			err = errorf("", int64(pos+2), "proto_idx %d out of range (%d protos)", m.Proto, len(r.f.Protos))
		}
		if err == nil {
			err = r.checkString(m.Name, "", "name_idx", pos+4, false)
		}
		if err != nil {
			return withItem(err, fmt.Sprintf("method_ids[%d]", i))
		}
	}
	return c.err
}

func (r *reader) methodHandles() error {
	it, ok := r.mapItem(TypeMethodHandleItem)
	if !ok || it.Size == 0 {
		return nil
	}
	if err := r.table("method_handles", it.Size, it.Off, 8); err != nil {
		return err
	}
	r.f.MethodHandles = make([]MethodHandle, it.Size)
	c := &cursor{data: r.data, pos: int(it.Off)}
	for i := range r.f.MethodHandles {
		item := fmt.Sprintf("method_handles[%d]", i)
		h := &r.f.MethodHandles[i]
		pos := c.pos
		h.Kind = c.u16("method_handle_type")
		c.u16("unused")
		h.Target = uint32(c.u16("field_or_method_id"))
		c.u16("unused")
		switch {
		case h.Kind > HandleInvokeInterface:
			return errorf(item, int64(pos), "unknown method_handle_type %#x", h.Kind)
		case h.IsField() && h.Target >= uint32(len(r.f.Fields)):
			return errorf(item, int64(pos+4), "field index %d out of range (%d fields)", h.Target, len(r.f.Fields))
		case !h.IsField() && h.Target >= uint32(len(r.f.Methods)):
			return errorf(item, int64(pos+4), "method index %d out of range (%d methods)", h.Target, len(r.f.Methods))
		}
	}
	return c.err
}

func (r *reader) callSites() error {
	it, ok := r.mapItem(TypeCallSiteIDItem)
	if !ok || it.Size == 0 {
		return nil
	}
	if err := r.table("call_site_ids", it.Size, it.Off, 4); err != nil {
		return err
	}
	r.f.CallSites = make([]CallSite, it.Size)
	c := &cursor{data: r.data, pos: int(it.Off)}
	for i := range r.f.CallSites {
		item := fmt.Sprintf("call_site_ids[%d]", i)
		cs := &r.f.CallSites[i]
		cs.Off = c.u32("call_site_off")
		vals, err := r.encodedArrayItem(cs.Off, item)
		if err != nil {
			return err
		}
		cs.Values = vals
	}
	return c.err
}

func (r *reader) classDefs() error {
	h := &r.f.Header
	r.f.ClassDefs = make([]ClassDef, h.ClassDefsSize)
	c := &cursor{data: r.data, pos: int(h.ClassDefsOff)}
	defined := make(map[uint32]int, h.ClassDefsSize)
	for i := range r.f.ClassDefs {
		item := fmt.Sprintf("class_defs[%d]", i)
		cd := &r.f.ClassDefs[i]
		pos := c.pos
		cd.Class = c.u32("class_idx")
		cd.Access = c.u32("access_flags")
		cd.Super = c.u32("superclass_idx")
		cd.InterfacesOff = c.u32("interfaces_off")
		cd.SourceFile = c.u32("source_file_idx")
		cd.AnnotationsOff = c.u32("annotations_off")
		cd.ClassDataOff = c.u32("class_data_off")
		cd.StaticValuesOff = c.u32("static_values_off")
		if c.err != nil {
			return c.err
		}
		if err := r.checkType(cd.Class, item, "class_idx", pos, false); err != nil {
			return err
		}
		item = fmt.Sprintf("class_defs[%d] (%s)", i, r.f.TypeName(cd.Class))
		if prev, dup := defined[cd.Class]; dup {
			return errorf(item, int64(pos), "class already defined by class_defs[%d]", prev)
		}
		defined[cd.Class] = i
		if err := r.checkType(cd.Super, item, "superclass_idx", pos+8, true); err != nil {
			return err
		}
		if err := r.checkString(cd.SourceFile, item, "source_file_idx", pos+16, true); err != nil {
			return err
		}
		var err error
		if cd.Interfaces, err = r.typeList(cd.InterfacesOff); err != nil {
			return withItem(err, item+" interfaces")
		}
		if cd.AnnotationsOff != 0 {
			if cd.Annotations, err = r.annotationsDirectory(cd.AnnotationsOff, item); err != nil {
				return err
			}
		}
		if cd.ClassDataOff != 0 {
			if cd.Data, err = r.classData(cd.ClassDataOff, cd.Class, item); err != nil {
				return err
			}
		}
		if cd.StaticValuesOff != 0 {
			if cd.StaticValues, err = r.encodedArrayItem(cd.StaticValuesOff, item+" static_values"); err != nil {
				return err
			}
		}
	}
	return nil
}

// classData reads the class_data_item of the class with type index class.
// As ART's verifier requires, every member must belong to that class, so no
// two class definitions can share one class_data_item.
func (r *reader) classData(off, class uint32, item string) (*ClassData, error) {
	if _, ok := r.classDataCache[off]; ok {
		return nil, errorf(item, int64(off), "class_data_item at %#x is already used by another class", off)
	}
	item += " class_data_item"
	c := r.at(off, item, "class_data_off")
	var sizes [4]uint32
	for i, what := range []string{"static_fields_size", "instance_fields_size", "direct_methods_size", "virtual_methods_size"} {
		sizes[i] = c.uleb(what)
	}
	if c.err != nil {
		return nil, c.err
	}
	// Each field takes at least 2 bytes, each method at least 3.
	if need := 2*int64(sizes[0]) + 2*int64(sizes[1]) + 3*int64(sizes[2]) + 3*int64(sizes[3]); need > int64(len(r.data)-c.pos) {
		return nil, errorf(item, int64(off), "%d+%d fields and %d+%d methods cannot fit in the %d bytes left", sizes[0], sizes[1], sizes[2], sizes[3], len(r.data)-c.pos)
	}
	cd := &ClassData{}
	fields := func(n uint32, kind string) ([]EncodedField, error) {
		if n == 0 {
			return nil, nil
		}
		l := make([]EncodedField, n)
		var idx uint32
		for i := range l {
			pos := c.pos
			d := c.uleb("field_idx_diff")
			l[i].Access = c.uleb("access_flags")
			if c.err != nil {
				return nil, c.err
			}
			if uint64(idx)+uint64(d) >= uint64(len(r.f.Fields)) {
				return nil, errorf(item, int64(pos), "%s field %d: field index %d out of range (%d fields)", kind, i, uint64(idx)+uint64(d), len(r.f.Fields))
			}
			idx += d
			l[i].Field = idx
			if fc := r.f.Fields[idx].Class; fc != class {
				return nil, errorf(item, int64(pos), "%s field %d (%s) belongs to another class", kind, i, r.f.FieldName(idx))
			}
		}
		return l, nil
	}
	methods := func(n uint32, kind string) ([]EncodedMethod, error) {
		if n == 0 {
			return nil, nil
		}
		l := make([]EncodedMethod, n)
		var idx uint32
		for i := range l {
			pos := c.pos
			d := c.uleb("method_idx_diff")
			l[i].Access = c.uleb("access_flags")
			codeOff := c.uleb("code_off")
			if c.err != nil {
				return nil, c.err
			}
			if uint64(idx)+uint64(d) >= uint64(len(r.f.Methods)) {
				return nil, errorf(item, int64(pos), "%s method %d: method index %d out of range (%d methods)", kind, i, uint64(idx)+uint64(d), len(r.f.Methods))
			}
			idx += d
			l[i].Method = idx
			if mc := r.f.Methods[idx].Class; mc != class {
				return nil, errorf(item, int64(pos), "%s method %d (%s) belongs to another class", kind, i, r.f.MethodName(idx))
			}
			if codeOff != 0 {
				code, err := r.code(codeOff)
				if err != nil {
					return nil, withItem(err, "code_item of "+r.f.MethodName(idx))
				}
				l[i].Code = code
			}
		}
		return l, nil
	}
	var err error
	if cd.StaticFields, err = fields(sizes[0], "static"); err != nil {
		return nil, err
	}
	if cd.InstanceFields, err = fields(sizes[1], "instance"); err != nil {
		return nil, err
	}
	if cd.DirectMethods, err = methods(sizes[2], "direct"); err != nil {
		return nil, err
	}
	if cd.VirtualMethods, err = methods(sizes[3], "virtual"); err != nil {
		return nil, err
	}
	r.classDataCache[off] = cd
	return cd, nil
}
