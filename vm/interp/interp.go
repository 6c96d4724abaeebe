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
	"github.com/droidprof/droidprof/vm/heap"
	"github.com/droidprof/droidprof/vm/runtime"
)

// Interp is the portable interpreter. It has no state of its own.
type Interp struct{}

// New returns the interpreter.
func New() *Interp { return &Interp{} }

var _ runtime.Engine = (*Interp)(nil)

func wide(lo, hi uint32) uint64 { return uint64(lo) | uint64(hi)<<32 }

// Register operands of an instruction's first code unit: vA and vB of the
// B|A|op formats, vAA of the AA|op ones. Decoding them where they are used
// (instead of once per instruction) keeps them out of the dispatch loop's
// registers.
func vA(ins uint16) uint16  { return ins >> 8 & 0xf }
func vB(ins uint16) uint16  { return ins >> 12 }
func vAA(ins uint16) uint16 { return ins >> 8 }

// frame is the state of one activation.
type frame struct {
	insns []uint16
	regs  []uint32
	tags  []bool
	vm    *runtime.VM
	h     *heap.Heap
	file  *runtime.DexFile
	fi    int // index in Thread.Frames
}

// Execute runs m's code in the frame at fp.
func (in *Interp) Execute(t *runtime.Thread, m *runtime.Method, fp int) bool {
	// The frame's state lives behind one pointer: in a function this big
	// Go keeps few values in registers across the dispatch loop, and
	// reloading one pointer is cheaper than reloading a dozen locals at
	// every instruction.
	nregs := int(m.Code.Registers)
	fr := &frame{
		insns: m.Code.Insns,
		regs:  t.Stack[fp : fp+nregs : fp+nregs],
		tags:  t.Tags[fp : fp+nregs : fp+nregs],
		vm:    t.VM,
		h:     t.VM.Heap,
		file:  m.Class.File,
		fi:    len(t.Frames) - 1,
	}
	counts := t.OpCounts
	// The observers of every instruction share one test in the loop, so
	// that a run without them pays what it paid for the opcode counts
	// alone.
	acc := t.VM.InterpAccess
	observed := counts != nil || acc != nil
	pc := 0

	for {
		ins := fr.insns[pc]
		op := uint8(ins)
		if observed {
			if counts != nil {
				counts[op]++
				fr.vm.Instructions++
			}
			if acc != nil && accessOps[op] {
				barrier(acc, fr, ins, pc)
			}
		}
		switch op {
		case 0x00: // nop (payloads are never executed: they follow a goto or return)
			pc++
		case 0x01: // move vA, vB
			fr.regs[vA(ins)], fr.tags[vA(ins)] = fr.regs[vB(ins)], false
			pc++
		case 0x02: // move/from16
			b := fr.insns[pc+1]
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = fr.regs[b], false
			pc += 2
		case 0x03: // move/16
			a, b := fr.insns[pc+1], fr.insns[pc+2]
			fr.regs[a], fr.tags[a] = fr.regs[b], false
			pc += 3
		case 0x04: // move-wide
			lo, hi := fr.regs[vB(ins)], fr.regs[vB(ins)+1]
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = lo, hi, false, false
			pc++
		case 0x05:
			b := fr.insns[pc+1]
			lo, hi := fr.regs[b], fr.regs[b+1]
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = lo, hi, false, false
			pc += 2
		case 0x06:
			a, b := fr.insns[pc+1], fr.insns[pc+2]
			lo, hi := fr.regs[b], fr.regs[b+1]
			fr.regs[a], fr.regs[a+1], fr.tags[a], fr.tags[a+1] = lo, hi, false, false
			pc += 3
		case 0x07: // move-object
			fr.regs[vA(ins)], fr.tags[vA(ins)] = fr.regs[vB(ins)], true
			pc++
		case 0x08:
			b := fr.insns[pc+1]
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = fr.regs[b], true
			pc += 2
		case 0x09:
			a, b := fr.insns[pc+1], fr.insns[pc+2]
			fr.regs[a], fr.tags[a] = fr.regs[b], true
			pc += 3
		case 0x0a: // move-result
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(t.Ret), false
			pc++
		case 0x0b: // move-result-wide
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(t.Ret), uint32(t.Ret>>32), false, false
			pc++
		case 0x0c: // move-result-object
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(t.Ret), true
			pc++
		case 0x0d: // move-exception
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = t.Caught, true
			t.Caught = 0
			pc++
		case 0x0e: // return-void
			return true
		case 0x0f: // return
			t.Ret = uint64(fr.regs[vAA(ins)])
			return true
		case 0x10: // return-wide
			t.Ret = wide(fr.regs[vAA(ins)], fr.regs[vAA(ins)+1])
			return true
		case 0x11: // return-object
			t.Ret = uint64(fr.regs[vAA(ins)])
			return true
		case 0x12: // const/4
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(int32(int16(ins)>>12)), false
			pc++
		case 0x13: // const/16
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(int32(int16(fr.insns[pc+1]))), false
			pc += 2
		case 0x14: // const
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(fr.insns[pc+1])|uint32(fr.insns[pc+2])<<16, false
			pc += 3
		case 0x15: // const/high16
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(fr.insns[pc+1])<<16, false
			pc += 2
		case 0x16: // const-wide/16
			v := uint64(int64(int16(fr.insns[pc+1])))
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0x17: // const-wide/32
			v := uint64(int64(int32(uint32(fr.insns[pc+1]) | uint32(fr.insns[pc+2])<<16)))
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 3
		case 0x18: // const-wide
			v := uint64(fr.insns[pc+1]) | uint64(fr.insns[pc+2])<<16 | uint64(fr.insns[pc+3])<<32 | uint64(fr.insns[pc+4])<<48
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 5
		case 0x19: // const-wide/high16
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = 0, uint32(fr.insns[pc+1])<<16, false, false
			pc += 2
		case 0x1a, 0x1b: // const-string, const-string/jumbo
			idx := uint32(fr.insns[pc+1])
			size := 2
			if op == 0x1b {
				idx |= uint32(fr.insns[pc+2]) << 16
				size = 3
			}
			s := fr.file.String(idx)
			if s == 0 {
				t.Frames[fr.fi].PC = pc
				if s = t.ResolveString(fr.file, idx); s == 0 {
					goto throw
				}
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = s, true
			pc += size
		case 0x1c: // const-class
			c := fr.file.Type(uint32(fr.insns[pc+1]))
			if c == nil {
				t.Frames[fr.fi].PC = pc
				if c = t.ResolveType(fr.file, uint32(fr.insns[pc+1])); c == nil {
					goto throw
				}
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = c.Addr, true
			pc += 2
		case 0x1d: // monitor-enter
			o := fr.regs[vAA(ins)]
			t.Frames[fr.fi].PC = pc
			if o == 0 {
				t.ThrowNPE("Attempt to lock a null object")
				goto throw
			}
			t.MonitorEnter(o)
			pc++
		case 0x1e: // monitor-exit
			o := fr.regs[vAA(ins)]
			t.Frames[fr.fi].PC = pc
			pc++ // an exception here is raised as if the pc had advanced
			if o == 0 {
				t.ThrowNPE("Attempt to unlock a null object")
				goto throw
			}
			if !t.MonitorExit(o) {
				goto throw
			}
		case 0x1f: // check-cast
			o := fr.regs[vAA(ins)]
			if o != 0 {
				c := fr.file.Type(uint32(fr.insns[pc+1]))
				t.Frames[fr.fi].PC = pc
				if c == nil {
					if c = t.ResolveType(fr.file, uint32(fr.insns[pc+1])); c == nil {
						goto throw
					}
					o = fr.regs[vAA(ins)]
				}
				if oc := fr.vm.ClassOf(o); !oc.AssignableTo(c) {
					t.ThrowClassCast(oc, c)
					goto throw
				}
			}
			pc += 2
		case 0x20: // instance-of vA, vB, type
			c := fr.file.Type(uint32(fr.insns[pc+1]))
			if c == nil {
				t.Frames[fr.fi].PC = pc
				if c = t.ResolveType(fr.file, uint32(fr.insns[pc+1])); c == nil {
					goto throw
				}
			}
			o := fr.regs[vB(ins)]
			v := uint32(0)
			if o != 0 && fr.vm.ClassOf(o).AssignableTo(c) {
				v = 1
			}
			fr.regs[vA(ins)], fr.tags[vA(ins)] = v, false
			pc += 2
		case 0x21: // array-length
			o := fr.regs[vB(ins)]
			if o == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNPE("Attempt to get length of null array")
				goto throw
			}
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(fr.vm.ArrayLength(o)), false
			pc++
		case 0x22: // new-instance
			t.Frames[fr.fi].PC = pc
			c := fr.file.Type(uint32(fr.insns[pc+1]))
			if c == nil {
				if c = t.ResolveType(fr.file, uint32(fr.insns[pc+1])); c == nil {
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
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = o, true
			pc += 2
		case 0x23: // new-array vA, vB, type
			t.Frames[fr.fi].PC = pc
			c := fr.file.Type(uint32(fr.insns[pc+1]))
			if c == nil {
				if c = t.ResolveType(fr.file, uint32(fr.insns[pc+1])); c == nil {
					goto throw
				}
			}
			if !c.IsArray() {
				t.ThrowNew("Ljava/lang/VerifyError;", "new-array of non-array type "+c.Name)
				goto throw
			}
			o := t.NewArray(c, int32(fr.regs[vB(ins)]))
			if o == 0 {
				goto throw
			}
			fr.regs[vA(ins)], fr.tags[vA(ins)] = o, true
			pc += 2
		case 0x24, 0x25: // filled-new-array{,/range}
			t.Frames[fr.fi].PC = pc
			if !in.filledNewArray(t, fr.file, fr.regs, fr.insns, pc, op == 0x25) {
				goto throw
			}
			pc += 3
		case 0x26: // fill-array-data
			t.Frames[fr.fi].PC = pc
			if !t.FillArrayData(fr.regs[vAA(ins)], fr.insns, pc+int(int32(uint32(fr.insns[pc+1])|uint32(fr.insns[pc+2])<<16))) {
				goto throw
			}
			pc += 3
		case 0x27: // throw
			t.Frames[fr.fi].PC = pc
			if o := fr.regs[vAA(ins)]; o == 0 {
				t.ThrowNPE("throw with null exception")
			} else {
				t.Throw(o)
			}
			goto throw
		case 0x28: // goto
			off := int(int8(vAA(ins)))
			if off <= 0 && fr.vm.Flags() != 0 {
				t.Frames[fr.fi].PC = pc
				t.Safepoint()
			}
			pc += off
		case 0x29: // goto/16
			off := int(int16(fr.insns[pc+1]))
			if off <= 0 && fr.vm.Flags() != 0 {
				t.Frames[fr.fi].PC = pc
				t.Safepoint()
			}
			pc += off
		case 0x2a: // goto/32
			off := int(int32(uint32(fr.insns[pc+1]) | uint32(fr.insns[pc+2])<<16))
			if off <= 0 && fr.vm.Flags() != 0 {
				t.Frames[fr.fi].PC = pc
				t.Safepoint()
			}
			pc += off
		case 0x2b: // packed-switch
			p := pc + int(int32(uint32(fr.insns[pc+1])|uint32(fr.insns[pc+2])<<16))
			size := int(fr.insns[p+1])
			first := int32(uint32(fr.insns[p+2]) | uint32(fr.insns[p+3])<<16)
			k := int64(int32(fr.regs[vAA(ins)])) - int64(first)
			if k >= 0 && k < int64(size) {
				i := p + 4 + 2*int(k)
				off := int(int32(uint32(fr.insns[i]) | uint32(fr.insns[i+1])<<16))
				if off <= 0 && fr.vm.Flags() != 0 {
					t.Frames[fr.fi].PC = pc
					t.Safepoint()
				}
				pc += off
			} else {
				pc += 3
			}
		case 0x2c: // sparse-switch
			p := pc + int(int32(uint32(fr.insns[pc+1])|uint32(fr.insns[pc+2])<<16))
			size := int(fr.insns[p+1])
			key := int32(fr.regs[vAA(ins)])
			lo, hi := 0, size-1
			next := pc + 3
			for lo <= hi {
				mid := (lo + hi) / 2
				i := p + 2 + 2*mid
				k := int32(uint32(fr.insns[i]) | uint32(fr.insns[i+1])<<16)
				if key < k {
					hi = mid - 1
				} else if key > k {
					lo = mid + 1
				} else {
					j := p + 2 + 2*size + 2*mid
					next = pc + int(int32(uint32(fr.insns[j])|uint32(fr.insns[j+1])<<16))
					break
				}
			}
			if next <= pc && fr.vm.Flags() != 0 {
				t.Frames[fr.fi].PC = pc
				t.Safepoint()
			}
			pc = next
		case 0x2d, 0x2e: // cmpl-float, cmpg-float
			u := fr.insns[pc+1]
			x, y := math.Float32frombits(fr.regs[u&0xff]), math.Float32frombits(fr.regs[u>>8])
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
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(r), false
			pc += 2
		case 0x2f, 0x30: // cmpl-double, cmpg-double
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := math.Float64frombits(wide(fr.regs[b], fr.regs[b+1])), math.Float64frombits(wide(fr.regs[c], fr.regs[c+1]))
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
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(r), false
			pc += 2
		case 0x31: // cmp-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			var r int32
			if x < y {
				r = -1
			} else if x > y {
				r = 1
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(r), false
			pc += 2
		case 0x32, 0x33, 0x34, 0x35, 0x36, 0x37: // if-test vA, vB
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
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
				off := int(int16(fr.insns[pc+1]))
				if off <= 0 && fr.vm.Flags() != 0 {
					t.Frames[fr.fi].PC = pc
					t.Safepoint()
				}
				pc += off
			} else {
				pc += 2
			}
		case 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d: // if-testz vAA
			x := int32(fr.regs[vAA(ins)])
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
				off := int(int16(fr.insns[pc+1]))
				if off <= 0 && fr.vm.Flags() != 0 {
					t.Frames[fr.fi].PC = pc
					t.Safepoint()
				}
				pc += off
			} else {
				pc += 2
			}
		case 0x44: // aget
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, false)
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = fr.h.U32(arr+12+idx*4), false
			pc += 2
		case 0x45: // aget-wide
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, false)
				goto throw
			}
			v := fr.h.U64(arr + 16 + idx*8)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0x46: // aget-object
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, false)
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = fr.h.U32(arr+12+idx*4), true
			pc += 2
		case 0x47: // aget-boolean
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, false)
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(fr.h.U8(arr+12+idx)), false
			pc += 2
		case 0x48: // aget-byte
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, false)
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(int32(int8(fr.h.U8(arr+12+idx)))), false
			pc += 2
		case 0x49: // aget-char
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, false)
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(fr.h.U16(arr+12+idx*2)), false
			pc += 2
		case 0x4a: // aget-short
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, false)
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(int32(int16(fr.h.U16(arr+12+idx*2)))), false
			pc += 2
		case 0x4b: // aput
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, true)
				goto throw
			}
			fr.h.SetU32(arr+12+idx*4, fr.regs[vAA(ins)])
			pc += 2
		case 0x4c: // aput-wide
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, true)
				goto throw
			}
			fr.h.SetU64(arr+16+idx*8, wide(fr.regs[vAA(ins)], fr.regs[vAA(ins)+1]))
			pc += 2
		case 0x4d: // aput-object
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, true)
				goto throw
			}
			if v := fr.regs[vAA(ins)]; v != 0 {
				if ac, vc := fr.vm.ClassOf(arr), fr.vm.ClassOf(v); !vc.AssignableTo(ac.Component) {
					t.Frames[fr.fi].PC = pc
					t.ThrowNew("Ljava/lang/ArrayStoreException;", vc.PrettyName()+" cannot be stored in an array of type "+ac.PrettyName())
					goto throw
				}
			}
			fr.vm.StoreRef(arr, arr+12+idx*4, fr.regs[vAA(ins)])
			pc += 2
		case 0x4e: // aput-boolean
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, true)
				goto throw
			}
			fr.h.SetU8(arr+12+idx, uint8(fr.regs[vAA(ins)]))
			pc += 2
		case 0x4f: // aput-byte
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, true)
				goto throw
			}
			fr.h.SetU8(arr+12+idx, uint8(fr.regs[vAA(ins)]))
			pc += 2
		case 0x50: // aput-char
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, true)
				goto throw
			}
			fr.h.SetU16(arr+12+idx*2, uint16(fr.regs[vAA(ins)]))
			pc += 2
		case 0x51: // aput-short
			u := fr.insns[pc+1]
			arr, idx := fr.regs[u&0xff], fr.regs[u>>8]
			if arr == 0 || idx >= fr.h.U32(arr+8) {
				t.Frames[fr.fi].PC = pc
				arrayFault(t, arr, idx, true)
				goto throw
			}
			fr.h.SetU16(arr+12+idx*2, uint16(fr.regs[vAA(ins)]))
			pc += 2
		case 0x52: // iget
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, true); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.regs[vA(ins)], fr.tags[vA(ins)] = fr.h.U32(addr), false
			pc += 2
		case 0x53: // iget-wide
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, true); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			v := fr.h.U64(addr)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0x54: // iget-object
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, true); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.regs[vA(ins)], fr.tags[vA(ins)] = fr.h.U32(addr), true
			pc += 2
		case 0x55: // iget-boolean
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, true); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(fr.h.U8(addr)), false
			pc += 2
		case 0x56: // iget-byte
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, true); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(int32(int8(fr.h.U8(addr)))), false
			pc += 2
		case 0x57: // iget-char
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, true); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(fr.h.U16(addr)), false
			pc += 2
		case 0x58: // iget-short
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, true); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(int32(int16(fr.h.U16(addr)))), false
			pc += 2
		case 0x59: // iput
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, false); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.h.SetU32(addr, fr.regs[vA(ins)])
			pc += 2
		case 0x5a: // iput-wide
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, false); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.h.SetU64(addr, wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1]))
			pc += 2
		case 0x5b: // iput-object
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, false); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			fr.vm.StoreRef(o, o+f.Offset, fr.regs[vA(ins)])
			pc += 2
		case 0x5c: // iput-boolean
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, false); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.h.SetU8(addr, uint8(fr.regs[vA(ins)]))
			pc += 2
		case 0x5d: // iput-byte
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, false); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.h.SetU8(addr, uint8(fr.regs[vA(ins)]))
			pc += 2
		case 0x5e: // iput-char
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, false); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.h.SetU16(addr, uint16(fr.regs[vA(ins)]))
			pc += 2
		case 0x5f: // iput-short
			f := fr.file.Field(uint32(fr.insns[pc+1]))
			o := fr.regs[vB(ins)]
			if f == nil || f.Static || o == 0 {
				t.Frames[fr.fi].PC = pc
				if f = fieldFault(t, fr.file, uint32(fr.insns[pc+1]), o, false); f == nil {
					goto throw
				}
				o = fr.regs[vB(ins)] // resolving may have run a moving collection
			}
			addr := o + f.Offset
			fr.h.SetU16(addr, uint16(fr.regs[vA(ins)]))
			pc += 2
		case 0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, // sget*
			0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d: // sput*
			idx := uint32(fr.insns[pc+1])
			f := fr.file.Field(idx)
			if f == nil || !f.Static || f.Class.State != runtime.ClassInitialized {
				t.Frames[fr.fi].PC = pc
				if f = t.ResolveField(fr.file, idx, true); f == nil {
					goto throw
				}
				if f.Class.State != runtime.ClassInitialized && !t.EnsureInitialized(f.Class) {
					goto throw
				}
			}
			addr := f.Class.Addr + f.Offset
			switch op {
			case 0x60:
				fr.regs[vAA(ins)], fr.tags[vAA(ins)] = fr.h.U32(addr), false
			case 0x61:
				v := fr.h.U64(addr)
				fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			case 0x62:
				fr.regs[vAA(ins)], fr.tags[vAA(ins)] = fr.h.U32(addr), true
			case 0x63:
				fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(fr.h.U8(addr)), false
			case 0x64:
				fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(int32(int8(fr.h.U8(addr)))), false
			case 0x65:
				fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(fr.h.U16(addr)), false
			case 0x66:
				fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(int32(int16(fr.h.U16(addr)))), false
			case 0x67:
				fr.h.SetU32(addr, fr.regs[vAA(ins)])
			case 0x69:
				fr.vm.StoreRef(f.Class.Addr, addr, fr.regs[vAA(ins)])
			case 0x68:
				fr.h.SetU64(addr, wide(fr.regs[vAA(ins)], fr.regs[vAA(ins)+1]))
			case 0x6a, 0x6b:
				fr.h.SetU8(addr, uint8(fr.regs[vAA(ins)]))
			default:
				fr.h.SetU16(addr, uint16(fr.regs[vAA(ins)]))
			}
			pc += 2
		case 0x6e, 0x6f, 0x70, 0x71, 0x72, 0x74, 0x75, 0x76, 0x77, 0x78: // invoke-*
			t.Frames[fr.fi].PC = pc
			if !in.invoke(t, m, fr.file, fr.regs, fr.tags, fr.insns, pc, op) {
				goto throw
			}
			pc += 3
		case 0x7b: // neg-int
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(-int32(fr.regs[vB(ins)])), false
			pc++
		case 0x7c: // not-int
			fr.regs[vA(ins)], fr.tags[vA(ins)] = ^fr.regs[vB(ins)], false
			pc++
		case 0x7d: // neg-long
			v := uint64(-int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1])))
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0x7e: // not-long
			v := ^wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1])
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0x7f: // neg-float
			fr.regs[vA(ins)], fr.tags[vA(ins)] = fr.regs[vB(ins)]^0x80000000, false
			pc++
		case 0x80: // neg-double
			lo, hi := fr.regs[vB(ins)], fr.regs[vB(ins)+1]^0x80000000
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = lo, hi, false, false
			pc++
		case 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f:
			convert(op, fr.regs, fr.tags, vA(ins), vB(ins))
			pc++
		case 0x90: // add-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x+y), false
			pc += 2
		case 0x91: // sub-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x-y), false
			pc += 2
		case 0x92: // mul-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x*y), false
			pc += 2
		case 0x93: // div-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x/y), false
			pc += 2
		case 0x94: // rem-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x%y), false
			pc += 2
		case 0x95: // and-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x&y), false
			pc += 2
		case 0x96: // or-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x|y), false
			pc += 2
		case 0x97: // xor-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x^y), false
			pc += 2
		case 0x98: // shl-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x<<(uint32(y)&31)), false
			pc += 2
		case 0x99: // shr-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x>>(uint32(y)&31)), false
			pc += 2
		case 0x9a: // ushr-int
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(int32(uint32(x)>>(uint32(y)&31))), false
			pc += 2
		case 0x9b: // add-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			v := uint64(x + y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0x9c: // sub-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			v := uint64(x - y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0x9d: // mul-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			v := uint64(x * y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0x9e: // div-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			v := uint64(x / y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0x9f: // rem-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			v := uint64(x % y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xa0: // and-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			v := uint64(x & y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xa1: // or-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			v := uint64(x | y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xa2: // xor-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(wide(fr.regs[c], fr.regs[c+1]))
			v := uint64(x ^ y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xa3: // shl-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(int32(fr.regs[c]))
			v := uint64(x << (uint64(y) & 63))
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xa4: // shr-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(int32(fr.regs[c]))
			v := uint64(x >> (uint64(y) & 63))
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xa5: // ushr-long
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := int64(wide(fr.regs[b], fr.regs[b+1])), int64(int32(fr.regs[c]))
			v := uint64(int64(uint64(x) >> (uint64(y) & 63)))
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xa6: // add-float
			u := fr.insns[pc+1]
			x, y := math.Float32frombits(fr.regs[u&0xff]), math.Float32frombits(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = math.Float32bits(x+y), false
			pc += 2
		case 0xa7: // sub-float
			u := fr.insns[pc+1]
			x, y := math.Float32frombits(fr.regs[u&0xff]), math.Float32frombits(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = math.Float32bits(x-y), false
			pc += 2
		case 0xa8: // mul-float
			u := fr.insns[pc+1]
			x, y := math.Float32frombits(fr.regs[u&0xff]), math.Float32frombits(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = math.Float32bits(x*y), false
			pc += 2
		case 0xa9: // div-float
			u := fr.insns[pc+1]
			x, y := math.Float32frombits(fr.regs[u&0xff]), math.Float32frombits(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = math.Float32bits(x/y), false
			pc += 2
		case 0xaa: // rem-float
			u := fr.insns[pc+1]
			x, y := math.Float32frombits(fr.regs[u&0xff]), math.Float32frombits(fr.regs[u>>8])
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = math.Float32bits(float32(math.Mod(float64(x), float64(y)))), false
			pc += 2
		case 0xab: // add-double
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := math.Float64frombits(wide(fr.regs[b], fr.regs[b+1])), math.Float64frombits(wide(fr.regs[c], fr.regs[c+1]))
			v := math.Float64bits(x + y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xac: // sub-double
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := math.Float64frombits(wide(fr.regs[b], fr.regs[b+1])), math.Float64frombits(wide(fr.regs[c], fr.regs[c+1]))
			v := math.Float64bits(x - y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xad: // mul-double
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := math.Float64frombits(wide(fr.regs[b], fr.regs[b+1])), math.Float64frombits(wide(fr.regs[c], fr.regs[c+1]))
			v := math.Float64bits(x * y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xae: // div-double
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := math.Float64frombits(wide(fr.regs[b], fr.regs[b+1])), math.Float64frombits(wide(fr.regs[c], fr.regs[c+1]))
			v := math.Float64bits(x / y)
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xaf: // rem-double
			u := fr.insns[pc+1]
			b, c := u&0xff, u>>8
			x, y := math.Float64frombits(wide(fr.regs[b], fr.regs[b+1])), math.Float64frombits(wide(fr.regs[c], fr.regs[c+1]))
			v := math.Float64bits(math.Mod(x, y))
			fr.regs[vAA(ins)], fr.regs[vAA(ins)+1], fr.tags[vAA(ins)], fr.tags[vAA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc += 2
		case 0xb0: // add-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x+y), false
			pc++
		case 0xb1: // sub-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x-y), false
			pc++
		case 0xb2: // mul-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x*y), false
			pc++
		case 0xb3: // div-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x/y), false
			pc++
		case 0xb4: // rem-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x%y), false
			pc++
		case 0xb5: // and-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x&y), false
			pc++
		case 0xb6: // or-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x|y), false
			pc++
		case 0xb7: // xor-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x^y), false
			pc++
		case 0xb8: // shl-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x<<(uint32(y)&31)), false
			pc++
		case 0xb9: // shr-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x>>(uint32(y)&31)), false
			pc++
		case 0xba: // ushr-int/2addr
			x, y := int32(fr.regs[vA(ins)]), int32(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(int32(uint32(x)>>(uint32(y)&31))), false
			pc++
		case 0xbb: // add-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := uint64(x + y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xbc: // sub-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := uint64(x - y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xbd: // mul-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := uint64(x * y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xbe: // div-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			v := uint64(x / y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xbf: // rem-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			v := uint64(x % y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xc0: // and-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := uint64(x & y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xc1: // or-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := uint64(x | y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xc2: // xor-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := uint64(x ^ y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xc3: // shl-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(int32(fr.regs[vB(ins)]))
			v := uint64(x << (uint64(y) & 63))
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xc4: // shr-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(int32(fr.regs[vB(ins)]))
			v := uint64(x >> (uint64(y) & 63))
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xc5: // ushr-long/2addr
			x, y := int64(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), int64(int32(fr.regs[vB(ins)]))
			v := uint64(int64(uint64(x) >> (uint64(y) & 63)))
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xc6: // add-float/2addr
			x, y := math.Float32frombits(fr.regs[vA(ins)]), math.Float32frombits(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = math.Float32bits(x+y), false
			pc++
		case 0xc7: // sub-float/2addr
			x, y := math.Float32frombits(fr.regs[vA(ins)]), math.Float32frombits(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = math.Float32bits(x-y), false
			pc++
		case 0xc8: // mul-float/2addr
			x, y := math.Float32frombits(fr.regs[vA(ins)]), math.Float32frombits(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = math.Float32bits(x*y), false
			pc++
		case 0xc9: // div-float/2addr
			x, y := math.Float32frombits(fr.regs[vA(ins)]), math.Float32frombits(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = math.Float32bits(x/y), false
			pc++
		case 0xca: // rem-float/2addr
			x, y := math.Float32frombits(fr.regs[vA(ins)]), math.Float32frombits(fr.regs[vB(ins)])
			fr.regs[vA(ins)], fr.tags[vA(ins)] = math.Float32bits(float32(math.Mod(float64(x), float64(y)))), false
			pc++
		case 0xcb: // add-double/2addr
			x, y := math.Float64frombits(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), math.Float64frombits(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := math.Float64bits(x + y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xcc: // sub-double/2addr
			x, y := math.Float64frombits(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), math.Float64frombits(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := math.Float64bits(x - y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xcd: // mul-double/2addr
			x, y := math.Float64frombits(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), math.Float64frombits(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := math.Float64bits(x * y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xce: // div-double/2addr
			x, y := math.Float64frombits(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), math.Float64frombits(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := math.Float64bits(x / y)
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xcf: // rem-double/2addr
			x, y := math.Float64frombits(wide(fr.regs[vA(ins)], fr.regs[vA(ins)+1])), math.Float64frombits(wide(fr.regs[vB(ins)], fr.regs[vB(ins)+1]))
			v := math.Float64bits(math.Mod(x, y))
			fr.regs[vA(ins)], fr.regs[vA(ins)+1], fr.tags[vA(ins)], fr.tags[vA(ins)+1] = uint32(v), uint32(v>>32), false, false
			pc++
		case 0xd0: // add-int/lit16
			x, y := int32(fr.regs[vB(ins)]), int32(int16(fr.insns[pc+1]))
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x+y), false
			pc += 2
		case 0xd1: // rsub-int/lit16
			x, y := int32(fr.regs[vB(ins)]), int32(int16(fr.insns[pc+1]))
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(y-x), false
			pc += 2
		case 0xd2: // mul-int/lit16
			x, y := int32(fr.regs[vB(ins)]), int32(int16(fr.insns[pc+1]))
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x*y), false
			pc += 2
		case 0xd3: // div-int/lit16
			x, y := int32(fr.regs[vB(ins)]), int32(int16(fr.insns[pc+1]))
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x/y), false
			pc += 2
		case 0xd4: // rem-int/lit16
			x, y := int32(fr.regs[vB(ins)]), int32(int16(fr.insns[pc+1]))
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x%y), false
			pc += 2
		case 0xd5: // and-int/lit16
			x, y := int32(fr.regs[vB(ins)]), int32(int16(fr.insns[pc+1]))
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x&y), false
			pc += 2
		case 0xd6: // or-int/lit16
			x, y := int32(fr.regs[vB(ins)]), int32(int16(fr.insns[pc+1]))
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x|y), false
			pc += 2
		case 0xd7: // xor-int/lit16
			x, y := int32(fr.regs[vB(ins)]), int32(int16(fr.insns[pc+1]))
			fr.regs[vA(ins)], fr.tags[vA(ins)] = uint32(x^y), false
			pc += 2
		case 0xd8: // add-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x+y), false
			pc += 2
		case 0xd9: // rsub-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(y-x), false
			pc += 2
		case 0xda: // mul-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x*y), false
			pc += 2
		case 0xdb: // div-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x/y), false
			pc += 2
		case 0xdc: // rem-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			if y == 0 {
				t.Frames[fr.fi].PC = pc
				t.ThrowNew("Ljava/lang/ArithmeticException;", "divide by zero")
				goto throw
			}
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x%y), false
			pc += 2
		case 0xdd: // and-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x&y), false
			pc += 2
		case 0xde: // or-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x|y), false
			pc += 2
		case 0xdf: // xor-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x^y), false
			pc += 2
		case 0xe0: // shl-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x<<(uint32(y)&31)), false
			pc += 2
		case 0xe1: // shr-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(x>>(uint32(y)&31)), false
			pc += 2
		case 0xe2: // ushr-int/lit8
			u := fr.insns[pc+1]
			x, y := int32(fr.regs[u&0xff]), int32(int8(u>>8))
			fr.regs[vAA(ins)], fr.tags[vAA(ins)] = uint32(int32(uint32(x)>>(uint32(y)&31))), false
			pc += 2
		case 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff:
			t.Frames[fr.fi].PC = pc
			t.ThrowNew("Ljava/lang/UnsupportedOperationException;", dex.Opcode(op).String()+" is not supported by this VM yet")
			goto throw
		default:
			t.Frames[fr.fi].PC = pc
			t.ThrowNew("Ljava/lang/VerifyError;", "invalid opcode 0x"+strconv.FormatUint(uint64(op), 16)+" in "+m.String())
			goto throw
		}
		continue

	throw:
		// t.Exc is pending at t.Frames[fr.fi].PC: find a handler in this
		// method or leave it to the caller.
		{
			target, ok := handler(t, m, t.Frames[fr.fi].PC)
			if !ok {
				return false
			}
			pc = target
		}
	}
}

// handler finds the catch handler for t.Exc at pc in m; it moves the
// exception to t.Caught for move-exception.
func handler(t *runtime.Thread, m *runtime.Method, pc int) (int, bool) {
	exc := t.Exc
	if exc == 0 {
		return 0, false
	}
	addr, ok := t.CatchAddr(m, pc, exc)
	if ok {
		t.Exc, t.Caught = 0, exc
	}
	return addr, ok
}

// arrayFault throws the exception for an array access that failed the
// fast check: a null array or an index out of bounds.
func arrayFault(t *runtime.Thread, arr, idx uint32, write bool) {
	switch {
	case arr == 0 && write:
		t.ThrowNPE("Attempt to write to null array")
	case arr == 0:
		t.ThrowNPE("Attempt to read from null array")
	default:
		t.ThrowAIOOBE(t.VM.ArrayLength(arr), int32(idx))
	}
}

// fieldFault handles an instance field access whose field is unresolved
// or whose object is null: it resolves the field and returns it, or
// throws (NoSuchFieldError, NullPointerException) and returns nil.
func fieldFault(t *runtime.Thread, file *runtime.DexFile, idx, obj uint32, read bool) *runtime.Field {
	f := t.ResolveField(file, idx, false)
	if f == nil {
		return nil
	}
	if obj == 0 {
		t.ThrowNPE(runtime.NPEField(read, f))
		return nil
	}
	return f
}
