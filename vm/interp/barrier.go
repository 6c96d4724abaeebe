package interp

import "github.com/droidprof/droidprof/vm/gc"

// barrier is paper 003's access barrier at level none, run before the
// instruction at pc with runtime.Hooks.InterpreterBarriers: it marks in
// the access bitmap every object the instruction accesses — the object
// of a field get or put, the array of an element get or put, of
// array-length and of fill-array-data, the receiver of an instance
// invoke, the object of monitor-enter, and both operands of if-eq and
// if-ne on two references — the access points of the aot compiler's
// barriers (vm/aot/README.md), so that either engine records the same
// accesses. Null and objects outside the main space are ignored by the
// bitmap. Marking before the instruction runs puts the access in the
// epoch it starts in, at the address the object has then.
func barrier(acc *gc.AccessBitmap, fr *frame, ins uint16, pc int) {
	var a, b uint32
	switch op := uint8(ins); {
	case op >= 0x52 && op <= 0x5f: // iget*, iput*
		a = fr.regs[vB(ins)]
	case op >= 0x44 && op <= 0x51: // aget*, aput*
		a = fr.regs[fr.insns[pc+1]&0xff]
	case op == 0x21: // array-length
		a = fr.regs[vB(ins)]
	case op == 0x1d, op == 0x26: // monitor-enter, fill-array-data
		a = fr.regs[vAA(ins)]
	case op == 0x6e, op == 0x6f, op == 0x70, op == 0x72: // invoke-virtual, -super, -direct, -interface
		if ins>>12 > 0 {
			a = fr.regs[fr.insns[pc+2]&0xf]
		}
	case op == 0x74, op == 0x75, op == 0x76, op == 0x78: // their /range forms
		if ins>>8 > 0 {
			a = fr.regs[fr.insns[pc+2]]
		}
	case op == 0x32, op == 0x33: // if-eq, if-ne
		if fr.tags[vA(ins)] && fr.tags[vB(ins)] {
			a, b = fr.regs[vA(ins)], fr.regs[vB(ins)]
		}
	default:
		return
	}
	mark(acc, a)
	if b != 0 {
		mark(acc, b)
	}
}

// accessOps marks the opcodes barrier handles, so that the interpreter
// calls it only for them: most instructions access no object.
var accessOps = func() (ops [256]bool) {
	for op := 0x44; op <= 0x5f; op++ { // aget*, aput*, iget*, iput*
		ops[op] = true
	}
	for _, op := range []int{0x21, 0x1d, 0x26, 0x6e, 0x6f, 0x70, 0x72, 0x74, 0x75, 0x76, 0x78, 0x32, 0x33} {
		ops[op] = true
	}
	return ops
}()

// mark sets a's bit, and the shadow bitmap's when the aot engine's check
// barriers keep one (so that its comparison holds in methods left to the
// interpreter).
func mark(acc *gc.AccessBitmap, a uint32) {
	if a == 0 {
		return
	}
	acc.Mark(a)
	if acc.Shadow != nil {
		acc.Shadow.Mark(a)
	}
}
