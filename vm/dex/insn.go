package dex

import (
	"fmt"
)

// PayloadKind identifies a pseudo-instruction holding switch or array data.
type PayloadKind uint8

// Payload kinds; the value is the high byte of the payload's first code unit
// (ident 0x0100, 0x0200, 0x0300).
const (
	NoPayload PayloadKind = iota
	PackedSwitchPayload
	SparseSwitchPayload
	ArrayDataPayload
)

// Instruction is one decoded instruction. Which fields are set depends on
// the format:
//
//	10x              -
//	12x 22x 32x      A, B         (registers)
//	11x              A
//	11n 21s 31i 51l  A, Lit       (the constant, sign-extended)
//	21h              A, Lit       (already shifted: <<16, or <<48 for const-wide/high16)
//	10t 20t 30t      Lit          (branch offset in code units)
//	21t 31t          A, Lit       (branch or payload offset)
//	22t              A, B, Lit
//	23x              A, B, C
//	22b 22s          A, B, Lit
//	21c 31c          A, Index
//	22c              A, B, Index
//	35c              A (argument count), Args[:A], Index
//	3rc              A (argument count), C (first register), Index
//	45cc             like 35c, plus Proto
//	4rcc             like 3rc, plus Proto
//
// A payload pseudo-instruction has Op == OpNop and Payload set; its A is the
// element count (switches) or the element width (array data), B the element
// count of array data.
type Instruction struct {
	Op      Opcode
	Payload PayloadKind
	Args    [5]uint8
	Size    uint32 // in code units
	A, B, C uint32
	Index   uint32
	Proto   uint32
	Lit     int64
}

// Target returns the absolute branch target of an instruction at pc whose
// Lit is a relative offset.
func (in *Instruction) Target(pc int) int64 { return int64(pc) + in.Lit }

// DecodeError reports an instruction that cannot be decoded.
type DecodeError struct {
	PC      int // code unit index
	Problem string
}

// Error formats the error with the code unit index.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("dex: instruction at code unit %#04x: %s", e.PC, e.Problem)
}

// Decode decodes the instruction at code unit pc. It does not allocate.
func Decode(insns []uint16, pc int) (Instruction, error) {
	var in Instruction
	err := DecodeInto(&in, insns, pc)
	return in, err
}

// DecodeInto decodes the instruction at code unit pc into in.
func DecodeInto(in *Instruction, insns []uint16, pc int) error {
	if pc < 0 || pc >= len(insns) {
		return &DecodeError{pc, fmt.Sprintf("beyond the end of the code (%d code units)", len(insns))}
	}
	u := insns[pc:]
	u0 := u[0]
	op := Opcode(u0)
	*in = Instruction{Op: op}
	info := &opTable[op]
	if op == OpNop && u0 != 0 {
		if kind := PayloadKind(u0 >> 8); kind >= PackedSwitchPayload && kind <= ArrayDataPayload {
			return decodePayload(in, u, pc, kind)
		}
	}
	size := int(formatInfo[info.Format].size)
	if len(u) < size {
		return &DecodeError{pc, fmt.Sprintf("%s needs %d code units, only %d left", info.Name, size, len(u))}
	}
	in.Size = uint32(size)
	aa := uint32(u0 >> 8)
	switch info.Format {
	case Format10x:
	case Format12x:
		in.A, in.B = aa&0xf, aa>>4
	case Format11n:
		in.A, in.Lit = aa&0xf, int64(int8(u0>>8)>>4)
	case Format11x:
		in.A = aa
	case Format10t:
		in.Lit = int64(int8(aa))
	case Format20t:
		in.Lit = int64(int16(u[1]))
	case Format22x:
		in.A, in.B = aa, uint32(u[1])
	case Format21t, Format21s:
		in.A, in.Lit = aa, int64(int16(u[1]))
	case Format21h:
		in.A = aa
		if op == OpConstWideHigh16 {
			in.Lit = int64(u[1]) << 48
		} else {
			in.Lit = int64(int32(uint32(u[1]) << 16))
		}
	case Format21c:
		in.A, in.Index = aa, uint32(u[1])
	case Format23x:
		in.A, in.B, in.C = aa, uint32(u[1]&0xff), uint32(u[1]>>8)
	case Format22b:
		in.A, in.B, in.Lit = aa, uint32(u[1]&0xff), int64(int8(u[1]>>8))
	case Format22t, Format22s:
		in.A, in.B, in.Lit = aa&0xf, aa>>4, int64(int16(u[1]))
	case Format22c:
		in.A, in.B, in.Index = aa&0xf, aa>>4, uint32(u[1])
	case Format32x:
		in.A, in.B = uint32(u[1]), uint32(u[2])
	case Format30t:
		in.Lit = int64(int32(uint32(u[1]) | uint32(u[2])<<16))
	case Format31t, Format31i:
		in.A, in.Lit = aa, int64(int32(uint32(u[1])|uint32(u[2])<<16))
	case Format31c:
		in.A, in.Index = aa, uint32(u[1])|uint32(u[2])<<16
	case Format35c, Format45cc:
		in.A = aa >> 4
		if in.A > 5 {
			return &DecodeError{pc, fmt.Sprintf("%s has %d arguments, at most 5 allowed", info.Name, in.A)}
		}
		in.Index = uint32(u[1])
		in.Args = [5]uint8{uint8(u[2] & 0xf), uint8(u[2] >> 4 & 0xf), uint8(u[2] >> 8 & 0xf), uint8(u[2] >> 12), uint8(aa & 0xf)}
		if info.Format == Format45cc {
			in.Proto = uint32(u[3])
		}
	case Format3rc, Format4rcc:
		in.A, in.Index, in.C = aa, uint32(u[1]), uint32(u[2])
		if info.Format == Format4rcc {
			in.Proto = uint32(u[3])
		}
	case Format51l:
		in.A = aa
		in.Lit = int64(uint64(u[1]) | uint64(u[2])<<16 | uint64(u[3])<<32 | uint64(u[4])<<48)
	}
	return nil
}

func decodePayload(in *Instruction, u []uint16, pc int, kind PayloadKind) error {
	in.Payload = kind
	if len(u) < 2 {
		return &DecodeError{pc, "payload header truncated"}
	}
	var size uint64
	switch kind {
	case PackedSwitchPayload:
		in.A = uint32(u[1])
		size = 4 + 2*uint64(u[1])
	case SparseSwitchPayload:
		in.A = uint32(u[1])
		size = 2 + 4*uint64(u[1])
	case ArrayDataPayload:
		if len(u) < 4 {
			return &DecodeError{pc, "array-data payload header truncated"}
		}
		in.A = uint32(u[1])
		in.B = uint32(u[2]) | uint32(u[3])<<16
		size = 4 + (uint64(in.A)*uint64(in.B)+1)/2
	}
	if size > uint64(len(u)) {
		return &DecodeError{pc, fmt.Sprintf("%s payload needs %d code units, only %d left", kind, size, len(u))}
	}
	in.Size = uint32(size)
	return nil
}

// String names the payload kind as dexdump does.
func (k PayloadKind) String() string {
	switch k {
	case PackedSwitchPayload:
		return "packed-switch-data"
	case SparseSwitchPayload:
		return "sparse-switch-data"
	case ArrayDataPayload:
		return "array-data"
	}
	return "none"
}

// PackedSwitch is a packed-switch payload: keys FirstKey, FirstKey+1, ...
// with branch offsets relative to the switch instruction.
type PackedSwitch struct {
	FirstKey int32
	Targets  []int32
}

// SparseSwitch is a sparse-switch payload: sorted keys and their branch
// offsets relative to the switch instruction.
type SparseSwitch struct {
	Keys    []int32
	Targets []int32
}

// ArrayData is a fill-array-data payload.
type ArrayData struct {
	ElementWidth uint16
	Count        uint32
	Data         []byte // ElementWidth*Count bytes, little-endian elements
}

func payloadAt(insns []uint16, pc int, want PayloadKind) (Instruction, error) {
	in, err := Decode(insns, pc)
	if err != nil {
		return in, err
	}
	if in.Payload != want {
		return in, &DecodeError{pc, fmt.Sprintf("expected a %s payload, found %#04x", want, insns[pc])}
	}
	return in, nil
}

func word32(u []uint16, i int) int32 { return int32(uint32(u[i]) | uint32(u[i+1])<<16) }

// DecodePackedSwitch decodes the packed-switch payload at pc.
func DecodePackedSwitch(insns []uint16, pc int) (PackedSwitch, error) {
	in, err := payloadAt(insns, pc, PackedSwitchPayload)
	if err != nil {
		return PackedSwitch{}, err
	}
	u := insns[pc:]
	p := PackedSwitch{FirstKey: word32(u, 2), Targets: make([]int32, in.A)}
	for i := range p.Targets {
		p.Targets[i] = word32(u, 4+2*i)
	}
	return p, nil
}

// DecodeSparseSwitch decodes the sparse-switch payload at pc.
func DecodeSparseSwitch(insns []uint16, pc int) (SparseSwitch, error) {
	in, err := payloadAt(insns, pc, SparseSwitchPayload)
	if err != nil {
		return SparseSwitch{}, err
	}
	u := insns[pc:]
	n := int(in.A)
	p := SparseSwitch{Keys: make([]int32, n), Targets: make([]int32, n)}
	for i := 0; i < n; i++ {
		p.Keys[i] = word32(u, 2+2*i)
		p.Targets[i] = word32(u, 2+2*n+2*i)
	}
	return p, nil
}

// DecodeArrayData decodes the fill-array-data payload at pc.
func DecodeArrayData(insns []uint16, pc int) (ArrayData, error) {
	in, err := payloadAt(insns, pc, ArrayDataPayload)
	if err != nil {
		return ArrayData{}, err
	}
	n := int(in.A) * int(in.B)
	p := ArrayData{ElementWidth: uint16(in.A), Count: in.B, Data: make([]byte, n)}
	for i := 0; i < n; i++ {
		w := insns[pc+4+i/2]
		p.Data[i] = byte(w >> (8 * (i % 2)))
	}
	return p, nil
}

// Iterator walks the instructions of a code array in order.
type Iterator struct {
	insns []uint16
	base  int64 // file offset of insns[0], or -1
	pc    int
	next  int
	in    Instruction
	err   error
}

// NewIterator returns an iterator over insns; errors carry code unit
// indices only.
func NewIterator(insns []uint16) Iterator { return Iterator{insns: insns, base: -1} }

// Iterator returns an iterator over the code's instructions; its errors are
// FormatErrors carrying file offsets.
func (c *Code) Iterator() Iterator { return Iterator{insns: c.Insns, base: int64(c.InsnsOff())} }

// Next decodes the next instruction; it returns false at the end or on
// error (see Err).
func (it *Iterator) Next() bool {
	if it.err != nil || it.next >= len(it.insns) {
		return false
	}
	it.pc = it.next
	if err := DecodeInto(&it.in, it.insns, it.pc); err != nil {
		if it.base >= 0 {
			err = errorf(fmt.Sprintf("insns[%#04x]", it.pc), it.base+2*int64(it.pc), "%s", err.(*DecodeError).Problem)
		}
		it.err = err
		return false
	}
	it.next = it.pc + int(it.in.Size)
	return true
}

// PC returns the code unit index of the current instruction.
func (it *Iterator) PC() int { return it.pc }

// String returns the instruction's mnemonic, or the payload's name.
func (in *Instruction) String() string {
	if in.Payload != NoPayload {
		return in.Payload.String()
	}
	return in.Op.String()
}

// Inst returns the current instruction; it is overwritten by Next.
func (it *Iterator) Inst() *Instruction { return &it.in }

// Err returns the decoding error that stopped the iteration, if any.
func (it *Iterator) Err() error { return it.err }
