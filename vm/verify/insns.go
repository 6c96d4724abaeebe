package verify

import (
	"github.com/droidprof/droidprof/vm/dex"
)

// exec checks the operand types of the instruction at pc against the
// current line and applies its effect on the registers.
func (v *verifier) exec(pc int, in *dex.Instruction) {
	nregs := uint32(v.code.Registers)
	op := uint8(in.Op)
	switch {
	case op == 0x00:
	case op >= 0x01 && op <= 0x03: // move
		v.set(in.A, v.useCat1(in.B))
	case op >= 0x04 && op <= 0x06: // move-wide: read both halves first
		lo := v.useAnyWide(in.B)
		v.setWide(in.A, lo)
	case op >= 0x07 && op <= 0x09: // move-object (uninitialised ones too)
		t := v.get(in.B)
		if !t.isRef() && t.k != kUninit && t.k != kUninitThis {
			v.fail("copy1 v%d<-v%d type=%s cat=ref", in.A, in.B, t)
		}
		v.set(in.A, t)
	case op >= 0x0a && op <= 0x0c: // move-result*
		res, hi := v.cur[nregs], v.cur[nregs+1]
		ok := false
		switch op {
		case 0x0a:
			ok = res.category1()
		case 0x0b:
			ok = (res.k == kLongLo || res.k == kDoubleLo) && hi == hiOf(res)
		case 0x0c:
			ok = res.k == kRef
		}
		if !ok {
			if res.k == kUndef {
				v.fail("%s not after an invoke or filled-new-array", in.Op)
			}
			v.fail("%s of a result of type %s", in.Op, res)
		}
		if op == 0x0b {
			v.setWide(in.A, res)
		} else {
			v.set(in.A, res)
		}
	case op == 0x0d: // move-exception
		if v.flags[pc]&fHandler == 0 {
			v.fail("move-exception at %#x is not the start of a handler", pc)
		}
		exc := ""
		for i, d := range v.catches[pc] {
			if d == "" {
				d = "Ljava/lang/Throwable;"
			}
			if i == 0 {
				exc = d
			} else {
				exc = v.join(exc, d)
			}
		}
		v.set(in.A, ref(exc))
	case op == 0x0e: // return-void
		if v.ret != "V" {
			v.fail("return-void not expected")
		}
		v.checkCtorReturn()
	case op == 0x0f:
		if v.ret == "V" || v.ret == "J" || v.ret == "D" || isRefDesc(v.ret) {
			v.fail("return not expected for a method returning %s", prettyType(v.ret))
		}
		v.use32(in.A, v.ret[0])
	case op == 0x10:
		if v.ret != "J" && v.ret != "D" {
			v.fail("return-wide not expected for a method returning %s", prettyType(v.ret))
		}
		v.useWide(in.A, v.ret[0])
	case op == 0x11:
		if !isRefDesc(v.ret) {
			v.fail("return-object not expected for a method returning %s", prettyType(v.ret))
		}
		t := v.useRef(in.A)
		if t.k == kRef && !v.assignable(v.ret, t.desc) {
			v.fail("returning '%s', but expected from declaration '%s'", t, ref(v.ret))
		}
		v.checkCtorReturn()
	case op >= 0x12 && op <= 0x15: // const
		if in.Lit == 0 {
			v.set(in.A, tZero)
		} else {
			v.set(in.A, tConst)
		}
	case op >= 0x16 && op <= 0x19:
		v.setWide(in.A, tConstLo)
	case op == 0x1a || op == 0x1b:
		v.set(in.A, ref("Ljava/lang/String;"))
	case op == 0x1c:
		v.set(in.A, ref("Ljava/lang/Class;"))
	case op == 0x1d || op == 0x1e:
		v.useRef(in.A)
	case op == 0x1f: // check-cast
		d := v.typeName(in.Index)
		if !isRefDesc(d) {
			v.fail("check-cast on unexpected class %s", prettyType(d))
		}
		v.useRef(in.A)
		v.set(in.A, ref(d))
	case op == 0x20: // instance-of
		d := v.typeName(in.Index)
		if !isRefDesc(d) {
			v.fail("instance-of on unexpected class %s", prettyType(d))
		}
		v.useRef(in.B)
		v.set(in.A, tInt)
	case op == 0x21: // array-length
		t := v.useRef(in.B)
		if t.k == kRef && t.desc != "" && t.desc[0] != '[' {
			v.fail("array-length on non-array %s", t)
		}
		v.set(in.A, tInt)
	case op == 0x22: // new-instance
		d := v.typeName(in.Index)
		for i := uint32(0); i < nregs; i++ {
			if v.cur[i].k == kUninit && v.cur[i].pc == int32(pc) {
				v.cur[i] = tUndef
			}
		}
		v.set(in.A, regType{k: kUninit, desc: d, pc: int32(pc)})
	case op == 0x23: // new-array
		v.useInt(in.B)
		v.set(in.A, ref(v.typeName(in.Index)))
	case op == 0x24 || op == 0x25:
		d := v.typeName(in.Index)
		comp := d[1:]
		if comp[0] != 'I' && !isRefDesc(comp) {
			v.fail("filled-new-array on array of type %s unsupported", prettyType(d))
		}
		for _, r := range v.argRegs(in) {
			v.use(r, comp)
		}
		v.cur[nregs], v.cur[nregs+1] = ref(d), tUndef
	case op == 0x26: // fill-array-data
		t := v.useRef(in.A)
		if t.k == kRef && t.desc != "" {
			if t.desc[0] != '[' || len(t.desc) != 2 || isRefDesc(t.desc[1:]) {
				v.fail("invalid fill-array-data with array type %s", t)
			}
			w := v.insn[int64(pc)+in.Lit].A
			if w != elemSize(t.desc[1]) {
				v.fail("array-data size mismatch (%d vs %d)", elemSize(t.desc[1]), w)
			}
		}
	case op == 0x27: // throw
		t := v.useRef(in.A)
		if t.k == kRef && !v.assignable("Ljava/lang/Throwable;", t.desc) {
			v.fail("thrown class %s not instanceof Throwable", t)
		}
	case op >= 0x28 && op <= 0x2a:
	case op == 0x2b || op == 0x2c:
		v.useInt(in.A)
	case op == 0x2d || op == 0x2e:
		v.useFloat(in.B)
		v.useFloat(in.C)
		v.set(in.A, tInt)
	case op == 0x2f || op == 0x30:
		v.useWide(in.B, 'D')
		v.useWide(in.C, 'D')
		v.set(in.A, tInt)
	case op == 0x31:
		v.useWide(in.B, 'J')
		v.useWide(in.C, 'J')
		v.set(in.A, tInt)
	case op == 0x32 || op == 0x33: // if-eq, if-ne
		a, b := v.get(in.A), v.get(in.B)
		aRef := a.isRef() || a.k == kUninit || a.k == kUninitThis
		bRef := b.isRef() || b.k == kUninit || b.k == kUninitThis
		if !(aRef && bRef) && !(a.category1() && b.category1()) {
			v.fail("args to if-eq/if-ne (%s,%s) must both be references or integral", a, b)
		}
	case op >= 0x34 && op <= 0x37:
		v.useInt(in.A)
		v.useInt(in.B)
	case op == 0x38 || op == 0x39:
		if t := v.get(in.A); !t.category1() && !t.isRef() && t.k != kUninit && t.k != kUninitThis {
			v.fail("type %s unexpected as arg to if-eqz/if-nez", t)
		}
	case op >= 0x3a && op <= 0x3d:
		v.useInt(in.A)
	case op >= 0x44 && op <= 0x51:
		v.array(in, op)
	case op >= 0x52 && op <= 0x6d:
		v.field(in, op)
	case op >= 0x6e && op <= 0x78:
		v.invoke(pc, in, op)
	case op >= 0x7b && op <= 0xe2:
		v.arith(in, op)
	case op == 0xfa || op == 0xfb: // invoke-polymorphic
		regs := v.argRegs(in)
		if len(regs) == 0 {
			v.fail("invoke-polymorphic without a receiver")
		}
		v.useRef(regs[0])
		v.result(v.typeName(v.f.Protos[in.Proto].Return))
	case op == 0xfc || op == 0xfd: // invoke-custom
		cs := v.f.CallSites[in.Index]
		if len(cs.Values) < 3 || cs.Values[2].Kind != dex.ValueMethodType || cs.Values[2].Bits >= uint64(len(v.f.Protos)) {
			v.fail("malformed call site %d", in.Index)
		}
		v.argRegs(in)
		v.result(v.typeName(v.f.Protos[cs.Values[2].Bits].Return))
	case op == 0xfe:
		v.set(in.A, ref("Ljava/lang/invoke/MethodHandle;"))
	case op == 0xff:
		v.set(in.A, ref("Ljava/lang/invoke/MethodType;"))
	default:
		v.fail("unexpected opcode %s", in.Op)
	}
}

// checkCtorReturn rejects a constructor that returns before calling its
// super class's (or another of its own) constructor.
func (v *verifier) checkCtorReturn() {
	for _, t := range v.cur[:v.code.Registers] {
		if t.k == kUninitThis {
			v.fail("Constructor returning without calling superclass constructor")
		}
	}
}

// result records an invoke's result for the move-result that follows.
func (v *verifier) result(d string) {
	n := v.code.Registers
	switch {
	case d == "V":
		v.cur[n], v.cur[n+1] = tUndef, tUndef
	case width(d) == 2:
		lo := fromDesc(d)
		v.cur[n], v.cur[n+1] = lo, hiOf(lo)
	default:
		v.cur[n], v.cur[n+1] = fromDesc(d), tUndef
	}
}

// argRegs lists an invoke's (or filled-new-array's) argument registers.
func (v *verifier) argRegs(in *dex.Instruction) []uint32 {
	out := make([]uint32, in.A)
	switch in.Op.Format() {
	case dex.Format35c, dex.Format45cc:
		for i := range out {
			out[i] = uint32(in.Args[i])
		}
	default:
		for i := range out {
			out[i] = in.C + uint32(i)
		}
	}
	for _, r := range out {
		v.get(r)
	}
	return out
}

func elemSize(c byte) uint32 {
	switch c {
	case 'Z', 'B':
		return 1
	case 'S', 'C':
		return 2
	case 'J', 'D':
		return 8
	}
	return 4
}

// Element descriptors of the aget/aput variants, in opcode order.
var arrayKinds = [7]string{"I", "J", "L", "Z", "B", "C", "S"}

// array checks aget* and aput*.
func (v *verifier) array(in *dex.Instruction, op uint8) {
	put := op >= 0x4b
	k := arrayKinds[(op-0x44)%7]
	arr := v.useRef(in.B)
	v.useInt(in.C)
	elem := "" // the element descriptor, "" if unknown
	if arr.k == kRef && arr.desc != "" {
		if arr.desc[0] != '[' {
			v.fail("%s on non-array %s", in.Op, arr)
		}
		elem = arr.desc[1:]
		ok := false
		switch k {
		case "I":
			ok = elem == "I" || elem == "F"
		case "J":
			ok = elem == "J" || elem == "D"
		case "L":
			ok = isRefDesc(elem)
		default:
			ok = elem == k
		}
		if !ok {
			v.fail("array type %s incompatible with %s", arr, in.Op)
		}
	}
	if put {
		switch {
		case k == "L":
			v.useRef(in.A) // the element type is checked at run time (ArrayStoreException)
		case elem != "":
			v.use(in.A, elem)
		case k == "J":
			v.useAnyWide(in.A)
		default:
			v.useCat1(in.A)
		}
		return
	}
	switch {
	case elem != "":
		v.setDesc(in.A, elem)
	case k == "L":
		// From a null array too: ART does not let that null pass as an
		// int (518-null-array-get).
		v.set(in.A, ref(""))
	case k == "J":
		v.setWide(in.A, tConstLo)
	case k == "I":
		v.set(in.A, tConst)
	default:
		v.set(in.A, tInt)
	}
}

// Field descriptors of the iget/iput/sget/sput variants, in opcode order.
var fieldKinds = [7]string{"I", "J", "L", "Z", "B", "C", "S"}

// field checks iget*, iput*, sget* and sput*.
func (v *verifier) field(in *dex.Instruction, op uint8) {
	static := op >= 0x60
	var base uint8 = 0x52
	if static {
		base = 0x60
	}
	put := op-base >= 7
	k := fieldKinds[(op-base)%7]
	fr := v.f.Fields[in.Index]
	d := v.typeName(fr.Type)
	ok := false
	switch k {
	case "I":
		ok = d == "I" || d == "F"
	case "J":
		ok = d == "J" || d == "D"
	case "L":
		ok = isRefDesc(d)
	default:
		ok = d == k
	}
	if !ok {
		v.fail("expected field %s.%s to be of type '%s' but found type '%s'",
			prettyType(v.typeName(fr.Class)), v.f.Strings[fr.Name], k, d)
	}
	valReg := in.A
	if !static {
		cls := v.typeName(fr.Class)
		obj := v.get(in.B)
		switch {
		case obj.k == kUninitThis && cls == v.class:
			// A constructor may store its own fields before the super call.
		case obj.k == kUninit || obj.k == kUninitThis:
			v.fail("cannot access instance field %s.%s of a not fully initialized object", prettyType(cls), v.f.Strings[fr.Name])
		default:
			t := v.useRef(in.B)
			if t.k == kRef && !v.assignable(cls, t.desc) {
				v.fail("cannot access instance field %s.%s from object of type %s", prettyType(cls), v.f.Strings[fr.Name], t)
			}
		}
	}
	if put {
		v.use(valReg, d)
	} else {
		v.setDesc(valReg, d)
	}
}

// invoke checks an invoke-kind instruction's receiver and arguments
// against the callee's prototype and records its result.
func (v *verifier) invoke(pc int, in *dex.Instruction, op uint8) {
	v.checkArgCount(in)
	kind := op
	if kind >= 0x74 {
		kind -= 6
	}
	m := v.f.Methods[in.Index]
	p := v.f.Protos[m.Proto]
	cls := v.typeName(m.Class)
	name := v.f.Strings[m.Name]
	regs := v.argRegs(in)
	i := 0
	if kind != 0x71 {
		r := regs[0]
		t := v.get(r)
		if name == "<init>" {
			if t.k != kUninit && t.k != kUninitThis {
				v.fail("Expected initialization on uninitialized reference %s", t)
			}
			init := ref(t.desc)
			for j := uint32(0); j < uint32(v.code.Registers); j++ {
				if u := v.cur[j]; u.k == t.k && u.pc == t.pc && u.desc == t.desc {
					v.cur[j] = init
				}
			}
		} else {
			t = v.useRef(r)
			if t.k == kRef && !v.assignable(cls, t.desc) {
				v.fail("'this' argument '%s' not instance of '%s'", t, ref(cls))
			}
		}
		i = 1
	}
	for _, pt := range p.Params {
		d := v.typeName(pt)
		r := regs[i]
		if width(d) == 2 {
			if regs[i+1] != r+1 {
				v.fail("Rejecting invocation, long or double parameter at index %d is not a pair: %d + %d", i, r, regs[i+1])
			}
			i++
		}
		v.use(r, d)
		i++
	}
	v.result(v.typeName(p.Return))
}

// Operand classes of the unary and binary arithmetic opcodes: result,
// first and second operand ('I', 'J', 'F', 'D').
func arithTypes(op uint8) (dst, a, b byte) {
	switch {
	case op >= 0x7b && op <= 0x8f:
		t := [...]string{"II", "II", "JJ", "JJ", "FF", "DD", "JI", "FI", "DI", "IJ", "FJ", "DJ", "IF", "JF", "DF", "ID", "JD", "FD", "II", "II", "II"}[op-0x7b]
		return t[0], t[1], 0
	case op >= 0x90 && op <= 0xcf:
		i := (op - 0x90) % 0x20
		switch {
		case i <= 0x0a:
			return 'I', 'I', 'I'
		case i <= 0x12:
			return 'J', 'J', 'J'
		case i <= 0x15:
			return 'J', 'J', 'I' // long shifts take an int distance
		case i <= 0x1a:
			return 'F', 'F', 'F'
		default:
			return 'D', 'D', 'D'
		}
	}
	return 'I', 'I', 0 // the /lit16 and /lit8 forms
}

func (v *verifier) useClass(r uint32, c byte) {
	if c == 'J' || c == 'D' {
		v.useWide(r, c)
	} else {
		v.use32(r, c)
	}
}

func (v *verifier) setClass(r uint32, c byte) {
	switch c {
	case 'J':
		v.setWide(r, tLongLo)
	case 'D':
		v.setWide(r, tDoubleLo)
	case 'F':
		v.set(r, tFloat)
	default:
		v.set(r, tInt)
	}
}

// arith checks the unary, binary, /2addr and literal arithmetic opcodes.
func (v *verifier) arith(in *dex.Instruction, op uint8) {
	dst, a, b := arithTypes(op)
	switch {
	case op <= 0x8f, op >= 0xd0: // vA = op vB (, #lit)
		v.useClass(in.B, a)
	case op <= 0xaf: // vA = vB op vC
		v.useClass(in.B, a)
		v.useClass(in.C, b)
	default: // vA = vA op vB
		v.useClass(in.A, a)
		v.useClass(in.B, b)
	}
	v.setClass(in.A, dst)
}
