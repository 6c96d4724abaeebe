package interp

import (
	"math"

	"github.com/droidprof/droidprof/vm/runtime"
)

// invoke executes an invoke-kind instruction at pc: it resolves the
// method, selects the implementation, copies the arguments into a new
// frame on top of the register stack and calls it.
func (in *Interp) invoke(t *runtime.Thread, caller *runtime.Method, file *runtime.DexFile, regs []uint32, tags []bool, insns []uint16, pc int, op uint8) bool {
	vm := t.VM
	ins := insns[pc]
	idx := uint32(insns[pc+1])
	m := file.Method(idx)
	if m == nil {
		if m = t.ResolveMethod(file, idx); m == nil {
			return false
		}
	}
	isRange := op >= 0x74
	kind := op
	if isRange {
		kind -= 6
	}
	var argc int
	var first uint16
	var list [5]uint16
	if isRange {
		argc = int(ins >> 8)
		first = insns[pc+2]
	} else {
		argc = int(ins >> 12)
		u := insns[pc+2]
		list = [5]uint16{u & 0xf, (u >> 4) & 0xf, (u >> 8) & 0xf, u >> 12, (ins >> 8) & 0xf}
	}
	if argc != m.ArgWords {
		t.ThrowNew("Ljava/lang/VerifyError;", "wrong argument count for "+m.String())
		return false
	}
	if (kind == 0x71) != m.IsStatic() {
		t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "The method '"+m.String()+"' was expected to be of type "+kindName(kind)+" but instead was found to be of type "+staticName(m))
		return false
	}
	reg := func(i int) uint16 {
		if isRange {
			return first + uint16(i)
		}
		return list[i]
	}
	target := m
	if kind != 0x71 {
		recv := regs[reg(0)]
		if recv == 0 {
			t.ThrowNPE(runtime.NPEInvoke(kindName(kind), m))
			return false
		}
		switch kind {
		case 0x6e, 0x72: // virtual, interface
			if kind == 0x72 && !m.Class.IsInterface() {
				t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "Class "+m.Class.Name+" does not implement interface ...")
				return false
			}
			rc := vm.ClassOf(recv)
			target = rc.Virtual(m)
			if target == nil {
				if kind == 0x72 {
					t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "Class '"+rc.Name+"' does not implement interface '"+m.Class.Name+"' in call to '"+m.String()+"'")
				} else {
					t.ThrowNew("Ljava/lang/AbstractMethodError;", "abstract method \""+m.String()+"\"")
				}
				return false
			}
		case 0x6f: // super
			target = caller.Class.SuperTarget(m)
			if target == nil {
				t.ThrowNew("Ljava/lang/NoSuchMethodError;", "super method "+m.String())
				return false
			}
		}
	} else if c := m.Class; c.State != runtime.ClassInitialized && !t.EnsureInitialized(c) {
		return false
	}
	if vm.Flags() != 0 {
		t.Safepoint()
	}
	nregs := target.ArgWords
	if target.Code != nil {
		nregs = int(target.Code.Registers)
		if nregs < target.ArgWords {
			t.ThrowNew("Ljava/lang/VerifyError;", "fewer registers than arguments in "+target.String())
			return false
		}
	}
	fp := t.SP
	if t.Overflows(fp, nregs) {
		t.ThrowStackOverflow()
		return false
	}
	base := fp + nregs - argc
	clear(t.Tags[fp:base])
	for i := 0; i < argc; i++ {
		r := reg(i)
		t.Stack[base+i] = regs[r]
		t.Tags[base+i] = tags[r]
	}
	t.SP = fp + nregs
	ok := t.Call(target, fp)
	t.SP = fp
	return ok
}

func kindName(kind uint8) string {
	switch kind {
	case 0x6e:
		return "virtual"
	case 0x6f:
		return "super"
	case 0x70:
		return "direct"
	case 0x71:
		return "static"
	default:
		return "interface"
	}
}

func staticName(m *runtime.Method) string {
	if m.IsStatic() {
		return "static"
	}
	return "instance"
}

// filledNewArray implements filled-new-array{,/range}: the result goes to
// t.Ret for a following move-result-object.
func (in *Interp) filledNewArray(t *runtime.Thread, file *runtime.DexFile, regs []uint32, insns []uint16, pc int, isRange bool) bool {
	ins := insns[pc]
	idx := uint32(insns[pc+1])
	c := file.Type(idx)
	if c == nil {
		if c = t.ResolveType(file, idx); c == nil {
			return false
		}
	}
	// The array is allocated before the elements are read: reference
	// elements stay in the caller's registers, which a moving collection
	// updates.
	if !c.IsArray() || (c.Component.IsPrimitive() && c.Component.Prim != 'I') {
		t.ThrowNew("Ljava/lang/InternalError;", "Found type "+c.Name+"; filled-new-array not implemented for anything but 'int'")
		return false
	}
	n := int(ins >> 12)
	if isRange {
		n = int(ins >> 8)
	}
	arr := t.NewArray(c, int32(n))
	if arr == 0 {
		return false
	}
	var vals [255]uint32
	if isRange {
		first := int(insns[pc+2])
		copy(vals[:n], regs[first:first+n])
	} else {
		u := insns[pc+2]
		list := [5]uint16{u & 0xf, (u >> 4) & 0xf, (u >> 8) & 0xf, u >> 12, (ins >> 8) & 0xf}
		for i := 0; i < n; i++ {
			vals[i] = regs[list[i]]
		}
	}
	for i := 0; i < n; i++ {
		t.VM.StoreRef(arr, arr+12+uint32(4*i), vals[i])
	}
	t.Ret = uint64(arr)
	return true
}

// fillArrayData copies a fill-array-data payload into the array at arr.
func (in *Interp) fillArrayData(t *runtime.Thread, arr uint32, insns []uint16, pc int) bool {
	vm := t.VM
	if arr == 0 {
		t.ThrowNPE("null array in fill-array-data")
		return false
	}
	p := pc + int(int32(uint32(insns[pc+1])|uint32(insns[pc+2])<<16))
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
		t.ThrowNew("Ljava/lang/ArrayIndexOutOfBoundsException;", "failed FillArrayData; length="+itoa(int(n))+", index="+itoa(int(size)))
		return false
	}
	nbytes := size * width
	units := insns[p+4 : p+4+int((nbytes+1)/2)]
	dst := vm.Heap.Bytes(arr+runtime.ArrayData(c), nbytes)
	for i := range dst {
		u := units[i/2]
		if i%2 == 1 {
			u >>= 8
		}
		dst[i] = byte(u)
	}
	return true
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		p--
		b[p] = '-'
	}
	return string(b[p:])
}

// convert implements the unary conversions 0x81..0x8f.
func convert(op uint8, regs []uint32, tags []bool, a, b uint16) {
	setW := func(v uint64) {
		regs[a], regs[a+1], tags[a], tags[a+1] = uint32(v), uint32(v>>32), false, false
	}
	set := func(v uint32) { regs[a], tags[a] = v, false }
	w := func() uint64 { return wide(regs[b], regs[b+1]) }
	switch op {
	case 0x81: // int-to-long
		setW(uint64(int64(int32(regs[b]))))
	case 0x82: // int-to-float
		set(math.Float32bits(float32(int32(regs[b]))))
	case 0x83: // int-to-double
		setW(math.Float64bits(float64(int32(regs[b]))))
	case 0x84: // long-to-int
		set(uint32(w()))
	case 0x85: // long-to-float
		set(math.Float32bits(float32(int64(w()))))
	case 0x86: // long-to-double
		setW(math.Float64bits(float64(int64(w()))))
	case 0x87: // float-to-int
		set(uint32(f2i(float64(math.Float32frombits(regs[b])))))
	case 0x88: // float-to-long
		setW(uint64(f2l(float64(math.Float32frombits(regs[b])))))
	case 0x89: // float-to-double
		setW(math.Float64bits(float64(math.Float32frombits(regs[b]))))
	case 0x8a: // double-to-int
		set(uint32(f2i(math.Float64frombits(w()))))
	case 0x8b: // double-to-long
		setW(uint64(f2l(math.Float64frombits(w()))))
	case 0x8c: // double-to-float
		set(math.Float32bits(float32(math.Float64frombits(w()))))
	case 0x8d: // int-to-byte
		set(uint32(int32(int8(regs[b]))))
	case 0x8e: // int-to-char
		set(uint32(uint16(regs[b])))
	case 0x8f: // int-to-short
		set(uint32(int32(int16(regs[b]))))
	}
}

// f2i and f2l are Java's narrowing conversions: truncate, saturate, NaN
// gives 0 (Go leaves out-of-range conversions undefined).
func f2i(f float64) int32 {
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

func f2l(f float64) int64 {
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
