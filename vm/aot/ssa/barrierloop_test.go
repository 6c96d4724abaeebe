package ssa

import "testing"

// sparseLoop is sparse's inner loop at level all: three cached barriers
// on arrays defined before the loop, one on a φ of the header.
const sparseLoop = `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Param <int> [2]
  v3 = Const <int> [0]
  v4 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v5 = Phi <int> v3 v12
  v6 = Phi <ref> v0 v1
  v7 = Ge <bool> v5 v2
  If v7 -> b3 b2
b2: <- b1
  v8 = Barrier <void> v0 [1]
  v9 = AGet <int> v0 v5
  v10 = Barrier <void> v1 [1]
  v11 = APut <void> v1 v5 v9
  v13 = Barrier <void> v6 [1]
  v14 = ArrayLength <int> v6
  v12 = Add <int> v5 v4
  Plain -> b1
b3: <- b1
  Return`

func TestBarrierLoop(t *testing.T) {
	cases := []passCase{
		{"the barriers of objects defined before the loop are marked, not a φ's", sparseLoop, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Param <int> [2]
  v3 = Const <int> [0]
  v4 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v5 = Phi <int> v3 v12
  v6 = Phi <ref> v0 v1
  v7 = Ge <bool> v5 v2
  If v7 -> b3 b2
b2: <- b1
  v8 = Barrier <void> v0 [5]
  v9 = AGet <int> v0 v5
  v10 = Barrier <void> v1 [5]
  v11 = APut <void> v1 v5 v9
  v13 = Barrier <void> v6 [1]
  v14 = ArrayLength <int> v6
  v12 = Add <int> v5 v4
  Plain -> b1
b3: <- b1
  Return`},
		{"a body that may collect keeps them", `
func f
b0:
  v0 = Param <ref> [0]
  v2 = Param <int> [2]
  v3 = Const <int> [0]
  v4 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v5 = Phi <int> v3 v12
  v7 = Ge <bool> v5 v2
  If v7 -> b3 b2
b2: <- b1
  v8 = Barrier <void> v0 [1]
  v9 = AGet <int> v0 v5
  v10 = InvokeStatic <void> [5]
  v12 = Add <int> v5 v4
  Plain -> b1
b3: <- b1
  Return`, ""},
		{"a header that may collect keeps them", `
func f
b0:
  v0 = Param <ref> [0]
  v2 = Param <int> [2]
  v3 = Const <int> [0]
  v4 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v5 = Phi <int> v3 v12
  v6 = NewInstance <ref> [2]
  v7 = Ge <bool> v5 v2
  If v7 -> b3 b2
b2: <- b1
  v8 = Barrier <void> v0 [1]
  v9 = AGet <int> v0 v5
  v12 = Add <int> v5 v4
  Plain -> b1
b3: <- b1
  Return`, ""},
		{"uncached and check barriers are not marked", `
func f
b0:
  v0 = Param <ref> [0]
  v2 = Param <int> [2]
  v3 = Const <int> [0]
  v4 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v5 = Phi <int> v3 v12
  v7 = Ge <bool> v5 v2
  If v7 -> b3 b2
b2: <- b1
  v8 = Barrier <void> v0
  v10 = Barrier <void> v0 [2]
  v9 = AGet <int> v0 v5
  v12 = Add <int> v5 v4
  Plain -> b1
b3: <- b1
  Return`, ""},
		{"a body of two blocks is not a one-block loop", `
func f
b0:
  v0 = Param <ref> [0]
  v2 = Param <int> [2]
  v3 = Const <int> [0]
  v4 = Const <int> [1]
  Plain -> b1
b1: <- b0 b4
  v5 = Phi <int> v3 v12
  v7 = Ge <bool> v5 v2
  If v7 -> b3 b2
b2: <- b1
  v8 = Barrier <void> v0 [1]
  v9 = AGet <int> v0 v5
  Plain -> b4
b4: <- b2
  v12 = Add <int> v5 v4
  Plain -> b1
b3: <- b1
  Return`, ""},
	}
	for i := range cases {
		if cases[i].after == "" {
			cases[i].after = cases[i].before // nothing to mark
		}
	}
	testPass(t, "barrierloop", cases)
}
