package ssa

import "testing"

func TestLICM(t *testing.T) {
	testPass(t, "licm", []passCase{
		{"a loop bound n-1 and a product of invariants leave the loop", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <double> [1]
  v2 = Const <int> [0]
  v3 = Const <int> [-1]
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v8
  v5 = Add <int> v0 v3
  v6 = Lt <bool> v4 v5
  If v6 -> b2 b3
b2: <- b1
  v7 = Mul <double> v1 v1
  v9 = Conv <int> v7
  v8 = Add <int> v4 v9
  Plain -> b1
b3: <- b1
  Return v4`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <double> [1]
  v2 = Const <int> [0]
  v3 = Const <int> [-1]
  v5 = Add <int> v0 v3
  v7 = Mul <double> v1 v1
  v9 = Conv <int> v7
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v8
  v6 = Lt <bool> v4 v5
  If v6 -> b2 b3
b2: <- b1
  v8 = Add <int> v4 v9
  Plain -> b1
b3: <- b1
  Return v4`},
		{"a guard of an invariant receiver stays (it misses until the loop's call resolves its reference)", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <ref> [1]
  v2 = Const <int> [0]
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v8
  v5 = Lt <bool> v4 v0
  If v5 -> b2 b3
b2: <- b1
  v6 = TargetIs <int> v1 [3]
  v8 = Add <int> v4 v6
  Plain -> b1
b3: <- b1
  Return v4`, unchanged},
		{"divisions, effects, references, array lengths and φ users stay", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <ref> [1]
  v2 = Const <int> [0]
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v8
  v5 = Lt <bool> v4 v0
  If v5 -> b2 b3
b2: <- b1
  v6 = DivZeroCheck <void> v0
  v7 = Div <int> v0 v0
  v9 = ArrayLength <int> v1
  v10 = IGet <int> v1 [3]
  v11 = Add <int> v4 v7
  v12 = Add <int> v11 v9
  v8 = Add <int> v12 v10
  Plain -> b1
b3: <- b1
  Return v4`, unchanged},
		{"no preheader: the header has two entries from outside", `
func f
b0:
  v0 = Param <int> [0]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  v13 = Eq <bool> v0 v2
  If v13 -> b4 b5
b4: <- b0
  Plain -> b1
b5: <- b0
  Plain -> b1
b1: <- b4 b5 b2
  v4 = Phi <int> v2 v3 v8
  v5 = Lt <bool> v4 v0
  If v5 -> b2 b3
b2: <- b1
  v7 = Mul <int> v0 v0
  v8 = Add <int> v4 v7
  Plain -> b1
b3: <- b1
  Return v4`, unchanged},
		{"an inner loop's invariant leaves both loops", `
func f
b0:
  v0 = Param <int> [0]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  Plain -> b1
b1: <- b0 b5
  v4 = Phi <int> v2 v9
  v5 = Lt <bool> v4 v0
  If v5 -> b2 b6
b2: <- b1
  Plain -> b3
b3: <- b2 b4
  v6 = Phi <int> v2 v8
  v10 = Lt <bool> v6 v0
  If v10 -> b4 b5
b4: <- b3
  v7 = Mul <int> v0 v3
  v8 = Add <int> v6 v7
  Plain -> b3
b5: <- b3
  v9 = Add <int> v4 v3
  Plain -> b1
b6: <- b1
  Return v4`, `
func f
b0:
  v0 = Param <int> [0]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  v7 = Mul <int> v0 v3
  Plain -> b1
b1: <- b0 b5
  v4 = Phi <int> v2 v9
  v5 = Lt <bool> v4 v0
  If v5 -> b2 b6
b2: <- b1
  Plain -> b3
b3: <- b2 b4
  v6 = Phi <int> v2 v8
  v10 = Lt <bool> v6 v0
  If v10 -> b4 b5
b4: <- b3
  v8 = Add <int> v6 v7
  Plain -> b3
b5: <- b3
  v9 = Add <int> v4 v3
  Plain -> b1
b6: <- b1
  Return v4`},
	})
}
