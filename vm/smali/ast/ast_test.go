package ast

import (
	"strings"
	"testing"
)

func TestPosString(t *testing.T) {
	tests := []struct {
		pos  Pos
		want string
	}{
		{Pos{}, "-"},
		{Pos{File: "LFoo;->m()V"}, "LFoo;->m()V"},
		{Pos{Line: 3, Col: 7}, "3:7"},
		{Pos{File: "Foo.smali", Line: 3, Col: 7}, "Foo.smali:3:7"},
	}
	for _, tt := range tests {
		if got := tt.pos.String(); got != tt.want {
			t.Errorf("%#v: %q, want %q", tt.pos, got, tt.want)
		}
	}
}

func TestFlags(t *testing.T) {
	tests := []struct {
		flags  uint32
		target Target
		want   string
	}{
		{AccPublic | AccStatic | AccFinal, FieldTarget, "public static final"},
		{AccPrivate | AccVolatile | AccTransient, FieldTarget, "private volatile transient"},
		{AccPublic | AccBridge | AccVarargs | AccSynthetic, MethodTarget, "public bridge varargs synthetic"},
		{AccPublic | AccInterface | AccAbstract | AccAnnotation, ClassTarget, "public interface abstract annotation"},
		{AccConstructor | AccDeclaredSynchronized | AccNative | AccStrict | AccEnum, MethodTarget,
			"native strictfp enum constructor declared-synchronized"},
		{0x40 | 0x80, ClassTarget, ""},
	}
	for _, tt := range tests {
		got := strings.Join(FlagNames(tt.flags, tt.target), " ")
		if got != tt.want {
			t.Errorf("FlagNames(%#x, %v) = %q, want %q", tt.flags, tt.target, got, tt.want)
		}
		if tt.want != "" && AccessFlags(Modifiers(tt.flags, tt.target)) != tt.flags {
			t.Errorf("AccessFlags(Modifiers(%#x)) = %#x", tt.flags, AccessFlags(Modifiers(tt.flags, tt.target)))
		}
	}
	mods := []*Modifier{{Name: "public"}, {Name: "whitelist"}, {Name: "static"}}
	if AccessFlags(mods) != AccPublic|AccStatic || !HasFlag(mods, AccStatic) || HasFlag(mods, AccFinal) {
		t.Error("AccessFlags/HasFlag")
	}
	if r := HiddenAPIRestrictions(mods); len(r) != 1 || r[0] != "whitelist" {
		t.Errorf("HiddenAPIRestrictions = %v", r)
	}
}

func TestProto(t *testing.T) {
	p := &Proto{Params: []string{"I", "J", "[D", "Ljava/lang/String;", "D"}, Return: "V"}
	if p.ParamRegisters() != 7 {
		t.Errorf("ParamRegisters = %d, want 7", p.ParamRegisters())
	}
	if d := p.Descriptor(); d != "(IJ[DLjava/lang/String;D)V" {
		t.Errorf("Descriptor = %q", d)
	}
	if r := (&Register{Param: true, Num: 2}).String(); r != "p2" {
		t.Errorf("register %q", r)
	}
}

func TestUnits(t *testing.T) {
	for _, s := range []string{"", "abc", "é☃😀", "\x00", string(DecodeUnits([]uint16{0xd800})),
		string(DecodeUnits([]uint16{0xdfff, 0xd800}))} {
		if got := DecodeUnits(EncodeUnits(s)); got != s {
			t.Errorf("%q -> %q", s, got)
		}
	}
	if u := EncodeUnits("😀"); len(u) != 2 || u[0] != 0xd83d || u[1] != 0xde00 {
		t.Errorf("EncodeUnits(😀) = %x", u)
	}
	if s := DecodeUnits([]uint16{0xd83d, 0xde00}); s != "😀" {
		t.Errorf("DecodeUnits = %q", s)
	}
}
