package ast

import "strings"

// Access flags (DEX access_flags values).
const (
	AccPublic               uint32 = 0x1
	AccPrivate              uint32 = 0x2
	AccProtected            uint32 = 0x4
	AccStatic               uint32 = 0x8
	AccFinal                uint32 = 0x10
	AccSynchronized         uint32 = 0x20
	AccVolatile             uint32 = 0x40
	AccBridge               uint32 = 0x40
	AccTransient            uint32 = 0x80
	AccVarargs              uint32 = 0x80
	AccNative               uint32 = 0x100
	AccInterface            uint32 = 0x200
	AccAbstract             uint32 = 0x400
	AccStrict               uint32 = 0x800
	AccSynthetic            uint32 = 0x1000
	AccAnnotation           uint32 = 0x2000
	AccEnum                 uint32 = 0x4000
	AccConstructor          uint32 = 0x10000
	AccDeclaredSynchronized uint32 = 0x20000
)

var accessFlagValues = map[string]uint32{
	"public": AccPublic, "private": AccPrivate, "protected": AccProtected, "static": AccStatic,
	"final": AccFinal, "synchronized": AccSynchronized, "volatile": AccVolatile, "bridge": AccBridge,
	"transient": AccTransient, "varargs": AccVarargs, "native": AccNative, "interface": AccInterface,
	"abstract": AccAbstract, "strictfp": AccStrict, "synthetic": AccSynthetic,
	"annotation": AccAnnotation, "enum": AccEnum, "constructor": AccConstructor,
	"declared-synchronized": AccDeclaredSynchronized,
}

// AccessFlag returns the value of an access flag word, and false for any
// other word (such as a hidden API restriction).
func AccessFlag(name string) (uint32, bool) {
	v, ok := accessFlagValues[name]
	return v, ok
}

// AccessFlags is the union of the access flags among mods; hidden API
// restrictions are ignored.
func AccessFlags(mods []*Modifier) uint32 {
	var f uint32
	for _, m := range mods {
		f |= accessFlagValues[m.Name]
	}
	return f
}

// HasFlag reports whether mods include the access flag.
func HasFlag(mods []*Modifier, flag uint32) bool { return AccessFlags(mods)&flag != 0 }

// HiddenAPIRestrictions returns the modifiers that are not access flags.
func HiddenAPIRestrictions(mods []*Modifier) []string {
	var r []string
	for _, m := range mods {
		if _, ok := accessFlagValues[m.Name]; !ok {
			r = append(r, m.Name)
		}
	}
	return r
}

// Target is what access flags apply to; it decides how 0x40 and 0x80 are
// spelled (volatile/transient on fields, bridge/varargs on methods).
type Target uint8

// Flag targets.
const (
	ClassTarget Target = iota
	FieldTarget
	MethodTarget
)

var flagOrder = []struct {
	v    uint32
	name string
}{
	{AccPublic, "public"}, {AccPrivate, "private"}, {AccProtected, "protected"}, {AccStatic, "static"},
	{AccFinal, "final"}, {AccSynchronized, "synchronized"}, {0x40, ""}, {0x80, ""},
	{AccNative, "native"}, {AccInterface, "interface"}, {AccAbstract, "abstract"},
	{AccStrict, "strictfp"}, {AccSynthetic, "synthetic"}, {AccAnnotation, "annotation"},
	{AccEnum, "enum"}, {AccConstructor, "constructor"}, {AccDeclaredSynchronized, "declared-synchronized"},
}

// FlagNames spells flags as smali words, in baksmali's order. Bits that no
// word stands for are dropped.
func FlagNames(flags uint32, t Target) []string {
	var names []string
	for _, f := range flagOrder {
		if flags&f.v == 0 {
			continue
		}
		name := f.name
		switch f.v {
		case 0x40:
			name = map[Target]string{FieldTarget: "volatile", MethodTarget: "bridge"}[t]
		case 0x80:
			name = map[Target]string{FieldTarget: "transient", MethodTarget: "varargs"}[t]
		}
		if name != "" {
			names = append(names, name)
		}
	}
	return names
}

// Modifiers turns flags into modifier nodes (without positions).
func Modifiers(flags uint32, t Target) []*Modifier {
	var mods []*Modifier
	for _, n := range FlagNames(flags, t) {
		mods = append(mods, &Modifier{Name: n})
	}
	return mods
}

// IsPrimitive reports whether desc is a primitive type descriptor (not V).
func IsPrimitive(desc string) bool { return len(desc) == 1 && strings.Contains("ZBSCIJFD", desc) }

// IsWide reports whether desc is long or double, which take two registers.
func IsWide(desc string) bool { return desc == "J" || desc == "D" }
