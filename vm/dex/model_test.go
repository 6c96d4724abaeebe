package dex

import (
	"bytes"
	"math"
	"slices"
	"testing"
)

func TestModelFormats(t *testing.T) {
	data, f := readTestdata(t, "formats.dex")
	if f.Header.Version != 35 || len(f.ClassDefs) != 3 {
		t.Fatalf("version %d, %d classes", f.Header.Version, len(f.ClassDefs))
	}
	// MUTF-8: NUL as C0 80, a supplementary character as two surrogates.
	const want = "tab\there \"quoted\" \u00e9\x00nul \U0001F600"
	i := slices.Index(f.Strings, want)
	if i < 0 {
		t.Fatalf("string %q not found", want)
	}
	if UTF16Len(want) != 26 {
		t.Errorf("UTF16Len = %d, want 26", UTF16Len(want))
	}
	if enc := EncodeMUTF8(want); !bytes.Contains(data, append([]byte{26}, enc...)) || !bytes.Contains(enc, []byte{0xc0, 0x80, 'n'}) {
		t.Errorf("EncodeMUTF8 = % x does not reproduce the file's bytes", enc)
	}

	c := classByName(t, f, "LFormats;")
	if f.TypeName(c.Super) != "Ljava/lang/Object;" || len(c.Interfaces) != 2 || f.Str(c.SourceFile) != "Formats.java" {
		t.Errorf("class header: super %s, interfaces %v, source %s", f.TypeName(c.Super), c.Interfaces, f.Str(c.SourceFile))
	}
	statics := map[string]Value{}
	for j, fl := range c.Data.StaticFields {
		if j < len(c.StaticValues) {
			statics[f.Str(f.Fields[fl.Field].Name)] = c.StaticValues[j]
		}
	}
	for name, check := range map[string]func(Value) bool{
		"sByte":   func(v Value) bool { return v.Kind == ValueByte && v.Int() == 127 },
		"sShort":  func(v Value) bool { return v.Kind == ValueShort && v.Int() == -32768 },
		"sChar":   func(v Value) bool { return v.Kind == ValueChar && v.Int() == 'x' },
		"sInt":    func(v Value) bool { return v.Kind == ValueInt && v.Int() == math.MinInt32 },
		"sLong":   func(v Value) bool { return v.Kind == ValueLong && v.Int() == math.MaxInt64 },
		"sFloat":  func(v Value) bool { return v.Kind == ValueFloat && v.Float() == 3.5 },
		"sDouble": func(v Value) bool { return v.Kind == ValueDouble && v.Double() == -2.25 },
		"sBool":   func(v Value) bool { return v.Kind == ValueBoolean && v.Bool() },
		"sString": func(v Value) bool { return v.Kind == ValueString && f.Str(v.Index()) == want },
		"sType":   func(v Value) bool { return v.Kind == ValueType && f.TypeName(v.Index()) == "Ljava/lang/String;" },
		"sNull":   func(v Value) bool { return v.Kind == ValueNull },
	} {
		if v, ok := statics[name]; !ok || !check(v) {
			t.Errorf("static value of %s: %+v", name, v)
		}
	}

	// Annotations on the class, a field, a method and a parameter.
	dir := c.Annotations
	if dir == nil || dir.Class == nil || len(dir.Class.Items) != 2 || len(dir.Fields) != 1 || len(dir.Methods) != 1 || len(dir.Params) != 1 {
		t.Fatalf("annotations directory: %+v", dir)
	}
	if a := dir.Methods[0].Set.Items[0]; a.Visibility != VisibilitySystem || f.TypeName(a.Type) != "Ldalvik/annotation/Throws;" ||
		a.Elements[0].Value.Kind != ValueArray || f.TypeName(a.Elements[0].Value.Array[0].Index()) != "Ljava/lang/Exception;" {
		t.Errorf("method annotation: %+v", a)
	}
	if p := dir.Params[0]; len(p.Sets) != 1 || f.TypeName(p.Sets[0].Items[0].Type) != "Ljava/lang/Deprecated;" {
		t.Errorf("parameter annotations: %+v", p)
	}
	inner := classByName(t, f, "LFormats$Inner;")
	var ann *Annotation
	for j := range inner.Annotations.Class.Items {
		if f.TypeName(inner.Annotations.Class.Items[j].Type) == "LFormats$Ann;" {
			ann = &inner.Annotations.Class.Items[j]
		}
	}
	if ann == nil {
		t.Fatal("no LFormats$Ann annotation")
	}
	var kinds []ValueKind
	for _, e := range ann.Elements {
		kinds = append(kinds, e.Value.Kind)
		if f.Str(e.Name) == "arr" {
			for _, v := range e.Value.Array {
				kinds = append(kinds, v.Kind)
			}
		}
	}
	wantKinds := []ValueKind{ValueArray, ValueFloat, ValueDouble, ValueChar, ValueShort, ValueByte, ValueLong, ValueBoolean, ValueNull, ValueString,
		ValueEnum, ValueField, ValueMethod, ValueAnnotation}
	if !slices.Equal(kinds, wantKinds) {
		t.Errorf("annotation element kinds %v, want %v", kinds, wantKinds)
	}

	// Code: tries with typed and catch-all handlers, debug info, payloads.
	m := methodByName(t, f, "LFormats;", "formats")
	code := m.Code
	if code.Registers != 300 || code.Ins != 5 || len(code.Tries) != 1 {
		t.Fatalf("code: registers %d ins %d tries %d", code.Registers, code.Ins, len(code.Tries))
	}
	h := code.Handlers[code.Tries[0].Handler]
	if len(h.Catches) != 2 || f.TypeName(h.Catches[0].Type) != "Ljava/lang/ArithmeticException;" || !h.HasCatchAll {
		t.Errorf("handler: %+v", h)
	}
	var lines []uint32
	for _, p := range code.Debug.Positions() {
		lines = append(lines, p.Line)
	}
	if !slices.Equal(lines, []uint32{30, 31, 1000, 25, 40}) {
		t.Errorf("lines %v", lines)
	}
	var locals []string
	for _, l := range f.Locals(m) {
		name := "this"
		if !l.This {
			name = f.Str(l.Name)
		}
		if l.Sig != NoIndex {
			name += "<" + f.Str(l.Sig) + ">"
		}
		locals = append(locals, name)
	}
	if !slices.Equal(locals, []string{"a", "a", "b<Ljava/util/List<Ljava/lang/String;>;>", "this", "i", "j", "o"}) {
		t.Errorf("locals %v", locals)
	}
	var switches int
	for it := code.Iterator(); it.Next(); {
		in := it.Inst()
		target := int(in.Target(it.PC()))
		switch in.Op {
		case OpPackedSwitch:
			p, err := DecodePackedSwitch(code.Insns, target)
			if err != nil || p.FirstKey != -2 || len(p.Targets) != 3 {
				t.Errorf("packed switch %+v, %v", p, err)
			}
			switches++
		case OpSparseSwitch:
			p, err := DecodeSparseSwitch(code.Insns, target)
			if err != nil || !slices.Equal(p.Keys, []int32{math.MinInt32, 0, math.MaxInt32}) || len(p.Targets) != 3 {
				t.Errorf("sparse switch %+v, %v", p, err)
			}
			switches++
		case OpFillArrayData:
			p, err := DecodeArrayData(code.Insns, target)
			if err != nil || p.ElementWidth != 4 || p.Count != 3 || !bytes.Equal(p.Data, []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}) {
				t.Errorf("array data %+v, %v", p, err)
			}
			switches++
		}
	}
	if switches != 3 {
		t.Errorf("found %d payload users, want 3", switches)
	}
	if m := methodByName(t, f, "LFormats;", "nativeMethod"); m.Code != nil || m.Access&AccNative == 0 {
		t.Errorf("native method: %+v", m)
	}
}

func TestModelInvoke(t *testing.T) {
	_, f := readTestdata(t, "invoke.dex")
	if f.Header.Version != 39 || len(f.CallSites) != 2 || len(f.MethodHandles) != 6 {
		t.Fatalf("version %d, %d call sites, %d method handles", f.Header.Version, len(f.CallSites), len(f.MethodHandles))
	}
	kinds := map[uint16]bool{}
	for _, h := range f.MethodHandles {
		kinds[h.Kind] = true
	}
	for _, k := range []uint16{HandleInvokeStatic, HandleInvokeInstance, HandleStaticGet, HandleInstancePut} {
		if !kinds[k] {
			t.Errorf("no method handle of kind %d", k)
		}
	}
	for _, cs := range f.CallSites {
		if len(cs.Values) < 3 || cs.Values[0].Kind != ValueMethodHandle || cs.Values[1].Kind != ValueString || cs.Values[2].Kind != ValueMethodType {
			t.Errorf("call site %+v", cs)
		}
	}
	code := methodByName(t, f, "LInvoke;", "test").Code
	var ops []string
	for it := code.Iterator(); it.Next(); {
		in := it.Inst()
		switch in.Op.Format() {
		case Format45cc:
			if in.A != 3 || in.Args[0] != 9 || f.ProtoString(in.Proto) != "(II)V" {
				t.Errorf("45cc: %+v", in)
			}
		case Format4rcc:
			if in.A != 7 || in.C != 2 || f.ProtoString(in.Proto) != "(IIIIII)I" {
				t.Errorf("4rcc: %+v", in)
			}
		}
		ops = append(ops, in.String())
	}
	want := []string{"invoke-polymorphic", "invoke-polymorphic/range", "invoke-custom", "invoke-custom/range",
		"const-method-handle", "const-method-handle", "const-method-handle", "const-method-handle", "const-method-type", "return-void"}
	if !slices.Equal(ops, want) {
		t.Errorf("ops %v", ops)
	}
}

func TestTryAt(t *testing.T) {
	c := &Code{Tries: []Try{{Start: 2, Count: 3}, {Start: 5, Count: 1}, {Start: 10, Count: 4}}}
	for pc, want := range map[uint32]int{0: -1, 1: -1, 2: 0, 4: 0, 5: 1, 6: -1, 9: -1, 10: 2, 13: 2, 14: -1, 100: -1} {
		got := -1
		if try := c.TryAt(pc); try != nil {
			got = int(try.Start)
		}
		if want >= 0 {
			want = int(c.Tries[want].Start)
		}
		if got != want {
			t.Errorf("TryAt(%d) starts at %d, want %d", pc, got, want)
		}
	}
	if (&Code{}).TryAt(0) != nil {
		t.Error("TryAt in a method without tries")
	}
}
