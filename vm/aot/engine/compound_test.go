package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
)

// kindNames are the operand kinds of expr_gen.go by number.
var kindNames = []string{"S", "K", "T", "A", "B", "CAnd", "CShl", "CShr", "CUshr", "CAdd", "CEq", "CNe", "CLt", "CGe", "CGt", "CLe"}

// describeTrees is how the lowering evaluates the values of b: each root
// (a value with a tree operand) and tree node, with the operand kinds of
// a node taking compound operands, and the arms of a Select root or node
// with a tree arm (slot, tree or cmp: read without a call).
func describeTrees(l *lowerer, b *ssa.Block) string {
	var out []string
	arm := func(a *ssa.Value) string {
		switch x := l.intArm(a); {
		case x.cmp:
			return "cmp"
		case x.t != nil:
			return "tree"
		}
		return "slot"
	}
	// the values read by their user as a compound operand or an arm
	absorbed := map[*ssa.Value]bool{}
	for _, u := range b.Values {
		if !l.inl[u.ID] && !l.hasTreeArg(u) {
			continue
		}
		if _, _, ok := l.compoundOps(u); ok {
			for _, a := range u.Args {
				if _, ok := l.compound(a); ok {
					absorbed[a] = true
				}
			}
		}
		if u.Op == ssa.OpSelect && u.Type == ssa.TypeInt && l.hasTreeArg(u) {
			for _, a := range u.Args[1:] {
				if _, ok := l.boolSelect(a); ok {
					absorbed[a] = true
				}
			}
		}
	}
	for _, v := range b.Values {
		role := "node"
		if !l.inl[v.ID] {
			if !l.hasTreeArg(v) {
				continue
			}
			role = "root"
		}
		if absorbed[v] {
			continue
		}
		s := fmt.Sprintf("v%d %s %s", v.ID, role, v.Op)
		if x, y, ok := l.compoundOps(v); ok {
			s += fmt.Sprintf("(%s, %s)", kindNames[x.kind], kindNames[y.kind])
		} else if v.Op == ssa.OpSelect && v.Type == ssa.TypeInt && l.hasTreeArg(v) {
			s += fmt.Sprintf(" arms %s %s", arm(v.Args[1]), arm(v.Args[2]))
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// TestCompoundOperands lowers small static methods (int parameters, an
// int result) and checks which values become roots and nodes, with the
// compound operand kinds and Select arms the lowering chooses (IR in,
// trees out), then runs the lowered code on a few arguments against the
// expression in Go.
func TestCompoundOperands(t *testing.T) {
	b2i := func(c bool) int32 {
		if c {
			return 1
		}
		return 0
	}
	for _, c := range []struct {
		name, ir string
		trees    string
		want     func(p, q int32) int32
	}{
		{"x<<1 ^ x>>>3: both operands compound", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [1]
  v3 = Const <int> [3]
  v4 = Shl <int> v0 v2
  v5 = Ushr <int> v0 v3
  v6 = Xor <int> v4 v5
  v7 = Xor <int> v6 v1
  Return v7`, "v6 node Xor(CShl, CUshr); v7 root Xor", func(p, q int32) int32 { return p<<1 ^ int32(uint32(p)>>3) ^ q }},
		{"(bits | x&0xF0) & ^(i&15): And, Or, Xor with a constant", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [240]
  v3 = Const <int> [15]
  v4 = Const <int> [-1]
  v5 = And <int> v0 v2
  v6 = Or <int> v5 v1
  v7 = And <int> v1 v3
  v8 = Xor <int> v7 v4
  v9 = And <int> v6 v8
  Return v9`, "v6 node Or(CAnd, S); v8 node Xor(CAnd, K); v9 root And", func(p, q int32) int32 { return (q | p&0xF0) & ^(q & 15) }},
		{"x - 5 and x >> 2 as compound Add and Shr", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [5]
  v3 = Const <int> [2]
  v4 = Sub <int> v0 v2
  v5 = Shr <int> v1 v3
  v6 = Add <int> v4 v5
  Return v6`, "v6 root Add(CAdd, CShr)", func(p, q int32) int32 { return p - 5 + q>>2 }},
		{"booleans of comparisons xor-ed: compound comparisons both ways round", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  v4 = Lt <bool> v0 v1
  v5 = Select <int> v4 v3 v2
  v6 = Eq <bool> v0 v2
  v7 = Select <int> v6 v2 v3
  v8 = Xor <int> v5 v7
  Return v8`, "v8 root Xor(CLt, CNe)", func(p, q int32) int32 { return b2i(p < q) ^ b2i(p != 0) }},
		{"a boolean or-ed with a variable (Gt, Le)", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  v4 = Gt <bool> v0 v1
  v5 = Select <int> v4 v2 v3
  v6 = Or <int> v1 v5
  Return v6`, "v6 root Or(S, CLe)", func(p, q int32) int32 { return q | b2i(p <= q) }},
		{"a Select root of a tree and a comparison arm", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  v4 = Ge <bool> v0 v1
  v5 = Select <int> v4 v2 v3
  v6 = Xor <int> v0 v1
  v7 = Ne <bool> v1 v2
  v8 = Select <int> v7 v6 v5
  Return v8`, "v6 node Xor; v8 root Select arms tree cmp", func(p, q int32) int32 {
			if q != 0 {
				return p ^ q
			}
			return b2i(p < q)
		}},
		{"a Select node with a slot arm and a Gt comparison arm", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  v4 = Gt <bool> v1 v0
  v5 = Select <int> v4 v3 v2
  v6 = Le <bool> v0 v2
  v7 = Select <int> v6 v1 v5
  v8 = Mul <int> v7 v0
  Return v8`, "v7 node Select arms slot cmp; v8 root Mul", func(p, q int32) int32 {
			if p <= 0 {
				return q * p
			}
			return b2i(q > p) * p
		}},
		{"a Select of 2 and 0 is not a boolean", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [0]
  v3 = Const <int> [2]
  v4 = Lt <bool> v0 v1
  v5 = Select <int> v4 v3 v2
  v6 = Xor <int> v5 v1
  Return v6`, "v5 node Select; v6 root Xor", func(p, q int32) int32 {
			if p < q {
				return 2 ^ q
			}
			return q
		}},
		{"Mul takes no compound operand", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [7]
  v3 = And <int> v0 v2
  v4 = Mul <int> v3 v1
  Return v4`, "v3 node And; v4 root Mul", func(p, q int32) int32 { return p & 7 * q }},
	} {
		t.Run(c.name, func(t *testing.T) {
			fn, err := ssa.Parse(c.ir)
			if err != nil {
				t.Fatal(err)
			}
			if err := ssa.Check(fn); err != nil {
				t.Fatal(err)
			}
			m := &runtime.Method{Name: "f", Signature: "(II)I", Access: dex.AccStatic, Code: &dex.Code{Registers: 2, Ins: 2}, ArgWords: 2}
			cd, err := lower(fn, m, map[int][]int{}, map[int]int{})
			if err != nil {
				t.Fatal(err)
			}
			// the plan again, for its description (lower's lowerer is
			// gone): the same decisions on the same function
			l := newLowerer(fn, m, map[int][]int{}, map[int]int{})
			l.plan(fn.Entry())
			l.assignSlots()
			if got := describeTrees(l, fn.Entry()); got != c.trees {
				t.Errorf("trees\n got %s\nwant %s", got, c.trees)
			}
			for _, args := range [][2]int32{{0, 0}, {1, 0}, {0, 1}, {-7, 3}, {3, -7}, {0x7fffffff, -1}, {-0x80000000, 255}, {12345, 12345}} {
				f := &frame{t: &runtime.Thread{}}
				f.r = make([]uint32, cd.nregs+len(cd.tags))
				copy(f.r[cd.nregs:], cd.slotInit)
				f.r[0], f.r[1] = uint32(args[0]), uint32(args[1])
				if !cd.run(f) {
					t.Fatalf("%v: threw", args)
				}
				if got, want := int32(f.t.Ret), c.want(args[0], args[1]); got != want {
					t.Errorf("f(%d, %d) = %d, want %d", args[0], args[1], got, want)
				}
			}
		})
	}
}
