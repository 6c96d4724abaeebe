package ssa

// Op is an operation.
type Op uint8

// Operations. Arithmetic ops take their type from the value (Add <int>,
// Add <double>); Aux holds the DEX index of a field, method, type or
// string where the op names one.
const (
	OpInvalid Op = iota

	OpThis      // the receiver of an instance method, never null
	OpParam     // Aux: the parameter's number, counting this as 0
	OpConst     // Aux: the bits (float and double as IEEE bits; ref: only 0, null)
	OpUndef     // a register read before any write on some path
	OpCopy      // Args[0]: a move
	OpPhi       // one argument per predecessor, in Preds order
	OpException // the caught exception, first in a handler (move-exception)

	OpAdd
	OpSub
	OpMul
	OpDiv
	OpRem
	OpAnd
	OpOr
	OpXor
	OpShl
	OpShr
	OpUshr
	OpNeg
	OpNot
	OpConv // Args[0] converted to the value's type (int-to-long, double-to-int, ...)
	OpIntToByte
	OpIntToChar
	OpIntToShort
	OpCmpl // float/double compare, -1 on NaN; long compare (cmp-long) too
	OpCmpg // float/double compare, +1 on NaN

	OpEq // bool conditions of If blocks; ints or refs
	OpNe
	OpLt
	OpGe
	OpGt
	OpLe

	OpNullCheck    // Args[0] must not be null
	OpBoundsCheck  // 0 <= Args[0] < Args[1] (an index and an ArrayLength)
	OpDivZeroCheck // Args[0] must not be zero

	OpConstString // Aux: string index
	OpConstClass  // Aux: type index
	OpConstMethodHandle
	OpConstMethodType
	OpNewInstance    // Aux: type index
	OpNewArray       // Args[0]: length; Aux: type index
	OpFilledNewArray // Args: elements; Aux: type index
	OpFillArrayData  // Args[0]: array; Aux: dex pc of the payload
	OpArrayLength
	OpAGet       // Args: array, index
	OpAPut       // Args: array, index, value
	OpIGet       // Args: object; Aux: field index
	OpIPut       // Args: object, value; Aux: field index
	OpSGet       // Aux: field index
	OpSPut       // Args: value; Aux: field index
	OpCheckCast  // Args[0]; Aux: type index; no result (the register keeps its value)
	OpInstanceOf // Args[0]; Aux: type index
	OpMonitorEnter
	OpMonitorExit

	OpInvokeVirtual // Args: the argument words' values; Aux: method index
	OpInvokeSuper
	OpInvokeDirect
	OpInvokeStatic
	OpInvokeInterface
	OpInvokePolymorphic
	OpInvokeCustom // Aux: call site index

	// OpBarrier is paper 003's object-access barrier: it sets the bit of
	// Args[0] (a reference; null and objects outside the main space are
	// ignored) in the access bitmap. Aux 1: first skip it when Args[0] is
	// the object the last barrier saw (the cache levels). Aux 2: a check
	// barrier (Config.CheckBarriers), which marks the shadow bitmap.
	OpBarrier

	// OpSelect is Args[1] when the condition Args[0] (a bool comparison
	// of two ints) holds, else Args[2]: a branch that only chose a value,
	// converted by ifconv so that no block boundary remains.
	OpSelect

	// OpAccess is an object-access point without an access of its own:
	// the receiver of an instance call the inline pass replaced by its
	// body (Args[0]), left so that the barriers pass still puts the
	// call's barrier there (paper 003 instruments every invoke
	// receiver). It does nothing; the last barrier pass deletes it.
	OpAccess

	// OpTargetIs is the guard of guarded inlining (guardinline.go): the
	// number (from 1) of the first of a call site's variants whose
	// dispatches all hold for Args[0], a receiver, else 0 (also for
	// null). A dispatch holds when an invoke of a method reference on
	// the receiver would run one given method of the caller's DEX file
	// (not while the reference is unresolved). Each dispatch is a Long
	// constant argument after the receiver that packs the reference, the
	// method, the argument words and the invoke kind (TargetIsAux); Aux
	// counts them per variant (TargetIsVariants).
	// Its result depends only on the receiver's class (once the
	// reference is resolved), so cse may merge it; licm leaves it in its
	// loop, where the loop's own call resolves the reference.
	OpTargetIs

	numOps
)

// opFlags describe what passes may do with a value of an op.
type opFlags uint8

const (
	// fEffect: the value has an effect beyond its result (a store, a
	// call, a check that may throw, allocation); it is never deleted or
	// merged with another.
	fEffect opFlags = 1 << iota
	// fCommutative: the two arguments may be swapped.
	fCommutative
)

type opInfo struct {
	name  string
	flags opFlags
}

var opTable = [numOps]opInfo{
	OpInvalid:   {"Invalid", 0},
	OpThis:      {"This", 0},
	OpParam:     {"Param", 0},
	OpConst:     {"Const", 0},
	OpUndef:     {"Undef", 0},
	OpCopy:      {"Copy", 0},
	OpPhi:       {"Phi", 0},
	OpException: {"Exception", 0},

	OpAdd:        {"Add", fCommutative},
	OpSub:        {"Sub", 0},
	OpMul:        {"Mul", fCommutative},
	OpDiv:        {"Div", 0}, // a zero divisor is caught by its DivZeroCheck
	OpRem:        {"Rem", 0},
	OpAnd:        {"And", fCommutative},
	OpOr:         {"Or", fCommutative},
	OpXor:        {"Xor", fCommutative},
	OpShl:        {"Shl", 0},
	OpShr:        {"Shr", 0},
	OpUshr:       {"Ushr", 0},
	OpNeg:        {"Neg", 0},
	OpNot:        {"Not", 0},
	OpConv:       {"Conv", 0},
	OpIntToByte:  {"IntToByte", 0},
	OpIntToChar:  {"IntToChar", 0},
	OpIntToShort: {"IntToShort", 0},
	OpCmpl:       {"Cmpl", 0},
	OpCmpg:       {"Cmpg", 0},

	OpEq: {"Eq", fCommutative},
	OpNe: {"Ne", fCommutative},
	OpLt: {"Lt", 0},
	OpGe: {"Ge", 0},
	OpGt: {"Gt", 0},
	OpLe: {"Le", 0},

	OpNullCheck:    {"NullCheck", fEffect},
	OpBoundsCheck:  {"BoundsCheck", fEffect},
	OpDivZeroCheck: {"DivZeroCheck", fEffect},

	// Resolution of a string, class, method handle or type may throw (a
	// missing class) and allocates, so these stay.
	OpConstString:       {"ConstString", fEffect},
	OpConstClass:        {"ConstClass", fEffect},
	OpConstMethodHandle: {"ConstMethodHandle", fEffect},
	OpConstMethodType:   {"ConstMethodType", fEffect},
	OpNewInstance:       {"NewInstance", fEffect},
	OpNewArray:          {"NewArray", fEffect},
	OpFilledNewArray:    {"FilledNewArray", fEffect},
	OpFillArrayData:     {"FillArrayData", fEffect},
	// array-length after its NullCheck cannot fail and reads a value
	// that never changes.
	OpArrayLength: {"ArrayLength", 0},
	// Loads may fail to resolve their field (NoSuchFieldError) or run a
	// class initialiser (sget), so they are kept like stores.
	OpAGet:         {"AGet", fEffect},
	OpAPut:         {"APut", fEffect},
	OpIGet:         {"IGet", fEffect},
	OpIPut:         {"IPut", fEffect},
	OpSGet:         {"SGet", fEffect},
	OpSPut:         {"SPut", fEffect},
	OpCheckCast:    {"CheckCast", fEffect},
	OpInstanceOf:   {"InstanceOf", fEffect},
	OpMonitorEnter: {"MonitorEnter", fEffect},
	OpMonitorExit:  {"MonitorExit", fEffect},

	OpInvokeVirtual:     {"InvokeVirtual", fEffect},
	OpInvokeSuper:       {"InvokeSuper", fEffect},
	OpInvokeDirect:      {"InvokeDirect", fEffect},
	OpInvokeStatic:      {"InvokeStatic", fEffect},
	OpInvokeInterface:   {"InvokeInterface", fEffect},
	OpInvokePolymorphic: {"InvokePolymorphic", fEffect},
	OpInvokeCustom:      {"InvokeCustom", fEffect},

	OpBarrier: {"Barrier", fEffect},

	OpSelect: {"Select", 0},

	OpAccess: {"Access", fEffect},

	OpTargetIs: {"TargetIs", 0},
}

// String returns the op's name as the text dump writes it.
func (o Op) String() string {
	if o < numOps {
		return opTable[o].name
	}
	return "Invalid"
}

// HasEffect reports whether values of the op must be kept even when
// their result is unused.
func (o Op) HasEffect() bool { return opTable[o].flags&fEffect != 0 }

var opByName = func() map[string]Op {
	m := make(map[string]Op, numOps)
	for o := Op(1); o < numOps; o++ {
		m[opTable[o].name] = o
	}
	return m
}()
