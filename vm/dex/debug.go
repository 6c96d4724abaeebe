package dex

// Debug info opcodes (debug_info_item state machine). Opcodes from
// DbgFirstSpecial up are special opcodes that advance address and line
// together and emit a position.
const (
	DbgEndSequence        = 0x00
	DbgAdvancePC          = 0x01
	DbgAdvanceLine        = 0x02
	DbgStartLocal         = 0x03
	DbgStartLocalExtended = 0x04
	DbgEndLocal           = 0x05
	DbgRestartLocal       = 0x06
	DbgSetPrologueEnd     = 0x07
	DbgSetEpilogueBegin   = 0x08
	DbgSetFile            = 0x09
	DbgFirstSpecial       = 0x0a
	DbgLineBase           = -4
	DbgLineRange          = 15
)

// DebugInfo is a debug_info_item, decoded into its operations (without the
// final DBG_END_SEQUENCE).
type DebugInfo struct {
	LineStart  uint32
	ParamNames []uint32 // string indices or NoIndex
	Ops        []DebugOp
	Off        uint32
}

// DebugOp is one debug opcode with its operands. Fields an opcode does not
// use are NoIndex (Reg, Name, Type, Sig) or 0 (Value).
type DebugOp struct {
	Op    uint8
	Reg   uint32 // START_LOCAL*, END_LOCAL, RESTART_LOCAL
	Name  uint32 // string index: local name (START_LOCAL*) or file name (SET_FILE)
	Type  uint32 // type index (START_LOCAL*)
	Sig   uint32 // string index (START_LOCAL_EXTENDED)
	Value int32  // address delta (ADVANCE_PC, unsigned) or line delta (ADVANCE_LINE)
}

// SpecialOp returns the special opcode that advances the address by addrDiff
// and the line by lineDiff, if one exists.
func SpecialOp(addrDiff uint32, lineDiff int32) (uint8, bool) {
	if lineDiff < DbgLineBase || lineDiff >= DbgLineBase+DbgLineRange {
		return 0, false
	}
	op := int64(lineDiff-DbgLineBase) + int64(addrDiff)*DbgLineRange + DbgFirstSpecial
	if op > 0xff {
		return 0, false
	}
	return uint8(op), true
}

// Position is one row of the line table.
type Position struct {
	Addr          uint32 // code unit address
	Line          uint32
	File          uint32 // string index set by DBG_SET_FILE, or NoIndex
	PrologueEnd   bool
	EpilogueBegin bool
}

// Positions runs the state machine and returns the line table, in the order
// the rows are emitted.
func (d *DebugInfo) Positions() []Position {
	var out []Position
	p := Position{Line: d.LineStart, File: NoIndex}
	for _, o := range d.Ops {
		switch o.Op {
		case DbgAdvancePC:
			p.Addr += uint32(o.Value)
		case DbgAdvanceLine:
			p.Line += uint32(o.Value)
		case DbgSetPrologueEnd:
			p.PrologueEnd = true
		case DbgSetEpilogueBegin:
			p.EpilogueBegin = true
		case DbgSetFile:
			p.File = o.Name
		default:
			if o.Op >= DbgFirstSpecial {
				adj := int(o.Op) - DbgFirstSpecial
				p.Addr += uint32(adj / DbgLineRange)
				p.Line += uint32(int32(DbgLineBase + adj%DbgLineRange))
				out = append(out, p)
				p.PrologueEnd, p.EpilogueBegin = false, false
			}
		}
	}
	return out
}

// Local is one live range of a named register.
type Local struct {
	Reg        uint16
	Start, End uint32 // code unit addresses, End exclusive
	This       bool   // the implicit "this" of an instance method
	Name       uint32 // string index or NoIndex (unused when This)
	Type       uint32 // type index or NoIndex
	Sig        uint32 // string index or NoIndex
}

// Locals runs the state machine of a method's debug info and returns the
// local variable table in ART's order: a range is emitted when it ends, and
// ranges still open at the end are emitted in register order with End =
// insns_size. "this" and the parameters are live from address 0. Like ART, it
// stops at the first inconsistency (a register beyond registers_size, or a
// parameter count that does not match the prototype), returning the ranges
// emitted so far.
func (f *File) Locals(m EncodedMethod) []Local {
	code := m.Code
	if code == nil || code.Debug == nil {
		return nil
	}
	d := code.Debug
	type slot struct {
		Local
		live bool
	}
	regs := make([]slot, code.Registers)
	for i := range regs { // as ART: a restarted, never started register has no name and reg 0
		regs[i].Name, regs[i].Type, regs[i].Sig = NoIndex, NoIndex, NoIndex
	}
	argReg := int(code.Registers) - int(code.Ins)
	mref := f.Methods[m.Method]
	if m.Access&AccStatic == 0 {
		if argReg >= len(regs) {
			return nil
		}
		regs[argReg] = slot{Local{Reg: uint16(argReg), This: true, Name: NoIndex, Type: mref.Class, Sig: NoIndex}, true}
		argReg++
	}
	params := f.Protos[mref.Proto].Params
	if len(d.ParamNames) != len(params) {
		return nil
	}
	for i, t := range params {
		if argReg >= len(regs) {
			return nil
		}
		regs[argReg] = slot{Local{Reg: uint16(argReg), Name: d.ParamNames[i], Type: t, Sig: NoIndex}, true}
		if desc := f.TypeName(t); desc == "J" || desc == "D" {
			argReg += 2
		} else {
			argReg++
		}
	}
	var out []Local
	var addr uint32
	for _, o := range d.Ops {
		switch o.Op {
		case DbgAdvancePC:
			addr += uint32(o.Value)
		case DbgStartLocal, DbgStartLocalExtended:
			reg := uint16(o.Reg) // ART keeps 16 bits
			if int(reg) >= len(regs) {
				return out
			}
			if s := &regs[reg]; s.live {
				s.End = addr
				out = append(out, s.Local)
			}
			regs[reg] = slot{Local{Reg: reg, Start: addr, Name: o.Name, Type: o.Type, Sig: o.Sig}, true}
		case DbgEndLocal:
			reg := uint16(o.Reg)
			if int(reg) >= len(regs) {
				return out
			}
			if s := &regs[reg]; s.live {
				s.End = addr
				out = append(out, s.Local)
				s.live = false
			}
		case DbgRestartLocal:
			reg := uint16(o.Reg)
			if int(reg) >= len(regs) {
				return out
			}
			if s := &regs[reg]; !s.live {
				s.Start = addr
				s.live = true
			}
		default:
			if o.Op >= DbgFirstSpecial {
				addr += uint32((int(o.Op) - DbgFirstSpecial) / DbgLineRange)
			}
		}
	}
	for i := range regs {
		if regs[i].live {
			regs[i].End = uint32(len(code.Insns))
			out = append(out, regs[i].Local)
		}
	}
	return out
}
