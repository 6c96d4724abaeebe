package dex_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/dex"
)

func TestBuild(t *testing.T) {
	src := "Hello.java"
	str := func(s string) *string { return &s }
	obj := "Ljava/lang/Object;"
	printStream := "Ljava/io/PrintStream;"
	classes := []*dex.ClassSpec{{
		Type: "LHello;", Access: dex.AccPublic, Super: obj, SourceFile: &src,
		Interfaces: []string{"Ljava/lang/Runnable;"},
		StaticFields: []dex.FieldSpec{
			{Name: "b", Type: "I", Access: dex.AccStatic, Initial: &dex.ValueSpec{Kind: dex.ValueInt, Bits: 7}},
			{Name: "a", Type: "Ljava/lang/String;", Access: dex.AccStatic, Initial: &dex.ValueSpec{Kind: dex.ValueString, Str: "zz"}},
		},
		InstanceFields: []dex.FieldSpec{{Name: "x", Type: "J", Access: dex.AccPrivate}},
		Annotations: []dex.AnnotationSpec{{Visibility: dex.VisibilityRuntime, Type: "LAnno;",
			Elements: []dex.ElementSpec{{Name: "value", Value: dex.ValueSpec{Kind: dex.ValueType, Str: "LHello;"}}}}},
		DirectMethods: []dex.MethodSpec{{
			Name: "<init>", Proto: dex.ProtoSpec{Return: "V"}, Access: dex.AccPublic | dex.AccConstructor,
			Code: &dex.CodeSpec{Registers: 1, Ins: 1, Outs: 1, Insns: []dex.InsnSpec{
				{Op: 0x70, Regs: []int{0}, Ref: dex.MethodSpecRef{Class: obj, Name: "<init>", Proto: dex.ProtoSpec{Return: "V"}}},
				{Op: 0x0e},
			}},
		}},
		VirtualMethods: []dex.MethodSpec{{
			Name: "run", Proto: dex.ProtoSpec{Return: "V"}, Access: dex.AccPublic,
			Code: &dex.CodeSpec{Registers: 3, Ins: 1, Outs: 2, Insns: []dex.InsnSpec{
				{Op: 0x62, Regs: []int{0}, Ref: dex.FieldSpecRef{Class: "Ljava/lang/System;", Name: "out", Type: printStream}}, // 0
				{Op: 0x1a, Regs: []int{1}, Ref: "hello"}, // 2
				{Op: 0x6e, Regs: []int{0, 1}, Ref: dex.MethodSpecRef{Class: printStream, Name: "println", Proto: dex.ProtoSpec{Return: "V", Params: []string{"Ljava/lang/String;"}}}}, // 4
				{Op: 0x12, Regs: []int{0}, Lit: 1},    // 7
				{Op: 0x2b, Regs: []int{0}, Target: 4}, // 8: packed-switch -> 12
				{Op: 0x0e},                            // 11
				{Payload: &dex.PayloadSpec{Kind: dex.PackedSwitchPayload, FirstKey: 1, Targets: []int32{3}}}, // 12
			}, Tries: []dex.TrySpec{{Start: 0, Count: 7, Catches: []dex.CatchSpec{{Type: "Ljava/lang/Exception;", Addr: 11}}, CatchAll: -1}},
				Debug: &dex.DebugSpec{Events: []dex.DebugEvent{
					{Addr: 0, Kind: dex.DebugLine, Line: 10},
					{Addr: 2, Kind: dex.DebugStartLocal, Reg: 1, Name: str("s"), Type: str("Ljava/lang/String;")},
					{Addr: 4, Kind: dex.DebugLine, Line: 40},
					{Addr: 7, Kind: dex.DebugEndLocal, Reg: 1},
				}}},
		}},
	}}
	f, err := dex.Build(classes, 35)
	if err != nil {
		t.Fatal(err)
	}
	b, err := dex.Write(f)
	if err != nil {
		t.Fatal(err)
	}
	g, err := dex.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.ClassDefs) != 1 || len(g.Strings) != len(f.Strings) {
		t.Fatalf("read back %d classes, %d strings", len(g.ClassDefs), len(g.Strings))
	}
	writeTool(t, "dexdump")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.dex"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := dexdumpClean(t, dir, "x.dex")
	for _, want := range []string{`const-string v1, "hello"`, "invoke-virtual {v0, v1}, Ljava/io/PrintStream;.println:(Ljava/lang/String;)V",
		"packed-switch v0, 0000000c", "0x0004 line=40", "Ljava/lang/Exception; -> 0x000b", "reg=1 s Ljava/lang/String;"} {
		if !strings.Contains(out, want) {
			t.Errorf("dexdump output lacks %q:\n%s", want, out)
		}
	}
}

// TestBuildIndexOverflow: an index beyond 65535 in a 16-bit index field
// (const-string, const-class) is refused with a clear error, not
// truncated; const-string/jumbo takes it. The 65537 strings and types come
// from an annotation array, which is cheap to build.
func TestBuildIndexOverflow(t *testing.T) {
	build := func(kind dex.ValueKind, in dex.InsnSpec) error {
		arr := dex.ValueSpec{Kind: dex.ValueArray}
		for i := range 65537 {
			s := fmt.Sprintf("La%05d;", i)
			arr.Array = append(arr.Array, dex.ValueSpec{Kind: kind, Str: s})
		}
		classes := []*dex.ClassSpec{{
			Type: "LA;", Access: dex.AccPublic, Super: "Ljava/lang/Object;",
			Annotations: []dex.AnnotationSpec{{Visibility: dex.VisibilityBuild, Type: "LAnno;",
				Elements: []dex.ElementSpec{{Name: "value", Value: arr}}}},
			DirectMethods: []dex.MethodSpec{{Name: "f", Proto: dex.ProtoSpec{Return: "V"}, Access: dex.AccStatic,
				Code: &dex.CodeSpec{Registers: 1, Insns: []dex.InsnSpec{in, {Op: 0x0e}}}}},
		}}
		if kind == dex.ValueString {
			idx, err := dex.StringIndices(classes)
			if err != nil {
				t.Fatal(err)
			}
			if got := idx["zz"]; got <= 0xffff {
				t.Errorf("StringIndices: zz has index %d, want beyond 0xffff", got)
			}
		}
		_, err := dex.Build(classes, 35)
		return err
	}
	for _, c := range []struct {
		kind dex.ValueKind
		in   dex.InsnSpec
		want string // "" for success
	}{
		{dex.ValueString, dex.InsnSpec{Op: 0x1a, Regs: []int{0}, Ref: "zz"}, "does not fit its 16-bit field; use const-string/jumbo"},
		{dex.ValueString, dex.InsnSpec{Op: 0x1b, Regs: []int{0}, Ref: "zz"}, ""},
		{dex.ValueType, dex.InsnSpec{Op: 0x1c, Regs: []int{0}, Ref: "Lzz;"}, "const-class: index 655"},
	} {
		err := build(c.kind, c.in)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.in.Op, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: got %v, want an error containing %q", c.in.Op, err, c.want)
		}
	}
}
