package verify

import (
	"errors"
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
)

// structure makes the checks that need no types: decoding, operand
// bounds, targets, payloads, try items and argument counts.
func (v *verifier) structure() {
	c := v.code
	v.insns = c.Insns
	n := len(v.insns)
	if n == 0 {
		v.fail("empty code")
	}
	if c.Ins > c.Registers {
		v.fail("bad register counts (ins=%d regs=%d)", c.Ins, c.Registers)
	}
	words := 0
	if !v.static() {
		words++
	}
	for _, p := range v.params {
		words += width(p)
	}
	if words != int(c.Ins) {
		v.fail("ins_size %d does not match the %d argument words of the signature", c.Ins, words)
	}
	v.insn = make([]dex.Instruction, n)
	v.flags = make([]uint8, n)
	for pc := 0; pc < n; {
		v.pc = pc
		in := &v.insn[pc]
		if err := dex.DecodeInto(in, v.insns, pc); err != nil {
			var de *dex.DecodeError
			if errors.As(err, &de) {
				v.fail("%s", de.Problem)
			}
			v.fail("%v", err)
		}
		if in.Payload != dex.NoPayload {
			v.flags[pc] |= fPayload
		} else {
			v.flags[pc] |= fStart
			if in.Op.Info().Flags&dex.FlagUnused != 0 {
				v.fail("invalid opcode %#02x (%s)", uint8(in.Op), in.Op)
			}
		}
		pc += int(in.Size)
	}
	for pc := 0; pc < n; pc++ {
		if v.flags[pc]&fStart != 0 {
			v.pc = pc
			v.checkInsn(pc, &v.insn[pc])
		}
	}
	v.pc = -1
	v.checkTries()
}

// width is the number of registers a value of descriptor d takes.
func width(d string) int {
	if d == "J" || d == "D" {
		return 2
	}
	return 1
}

func (v *verifier) checkReg(r uint32) {
	if r >= uint32(v.code.Registers) {
		v.fail("register v%d out of range (>= %d)", r, v.code.Registers)
	}
}

// checkInsn makes the structural checks of the instruction at pc.
func (v *verifier) checkInsn(pc int, in *dex.Instruction) {
	info := in.Op.Info()
	switch info.Format {
	case dex.Format12x, dex.Format22x, dex.Format32x, dex.Format22b, dex.Format22s, dex.Format22t, dex.Format22c:
		v.checkReg(in.A)
		v.checkReg(in.B)
	case dex.Format11x, dex.Format11n, dex.Format21t, dex.Format21s, dex.Format21h, dex.Format21c,
		dex.Format31t, dex.Format31i, dex.Format31c, dex.Format51l:
		v.checkReg(in.A)
	case dex.Format23x:
		v.checkReg(in.A)
		v.checkReg(in.B)
		v.checkReg(in.C)
	case dex.Format35c, dex.Format45cc:
		for i := uint32(0); i < in.A; i++ {
			v.checkReg(uint32(in.Args[i]))
		}
	case dex.Format3rc, dex.Format4rcc:
		if in.A > 0 && in.C+in.A-1 >= uint32(v.code.Registers) {
			v.fail("invalid reg index %d+%d in range invoke (> %d)", in.C, in.A, v.code.Registers)
		}
	}
	v.checkIndex(in)
	if info.Flags&dex.FlagBranch != 0 {
		if in.Lit == 0 && (in.Op == 0x28 || in.Op == 0x29) {
			v.fail("branch offset of zero not allowed")
		}
		v.target(in.Target(pc))
	}
	switch in.Op {
	case dex.OpPackedSwitch, dex.OpSparseSwitch:
		kind := dex.SparseSwitchPayload
		if in.Op == dex.OpPackedSwitch {
			kind = dex.PackedSwitchPayload
		}
		p := v.payload(pc, in, kind)
		var offs []int32
		if in.Op == dex.OpPackedSwitch {
			ps, err := dex.DecodePackedSwitch(v.insns, p)
			if err != nil {
				v.fail("%v", err)
			}
			if n := int64(len(ps.Targets)); n > 0 && int64(ps.FirstKey)+n-1 > 1<<31-1 {
				v.fail("invalid packed switch: first_key=%d, count=%d", ps.FirstKey, n)
			}
			offs = ps.Targets
		} else {
			ss, err := dex.DecodeSparseSwitch(v.insns, p)
			if err != nil {
				v.fail("%v", err)
			}
			for i := 1; i < len(ss.Keys); i++ {
				if ss.Keys[i] <= ss.Keys[i-1] {
					v.fail("invalid sparse switch: last key=%d, this=%d", ss.Keys[i-1], ss.Keys[i])
				}
			}
			offs = ss.Targets
		}
		for _, o := range offs {
			v.target(int64(pc) + int64(o))
		}
	case dex.OpFillArrayData:
		p := v.payload(pc, in, dex.ArrayDataPayload)
		if w := v.insn[p].A; w != 1 && w != 2 && w != 4 && w != 8 {
			v.fail("invalid array-data element width %d", w)
		}
	case 0x22: // new-instance
		if d := v.typeName(in.Index); d[0] != 'L' {
			v.fail("can't call new-instance on type '%s'", d)
		}
	case 0x23, 0x24, 0x25: // new-array, filled-new-array
		if d := v.typeName(in.Index); d[0] != '[' || len(d) < 2 || d[1] == 'V' {
			v.fail("%s on non-array class '%s'", in.Op, d)
		}
		if in.Op == 0x25 && in.A > 0 && in.C+in.A-1 >= uint32(v.code.Registers) {
			v.fail("invalid reg index %d+%d in range (> %d)", in.C, in.A, v.code.Registers)
		}
	}
}

// checkIndex checks that an instruction's index operand is inside the
// table it refers to.
func (v *verifier) checkIndex(in *dex.Instruction) {
	f := v.f
	var n int
	var what string
	switch in.Op.Info().Index {
	case dex.IndexString:
		n, what = len(f.Strings), "string"
	case dex.IndexType:
		n, what = len(f.Types), "type"
	case dex.IndexField:
		n, what = len(f.Fields), "field"
	case dex.IndexMethod:
		n, what = len(f.Methods), "method"
	case dex.IndexMethodAndProto:
		if in.Proto >= uint32(len(f.Protos)) {
			v.fail("bad proto index %d (max %d)", in.Proto, len(f.Protos))
		}
		n, what = len(f.Methods), "method"
	case dex.IndexCallSite:
		n, what = len(f.CallSites), "call site"
	case dex.IndexMethodHandle:
		n, what = len(f.MethodHandles), "method handle"
	case dex.IndexProto:
		n, what = len(f.Protos), "proto"
	default:
		return
	}
	if in.Index >= uint32(n) {
		v.fail("bad %s index %d (max %d)", what, in.Index, n)
	}
	// The DEX reader checks that indices point at strings, not that
	// those strings are descriptors; the type checks rely on it.
	switch in.Op.Info().Index {
	case dex.IndexType:
		v.checkDesc(in.Index, false)
	case dex.IndexField:
		fr := f.Fields[in.Index]
		v.checkDesc(fr.Class, false)
		v.checkDesc(fr.Type, false)
	case dex.IndexMethod, dex.IndexMethodAndProto:
		v.checkDesc(f.Methods[in.Index].Class, false)
		v.checkProto(f.Methods[in.Index].Proto)
	}
}

// checkProto checks the descriptors of a prototype.
func (v *verifier) checkProto(i uint32) {
	p := v.f.Protos[i]
	v.checkDesc(p.Return, true)
	for _, t := range p.Params {
		v.checkDesc(t, false)
	}
}

// checkDesc checks that type index i names a well-formed descriptor.
func (v *verifier) checkDesc(i uint32, voidOK bool) {
	if i >= uint32(len(v.f.Types)) {
		v.fail("bad type index %d (max %d)", i, len(v.f.Types))
	}
	if d := v.typeName(i); !validDesc(d, voidOK) {
		v.fail("invalid type descriptor '%s'", d)
	}
}

// validDesc reports whether d is a field type descriptor (or V, when
// voidOK).
func validDesc(d string, voidOK bool) bool {
	dims := 0
	for dims < len(d) && d[dims] == '[' {
		dims++
	}
	if dims > 255 {
		return false
	}
	e := d[dims:]
	switch {
	case len(e) == 1:
		return strings.IndexByte("ZBSCIJFD", e[0]) >= 0 || (e == "V" && voidOK && dims == 0)
	case len(e) >= 3 && e[0] == 'L' && e[len(e)-1] == ';':
		return strings.IndexByte(e[1:len(e)-1], ';') < 0
	}
	return false
}

// target checks a branch or handler destination.
func (v *verifier) target(t int64) {
	if t < 0 || t >= int64(len(v.insns)) || v.flags[t]&fStart == 0 {
		v.fail("invalid branch target %d (-> %#x) at %#x", t-int64(v.pc), t, v.pc)
	}
	v.flags[t] |= fTarget
}

// payload checks the payload a switch or fill-array-data refers to and
// returns its pc.
func (v *verifier) payload(pc int, in *dex.Instruction, want dex.PayloadKind) int {
	p := int64(pc) + in.Lit
	if p < 0 || p >= int64(len(v.insns)) || v.flags[p]&fPayload == 0 || v.insn[p].Payload != want {
		v.fail("invalid %s payload offset %d (-> %#x)", in.Op, in.Lit, p)
	}
	if p%2 != 0 {
		v.fail("unaligned %s payload at %#x", in.Op, p)
	}
	return int(p)
}

// checkArgCount compares an invoke's argument registers with the words
// the callee's prototype needs. Like ART it is part of the type flow, so
// unreachable invokes are not checked (503-dead-instructions).
func (v *verifier) checkArgCount(in *dex.Instruction) {
	m := v.f.Methods[in.Index]
	p := v.f.Protos[m.Proto]
	want := 0
	kind := in.Op
	if kind >= 0x74 {
		kind -= 6
	}
	if kind != 0x71 {
		want++
	}
	for _, t := range p.Params {
		want += width(v.typeName(t))
	}
	if int(in.A) != want {
		v.fail("Rejecting invocation, expected %d argument registers, method signature has %d", in.A, want)
	}
	name := v.f.Strings[m.Name]
	if name == "<clinit>" {
		v.fail("Rejecting invocation of class initializer %s", v.methodSig(in.Index))
	}
	if name == "<init>" && kind != 0x70 {
		v.fail("Rejecting non-direct call to constructor %s", v.methodSig(in.Index))
	}
}

// checkTries checks the try items and marks handler starts.
func (v *verifier) checkTries() {
	n := uint32(len(v.insns))
	c := v.code
	v.catches = make([][]string, n)
	end := uint32(0)
	for i, t := range c.Tries {
		last := t.Start + uint32(t.Count)
		if t.Start < end {
			v.fail("overlapping or unsorted try item %d at %#x", i, t.Start)
		}
		if t.Start >= n || last > n || t.Count == 0 || v.flags[t.Start]&fStart == 0 || (last < n && v.flags[last]&(fStart|fPayload) == 0) {
			v.fail("bad exception entry: startAddr=%d endAddr=%d (size=%d)", t.Start, last, n)
		}
		end = last
		for pc := t.Start; pc < last; pc++ {
			v.flags[pc] |= fInTry
		}
		if t.Handler < 0 || t.Handler >= len(c.Handlers) {
			v.fail("bad handler index %d of try item %d", t.Handler, i)
		}
	}
	for _, h := range c.Handlers {
		for _, k := range h.Catches {
			v.checkDesc(k.Type, false)
			v.handler(k.Addr, v.typeName(k.Type))
		}
		if h.HasCatchAll {
			v.handler(h.CatchAll, "")
		}
	}
}

func (v *verifier) handler(addr uint32, desc string) {
	if addr >= uint32(len(v.insns)) || v.flags[addr]&fStart == 0 {
		v.fail("exception handler offset %#x is not an instruction start", addr)
	}
	v.flags[addr] |= fTarget | fHandler
	v.catches[addr] = append(v.catches[addr], desc)
}
