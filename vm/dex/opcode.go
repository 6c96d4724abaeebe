package dex

// Opcode is a Dalvik opcode (the low byte of an instruction's first code
// unit).
type Opcode uint8

// Format is an instruction format, named as in the Dalvik documentation: the
// first digit is the size in code units, the second the number of registers,
// the letter the kind of extra data.
type Format uint8

// Instruction formats.
const (
	Format10x Format = iota
	Format12x
	Format11n
	Format11x
	Format10t
	Format20t
	Format22x
	Format21t
	Format21s
	Format21h
	Format21c
	Format23x
	Format22b
	Format22t
	Format22s
	Format22c
	Format32x
	Format30t
	Format31t
	Format31i
	Format31c
	Format35c
	Format3rc
	Format45cc
	Format4rcc
	Format51l
)

var formatInfo = [...]struct {
	name string
	size uint8
}{
	Format10x: {"10x", 1}, Format12x: {"12x", 1}, Format11n: {"11n", 1}, Format11x: {"11x", 1},
	Format10t: {"10t", 1}, Format20t: {"20t", 2}, Format22x: {"22x", 2}, Format21t: {"21t", 2},
	Format21s: {"21s", 2}, Format21h: {"21h", 2}, Format21c: {"21c", 2}, Format23x: {"23x", 2},
	Format22b: {"22b", 2}, Format22t: {"22t", 2}, Format22s: {"22s", 2}, Format22c: {"22c", 2},
	Format32x: {"32x", 3}, Format30t: {"30t", 3}, Format31t: {"31t", 3}, Format31i: {"31i", 3},
	Format31c: {"31c", 3}, Format35c: {"35c", 3}, Format3rc: {"3rc", 3}, Format45cc: {"45cc", 4},
	Format4rcc: {"4rcc", 4}, Format51l: {"51l", 5},
}

// String returns the format's name, e.g. "35c".
func (f Format) String() string {
	if int(f) < len(formatInfo) {
		return formatInfo[f].name
	}
	return "invalid"
}

// Size returns the format's size in code units.
func (f Format) Size() int {
	if int(f) < len(formatInfo) {
		return int(formatInfo[f].size)
	}
	return 0
}

// IndexKind says what an instruction's index operand refers to.
type IndexKind uint8

// Index kinds.
const (
	IndexNone           IndexKind = iota
	IndexUnknown                  // unused opcodes
	IndexString                   // string@
	IndexType                     // type@
	IndexField                    // field@
	IndexMethod                   // method@
	IndexMethodAndProto           // method@ and proto@ (invoke-polymorphic)
	IndexCallSite                 // call_site@
	IndexMethodHandle             // method_handle@
	IndexProto                    // proto@
	IndexFieldOffset              // [obj+offset] (quickened iget/iput, ODEX only)
	IndexVtableOffset             // vtable #offset (quickened invoke-virtual, ODEX only)
)

// OpFlags describe control flow and effects of an opcode.
type OpFlags uint16

// Opcode flags.
const (
	FlagContinue      OpFlags = 1 << iota // may go on to the next instruction
	FlagThrow                             // may throw
	FlagBranch                            // has a branch target
	FlagUnconditional                     // always branches (goto)
	FlagSwitch                            // switches through a payload
	FlagReturn                            // returns from the method
	FlagInvoke                            // calls a method
	// FlagUnused marks opcodes that are not valid in DEX files: the unused
	// ones, and ART's internal quickened opcodes (0x73, 0xe3–0xf2), which
	// carry the names and formats dexdump 11 gives them.
	FlagUnused
)

// OpInfo describes an opcode.
type OpInfo struct {
	Name   string
	Format Format
	Index  IndexKind
	Flags  OpFlags
}

// Info returns the opcode's entry in the opcode table.
func (op Opcode) Info() *OpInfo { return &opTable[op] }

// String returns the opcode's mnemonic, e.g. "invoke-virtual/range".
func (op Opcode) String() string { return opTable[op].Name }

// Format returns the opcode's instruction format.
func (op Opcode) Format() Format { return opTable[op].Format }

// Opcodes used by name in this package and its users.
const (
	OpNop               Opcode = 0x00
	OpConstHigh16       Opcode = 0x15
	OpConstWideHigh16   Opcode = 0x19
	OpConstString       Opcode = 0x1a
	OpFillArrayData     Opcode = 0x26
	OpPackedSwitch      Opcode = 0x2b
	OpSparseSwitch      Opcode = 0x2c
	OpInvokePolymorphic Opcode = 0xfa
	OpInvokeCustom      Opcode = 0xfc
)
