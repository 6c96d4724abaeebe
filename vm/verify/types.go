package verify

import "strings"

// kind is the category of a register's value in the type lattice. It is
// coarser than ART's reg_type: the byte/short/char/boolean sub-ranges of
// int are one kind, and constants are not tracked by value except zero,
// which alone may stand for null.
type kind uint8

const (
	kUndef      kind = iota // never written, or a conflict of incompatible merges
	kZero                   // the constant 0: int, float, boolean or null
	kConst                  // another 32-bit constant: int or float
	kInt                    // int, boolean, byte, short, char
	kFloat                  // float
	kRef                    // an initialised reference (desc; "" when unknown)
	kUninit                 // new-instance's result before <init> (desc, pc)
	kUninitThis             // this in a constructor before the super call
	kConstLo                // low half of a wide constant: long or double
	kConstHi                // its high half
	kLongLo                 // low half of a long
	kLongHi                 // its high half
	kDoubleLo               // low half of a double
	kDoubleHi               // its high half
)

// regType is the verifier's type of one register.
type regType struct {
	k    kind
	pc   int32  // for kUninit: the new-instance's dex pc
	desc string // for kRef, kUninit, kUninitThis: the class descriptor
}

var (
	tUndef    = regType{k: kUndef}
	tZero     = regType{k: kZero}
	tConst    = regType{k: kConst}
	tInt      = regType{k: kInt}
	tFloat    = regType{k: kFloat}
	tConstLo  = regType{k: kConstLo}
	tConstHi  = regType{k: kConstHi}
	tLongLo   = regType{k: kLongLo}
	tLongHi   = regType{k: kLongHi}
	tDoubleLo = regType{k: kDoubleLo}
	tDoubleHi = regType{k: kDoubleHi}
)

func ref(desc string) regType { return regType{k: kRef, desc: desc} }

const objectDesc = "Ljava/lang/Object;"

// String names the type as ART's verifier messages do.
func (t regType) String() string {
	switch t.k {
	case kUndef:
		return "Undefined"
	case kZero:
		return "Zero/null"
	case kConst:
		return "Constant"
	case kInt:
		return "Integer"
	case kFloat:
		return "Float"
	case kRef:
		if t.desc == "" {
			return "Unresolved Reference"
		}
		return "Reference: " + prettyType(t.desc)
	case kUninit:
		return "Uninitialized Reference: " + prettyType(t.desc)
	case kUninitThis:
		return "Uninitialized This Reference: " + prettyType(t.desc)
	case kConstLo:
		return "Low-half Constant"
	case kConstHi:
		return "High-half Constant"
	case kLongLo:
		return "Long (Low Half)"
	case kLongHi:
		return "Long (High Half)"
	case kDoubleLo:
		return "Double (Low Half)"
	case kDoubleHi:
		return "Double (High Half)"
	}
	return "?"
}

// isRef reports whether t may be used where a reference is expected.
func (t regType) isRef() bool { return t.k == kRef || t.k == kZero }

// category1 reports whether t is a 32-bit non-reference value.
func (t regType) category1() bool {
	return t.k == kZero || t.k == kConst || t.k == kInt || t.k == kFloat
}

// merge is the least upper bound of two register types at a control-flow
// join; incompatible types give kUndef, which no instruction accepts.
func (v *verifier) merge(a, b regType) regType {
	if a == b {
		return a
	}
	switch {
	case a.k == kZero && (b.category1() || b.k == kRef):
		return b
	case b.k == kZero && (a.category1() || a.k == kRef):
		return a
	case a.k == kConst && (b.k == kInt || b.k == kFloat):
		return b
	case b.k == kConst && (a.k == kInt || a.k == kFloat):
		return a
	case a.k == kRef && b.k == kRef:
		return ref(v.join(a.desc, b.desc))
	case a.k == kConstLo && (b.k == kLongLo || b.k == kDoubleLo):
		return b
	case b.k == kConstLo && (a.k == kLongLo || a.k == kDoubleLo):
		return a
	case a.k == kConstHi && (b.k == kLongHi || b.k == kDoubleHi):
		return b
	case b.k == kConstHi && (a.k == kLongHi || a.k == kDoubleHi):
		return a
	}
	return tUndef
}

// join is the most specific common super class of two reference types,
// "" when it cannot be known (a class that does not resolve), which
// defers the checks that depend on it to run time as ART's soft failures
// do. Interfaces join to Object, as in ART.
func (v *verifier) join(a, b string) string {
	if a == b {
		return a
	}
	if a == "" || b == "" {
		return ""
	}
	if a[0] == '[' || b[0] == '[' {
		if a[0] == '[' && b[0] == '[' && isRefDesc(a[1:]) && isRefDesc(b[1:]) {
			if c := v.join(a[1:], b[1:]); c != "" {
				return "[" + c
			}
			return ""
		}
		return objectDesc
	}
	var chain []string
	for c := a; c != ""; {
		chain = append(chain, c)
		info, ok := v.h.Lookup(c)
		if !ok {
			return ""
		}
		if info.Interface {
			return objectDesc
		}
		c = info.Super
	}
	for c := b; c != ""; {
		for _, x := range chain {
			if x == c {
				return c
			}
		}
		info, ok := v.h.Lookup(c)
		if !ok {
			return ""
		}
		if info.Interface {
			return objectDesc
		}
		c = info.Super
	}
	return objectDesc
}

// assignable reports whether a value of reference type from may be used
// where to is expected. It is true when either side is unknown (ART's
// soft failure: the interpreter checks at run time) and for every
// interface target, which the verifier treats like Object.
func (v *verifier) assignable(to, from string) bool {
	if to == from || to == "" || from == "" || to == objectDesc {
		return true
	}
	if to[0] == '[' {
		if from[0] != '[' {
			return false
		}
		tc, fc := to[1:], from[1:]
		if !isRefDesc(tc) || !isRefDesc(fc) {
			return tc == fc
		}
		return v.assignable(tc, fc)
	}
	if !isRefDesc(to) {
		return false
	}
	info, ok := v.h.Lookup(to)
	if !ok || info.Interface {
		return true
	}
	if from[0] == '[' {
		return false // only Object (handled above) and interfaces take arrays
	}
	for c := from; c != ""; {
		if c == to {
			return true
		}
		fi, ok := v.h.Lookup(c)
		if !ok {
			return true
		}
		c = fi.Super
	}
	return false
}

// isRefDesc reports whether a type descriptor names a reference type.
func isRefDesc(d string) bool { return d != "" && (d[0] == 'L' || d[0] == '[') }

// fromDesc is the register type of a value of descriptor d (the low half
// for wide types).
func fromDesc(d string) regType {
	switch d[0] {
	case 'Z', 'B', 'S', 'C', 'I':
		return tInt
	case 'F':
		return tFloat
	case 'J':
		return tLongLo
	case 'D':
		return tDoubleLo
	}
	return ref(d)
}

// hiOf is the high half matching a wide low half.
func hiOf(lo regType) regType {
	switch lo.k {
	case kLongLo:
		return tLongHi
	case kDoubleLo:
		return tDoubleHi
	}
	return tConstHi
}

// prettyType is the Java source form of a descriptor ("int[]",
// "java.lang.String"), as ART's messages print types.
func prettyType(desc string) string {
	dims := 0
	for strings.HasPrefix(desc, "[") {
		dims++
		desc = desc[1:]
	}
	var s string
	switch desc {
	case "Z":
		s = "boolean"
	case "B":
		s = "byte"
	case "S":
		s = "short"
	case "C":
		s = "char"
	case "I":
		s = "int"
	case "J":
		s = "long"
	case "F":
		s = "float"
	case "D":
		s = "double"
	case "V":
		s = "void"
	default:
		s = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(desc, "L"), ";"), "/", ".")
	}
	return s + strings.Repeat("[]", dims)
}
