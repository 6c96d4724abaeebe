// Package interp is the portable interpreter: it executes a method's
// Dalvik code units directly, decoding each instruction as it goes, like
// Dalvik's dvmInterpretPortable. Registers are 32-bit words in the
// thread's register stack; a parallel tag per register records whether
// it holds a reference, so the collector's roots are exact.
package interp

import (
	"math"
	"strconv"

	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
)

// Interp is the portable interpreter. It has no state of its own.
type Interp struct{}

// New returns the interpreter.
func New() *Interp { return &Interp{} }

var _ runtime.Engine = (*Interp)(nil)

func wide(lo, hi uint32) uint64 { return uint64(lo) | uint64(hi)<<32 }

// Execute runs m's code in the frame at fp.
func (in *Interp) Execute(t *runtime.Thread, m *runtime.Method, fp int) bool {
	vm := t.VM
	h := vm.Heap
	code := m.Code
	insns := code.Insns
	nregs := int(code.Registers)
	regs := t.Stack[fp : fp+nregs : fp+nregs]
	tags := t.Tags[fp : fp+nregs : fp+nregs]
	file := m.Class.File
	fi := len(t.Frames) - 1
	counts := t.OpCounts
	pc := 0

	for {
		ins := insns[pc]
		op := uint8(ins)
		if counts != nil {
			counts[op]++
		}
		a4 := (ins >> 8) & 0xf
		b4 := ins >> 12
		aa := ins >> 8
		switch op {
		case 0x00: // nop (payloads are never executed: they follow a goto or return)
			pc++
		case 0x01: // move vA, vB
			regs[a4], tags[a4] = regs[b4], false
			pc++
		case 0x02: // move/from16
			b := insns[pc+1]
			regs[aa], tags[aa] = regs[b], false
			pc += 2
		case 0x03: // move/16
			a, b := insns[pc+1], insns[pc+2]
			regs[a], tags[a] = regs[b], false
			pc += 3
		case 0x04: // move-wide
			lo, hi := regs[b4], regs[b4+1]
			regs[a4], regs[a4+1], tags[a4], tags[a4+1] = lo, hi, false, false
			pc++
		case 0x05:
			b := insns[pc+1]
			lo, hi := regs[b], regs[b+1]
			regs[aa], regs[aa+1], tags[aa], tags[aa+1] = lo, hi, false, false
			pc += 2
		case 0x06:
			a, b := insns[pc+1], insns[pc+2]
			lo, hi := regs[b], regs[b+1]
			regs[a], regs[a+1], tags[a], tags[a+1] = lo, hi, false, false
			pc += 3
		case 0x07: // move-object
			regs[a4], tags[a4] = regs[b4], true
			pc++
		case 0x08:
			b := insns[pc+1]
			regs[aa], tags[aa] = regs[b], true
			pc += 2
		case 0x09:
			a, b := insns[pc+1], insns[pc+2]
			regs[a], tags[a] = regs[b], true
			pc += 3
		case 0x0a: // move-result
			regs[aa], tags[aa] = uint32(t.Ret), false
			pc++
		case 0x0b: // move-result-wide
			regs[aa], regs[aa+1], tags[aa], tags[aa+1] = uint32(t.Ret), uint32(t.Ret>>32), false, false
			pc++
		case 0x0c: // move-result-object
			regs[aa], tags[aa] = uint32(t.Ret), true
			pc++
		case 0x0d: // move-exception
			regs[aa], tags[aa] = t.Caught, true
			t.Caught = 0
			pc++
		case 0x0e: // return-void
			return true
		case 0x0f: // return
			t.Ret = uint64(regs[aa])
			return true
		case 0x10: // return-wide
			t.Ret = wide(regs[aa], regs[aa+1])
			return true
		case 0x11: // return-object
			t.Ret = uint64(regs[aa])
			return true
		case 0x12: // const/4
			regs[a4], tags[a4] = uint32(int32(int16(ins)>>12)), false
			pc++
		case 0x13: // const/16
			regs[aa], tags[aa] = uint32(int32(int16(insns[pc+1]))), false
			pc += 2
		case 0x14: // const
			regs[aa], tags[aa] = uint32(insns[pc+1])|uint32(insns[pc+2])<<16, false
			pc += 3
		case 0x15: // const/high16
			regs[aa], tags[aa] = uint32(insns[pc+1])<<16, false
			pc += 2
		case 0x16: // const-wide/16
			v := uint64(int64(int16(insns[pc+1])))
			regs[aa], regs[aa+1], tags[aa], tags[aa+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0x17: // const-wide/32
			v := uint64(int64(int32(uint32(insns[pc+1]) | uint32(insns[pc+2])<<16)))
			regs[aa], regs[aa+1], tags[aa], tags[aa+1] = uint32(v), uint32(v>>32), false, false
			pc += 3
		case 0x18: // const-wide
			v := uint64(insns[pc+1]) | uint64(insns[pc+2])<<16 | uint64(insns[pc+3])<<32 | uint64(insns[pc+4])<<48
			regs[aa], regs[aa+1], tags[aa], tags[aa+1] = uint32(v), uint32(v>>32), false, false
			pc += 5
		case 0x19: // const-wide/high16
			regs[aa], regs[aa+1], tags[aa], tags[aa+1] = 0, uint32(insns[pc+1])<<16, false, false
			pc += 2
		case 0x1a, 0x1b: // const-string, const-string/jumbo
			idx := uint32(insns[pc+1])
			size := 2
			if op == 0x1b {
				idx |= uint32(insns[pc+2]) << 16
				size = 3
			}
			s := file.String(idx)
			if s == 0 {
				t.Frames[fi].PC = pc
				if s = t.ResolveString(file, idx); s == 0 {
					goto throw
				}
			}
			regs[aa], tags[aa] = s, true
			pc += size
		case 0x1c: // const-class
			c := file.Type(uint32(insns[pc+1]))
			if c == nil {
				t.Frames[fi].PC = pc
				if c = t.ResolveType(file, uint32(insns[pc+1])); c == nil {
					goto throw
				}
			}
			regs[aa], tags[aa] = c.Addr, true
			pc += 2
		case 0x1d: // monitor-enter
			o := regs[aa]
			t.Frames[fi].PC = pc
			if o == 0 {
				t.ThrowNPE("Attempt to lock a null object")
				goto throw
			}
			t.MonitorEnter(o)
			pc++
		case 0x1e: // monitor-exit
			o := regs[aa]
			t.Frames[fi].PC = pc
			pc++ // an exception here is raised as if the pc had advanced
			if o == 0 {
				t.ThrowNPE("Attempt to unlock a null object")
				goto throw
			}
			if !t.MonitorExit(o) {
				goto throw
			}
		case 0x1f: // check-cast
			o := regs[aa]
			if o != 0 {
				c := file.Type(uint32(insns[pc+1]))
				t.Frames[fi].PC = pc
				if c == nil {
					if c = t.ResolveType(file, uint32(insns[pc+1])); c == nil {
						goto throw
					}
				}
				if oc := vm.ClassOf(o); !oc.AssignableTo(c) {
					t.ThrowClassCast(oc, c)
					goto throw
				}
			}
			pc += 2
		case 0x20: // instance-of vA, vB, type
			c := file.Type(uint32(insns[pc+1]))
			if c == nil {
				t.Frames[fi].PC = pc
				if c = t.ResolveType(file, uint32(insns[pc+1])); c == nil {
					goto throw
				}
			}
			o := regs[b4]
			v := uint32(0)
			if o != 0 && vm.ClassOf(o).AssignableTo(c) {
				v = 1
			}
			regs[a4], tags[a4] = v, false
			pc += 2
		case 0x21: // array-length
			o := regs[b4]
			if o == 0 {
				t.Frames[fi].PC = pc
				t.ThrowNPE("Attempt to get length of null array")
				goto throw
			}
			regs[a4], tags[a4] = uint32(vm.ArrayLength(o)), false
			pc++
		case 0x22: // new-instance
			t.Frames[fi].PC = pc
			c := file.Type(uint32(insns[pc+1]))
			if c == nil {
				if c = t.ResolveType(file, uint32(insns[pc+1])); c == nil {
					goto throw
				}
			}
			if c.IsAbstract() || c.IsArray() || c.IsPrimitive() {
				t.ThrowNew("Ljava/lang/InstantiationError;", c.Name)
				goto throw
			}
			if c.State != runtime.ClassInitialized && !t.EnsureInitialized(c) {
				goto throw
			}
			o := t.NewObject(c)
			if o == 0 {
				goto throw
			}
			regs[aa], tags[aa] = o, true
			pc += 2
		case 0x23: // new-array vA, vB, type
			t.Frames[fi].PC = pc
			c := file.Type(uint32(insns[pc+1]))
			if c == nil {
				if c = t.ResolveType(file, uint32(insns[pc+1])); c == nil {
					goto throw
				}
			}
			if !c.IsArray() {
				t.ThrowNew("Ljava/lang/VerifyError;", "new-array of non-array type "+c.Name)
				goto throw
			}
			o := t.NewArray(c, int32(regs[b4]))
			if o == 0 {
				goto throw
			}
			regs[a4], tags[a4] = o, true
			pc += 2
		case 0x24, 0x25: // filled-new-array{,/range}
			t.Frames[fi].PC = pc
			if !in.filledNewArray(t, file, regs, insns, pc, op == 0x25) {
				goto throw
			}
			pc += 3
		case 0x26: // fill-array-data
			t.Frames[fi].PC = pc
			if !in.fillArrayData(t, regs[aa], insns, pc) {
				goto throw
			}
			pc += 3
		case 0x27: // throw
			t.Frames[fi].PC = pc
			if o := regs[aa]; o == 0 {
				t.ThrowNPE("throw with null exception")
			} else {
				t.Throw(o)
			}
			goto throw
		case 0x28: // goto
			off := int(int8(aa))
			if off <= 0 && vm.Flags() != 0 {
				t.Frames[fi].PC = pc
				t.Safepoint()
			}
			pc += off
		case 0x29: // goto/16
			off := int(int16(insns[pc+1]))
			if off <= 0 && vm.Flags() != 0 {
				t.Frames[fi].PC = pc
				t.Safepoint()
			}
			pc += off
		case 0x2a: // goto/32
			off := int(int32(uint32(insns[pc+1]) | uint32(insns[pc+2])<<16))
			if off <= 0 && vm.Flags() != 0 {
				t.Frames[fi].PC = pc
				t.Safepoint()
			}
			pc += off
		case 0x2b: // packed-switch
			p := pc + int(int32(uint32(insns[pc+1])|uint32(insns[pc+2])<<16))
			size := int(insns[p+1])
			first := int32(uint32(insns[p+2]) | uint32(insns[p+3])<<16)
			k := int64(int32(regs[aa])) - int64(first)
			if k >= 0 && k < int64(size) {
				i := p + 4 + 2*int(k)
				off := int(int32(uint32(insns[i]) | uint32(insns[i+1])<<16))
				if off <= 0 && vm.Flags() != 0 {
					t.Frames[fi].PC = pc
					t.Safepoint()
				}
				pc += off
			} else {
				pc += 3
			}
		case 0x2c: // sparse-switch
			p := pc + int(int32(uint32(insns[pc+1])|uint32(insns[pc+2])<<16))
			size := int(insns[p+1])
			key := int32(regs[aa])
			lo, hi := 0, size-1
			next := pc + 3
			for lo <= hi {
				mid := (lo + hi) / 2
				i := p + 2 + 2*mid
				k := int32(uint32(insns[i]) | uint32(insns[i+1])<<16)
				if key < k {
					hi = mid - 1
				} else if key > k {
					lo = mid + 1
				} else {
					j := p + 2 + 2*size + 2*mid
					next = pc + int(int32(uint32(insns[j])|uint32(insns[j+1])<<16))
					break
				}
			}
			if next <= pc && vm.Flags() != 0 {
				t.Frames[fi].PC = pc
				t.Safepoint()
			}
			pc = next
		case 0x2d, 0x2e: // cmpl-float, cmpg-float
			u := insns[pc+1]
			x, y := math.Float32frombits(regs[u&0xff]), math.Float32frombits(regs[u>>8])
			var r int32
			switch {
			case x < y:
				r = -1
			case x > y:
				r = 1
			case x == y:
				r = 0
			case op == 0x2d:
				r = -1
			default:
				r = 1
			}
			regs[aa], tags[aa] = uint32(r), false
			pc += 2
		case 0x2f, 0x30: // cmpl-double, cmpg-double
			u := insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := math.Float64frombits(wide(regs[b], regs[b+1])), math.Float64frombits(wide(regs[c], regs[c+1]))
			var r int32
			switch {
			case x < y:
				r = -1
			case x > y:
				r = 1
			case x == y:
				r = 0
			case op == 0x2f:
				r = -1
			default:
				r = 1
			}
			regs[aa], tags[aa] = uint32(r), false
			pc += 2
		case 0x31: // cmp-long
			u := insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(regs[b], regs[b+1])), int64(wide(regs[c], regs[c+1]))
			var r int32
			if x < y {
				r = -1
			} else if x > y {
				r = 1
			}
			regs[aa], tags[aa] = uint32(r), false
			pc += 2
		case 0x32, 0x33, 0x34, 0x35, 0x36, 0x37: // if-test vA, vB
			x, y := int32(regs[a4]), int32(regs[b4])
			var taken bool
			switch op {
			case 0x32:
				taken = x == y
			case 0x33:
				taken = x != y
			case 0x34:
				taken = x < y
			case 0x35:
				taken = x >= y
			case 0x36:
				taken = x > y
			default:
				taken = x <= y
			}
			if taken {
				off := int(int16(insns[pc+1]))
				if off <= 0 && vm.Flags() != 0 {
					t.Frames[fi].PC = pc
					t.Safepoint()
				}
				pc += off
			} else {
				pc += 2
			}
		case 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d: // if-testz vAA
			x := int32(regs[aa])
			var taken bool
			switch op {
			case 0x38:
				taken = x == 0
			case 0x39:
				taken = x != 0
			case 0x3a:
				taken = x < 0
			case 0x3b:
				taken = x >= 0
			case 0x3c:
				taken = x > 0
			default:
				taken = x <= 0
			}
			if taken {
				off := int(int16(insns[pc+1]))
				if off <= 0 && vm.Flags() != 0 {
					t.Frames[fi].PC = pc
					t.Safepoint()
				}
				pc += off
			} else {
				pc += 2
			}
		case 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, // aget*
			0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51: // aput*
			u := insns[pc+1]
			arr := regs[u&0xff]
			idx := int32(regs[u>>8])
			if arr == 0 {
				t.Frames[fi].PC = pc
				if op <= 0x4a {
					t.ThrowNPE("Attempt to read from null array")
				} else {
					t.ThrowNPE("Attempt to write to null array")
				}
				goto throw
			}
			n := vm.ArrayLength(arr)
			if uint32(idx) >= uint32(n) {
				t.Frames[fi].PC = pc
				t.ThrowAIOOBE(n, idx)
				goto throw
			}
			switch op {
			case 0x44:
				regs[aa], tags[aa] = h.U32(arr+12+uint32(idx)*4), false
			case 0x45:
				v := h.U64(arr + 16 + uint32(idx)*8)
				regs[aa], regs[aa+1], tags[aa], tags[aa+1] = uint32(v), uint32(v>>32), false, false
			case 0x46:
				regs[aa], tags[aa] = h.U32(arr+12+uint32(idx)*4), true
			case 0x47:
				regs[aa], tags[aa] = uint32(h.U8(arr+12+uint32(idx))), false
			case 0x48:
				regs[aa], tags[aa] = uint32(int32(int8(h.U8(arr+12+uint32(idx))))), false
			case 0x49:
				regs[aa], tags[aa] = uint32(h.U16(arr+12+uint32(idx)*2)), false
			case 0x4a:
				regs[aa], tags[aa] = uint32(int32(int16(h.U16(arr+12+uint32(idx)*2)))), false
			case 0x4b:
				h.SetU32(arr+12+uint32(idx)*4, regs[aa])
			case 0x4c:
				h.SetU64(arr+16+uint32(idx)*8, wide(regs[aa], regs[aa+1]))
			case 0x4d:
				v := regs[aa]
				if v != 0 {
					ac, vc := vm.ClassOf(arr), vm.ClassOf(v)
					if !vc.AssignableTo(ac.Component) {
						t.Frames[fi].PC = pc
						t.ThrowNew("Ljava/lang/ArrayStoreException;", vc.Name+" cannot be stored in an array of type "+ac.Name)
						goto throw
					}
				}
				h.SetU32(arr+12+uint32(idx)*4, v)
			case 0x4e, 0x4f:
				h.SetU8(arr+12+uint32(idx), uint8(regs[aa]))
			default:
				h.SetU16(arr+12+uint32(idx)*2, uint16(regs[aa]))
			}
			pc += 2
		case 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, // iget*
			0x59, 0x5a, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f: // iput*
			idx := uint32(insns[pc+1])
			f := file.Field(idx)
			if f == nil || f.Static {
				t.Frames[fi].PC = pc
				if f = t.ResolveField(file, idx, false); f == nil {
					goto throw
				}
			}
			o := regs[b4]
			if o == 0 {
				t.Frames[fi].PC = pc
				t.ThrowNPE(runtime.NPEField(op <= 0x58, f))
				goto throw
			}
			addr := o + f.Offset
			switch op {
			case 0x52:
				regs[a4], tags[a4] = h.U32(addr), false
			case 0x53:
				v := h.U64(addr)
				regs[a4], regs[a4+1], tags[a4], tags[a4+1] = uint32(v), uint32(v>>32), false, false
			case 0x54:
				regs[a4], tags[a4] = h.U32(addr), true
			case 0x55:
				regs[a4], tags[a4] = uint32(h.U8(addr)), false
			case 0x56:
				regs[a4], tags[a4] = uint32(int32(int8(h.U8(addr)))), false
			case 0x57:
				regs[a4], tags[a4] = uint32(h.U16(addr)), false
			case 0x58:
				regs[a4], tags[a4] = uint32(int32(int16(h.U16(addr)))), false
			case 0x59, 0x5b:
				h.SetU32(addr, regs[a4])
			case 0x5a:
				h.SetU64(addr, wide(regs[a4], regs[a4+1]))
			case 0x5c, 0x5d:
				h.SetU8(addr, uint8(regs[a4]))
			default:
				h.SetU16(addr, uint16(regs[a4]))
			}
			pc += 2
		case 0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, // sget*
			0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d: // sput*
			idx := uint32(insns[pc+1])
			f := file.Field(idx)
			if f == nil || !f.Static || f.Class.State != runtime.ClassInitialized {
				t.Frames[fi].PC = pc
				if f = t.ResolveField(file, idx, true); f == nil {
					goto throw
				}
				if f.Class.State != runtime.ClassInitialized && !t.EnsureInitialized(f.Class) {
					goto throw
				}
			}
			addr := f.Class.Addr + f.Offset
			switch op {
			case 0x60:
				regs[aa], tags[aa] = h.U32(addr), false
			case 0x61:
				v := h.U64(addr)
				regs[aa], regs[aa+1], tags[aa], tags[aa+1] = uint32(v), uint32(v>>32), false, false
			case 0x62:
				regs[aa], tags[aa] = h.U32(addr), true
			case 0x63:
				regs[aa], tags[aa] = uint32(h.U8(addr)), false
			case 0x64:
				regs[aa], tags[aa] = uint32(int32(int8(h.U8(addr)))), false
			case 0x65:
				regs[aa], tags[aa] = uint32(h.U16(addr)), false
			case 0x66:
				regs[aa], tags[aa] = uint32(int32(int16(h.U16(addr)))), false
			case 0x67, 0x69:
				h.SetU32(addr, regs[aa])
			case 0x68:
				h.SetU64(addr, wide(regs[aa], regs[aa+1]))
			case 0x6a, 0x6b:
				h.SetU8(addr, uint8(regs[aa]))
			default:
				h.SetU16(addr, uint16(regs[aa]))
			}
			pc += 2
		case 0x6e, 0x6f, 0x70, 0x71, 0x72, 0x74, 0x75, 0x76, 0x77, 0x78: // invoke-*
			t.Frames[fi].PC = pc
			if !in.invoke(t, m, file, regs, tags, insns, pc, op) {
				goto throw
			}
			pc += 3
		case 0x7b: // neg-int
			regs[a4], tags[a4] = uint32(-int32(regs[b4])), false
			pc++
		case 0x7c: // not-int
			regs[a4], tags[a4] = ^regs[b4], false
			pc++
		case 0x7d: // neg-long
			v := uint64(-int64(wide(regs[b4], regs[b4+1])))
			regs[a4], regs[a4+1], tags[a4], tags[a4+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0x7e: // not-long
			v := ^wide(regs[b4], regs[b4+1])
			regs[a4], regs[a4+1], tags[a4], tags[a4+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0x7f: // neg-float
			regs[a4], tags[a4] = regs[b4]^0x80000000, false
			pc++
		case 0x80: // neg-double
			lo, hi := regs[b4], regs[b4+1]^0x80000000
			regs[a4], regs[a4+1], tags[a4], tags[a4+1] = lo, hi, false, false
			pc++
		case 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f:
			convert(op, regs, tags, a4, b4)
			pc++
		case 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a: // binop-int vAA, vBB, vCC
			u := insns[pc+1]
			x, y := int32(regs[u&0xff]), int32(regs[u>>8])
			if (op == 0x93 || op == 0x94) && y == 0 {
				t.Frames[fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			regs[aa], tags[aa] = uint32(intOp(op-0x90, x, y)), false
			pc += 2
		case 0x9b, 0x9c, 0x9d, 0x9e, 0x9f, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5: // binop-long
			u := insns[pc+1]
			b, c := u&0xff, u>>8
			x := int64(wide(regs[b], regs[b+1]))
			var y int64
			if op >= 0xa3 { // shifts take an int count
				y = int64(int32(regs[c]))
			} else {
				y = int64(wide(regs[c], regs[c+1]))
			}
			if (op == 0x9e || op == 0x9f) && y == 0 {
				t.Frames[fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			v := uint64(longOp(op-0x9b, x, y))
			regs[aa], regs[aa+1], tags[aa], tags[aa+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xa6, 0xa7, 0xa8, 0xa9, 0xaa: // binop-float
			u := insns[pc+1]
			x, y := math.Float32frombits(regs[u&0xff]), math.Float32frombits(regs[u>>8])
			regs[aa], tags[aa] = math.Float32bits(floatOp(op-0xa6, x, y)), false
			pc += 2
		case 0xab, 0xac, 0xad, 0xae, 0xaf: // binop-double
			u := insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := math.Float64frombits(wide(regs[b], regs[b+1])), math.Float64frombits(wide(regs[c], regs[c+1]))
			v := math.Float64bits(doubleOp(op-0xab, x, y))
			regs[aa], regs[aa+1], tags[aa], tags[aa+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba: // binop-int/2addr
			x, y := int32(regs[a4]), int32(regs[b4])
			if (op == 0xb3 || op == 0xb4) && y == 0 {
				t.Frames[fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			regs[a4], tags[a4] = uint32(intOp(op-0xb0, x, y)), false
			pc++
		case 0xbb, 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5: // binop-long/2addr
			x := int64(wide(regs[a4], regs[a4+1]))
			var y int64
			if op >= 0xc3 {
				y = int64(int32(regs[b4]))
			} else {
				y = int64(wide(regs[b4], regs[b4+1]))
			}
			if (op == 0xbe || op == 0xbf) && y == 0 {
				t.Frames[fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			v := uint64(longOp(op-0xbb, x, y))
			regs[a4], regs[a4+1], tags[a4], tags[a4+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xc6, 0xc7, 0xc8, 0xc9, 0xca: // binop-float/2addr
			x, y := math.Float32frombits(regs[a4]), math.Float32frombits(regs[b4])
			regs[a4], tags[a4] = math.Float32bits(floatOp(op-0xc6, x, y)), false
			pc++
		case 0xcb, 0xcc, 0xcd, 0xce, 0xcf: // binop-double/2addr
			x, y := math.Float64frombits(wide(regs[a4], regs[a4+1])), math.Float64frombits(wide(regs[b4], regs[b4+1]))
			v := math.Float64bits(doubleOp(op-0xcb, x, y))
			regs[a4], regs[a4+1], tags[a4], tags[a4+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7: // binop/lit16
			x, y := int32(regs[b4]), int32(int16(insns[pc+1]))
			k := op - 0xd0
			if k == 1 { // rsub-int
				x, y, k = y, x, 1
			}
			if (k == 3 || k == 4) && y == 0 {
				t.Frames[fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			regs[a4], tags[a4] = uint32(intOp(lit16Ops[k], x, y)), false
			pc += 2
		case 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xe1, 0xe2: // binop/lit8
			u := insns[pc+1]
			x, y := int32(regs[u&0xff]), int32(int8(u>>8))
			k := op - 0xd8
			if k == 1 {
				x, y = y, x
			}
			if (k == 3 || k == 4) && y == 0 {
				t.Frames[fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			regs[aa], tags[aa] = uint32(intOp(lit8Ops[k], x, y)), false
			pc += 2
		case 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff:
			t.Frames[fi].PC = pc
			t.ThrowNew("Ljava/lang/UnsupportedOperationException;", dex.Opcode(op).String()+" is not supported by this VM yet")
			goto throw
		default:
			t.Frames[fi].PC = pc
			t.ThrowNew("Ljava/lang/VerifyError;", "invalid opcode 0x"+strconv.FormatUint(uint64(op), 16)+" in "+m.String())
			goto throw
		}
		continue

	throw:
		// t.Exc is pending at t.Frames[fi].PC: find a handler in this
		// method or leave it to the caller.
		{
			target, ok := handler(t, m, t.Frames[fi].PC)
			if !ok {
				return false
			}
			pc = target
		}
	}
}

// Operation numbers of the int binops in 0x90..0x9a order.
const (
	opAdd = iota
	opSub
	opMul
	opDiv
	opRem
	opAnd
	opOr
	opXor
	opShl
	opShr
	opUshr
)

// lit16 ops are add rsub mul div rem and or xor; lit8 adds shl shr ushr.
var (
	lit16Ops = [8]uint8{opAdd, opSub, opMul, opDiv, opRem, opAnd, opOr, opXor}
	lit8Ops  = [11]uint8{opAdd, opSub, opMul, opDiv, opRem, opAnd, opOr, opXor, opShl, opShr, opUshr}
)

func intOp(k uint8, x, y int32) int32 {
	switch k {
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opMul:
		return x * y
	case opDiv:
		return x / y // Go defines MinInt32 / -1 = MinInt32, like Java
	case opRem:
		return x % y
	case opAnd:
		return x & y
	case opOr:
		return x | y
	case opXor:
		return x ^ y
	case opShl:
		return x << (uint32(y) & 31)
	case opShr:
		return x >> (uint32(y) & 31)
	default:
		return int32(uint32(x) >> (uint32(y) & 31))
	}
}

func longOp(k uint8, x, y int64) int64 {
	switch k {
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opMul:
		return x * y
	case opDiv:
		return x / y
	case opRem:
		return x % y
	case opAnd:
		return x & y
	case opOr:
		return x | y
	case opXor:
		return x ^ y
	case opShl:
		return x << (uint64(y) & 63)
	case opShr:
		return x >> (uint64(y) & 63)
	default:
		return int64(uint64(x) >> (uint64(y) & 63))
	}
}

func floatOp(k uint8, x, y float32) float32 {
	switch k {
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opMul:
		return x * y
	case opDiv:
		return x / y
	default:
		return float32(math.Mod(float64(x), float64(y)))
	}
}

func doubleOp(k uint8, x, y float64) float64 {
	switch k {
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opMul:
		return x * y
	case opDiv:
		return x / y
	default:
		return math.Mod(x, y)
	}
}

// handler finds the catch handler for t.Exc at pc in m; it moves the
// exception to t.Caught for move-exception.
func handler(t *runtime.Thread, m *runtime.Method, pc int) (int, bool) {
	code := m.Code
	exc := t.Exc
	if exc == 0 {
		return 0, false
	}
	vm := t.VM
	ec := vm.ClassOf(exc)
	for _, try := range code.Tries {
		if uint32(pc) < try.Start || uint32(pc) >= try.Start+uint32(try.Count) {
			continue
		}
		hd := &code.Handlers[try.Handler]
		for _, c := range hd.Catches {
			cc := m.Class.File.Type(c.Type)
			if cc == nil {
				cc = vm.LoadClass(m.Class.File.TypeName(c.Type))
			}
			if cc != nil && ec.AssignableTo(cc) {
				t.Exc, t.Caught = 0, exc
				return int(c.Addr), true
			}
		}
		if hd.HasCatchAll {
			t.Exc, t.Caught = 0, exc
			return int(hd.CatchAll), true
		}
		break
	}
	return 0, false
}
