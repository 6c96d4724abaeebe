package interp

import (
	"math"

	"github.com/droidprof/droidprof/vm/runtime"
)

// invoke executes an invoke-kind instruction at pc: it resolves the
// method, selects the implementation, copies the arguments into a new
// frame on top of the register stack and calls it.
func (in *Interp) invoke(t *runtime.Thread, caller *runtime.Method, file *runtime.DexFile, regs []uint32, tags []bool, insns []uint16, pc int, op uint8) bool {
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
	reg := func(i int) uint16 {
		if isRange {
			return first + uint16(i)
		}
		return list[i]
	}
	var recv uint32
	if kind != runtime.InvokeStatic && argc > 0 {
		recv = regs[reg(0)]
	}
	target := t.Dispatch(caller, m, kind, argc, recv)
	if target == nil {
		return false
	}
	fp, nregs, ok := t.PushFrame(target, argc)
	if !ok {
		return false
	}
	base := fp + nregs - argc
	for i := 0; i < argc; i++ {
		r := reg(i)
		t.Stack[base+i] = regs[r]
		t.Tags[base+i] = tags[r]
	}
	t.SP = fp + nregs
	ok = t.Call(target, fp)
	t.SP = fp
	return ok
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
		set(uint32(runtime.F2I(float64(math.Float32frombits(regs[b])))))
	case 0x88: // float-to-long
		setW(uint64(runtime.F2L(float64(math.Float32frombits(regs[b])))))
	case 0x89: // float-to-double
		setW(math.Float64bits(float64(math.Float32frombits(regs[b]))))
	case 0x8a: // double-to-int
		set(uint32(runtime.F2I(math.Float64frombits(w()))))
	case 0x8b: // double-to-long
		setW(uint64(runtime.F2L(math.Float64frombits(w()))))
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
