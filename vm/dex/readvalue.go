package dex

import "fmt"

// maxValueDepth bounds the nesting of arrays and annotations in encoded
// values, so hostile input cannot exhaust the stack.
const maxValueDepth = 64

// encodedArrayItem reads an encoded_array_item at off.
func (r *reader) encodedArrayItem(off uint32, item string) ([]Value, error) {
	if v, ok := r.arrayCache[off]; ok {
		return v, nil
	}
	c := r.at(off, item+" encoded_array_item", "offset")
	vals, err := r.encodedArray(c, 0)
	if err != nil {
		return nil, err
	}
	r.arrayCache[off] = vals
	return vals, nil
}

func (r *reader) encodedArray(c *cursor, depth int) ([]Value, error) {
	pos := c.pos
	n := c.uleb("encoded_array size")
	if c.err != nil {
		return nil, c.err
	}
	if int64(n) > int64(len(r.data)-c.pos) {
		return nil, errorf(c.item, int64(pos), "encoded_array of %d values cannot fit in the %d bytes left", n, len(r.data)-c.pos)
	}
	if n == 0 {
		return nil, nil
	}
	vals := make([]Value, n)
	for i := range vals {
		v, err := r.value(c, depth)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

func (r *reader) encodedAnnotation(c *cursor, depth int) (EncodedAnnotation, error) {
	var a EncodedAnnotation
	pos := c.pos
	a.Type = c.uleb("encoded_annotation type_idx")
	n := c.uleb("encoded_annotation size")
	if c.err != nil {
		return a, c.err
	}
	if err := r.checkType(a.Type, c.item, "annotation type_idx", pos, false); err != nil {
		return a, err
	}
	if int64(n)*2 > int64(len(r.data)-c.pos) {
		return a, errorf(c.item, int64(pos), "annotation with %d elements cannot fit in the %d bytes left", n, len(r.data)-c.pos)
	}
	if n > 0 {
		a.Elements = make([]AnnotationElement, n)
	}
	for i := range a.Elements {
		pos := c.pos
		a.Elements[i].Name = c.uleb("annotation_element name_idx")
		if c.err != nil {
			return a, c.err
		}
		if err := r.checkString(a.Elements[i].Name, c.item, "annotation element name_idx", pos, false); err != nil {
			return a, err
		}
		v, err := r.value(c, depth)
		if err != nil {
			return a, err
		}
		a.Elements[i].Value = v
	}
	return a, nil
}

// maxArg is the largest value_arg each kind allows (byte count - 1), or -1
// for kinds whose arg must be 0 and that carry no bytes.
var maxArg = map[ValueKind]int{
	ValueByte: 0, ValueShort: 1, ValueChar: 1, ValueInt: 3, ValueLong: 7, ValueFloat: 3, ValueDouble: 7,
	ValueMethodType: 3, ValueMethodHandle: 3, ValueString: 3, ValueType: 3, ValueField: 3, ValueMethod: 3,
	ValueEnum: 3, ValueArray: -1, ValueAnnotation: -1, ValueNull: -1, ValueBoolean: 1,
}

// value reads one encoded_value.
func (r *reader) value(c *cursor, depth int) (Value, error) {
	pos := c.pos
	hdr := c.u8("encoded_value header")
	if c.err != nil {
		return Value{}, c.err
	}
	kind, arg := ValueKind(hdr&0x1f), int(hdr>>5)
	limit, ok := maxArg[kind]
	if !ok {
		return Value{}, errorf(c.item, int64(pos), "unknown encoded_value type %#02x", uint8(kind))
	}
	if arg > max(limit, 0) {
		return Value{}, errorf(c.item, int64(pos), "encoded_value of type %s has value_arg %d, at most %d allowed", kind, arg, max(limit, 0))
	}
	v := Value{Kind: kind}
	switch kind {
	case ValueArray, ValueAnnotation:
		if depth >= maxValueDepth {
			return v, errorf(c.item, int64(pos), "encoded values nested deeper than %d", maxValueDepth)
		}
		var err error
		if kind == ValueArray {
			v.Array, err = r.encodedArray(c, depth+1)
		} else {
			var a EncodedAnnotation
			a, err = r.encodedAnnotation(c, depth+1)
			v.Annotation = &a
		}
		return v, err
	case ValueNull:
		return v, nil
	case ValueBoolean:
		v.Bits = uint64(arg)
		return v, nil
	}
	size := arg + 1
	if !c.need(size, "encoded_value of type "+kind.String()) {
		return v, c.err
	}
	var bits uint64
	for i := 0; i < size; i++ {
		bits |= uint64(r.data[c.pos+i]) << (8 * i)
	}
	c.pos += size
	switch kind {
	case ValueByte, ValueShort, ValueInt, ValueLong: // sign-extend
		shift := 64 - 8*size
		bits = uint64(int64(bits<<shift) >> shift)
	case ValueFloat: // zero-extend to the right
		bits <<= 8 * (4 - size)
	case ValueDouble:
		bits <<= 8 * (8 - size)
	}
	v.Bits = bits
	idx := uint32(bits)
	var n int
	var what string
	switch kind {
	case ValueMethodType:
		n, what = len(r.f.Protos), "protos"
	case ValueMethodHandle:
		n, what = len(r.f.MethodHandles), "method handles"
	case ValueString:
		n, what = len(r.f.Strings), "strings"
	case ValueType:
		n, what = len(r.f.Types), "types"
	case ValueField, ValueEnum:
		n, what = len(r.f.Fields), "fields"
	case ValueMethod:
		n, what = len(r.f.Methods), "methods"
	default:
		return v, nil
	}
	if uint64(idx) >= uint64(n) {
		return v, errorf(c.item, int64(pos), "encoded_value of type %s: index %d out of range (%d %s)", kind, idx, n, what)
	}
	return v, nil
}

func (r *reader) annotationsDirectory(off uint32, item string) (*AnnotationsDirectory, error) {
	if d, ok := r.annDirCache[off]; ok {
		return d, nil
	}
	item += " annotations_directory_item"
	c := r.at(off, item, "annotations_off")
	classOff := c.u32("class_annotations_off")
	nf := c.u32("fields_size")
	nm := c.u32("annotated_methods_size")
	np := c.u32("annotated_parameters_size")
	if c.err != nil {
		return nil, c.err
	}
	if total := (int64(nf) + int64(nm) + int64(np)) * 8; total > int64(len(r.data)-c.pos) {
		return nil, errorf(item, int64(off), "%d field, %d method and %d parameter entries cannot fit in the %d bytes left", nf, nm, np, len(r.data)-c.pos)
	}
	d := &AnnotationsDirectory{}
	var err error
	if classOff != 0 {
		if d.Class, err = r.annotationSet(classOff, item+" class annotations"); err != nil {
			return nil, err
		}
	}
	if nf > 0 {
		d.Fields = make([]FieldAnnotations, nf)
	}
	for i := range d.Fields {
		pos := c.pos
		d.Fields[i].Field = c.u32("field_idx")
		setOff := c.u32("annotations_off")
		if d.Fields[i].Field >= uint32(len(r.f.Fields)) {
			return nil, errorf(item, int64(pos), "field annotation %d: field index %d out of range (%d fields)", i, d.Fields[i].Field, len(r.f.Fields))
		}
		if setOff != 0 {
			if d.Fields[i].Set, err = r.annotationSet(setOff, ""); err != nil {
				return nil, withItem(err, fmt.Sprintf("%s field annotation %d", item, i))
			}
		}
	}
	if nm > 0 {
		d.Methods = make([]MethodAnnotations, nm)
	}
	for i := range d.Methods {
		pos := c.pos
		d.Methods[i].Method = c.u32("method_idx")
		setOff := c.u32("annotations_off")
		if d.Methods[i].Method >= uint32(len(r.f.Methods)) {
			return nil, errorf(item, int64(pos), "method annotation %d: method index %d out of range (%d methods)", i, d.Methods[i].Method, len(r.f.Methods))
		}
		if setOff != 0 {
			if d.Methods[i].Set, err = r.annotationSet(setOff, ""); err != nil {
				return nil, withItem(err, fmt.Sprintf("%s method annotation %d", item, i))
			}
		}
	}
	if np > 0 {
		d.Params = make([]ParamAnnotations, np)
	}
	for i := range d.Params {
		pos := c.pos
		p := &d.Params[i]
		p.Method = c.u32("method_idx")
		p.Off = c.u32("annotations_off")
		if p.Method >= uint32(len(r.f.Methods)) {
			return nil, errorf(item, int64(pos), "parameter annotation %d: method index %d out of range (%d methods)", i, p.Method, len(r.f.Methods))
		}
		if p.Off != 0 {
			if p.Sets, err = r.annotationSetRefList(p.Off, ""); err != nil {
				return nil, withItem(err, fmt.Sprintf("%s parameter annotation %d", item, i))
			}
		}
	}
	r.annDirCache[off] = d
	return d, nil
}

func (r *reader) annotationSetRefList(off uint32, item string) ([]*AnnotationSet, error) {
	item += " annotation_set_ref_list"
	c := r.at(off, item, "offset")
	n := c.u32("size")
	if c.err == nil && !c.has(int(min(n, 1<<28))*4) {
		c.failf("%d annotation set references run past the end of the file (size %#x)", n, len(r.data))
	}
	if c.err != nil {
		return nil, c.err
	}
	sets := make([]*AnnotationSet, n)
	for i := range sets {
		setOff := c.u32("annotations_off")
		if setOff != 0 {
			s, err := r.annotationSet(setOff, "")
			if err != nil {
				return nil, withItem(err, fmt.Sprintf("%s[%d]", item, i))
			}
			sets[i] = s
		}
	}
	return sets, nil
}

func (r *reader) annotationSet(off uint32, item string) (*AnnotationSet, error) {
	if s, ok := r.annSetCache[off]; ok {
		return s, nil
	}
	item += " annotation_set_item"
	c := r.at(off, item, "offset")
	n := c.u32("size")
	if c.err == nil && !c.has(int(min(n, 1<<28))*4) {
		c.failf("%d annotation offsets run past the end of the file (size %#x)", n, len(r.data))
	}
	if c.err != nil {
		return nil, c.err
	}
	s := &AnnotationSet{Off: off}
	if n > 0 {
		s.Items = make([]Annotation, n)
	}
	for i := range s.Items {
		pos := c.pos
		aOff := c.u32("annotation_off")
		if a, ok := r.annItemCache[aOff]; ok {
			s.Items[i] = a
			continue
		}
		if int64(aOff) >= int64(len(r.data)) {
			return nil, errorf(item, int64(pos), "entry %d: annotation_off %#x beyond file size %#x", i, aOff, len(r.data))
		}
		ac := &cursor{data: r.data, pos: int(aOff)}
		vis := ac.u8("visibility")
		if ac.err != nil {
			return nil, withItem(ac.err, fmt.Sprintf("%s entry %d annotation_item", item, i))
		}
		ea, err := r.encodedAnnotation(ac, 0)
		if err != nil {
			return nil, withItem(err, fmt.Sprintf("%s entry %d annotation_item", item, i))
		}
		a := Annotation{Visibility: vis, EncodedAnnotation: ea, Off: aOff}
		r.annItemCache[aOff] = a
		s.Items[i] = a
	}
	r.annSetCache[off] = s
	return s, nil
}
