package dex

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// This file is the DEX builder: classes whose members, code and values
// refer to strings, types, prototypes, fields, methods, call sites and
// method handles symbolically (by value). Build interns every reference,
// sorts the id tables canonically, assigns indices, encodes the
// instructions with their index operands and returns a *File that Write
// accepts.

// ProtoSpec is a method prototype by value.
type ProtoSpec struct {
	Return string   // type descriptor
	Params []string // type descriptors
}

func (p ProtoSpec) key() string { return "(" + strings.Join(p.Params, "") + ")" + p.Return }

// FieldSpecRef is a field reference by value.
type FieldSpecRef struct{ Class, Name, Type string }

func (f FieldSpecRef) key() string { return f.Class + "->" + f.Name + ":" + f.Type }

// MethodSpecRef is a method reference by value.
type MethodSpecRef struct {
	Class, Name string
	Proto       ProtoSpec
}

func (m MethodSpecRef) key() string { return m.Class + "->" + m.Name + m.Proto.key() }

// HandleSpec is a method handle by value: Field is used for the put/get
// kinds, Method otherwise.
type HandleSpec struct {
	Kind   uint16
	Field  FieldSpecRef
	Method MethodSpecRef
}

func (h HandleSpec) key() string {
	if h.Kind <= HandleInstanceGet {
		return fmt.Sprint(h.Kind, "@", h.Field.key())
	}
	return fmt.Sprint(h.Kind, "@", h.Method.key())
}

// CallSiteSpec is a call site by value: its bootstrap method handle, the
// method name and type, and the extra bootstrap arguments.
type CallSiteSpec struct {
	Bootstrap HandleSpec
	Name      string
	Type      ProtoSpec
	Args      []ValueSpec
}

func (c *CallSiteSpec) key() string {
	var b strings.Builder
	b.WriteString(c.Bootstrap.key() + "|" + c.Name + "|" + c.Type.key())
	for _, a := range c.Args {
		b.WriteString("|" + a.key())
	}
	return b.String()
}

// ValueSpec is an encoded value by value. Bits holds primitive payloads as
// in Value; Str holds the string of ValueString and the descriptor of
// ValueType; Field the field of ValueField and ValueEnum; Method, Proto and
// Handle the references of their kinds.
type ValueSpec struct {
	Kind       ValueKind
	Bits       uint64
	Str        string
	Field      FieldSpecRef
	Method     MethodSpecRef
	Proto      ProtoSpec
	Handle     HandleSpec
	Array      []ValueSpec
	Annotation *AnnotationSpec
}

func (v ValueSpec) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%d:%q:%s:%s:%s:%s[", v.Kind, v.Bits, v.Str, v.Field.key(), v.Method.key(), v.Proto.key(), v.Handle.key())
	for _, e := range v.Array {
		b.WriteString(e.key() + ",")
	}
	b.WriteString("]")
	if a := v.Annotation; a != nil {
		b.WriteString("@" + a.Type + "{")
		for _, e := range a.Elements {
			b.WriteString(e.Name + "=" + e.Value.key() + ",")
		}
		b.WriteString("}")
	}
	return b.String()
}

// AnnotationSpec is an annotation by value (Visibility is ignored for
// subannotations).
type AnnotationSpec struct {
	Visibility uint8
	Type       string
	Elements   []ElementSpec
}

// ElementSpec is one name-value pair of an annotation.
type ElementSpec struct {
	Name  string
	Value ValueSpec
}

// ClassSpec is one class to build.
type ClassSpec struct {
	Type        string
	Access      uint32
	Super       string // "" for none
	Interfaces  []string
	SourceFile  *string
	Annotations []AnnotationSpec
	// StaticFields and InstanceFields are in any order; a static field's
	// Initial value becomes its static value.
	StaticFields, InstanceFields  []FieldSpec
	DirectMethods, VirtualMethods []MethodSpec
}

// FieldSpec is one field definition.
type FieldSpec struct {
	Name, Type  string
	Access      uint32
	Initial     *ValueSpec
	Annotations []AnnotationSpec
}

// MethodSpec is one method definition.
type MethodSpec struct {
	Name        string
	Proto       ProtoSpec
	Access      uint32
	Code        *CodeSpec // nil for abstract and native methods
	Annotations []AnnotationSpec
	// ParamAnnotations has one entry per parameter, or is nil.
	ParamAnnotations [][]AnnotationSpec
}

// CodeSpec is a method body already laid out: every instruction's address
// is the sum of the sizes of those before it.
type CodeSpec struct {
	Registers, Ins, Outs uint16
	Insns                []InsnSpec
	Tries                []TrySpec
	Debug                *DebugSpec
}

// InsnSpec is one instruction or payload.
//
// Regs are the register operands in the order of the format (vA, vB, vC;
// the argument list of 35c/45cc; for 3rc/4rcc the first register of the
// range, with Count giving its length). Lit is the literal as it is stored
// in the instruction (for 21h already shifted right by 16 or 48). Target is
// a branch or payload offset in code units relative to this instruction.
// Ref is the index operand: a string (IndexString), a type descriptor
// string (IndexType), FieldSpecRef, MethodSpecRef, ProtoSpec, *CallSiteSpec
// or HandleSpec; Proto is the second operand of 45cc/4rcc.
//
// When Payload is set the instruction is that payload instead.
type InsnSpec struct {
	Op      Opcode
	Regs    []int
	Count   int
	Lit     int64
	Target  int32
	Ref     any
	Proto   ProtoSpec
	Payload *PayloadSpec
}

// PayloadSpec is a packed-switch, sparse-switch or fill-array-data payload.
// Targets are relative to the switch instruction.
type PayloadSpec struct {
	Kind     PayloadKind
	FirstKey int32   // packed
	Keys     []int32 // sparse
	Targets  []int32
	Width    int // array: element width in bytes
	Elements []int64
}

// Size is the payload's size in code units.
func (p *PayloadSpec) Size() int {
	switch p.Kind {
	case PackedSwitchPayload:
		return 4 + 2*len(p.Targets)
	case SparseSwitchPayload:
		return 2 + 4*len(p.Targets)
	}
	return 4 + (p.Width*len(p.Elements)+1)/2
}

// Size is the instruction's size in code units.
func (in *InsnSpec) Size() int {
	if in.Payload != nil {
		return in.Payload.Size()
	}
	return in.Op.Format().Size()
}

// TrySpec is a try block: code units [Start, Start+Count) with typed
// handlers and, when CatchAll >= 0, a catch-all handler address.
type TrySpec struct {
	Start    uint32
	Count    uint16
	Catches  []CatchSpec
	CatchAll int64
}

// CatchSpec is one typed handler.
type CatchSpec struct {
	Type string
	Addr uint32
}

// DebugSpec is the debug information of a method. ParamNames has one
// entry per parameter (nil for no name). Events are in address order.
type DebugSpec struct {
	ParamNames []*string
	Events     []DebugEvent
}

// Debug event kinds.
const (
	DebugLine = iota
	DebugStartLocal
	DebugEndLocal
	DebugRestartLocal
	DebugPrologue
	DebugEpilogue
	DebugSetFile
)

// DebugEvent is one debug event at a code unit address: a line number, a
// local variable starting (Name, Type, Sig optional), ending or restarting
// in Reg, prologue end, epilogue begin, or a source file change (Name, nil
// to reset).
type DebugEvent struct {
	Addr            uint32
	Kind            int
	Line            uint32
	Reg             uint32
	Name, Type, Sig *string
}

func newBuilder() *builder {
	return &builder{
		strs: map[string]uint32{}, types: map[string]uint32{}, protos: map[string]uint32{},
		fields: map[string]uint32{}, methods: map[string]uint32{}, sites: map[string]uint32{},
		handles: map[string]uint32{}, collect: true,
	}
}

// StringIndices returns the string table Build would produce for the
// classes: every string they refer to, with its final index. The indices
// do not depend on the opcodes chosen (const-string or const-string/jumbo
// refer to the same string), so an assembler can use them to pick the
// jumbo form before laying out code.
func StringIndices(classes []*ClassSpec) (map[string]uint32, error) {
	b := newBuilder()
	if _, err := b.run(classes); err != nil {
		return nil, err
	}
	out := make(map[string]uint32, len(b.strs))
	for i, s := range sortedKeys(b.strs, CompareUTF16) {
		out[s] = uint32(i)
	}
	return out, nil
}

// Build interns the references of the classes and returns the model. The
// version is taken from version (35 to 40, 0 for 035). An index operand
// that does not fit its instruction's 16-bit field is an error, never
// truncated.
func Build(classes []*ClassSpec, version int) (*File, error) {
	b := newBuilder()
	if _, err := b.run(classes); err != nil {
		return nil, err
	}
	b.assign()
	b.collect = false
	f, err := b.run(classes)
	if err != nil {
		return nil, err
	}
	if version == 0 {
		version = 35
	}
	f.Header.Version = version
	copy(f.Header.Magic[:], fmt.Sprintf("dex\n%03d\x00", version))
	return f, nil
}

type builder struct {
	collect                                              bool
	strs, types, protos, fields, methods, sites, handles map[string]uint32

	protoVals  map[string]ProtoSpec
	fieldVals  map[string]FieldSpecRef
	methodVals map[string]MethodSpecRef
	siteOrder  []*CallSiteSpec
	handleVals []HandleSpec

	f *File
}

func (b *builder) str(s string) uint32 {
	if b.collect {
		b.strs[s] = 0
		return 0
	}
	return b.strs[s]
}

func (b *builder) strOpt(s *string) uint32 {
	if s == nil {
		return NoIndex
	}
	return b.str(*s)
}

func (b *builder) typ(d string) uint32 {
	if b.collect {
		b.str(d)
		b.types[d] = 0
		return 0
	}
	return b.types[d]
}

func (b *builder) typOpt(d *string) uint32 {
	if d == nil {
		return NoIndex
	}
	return b.typ(*d)
}

func shorty(p ProtoSpec) string {
	s := []byte{short(p.Return)}
	for _, t := range p.Params {
		s = append(s, short(t))
	}
	return string(s)
}

func short(d string) byte {
	if d == "" {
		return 'V'
	}
	if d[0] == '[' || d[0] == 'L' {
		return 'L'
	}
	return d[0]
}

func (b *builder) proto(p ProtoSpec) uint32 {
	k := p.key()
	if b.collect {
		b.str(shorty(p))
		b.typ(p.Return)
		for _, t := range p.Params {
			b.typ(t)
		}
		if b.protoVals == nil {
			b.protoVals = map[string]ProtoSpec{}
		}
		b.protoVals[k] = p
		b.protos[k] = 0
		return 0
	}
	return b.protos[k]
}

func (b *builder) field(f FieldSpecRef) uint32 {
	k := f.key()
	if b.collect {
		b.typ(f.Class)
		b.str(f.Name)
		b.typ(f.Type)
		if b.fieldVals == nil {
			b.fieldVals = map[string]FieldSpecRef{}
		}
		b.fieldVals[k] = f
		b.fields[k] = 0
		return 0
	}
	return b.fields[k]
}

func (b *builder) method(m MethodSpecRef) uint32 {
	k := m.key()
	if b.collect {
		b.typ(m.Class)
		b.str(m.Name)
		b.proto(m.Proto)
		if b.methodVals == nil {
			b.methodVals = map[string]MethodSpecRef{}
		}
		b.methodVals[k] = m
		b.methods[k] = 0
		return 0
	}
	return b.methods[k]
}

func (b *builder) handle(h HandleSpec) uint32 {
	k := h.key()
	if b.collect {
		if h.Kind <= HandleInstanceGet {
			b.field(h.Field)
		} else {
			b.method(h.Method)
		}
		if _, ok := b.handles[k]; !ok {
			b.handles[k] = uint32(len(b.handleVals))
			b.handleVals = append(b.handleVals, h)
		}
		return 0
	}
	return b.handles[k]
}

func (b *builder) site(c *CallSiteSpec) uint32 {
	k := c.key()
	if b.collect {
		b.handle(c.Bootstrap)
		b.str(c.Name)
		b.proto(c.Type)
		for _, a := range c.Args {
			b.value(a)
		}
		if _, ok := b.sites[k]; !ok {
			b.sites[k] = uint32(len(b.siteOrder))
			b.siteOrder = append(b.siteOrder, c)
		}
		return 0
	}
	return b.sites[k]
}

// assign sorts the collected tables and numbers them.
func (b *builder) assign() {
	f := &File{}
	f.Strings = sortedKeys(b.strs, CompareUTF16)
	for i, s := range f.Strings {
		b.strs[s] = uint32(i)
	}
	types := sortedKeys(b.types, func(x, y string) int { return cmp.Compare(b.strs[x], b.strs[y]) })
	for i, t := range types {
		b.types[t] = uint32(i)
		f.Types = append(f.Types, b.strs[t])
	}
	params := func(p ProtoSpec) []uint32 {
		var out []uint32
		for _, t := range p.Params {
			out = append(out, b.types[t])
		}
		return out
	}
	protos := sortedKeys(b.protos, func(x, y string) int {
		px, py := b.protoVals[x], b.protoVals[y]
		return cmp.Or(cmp.Compare(b.types[px.Return], b.types[py.Return]), slices.Compare(params(px), params(py)))
	})
	for i, k := range protos {
		b.protos[k] = uint32(i)
		p := b.protoVals[k]
		f.Protos = append(f.Protos, Proto{Shorty: b.strs[shorty(p)], Return: b.types[p.Return], Params: params(p)})
	}
	fields := sortedKeys(b.fields, func(x, y string) int {
		a, c := b.fieldVals[x], b.fieldVals[y]
		return cmp.Or(cmp.Compare(b.types[a.Class], b.types[c.Class]), cmp.Compare(b.strs[a.Name], b.strs[c.Name]), cmp.Compare(b.types[a.Type], b.types[c.Type]))
	})
	for i, k := range fields {
		b.fields[k] = uint32(i)
		v := b.fieldVals[k]
		f.Fields = append(f.Fields, FieldRef{Class: b.types[v.Class], Type: b.types[v.Type], Name: b.strs[v.Name]})
	}
	methods := sortedKeys(b.methods, func(x, y string) int {
		a, c := b.methodVals[x], b.methodVals[y]
		return cmp.Or(cmp.Compare(b.types[a.Class], b.types[c.Class]), cmp.Compare(b.strs[a.Name], b.strs[c.Name]), cmp.Compare(b.protos[a.Proto.key()], b.protos[c.Proto.key()]))
	})
	for i, k := range methods {
		b.methods[k] = uint32(i)
		v := b.methodVals[k]
		f.Methods = append(f.Methods, MethodRef{Class: b.types[v.Class], Proto: b.protos[v.Proto.key()], Name: b.strs[v.Name]})
	}
	b.f = f
}

func sortedKeys(m map[string]uint32, c func(a, b string) int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, c)
	return keys
}

// run converts the classes; in the collect pass the indices are all 0 and
// the result is discarded.
func (b *builder) run(classes []*ClassSpec) (*File, error) {
	f := b.f
	if f == nil {
		f = &File{}
	}
	f.ClassDefs = nil
	for _, c := range classes {
		cd, err := b.class(c)
		if err != nil {
			return nil, err
		}
		f.ClassDefs = append(f.ClassDefs, cd)
	}
	if !b.collect {
		for _, h := range b.handleVals {
			mh := MethodHandle{Kind: h.Kind}
			if h.Kind <= HandleInstanceGet {
				mh.Target = b.field(h.Field)
			} else {
				mh.Target = b.method(h.Method)
			}
			f.MethodHandles = append(f.MethodHandles, mh)
		}
		for _, s := range b.siteOrder {
			vals := []Value{
				{Kind: ValueMethodHandle, Bits: uint64(b.handle(s.Bootstrap))},
				{Kind: ValueString, Bits: uint64(b.str(s.Name))},
				{Kind: ValueMethodType, Bits: uint64(b.proto(s.Type))},
			}
			for _, a := range s.Args {
				vals = append(vals, b.value(a))
			}
			f.CallSites = append(f.CallSites, CallSite{Values: vals})
		}
	} else {
		for _, s := range b.siteOrder { // the call site array refers to these
			b.handle(s.Bootstrap)
		}
	}
	return f, nil
}

func (b *builder) value(v ValueSpec) Value {
	out := Value{Kind: v.Kind, Bits: v.Bits}
	switch v.Kind {
	case ValueString:
		out.Bits = uint64(b.str(v.Str))
	case ValueType:
		out.Bits = uint64(b.typ(v.Str))
	case ValueField, ValueEnum:
		out.Bits = uint64(b.field(v.Field))
	case ValueMethod:
		out.Bits = uint64(b.method(v.Method))
	case ValueMethodType:
		out.Bits = uint64(b.proto(v.Proto))
	case ValueMethodHandle:
		out.Bits = uint64(b.handle(v.Handle))
	case ValueArray:
		out.Array = []Value{}
		for _, e := range v.Array {
			out.Array = append(out.Array, b.value(e))
		}
	case ValueAnnotation:
		ea := b.encodedAnnotation(v.Annotation)
		out.Annotation = &ea
	}
	return out
}

func (b *builder) encodedAnnotation(a *AnnotationSpec) EncodedAnnotation {
	ea := EncodedAnnotation{Type: b.typ(a.Type)}
	for _, e := range a.Elements {
		ea.Elements = append(ea.Elements, AnnotationElement{Name: b.str(e.Name), Value: b.value(e.Value)})
	}
	// Elements are sorted by name index.
	slices.SortStableFunc(ea.Elements, func(x, y AnnotationElement) int { return cmp.Compare(x.Name, y.Name) })
	return ea
}

func (b *builder) annotationSet(annos []AnnotationSpec) *AnnotationSet {
	if len(annos) == 0 {
		return nil
	}
	set := &AnnotationSet{}
	for i := range annos {
		set.Items = append(set.Items, Annotation{Visibility: annos[i].Visibility, EncodedAnnotation: b.encodedAnnotation(&annos[i])})
	}
	return set
}

func (b *builder) class(c *ClassSpec) (ClassDef, error) {
	cd := ClassDef{Class: b.typ(c.Type), Access: c.Access, Super: NoIndex, SourceFile: b.strOpt(c.SourceFile)}
	if c.Super != "" {
		cd.Super = b.typ(c.Super)
	}
	for _, t := range c.Interfaces {
		cd.Interfaces = append(cd.Interfaces, b.typ(t))
	}
	dir := &AnnotationsDirectory{Class: b.annotationSet(c.Annotations)}
	data := &ClassData{}
	fields := func(specs []FieldSpec, static bool) []EncodedField {
		var out []EncodedField
		for _, fs := range specs {
			idx := b.field(FieldSpecRef{c.Type, fs.Name, fs.Type})
			out = append(out, EncodedField{Field: idx, Access: fs.Access})
			if set := b.annotationSet(fs.Annotations); set != nil {
				dir.Fields = append(dir.Fields, FieldAnnotations{Field: idx, Set: set})
			}
		}
		return out
	}
	data.StaticFields = fields(c.StaticFields, true)
	data.InstanceFields = fields(c.InstanceFields, false)
	// Static values, in field index order.
	type sv struct {
		idx uint32
		fs  *FieldSpec
	}
	var svs []sv
	for i := range c.StaticFields {
		svs = append(svs, sv{data.StaticFields[i].Field, &c.StaticFields[i]})
	}
	slices.SortStableFunc(svs, func(x, y sv) int { return cmp.Compare(x.idx, y.idx) })
	last := -1
	for i, s := range svs {
		if s.fs.Initial != nil && !isDefault(*s.fs.Initial) {
			last = i
		}
	}
	for _, s := range svs[:last+1] {
		if s.fs.Initial != nil {
			cd.StaticValues = append(cd.StaticValues, b.value(*s.fs.Initial))
		} else {
			cd.StaticValues = append(cd.StaticValues, defaultValue(s.fs.Type))
		}
	}
	methods := func(specs []MethodSpec) ([]EncodedMethod, error) {
		var out []EncodedMethod
		for i := range specs {
			ms := &specs[i]
			idx := b.method(MethodSpecRef{c.Type, ms.Name, ms.Proto})
			em := EncodedMethod{Method: idx, Access: ms.Access}
			if ms.Code != nil {
				code, err := b.code(ms.Code)
				if err != nil {
					return nil, fmt.Errorf("%s->%s%s: %w", c.Type, ms.Name, ms.Proto.key(), err)
				}
				em.Code = code
			}
			out = append(out, em)
			if set := b.annotationSet(ms.Annotations); set != nil {
				dir.Methods = append(dir.Methods, MethodAnnotations{Method: idx, Set: set})
			}
			if len(ms.ParamAnnotations) > 0 {
				pa := ParamAnnotations{Method: idx}
				for _, annos := range ms.ParamAnnotations {
					set := b.annotationSet(annos)
					if set == nil {
						set = &AnnotationSet{}
					}
					pa.Sets = append(pa.Sets, set)
				}
				dir.Params = append(dir.Params, pa)
			}
		}
		return out, nil
	}
	var err error
	if data.DirectMethods, err = methods(c.DirectMethods); err != nil {
		return cd, err
	}
	if data.VirtualMethods, err = methods(c.VirtualMethods); err != nil {
		return cd, err
	}
	byField := func(x, y EncodedField) int { return cmp.Compare(x.Field, y.Field) }
	byMethod := func(x, y EncodedMethod) int { return cmp.Compare(x.Method, y.Method) }
	slices.SortStableFunc(data.StaticFields, byField)
	slices.SortStableFunc(data.InstanceFields, byField)
	slices.SortStableFunc(data.DirectMethods, byMethod)
	slices.SortStableFunc(data.VirtualMethods, byMethod)
	slices.SortStableFunc(dir.Fields, func(x, y FieldAnnotations) int { return cmp.Compare(x.Field, y.Field) })
	slices.SortStableFunc(dir.Methods, func(x, y MethodAnnotations) int { return cmp.Compare(x.Method, y.Method) })
	slices.SortStableFunc(dir.Params, func(x, y ParamAnnotations) int { return cmp.Compare(x.Method, y.Method) })
	if len(data.StaticFields)+len(data.InstanceFields)+len(data.DirectMethods)+len(data.VirtualMethods) > 0 {
		cd.Data = data
	}
	if dir.Class != nil || len(dir.Fields)+len(dir.Methods)+len(dir.Params) > 0 {
		cd.Annotations = dir
	}
	return cd, nil
}

func isDefault(v ValueSpec) bool {
	switch v.Kind {
	case ValueByte, ValueShort, ValueChar, ValueInt, ValueLong, ValueFloat, ValueDouble, ValueBoolean:
		return v.Bits == 0
	case ValueNull:
		return true
	}
	return false
}

func defaultValue(desc string) Value {
	switch desc {
	case "Z":
		return Value{Kind: ValueBoolean}
	case "B":
		return Value{Kind: ValueByte}
	case "S":
		return Value{Kind: ValueShort}
	case "C":
		return Value{Kind: ValueChar}
	case "I":
		return Value{Kind: ValueInt}
	case "J":
		return Value{Kind: ValueLong}
	case "F":
		return Value{Kind: ValueFloat}
	case "D":
		return Value{Kind: ValueDouble}
	}
	return Value{Kind: ValueNull}
}

func (b *builder) code(cs *CodeSpec) (*Code, error) {
	c := &Code{Registers: cs.Registers, Ins: cs.Ins, Outs: cs.Outs}
	for i := range cs.Insns {
		var err error
		c.Insns, err = b.encode(c.Insns, &cs.Insns[i])
		if err != nil {
			return nil, fmt.Errorf("instruction at %#04x: %w", len(c.Insns), err)
		}
	}
	// Handlers, shared between tries with equal handlers.
	keys := map[string]int{}
	for _, t := range cs.Tries {
		h := CatchHandler{HasCatchAll: t.CatchAll >= 0}
		if h.HasCatchAll {
			h.CatchAll = uint32(t.CatchAll)
		}
		k := fmt.Sprint(t.CatchAll)
		for _, ct := range t.Catches {
			h.Catches = append(h.Catches, Catch{Type: b.typ(ct.Type), Addr: ct.Addr})
			k += fmt.Sprintf(",%s@%d", ct.Type, ct.Addr)
		}
		i, ok := keys[k]
		if !ok {
			i = len(c.Handlers)
			keys[k] = i
			c.Handlers = append(c.Handlers, h)
		}
		c.Tries = append(c.Tries, Try{Start: t.Start, Count: t.Count, Handler: i})
	}
	if cs.Debug != nil {
		c.Debug = b.debug(cs.Debug)
	}
	return c, nil
}

func (b *builder) debug(ds *DebugSpec) *DebugInfo {
	d := &DebugInfo{}
	for _, n := range ds.ParamNames {
		d.ParamNames = append(d.ParamNames, b.strOpt(n))
	}
	for _, e := range ds.Events {
		if e.Kind == DebugLine {
			d.LineStart = e.Line
			break
		}
	}
	addr, line := uint32(0), d.LineStart
	advance := func(to uint32) {
		if to > addr {
			d.Ops = append(d.Ops, DebugOp{Op: DbgAdvancePC, Reg: NoIndex, Name: NoIndex, Type: NoIndex, Sig: NoIndex, Value: int32(to - addr)})
			addr = to
		}
	}
	op := func(o DebugOp) { d.Ops = append(d.Ops, o) }
	for _, e := range ds.Events {
		base := DebugOp{Reg: NoIndex, Name: NoIndex, Type: NoIndex, Sig: NoIndex}
		switch e.Kind {
		case DebugLine:
			ld := int64(e.Line) - int64(line)
			if ld < DbgLineBase || ld >= DbgLineBase+DbgLineRange {
				o := base
				o.Op, o.Value = DbgAdvanceLine, int32(ld)
				op(o)
				ld = 0
			}
			ad := uint32(0)
			if e.Addr > addr {
				ad = e.Addr - addr
			}
			s, ok := SpecialOp(ad, int32(ld))
			if !ok {
				advance(e.Addr)
				s, _ = SpecialOp(0, int32(ld))
			}
			o := base
			o.Op = s
			op(o)
			addr, line = max(addr, e.Addr), e.Line
			continue
		}
		advance(e.Addr)
		o := base
		switch e.Kind {
		case DebugStartLocal:
			o.Op, o.Reg, o.Name, o.Type = DbgStartLocal, e.Reg, b.strOpt(e.Name), b.typOpt(e.Type)
			if e.Sig != nil {
				o.Op, o.Sig = DbgStartLocalExtended, b.str(*e.Sig)
			}
		case DebugEndLocal:
			o.Op, o.Reg = DbgEndLocal, e.Reg
		case DebugRestartLocal:
			o.Op, o.Reg = DbgRestartLocal, e.Reg
		case DebugPrologue:
			o.Op = DbgSetPrologueEnd
		case DebugEpilogue:
			o.Op = DbgSetEpilogueBegin
		case DebugSetFile:
			o.Op, o.Name = DbgSetFile, b.strOpt(e.Name)
		}
		op(o)
	}
	return d
}

// index resolves the index operand of an instruction.
func (b *builder) index(ref any) (uint32, error) {
	switch r := ref.(type) {
	case string:
		return 0, fmt.Errorf("string reference needs an index kind")
	case FieldSpecRef:
		return b.field(r), nil
	case MethodSpecRef:
		return b.method(r), nil
	case ProtoSpec:
		return b.proto(r), nil
	case *CallSiteSpec:
		return b.site(r), nil
	case HandleSpec:
		return b.handle(r), nil
	}
	return 0, fmt.Errorf("invalid reference %T", ref)
}

func (b *builder) encode(u []uint16, in *InsnSpec) ([]uint16, error) {
	if p := in.Payload; p != nil {
		if len(u)%2 != 0 {
			return nil, fmt.Errorf("payload not 4-byte aligned")
		}
		return encodePayload(u, p), nil
	}
	info := in.Op.Info()
	var idx uint32
	if info.Index != IndexNone {
		var err error
		switch info.Index {
		case IndexString:
			s, ok := in.Ref.(string)
			if !ok {
				return nil, fmt.Errorf("%s needs a string reference, got %T", info.Name, in.Ref)
			}
			idx = b.str(s)
		case IndexType:
			s, ok := in.Ref.(string)
			if !ok {
				return nil, fmt.Errorf("%s needs a type reference, got %T", info.Name, in.Ref)
			}
			idx = b.typ(s)
		default:
			if idx, err = b.index(in.Ref); err != nil {
				return nil, err
			}
		}
	}
	// Only format 31c has a 32-bit index; everywhere else the index field is
	// 16 bits, and truncating would silently refer to another item.
	if info.Index != IndexNone && info.Format != Format31c && idx > 0xffff {
		hint := ""
		if in.Op == OpConstString {
			hint = "; use const-string/jumbo"
		}
		return nil, fmt.Errorf("%s: index %d does not fit its 16-bit field%s", info.Name, idx, hint)
	}
	r := func(i int) uint16 {
		if i < len(in.Regs) {
			return uint16(in.Regs[i])
		}
		return 0
	}
	op := uint16(in.Op)
	lit := in.Lit
	t := in.Target
	switch info.Format {
	case Format10x:
		u = append(u, op)
	case Format12x:
		u = append(u, op|r(0)&0xf<<8|r(1)&0xf<<12)
	case Format11n:
		u = append(u, op|r(0)&0xf<<8|uint16(lit)&0xf<<12)
	case Format11x:
		u = append(u, op|r(0)<<8)
	case Format10t:
		u = append(u, op|uint16(uint8(int8(t)))<<8)
	case Format20t:
		u = append(u, op, uint16(t))
	case Format22x:
		u = append(u, op|r(0)<<8, r(1))
	case Format21t:
		u = append(u, op|r(0)<<8, uint16(t))
	case Format21s, Format21h:
		u = append(u, op|r(0)<<8, uint16(lit))
	case Format21c:
		u = append(u, op|r(0)<<8, uint16(idx))
	case Format23x:
		u = append(u, op|r(0)<<8, r(1)|r(2)<<8)
	case Format22b:
		u = append(u, op|r(0)<<8, r(1)|uint16(uint8(lit))<<8)
	case Format22t:
		u = append(u, op|r(0)&0xf<<8|r(1)&0xf<<12, uint16(t))
	case Format22s:
		u = append(u, op|r(0)&0xf<<8|r(1)&0xf<<12, uint16(lit))
	case Format22c:
		u = append(u, op|r(0)&0xf<<8|r(1)&0xf<<12, uint16(idx))
	case Format32x:
		u = append(u, op, r(0), r(1))
	case Format30t, Format31t:
		if info.Format == Format30t {
			u = append(u, op)
		} else {
			u = append(u, op|r(0)<<8)
		}
		u = append(u, uint16(uint32(t)), uint16(uint32(t)>>16))
	case Format31i:
		u = append(u, op|r(0)<<8, uint16(uint64(lit)), uint16(uint64(lit)>>16))
	case Format31c:
		u = append(u, op|r(0)<<8, uint16(idx), uint16(idx>>16))
	case Format35c, Format45cc:
		n := len(in.Regs)
		if n > 5 {
			return nil, fmt.Errorf("%s takes at most 5 registers", info.Name)
		}
		u = append(u, op|r(4)&0xf<<8|uint16(n)<<12, uint16(idx), r(0)&0xf|r(1)&0xf<<4|r(2)&0xf<<8|r(3)&0xf<<12)
		if info.Format == Format45cc {
			u = append(u, uint16(b.proto(in.Proto)))
		}
	case Format3rc, Format4rcc:
		u = append(u, op|uint16(in.Count)<<8, uint16(idx), r(0))
		if info.Format == Format4rcc {
			u = append(u, uint16(b.proto(in.Proto)))
		}
	case Format51l:
		v := uint64(lit)
		u = append(u, op|r(0)<<8, uint16(v), uint16(v>>16), uint16(v>>32), uint16(v>>48))
	default:
		return nil, fmt.Errorf("format %s not supported", info.Format)
	}
	return u, nil
}

func encodePayload(u []uint16, p *PayloadSpec) []uint16 {
	w32 := func(v int32) { u = append(u, uint16(uint32(v)), uint16(uint32(v)>>16)) }
	switch p.Kind {
	case PackedSwitchPayload:
		u = append(u, 0x0100, uint16(len(p.Targets)))
		w32(p.FirstKey)
		for _, t := range p.Targets {
			w32(t)
		}
	case SparseSwitchPayload:
		u = append(u, 0x0200, uint16(len(p.Targets)))
		for _, k := range p.Keys {
			w32(k)
		}
		for _, t := range p.Targets {
			w32(t)
		}
	default:
		u = append(u, 0x0300, uint16(p.Width))
		u = append(u, uint16(uint32(len(p.Elements))), uint16(uint32(len(p.Elements))>>16))
		var bytes []byte
		for _, e := range p.Elements {
			bytes = binary.LittleEndian.AppendUint64(bytes, uint64(e))[:len(bytes)+p.Width]
		}
		if len(bytes)%2 != 0 {
			bytes = append(bytes, 0)
		}
		for i := 0; i < len(bytes); i += 2 {
			u = append(u, uint16(bytes[i])|uint16(bytes[i+1])<<8)
		}
	}
	return u
}
