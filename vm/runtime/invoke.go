package runtime

import (
	"math"
	"strconv"
)

// The invoke kinds, as the opcodes of the non-range invoke instructions
// (a range form's opcode is its kind + 6).
const (
	InvokeVirtual   = 0x6e
	InvokeSuper     = 0x6f
	InvokeDirect    = 0x70
	InvokeStatic    = 0x71
	InvokeInterface = 0x72
)

// InvokeKindName is an invoke kind as ART's messages name it.
func InvokeKindName(kind uint8) string {
	switch kind {
	case InvokeVirtual:
		return "virtual"
	case InvokeSuper:
		return "super"
	case InvokeDirect:
		return "direct"
	case InvokeStatic:
		return "static"
	default:
		return "interface"
	}
}

// Dispatch selects the method an invoke of kind of the resolved method m
// runs, for every engine: it checks the argument words (argc) and the
// static-ness m must have, the receiver recv (ignored for static calls),
// looks the implementation up for virtual, interface and super calls,
// initialises the class of a static method, and lets a pending safepoint
// run. It returns nil with an exception pending when the call cannot be
// made.
func (t *Thread) Dispatch(caller, m *Method, kind uint8, argc int, recv uint32) *Method {
	if argc != m.ArgWords {
		t.ThrowNew("Ljava/lang/VerifyError;", "wrong argument count for "+m.String())
		return nil
	}
	if (kind == InvokeStatic) != m.IsStatic() {
		t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "The method '"+m.String()+"' was expected to be of type "+InvokeKindName(kind)+" but instead was found to be of type "+kindWord(m.IsStatic()))
		return nil
	}
	target := m
	switch kind {
	case InvokeStatic:
		if c := m.Class; c.State != ClassInitialized && !t.EnsureInitialized(c) {
			return nil
		}
	default:
		if recv == 0 {
			t.ThrowNPE(NPEInvoke(InvokeKindName(kind), m))
			return nil
		}
		switch kind {
		case InvokeVirtual, InvokeInterface:
			if kind == InvokeInterface && !m.Class.IsInterface() {
				t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "Class "+m.Class.Name+" does not implement interface ...")
				return nil
			}
			rc := t.VM.ClassOf(recv)
			if target = rc.Virtual(m); target == nil {
				if kind == InvokeInterface {
					t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "Class '"+rc.Name+"' does not implement interface '"+m.Class.Name+"' in call to '"+m.String()+"'")
				} else {
					t.ThrowNew("Ljava/lang/AbstractMethodError;", "abstract method \""+m.String()+"\"")
				}
				return nil
			}
		case InvokeSuper:
			if target = caller.Class.SuperTarget(m); target == nil {
				t.ThrowNew("Ljava/lang/NoSuchMethodError;", "super method "+m.String())
				return nil
			}
		}
	}
	if t.VM.Flags() != 0 {
		t.Safepoint()
	}
	return target
}

// PushFrame makes room on top of the register stack for a call of
// target with argc argument words: it returns the frame pointer and the
// frame's size in words, with the tags of the registers below the
// arguments cleared (the caller stores the arguments in the last argc
// words, then runs the frame with Call). It returns ok false with
// StackOverflowError or VerifyError pending.
func (t *Thread) PushFrame(target *Method, argc int) (fp, nregs int, ok bool) {
	nregs = target.ArgWords
	if target.Code != nil {
		nregs = int(target.Code.Registers)
		if nregs < target.ArgWords {
			t.ThrowNew("Ljava/lang/VerifyError;", "fewer registers than arguments in "+target.String())
			return 0, 0, false
		}
	}
	fp = t.SP
	if t.Overflows(fp, nregs) {
		t.ThrowStackOverflow()
		return 0, 0, false
	}
	clear(t.Tags[fp : fp+nregs-argc])
	return fp, nregs, true
}

// FillArrayData implements fill-array-data for every engine: it copies
// the payload at insns[p] into the primitive array at arr, throwing
// NullPointerException, ArrayIndexOutOfBoundsException (payload longer
// than the array) or VerifyError (a malformed payload or the wrong
// element width), as ART does.
func (t *Thread) FillArrayData(arr uint32, insns []uint16, p int) bool {
	vm := t.VM
	if arr == 0 {
		t.ThrowNPE("null array in fill-array-data")
		return false
	}
	if p < 0 || p+4 > len(insns) || insns[p] != 0x0300 {
		t.ThrowNew("Ljava/lang/VerifyError;", "bad fill-array-data payload")
		return false
	}
	width := uint32(insns[p+1])
	size := uint32(insns[p+2]) | uint32(insns[p+3])<<16
	c := vm.ClassOf(arr)
	if !c.IsArray() || !c.Component.IsPrimitive() || uint32(1)<<c.ElemShift != width {
		t.ThrowNew("Ljava/lang/VerifyError;", "fill-array-data on "+c.Name)
		return false
	}
	n := vm.ArrayLength(arr)
	if uint64(size) > uint64(n) {
		t.ThrowNew("Ljava/lang/ArrayIndexOutOfBoundsException;", "failed FillArrayData; length="+strconv.Itoa(int(n))+", index="+strconv.Itoa(int(size)))
		return false
	}
	nbytes := size * width
	if p+4+int((nbytes+1)/2) > len(insns) {
		t.ThrowNew("Ljava/lang/VerifyError;", "bad fill-array-data payload")
		return false
	}
	units := insns[p+4 : p+4+int((nbytes+1)/2)]
	dst := vm.Heap.Bytes(arr+ArrayData(c), nbytes)
	for i := range dst {
		u := units[i/2]
		if i%2 == 1 {
			u >>= 8
		}
		dst[i] = byte(u)
	}
	return true
}

// F2I is Java's double-to-int conversion: NaN is 0, values out of range
// saturate, the rest truncate toward zero.
func F2I(f float64) int32 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}

// F2L is Java's double-to-long conversion (see F2I).
func F2L(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// CatchAddr returns the address of m's handler for exception exc thrown
// at pc, as both engines find it: the try item covering pc, its catches
// in order (loading a catch type on first use), then its catch-all.
func (t *Thread) CatchAddr(m *Method, pc int, exc uint32) (int, bool) {
	try := m.Code.TryAt(uint32(pc))
	if try == nil {
		return 0, false
	}
	ec := t.VM.ClassOf(exc)
	file := m.Class.File
	hd := &m.Code.Handlers[try.Handler]
	for _, c := range hd.Catches {
		cc := file.Type(c.Type)
		if cc == nil {
			cc = t.VM.LoadClass(file.F.TypeName(c.Type))
		}
		if cc != nil && ec.AssignableTo(cc) {
			return int(c.Addr), true
		}
	}
	if hd.HasCatchAll {
		return int(hd.CatchAll), true
	}
	return 0, false
}
