package dex

import (
	"fmt"
	"strings"
)

// Str returns string i, or a placeholder naming the bad index.
func (f *File) Str(i uint32) string {
	if i >= uint32(len(f.Strings)) {
		return fmt.Sprintf("<invalid string %d>", i)
	}
	return f.Strings[i]
}

// TypeName returns the descriptor of type i (e.g. "Ljava/lang/Object;"), or a
// placeholder naming the bad index.
func (f *File) TypeName(i uint32) string {
	if i >= uint32(len(f.Types)) {
		return fmt.Sprintf("<invalid type %d>", i)
	}
	return f.Str(f.Types[i])
}

// ProtoString returns the signature of proto i, e.g. "(ILjava/lang/String;)V".
func (f *File) ProtoString(i uint32) string {
	if i >= uint32(len(f.Protos)) {
		return fmt.Sprintf("<invalid proto %d>", i)
	}
	p := f.Protos[i]
	var b strings.Builder
	b.WriteByte('(')
	for _, t := range p.Params {
		b.WriteString(f.TypeName(t))
	}
	b.WriteByte(')')
	b.WriteString(f.TypeName(p.Return))
	return b.String()
}

// MethodName returns method i as "LClass;.name:(params)ret".
func (f *File) MethodName(i uint32) string {
	if i >= uint32(len(f.Methods)) {
		return fmt.Sprintf("<invalid method %d>", i)
	}
	m := f.Methods[i]
	return f.TypeName(m.Class) + "." + f.Str(m.Name) + ":" + f.ProtoString(m.Proto)
}

// FieldName returns field i as "LClass;.name:type".
func (f *File) FieldName(i uint32) string {
	if i >= uint32(len(f.Fields)) {
		return fmt.Sprintf("<invalid field %d>", i)
	}
	fr := f.Fields[i]
	return f.TypeName(fr.Class) + "." + f.Str(fr.Name) + ":" + f.TypeName(fr.Type)
}
