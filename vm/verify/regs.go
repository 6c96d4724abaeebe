package verify

// Register access for the transfer functions: reads check the type an
// instruction needs, writes keep wide pairs consistent.

func (v *verifier) get(r uint32) regType {
	if r >= uint32(v.code.Registers) {
		v.fail("register v%d out of range (>= %d)", r, v.code.Registers)
	}
	return v.cur[r]
}

func (v *verifier) typeErr(r uint32, t regType, want string) {
	v.fail("register v%d has type %s but expected %s", r, t, want)
}

// useInt checks a 32-bit integral operand.
func (v *verifier) useInt(r uint32) {
	if t := v.get(r); t.k != kZero && t.k != kConst && t.k != kInt {
		v.typeErr(r, t, "Integer")
	}
}

// useFloat checks a float operand.
func (v *verifier) useFloat(r uint32) {
	if t := v.get(r); t.k != kZero && t.k != kConst && t.k != kFloat {
		v.typeErr(r, t, "Float")
	}
}

// use32 checks a category-1 operand of descriptor class c ('I' or 'F';
// 'Z', 'B', 'S', 'C' count as 'I').
func (v *verifier) use32(r uint32, c byte) {
	if c == 'F' {
		v.useFloat(r)
	} else {
		v.useInt(r)
	}
}

// useCat1 checks an operand that may be any 32-bit non-reference value.
func (v *verifier) useCat1(r uint32) regType {
	t := v.get(r)
	if !t.category1() {
		v.typeErr(r, t, "a 32-bit primitive")
	}
	return t
}

// useWide checks the pair r, r+1 holds a long ('J') or double ('D').
func (v *verifier) useWide(r uint32, c byte) {
	lo := v.get(r)
	hi := v.get(r + 1)
	want, wantHi, name := kLongLo, kLongHi, "Long"
	if c == 'D' {
		want, wantHi, name = kDoubleLo, kDoubleHi, "Double"
	}
	if !(lo.k == want && hi.k == wantHi) && !(lo.k == kConstLo && hi.k == kConstHi) {
		if lo.k == want || lo.k == kConstLo {
			v.fail("wide register pair v%d/v%d broken: high half has type %s", r, r+1, hi)
		}
		v.typeErr(r, lo, name+" (Low Half)")
	}
}

// useAnyWide checks the pair r, r+1 holds a wide value and returns its
// low half's type.
func (v *verifier) useAnyWide(r uint32) regType {
	lo := v.get(r)
	hi := v.get(r + 1)
	switch {
	case lo.k == kLongLo && hi.k == kLongHi, lo.k == kDoubleLo && hi.k == kDoubleHi, lo.k == kConstLo && hi.k == kConstHi:
		return lo
	}
	v.fail("copy2 v%d type=%s/%s is not a wide pair", r, lo, hi)
	return tUndef
}

// useRef checks a reference operand (null included) and returns its type.
func (v *verifier) useRef(r uint32) regType {
	t := v.get(r)
	if !t.isRef() {
		if t.k == kUninit || t.k == kUninitThis {
			v.fail("register v%d holds an uninitialized reference (%s)", r, t)
		}
		v.fail("tried to get class from non-reference register v%d (type=%s)", r, t)
	}
	return t
}

// use checks an operand against a field, parameter or element
// descriptor d.
func (v *verifier) use(r uint32, d string) {
	switch d[0] {
	case 'J', 'D':
		v.useWide(r, d[0])
	case 'L', '[':
		t := v.useRef(r)
		if t.k == kRef && !v.assignable(d, t.desc) {
			v.fail("register v%d has type %s but expected %s", r, t, ref(d))
		}
	default:
		v.use32(r, d[0])
	}
}

// set writes a category-1 or reference type, breaking any wide pair the
// register was part of.
func (v *verifier) set(r uint32, t regType) {
	v.get(r)
	v.clobber(r)
	v.cur[r] = t
}

// setWide writes a wide type to r, r+1.
func (v *verifier) setWide(r uint32, lo regType) {
	v.get(r + 1)
	v.clobber(r)
	v.clobber(r + 1)
	v.cur[r], v.cur[r+1] = lo, hiOf(lo)
}

// setDesc writes a value of descriptor d.
func (v *verifier) setDesc(r uint32, d string) {
	t := fromDesc(d)
	if width(d) == 2 {
		v.setWide(r, t)
	} else {
		v.set(r, t)
	}
}

// clobber invalidates the other half of a wide pair r belongs to.
func (v *verifier) clobber(r uint32) {
	switch v.cur[r].k {
	case kLongLo, kDoubleLo, kConstLo:
		if int(r)+1 < int(v.code.Registers) {
			v.cur[r+1] = tUndef
		}
	case kLongHi, kDoubleHi, kConstHi:
		if r > 0 {
			v.cur[r-1] = tUndef
		}
	}
}
