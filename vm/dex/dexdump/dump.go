// Package dexdump prints a decoded DEX file exactly as AOSP's dexdump
// (plain layout, flags -a -d -f -h) and dexlist (version 11) print it, so
// their output can be diffed against the real tools and ART's goldens.
//
// Strings are printed as the raw MUTF-8 bytes the file holds, as the C tools
// do; numbers follow C printf conventions (including %g for floats).
package dexdump

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
)

// Options select what Dump prints, as dexdump's flags do.
type Options struct {
	Annotations    bool // -a: class, field, method and parameter annotations
	Disassemble    bool // -d: disassemble code
	FileHeader     bool // -f: the file header
	SectionHeaders bool // -h: each class_def's header
}

type printer struct {
	w    *bufio.Writer
	f    *dex.File
	opt  Options
	strs []string // MUTF-8 bytes of each string, as Go strings
}

func newPrinter(w io.Writer, f *dex.File, opt Options) *printer {
	p := &printer{w: bufio.NewWriter(w), f: f, opt: opt, strs: make([]string, len(f.Strings))}
	for i, s := range f.Strings {
		p.strs[i] = rawString(s)
	}
	return p
}

// rawString returns the MUTF-8 bytes of s.
func rawString(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 || s[i] >= 0x80 {
			return string(dex.EncodeMUTF8(s))
		}
	}
	return s
}

func (p *printer) printf(format string, args ...any) { fmt.Fprintf(p.w, format, args...) }

// str returns string i as dexdump prints it; "(null)" stands for NoIndex (C's
// printf of a null pointer).
func (p *printer) str(i uint32) string {
	if i < uint32(len(p.strs)) {
		return p.strs[i]
	}
	return "(null)"
}

func (p *printer) typ(i uint32) string {
	if i < uint32(len(p.f.Types)) {
		return p.str(p.f.Types[i])
	}
	return "(null)"
}

func (p *printer) proto(i uint32) string {
	if i >= uint32(len(p.f.Protos)) {
		return "?"
	}
	pr := p.f.Protos[i]
	var b strings.Builder
	b.WriteByte('(')
	for _, t := range pr.Params {
		b.WriteString(p.typ(t))
	}
	b.WriteByte(')')
	b.WriteString(p.typ(pr.Return))
	return b.String()
}

// Dump prints f as `dexdump` with the options' flags prints the file name.
func Dump(w io.Writer, f *dex.File, name string, opt Options) error {
	p := newPrinter(w, f, opt)
	h := &f.Header
	p.printf("Processing '%s'...\n", name)
	p.printf("Opened '%s', DEX version '%s'\n", name, h.Magic[4:7])
	if opt.FileHeader {
		p.fileHeader()
	}
	for i := range f.ClassDefs {
		if err := p.class(i); err != nil {
			p.w.Flush()
			return err
		}
	}
	for i := range f.MethodHandles {
		p.methodHandle(i)
	}
	for i := range f.CallSites {
		p.callSite(i)
	}
	return p.w.Flush()
}

// d prints a uint32 as C's %d does.
func d(v uint32) int32 { return int32(v) }

func (p *printer) fileHeader() {
	h := &p.f.Header
	p.printf("DEX file header:\n")
	p.printf("magic               : '%s'\n", asciify(h.Magic[:]))
	p.printf("checksum            : %08x\n", h.Checksum)
	p.printf("signature           : %02x%02x...%02x%02x\n", h.Signature[0], h.Signature[1], h.Signature[18], h.Signature[19])
	p.printf("file_size           : %d\n", d(h.FileSize))
	p.printf("header_size         : %d\n", d(h.HeaderSize))
	p.printf("link_size           : %d\n", d(h.LinkSize))
	p.printf("link_off            : %d (0x%06x)\n", d(h.LinkOff), h.LinkOff)
	for _, t := range []struct {
		name      string
		size, off uint32
	}{
		{"string_ids", h.StringIDsSize, h.StringIDsOff},
		{"type_ids", h.TypeIDsSize, h.TypeIDsOff},
		{"proto_ids", h.ProtoIDsSize, h.ProtoIDsOff},
		{"field_ids", h.FieldIDsSize, h.FieldIDsOff},
		{"method_ids", h.MethodIDsSize, h.MethodIDsOff},
		{"class_defs", h.ClassDefsSize, h.ClassDefsOff},
	} {
		p.printf("%-20s: %d\n", t.name+"_size", d(t.size))
		p.printf("%-20s: %d (0x%06x)\n", t.name+"_off", d(t.off), t.off)
	}
	p.printf("data_size           : %d\n", d(h.DataSize))
	p.printf("data_off            : %d (0x%06x)\n\n", d(h.DataOff), h.DataOff)
}

// asciify renders the magic as dexdump does: NUL as \0, newline as \n, other
// control bytes as '.', bytes from 0x80 as '?'.
func asciify(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		switch {
		case c == 0:
			s.WriteString(`\0`)
		case c == '\n':
			s.WriteString(`\n`)
		case c < 0x20:
			s.WriteByte('.')
		case c >= 0x80:
			s.WriteByte('?')
		default:
			s.WriteByte(c)
		}
	}
	return s.String()
}

// Kinds of access flag tables.
const (
	forClass = iota
	forMethod
	forField
)

var accessNames = [3][18]string{
	{"PUBLIC", "PRIVATE", "PROTECTED", "STATIC", "FINAL", "?", "?", "?", "?", "INTERFACE", "ABSTRACT", "?", "SYNTHETIC", "ANNOTATION", "ENUM", "?", "VERIFIED", "OPTIMIZED"},
	{"PUBLIC", "PRIVATE", "PROTECTED", "STATIC", "FINAL", "SYNCHRONIZED", "BRIDGE", "VARARGS", "NATIVE", "?", "ABSTRACT", "STRICT", "SYNTHETIC", "?", "?", "MIRANDA", "CONSTRUCTOR", "DECLARED_SYNCHRONIZED"},
	{"PUBLIC", "PRIVATE", "PROTECTED", "STATIC", "FINAL", "?", "VOLATILE", "TRANSIENT", "?", "?", "?", "?", "SYNTHETIC", "?", "ENUM", "?", "?", "?"},
}

func accessString(flags uint32, kind int) string {
	var parts []string
	for i := 0; i < 18; i++ {
		if flags&(1<<i) != 0 {
			parts = append(parts, accessNames[kind][i])
		}
	}
	return strings.Join(parts, " ")
}

func (p *printer) class(idx int) error {
	cd := &p.f.ClassDefs[idx]
	data := cd.Data
	if data == nil {
		data = &dex.ClassData{}
	}
	if p.opt.SectionHeaders {
		p.printf("Class #%d header:\n", idx)
		p.printf("class_idx           : %d\n", uint16(cd.Class))
		p.printf("access_flags        : %d (0x%04x)\n", d(cd.Access), cd.Access)
		p.printf("superclass_idx      : %d\n", uint16(cd.Super))
		p.printf("interfaces_off      : %d (0x%06x)\n", d(cd.InterfacesOff), cd.InterfacesOff)
		p.printf("source_file_idx     : %d\n", d(cd.SourceFile))
		p.printf("annotations_off     : %d (0x%06x)\n", d(cd.AnnotationsOff), cd.AnnotationsOff)
		p.printf("class_data_off      : %d (0x%06x)\n", d(cd.ClassDataOff), cd.ClassDataOff)
		p.printf("static_fields_size  : %d\n", len(data.StaticFields))
		p.printf("instance_fields_size: %d\n", len(data.InstanceFields))
		p.printf("direct_methods_size : %d\n", len(data.DirectMethods))
		p.printf("virtual_methods_size: %d\n", len(data.VirtualMethods))
		p.printf("\n")
	}
	if p.opt.Annotations {
		p.classAnnotations(idx)
	}
	desc := p.typ(cd.Class)
	p.printf("Class #%d            -\n", idx)
	p.printf("  Class descriptor  : '%s'\n", desc)
	p.printf("  Access flags      : 0x%04x (%s)\n", cd.Access, accessString(cd.Access, forClass))
	if cd.Super != dex.NoIndex {
		p.printf("  Superclass        : '%s'\n", p.typ(cd.Super))
	}
	p.printf("  Interfaces        -\n")
	for i, t := range cd.Interfaces {
		p.printf("    #%d              : '%s'\n", i, p.typ(t))
	}
	p.printf("  Static fields     -\n")
	for i, fl := range data.StaticFields {
		var v *dex.Value
		if i < len(cd.StaticValues) {
			v = &cd.StaticValues[i]
		}
		p.field(fl, i, v)
	}
	p.printf("  Instance fields   -\n")
	for i, fl := range data.InstanceFields {
		p.field(fl, i, nil)
	}
	p.printf("  Direct methods    -\n")
	for i, m := range data.DirectMethods {
		if err := p.method(m, i); err != nil {
			return err
		}
	}
	p.printf("  Virtual methods   -\n")
	for i, m := range data.VirtualMethods {
		if err := p.method(m, i); err != nil {
			return err
		}
	}
	file := "unknown"
	if cd.SourceFile != dex.NoIndex {
		file = p.str(cd.SourceFile)
	}
	p.printf("  source_file_idx   : %d (%s)\n\n", d(cd.SourceFile), file)
	return nil
}

func (p *printer) field(fl dex.EncodedField, i int, v *dex.Value) {
	fr := p.f.Fields[fl.Field]
	p.printf("    #%d              : (in %s)\n", i, p.typ(fr.Class))
	p.printf("      name          : '%s'\n", p.str(fr.Name))
	p.printf("      type          : '%s'\n", p.typ(fr.Type))
	p.printf("      access        : 0x%04x (%s)\n", fl.Access, accessString(fl.Access, forField))
	if v != nil {
		p.printf("      value         : ")
		p.value(*v)
		p.printf("\n")
	}
}

func (p *printer) method(m dex.EncodedMethod, i int) error {
	mr := p.f.Methods[m.Method]
	p.printf("    #%d              : (in %s)\n", i, p.typ(mr.Class))
	p.printf("      name          : '%s'\n", p.str(mr.Name))
	p.printf("      type          : '%s'\n", p.proto(mr.Proto))
	p.printf("      access        : 0x%04x (%s)\n", m.Access, accessString(m.Access, forMethod))
	if m.Code == nil {
		p.printf("      code          : (none)\n")
	} else {
		p.printf("      code          -\n")
		if err := p.code(m); err != nil {
			return err
		}
	}
	if p.opt.Disassemble {
		p.printf("\n")
	}
	return nil
}

func (p *printer) code(m dex.EncodedMethod) error {
	c := m.Code
	p.printf("      registers     : %d\n", c.Registers)
	p.printf("      ins           : %d\n", c.Ins)
	p.printf("      outs          : %d\n", c.Outs)
	p.printf("      insns size    : %d 16-bit code units\n", len(c.Insns))
	if p.opt.Disassemble {
		if err := p.bytecodes(m); err != nil {
			return err
		}
	}
	if len(c.Tries) == 0 {
		p.printf("      catches       : (none)\n")
	} else {
		p.printf("      catches       : %d\n", len(c.Tries))
		for _, t := range c.Tries {
			p.printf("        0x%04x - 0x%04x\n", t.Start, t.Start+uint32(t.Count))
			h := &c.Handlers[t.Handler]
			for _, ct := range h.Catches {
				p.printf("          %s -> 0x%04x\n", p.typ(ct.Type), ct.Addr)
			}
			if h.HasCatchAll {
				p.printf("          <any> -> 0x%04x\n", h.CatchAll)
			}
		}
	}
	p.printf("      positions     : \n")
	if c.Debug != nil {
		for _, pos := range c.Debug.Positions() {
			p.printf("        0x%04x line=%d\n", pos.Addr, d(pos.Line))
		}
	}
	p.printf("      locals        : \n")
	for _, l := range p.f.Locals(m) {
		name := p.str(l.Name)
		if l.This {
			name = "this"
		}
		sig := ""
		if l.Sig != dex.NoIndex {
			sig = p.str(l.Sig)
		}
		p.printf("        0x%04x - 0x%04x reg=%d %s %s %s\n", l.Start, l.End, l.Reg, name, p.typ(l.Type), sig)
	}
	return nil
}

// value prints an encoded value as dexdump's dumpEncodedValue does.
func (p *printer) value(v dex.Value) {
	switch v.Kind {
	case dex.ValueByte:
		p.printf("%d", int8(v.Bits))
	case dex.ValueShort:
		p.printf("%d", int16(v.Bits))
	case dex.ValueChar:
		p.printf("%d", uint16(v.Bits))
	case dex.ValueInt:
		p.printf("%d", int32(v.Bits))
	case dex.ValueLong:
		p.printf("%d", int64(v.Bits))
	case dex.ValueFloat:
		p.w.WriteString(formatG32(uint32(v.Bits)))
	case dex.ValueDouble:
		p.w.WriteString(formatG(v.Double()))
	case dex.ValueString:
		p.w.WriteString(escape(p.str(v.Index())))
	case dex.ValueType:
		p.w.WriteString(p.typ(v.Index()))
	case dex.ValueField, dex.ValueEnum:
		p.w.WriteString(p.str(p.f.Fields[v.Index()].Name))
	case dex.ValueMethod:
		p.w.WriteString(p.str(p.f.Methods[v.Index()].Name))
	case dex.ValueArray:
		p.w.WriteString("{")
		for _, e := range v.Array {
			p.w.WriteString(" ")
			p.value(e)
		}
		p.w.WriteString(" }")
	case dex.ValueAnnotation:
		p.annotation(*v.Annotation)
	case dex.ValueNull:
		p.w.WriteString("null")
	case dex.ValueBoolean:
		p.printf("%t", v.Bool())
	default: // method_type and method_handle, which dexdump does not decode
		p.w.WriteString("????")
	}
}

func (p *printer) annotation(a dex.EncodedAnnotation) {
	p.w.WriteString(p.typ(a.Type))
	for _, e := range a.Elements {
		p.printf(" %s=", p.str(e.Name))
		p.value(e.Value)
	}
}

// escape quotes s as dexdump's dumpEscapedString does.
func escape(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func (p *printer) annotationSet(s *dex.AnnotationSet) {
	if s == nil || len(s.Items) == 0 {
		p.printf("  empty-annotation-set\n")
		return
	}
	for _, a := range s.Items {
		switch a.Visibility {
		case dex.VisibilityBuild:
			p.printf("  VISIBILITY_BUILD ")
		case dex.VisibilityRuntime:
			p.printf("  VISIBILITY_RUNTIME ")
		case dex.VisibilitySystem:
			p.printf("  VISIBILITY_SYSTEM ")
		default:
			p.printf("  VISIBILITY_UNKNOWN ")
		}
		p.annotation(a.EncodedAnnotation)
		p.printf("\n")
	}
}

func (p *printer) classAnnotations(idx int) {
	dir := p.f.ClassDefs[idx].Annotations
	if dir == nil {
		return
	}
	p.printf("Class #%d annotations:\n", idx)
	if dir.Class != nil {
		p.printf("Annotations on class\n")
		p.annotationSet(dir.Class)
	}
	for _, fa := range dir.Fields {
		p.printf("Annotations on field #%d '%s'\n", fa.Field, p.str(p.f.Fields[fa.Field].Name))
		p.annotationSet(fa.Set)
	}
	for _, ma := range dir.Methods {
		p.printf("Annotations on method #%d '%s'\n", ma.Method, p.str(p.f.Methods[ma.Method].Name))
		p.annotationSet(ma.Set)
	}
	for _, pa := range dir.Params {
		p.printf("Annotations on method #%d '%s' parameters\n", pa.Method, p.str(p.f.Methods[pa.Method].Name))
		for j, s := range pa.Sets {
			p.printf("#%d\n", j)
			p.annotationSet(s)
		}
	}
	p.printf("\n")
}

var handleKinds = [...]struct {
	name             string
	instance, invoke bool
}{
	dex.HandleStaticPut:         {"put-static", false, false},
	dex.HandleStaticGet:         {"get-static", false, false},
	dex.HandleInstancePut:       {"put-instance", true, false},
	dex.HandleInstanceGet:       {"get-instance", true, false},
	dex.HandleInvokeStatic:      {"invoke-static", false, true},
	dex.HandleInvokeInstance:    {"invoke-instance", true, true},
	dex.HandleInvokeConstructor: {"invoke-constructor", true, true},
	dex.HandleInvokeDirect:      {"invoke-direct", true, true},
	dex.HandleInvokeInterface:   {"invoke-interface", true, true},
}

func (p *printer) methodHandle(i int) {
	h := p.f.MethodHandles[i]
	k := handleKinds[h.Kind]
	var class, member, memberType string
	if k.invoke {
		m := p.f.Methods[h.Target]
		class, member, memberType = p.typ(m.Class), p.str(m.Name), p.proto(m.Proto)
	} else {
		fr := p.f.Fields[h.Target]
		class, member, memberType = p.typ(fr.Class), p.str(fr.Name), p.typ(fr.Type)
	}
	if k.instance {
		memberType = "(" + class + memberType[min(1, len(memberType)):]
	}
	p.printf("Method handle #%d:\n", i)
	p.printf("  type        : %s\n", k.name)
	p.printf("  target      : %s %s\n", class, member)
	p.printf("  target_type : %s\n", memberType)
}

func (p *printer) callSite(i int) {
	cs := p.f.CallSites[i]
	if len(cs.Values) < 3 {
		return // dexdump logs "Call site has too few values" and prints nothing
	}
	p.printf("Call site #%d: // offset %d\n", i, cs.Off)
	p.printf("  link_argument[0] : %d (MethodHandle)\n", cs.Values[0].Index())
	p.printf("  link_argument[1] : %s (String)\n", p.str(cs.Values[1].Index()))
	p.printf("  link_argument[2] : %s (MethodType)\n", p.proto(cs.Values[2].Index()))
	for j, v := range cs.Values[3:] {
		var typ, val string
		switch v.Kind {
		case dex.ValueByte:
			typ, val = "byte", fmt.Sprint(uint32(int32(int8(v.Bits))))
		case dex.ValueShort:
			typ, val = "short", fmt.Sprint(int16(v.Bits))
		case dex.ValueChar:
			typ, val = "char", fmt.Sprint(uint16(v.Bits))
		case dex.ValueInt:
			typ, val = "int", fmt.Sprint(int32(v.Bits))
		case dex.ValueLong:
			typ, val = "long", fmt.Sprint(int64(v.Bits))
		case dex.ValueFloat:
			typ, val = "float", formatG32(uint32(v.Bits))
		case dex.ValueDouble:
			typ, val = "double", formatG(v.Double())
		case dex.ValueMethodType:
			typ, val = "MethodType", p.proto(v.Index())
		case dex.ValueMethodHandle:
			typ, val = "MethodHandle", fmt.Sprint(int32(v.Index()))
		case dex.ValueString:
			typ, val = "String", p.str(v.Index())
		case dex.ValueType:
			typ, val = "Class", p.typ(v.Index())
		case dex.ValueNull:
			typ, val = "Null", "null"
		case dex.ValueBoolean:
			typ, val = "boolean", fmt.Sprint(v.Bool())
		default: // dexdump aborts on these; print the kind instead
			typ, val = v.Kind.String(), "?"
		}
		p.printf("  link_argument[%d] : %s (%s)\n", j+3, val, typ)
	}
}
