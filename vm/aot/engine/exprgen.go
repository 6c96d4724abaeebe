//go:build ignore

// exprgen writes expr_gen.go: the expression-tree closures of the aot
// engine, one per operation, operand type and operand kind (slot,
// constant, subtree), so that a tree node reads its leaves itself
// instead of calling a closure for each. Run by go generate.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
)

// typ is an operand type of the trees.
type typ struct {
	name   string // int, long, float, double
	gotyp  string // the Go type a tree of it returns
	slot   string // reads slot %s of r
	store  string // stores %[2]s into slot %[1]s of r
	elem   string // reads the element at index idx of the array at arr (h is the heap)
	konst  bool   // has a constant operand kind
	binops []binop
}

type binop struct {
	op   string // ssa op name without Op
	expr string // %[1]s and %[2]s are the operands
}

var types = []typ{
	{"int", "uint32", "r[%s]", "r[%s] = %s", "h.U32(arr + 12 + idx*4)", true, []binop{
		{"Add", "%s + %s"}, {"Sub", "%s - %s"}, {"Mul", "uint32(int32(%s) * int32(%s))"},
		{"Div", "idiv(%s, %s)"}, {"Rem", "irem(%s, %s)"},
		{"And", "%s & %s"}, {"Or", "%s | %s"}, {"Xor", "%s ^ %s"},
		{"Shl", "%s << (%s & 31)"}, {"Shr", "uint32(int32(%s) >> (%s & 31))"}, {"Ushr", "%s >> (%s & 31)"},
	}},
	{"long", "uint64", "getL(r, %s)", "setL(r, %s, %s)", "h.U64(arr + 16 + idx*8)", false, []binop{
		{"Add", "%s + %s"}, {"Sub", "%s - %s"}, {"Mul", "%s * %s"},
		{"And", "%s & %s"}, {"Or", "%s | %s"}, {"Xor", "%s ^ %s"},
	}},
	{"float", "float32", "fl(r, %s)", "r[%s] = math.Float32bits(%s)", "math.Float32frombits(h.U32(arr + 12 + idx*4))", false, []binop{
		{"Add", "%s + %s"}, {"Sub", "%s - %s"}, {"Mul", "%s * %s"}, {"Div", "%s / %s"},
	}},
	{"double", "float64", "db(r, %s)", "setL(r, %s, math.Float64bits(%s))", "math.Float64frombits(h.U64(arr + 16 + idx*8))", false, []binop{
		{"Add", "%s + %s"}, {"Sub", "%s - %s"}, {"Mul", "%s * %s"}, {"Div", "%s / %s"},
	}},
}

// kind is an operand kind: its number (opSlot, opConst, opTree,
// opElem, opElemB in expr.go) and how a closure reads operand v ("x" or "y"):
// statements to run first, in operand order, and the expression.
type kind struct {
	n    int
	name string
	read func(t typ, v string) (pre, expr string)
	// compound: an int operation of a slot and a constant, evaluated
	// in the node (opCAnd ... in expr.go)
	compound bool
}

var kinds = []kind{
	{0, "S", func(t typ, v string) (string, string) { return "", fmt.Sprintf(t.slot, v+"s") }, false},
	{1, "K", func(t typ, v string) (string, string) { return "", v + "k" }, false},
	{2, "T", func(t typ, v string) (string, string) { return v + "v := " + v + "t(f)\n", v + "v" }, false},
	{3, "A", elemRead, false},
	// an element with its barrier: the mark first, as the Barrier
	// before the access's checks, unless an earlier load of the tree
	// threw (the code after a throw does not run, so marks nothing)
	{4, "B", func(t typ, v string) (string, string) {
		pre, e := elemRead(t, v)
		return fmt.Sprintf(markInline, v+"e.b", "r["+v+"a]") + pre, e
	}, false},
	// an int operation of a slot and a constant read by the node
	// (caffeine-logic's x & 0xF0, x << 1, x >>> 3): one call less each
	{5, "CAnd", compoundRead("r[%[1]ss] & %[1]sk"), true},
	{6, "CShl", compoundRead("r[%[1]ss] << (%[1]sk & 31)"), true},
	{7, "CShr", compoundRead("uint32(int32(r[%[1]ss]) >> (%[1]sk & 31))"), true},
	{8, "CUshr", compoundRead("r[%[1]ss] >> (%[1]sk & 31)"), true},
	{9, "CAdd", compoundRead("r[%[1]ss] + %[1]sk"), true},
	// a comparison of two slots as 0 or 1 (a Select of it between the
	// constants 0 and 1: caffeine-logic's booleans)
	{10, "CEq", compoundRead("bit(r[%[1]ss] == r[%[1]ss2])"), true},
	{11, "CNe", compoundRead("bit(r[%[1]ss] != r[%[1]ss2])"), true},
	{12, "CLt", compoundRead("bit(int32(r[%[1]ss]) < int32(r[%[1]ss2]))"), true},
	{13, "CGe", compoundRead("bit(int32(r[%[1]ss]) >= int32(r[%[1]ss2]))"), true},
	{14, "CGt", compoundRead("bit(int32(r[%[1]ss]) > int32(r[%[1]ss2]))"), true},
	{15, "CLe", compoundRead("bit(int32(r[%[1]ss]) <= int32(r[%[1]ss2]))"), true},
}

// compoundRead reads a compound operand: e with %[1]s the operand's
// name.
func compoundRead(e string) func(t typ, v string) (string, string) {
	return func(t typ, v string) (string, string) { return "", "(" + fmt.Sprintf(e, v) + ")" }
}

// compoundOps are the operations whose nodes take compound operands.
var compoundOps = map[string]bool{"Add": true, "Sub": true, "And": true, "Or": true, "Xor": true}

// markInline runs barriers %[1]s on object %[2]s unless the tree threw,
// with the single-barrier cases inline (markBar is too big for Go to
// inline, and a call per element is a good part of a barrier's cost).
// The store roots call markBar: inline there, caffeine-float at level
// all measured 20 % over off instead of 15 (BENCHMARKS.md).
const markInline = `if !f.threw {
switch %[1]s {
case barCached | barLoop:
if !f.skipLoop {
f.acc.MarkCached(%[2]s)
}
case barCached:
f.acc.MarkCached(%[2]s)
case barMark:
f.acc.Mark(%[2]s)
default:
markBars(f, %[1]s, %[2]s)
}
}
`

// elemRead reads an array element operand with its checks inline.
func elemRead(t typ, v string) (string, string) {
	pre := fmt.Sprintf("var %[1]sv %[2]s\nif arr, idx := r[%[1]sa], r[%[1]sx]+%[1]so; arr != 0 && idx < h.U32(arr+8) {\n%[1]sv = %[3]s\n} else {\n%[1]se.fail(f)\n}\n", v, t.gotyp, t.elem)
	return pre, v + "v"
}

// valid says whether a node of type t has a form for operand kinds x, y.
func valid(t typ, x, y kind) bool {
	if x.compound || y.compound {
		// int only, not beside an element (the element forms stay as
		// they were)
		if t.name != "int" || x.n == 3 || x.n == 4 || y.n == 3 || y.n == 4 {
			return false
		}
	}
	if !t.konst && (x.name == "K" || y.name == "K") {
		return false
	}
	return !(x.name == "K" && y.name == "K")
}

// body returns the statements reading both operands and the expression
// e of them.
func body(t typ, x, y kind, e string) (string, string) {
	xp, xe := x.read(t, "x")
	yp, ye := y.read(t, "y")
	return xp + yp, fmt.Sprintf(e, xe, ye)
}

const unpack = "\txs, xk, xt, xa, xx, xo, xe, xs2 := x.s, x.k, x.t, x.e.a, x.e.x, x.e.o, x.e, x.s2\n\tys, yk, yt, ya, yx, yo, ye, ys2 := y.s, y.k, y.t, y.e.a, y.e.x, y.e.o, y.e, y.s2\n\t_, _, _, _, _, _, _, _ = xs, xk, xt, xa, xx, xo, xe, xs2\n\t_, _, _, _, _, _, _, _ = ys, yk, yt, ya, yx, yo, ye, ys2\n"

const prologue = "r, h := f.r, f.h\n_, _ = r, h\n"

func main() {
	var b bytes.Buffer
	b.WriteString("// Code generated by exprgen.go; DO NOT EDIT.\n\npackage engine\n\nimport (\n\t\"math\"\n\n\t\"github.com/droidprof/droidprof/vm/aot/ssa\"\n)\n\n")
	b.WriteString("var _ = math.Float64bits\n\n")
	for _, t := range types {
		T := title(t.name)
		// the tree node: a closure returning the value
		fmt.Fprintf(&b, "// bin%s returns the tree node of a %s operation, nil if there is none.\n", T, t.name)
		fmt.Fprintf(&b, "func bin%s(op ssa.Op, x, y %sOpnd) func(*frame) %s {\n", T, t.name, t.gotyp)
		b.WriteString(unpack)
		fmt.Fprintf(&b, "\tswitch op {\n")
		for _, o := range t.binops {
			fmt.Fprintf(&b, "\tcase ssa.Op%s:\n\t\tswitch x.kind<<4 | y.kind {\n", o.op)
			for _, xk := range kinds {
				for _, yk := range kinds {
					if !valid(t, xk, yk) || (xk.compound || yk.compound) && !compoundOps[o.op] {
						continue
					}
					pre, e := body(t, xk, yk, o.expr)
					fmt.Fprintf(&b, "\t\tcase %d<<4 | %d:\n", xk.n, yk.n)
					fmt.Fprintf(&b, "\t\t\treturn func(f *frame) %s {\n%s%sreturn %s\n}\n", t.gotyp, prologue, pre, e)
				}
			}
			fmt.Fprintf(&b, "\t\t}\n")
		}
		fmt.Fprintf(&b, "\t}\n\treturn nil\n}\n\n")
		// the root: stores into a slot; at least one operand is a tree
		// or an element, which may have thrown
		fmt.Fprintf(&b, "// bin%sStore returns the instruction storing a %s operation with a\n// tree or element operand into slot d, nil if there is none.\n", T, t.name)
		fmt.Fprintf(&b, "func bin%sStore(op ssa.Op, d int, x, y %sOpnd) instr {\n", T, t.name)
		b.WriteString(unpack)
		fmt.Fprintf(&b, "\tswitch op {\n")
		for _, o := range t.binops {
			fmt.Fprintf(&b, "\tcase ssa.Op%s:\n\t\tswitch x.kind<<4 | y.kind {\n", o.op)
			for _, xk := range kinds {
				for _, yk := range kinds {
					if !valid(t, xk, yk) || xk.n < 2 && yk.n < 2 || (xk.compound || yk.compound) && !compoundOps[o.op] {
						continue
					}
					pre, e := body(t, xk, yk, o.expr)
					fmt.Fprintf(&b, "\t\tcase %d<<4 | %d:\n", xk.n, yk.n)
					fmt.Fprintf(&b, "\t\t\treturn func(f *frame) bool {\n%s%sv := %s\nif f.threw {\nf.threw = false\nreturn false\n}\n%s\nreturn true\n}\n", prologue, pre, e, fmt.Sprintf(t.store, "d", "v"))
				}
			}
			fmt.Fprintf(&b, "\t\t}\n")
		}
		fmt.Fprintf(&b, "\t}\n\treturn nil\n}\n\n")
	}
	// array stores of an operation: the root of SOR's, LU's and FFT's
	// trees, the store with its checks inline after the operands
	for _, t := range types {
		if t.name != "int" && t.name != "double" {
			continue
		}
		T := title(t.name)
		put := map[string]string{"int": "h.SetU32(arr+12+idx*4, v)", "double": "h.SetU64(arr+16+idx*8, math.Float64bits(v))"}[t.name]
		fmt.Fprintf(&b, "// bin%sPut returns the instruction storing a %s operation with a\n// tree or element operand into element px of array pa (slots, checked\n// as ac does, after the store's barriers pb), nil if there is none.\n", T, t.name)
		fmt.Fprintf(&b, "func bin%sPut(op ssa.Op, pa, px int, pb uint8, ac *access, x, y %sOpnd) instr {\n", T, t.name)
		b.WriteString(unpack)
		fmt.Fprintf(&b, "\tswitch op {\n")
		for _, o := range t.binops {
			fmt.Fprintf(&b, "\tcase ssa.Op%s:\n\t\tswitch x.kind<<4 | y.kind {\n", o.op)
			for _, xk := range kinds {
				for _, yk := range kinds {
					if !valid(t, xk, yk) || xk.n < 2 && yk.n < 2 || xk.compound || yk.compound {
						continue
					}
					pre, e := body(t, xk, yk, o.expr)
					fmt.Fprintf(&b, "\t\tcase %d<<4 | %d:\n", xk.n, yk.n)
					fmt.Fprintf(&b, "\t\t\treturn func(f *frame) bool {\n%s%sv := %s\nif f.threw {\nf.threw = false\nreturn false\n}\nif pb != 0 {\nmarkBar(f, pb, r[pa])\n}\nif arr := r[pa]; arr != 0 {\nif idx := r[px]; idx < h.U32(arr+8) {\n%s\nreturn true\n}\n}\n_, _, ok := ac.check(f)\nreturn ok\n}\n", prologue, pre, e, put)
				}
			}
			fmt.Fprintf(&b, "\t\t}\n")
		}
		fmt.Fprintf(&b, "\t}\n\treturn nil\n}\n\n")
	}
	// int comparisons fused with their branch
	fmt.Fprintf(&b, "// condInt returns the terminator of an If on an int comparison with a\n// tree or element operand, nil if there is none.\n")
	fmt.Fprintf(&b, "func condInt(op ssa.Op, x, y intOpnd, yes, no *edge) func(*frame) *edge {\n")
	b.WriteString(unpack)
	fmt.Fprintf(&b, "\tswitch op {\n")
	t := types[0]
	for _, c := range cmps {
		fmt.Fprintf(&b, "\tcase ssa.Op%s:\n\t\tswitch x.kind<<4 | y.kind {\n", c.op)
		for _, xk := range kinds {
			for _, yk := range kinds {
				if !valid(t, xk, yk) || xk.n < 2 && yk.n < 2 || xk.compound || yk.compound {
					continue
				}
				pre, e := body(t, xk, yk, "int32(%s) "+c.sym+" int32(%s)")
				fmt.Fprintf(&b, "\t\tcase %d<<4 | %d:\n", xk.n, yk.n)
				fmt.Fprintf(&b, "\t\t\treturn func(f *frame) *edge {\n%s%sc := %s\nif f.threw {\nf.threw = false\nreturn throwEdge\n}\nif c {\nreturn yes\n}\nreturn no\n}\n", prologue, pre, e)
			}
		}
		fmt.Fprintf(&b, "\t\t}\n")
	}
	fmt.Fprintf(&b, "\t}\n\treturn nil\n}\n")
	for _, s := range selects {
		writeSelect(&b, s)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		os.Stdout.Write(b.Bytes())
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile("expr_gen.go", src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// cmp is an int comparison that a fused branch or a Select evaluates
// inline.
type cmp struct {
	op  string // ssa op name without Op
	sym string // Go's operator
}

var cmps = []cmp{{"Eq", "=="}, {"Ne", "!="}, {"Lt", "<"}, {"Ge", ">="}, {"Gt", ">"}, {"Le", "<="}}

// slots is c of slots a and b of r, unsigned where the sign makes no
// difference.
func (c cmp) slots() string {
	if c.op == "Eq" || c.op == "Ne" {
		return "r[a] " + c.sym + " r[b]"
	}
	return "int32(r[a]) " + c.sym + " int32(r[b])"
}

// selectShape is a family of Select closures, one per comparison, so
// that the test is inline in each (Go inlines a func literal called
// directly; intTest.holds would be a call and a switch per test). Its
// constructor takes the intTest t, then params, and returns ret, a
// closure returning res that runs body with %[1]s the test of slots a
// and b of r; setup runs once, in the constructor, so that the closure
// captures what it names.
type selectShape struct {
	name, doc, tparams, params, setup, ret, res, body string
}

// selects are the Select shapes, roots first. The order places the
// closures in the binary, and caffeine-logic's time follows where its
// hot roots land: the same closures in another order measured 3 % and
// 8 % slower (vm/aot/BENCHMARKS.md), so a reorder wants a measurement.
var selects = []selectShape{
	{name: "selectArmsMove", doc: "an int Select of slot or comparison arms storing into slot d: both\n// arms read and the chosen one kept, without a branch on the arms",
		params: "d int, x, y intArm", ret: "instr", res: "bool",
		body: "r := f.r\np, q := x.read(r), y.read(r)\nif %[1]s {\nq = p\n}\nr[d] = q\nreturn true\n"},
	{name: "selectArmsStore", doc: "an int Select with a tree arm storing into slot d; only the\n// chosen arm runs",
		params: "d int, x, y intArm", setup: "xt, yt := x.t, y.t", ret: "instr", res: "bool",
		body: armStore("uint32", "x.read(r)", "y.read(r)", "r[d] = w")},
	{name: "selectLongStore", doc: "a long Select with a tree arm storing into slot d; only the\n// chosen arm runs",
		params: "d int, x, y longArm", setup: "xs, xt, ys, yt := x.s, x.t, y.s, y.t", ret: "instr", res: "bool",
		body: armStore("uint64", "getL(r, xs)", "getL(r, ys)", "setL(r, d, w)")},
	{name: "selectArms", doc: "an int Select with a tree arm as a tree node; only the chosen arm runs",
		params: "x, y intArm", setup: "xt, yt := x.t, y.t", ret: "func(*frame) uint32", res: "uint32",
		body: "r := f.r\nif %[1]s {\nif xt != nil {\nreturn xt(f)\n}\nreturn x.read(r)\n}\nif yt != nil {\nreturn yt(f)\n}\nreturn y.read(r)\n"},
	{name: "selectSlots", doc: "an int Select of slots x and y as a tree node",
		params: "x, y int", ret: "func(*frame) uint32", res: "uint32",
		body: "if r := f.r; %[1]s {\nreturn r[x]\n} else {\nreturn r[y]\n}\n"},
	{name: "selectSlotsStore", doc: "an int or float Select of slots x and y\n// storing into slot d",
		params: "d, x, y int", ret: "instr", res: "bool",
		body: "if r := f.r; %[1]s {\nr[d] = r[x]\n} else {\nr[d] = r[y]\n}\nreturn true\n"},
	{name: "selectBy", doc: "a Select of operands evaluated by x and y", tparams: "[T any]",
		params: "x, y func(*frame) T", ret: "func(*frame) T", res: "T",
		body: "if r := f.r; %[1]s {\nreturn x(f)\n}\nreturn y(f)\n"},
}

// armStore is the body of a Select root storing w, evaluated by arm
// tree xt or yt where there is one and read by xr or yr otherwise.
func armStore(gotyp, xr, yr, store string) string {
	return fmt.Sprintf("r := f.r\nvar w %s\nif %%[1]s {\nif xt != nil {\nw = xt(f)\n} else {\nw = %s\n}\n} else {\nif yt != nil {\nw = yt(f)\n} else {\nw = %s\n}\n}\n%s\nreturn true\n", gotyp, xr, yr, store)
}

// writeSelect writes the constructor of shape s: a switch on the
// comparison with a closure for each.
func writeSelect(b *bytes.Buffer, s selectShape) {
	fmt.Fprintf(b, "\n// %s returns %s,\n// one closure per comparison so that the test is inline.\n", s.name, s.doc)
	fmt.Fprintf(b, "func %s%s(t intTest, %s) %s {\n\ta, b := t.a, t.b\n", s.name, s.tparams, s.params, s.ret)
	if s.setup != "" {
		fmt.Fprintf(b, "\t%s\n", s.setup)
	}
	b.WriteString("\tswitch t.op {\n")
	for _, c := range cmps {
		fmt.Fprintf(b, "\tcase ssa.Op%s:\n\t\treturn func(f *frame) %s {\n%s}\n", c.op, s.res, fmt.Sprintf(s.body, c.slots()))
	}
	b.WriteString("\t}\n\tpanic(unsupported(\"a Select on \" + t.op.String()))\n}\n")
}

func title(s string) string { return string(s[0]-'a'+'A') + s[1:] }
