package ssa

import (
	"slices"
	"strconv"
	"testing"
)

// guardCase is a before → after test of the guardinline pass: variants
// are the bodies offered for an invoke, by its method index (Aux), each
// with its guards.
type guardCase struct {
	name          string
	variants      map[int64][]testVariant
	barriers      BarrierLevel
	before, after string
}

type testVariant struct {
	guards []int64
	body   string
}

// squareArea and triArea are the two implementations of an int → int
// virtual method, k*k and k*(k+1)/2 (the division's check folded away,
// as the callee's own passes leave it).
const squareArea = `
func area
b0:
  v0 = This <ref>
  v1 = Param <int> [1]
  v2 = Mul <int> v1 v1
  Return v2`

const triArea = `
func area
b0:
  v0 = This <ref>
  v1 = Param <int> [1]
  v2 = Const <int> [1]
  v3 = Add <int> v1 v2
  v4 = Mul <int> v1 v3
  v5 = Const <int> [1]
  v6 = Shr <int> v4 v5
  Return v6`

// callsOut is a target that makes a call itself: never inlinable.
const callsOut = `
func twice
b0:
  v0 = This <ref>
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [4]
  Return v2`

// voidTarget stores nothing and returns: a void body.
const voidTarget = `
func noop
b0:
  v0 = This <ref>
  Return`

func TestGuardInline(t *testing.T) {
	const virtualCall = `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [3]
  v3 = Add <int> v2 v1
  Return v3`
	square := TargetIsAux(3, 10, 2, false)
	tri := TargetIsAux(3, 11, 2, false)
	cases := []guardCase{
		{"a bimorphic site: one guard numbering the variants, a switch to the two bodies, the call on 0, a φ at the join",
			map[int64][]testVariant{3: {{[]int64{square}, squareArea}, {[]int64{tri}, triArea}}}, BarriersOff, virtualCall, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v4 = Const <long> [` + itoa(square) + `]
  v5 = Const <long> [` + itoa(tri) + `]
  v6 = TargetIs <int> v0 v4 v5 [257]
  Switch v6 [1 2] -> b3 b4 b2
b1: <- b3 b4 b2
  v13 = Phi <int> v7 v12 v2
  v3 = Add <int> v13 v1
  Return v3
b2: <- b0
  v2 = InvokeVirtual <int> v0 v1 [3]
  Plain -> b1
b3: <- b0
  v7 = Mul <int> v1 v1
  Plain -> b1
b4: <- b0
  v8 = Const <int> [1]
  v9 = Add <int> v1 v8
  v10 = Mul <int> v1 v9
  v11 = Const <int> [1]
  v12 = Shr <int> v10 v11
  Plain -> b1`},
		{"a variant with two guards (a call on the receiver inlined into it): the guard's count of 2 for its variant; barriers put the receiver's Access in the hit",
			map[int64][]testVariant{3: {{[]int64{square, TargetIsAux(4, 12, 2, false)}, squareArea}}}, BarriersNone, virtualCall, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v4 = Const <long> [` + itoa(square) + `]
  v5 = Const <long> [` + itoa(TargetIsAux(4, 12, 2, false)) + `]
  v6 = TargetIs <int> v0 v4 v5 [2]
  Switch v6 [1] -> b3 b2
b1: <- b3 b2
  v9 = Phi <int> v8 v2
  v3 = Add <int> v9 v1
  Return v3
b2: <- b0
  v2 = InvokeVirtual <int> v0 v1 [3]
  Plain -> b1
b3: <- b0
  v7 = Access <void> v0
  v8 = Mul <int> v1 v1
  Plain -> b1`},
		{"two variants of three and two dispatches: one guard, the dispatches in order, Aux counting 3 then 2",
			map[int64][]testVariant{3: {
				{[]int64{square, TargetIsAux(4, 12, 2, false), TargetIsAux(5, 14, 1, true)}, squareArea},
				{[]int64{tri, TargetIsAux(4, 15, 2, false)}, triArea},
			}}, BarriersOff, virtualCall, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v4 = Const <long> [` + itoa(square) + `]
  v5 = Const <long> [` + itoa(TargetIsAux(4, 12, 2, false)) + `]
  v6 = Const <long> [` + itoa(TargetIsAux(5, 14, 1, true)) + `]
  v7 = Const <long> [` + itoa(tri) + `]
  v8 = Const <long> [` + itoa(TargetIsAux(4, 15, 2, false)) + `]
  v9 = TargetIs <int> v0 v4 v5 v6 v7 v8 [515]
  Switch v9 [1 2] -> b3 b4 b2
b1: <- b3 b4 b2
  v16 = Phi <int> v10 v15 v2
  v3 = Add <int> v16 v1
  Return v3
b2: <- b0
  v2 = InvokeVirtual <int> v0 v1 [3]
  Plain -> b1
b3: <- b0
  v10 = Mul <int> v1 v1
  Plain -> b1
b4: <- b0
  v11 = Const <int> [1]
  v12 = Add <int> v1 v11
  v13 = Mul <int> v1 v12
  v14 = Const <int> [1]
  v15 = Shr <int> v13 v14
  Plain -> b1`},
		{"a void interface call: no φ, the blocks after it keep their edges", map[int64][]testVariant{3: {{[]int64{TargetIsAux(3, 13, 1, true)}, voidTarget}}}, BarriersOff, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = InvokeInterface <void> v0 [3]
  v3 = Const <int> [0]
  v4 = Lt <bool> v1 v3
  If v4 -> b1 b2
b1: <- b0
  Return v1
b2: <- b0
  Return v3`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v5 = Const <long> [` + itoa(TargetIsAux(3, 13, 1, true)) + `]
  v6 = TargetIs <int> v0 v5 [1]
  Switch v6 [1] -> b5 b4
b1: <- b3
  Return v1
b2: <- b3
  Return v3
b3: <- b5 b4
  v3 = Const <int> [0]
  v4 = Lt <bool> v1 v3
  If v4 -> b1 b2
b4: <- b0
  v2 = InvokeInterface <void> v0 [3]
  Plain -> b3
b5: <- b0
  Plain -> b3`},
		{"a body that calls is not inlined", map[int64][]testVariant{3: {{[]int64{square}, callsOut}}}, BarriersOff, virtualCall, virtualCall},
		{"a variant without guards is not inlined", map[int64][]testVariant{3: {{nil, squareArea}}}, BarriersOff, virtualCall, virtualCall},
		{"a call in a Throw block is left alone", map[int64][]testVariant{3: {{[]int64{square}, squareArea}}}, BarriersOff, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [3]
  Throw v0`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [3]
  Throw v0`},
		{"a call with exception edges is left alone", map[int64][]testVariant{3: {{[]int64{square}, squareArea}}}, BarriersOff, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [3]
  Plain -> b1 catch b2
b1: <- b0
  Return v2
b2: <- b0
  v3 = Exception <ref>
  Return v1`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [3]
  Plain -> b1 catch b2
b1: <- b0
  Return v2
b2: <- b0
  v3 = Exception <ref>
  Return v1`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			variants := map[int64][]Variant{}
			for aux, vs := range c.variants {
				for _, v := range vs {
					g, err := Parse(v.body)
					if err != nil {
						t.Fatalf("parse body: %v", err)
					}
					if err := Check(g); err != nil {
						t.Fatalf("body does not check: %v", err)
					}
					variants[aux] = append(variants[aux], Variant{Guards: v.guards, Body: g})
				}
			}
			f, err := Parse(c.before)
			if err != nil {
				t.Fatalf("parse before: %v", err)
			}
			if err := Check(f); err != nil {
				t.Fatalf("input does not check: %v", err)
			}
			guardInline(f, func(call *Value) []Variant { return variants[call.Aux] }, c.barriers)
			if err := Check(f); err != nil {
				t.Fatalf("after guardinline: %v\n%s", err, f)
			}
			if got, want := normalise(f.String()), normalise(c.after); got != want {
				t.Errorf("after guardinline:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestTargetIsAux checks that the guard's operands survive packing.
func TestTargetIsAux(t *testing.T) {
	for _, c := range []struct {
		ref, want uint32
		argc      int
		iface     bool
	}{{0, 0, 0, false}, {3, 11, 2, true}, {0xffff, 0xfffe, 255, false}, {1 << 23, 7, 1, true}} {
		ref, want, argc, iface := TargetIsFields(TargetIsAux(c.ref, c.want, c.argc, c.iface))
		if ref != c.ref || want != c.want || argc != c.argc || iface != c.iface {
			t.Errorf("TargetIsAux(%d, %d, %d, %v) unpacks to %d, %d, %d, %v", c.ref, c.want, c.argc, c.iface, ref, want, argc, iface)
		}
	}
}

// TestTargetIsVariants checks that a guard's dispatches read back per
// variant in the order guardinline wrote them, and that operands that do
// not match the counts, or are not constants, give none.
func TestTargetIsVariants(t *testing.T) {
	f, err := Parse(`
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <long> [1]
  v2 = Const <long> [7]
  v3 = Const <long> [9]
  v4 = Const <long> [11]
  v5 = TargetIs <int> v0 v2 [1]
  v6 = TargetIs <int> v0 v2 v3 v4 [513]
  v7 = TargetIs <int> v0 v2 v3 [1]
  v8 = TargetIs <int> v0 v2 [2]
  v9 = TargetIs <int> v0 v2 v1 [2]
  v10 = TargetIs <int> v0 v2 v3 [512]
  Return v5`)
	if err != nil {
		t.Fatal(err)
	}
	vals := f.Blocks[0].Values
	for _, c := range []struct {
		v    *Value
		want [][]int64
	}{
		{vals[5], [][]int64{{7}}},
		{vals[6], [][]int64{{7}, {9, 11}}},
		{vals[7], nil},  // an operand left over
		{vals[8], nil},  // an operand missing
		{vals[9], nil},  // not a constant
		{vals[10], nil}, // a variant of no dispatch
	} {
		got := TargetIsVariants(c.v)
		if !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("TargetIsVariants(%s) = %v, want %v", c.v.LongString(), got, c.want)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
