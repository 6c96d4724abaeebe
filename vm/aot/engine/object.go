package engine

import (
	"fmt"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/runtime"
)

// Storage kinds of fields and array elements.
const (
	k32    = iota // int, float
	k64           // long, double
	kRef          // reference
	kBool         // boolean: unsigned byte
	kByte         // signed byte
	kChar         // unsigned 16 bits
	kShort        // signed 16 bits
)

func kindOf(desc string) int {
	switch desc[0] {
	case 'J', 'D':
		return k64
	case 'L', '[':
		return kRef
	case 'Z':
		return kBool
	case 'B':
		return kByte
	case 'C':
		return kChar
	case 'S':
		return kShort
	}
	return k32
}

// load reads a field or element of kind k at addr into slot d.
func load(f *frame, k int, addr uint32, d int) {
	h := f.h
	switch k {
	case k32, kRef:
		f.r[d] = h.U32(addr)
	case k64:
		setL(f.r, d, h.U64(addr))
	case kBool:
		f.r[d] = uint32(h.U8(addr))
	case kByte:
		f.r[d] = uint32(int32(int8(h.U8(addr))))
	case kChar:
		f.r[d] = uint32(h.U16(addr))
	default:
		f.r[d] = uint32(int32(int16(h.U16(addr))))
	}
}

// store writes slot x to a primitive field or element of kind k.
func store(f *frame, k int, addr uint32, x int) {
	h := f.h
	switch k {
	case k32:
		h.SetU32(addr, f.r[x])
	case k64:
		h.SetU64(addr, getL(f.r, x))
	case kBool, kByte:
		h.SetU8(addr, uint8(f.r[x]))
	default:
		h.SetU16(addr, uint16(f.r[x]))
	}
}

func (l *lowerer) object(v *ssa.Value) instr {
	pc := v.PC
	file := l.m.Class.File
	df := file.F
	idx := uint32(v.Aux)
	switch v.Op {
	case ssa.OpNullCheck:
		x := l.s(v.Args[0])
		npe := l.npe(pc)
		return func(f *frame) bool {
			if f.r[x] != 0 {
				return true
			}
			f.at(pc)
			npe(f)
			return false
		}
	case ssa.OpBoundsCheck:
		i, n := l.s(v.Args[0]), l.s(v.Args[1])
		return func(f *frame) bool {
			if f.r[i] < f.r[n] {
				return true
			}
			f.at(pc)
			f.t.ThrowAIOOBE(int32(f.r[n]), int32(f.r[i]))
			return false
		}
	case ssa.OpDivZeroCheck:
		x := l.s(v.Args[0])
		if v.Args[0].Type.Wide() {
			return func(f *frame) bool {
				if getL(f.r, x) != 0 {
					return true
				}
				f.at(pc)
				f.t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				return false
			}
		}
		return func(f *frame) bool {
			if f.r[x] != 0 {
				return true
			}
			f.at(pc)
			f.t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
			return false
		}
	case ssa.OpArrayLength:
		d, a := l.s(v), l.s(v.Args[0])
		// a null array (a check the passes wrongly removed) reads as
		// length 0; the access it guards throws the NullPointerException
		return func(f *frame) bool {
			r := f.r
			if r[a] == 0 {
				r[d] = 0
			} else {
				r[d] = f.h.U32(r[a] + 8)
			}
			return true
		}
	case ssa.OpAGet, ssa.OpAPut:
		a, x := l.s(v.Args[0]), l.s(v.Args[1])
		return l.arrayAccess(v, &access{a: a, x: x, lenSlot: -1, pc: pc, npe: l.npe(pc)})
	case ssa.OpIGet, ssa.OpIPut:
		k := kindOf(df.TypeName(df.Fields[idx].Type))
		o := l.s(v.Args[0])
		npe := l.npe(pc)
		// field resolves the field and checks the object: a null check
		// the passes removed is checked here too (see arrayAccess)
		field := func(f *frame) *runtime.Field {
			fd := f.file.Field(idx)
			if fd == nil || fd.Static {
				f.at(pc)
				if fd = f.t.ResolveField(f.file, idx, false); fd == nil {
					return nil
				}
			}
			if f.r[o] == 0 {
				f.at(pc)
				npe(f)
				return nil
			}
			return fd
		}
		// after the first resolution the field's offset is cached: the
		// fast paths below only check the object
		var off uint32
		resolved := false
		if v.Op == ssa.OpIGet {
			d := l.s(v)
			slow := func(f *frame) bool {
				fd := field(f)
				if fd == nil {
					return false
				}
				off, resolved = fd.Offset, true
				load(f, k, f.r[o]+fd.Offset, d)
				return true
			}
			switch k {
			case k32, kRef:
				return func(f *frame) bool {
					r := f.r
					if obj := r[o]; obj != 0 && resolved {
						r[d] = f.h.U32(obj + off)
						return true
					}
					return slow(f)
				}
			case k64:
				return func(f *frame) bool {
					r := f.r
					if obj := r[o]; obj != 0 && resolved {
						setL(r, d, f.h.U64(obj+off))
						return true
					}
					return slow(f)
				}
			}
			return func(f *frame) bool {
				if obj := f.r[o]; obj != 0 && resolved {
					load(f, k, obj+off, d)
					return true
				}
				return slow(f)
			}
		}
		x := l.s(v.Args[1])
		slow := func(f *frame) bool {
			fd := field(f)
			if fd == nil {
				return false
			}
			off, resolved = fd.Offset, true
			obj := f.r[o]
			if k == kRef {
				f.vm.StoreRef(obj, obj+fd.Offset, f.r[x])
			} else {
				store(f, k, obj+fd.Offset, x)
			}
			return true
		}
		switch k {
		case kRef:
			return func(f *frame) bool {
				if obj := f.r[o]; obj != 0 && resolved {
					f.vm.StoreRef(obj, obj+off, f.r[x])
					return true
				}
				return slow(f)
			}
		case k32:
			return func(f *frame) bool {
				r := f.r
				if obj := r[o]; obj != 0 && resolved {
					f.h.SetU32(obj+off, r[x])
					return true
				}
				return slow(f)
			}
		}
		return func(f *frame) bool {
			if obj := f.r[o]; obj != 0 && resolved {
				store(f, k, obj+off, x)
				return true
			}
			return slow(f)
		}
	case ssa.OpSGet, ssa.OpSPut:
		k := kindOf(df.TypeName(df.Fields[idx].Type))
		field := func(f *frame) *runtime.Field {
			fd := f.file.Field(idx)
			if fd == nil || !fd.Static || fd.Class.State != runtime.ClassInitialized {
				f.at(pc)
				if fd = f.t.ResolveField(f.file, idx, true); fd == nil {
					return nil
				}
				if fd.Class.State != runtime.ClassInitialized && !f.t.EnsureInitialized(fd.Class) {
					return nil
				}
			}
			return fd
		}
		if v.Op == ssa.OpSGet {
			d := l.s(v)
			return func(f *frame) bool {
				fd := field(f)
				if fd == nil {
					return false
				}
				load(f, k, fd.Class.Addr+fd.Offset, d)
				return true
			}
		}
		x := l.s(v.Args[0])
		return func(f *frame) bool {
			fd := field(f)
			if fd == nil {
				return false
			}
			if k == kRef {
				f.vm.StoreRef(fd.Class.Addr, fd.Class.Addr+fd.Offset, f.r[x])
			} else {
				store(f, k, fd.Class.Addr+fd.Offset, x)
			}
			return true
		}
	case ssa.OpConstString:
		d := l.s(v)
		return func(f *frame) bool {
			s := f.file.String(idx)
			if s == 0 {
				f.at(pc)
				if s = f.t.ResolveString(f.file, idx); s == 0 {
					return false
				}
			}
			f.r[d] = s
			return true
		}
	case ssa.OpConstClass:
		d := l.s(v)
		return func(f *frame) bool {
			c := l.typ(f, idx, pc)
			if c == nil {
				return false
			}
			f.r[d] = c.Addr
			return true
		}
	case ssa.OpCheckCast:
		x := l.s(v.Args[0])
		return func(f *frame) bool {
			if f.r[x] == 0 {
				return true
			}
			c := l.typ(f, idx, pc)
			if c == nil {
				return false
			}
			if oc := f.vm.ClassOf(f.r[x]); !oc.AssignableTo(c) {
				f.at(pc)
				f.t.ThrowClassCast(oc, c)
				return false
			}
			return true
		}
	case ssa.OpInstanceOf:
		d, x := l.s(v), l.s(v.Args[0])
		return func(f *frame) bool {
			c := l.typ(f, idx, pc)
			if c == nil {
				return false
			}
			r := uint32(0)
			if o := f.r[x]; o != 0 && f.vm.ClassOf(o).AssignableTo(c) {
				r = 1
			}
			f.r[d] = r
			return true
		}
	case ssa.OpNewInstance:
		d := l.s(v)
		return func(f *frame) bool {
			f.at(pc)
			c := l.typ(f, idx, pc)
			if c == nil {
				return false
			}
			if c.IsAbstract() || c.IsArray() || c.IsPrimitive() {
				f.t.ThrowNew("Ljava/lang/InstantiationError;", c.Name)
				return false
			}
			if c.State != runtime.ClassInitialized && !f.t.EnsureInitialized(c) {
				return false
			}
			o := f.t.NewObject(c)
			if o == 0 {
				return false
			}
			f.r[d] = o
			return true
		}
	case ssa.OpNewArray:
		d, n := l.s(v), l.s(v.Args[0])
		return func(f *frame) bool {
			f.at(pc)
			c := l.typ(f, idx, pc)
			if c == nil {
				return false
			}
			if !c.IsArray() {
				f.t.ThrowNew("Ljava/lang/VerifyError;", "new-array of non-array type "+c.Name)
				return false
			}
			o := f.t.NewArray(c, int32(f.r[n]))
			if o == 0 {
				return false
			}
			f.r[d] = o
			return true
		}
	case ssa.OpFilledNewArray:
		d := l.s(v)
		elems := make([]int, len(v.Args))
		for i, a := range v.Args {
			elems[i] = l.s(a)
		}
		return func(f *frame) bool {
			f.at(pc)
			c := l.typ(f, idx, pc)
			if c == nil {
				return false
			}
			if !c.IsArray() || (c.Component.IsPrimitive() && c.Component.Prim != 'I') {
				f.t.ThrowNew("Ljava/lang/InternalError;", "Found type "+c.Name+"; filled-new-array not implemented for anything but 'int'")
				return false
			}
			arr := f.t.NewArray(c, int32(len(elems)))
			if arr == 0 {
				return false
			}
			// the elements are read after the allocation, which may have
			// moved the references they hold
			for i, s := range elems {
				f.vm.StoreRef(arr, arr+12+uint32(4*i), f.r[s])
			}
			f.r[d] = arr
			return true
		}
	case ssa.OpFillArrayData:
		a := l.s(v.Args[0])
		p := int(v.Aux)
		return func(f *frame) bool {
			f.at(pc)
			return f.t.FillArrayData(f.r[a], f.m.Code.Insns, p)
		}
	case ssa.OpMonitorEnter:
		x := l.s(v.Args[0])
		return func(f *frame) bool {
			f.at(pc)
			if f.r[x] == 0 {
				f.t.ThrowNPE("Attempt to lock a null object")
				return false
			}
			f.t.MonitorEnter(f.r[x])
			return f.t.Exc == 0
		}
	case ssa.OpMonitorExit:
		x := l.s(v.Args[0])
		return func(f *frame) bool {
			f.at(pc)
			if f.r[x] == 0 {
				f.t.ThrowNPE("Attempt to unlock a null object")
				return false
			}
			return f.t.MonitorExit(f.r[x])
		}
	case ssa.OpInvokeVirtual, ssa.OpInvokeSuper, ssa.OpInvokeDirect, ssa.OpInvokeStatic, ssa.OpInvokeInterface:
		return l.invoke(v)
	case ssa.OpTargetIs:
		return l.targetIs(v)
	}
	panic(unsupported(fmt.Sprintf("%s is not lowered", v.Op)))
}

// typ resolves a type index of the method's DEX file.
func (l *lowerer) typ(f *frame, idx uint32, pc int) *runtime.Class {
	c := f.file.Type(idx)
	if c == nil {
		f.at(pc)
		c = f.t.ResolveType(f.file, idx)
	}
	return c
}

// npe returns what throws the interpreter's NullPointerException for the
// instruction at pc, whose null check failed.
func (l *lowerer) npe(pc int) func(f *frame) {
	insns := l.m.Code.Insns
	if pc < 0 || pc >= len(insns) {
		return func(f *frame) { f.t.ThrowNPE("") }
	}
	op := uint8(insns[pc])
	msg := func(s string) func(f *frame) { return func(f *frame) { f.t.ThrowNPE(s) } }
	switch {
	case op >= 0x44 && op <= 0x4a:
		return msg("Attempt to read from null array")
	case op >= 0x4b && op <= 0x51:
		return msg("Attempt to write to null array")
	case op == 0x21:
		return msg("Attempt to get length of null array")
	case op == 0x1d:
		return msg("Attempt to lock a null object")
	case op == 0x1e:
		return msg("Attempt to unlock a null object")
	case op == 0x26:
		return msg("null array in fill-array-data")
	case op == 0x27:
		return msg("throw with null exception")
	case op >= 0x52 && op <= 0x5f:
		idx, read := uint32(insns[pc+1]), op <= 0x58
		return func(f *frame) {
			if fd := f.t.ResolveField(f.file, idx, false); fd != nil {
				f.t.ThrowNPE(runtime.NPEField(read, fd))
			}
		}
	case op >= 0x6e && op <= 0x72, op >= 0x74 && op <= 0x78:
		idx := uint32(insns[pc+1])
		kind := op
		if kind >= 0x74 {
			kind -= 6
		}
		return func(f *frame) {
			m := f.file.Method(idx)
			if m == nil {
				if m = f.t.ResolveMethod(f.file, idx); m == nil {
					return
				}
			}
			f.t.ThrowNPE(runtime.NPEInvoke(runtime.InvokeKindName(kind), m))
		}
	}
	return msg("Attempt to use a null object")
}

// refStore is the store half of aput-object: the ArrayStoreException
// check and the write barrier.
func (l *lowerer) refStore(v *ssa.Value) instr {
	a, i, x := l.s(v.Args[0]), l.s(v.Args[1]), l.s(v.Args[2])
	pc := v.PC
	return func(f *frame) bool {
		arr, o := f.r[a], f.r[x]
		if o != 0 {
			if ac, vc := f.vm.ClassOf(arr), f.vm.ClassOf(o); !vc.AssignableTo(ac.Component) {
				f.at(pc)
				f.t.ThrowNew("Ljava/lang/ArrayStoreException;", vc.PrettyName()+" cannot be stored in an array of type "+ac.PrettyName())
				return false
			}
		}
		f.vm.StoreRef(arr, arr+12+f.r[i]*4, o)
		return true
	}
}
