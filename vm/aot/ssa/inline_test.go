package ssa

import (
	"fmt"
	"strings"
	"testing"
)

// inlineCase is a before → after test of the inline pass: callees are the
// bodies the Inliner offers, by the invoke's method index (Aux).
type inlineCase struct {
	name          string
	callees       map[int64]string
	barriers      BarrierLevel
	before, after string
}

// leafAdd is a static int helper, x + 1.
const leafAdd = `
func leaf
b0:
  v0 = Param <int> [0]
  Plain -> b1
b1: <- b0
  v1 = Const <int> [1]
  v2 = Add <int> v0 v1
  Return v2`

// bump is a private accessor: this.counter += by; return this.counter.
const bump = `
func bump
b0:
  v0 = This <ref>
  v1 = Param <int> [1]
  v2 = IGet <int> v0 [5]
  v3 = Add <int> v2 v1
  v4 = IPut <void> v0 v3 [5]
  v5 = IGet <int> v0 [5]
  Return v5`

// bigCallee returns a static callee of n additions.
func bigCallee(n int) string {
	var b strings.Builder
	b.WriteString("func big\nb0:\n  v0 = Param <int> [0]\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  v%d = Add <int> v%d v0\n", i, i-1)
	}
	fmt.Fprintf(&b, "  Return v%d\n", n)
	return b.String()
}

func TestInline(t *testing.T) {
	const staticCall = `
func f
b0:
  v0 = Param <int> [0]
  v1 = InvokeStatic <int> v0 [7]
  v2 = Mul <int> v1 v1
  Return v2`
	cases := []inlineCase{
		{"a static leaf: arguments for parameters, the call a copy of the result", map[int64]string{7: leafAdd}, BarriersOff, staticCall, `
func f
b0:
  v0 = Param <int> [0]
  v3 = Const <int> [1]
  v4 = Add <int> v0 v3
  v1 = Copy <int> v4
  v2 = Mul <int> v1 v1
  Return v2`},
		{"a private accessor: field accesses on the receiver, whose null check stays", map[int64]string{9: bump}, BarriersOff, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = NullCheck <void> v0
  v3 = InvokeDirect <int> v0 v1 [9]
  Return v3`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = NullCheck <void> v0
  v4 = IGet <int> v0 [5]
  v5 = Add <int> v4 v1
  v6 = IPut <void> v0 v5 [5]
  v7 = IGet <int> v0 [5]
  v3 = Copy <int> v7
  Return v3`},
		{"a void callee: the call goes, its stores stay", map[int64]string{9: `
func set
b0:
  v0 = This <ref>
  v1 = Param <int> [1]
  v2 = IPut <void> v0 v1 [5]
  Return`}, BarriersOff, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = Const <int> [3]
  v3 = InvokeDirect <void> v0 v2 [9]
  v4 = InvokeDirect <void> v0 v2 [9]
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = Const <int> [3]
  v5 = IPut <void> v0 v2 [5]
  v6 = IPut <void> v0 v2 [5]
  Return`},
		{"an empty constructor (Object.<init>): the call goes, the receiver's check stays", map[int64]string{2: `
func init
b0:
  v0 = This <ref>
  Return`}, BarriersOff, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = InvokeDirect <void> v0 [2]
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  Return`},
		{"a callee returning its parameter", map[int64]string{7: `
func id
b0:
  v0 = Param <int> [0]
  Return v0`}, BarriersOff, staticCall, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Copy <int> v0
  v2 = Mul <int> v1 v1
  Return v2`},
		{"with barriers a static call is inlined", map[int64]string{7: leafAdd}, BarriersAll, staticCall, `
func f
b0:
  v0 = Param <int> [0]
  v3 = Const <int> [1]
  v4 = Add <int> v0 v3
  v1 = Copy <int> v4
  v2 = Mul <int> v1 v1
  Return v2`},
		{"with barriers a direct call is inlined after an Access of its receiver", map[int64]string{9: bump}, BarriersNone, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = NullCheck <void> v0
  v3 = InvokeDirect <int> v0 v1 [9]
  Return v3`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = NullCheck <void> v0
  v4 = Access <void> v0
  v5 = IGet <int> v0 [5]
  v6 = Add <int> v5 v1
  v7 = IPut <void> v0 v6 [5]
  v8 = IGet <int> v0 [5]
  v3 = Copy <int> v8
  Return v3`},
		{"with barriers an empty constructor leaves only the Access of its receiver", map[int64]string{2: `
func init
b0:
  v0 = This <ref>
  Return`}, BarriersAll, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = InvokeDirect <void> v0 [2]
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v3 = Access <void> v0
  Return`},
		{"no callee offered", nil, BarriersOff, staticCall, staticCall},
		{"a virtual call is never inlined", map[int64]string{7: leafAdd}, BarriersOff, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [7]
  Return v2`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [7]
  Return v2`},
		{"a callee that may throw (a division's check) is not inlined", map[int64]string{7: `
func div
b0:
  v0 = Param <int> [0]
  v1 = DivZeroCheck <void> v0
  v2 = Div <int> v0 v0
  Return v2`}, BarriersOff, staticCall, staticCall},
		{"a callee that calls is not inlined", map[int64]string{7: `
func calls
b0:
  v0 = Param <int> [0]
  v1 = InvokeStatic <int> v0 [8]
  Return v1`}, BarriersOff, staticCall, staticCall},
		{"a callee with a branch is not inlined", map[int64]string{7: `
func abs
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Lt <bool> v0 v1
  If v2 -> b1 b2
b1: <- b0
  v3 = Neg <int> v0
  Return v3
b2: <- b0
  Return v0`}, BarriersOff, staticCall, staticCall},
		{"a parameter of another type (Dalvik's untyped registers) is not inlined", map[int64]string{7: `
func fl
b0:
  v0 = Param <float> [0]
  v1 = Conv <int> v0
  Return v1`}, BarriersOff, staticCall, staticCall},
		{"a field access through another reference than the receiver is not inlined", map[int64]string{9: `
func other
b0:
  v0 = This <ref>
  v1 = Param <ref> [1]
  v2 = IGet <int> v1 [5]
  Return v2`}, BarriersOff, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = InvokeDirect <int> v0 v0 [9]
  Return v2`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = InvokeDirect <int> v0 v0 [9]
  Return v2`},
		{"a result of another type than the call's is not inlined", map[int64]string{7: `
func wide
b0:
  v0 = Param <int> [0]
  v1 = Conv <long> v0
  Return v1`}, BarriersOff, staticCall, staticCall},
		{"a callee at the size limit is inlined", map[int64]string{7: bigCallee(MaxInlineValues)}, BarriersOff, staticCall, ""},
		{"a callee over the size limit is not", map[int64]string{7: bigCallee(MaxInlineValues + 1)}, BarriersOff, staticCall, staticCall},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			callees := map[int64]*Func{}
			for aux, text := range c.callees {
				g, err := Parse(text)
				if err != nil {
					t.Fatalf("parse callee %d: %v", aux, err)
				}
				if err := Check(g); err != nil {
					t.Fatalf("callee %d does not check: %v", aux, err)
				}
				callees[aux] = g
			}
			f, err := Parse(c.before)
			if err != nil {
				t.Fatalf("parse before: %v", err)
			}
			if err := Check(f); err != nil {
				t.Fatalf("input does not check: %v", err)
			}
			calls := 0
			inlineCalls(f, func(call *Value) *Func { calls++; return callees[call.Aux] }, c.barriers)
			if err := Check(f); err != nil {
				t.Fatalf("after inline: %v\n%s", err, f)
			}
			got := normalise(f.String())
			if c.after == "" {
				// the size case: only whether the call went
				if strings.Contains(got, "Invoke") {
					t.Errorf("call not inlined:\n%s", got)
				}
				return
			}
			if want := normalise(c.after); got != want {
				t.Errorf("after inline:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestInlinePipeline checks that the pass runs first in the pipeline
// only with an Inliner, and that the passes after it clean up what it
// leaves (the copy of the result, the spliced constant folded).
func TestInlinePipeline(t *testing.T) {
	const caller = `
func f
b0:
  v0 = Const <int> [4]
  v1 = InvokeStatic <int> v0 [7]
  Return v1`
	for _, c := range []struct {
		name    string
		inline  bool
		ran     bool
		returns string
	}{
		{"without an Inliner", false, false, "InvokeStatic"},
		{"with one", true, true, "Const <int> [5]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse(caller)
			if err != nil {
				t.Fatal(err)
			}
			var passes []string
			cfg := Config{Check: true, After: func(p string, _ *Func) { passes = append(passes, p) }}
			if c.inline {
				g, err := Parse(leafAdd)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Inline = func(*Value) *Func { return g }
			}
			if err := Optimize(f, cfg); err != nil {
				t.Fatal(err)
			}
			if ran := len(passes) > 1 && passes[1] == "inline"; ran != c.ran {
				t.Errorf("passes %v: inline first = %v, want %v", passes, ran, c.ran)
			}
			if s := f.String(); !strings.Contains(s, c.returns) {
				t.Errorf("want %q in\n%s", c.returns, s)
			}
		})
	}
}
