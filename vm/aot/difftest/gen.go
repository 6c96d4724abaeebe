// Package difftest generates random valid Dalvik programs, as smali
// text, for differential testing of the aot engine against the
// interpreter: each program prints a deterministic trace of the values
// it computes, so two engines that run it must print the same thing.
//
// A program is a class LMain; with a few generated static functions
// (each may call the ones before it, so every program terminates), a
// recursive function, helpers that print, and classes LObj;, LSub; and
// LSub2; (fields of every type, virtual and interface methods, a
// template method whose overridden leaf is inlined behind guards, an
// override of it that may throw). The
// generated statements cover Java's arithmetic at its edges (division
// and remainder by zero, MIN_VALUE / -1, shifts by any amount, NaN in
// comparisons and conversions), counted loops with φs and swaps, arrays
// of every element type indexed in and out of bounds, fields, calls,
// switches, try/catch/finally, monitors, synchronized and
// declared-synchronized functions (a probe of the class lock tells them
// apart) and strings.
//
// Every register keeps one type for the whole method, except the
// temporaries, which are written before each use in straight-line code,
// so every join merges equal types and the verifier accepts the
// program: a program it rejects is a bug of this generator.
package difftest

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
)

// File is one smali source file of a program.
type File struct {
	Name string // e.g. "Main.smali"
	Text string
}

// Program is a generated program: its files and the main class.
type Program struct {
	Seed  int64
	Files []File
	Main  string // "Main"
}

// Text returns the program's files concatenated, each after a comment
// line naming it, for failure reports.
func (p *Program) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# difftest seed %d\n", p.Seed)
	for _, f := range p.Files {
		fmt.Fprintf(&b, "# ---- %s\n%s\n", f.Name, f.Text)
	}
	return b.String()
}

// Split reads back what Text wrote: the files of a program.
func Split(text string) []File {
	var files []File
	for _, part := range strings.Split(text, "# ---- ")[1:] {
		name, body, _ := strings.Cut(part, "\n")
		files = append(files, File{Name: name, Text: body})
	}
	return files
}

// Generate returns the program of seed; the same seed gives the same
// program.
func Generate(seed int64) *Program {
	g := &gen{r: rand.New(rand.NewSource(seed))}
	p := &Program{Seed: seed, Main: "Main"}
	p.Files = []File{
		{"Main.smali", g.mainClass()},
		{"Obj.smali", objClass},
		{"Sub.smali", subClass},
		{"Sub2.smali", sub2Class},
		{"Iface.smali", ifaceClass},
		{"InitA.smali", initClass("InitA", g.r.Intn(100))},
		{"InitB.smali", initClass("InitB", g.r.Intn(100))},
		{"InitC.smali", initClass("InitC", 0)},
	}
	return p
}

// kind is a register's type.
type kind int

const (
	kI kind = iota // int
	kJ             // long
	kF             // float
	kD             // double
	kL             // reference
)

func (k kind) wide() bool { return k == kJ || k == kD }

// desc is the kind's type descriptor (references: Object).
func (k kind) desc() string { return [...]string{"I", "J", "F", "D", "Ljava/lang/Object;"}[k] }

// The register layout of a generated function. Low registers (below 16)
// hold the temporaries and some variables, so that the instructions
// with 4-bit register fields can name them; the others are reached
// through moves into the temporaries.
const (
	tA    = 0  // int temporaries
	tB    = 1  //
	w0    = 2  // wide temporaries (pairs)
	w1    = 4  //
	r0    = 6  // reference temporaries
	r1    = 7  //
	tC    = 8  // int temporary (indices, sizes)
	i0    = 9  // int variables i0..i3: 9..12
	c0    = 13 // loop counters c0..c2: 13..15
	l0    = 16 // long variables: 16, 18
	f0    = 20 // float variables: 20, 21
	d0    = 22 // double variables: 22, 24
	i4    = 26 // int variables i4, i5: 26, 27
	arr0  = 28 // arrays, one per element type (arrayTypes): 28..36
	obj   = 37 // LObj; (maybe null, maybe an LSub;)
	str   = 38 // String
	x0    = 39 // caught exceptions, one per try depth: 39..41
	obj2  = 42 // another LObj;, sometimes the same object as obj
	arrI2 = 43 // another int[], sometimes the same array as arr0
	bnd   = 44 // loop bounds, one per loop depth: 44..46
	lock  = 47 // objects of synchronized blocks, one per try depth: 47..49
	args  = 50 // outgoing arguments of range invokes: 50..59
	p0    = 60 // parameters: int p0, int p1, long p2, float p4, double p5
	p1    = 61
	p2    = 62
	p4    = 64
	p5    = 65
	nreg  = 67
	nins  = 7
)

var (
	intVars    = []int{i0, i0 + 1, i0 + 2, i0 + 3, i4, i4 + 1, p0, p1}
	longVars   = []int{l0, l0 + 2, p2}
	floatVars  = []int{f0, f0 + 1, p4}
	doubleVars = []int{d0, d0 + 2, p5}
)

// arrayTypes are the element types of the array variables, in register
// order from arr0.
var arrayTypes = []string{"I", "J", "F", "D", "Z", "B", "C", "S", "Ljava/lang/String;"}

// funcSig is the parameter list every generated function takes.
const funcSig = "(IIJFD)"

// gen is the state of one program's generation.
type gen struct {
	r      *rand.Rand
	b      *strings.Builder
	label  int
	rets   []kind // return kind of each generated function
	cur    int    // the function being generated
	depth  int    // statement nesting
	loops  int    // loop nesting (index of the next free counter)
	tries  int    // try nesting (index of the next free exception register)
	budget int    // statements left in the current function
	syncs  int    // synchronized blocks around the current statement
	strs   int
}

func (g *gen) emit(format string, a ...any) {
	fmt.Fprintf(g.b, "    "+format+"\n", a...)
}

func (g *gen) newLabel(prefix string) string {
	g.label++
	return fmt.Sprintf(":%s_%d", prefix, g.label)
}

func (g *gen) place(label string) { fmt.Fprintf(g.b, "    %s\n", label) }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *gen, xs []T) T { return xs[g.r.Intn(len(xs))] }

// call1 calls a static method with one single-word argument.
func (g *gen) call1(method string, r int) {
	if r < 16 {
		g.emit("invoke-static {%s}, %s", v(r), method)
		return
	}
	g.emit("invoke-static/range {%s .. %s}, %s", v(r), v(r), method)
}

func v(r int) string { return fmt.Sprintf("v%d", r) }

// vars returns the variables of kind k.
func vars(k kind) []int {
	switch k {
	case kI:
		return intVars
	case kJ:
		return longVars
	case kF:
		return floatVars
	case kD:
		return doubleVars
	}
	panic("difftest: no variables of kind")
}

func (g *gen) varOf(k kind) int { return pick(g, vars(k)) }

// mov moves src to dst with the smallest move instruction that names
// both registers.
func (g *gen) mov(k kind, dst, src int) {
	if dst == src {
		return
	}
	op := "move"
	switch k {
	case kJ, kD:
		op = "move-wide"
	case kL:
		op = "move-object"
	}
	switch {
	case dst < 16 && src < 16:
		g.emit("%s %s, %s", op, v(dst), v(src))
	case dst < 256:
		g.emit("%s/from16 %s, %s", op, v(dst), v(src))
	default:
		g.emit("%s/16 %s, %s", op, v(dst), v(src))
	}
}

// low returns a low register holding src's value: src itself, or tmp
// after a move.
func (g *gen) low(k kind, src, tmp int) int {
	if src < 16 {
		return src
	}
	g.mov(k, tmp, src)
	return tmp
}

// Interesting constants: the edges of Java's arithmetic.
var (
	intConsts   = []int64{0, 1, -1, 2, 3, 7, -8, 31, 32, 33, 63, 64, 100, 127, -128, 255, 32767, -32768, 65535, 1 << 30, math.MaxInt32, math.MinInt32, -2147483647}
	longConsts  = []int64{0, 1, -1, 2, 63, 64, 65, 1 << 32, -(1 << 32), math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 0x123456789abcdef}
	floatConsts = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, 1.5, -2.5, 3.4e38, -3.4e38, 1e-45, 2147483648, -2147483904, 9.2233720e18, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0.1, 16777217}
	dblConsts   = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.5, -2.5, 1e308, -1e308, 5e-324, 2147483647.5, -2147483648.7, 9.223372036854776e18, -9.3e18, math.NaN(), math.Inf(1), math.Inf(-1), 0.1, 1e16 + 1}
)

func (g *gen) intConst() int64 {
	if g.chance(0.3) {
		return int64(g.r.Intn(2001) - 1000)
	}
	return pick(g, intConsts)
}

func (g *gen) longConst() int64 {
	if g.chance(0.3) {
		return g.r.Int63n(200001) - 100000
	}
	if g.chance(0.1) {
		return g.r.Int63() - g.r.Int63()
	}
	return pick(g, longConsts)
}

// constInt loads an int constant into r with a form that fits.
func (g *gen) constInt(r int, c int64) {
	switch {
	case r < 16 && c >= -8 && c <= 7:
		g.emit("const/4 %s, %d", v(r), c)
	case c >= -32768 && c <= 32767:
		g.emit("const/16 %s, %d", v(r), c)
	case c&0xffff == 0:
		g.emit("const/high16 %s, %#x", v(r), uint32(c))
	default:
		g.emit("const %s, %d", v(r), c)
	}
}

// constBits loads 32 raw bits (a float's) into r.
func (g *gen) constBits(r int, bits uint32) {
	if bits&0xffff == 0 {
		g.emit("const/high16 %s, %#x", v(r), bits)
		return
	}
	g.emit("const %s, %#x", v(r), bits)
}

// constWide loads 64 raw bits into the pair at r.
func (g *gen) constWide(r int, c int64) {
	switch {
	case c >= -32768 && c <= 32767:
		g.emit("const-wide/16 %s, %d", v(r), c)
	case c >= math.MinInt32 && c <= math.MaxInt32:
		g.emit("const-wide/32 %s, %d", v(r), c)
	case uint64(c)&0xffffffffffff == 0:
		g.emit("const-wide/high16 %s, %#xL", v(r), uint64(c))
	default:
		g.emit("const-wide %s, %#xL", v(r), uint64(c))
	}
}

func (g *gen) setConst(k kind, r int) {
	switch k {
	case kI:
		g.constInt(r, g.intConst())
	case kJ:
		g.constWide(r, g.longConst())
	case kF:
		g.constBits(r, math.Float32bits(pick(g, floatConsts)))
	case kD:
		g.constWide(r, int64(math.Float64bits(pick(g, dblConsts))))
	}
}

// mainClass generates LMain;.
func (g *gen) mainClass() string {
	var out strings.Builder
	out.WriteString(mainHeader)
	n := 1 + g.r.Intn(4)
	g.rets = make([]kind, n)
	for i := range g.rets {
		g.rets[i] = kind(g.r.Intn(4))
	}
	for i := range n {
		g.cur = i
		out.WriteString(g.function(i))
	}
	out.WriteString(g.mainMethod())
	return out.String()
}

func funcName(i int, k kind) string {
	return fmt.Sprintf("LMain;->f%d%s%s", i, funcSig, k.desc())
}

// function generates static function i.
func (g *gen) function(i int) string {
	var b strings.Builder
	g.b = &b
	g.depth, g.loops, g.tries = 0, 0, 0
	g.budget = 20 + g.r.Intn(80)
	ret := g.rets[i]
	// a function may be synchronized (ACC_SYNCHRONIZED: the call locks
	// LMain's class) or declared-synchronized (javac's modifier, which
	// does not lock by itself); lockProbe makes the difference visible
	mod := pick(g, []string{"", "", "", "synchronized ", "declared-synchronized "})
	fmt.Fprintf(&b, "\n.method public static %sf%d%s%s\n    .registers %d\n", mod, i, funcSig, ret.desc(), nreg)
	g.prologue()
	if mod != "" {
		g.lockProbe()
	}
	for g.budget > 0 {
		if g.chance(0.4) && g.budget > 3 {
			g.tryCatch()
			continue
		}
		g.stmt()
	}
	g.dump()
	g.ret()
	b.WriteString(".end method\n")
	return b.String()
}

// ret returns a variable of the current function's return kind.
func (g *gen) ret() {
	k := g.rets[g.cur]
	r := g.varOf(k)
	switch k {
	case kI, kF:
		g.emit("return %s", v(r))
	default:
		g.emit("return-wide %s", v(r))
	}
}

// earlyReturn returns from inside a loop, a try or a branch when a
// variable is zero.
func (g *gen) earlyReturn() {
	l := g.newLabel("noret")
	g.emit("if-nez %s, %s", v(g.varOf(kI)), l)
	g.print()
	g.ret()
	g.place(l)
}

// prologue gives every variable a value of its type.
func (g *gen) prologue() {
	for _, r := range intVars[:6] {
		if g.chance(0.3) {
			g.mov(kI, r, pick(g, []int{p0, p1}))
		} else {
			g.setConst(kI, r)
		}
	}
	for _, r := range longVars[:2] {
		g.setConst(kJ, r)
	}
	for _, r := range floatVars[:2] {
		g.setConst(kF, r)
	}
	for _, r := range doubleVars[:2] {
		g.setConst(kD, r)
	}
	for c := range 3 {
		g.emit("const/4 %s, 0", v(c0+c))
	}
	for i, t := range arrayTypes {
		g.emit("const/4 %s, %d", v(tC), 3+g.r.Intn(5))
		g.emit("new-array %s, %s, [%s", v(r0), v(tC), t)
		g.mov(kL, arr0+i, r0)
	}
	g.mov(kI, tA, p0)
	g.emit("invoke-static {%s}, LMain;->mk(I)LObj;", v(tA))
	g.emit("move-result-object %s", v(obj))
	if g.chance(0.5) {
		g.mov(kL, obj2, obj)
	} else {
		g.emit("new-instance %s, LObj;", v(r0))
		g.emit("invoke-direct {%s}, LObj;-><init>()V", v(r0))
		g.mov(kL, obj2, r0)
	}
	if g.chance(0.5) {
		g.mov(kL, arrI2, arr0)
	} else {
		g.emit("const/4 %s, 4", v(tC))
		g.emit("new-array %s, %s, [I", v(r0), v(tC))
		g.mov(kL, arrI2, r0)
	}
	g.newString(str)
}

// newString puts a constant string in r.
func (g *gen) newString(r int) {
	g.strs++
	g.emit("const-string %s, \"%s\"", v(r), pick(g, []string{"", "a", "hello", "x\\ty", "\\u00e9t\\u00e9", fmt.Sprintf("s%d", g.strs)}))
}

// stmt generates one statement, perhaps compound.
func (g *gen) stmt() {
	g.budget--
	compound := g.depth < 3 && g.budget > 3
	for {
		switch g.r.Intn(50) {
		case 48, 49:
			g.bitExpr()
		case 46, 47:
			g.selectStmt()
		case 45:
			if g.syncs > 0 || g.depth == 0 {
				continue
			}
			g.earlyReturn()
		case 42, 43:
			g.polyConst()
		case 44:
			if !compound {
				continue
			}
			g.mixedJoin()
		case 40, 41:
			g.cmpBranch()
		case 36, 37, 38:
			g.constExpr()
		case 39:
			g.constBranch()
		case 30:
			g.deadThrowing()
		case 31:
			g.aliasing()
		case 32:
			g.nullGuarded()
		case 33:
			g.classInit()
		case 34, 35:
			if !compound || g.loops >= 3 {
				continue
			}
			g.arrayLoop()
		case 0, 1, 2:
			g.intArith()
		case 3:
			g.intLit()
		case 4:
			g.wideArith(kJ)
		case 5:
			g.floatArith(kF)
		case 6:
			g.floatArith(kD)
		case 7:
			g.shift()
		case 8:
			g.convert()
		case 9:
			g.compare()
		case 10:
			g.unary()
		case 11:
			k := pick(g, []kind{kI, kJ, kF, kD})
			g.setConst(k, g.varOf(k))
		case 12, 13:
			g.arrayAccess()
		case 14:
			g.arrayMake()
		case 15:
			g.field()
		case 16:
			if g.chance(0.2) {
				g.dump()
			} else {
				g.print()
			}
		case 17:
			g.call()
		case 18:
			g.strings()
		case 19:
			g.objectOps()
		case 20:
			g.conditionalThrow()
		case 21:
			g.swap()
		case 22, 23:
			if !compound {
				continue
			}
			g.ifElse()
		case 24, 25:
			if !compound || g.loops >= 3 {
				continue
			}
			g.loop()
		case 26:
			if !compound {
				continue
			}
			g.switchStmt()
		case 27, 28:
			if !compound || g.tries >= 3 {
				continue
			}
			g.tryCatch()
		case 29:
			if !compound {
				continue
			}
			g.monitor()
		}
		return
	}
}

// block generates n statements one level deeper.
func (g *gen) block(n int) {
	g.depth++
	for range n {
		if g.budget <= 0 {
			break
		}
		g.stmt()
	}
	g.depth--
}

var intBinops = []string{"add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "ushr"}

func (g *gen) intArith() {
	op := pick(g, intBinops)
	d, a, b := g.varOf(kI), g.varOf(kI), g.varOf(kI)
	if (op == "div" || op == "rem") && g.chance(0.7) {
		// Mostly a divisor that is not zero (but may be -1).
		g.emit("or-int/lit8 %s, %s, 1", v(tC), v(b))
		b = tC
	}
	if g.chance(0.3) && d < 16 && b < 16 {
		g.emit("%s-int/2addr %s, %s", op, v(d), v(b))
		return
	}
	g.emit("%s-int %s, %s, %s", op, v(d), v(a), v(b))
}

func (g *gen) intLit() {
	op := pick(g, []string{"add", "rsub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "ushr"})
	d, a := g.varOf(kI), g.varOf(kI)
	lit := pick(g, []int64{0, 1, -1, 2, 3, -128, 127, 31, 33, 7, 1000, -32768, 32767})
	for lit == 0 && (op == "div" || op == "rem") && g.chance(0.7) {
		lit = pick(g, []int64{1, -1, 2, 3, -128, 127, 31, 33, 7, 1000, -32768, 32767})
	}
	shift := op == "shl" || op == "shr" || op == "ushr"
	if !shift && d < 16 && a < 16 && g.chance(0.5) {
		if op == "rsub" {
			op = "rsub-int" // the lit16 form of rsub has no "/lit16" suffix
			g.emit("%s %s, %s, %d", op, v(d), v(a), lit)
			return
		}
		g.emit("%s-int/lit16 %s, %s, %d", op, v(d), v(a), lit)
		return
	}
	if lit < -128 || lit > 127 {
		lit = int64(int8(lit))
	}
	g.emit("%s-int/lit8 %s, %s, %d", op, v(d), v(a), lit)
}

func (g *gen) wideArith(k kind) {
	op := pick(g, []string{"add", "sub", "mul", "div", "rem", "and", "or", "xor"})
	d, a, b := g.varOf(k), g.varOf(k), g.varOf(k)
	if (op == "div" || op == "rem") && g.chance(0.7) {
		g.emit("const-wide/16 %s, 1", v(w1))
		g.emit("or-long %s, %s, %s", v(w1), v(w1), v(b))
		b = w1
	}
	if g.chance(0.3) && d < 16 && b < 16 {
		g.emit("%s-long/2addr %s, %s", op, v(d), v(b))
		return
	}
	g.emit("%s-long %s, %s, %s", op, v(d), v(a), v(b))
}

func (g *gen) floatArith(k kind) {
	op := pick(g, []string{"add", "sub", "mul", "div", "rem"})
	t := map[kind]string{kF: "float", kD: "double"}[k]
	d, a, b := g.varOf(k), g.varOf(k), g.varOf(k)
	if g.chance(0.3) {
		// 2addr through low temporaries.
		tmp, tmp2 := tA, tB
		if k.wide() {
			tmp, tmp2 = w0, w1
		}
		g.mov(k, tmp, d)
		bb := g.low(k, b, tmp2)
		g.emit("%s-%s/2addr %s, %s", op, t, v(tmp), v(bb))
		g.mov(k, d, tmp)
		return
	}
	g.emit("%s-%s %s, %s, %s", op, t, v(d), v(a), v(b))
}

func (g *gen) shift() {
	op := pick(g, []string{"shl", "shr", "ushr"})
	d, a := g.varOf(kJ), g.varOf(kJ)
	s := g.varOf(kI)
	if g.chance(0.3) {
		g.mov(kJ, w0, d)
		ss := g.low(kI, s, tA)
		g.emit("%s-long/2addr %s, %s", op, v(w0), v(ss))
		g.mov(kJ, d, w0)
		return
	}
	g.emit("%s-long %s, %s, %s", op, v(d), v(a), v(s))
}

var conversions = []struct {
	op       string
	from, to kind
}{
	{"int-to-long", kI, kJ}, {"int-to-float", kI, kF}, {"int-to-double", kI, kD},
	{"long-to-int", kJ, kI}, {"long-to-float", kJ, kF}, {"long-to-double", kJ, kD},
	{"float-to-int", kF, kI}, {"float-to-long", kF, kJ}, {"float-to-double", kF, kD},
	{"double-to-int", kD, kI}, {"double-to-long", kD, kJ}, {"double-to-float", kD, kF},
	{"int-to-byte", kI, kI}, {"int-to-char", kI, kI}, {"int-to-short", kI, kI},
}

// unop12x emits a 12x instruction (4-bit registers) from src of kind sk
// to dst of kind dk, through temporaries when either is high.
func (g *gen) unop12x(op string, dk kind, dst int, sk kind, src int) {
	if dst < 16 && src < 16 {
		g.emit("%s %s, %s", op, v(dst), v(src))
		return
	}
	ts, td := tA, tB
	if sk.wide() {
		ts = w0
	}
	if dk.wide() {
		td = w1
	}
	g.mov(sk, ts, src)
	g.emit("%s %s, %s", op, v(td), v(ts))
	g.mov(dk, dst, td)
}

func (g *gen) convert() {
	c := pick(g, conversions)
	g.unop12x(c.op, c.to, g.varOf(c.to), c.from, g.varOf(c.from))
}

func (g *gen) unary() {
	k := pick(g, []kind{kI, kJ, kF, kD})
	ops := map[kind][]string{kI: {"neg-int", "not-int"}, kJ: {"neg-long", "not-long"}, kF: {"neg-float"}, kD: {"neg-double"}}[k]
	g.unop12x(pick(g, ops), k, g.varOf(k), k, g.varOf(k))
}

func (g *gen) compare() {
	k := pick(g, []kind{kJ, kF, kF, kD, kD})
	op := "cmp-long"
	switch k {
	case kF:
		op = pick(g, []string{"cmpl-float", "cmpg-float"})
	case kD:
		op = pick(g, []string{"cmpl-double", "cmpg-double"})
	}
	g.emit("%s %s, %s, %s", op, v(g.varOf(kI)), v(g.varOf(k)), v(g.varOf(k)))
}

// swap exchanges two variables through a temporary: in a loop, the φ
// swap problem.
func (g *gen) swap() {
	k := pick(g, []kind{kI, kI, kJ, kF, kD, kL})
	if k == kL {
		pair := pick(g, [][2]int{{obj, obj2}, {arr0, arrI2}})
		g.mov(kL, r0, pair[0])
		g.mov(kL, pair[0], pair[1])
		g.mov(kL, pair[1], r0)
		return
	}
	a, b := g.varOf(k), g.varOf(k)
	t := tA
	if k.wide() {
		t = w0
	}
	g.mov(k, t, a)
	g.mov(k, a, b)
	g.mov(k, b, t)
}

// elemKind is the register kind of an array element type.
func elemKind(t string) (kind, string) {
	switch t {
	case "I":
		return kI, ""
	case "J":
		return kJ, "-wide"
	case "F":
		return kF, ""
	case "D":
		return kD, "-wide"
	case "Z":
		return kI, "-boolean"
	case "B":
		return kI, "-byte"
	case "C":
		return kI, "-char"
	case "S":
		return kI, "-short"
	}
	return kL, "-object"
}

// index puts an index into tC: a variable as it is (often out of
// bounds) or masked to 0..7.
func (g *gen) index() int {
	i := g.varOf(kI)
	if g.chance(0.85) {
		g.emit("and-int/lit8 %s, %s, %d", v(tC), v(i), pick(g, []int{1, 3, 3, 3, 7}))
		return tC
	}
	return i
}

// arrayAccess reads or writes an element of an array variable.
func (g *gen) arrayAccess() {
	ai := g.r.Intn(len(arrayTypes))
	t := arrayTypes[ai]
	k, suf := elemKind(t)
	a := arr0 + ai
	idx := g.index()
	if g.chance(0.5) {
		if k == kL {
			g.emit("aget-object %s, %s, %s", v(r0), v(a), v(idx))
			g.call1("LMain;->pO(Ljava/lang/Object;)V", r0)
			return
		}
		d := g.varOf(k)
		if suf == "-boolean" {
			// A boolean read may become a branch condition.
			g.emit("aget-boolean %s, %s, %s", v(tA), v(a), v(idx))
			l := g.newLabel("z")
			g.emit("if-eqz %s, %s", v(tA), l)
			g.emit("add-int/lit8 %s, %s, 1", v(d), v(d))
			g.place(l)
			return
		}
		g.emit("aget%s %s, %s, %s", suf, v(d), v(a), v(idx))
		return
	}
	if k == kL {
		if g.chance(0.2) {
			g.emit("const/4 %s, 0", v(r0))
		} else {
			g.newString(r0)
		}
		g.emit("aput-object %s, %s, %s", v(r0), v(a), v(idx))
		return
	}
	g.emit("aput%s %s, %s, %s", suf, v(g.varOf(k)), v(a), v(idx))
}

// arrayMake replaces an array variable: new-array (a size that may be
// negative), filled-new-array, fill-array-data (a payload that may not
// fit), or prints its length.
func (g *gen) arrayMake() {
	ai := g.r.Intn(len(arrayTypes))
	t := arrayTypes[ai]
	a := arr0 + ai
	switch g.r.Intn(4) {
	case 0:
		n := g.varOf(kI)
		if g.chance(0.7) {
			g.emit("and-int/lit8 %s, %s, 7", v(tC), v(n))
		} else {
			g.emit("rem-int/lit8 %s, %s, 9", v(tC), v(n)) // may be negative
		}
		g.emit("new-array %s, %s, [%s", v(r0), v(tC), t)
		g.mov(kL, a, r0)
	case 1:
		al := g.low(kL, a, r0)
		g.emit("array-length %s, %s", v(tA), v(al))
		g.mov(kI, g.varOf(kI), tA)
	case 2:
		if t != "I" {
			ai, a = 0, arr0
		}
		n := 1 + g.r.Intn(5)
		for j := range n {
			g.mov(kI, args+j, g.varOf(kI))
		}
		g.emit("filled-new-array/range {%s .. %s}, [I", v(args), v(args+n-1))
		g.emit("move-result-object %s", v(a))
	case 3:
		if t == "Ljava/lang/String;" {
			ai, a, t = 0, arr0, "I"
		}
		g.fillArrayData(a, t)
	}
}

func (g *gen) fillArrayData(a int, t string) {
	width := map[string]int{"I": 4, "F": 4, "J": 8, "D": 8, "Z": 1, "B": 1, "C": 2, "S": 2}[t]
	n := 1 + g.r.Intn(6)
	l := g.newLabel("data")
	after := g.newLabel("after_data")
	g.emit("fill-array-data %s, %s", v(a), l)
	g.emit("goto %s", after)
	g.place(l)
	g.emit(".array-data %d", width)
	for range n {
		switch width {
		case 1:
			if t == "Z" {
				g.emit("    %dt", g.r.Intn(2))
			} else {
				g.emit("    %dt", int8(g.r.Intn(256)))
			}
		case 2:
			g.emit("    %ds", int16(g.r.Intn(65536)))
		case 4:
			g.emit("    %#x", uint32(g.intConst()))
		case 8:
			g.emit("    %#xL", uint64(g.longConst()))
		}
	}
	g.emit(".end array-data")
	g.place(after)
}

var objFields = []struct {
	name, t string
}{
	{"i", "I"}, {"j", "J"}, {"f", "F"}, {"d", "D"}, {"z", "Z"}, {"b", "B"}, {"c", "C"}, {"s", "S"}, {"next", "LObj;"}, {"str", "Ljava/lang/String;"},
}

// field reads or writes an instance field of obj (which may be null) or
// a static field of LMain;.
func (g *gen) field() {
	f := pick(g, objFields)
	k, suf := elemKind(f.t)
	static := g.chance(0.4)
	get := g.chance(0.5)
	tmp := tA
	if k.wide() {
		tmp = w0
	}
	if k == kL {
		tmp = r1
	}
	var ref string
	if static {
		ref = fmt.Sprintf("LMain;->s%s:%s", f.name, f.t)
	} else {
		ref = fmt.Sprintf("LObj;->%s:%s", f.name, f.t)
		g.mov(kL, r0, obj)
	}
	op := "iget"
	if static {
		op = "sget"
	}
	if !get {
		op = "iput"
		if static {
			op = "sput"
		}
	}
	at := ""
	if !static {
		at = v(r0) + ", "
	}
	if get {
		g.emit("%s%s %s, %s%s", op, suf, v(tmp), at, ref)
		switch {
		case k == kL && f.t == "LObj;":
			if g.chance(0.5) {
				g.mov(kL, obj, tmp) // may be null: a later access throws
			}
		case k == kL:
			g.call1("LMain;->pO(Ljava/lang/Object;)V", tmp)
		default:
			g.mov(k, g.varOf(k), tmp)
		}
		return
	}
	switch {
	case f.t == "LObj;":
		g.mov(kL, tmp, obj)
	case k == kL:
		g.mov(kL, tmp, str)
	default:
		g.mov(k, tmp, g.varOf(k))
	}
	g.emit("%s%s %s, %s%s", op, suf, v(tmp), at, ref)
}

// dump prints every scalar variable, so that a wrong value anywhere
// shows in the trace.
func (g *gen) dump() {
	for _, k := range []kind{kI, kJ, kF, kD} {
		name := map[kind]string{kI: "p", kJ: "pJ", kF: "pF", kD: "pD"}[k]
		w := 1
		if k.wide() {
			w = 2
		}
		for _, r := range vars(k) {
			g.mov(k, args, r)
			g.emit("invoke-static/range {%s .. %s}, LMain;->%s(%s)V", v(args), v(args+w-1), name, k.desc())
		}
	}
}

// print prints a variable.
func (g *gen) print() {
	k := pick(g, []kind{kI, kI, kJ, kF, kD})
	r := g.varOf(k)
	w := 1
	if k.wide() {
		w = 2
	}
	g.mov(k, args, r)
	name := map[kind]string{kI: "p", kJ: "pJ", kF: "pF", kD: "pD"}[k]
	g.emit("invoke-static/range {%s .. %s}, LMain;->%s(%s)V", v(args), v(args+w-1), name, k.desc())
}

// moveArgs puts a call's arguments (IIJFD) into the argument area.
func (g *gen) moveArgs() {
	g.mov(kI, args, g.varOf(kI))
	g.mov(kI, args+1, g.varOf(kI))
	g.mov(kJ, args+2, g.varOf(kJ))
	g.mov(kF, args+4, g.varOf(kF))
	g.mov(kD, args+5, g.varOf(kD))
}

func (g *gen) moveResult(k kind) {
	switch k {
	case kI, kF:
		g.emit("move-result %s", v(g.varOf(k)))
	default:
		g.emit("move-result-wide %s", v(g.varOf(k)))
	}
}

// call calls an earlier function, the recursive function, or a virtual
// or interface method of obj.
func (g *gen) call() {
	switch g.r.Intn(7) {
	case 6:
		// guarded inlining: LObj.twice calls area on its receiver,
		// overridden by LSub (both inlinable) and LSub2 (a division
		// that may throw, the call on a miss and its frames in the
		// trace); wide is overridden by LSub and inherited by LSub2
		recv := obj
		if g.chance(0.3) {
			g.emit("new-instance %s, LSub2;", v(r0))
			g.emit("invoke-direct {%s}, LSub2;-><init>()V", v(r0))
			recv = r0
		}
		g.mov(kL, args, recv)
		if g.chance(0.6) {
			g.mov(kI, args+1, g.varOf(kI))
			g.emit("invoke-virtual/range {%s .. %s}, LObj;->twice(I)I", v(args), v(args+1))
			g.moveResult(kI)
		} else {
			g.mov(kJ, args+1, g.varOf(kJ))
			g.emit("invoke-virtual/range {%s .. %s}, LObj;->wide(J)J", v(args), v(args+2))
			g.moveResult(kJ)
		}
	case 4:
		// a static leaf of LMain, which the aot engine inlines (but
		// for leafDiv, whose division may throw: its frame must stay in
		// the trace)
		k := pick(g, []kind{kI, kJ, kF, kD, kI})
		name, w := "leafDiv(II)I", 1
		switch k {
		case kJ:
			name, w = "leafJ(JJ)J", 2
		case kF:
			name = "leafF(FF)F"
		case kD:
			name, w = "leafD(DD)D", 2
		default:
			if g.chance(0.6) {
				name = "leafI(II)I"
			}
		}
		g.mov(k, args, g.varOf(k))
		g.mov(k, args+w, g.varOf(k))
		g.emit("invoke-static/range {%s .. %s}, LMain;->%s", v(args), v(args+2*w-1), name)
		g.moveResult(k)
	case 5:
		// LObj.acc calls a private accessor twice, inlined into it;
		// the receiver may be null
		g.mov(kL, args, obj)
		g.mov(kI, args+1, g.varOf(kI))
		g.emit("invoke-virtual/range {%s .. %s}, LObj;->acc(I)I", v(args), v(args+1))
		g.moveResult(kI)
	case 0:
		if g.cur == 0 || g.loops > 1 {
			g.call()
			return
		}
		f := g.r.Intn(g.cur)
		g.moveArgs()
		g.emit("invoke-static/range {%s .. %s}, %s", v(args), v(args+6), funcName(f, g.rets[f]))
		if g.chance(0.8) {
			g.moveResult(g.rets[f])
		}
	case 1:
		g.emit("and-int/lit8 %s, %s, 7", v(args), v(g.varOf(kI)))
		g.mov(kI, args+1, g.varOf(kI))
		g.emit("invoke-static/range {%s .. %s}, LMain;->rec(II)I", v(args), v(args+1))
		g.moveResult(kI)
	case 2:
		g.mov(kL, args, obj)
		g.mov(kI, args+1, g.varOf(kI))
		g.emit("invoke-virtual/range {%s .. %s}, LObj;->vm(I)I", v(args), v(args+1))
		g.moveResult(kI)
	case 3:
		g.mov(kL, r0, obj)
		a := g.low(kI, g.varOf(kI), tA)
		g.emit("invoke-interface {%s, %s}, LIface;->calc(I)I", v(r0), v(a))
		g.moveResult(kI)
	}
}

// strings builds a string with a StringBuilder, or uses String methods.
func (g *gen) strings() {
	switch g.r.Intn(3) {
	case 0:
		g.emit("new-instance %s, Ljava/lang/StringBuilder;", v(r1))
		g.emit("invoke-direct {%s}, Ljava/lang/StringBuilder;-><init>()V", v(r1))
		appended := false // str once at most, or loops would grow it exponentially
		for range 1 + g.r.Intn(4) {
			k := pick(g, []kind{kI, kJ, kF, kD, kL})
			if k == kL && appended {
				k = kI
			}
			switch k {
			case kL:
				appended = true
				g.mov(kL, r0, str)
				g.emit("invoke-virtual {%s, %s}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;", v(r1), v(r0))
			case kJ, kD:
				g.mov(k, w0, g.varOf(k))
				g.emit("invoke-virtual {%s, %s, %s}, Ljava/lang/StringBuilder;->append(%s)Ljava/lang/StringBuilder;", v(r1), v(w0), v(w0+1), k.desc())
			default:
				desc := k.desc()
				if k == kI && g.chance(0.3) {
					desc = "C"
				}
				g.mov(k, tA, g.varOf(k))
				g.emit("invoke-virtual {%s, %s}, Ljava/lang/StringBuilder;->append(%s)Ljava/lang/StringBuilder;", v(r1), v(tA), desc)
			}
		}
		g.emit("invoke-virtual {%s}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;", v(r1))
		g.emit("move-result-object %s", v(str))
		g.call1("LMain;->pO(Ljava/lang/Object;)V", str)
	case 1:
		g.mov(kL, r0, str)
		g.emit("invoke-virtual {%s}, Ljava/lang/String;->length()I", v(r0))
		g.moveResult(kI)
	case 2:
		g.mov(kL, r0, str)
		g.newString(r1)
		g.emit("invoke-virtual {%s, %s}, Ljava/lang/String;->concat(Ljava/lang/String;)Ljava/lang/String;", v(r0), v(r1))
		g.emit("move-result-object %s", v(str))
		if g.chance(0.5) {
			g.emit("invoke-virtual {%s}, Ljava/lang/String;->hashCode()I", v(r0))
			g.moveResult(kI)
		}
	}
}

// objectOps makes a new object, tests its class, casts it (which may
// throw) or compares references.
func (g *gen) objectOps() {
	switch g.r.Intn(5) {
	case 4:
		// An Object[] that may be a String[]: storing an LObj; into it
		// throws ArrayStoreException.
		g.mov(kI, tA, g.varOf(kI))
		g.emit("invoke-static {%s}, LMain;->oarr(I)[Ljava/lang/Object;", v(tA))
		g.emit("move-result-object %s", v(r1))
		g.emit("and-int/lit8 %s, %s, 3", v(tC), v(g.varOf(kI)))
		if g.chance(0.5) {
			g.mov(kL, r0, obj)
		} else {
			g.mov(kL, r0, str)
		}
		g.emit("aput-object %s, %s, %s", v(r0), v(r1), v(tC))
		g.emit("aget-object %s, %s, %s", v(r0), v(r1), v(tC))
		g.call1("LMain;->pO(Ljava/lang/Object;)V", r0)
	case 0:
		g.mov(kI, tA, g.varOf(kI))
		g.emit("invoke-static {%s}, LMain;->mk(I)LObj;", v(tA))
		g.emit("move-result-object %s", v(obj))
	case 1:
		g.mov(kL, r0, obj)
		g.emit("instance-of %s, %s, LSub;", v(tA), v(r0))
		g.mov(kI, g.varOf(kI), tA)
	case 2:
		g.mov(kL, r0, obj)
		g.emit("check-cast %s, LSub;", v(r0))
		g.call1("LMain;->pO(Ljava/lang/Object;)V", r0)
	case 3:
		g.mov(kL, r0, obj)
		g.emit("sget-object %s, LMain;->snext:LObj;", v(r1))
		l := g.newLabel("same")
		g.emit("if-%s %s, %s, %s", pick(g, []string{"eq", "ne"}), v(r0), v(r1), l)
		g.emit("sput-object %s, LMain;->snext:LObj;", v(r0))
		g.place(l)
	}
}

// constExpr applies an operation to constant operands, which the
// compiler folds with its own arithmetic: Java's at the edges (shift
// amounts masked, division by zero throws, NaN compares, conversions
// saturate).
func (g *gen) constExpr() {
	k := pick(g, []kind{kI, kI, kJ, kF, kD})
	switch g.r.Intn(4) {
	case 0, 1: // binary
		var ops []string
		t := map[kind]string{kI: "int", kJ: "long", kF: "float", kD: "double"}[k]
		switch k {
		case kI, kJ:
			ops = append(intBinops[:0:0], intBinops...)
		default:
			ops = []string{"add", "sub", "mul", "div", "rem"}
		}
		op := pick(g, ops)
		a, b := tA, tB
		if k.wide() {
			a, b = w0, w1
		}
		g.setConst(k, a)
		shift := op == "shl" || op == "shr" || op == "ushr"
		if shift && k == kJ {
			b = tB
			g.setConst(kI, b)
		} else {
			g.setConst(k, b)
		}
		g.emit("%s-%s %s, %s, %s", op, t, v(g.varOf(k)), v(a), v(b))
	case 2: // conversion
		c := pick(g, conversions)
		src := tA
		if c.from.wide() {
			src = w0
		}
		g.setConst(c.from, src)
		g.unop12x(c.op, c.to, g.varOf(c.to), c.from, src)
	case 3: // comparison
		k := pick(g, []kind{kJ, kF, kD})
		op := map[kind]string{kJ: "cmp-long", kF: pick(g, []string{"cmpl-float", "cmpg-float"}), kD: pick(g, []string{"cmpl-double", "cmpg-double"})}[k]
		a, b := tA, tB
		if k.wide() {
			a, b = w0, w1
		}
		g.setConst(k, a)
		if g.chance(0.3) {
			b = a
		} else {
			g.setConst(k, b)
		}
		g.emit("%s %s, %s, %s", op, v(g.varOf(kI)), v(a), v(b))
	}
}

// cmpBranch branches on a comparison of longs, floats or doubles (NaN
// included: cmpl and cmpg differ only there), the shape the lowering
// fuses into one conditional jump.
func (g *gen) cmpBranch() {
	k := pick(g, []kind{kJ, kF, kF, kD, kD})
	op := "cmp-long"
	switch k {
	case kF:
		op = pick(g, []string{"cmpl-float", "cmpg-float"})
	case kD:
		op = pick(g, []string{"cmpl-double", "cmpg-double"})
	}
	a, b := g.varOf(k), g.varOf(k)
	if g.chance(0.3) {
		t := w1
		if k == kF {
			t = tB
		}
		g.setConst(k, t)
		b = t
	}
	g.emit("%s %s, %s, %s", op, v(tA), v(a), v(b))
	l := g.newLabel("cmp")
	g.emit("if-%sz %s, %s", pick(g, conds), v(tA), l)
	d := g.varOf(kI)
	g.emit("add-int/lit8 %s, %s, %d", v(d), v(d), 1+g.r.Intn(100))
	g.place(l)
}

// selectStmt chooses a value by a short-circuit condition: one to three
// int comparisons, each jumping to the yes or the no side (so `&&`,
// `||` and their mixtures), then one value of some kind on each side,
// or an int 0 or 1 (a boolean): the shape the compiler's if-conversion
// (ssa/ifconv.go) turns into Selects. Sometimes the no side is the
// value already in the variable (a triangle), sometimes a side computes
// (speculated by the conversion).
func (g *gen) selectStmt() {
	k := pick(g, []kind{kI, kI, kI, kJ, kF, kD})
	d := g.varOf(k)
	yes, no, join := g.newLabel("sely"), g.newLabel("seln"), g.newLabel("selj")
	triangle := g.chance(0.3)
	if triangle {
		no = join
	}
	for n := 1 + g.r.Intn(3); n > 0; n-- {
		to := yes
		if g.chance(0.5) {
			to = no
		}
		a := g.low(kI, g.varOf(kI), tA)
		if g.chance(0.4) {
			g.emit("if-%sz %s, %s", pick(g, conds), v(a), to)
			continue
		}
		b := g.low(kI, g.varOf(kI), tB)
		if g.chance(0.3) {
			g.constInt(tB, g.intConst())
			b = tB
		}
		g.emit("if-%s %s, %s, %s", pick(g, conds), v(a), v(b), to)
	}
	boolean := k == kI && g.chance(0.4)
	side := func(one bool) {
		switch {
		case boolean && one:
			g.constInt(d, 1)
		case boolean:
			g.constInt(d, 0)
		case k == kI && g.chance(0.4):
			g.emit("add-int/lit8 %s, %s, %d", v(d), v(g.varOf(kI)), g.r.Intn(200)-100)
		case k == kJ && g.chance(0.4):
			g.emit("add-long %s, %s, %s", v(d), v(g.varOf(kJ)), v(g.varOf(kJ)))
		case k == kD && g.chance(0.4):
			g.emit("mul-double %s, %s, %s", v(d), v(g.varOf(kD)), v(g.varOf(kD)))
		case g.chance(0.5):
			g.mov(k, d, g.varOf(k))
		default:
			g.setConst(k, d)
		}
	}
	if g.chance(0.5) {
		// the yes side last: the tests fall through to the no side
		if !triangle {
			g.place(no)
			side(false)
		}
		g.emit("goto %s", join)
		g.place(yes)
		side(true)
	} else {
		g.place(yes)
		side(true)
		if !triangle {
			g.emit("goto %s", join)
			g.place(no)
			side(false)
		}
	}
	g.place(join)
}

// bitExpr combines two int operands with and, or, xor, add or sub, as
// caffeine-logic's kernel does: each operand is a variable, an operation
// of a variable and a literal (x & 15, x << 1, x >>> 3: lit8 forms), or a
// boolean of a comparison (0 or 1 through a branch, which if-conversion
// makes a Select of 1 and 0); sometimes the whole is one way of a
// selection whose other way is a variable or a boolean. These are the
// shapes of the aot engine's compound tree operands and Select arms
// (vm/aot/engine/expr.go, select.go).
func (g *gen) bitExpr() {
	lows := []int{i0, i0 + 1, i0 + 2, i0 + 3}
	boolOf := func(t int) {
		yes, join := g.newLabel("bity"), g.newLabel("bitj")
		a, b := pick(g, lows), pick(g, lows)
		if g.chance(0.3) {
			g.emit("if-%sz %s, %s", pick(g, conds), v(a), yes)
		} else {
			g.emit("if-%s %s, %s, %s", pick(g, conds), v(a), v(b), yes)
		}
		one := g.r.Intn(2)
		g.emit("const/4 %s, %d", v(t), 1-one)
		g.emit("goto %s", join)
		g.place(yes)
		g.emit("const/4 %s, %d", v(t), one)
		g.place(join)
	}
	operand := func(t int) int {
		switch g.r.Intn(3) {
		case 0:
			return g.varOf(kI)
		case 1:
			op := pick(g, []string{"and", "shl", "shr", "ushr", "add", "or"})
			g.emit("%s-int/lit8 %s, %s, %d", op, v(t), v(g.varOf(kI)), pick(g, []int64{1, 2, 3, 4, 15, 31, 33, -1, -16, 127}))
		default:
			boolOf(t)
		}
		return t
	}
	d := g.varOf(kI)
	if !g.chance(0.3) {
		x, y := operand(tA), operand(tB)
		g.emit("%s-int %s, %s, %s", pick(g, []string{"and", "or", "xor", "add", "sub"}), v(d), v(x), v(y))
		return
	}
	// one way of a selection: (a cmp b) ? x op y : other
	no, join := g.newLabel("bitn"), g.newLabel("bitk")
	g.emit("if-%s %s, %s, %s", pick(g, conds), v(pick(g, lows)), v(pick(g, lows)), no)
	x, y := operand(tA), operand(tB)
	g.emit("%s-int %s, %s, %s", pick(g, []string{"and", "or", "xor"}), v(d), v(x), v(y))
	g.emit("goto %s", join)
	g.place(no)
	if g.chance(0.5) {
		boolOf(tA)
		g.mov(kI, d, tA)
	} else {
		g.emit("const/4 %s, %d", v(tA), g.r.Intn(2))
		g.mov(kI, d, tA)
	}
	g.place(join)
}

// polyConst uses one constant as two types, as dx's code does: 32 bits
// as an int and as a float, 64 bits as a long and as a double, zero as
// an int and as null. The front end's type inference must split it.
func (g *gen) polyConst() {
	switch g.r.Intn(3) {
	case 0:
		g.constBits(tA, math.Float32bits(pick(g, floatConsts)))
		g.emit("add-float %s, %s, %s", v(g.varOf(kF)), v(g.varOf(kF)), v(tA))
		g.emit("%s-int %s, %s, %s", pick(g, []string{"add", "xor", "shr"}), v(g.varOf(kI)), v(g.varOf(kI)), v(tA))
	case 1:
		g.constWide(w0, int64(math.Float64bits(pick(g, dblConsts))))
		g.emit("mul-double %s, %s, %s", v(g.varOf(kD)), v(g.varOf(kD)), v(w0))
		g.emit("%s-long %s, %s, %s", pick(g, []string{"add", "xor", "sub"}), v(g.varOf(kJ)), v(g.varOf(kJ)), v(w0))
	case 2:
		g.emit("const/4 %s, 0", v(tA))
		g.mov(kL, r0, obj2)
		g.emit("iput-object %s, %s, LObj;->str:Ljava/lang/String;", v(tA), v(r0))
		g.emit("iput %s, %s, LObj;->i:I", v(tA), v(r0))
		g.emit("aput-object %s, %s, %s", v(tA), v(arr0+8), v(tA))
		g.emit("add-int %s, %s, %s", v(g.varOf(kI)), v(g.varOf(kI)), v(tA))
	}
}

// mixedJoin writes a temporary with a different type on each side of a
// branch (int and float, a long pair and an int in its low half, a
// reference and an int): after the join it holds no type and is not
// used, which SSA construction must accept.
func (g *gen) mixedJoin() {
	els, end := g.newLabel("mx"), g.newLabel("mxend")
	g.emit("if-%sz %s, %s", pick(g, conds), v(g.varOf(kI)), els)
	switch g.r.Intn(3) {
	case 0:
		g.constBits(tA, math.Float32bits(1.5))
		g.emit("add-float %s, %s, %s", v(g.varOf(kF)), v(g.varOf(kF)), v(tA))
		g.emit("goto %s", end)
		g.place(els)
		g.emit("const/16 %s, 5", v(tA))
		g.emit("add-int %s, %s, %s", v(g.varOf(kI)), v(g.varOf(kI)), v(tA))
	case 1:
		g.constWide(w0, 7)
		g.emit("add-long %s, %s, %s", v(g.varOf(kJ)), v(g.varOf(kJ)), v(w0))
		g.emit("goto %s", end)
		g.place(els)
		g.emit("const/16 %s, 9", v(w0+1))
		g.emit("add-int %s, %s, %s", v(g.varOf(kI)), v(g.varOf(kI)), v(w0+1))
	case 2:
		g.mov(kL, tA, str)
		g.call1("LMain;->pO(Ljava/lang/Object;)V", tA)
		g.emit("goto %s", end)
		g.place(els)
		g.emit("const/16 %s, 11", v(tA))
		g.emit("add-int %s, %s, %s", v(g.varOf(kI)), v(g.varOf(kI)), v(tA))
	}
	g.place(end)
}

// constBranch branches or switches on a constant, which the compiler
// folds to one successor.
func (g *gen) constBranch() {
	g.constInt(tC, g.intConst())
	if g.chance(0.5) {
		l := g.newLabel("cb")
		g.emit("if-%sz %s, %s", pick(g, conds), v(tC), l)
		g.print()
		g.place(l)
		return
	}
	g.constInt(tB, g.intConst())
	l := g.newLabel("cb")
	g.emit("if-%s %s, %s, %s", pick(g, conds), v(tC), v(tB), l)
	g.print()
	g.place(l)
}

// deadThrowing computes a value nobody uses with an instruction that may
// throw: the exception must happen all the same (dead code elimination
// may delete the value, never the check).
func (g *gen) deadThrowing() {
	switch g.r.Intn(7) {
	case 0:
		g.emit("%s-int %s, %s, %s", pick(g, []string{"div", "rem"}), v(tA), v(g.varOf(kI)), v(g.varOf(kI)))
	case 1:
		g.emit("%s-long %s, %s, %s", pick(g, []string{"div", "rem"}), v(w0), v(g.varOf(kJ)), v(g.varOf(kJ)))
	case 2:
		g.emit("aget %s, %s, %s", v(tA), v(arr0), v(g.varOf(kI)))
	case 3:
		g.mov(kL, r0, obj)
		g.emit("iget %s, %s, LObj;->i:I", v(tA), v(r0))
	case 4:
		g.mov(kL, r0, obj)
		g.emit("check-cast %s, LSub;", v(r0))
	case 5:
		g.emit("rem-int/lit8 %s, %s, 5", v(tC), v(g.varOf(kI)))
		g.emit("new-array %s, %s, [J", v(r0), v(tC))
	case 6:
		g.mov(kL, r0, obj)
		g.emit("invoke-virtual {%s}, Ljava/lang/Object;->hashCode()I", v(r0))
	}
	g.emit("const/4 %s, 0", v(tA))
	g.emit("const/4 %s, 0", v(r0))
}

// aliasing stores through one reference and loads through another that
// may be the same object or array: a load must not be forwarded past a
// store that may alias it.
func (g *gen) aliasing() {
	if g.chance(0.5) {
		g.mov(kL, r0, obj)
		g.mov(kL, r1, obj2)
		g.emit("iget %s, %s, LObj;->i:I", v(tA), v(r0))
		g.emit("iput %s, %s, LObj;->i:I", v(pick(g, intVars[:4])), v(r1))
		g.emit("iget %s, %s, LObj;->i:I", v(tB), v(r0))
		g.emit("sub-int %s, %s, %s", v(g.varOf(kI)), v(tB), v(tA))
		return
	}
	idx := g.index()
	g.emit("aget %s, %s, %s", v(tA), v(arr0), v(idx))
	g.emit("aput %s, %s, %s", v(g.varOf(kI)), v(arrI2), v(idx))
	g.emit("aget %s, %s, %s", v(tB), v(arr0), v(idx))
	g.emit("sub-int %s, %s, %s", v(g.varOf(kI)), v(tB), v(tA))
	if g.chance(0.3) {
		// Make them the same array (or different ones) from here on.
		if g.chance(0.5) {
			g.mov(kL, arrI2, arr0)
		} else {
			g.mov(kL, obj2, obj)
		}
	}
}

// nullGuarded accesses obj under a branch on its nullness, the right way
// round (no exception) or the wrong way round (a NullPointerException).
func (g *gen) nullGuarded() {
	l := g.newLabel("nn")
	g.mov(kL, r0, obj)
	test := "eqz"
	if g.chance(0.2) {
		test = "nez"
	}
	g.emit("if-%s %s, %s", test, v(r0), l)
	f := pick(g, objFields[:8])
	k, suf := elemKind(f.t)
	if k.wide() {
		g.emit("iget%s %s, %s, LObj;->%s:%s", suf, v(w0), v(r0), f.name, f.t)
		g.mov(k, g.varOf(k), w0)
	} else {
		g.emit("iget%s %s, %s, LObj;->%s:%s", suf, v(tA), v(r0), f.name, f.t)
		g.mov(k, g.varOf(k), tA)
	}
	g.emit("iget-object %s, %s, LObj;->next:LObj;", v(r1), v(r0))
	g.emit("iput-object %s, %s, LObj;->next:LObj;", v(r0), v(r0))
	g.place(l)
}

// classInit touches a class whose static initialiser prints, by a
// static field read whose value is unused, a write, a new-instance or a
// static call: the initialiser must run at the first of them, once.
func (g *gen) classInit() {
	c := pick(g, []string{"LInitA;", "LInitB;", "LInitC;"})
	switch g.r.Intn(4) {
	case 0:
		g.emit("sget %s, %s->x:I", v(tA), c)
		if g.chance(0.5) {
			g.mov(kI, g.varOf(kI), tA)
		}
	case 1:
		g.emit("sput %s, %s->x:I", v(g.varOf(kI)), c)
	case 2:
		g.emit("new-instance %s, %s", v(r0), c)
		g.emit("invoke-direct {%s}, %s-><init>()V", v(r0), c)
	case 3:
		g.mov(kI, args, g.varOf(kI))
		g.emit("invoke-static/range {%s .. %s}, %s->bump(I)I", v(args), v(args), c)
		g.moveResult(kI)
	}
}

// arrayLoop walks an array with a counted loop bounded by its length, the
// loop bounds-check elimination recognises, with variations it must not
// mistake for it: a start at -1, a bound one past the end, the array
// replaced by a shorter one inside the loop.
func (g *gen) arrayLoop() {
	c := c0 + g.loops
	b := bnd + g.loops
	g.loops++
	arr := pick(g, []int{arr0, arr0, arrI2})
	head, end := g.newLabel("aloop"), g.newLabel("endaloop")
	g.mov(kL, r0, arr)
	g.emit("array-length %s, %s", v(tA), v(r0))
	if g.chance(0.15) {
		g.emit("add-int/lit8 %s, %s, 1", v(tA), v(tA)) // one past the end
	}
	g.mov(kI, b, tA)
	if g.chance(0.1) {
		g.emit("const/4 %s, -1", v(c))
	} else {
		g.emit("const/4 %s, 0", v(c))
	}
	g.place(head)
	g.mov(kI, tA, b)
	if g.chance(0.5) {
		g.emit("if-ge %s, %s, %s", v(c), v(tA), end)
	} else {
		g.emit("if-le %s, %s, %s", v(tA), v(c), end)
	}
	g.emit("aget %s, %s, %s", v(tB), v(arr), v(c))
	d := g.varOf(kI)
	g.emit("add-int %s, %s, %s", v(d), v(d), v(tB))
	if g.chance(0.5) {
		g.emit("aput %s, %s, %s", v(g.varOf(kI)), v(arr), v(c))
	}
	if g.chance(0.15) {
		g.emit("const/4 %s, 2", v(tC))
		g.emit("new-array %s, %s, [I", v(r0), v(tC))
		g.mov(kL, arr, r0)
	}
	if g.chance(0.5) {
		g.block(1 + g.r.Intn(2))
	}
	g.emit("add-int/lit8 %s, %s, 1", v(c), v(c))
	g.emit("goto %s", head)
	g.place(end)
	g.loops--
}

// conditionalThrow throws a new exception (or null: a
// NullPointerException) when a variable is zero.
func (g *gen) conditionalThrow() {
	l := g.newLabel("nothrow")
	g.emit("if-nez %s, %s", v(g.varOf(kI)), l)
	if g.chance(0.15) {
		g.emit("sget-object %s, LMain;->sthrow:Ljava/lang/RuntimeException;", v(r0)) // never set
		g.emit("throw %s", v(r0))
		g.place(l)
		return
	}
	cls := pick(g, []string{"Ljava/lang/IllegalStateException;", "Ljava/lang/IllegalArgumentException;", "Ljava/lang/RuntimeException;"})
	g.emit("new-instance %s, %s", v(r0), cls)
	g.newString(r1)
	g.emit("invoke-direct {%s, %s}, %s-><init>(Ljava/lang/String;)V", v(r0), v(r1), cls)
	g.emit("throw %s", v(r0))
	g.place(l)
}

var conds = []string{"eq", "ne", "lt", "ge", "gt", "le"}

// ifElse branches on a comparison of ints (or a cmp result).
func (g *gen) ifElse() {
	els, end := g.newLabel("else"), g.newLabel("endif")
	c := pick(g, conds)
	if g.chance(0.4) {
		g.emit("if-%sz %s, %s", c, v(g.varOf(kI)), els)
	} else {
		a := g.low(kI, g.varOf(kI), tA)
		b := g.low(kI, g.varOf(kI), tB)
		g.emit("if-%s %s, %s, %s", c, v(a), v(b), els)
	}
	g.block(1 + g.r.Intn(4))
	if g.chance(0.6) {
		g.emit("goto %s", end)
		g.place(els)
		g.block(1 + g.r.Intn(3))
		g.place(end)
		return
	}
	g.place(els)
}

// loop runs a counted loop (0..n) on the next free counter; the body may
// break out or continue.
func (g *gen) loop() {
	c := c0 + g.loops
	g.loops++
	n := 1 + g.r.Intn(4)
	head, end := g.newLabel("loop"), g.newLabel("endloop")
	g.emit("const/4 %s, 0", v(c))
	if g.chance(0.5) {
		// while: test at the top
		g.place(head)
		g.emit("add-int/lit8 %s, %s, %d", v(tA), v(c), -n)
		g.emit("if-gez %s, %s", v(tA), end)
		g.loopBody(end)
		g.emit("add-int/lit8 %s, %s, 1", v(c), v(c))
		g.emit("goto %s", head)
	} else {
		// do-while: test at the bottom
		g.place(head)
		g.loopBody(end)
		g.emit("add-int/lit8 %s, %s, 1", v(c), v(c))
		g.emit("const/4 %s, %d", v(tA), n)
		g.emit("if-lt %s, %s, %s", v(c), v(tA), head)
	}
	g.place(end)
	g.loops--
}

// loopBody generates the body of a loop, perhaps with a break.
func (g *gen) loopBody(end string) {
	g.block(1 + g.r.Intn(4))
	if g.chance(0.2) {
		g.emit("if-eqz %s, %s", v(g.varOf(kI)), end)
	}
	g.block(g.r.Intn(2))
}

// switchStmt generates a packed or sparse switch whose cases run
// statements and jump to the end; the default falls through.
func (g *gen) switchStmt() {
	n := 1 + g.r.Intn(4)
	sel := g.varOf(kI)
	end, table := g.newLabel("endsw"), g.newLabel("table")
	packed := g.chance(0.5)
	var keys []int64
	if packed {
		first := pick(g, []int64{0, -1, 1, 5, -3, math.MaxInt32 - 2})
		for j := range n {
			keys = append(keys, first+int64(j))
		}
		if first > 100 {
			keys = keys[:min(n, 3)]
		}
	} else {
		seen := map[int64]bool{}
		for len(keys) < n {
			k := pick(g, []int64{0, 1, 2, -1, 7, 100, -1000, 65536, math.MinInt32, math.MaxInt32, int64(g.r.Intn(20))})
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
	}
	if g.chance(0.5) {
		g.emit("and-int/lit8 %s, %s, 7", v(tC), v(sel))
		sel = tC
	}
	kw := "sparse-switch"
	if packed {
		kw = "packed-switch"
	}
	g.emit("%s %s, %s", kw, v(sel), table)
	g.block(g.r.Intn(2)) // default
	g.emit("goto %s", end)
	cases := make([]string, len(keys))
	for j := range keys {
		cases[j] = g.newLabel("case")
		g.place(cases[j])
		g.block(1 + g.r.Intn(2))
		if g.chance(0.8) || j == len(keys)-1 {
			g.emit("goto %s", end)
		} // else falls through to the next case
	}
	g.place(table)
	if packed {
		g.emit(".packed-switch %d", keys[0])
		for _, c := range cases {
			g.emit("    %s", c)
		}
		g.emit(".end packed-switch")
	} else {
		g.emit(".sparse-switch")
		for j, c := range cases {
			g.emit("    %d -> %s", keys[j], c)
		}
		g.emit(".end sparse-switch")
	}
	g.place(end)
}

var catchTypes = []string{"Ljava/lang/ArithmeticException;", "Ljava/lang/ArrayIndexOutOfBoundsException;", "Ljava/lang/NullPointerException;", "Ljava/lang/RuntimeException;", "Ljava/lang/IllegalStateException;", "Ljava/lang/NegativeArraySizeException;", "Ljava/lang/ClassCastException;", "Ljava/lang/Exception;"}

// tryCatch generates try { body } catch (T e) { print e } [catch
// (any) { print e }] or try { body } finally { fin }, where finally runs
// on the normal path and, from a catch-all handler, before a rethrow.
func (g *gen) tryCatch() {
	x := x0 + g.tries
	g.tries++
	start, stop, after := g.newLabel("try"), g.newLabel("tryend"), g.newLabel("aftertry")
	g.place(start)
	g.block(1 + g.r.Intn(5))
	g.place(stop)
	if g.chance(0.25) {
		// finally
		h := g.newLabel("finally")
		g.emit(".catchall {%s .. %s} %s", start, stop, h)
		fin := g.finallyBody()
		fin()
		g.emit("goto %s", after)
		g.place(h)
		g.emit("move-exception %s", v(x))
		fin()
		g.emit("throw %s", v(x))
		g.place(after)
		g.tries--
		return
	}
	var handlers []string
	n := 1 + g.r.Intn(2)
	used := map[string]bool{}
	for range n {
		t := pick(g, catchTypes)
		if used[t] {
			continue
		}
		used[t] = true
		h := g.newLabel("catch")
		handlers = append(handlers, h)
		g.emit(".catch %s {%s .. %s} %s", t, start, stop, h)
	}
	if g.chance(0.3) {
		h := g.newLabel("catchall")
		handlers = append(handlers, h)
		g.emit(".catchall {%s .. %s} %s", start, stop, h)
	}
	g.emit("goto %s", after)
	for _, h := range handlers {
		g.place(h)
		g.emit("move-exception %s", v(x))
		g.call1("LMain;->pX(Ljava/lang/Throwable;)V", x)
		if g.chance(0.5) {
			g.block(g.r.Intn(3))
		}
		if g.chance(0.1) {
			g.emit("throw %s", v(x)) // rethrow
		} else {
			g.emit("goto %s", after)
		}
	}
	g.place(after)
	g.tries--
}

// finallyBody returns a generator of the same finally code, emitted
// twice (javac copies finally blocks the same way): simple statements
// that do not throw.
func (g *gen) finallyBody() func() {
	seed := g.r.Int63()
	return func() {
		r := g.r
		g.r = rand.New(rand.NewSource(seed))
		for range 1 + g.r.Intn(3) {
			g.safeStmt()
		}
		g.r = r
	}
}

// safeStmt generates a statement that cannot throw.
func (g *gen) safeStmt() {
	switch g.r.Intn(5) {
	case 0:
		op := pick(g, []string{"add", "sub", "mul", "and", "or", "xor", "shl", "shr", "ushr"})
		g.emit("%s-int %s, %s, %s", op, v(g.varOf(kI)), v(g.varOf(kI)), v(g.varOf(kI)))
	case 1:
		g.floatArith(pick(g, []kind{kF, kD}))
	case 2:
		g.convert()
	case 3:
		k := pick(g, []kind{kI, kJ, kF, kD})
		g.setConst(k, g.varOf(k))
	case 4:
		g.swap()
	}
}

// lockProbe releases and retakes LMain's class monitor, printing -7
// when the thread does not hold it (IllegalMonitorStateException): in a
// synchronized function it holds it through the call, in a
// declared-synchronized one only if a caller holds it, or if a lock
// leaked from an earlier call that threw.
func (g *gen) lockProbe() {
	start, stop, h, after := g.newLabel("probe"), g.newLabel("probeend"), g.newLabel("probeh"), g.newLabel("afterprobe")
	g.emit("const-class %s, LMain;", v(r0))
	g.place(start)
	g.emit("monitor-exit %s", v(r0))
	g.place(stop)
	g.emit(".catch Ljava/lang/IllegalMonitorStateException; {%s .. %s} %s", start, stop, h)
	g.emit("monitor-enter %s", v(r0))
	g.emit("goto %s", after)
	g.place(h)
	g.emit("const/4 %s, -7", v(tA))
	g.call1("LMain;->p(I)V", tA)
	g.place(after)
}

// monitor holds obj's monitor (a null obj throws at monitor-enter)
// around statements that cannot throw, or around any statements with a
// catch-all handler that releases it and rethrows, as javac compiles a
// synchronized block.
func (g *gen) monitor() {
	if g.tries < 3 && g.chance(0.5) {
		lk, x := lock+g.tries, x0+g.tries
		g.tries++
		start, stop, h, after := g.newLabel("sync"), g.newLabel("syncend"), g.newLabel("synch"), g.newLabel("aftersync")
		g.mov(kL, lk, pick(g, []int{obj, obj2, str}))
		g.emit("monitor-enter %s", v(lk))
		g.place(start)
		g.syncs++
		g.block(1 + g.r.Intn(4))
		g.syncs--
		g.emit("monitor-exit %s", v(lk))
		g.place(stop)
		g.emit(".catchall {%s .. %s} %s", start, stop, h)
		g.emit("goto %s", after)
		g.place(h)
		g.emit("move-exception %s", v(x))
		g.emit("monitor-exit %s", v(lk))
		g.emit("throw %s", v(x))
		g.place(after)
		g.tries--
		return
	}
	g.mov(kL, r1, obj)
	g.emit("monitor-enter %s", v(r1))
	for range 1 + g.r.Intn(3) {
		g.safeStmt()
	}
	g.emit("monitor-exit %s", v(r1))
}

// mainMethod calls each function a few times, printing its result or
// the exception it threw, then perhaps once more without a handler, and
// prints the static fields.
func (g *gen) mainMethod() string {
	var b strings.Builder
	g.b = &b
	b.WriteString("\n.method public static main([Ljava/lang/String;)V\n    .registers 16\n")
	for f, ret := range g.rets {
		for range 1 + g.r.Intn(3) {
			start, stop, h, after := g.newLabel("m"), g.newLabel("mend"), g.newLabel("mh"), g.newLabel("mafter")
			g.place(start)
			g.mainCall(f, ret)
			g.place(stop)
			g.emit(".catchall {%s .. %s} %s", start, stop, h)
			g.emit("goto %s", after)
			g.place(h)
			g.emit("move-exception v10")
			g.emit("invoke-static {v10}, LMain;->pX(Ljava/lang/Throwable;)V")
			g.place(after)
		}
	}
	g.emit("invoke-static {}, LMain;->statics()V")
	if g.chance(0.3) {
		f := g.r.Intn(len(g.rets))
		g.mainCall(f, g.rets[f])
	}
	g.emit("return-void")
	b.WriteString(".end method\n")
	return b.String()
}

func (g *gen) mainCall(f int, ret kind) {
	g.constInt(0, g.intConst())
	g.constInt(1, g.intConst())
	g.constWide(2, g.longConst())
	g.constBits(4, math.Float32bits(pick(g, floatConsts)))
	g.constWide(5, int64(math.Float64bits(pick(g, dblConsts))))
	g.emit("invoke-static/range {v0 .. v6}, %s", funcName(f, ret))
	name := map[kind]string{kI: "p", kJ: "pJ", kF: "pF", kD: "pD"}[ret]
	if ret.wide() {
		g.emit("move-result-wide v8")
		g.emit("invoke-static {v8, v9}, LMain;->%s(%s)V", name, ret.desc())
	} else {
		g.emit("move-result v8")
		g.emit("invoke-static {v8}, LMain;->%s(%s)V", name, ret.desc())
	}
}

const mainHeader = `.class public LMain;
.super Ljava/lang/Object;

.field static si:I
.field static sj:J
.field static sf:F
.field static sd:D
.field static sz:Z
.field static sb:B
.field static sc:C
.field static ss:S
.field static snext:LObj;
.field static sstr:Ljava/lang/String;
.field static sthrow:Ljava/lang/RuntimeException;

.method static constructor <clinit>()V
    .registers 2
    const/16 v0, 42
    sput v0, LMain;->si:I
    const-string v1, "static"
    sput-object v1, LMain;->sstr:Ljava/lang/String;
    return-void
.end method

.method static p(I)V
    .registers 2
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v0, p0}, Ljava/io/PrintStream;->println(I)V
    return-void
.end method

.method static pJ(J)V
    .registers 3
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v0, p0, p1}, Ljava/io/PrintStream;->println(J)V
    return-void
.end method

.method static pF(F)V
    .registers 2
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v0, p0}, Ljava/io/PrintStream;->println(F)V
    return-void
.end method

.method static pD(D)V
    .registers 3
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v0, p0, p1}, Ljava/io/PrintStream;->println(D)V
    return-void
.end method

.method static pO(Ljava/lang/Object;)V
    .registers 2
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-static {p0}, Ljava/lang/String;->valueOf(Ljava/lang/Object;)Ljava/lang/String;
    move-result-object p0
    invoke-virtual {v0, p0}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void
.end method

.method static pX(Ljava/lang/Throwable;)V
    .registers 4
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    new-instance v1, Ljava/lang/StringBuilder;
    invoke-direct {v1}, Ljava/lang/StringBuilder;-><init>()V
    const-string v2, "caught "
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {p0}, Ljava/lang/Throwable;->toString()Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v1}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void
.end method

.method static mk(I)LObj;
    .registers 3
    const/4 v0, 5
    rem-int v0, p0, v0
    if-eqz v0, :null
    and-int/lit8 v0, v0, 1
    if-nez v0, :sub
    new-instance v1, LObj;
    invoke-direct {v1}, LObj;-><init>()V
    iput p0, v1, LObj;->i:I
    return-object v1
    :sub
    new-instance v1, LSub;
    invoke-direct {v1}, LSub;-><init>()V
    iput p0, v1, LObj;->i:I
    return-object v1
    :null
    const/4 v1, 0
    return-object v1
.end method

.method static oarr(I)[Ljava/lang/Object;
    .registers 3
    const/4 v0, 3
    and-int/lit8 v1, p0, 1
    if-eqz v1, :objects
    new-array v1, v0, [Ljava/lang/String;
    return-object v1
    :objects
    new-array v1, v0, [Ljava/lang/Object;
    return-object v1
.end method

.method static leafI(II)I
    .registers 3
    mul-int v0, p0, p1
    xor-int/2addr v0, p1
    add-int/lit8 v0, v0, 7
    return v0
.end method

.method static leafDiv(II)I
    .registers 3
    div-int v0, p0, p1
    return v0
.end method

.method static leafJ(JJ)J
    .registers 6
    mul-long v0, p0, p2
    add-long/2addr v0, p0
    return-wide v0
.end method

.method static leafF(FF)F
    .registers 3
    mul-float v0, p0, p1
    sub-float/2addr v0, p1
    return v0
.end method

.method static leafD(DD)D
    .registers 6
    div-double v0, p0, p2
    add-double/2addr v0, p2
    return-wide v0
.end method

.method static rec(II)I
    .registers 4
    if-gtz p0, :more
    return p1
    :more
    add-int/lit8 v0, p0, -1
    mul-int/lit8 v1, p1, 31
    add-int/2addr v1, p0
    invoke-static {v0, v1}, LMain;->rec(II)I
    move-result v1
    const/4 v0, 2
    if-ne p0, v0, :ok
    rem-int/lit8 v0, p1, 13
    if-nez v0, :ok
    new-instance v0, Ljava/lang/IllegalArgumentException;
    const-string v1, "rec"
    invoke-direct {v0, v1}, Ljava/lang/IllegalArgumentException;-><init>(Ljava/lang/String;)V
    throw v0
    :ok
    xor-int/2addr v1, p0
    return v1
.end method

.method static statics()V
    .registers 3
    sget v0, LMain;->si:I
    invoke-static {v0}, LMain;->p(I)V
    sget-wide v0, LMain;->sj:J
    invoke-static {v0, v1}, LMain;->pJ(J)V
    sget v0, LMain;->sf:F
    invoke-static {v0}, LMain;->pF(F)V
    sget-wide v0, LMain;->sd:D
    invoke-static {v0, v1}, LMain;->pD(D)V
    sget-boolean v0, LMain;->sz:Z
    invoke-static {v0}, LMain;->p(I)V
    sget-byte v0, LMain;->sb:B
    invoke-static {v0}, LMain;->p(I)V
    sget-char v0, LMain;->sc:C
    invoke-static {v0}, LMain;->p(I)V
    sget-short v0, LMain;->ss:S
    invoke-static {v0}, LMain;->p(I)V
    sget-object v0, LMain;->snext:LObj;
    if-nez v0, :some
    const-string v1, "no next"
    invoke-static {v1}, LMain;->pO(Ljava/lang/Object;)V
    goto :str
    :some
    iget v1, v0, LObj;->i:I
    invoke-static {v1}, LMain;->p(I)V
    :str
    sget-object v0, LMain;->sstr:Ljava/lang/String;
    invoke-static {v0}, LMain;->pO(Ljava/lang/Object;)V
    return-void
.end method
`

const objClass = `.class public LObj;
.super Ljava/lang/Object;
.implements LIface;

.field public i:I
.field public j:J
.field public f:F
.field public d:D
.field public z:Z
.field public b:B
.field public c:C
.field public s:S
.field public next:LObj;
.field public str:Ljava/lang/String;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method public declared-synchronized vm(I)I
    .registers 3
    iget v0, p0, LObj;->i:I
    add-int/2addr v0, p1
    iput v0, p0, LObj;->i:I
    return v0
.end method

.method public calc(I)I
    .registers 3
    mul-int/lit8 v0, p1, 3
    return v0
.end method

.method public twice(I)I
    .registers 3
    invoke-virtual {p0, p1}, LObj;->area(I)I
    move-result v0
    add-int/2addr v0, v0
    return v0
.end method

.method public area(I)I
    .registers 3
    mul-int v0, p1, p1
    return v0
.end method

.method public wide(J)J
    .registers 5
    const-wide/16 v0, 3
    mul-long/2addr v0, p1
    return-wide v0
.end method

.method private add(I)I
    .registers 3
    iget v0, p0, LObj;->i:I
    add-int/2addr v0, p1
    iput v0, p0, LObj;->i:I
    return v0
.end method

.method public acc(I)I
    .registers 3
    invoke-direct {p0, p1}, LObj;->add(I)I
    move-result v0
    invoke-direct {p0, v0}, LObj;->add(I)I
    move-result v0
    return v0
.end method

.method public toString()Ljava/lang/String;
    .registers 3
    new-instance v0, Ljava/lang/StringBuilder;
    invoke-direct {v0}, Ljava/lang/StringBuilder;-><init>()V
    const-string v1, "Obj "
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    iget v1, p0, LObj;->i:I
    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method
`

const sub2Class = `.class public LSub2;
.super LSub;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, LSub;-><init>()V
    return-void
.end method

.method public area(I)I
    .registers 3
    const/16 v0, 100
    div-int v0, v0, p1
    return v0
.end method
`

const subClass = `.class public LSub;
.super LObj;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, LObj;-><init>()V
    return-void
.end method

.method public vm(I)I
    .registers 5
    iget v0, p0, LObj;->i:I
    sub-int/2addr v0, p1
    iget-wide v1, p0, LObj;->j:J
    long-to-int v1, v1
    xor-int/2addr v0, v1
    iput v0, p0, LObj;->i:I
    return v0
.end method

.method public area(I)I
    .registers 3
    add-int/lit8 v0, p1, 7
    return v0
.end method

.method public wide(J)J
    .registers 5
    const-wide/16 v0, -1
    xor-long/2addr v0, p1
    return-wide v0
.end method

.method public calc(I)I
    .registers 3
    iget v0, p0, LObj;->i:I
    rem-int v0, p1, v0
    return v0
.end method
`

// initClass is a class whose static initialiser prints its name and
// divides by x: with x 0 it throws (ExceptionInInitializerError at the
// first use, NoClassDefFoundError at the next ones).
func initClass(name string, x int) string {
	return fmt.Sprintf(`.class public L%[1]s;
.super Ljava/lang/Object;

.field public static x:I

.method static constructor <clinit>()V
    .registers 2
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    const-string v1, "init %[1]s"
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    const/16 v0, %[2]d
    const/16 v1, 1000
    div-int v1, v1, v0
    sput v1, L%[1]s;->x:I
    return-void
.end method

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method public static bump(I)I
    .registers 2
    sget v0, L%[1]s;->x:I
    add-int/2addr v0, p0
    sput v0, L%[1]s;->x:I
    return v0
.end method
`, name, x)
}

const ifaceClass = `.class public interface abstract LIface;
.super Ljava/lang/Object;

.method public abstract calc(I)I
.end method
`
