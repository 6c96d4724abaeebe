package frontend

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
)

const (
	tVoid   = ssa.TypeVoid
	tInt    = ssa.TypeInt
	tLong   = ssa.TypeLong
	tFloat  = ssa.TypeFloat
	tDouble = ssa.TypeDouble
	tRef    = ssa.TypeRef
	tBool   = ssa.TypeBool
)

// binops in Dalvik's order (0x90 add-int ... ushr-int, then long, float,
// double), their /2addr forms and the literal forms.
var intBinops = [...]ssa.Op{ssa.OpAdd, ssa.OpSub, ssa.OpMul, ssa.OpDiv, ssa.OpRem, ssa.OpAnd, ssa.OpOr, ssa.OpXor, ssa.OpShl, ssa.OpShr, ssa.OpUshr}

var litBinops = [...]ssa.Op{ssa.OpAdd, ssa.OpSub /* rsub */, ssa.OpMul, ssa.OpDiv, ssa.OpRem, ssa.OpAnd, ssa.OpOr, ssa.OpXor, ssa.OpShl, ssa.OpShr, ssa.OpUshr}

// conversions 0x81..0x8c: source and result types
var convs = [...][2]ssa.Type{
	{tInt, tLong}, {tInt, tFloat}, {tInt, tDouble},
	{tLong, tInt}, {tLong, tFloat}, {tLong, tDouble},
	{tFloat, tInt}, {tFloat, tLong}, {tFloat, tDouble},
	{tDouble, tInt}, {tDouble, tLong}, {tDouble, tFloat},
}

var conds = [...]ssa.Op{ssa.OpEq, ssa.OpNe, ssa.OpLt, ssa.OpGe, ssa.OpGt, ssa.OpLe}

// element types of aget/aput by variant (0: aget, 1: -wide, 2: -object,
// 3: -boolean, 4: -byte, 5: -char, 6: -short); aget and aget-wide are
// inferred from their uses.
var elemTypes = [...]ssa.Type{tInt, tLong, tRef, tInt, tInt, tInt, tInt}

// reg reads a narrow register.
func (b *builder) reg(blk *ssa.Block, r uint32) *ssa.Value {
	b.checkReg(int(r), false)
	v := b.read(int(r), blk)
	if v == b.hiHalf {
		b.fail("v%d is the upper half of a wide register pair", r)
	}
	if v == b.undef {
		b.fail("v%d is read before it is written", r)
	}
	return v
}

// regWide reads a register pair.
func (b *builder) regWide(blk *ssa.Block, r uint32) *ssa.Value {
	b.checkReg(int(r), true)
	v := b.read(int(r), blk)
	if v == b.undef || v == b.hiHalf {
		b.fail("v%d is not a wide value", r)
	}
	// The upper half may still be a φ that turns out trivial: check it
	// once the φs are settled.
	b.pairs = append(b.pairs, pairCheck{b.read(int(r)+1, blk), b.pc, int(r)})
	return v
}

func (b *builder) setReg(blk *ssa.Block, r uint32, v *ssa.Value) { b.writeReg(blk, int(r), v) }

// translateBlock translates the instructions of bb into blk. A landing
// block, if given, receives the register write of the last instruction.
func (b *builder) translateBlock(blk *ssa.Block, bb *bblock, landing *ssa.Block) {
	for i := bb.first; i <= bb.last; i++ {
		x := &b.g.insns[i]
		b.pc = x.pc
		wblk := blk
		if i == bb.last && landing != nil {
			wblk = landing
		}
		b.translate(blk, wblk, x, bb, i == bb.first)
	}
	// the block's end
	last := b.g.insns[bb.last]
	fl := last.in.Op.Info().Flags
	if fl&(dex.FlagBranch|dex.FlagSwitch|dex.FlagReturn) == 0 && last.in.Op != 0x27 {
		blk.Kind = ssa.BlockPlain
	}
}

func (b *builder) index(i uint32, n int, what string) int64 {
	if int(i) >= n {
		b.fail("bad %s index %d", what, i)
	}
	return int64(i)
}

// translate appends the values of one instruction; wblk is where its
// result is written.
func (b *builder) translate(blk, wblk *ssa.Block, x *insn, bb *bblock, first bool) {
	in := &x.in
	op := uint8(in.Op)
	file := b.m.File
	switch {
	case op == 0x00:
	case op >= 0x01 && op <= 0x03, op >= 0x07 && op <= 0x09:
		src := b.reg(blk, in.B)
		t := tVoid
		if op >= 0x07 {
			t = tRef
		}
		v := b.emit(blk, ssa.OpCopy, t, 0, nil, src)
		if t == tVoid {
			b.flex[v] = true
		} else {
			b.wants[v] = ts(tRef)
		}
		b.setReg(wblk, in.A, v)
	case op >= 0x04 && op <= 0x06:
		src := b.regWide(blk, in.B)
		v := b.emit(blk, ssa.OpCopy, tVoid, 0, nil, src)
		b.flex[v], b.wide[v] = true, true
		b.setReg(wblk, in.A, v)
	case op >= 0x0a && op <= 0x0c:
		v := b.read(b.resultVar(), blk)
		if v == b.undef || v == b.hiHalf || v.Op == ssa.OpPhi {
			b.fail("%s not after an invoke or filled-new-array", in.Op)
		}
		if op == 0x0b != (v.Type.Wide() || b.wide[v]) {
			b.fail("%s of a result of type %s", in.Op, v.Type)
		}
		b.setReg(wblk, in.A, v)
		b.write(b.resultVar(), wblk, b.undef)
	case op == 0x0d:
		if !first || !b.isHandler(x.pc) {
			b.fail("move-exception at %#x is not the start of a handler", x.pc)
		}
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpException, tRef, 0, nil))
	case op == 0x0e:
		blk.Kind = ssa.BlockReturn
	case op >= 0x0f && op <= 0x11:
		var v *ssa.Value
		if op == 0x10 {
			v = b.regWide(blk, in.A)
		} else {
			v = b.reg(blk, in.A)
		}
		blk.Kind, blk.Control = ssa.BlockReturn, b.returnValue(blk, v)
	case op >= 0x12 && op <= 0x15:
		v := b.emit(blk, ssa.OpConst, tVoid, int64(int32(in.Lit)), nil)
		b.flex[v] = true
		b.setReg(wblk, in.A, v)
	case op >= 0x16 && op <= 0x19:
		v := b.emit(blk, ssa.OpConst, tVoid, in.Lit, nil)
		b.flex[v], b.wide[v] = true, true
		b.setReg(wblk, in.A, v)
	case op == 0x1a || op == 0x1b:
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpConstString, tRef, b.index(in.Index, len(file.Strings), "string"), nil))
	case op == 0x1c:
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpConstClass, tRef, b.index(in.Index, len(file.Types), "type"), nil))
	case op == 0x1d || op == 0x1e:
		o := b.reg(blk, in.A)
		b.nullCheck(blk, o)
		mop := ssa.OpMonitorEnter
		if op == 0x1e {
			mop = ssa.OpMonitorExit
		}
		b.emit(blk, mop, tVoid, 0, ts(tRef), o)
	case op == 0x1f:
		b.emit(blk, ssa.OpCheckCast, tVoid, b.index(in.Index, len(file.Types), "type"), ts(tRef), b.reg(blk, in.A))
	case op == 0x20:
		v := b.emit(blk, ssa.OpInstanceOf, tInt, b.index(in.Index, len(file.Types), "type"), ts(tRef), b.reg(blk, in.B))
		b.setReg(wblk, in.A, v)
	case op == 0x21:
		a := b.reg(blk, in.B)
		b.nullCheck(blk, a)
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpArrayLength, tInt, 0, ts(tRef), a))
	case op == 0x22:
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpNewInstance, tRef, b.index(in.Index, len(file.Types), "type"), nil))
	case op == 0x23:
		n := b.reg(blk, in.B)
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpNewArray, tRef, b.index(in.Index, len(file.Types), "type"), ts(tInt), n))
	case op == 0x24 || op == 0x25:
		idx := b.index(in.Index, len(file.Types), "type")
		d := file.TypeName(in.Index)
		if len(d) < 2 || d[0] != '[' {
			b.fail("filled-new-array of non-array type %s", d)
		}
		et := descriptorType(d[1:])
		if et.Wide() {
			b.fail("filled-new-array of wide elements %s", d)
		}
		regs := b.argRegs(in)
		args := make([]*ssa.Value, len(regs))
		wants := make([]ssa.Type, len(regs))
		for i, r := range regs {
			args[i], wants[i] = b.reg(blk, r), et
		}
		b.write(b.resultVar(), wblk, b.emit(blk, ssa.OpFilledNewArray, tRef, idx, wants, args...))
	case op == 0x26:
		a := b.reg(blk, in.A)
		p := in.Target(x.pc)
		if p < 0 || p >= int64(len(b.m.Code.Insns)) {
			b.fail("invalid fill-array-data payload offset %d", p)
		}
		if _, err := dex.DecodeArrayData(b.m.Code.Insns, int(p)); err != nil {
			b.fail("%v", err)
		}
		b.nullCheck(blk, a)
		b.emit(blk, ssa.OpFillArrayData, tVoid, p, ts(tRef), a)
	case op == 0x27:
		e := b.reg(blk, in.A)
		b.nullCheck(blk, e)
		blk.Kind, blk.Control = ssa.BlockThrow, b.pin(blk, e, tRef)
	case op >= 0x28 && op <= 0x2a:
		blk.Kind = ssa.BlockPlain
	case op == 0x2b || op == 0x2c:
		v := b.reg(blk, in.A)
		blk.Kind, blk.Control, blk.Keys = ssa.BlockSwitch, b.pin(blk, v, tInt), append([]int32(nil), bb.keys...)
	case op >= 0x2d && op <= 0x31:
		t := [...]ssa.Type{tFloat, tFloat, tDouble, tDouble, tLong}[op-0x2d]
		cop := ssa.OpCmpl
		if op == 0x2e || op == 0x30 {
			cop = ssa.OpCmpg
		}
		var x1, x2 *ssa.Value
		if t.Wide() {
			x1, x2 = b.regWide(blk, in.B), b.regWide(blk, in.C)
		} else {
			x1, x2 = b.reg(blk, in.B), b.reg(blk, in.C)
		}
		b.setReg(wblk, in.A, b.emit(blk, cop, tInt, 0, ts(t, t), x1, x2))
	case op >= 0x32 && op <= 0x37:
		c := conds[op-0x32]
		want := tInt
		if op <= 0x33 {
			want = tVoid // int or ref: as the other operand
		}
		cv := b.emit(blk, c, tBool, 0, ts(want, want), b.reg(blk, in.A), b.reg(blk, in.B))
		blk.Kind, blk.Control = ssa.BlockIf, cv
	case op >= 0x38 && op <= 0x3d:
		c := conds[op-0x38]
		want := tInt
		if op <= 0x39 {
			want = tVoid
		}
		zero := b.emit(blk, ssa.OpConst, tVoid, 0, nil)
		b.flex[zero] = true
		cv := b.emit(blk, c, tBool, 0, ts(want, want), b.reg(blk, in.A), zero)
		blk.Kind, blk.Control = ssa.BlockIf, cv
	case op >= 0x44 && op <= 0x4a:
		k := op - 0x44
		a, i := b.reg(blk, in.B), b.reg(blk, in.C)
		b.arrayChecks(blk, a, i)
		v := b.emit(blk, ssa.OpAGet, elemTypes[k], int64(k), ts(tRef, tInt), a, i)
		if k <= 1 {
			v.Type = tVoid
			b.flex[v] = true
			b.wide[v] = k == 1
		}
		b.setReg(wblk, in.A, v)
	case op >= 0x4b && op <= 0x51:
		k := op - 0x4b
		a, i := b.reg(blk, in.B), b.reg(blk, in.C)
		var val *ssa.Value
		if k == 1 {
			val = b.regWide(blk, in.A)
		} else {
			val = b.reg(blk, in.A)
		}
		b.arrayChecks(blk, a, i)
		et := elemTypes[k]
		if k <= 1 {
			et = tVoid // int or float, long or double: as the value is
		}
		b.emit(blk, ssa.OpAPut, tVoid, int64(k), ts(tRef, tInt, et), a, i, val)
	case op >= 0x52 && op <= 0x5f:
		fi := b.index(in.Index, len(file.Fields), "field")
		ft := b.descType(file.Fields[fi].Type)
		o := b.reg(blk, in.B)
		b.nullCheck(blk, o)
		if op <= 0x58 {
			b.setReg(wblk, in.A, b.emit(blk, ssa.OpIGet, ft, fi, ts(tRef), o))
		} else {
			b.emit(blk, ssa.OpIPut, tVoid, fi, ts(tRef, ft), o, b.valueOf(blk, in.A, ft))
		}
	case op >= 0x60 && op <= 0x6d:
		fi := b.index(in.Index, len(file.Fields), "field")
		ft := b.descType(file.Fields[fi].Type)
		if op <= 0x66 {
			b.setReg(wblk, in.A, b.emit(blk, ssa.OpSGet, ft, fi, nil))
		} else {
			b.emit(blk, ssa.OpSPut, tVoid, fi, ts(ft), b.valueOf(blk, in.A, ft))
		}
	case op >= 0x6e && op <= 0x72, op >= 0x74 && op <= 0x78:
		b.invoke(blk, wblk, in)
	case op >= 0x7b && op <= 0x80:
		t := [...]ssa.Type{tInt, tInt, tLong, tLong, tFloat, tDouble}[op-0x7b]
		uop := ssa.OpNeg
		if op == 0x7c || op == 0x7e {
			uop = ssa.OpNot
		}
		b.setReg(wblk, in.A, b.emit(blk, uop, t, 0, ts(t), b.valueOf(blk, in.B, t)))
	case op >= 0x81 && op <= 0x8c:
		c := convs[op-0x81]
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpConv, c[1], 0, ts(c[0]), b.valueOf(blk, in.B, c[0])))
	case op >= 0x8d && op <= 0x8f:
		cop := [...]ssa.Op{ssa.OpIntToByte, ssa.OpIntToChar, ssa.OpIntToShort}[op-0x8d]
		b.setReg(wblk, in.A, b.emit(blk, cop, tInt, 0, ts(tInt), b.reg(blk, in.B)))
	case op >= 0x90 && op <= 0xaf:
		t, bop := binop(op - 0x90)
		b.binop(blk, wblk, in.A, bop, t, b.valueOf(blk, in.B, t), b.shiftOperand(blk, bop, t, in.C))
	case op >= 0xb0 && op <= 0xcf:
		t, bop := binop(op - 0xb0)
		b.binop(blk, wblk, in.A, bop, t, b.valueOf(blk, in.A, t), b.shiftOperand(blk, bop, t, in.B))
	case op >= 0xd0 && op <= 0xe2:
		var bop ssa.Op
		if op <= 0xd7 {
			bop = litBinops[op-0xd0]
		} else {
			bop = litBinops[op-0xd8]
		}
		lit := b.emit(blk, ssa.OpConst, tInt, int64(int32(in.Lit)), nil)
		x := b.reg(blk, in.B)
		if op == 0xd1 || op == 0xd9 { // rsub-int: lit - x
			b.binop(blk, wblk, in.A, ssa.OpSub, tInt, lit, x)
		} else {
			b.binop(blk, wblk, in.A, bop, tInt, x, lit)
		}
	case op == 0xfe:
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpConstMethodHandle, tRef, b.index(in.Index, len(file.MethodHandles), "method handle"), nil))
	case op == 0xff:
		b.setReg(wblk, in.A, b.emit(blk, ssa.OpConstMethodType, tRef, b.index(in.Index, len(file.Protos), "proto"), nil))
	case op >= 0xfa && op <= 0xfd:
		b.fail("%s is not compiled", in.Op)
	default:
		b.fail("invalid opcode %#02x", op)
	}
}

// binop maps an offset into the 0x90 group to its type and op.
func binop(k uint8) (ssa.Type, ssa.Op) {
	switch {
	case k < 11:
		return tInt, intBinops[k]
	case k < 22:
		return tLong, intBinops[k-11]
	case k < 27:
		return tFloat, intBinops[k-22]
	}
	return tDouble, intBinops[k-27]
}

// valueOf reads register r as a value of type t (a pair if t is wide).
func (b *builder) valueOf(blk *ssa.Block, r uint32, t ssa.Type) *ssa.Value {
	if t.Wide() {
		return b.regWide(blk, r)
	}
	return b.reg(blk, r)
}

// shiftOperand reads the second operand: an int shift count for long
// shifts, else of the operation's type.
func (b *builder) shiftOperand(blk *ssa.Block, op ssa.Op, t ssa.Type, r uint32) *ssa.Value {
	if op == ssa.OpShl || op == ssa.OpShr || op == ssa.OpUshr {
		return b.reg(blk, r)
	}
	return b.valueOf(blk, r, t)
}

func (b *builder) binop(blk, wblk *ssa.Block, dst uint32, op ssa.Op, t ssa.Type, x, y *ssa.Value) {
	yt := t
	if op == ssa.OpShl || op == ssa.OpShr || op == ssa.OpUshr {
		yt = tInt
	}
	if (op == ssa.OpDiv || op == ssa.OpRem) && (t == tInt || t == tLong) {
		b.emit(blk, ssa.OpDivZeroCheck, tVoid, 0, ts(t), y)
	}
	b.setReg(wblk, dst, b.emit(blk, op, t, 0, ts(t, yt), x, y))
}

func (b *builder) nullCheck(blk *ssa.Block, v *ssa.Value) {
	b.emit(blk, ssa.OpNullCheck, tVoid, 0, ts(tRef), v)
}

func (b *builder) arrayChecks(blk *ssa.Block, a, i *ssa.Value) {
	b.nullCheck(blk, a)
	n := b.emit(blk, ssa.OpArrayLength, tInt, 0, ts(tRef), a)
	b.emit(blk, ssa.OpBoundsCheck, tVoid, 0, ts(tInt, tInt), i, n)
}

func (b *builder) returnValue(blk *ssa.Block, v *ssa.Value) *ssa.Value {
	ref := b.m.File.Methods[b.m.Method]
	rt := b.descType(b.m.File.Protos[ref.Proto].Return)
	if rt == tVoid {
		b.fail("return of a value from a void method")
	}
	return b.pin(blk, v, rt)
}

// pin returns a copy of v that must have type t: a block's control value
// goes through one so type inference sees the use (and can substitute a
// typed equivalent); copy propagation forwards it.
func (b *builder) pin(blk *ssa.Block, v *ssa.Value, t ssa.Type) *ssa.Value {
	return b.emit(blk, ssa.OpCopy, t, 0, ts(t), v)
}

// argRegs returns the registers an invoke or filled-new-array passes.
func (b *builder) argRegs(in *dex.Instruction) []uint32 {
	f := in.Op.Format()
	if f == dex.Format3rc || f == dex.Format4rcc {
		regs := make([]uint32, in.A)
		for i := range regs {
			regs[i] = in.C + uint32(i)
		}
		return regs
	}
	regs := make([]uint32, in.A)
	for i := range regs {
		regs[i] = uint32(in.Args[i])
	}
	return regs
}

var invokeOps = [...]ssa.Op{ssa.OpInvokeVirtual, ssa.OpInvokeSuper, ssa.OpInvokeDirect, ssa.OpInvokeStatic, ssa.OpInvokeInterface}

func (b *builder) invoke(blk, wblk *ssa.Block, in *dex.Instruction) {
	op := uint8(in.Op)
	k := op - 0x6e
	if op >= 0x74 {
		k = op - 0x74
	}
	file := b.m.File
	mi := b.index(in.Index, len(file.Methods), "method")
	ref := file.Methods[mi]
	proto := file.Protos[ref.Proto]
	static := invokeOps[k] == ssa.OpInvokeStatic
	var types []ssa.Type
	if !static {
		types = append(types, tRef)
	}
	for _, p := range proto.Params {
		types = append(types, b.descType(p))
	}
	regs := b.argRegs(in)
	var args []*ssa.Value
	r := 0
	for _, t := range types {
		if r >= len(regs) {
			b.fail("%s passes %d argument words, %s needs more", in.Op, len(regs), file.MethodName(uint32(mi)))
		}
		if t.Wide() {
			if r+1 >= len(regs) || regs[r+1] != regs[r]+1 {
				b.fail("%s: wide argument in v%d is not a register pair", in.Op, regs[r])
			}
			args = append(args, b.regWide(blk, regs[r]))
			r += 2
			continue
		}
		args = append(args, b.reg(blk, regs[r]))
		r++
	}
	if r != len(regs) {
		b.fail("%s passes %d argument words, %s takes %d", in.Op, len(regs), file.MethodName(uint32(mi)), r)
	}
	if !static {
		b.nullCheck(blk, args[0])
	}
	rt := b.descType(proto.Return)
	v := b.emit(blk, invokeOps[k], rt, mi, types, args...)
	if rt != tVoid {
		b.write(b.resultVar(), wblk, v)
	} else {
		b.write(b.resultVar(), wblk, b.undef)
	}
}

func (b *builder) isHandler(pc int) bool {
	for _, h := range b.m.Code.Handlers {
		if h.HasCatchAll && int(h.CatchAll) == pc {
			return true
		}
		for _, c := range h.Catches {
			if int(c.Addr) == pc {
				return true
			}
		}
	}
	return false
}
