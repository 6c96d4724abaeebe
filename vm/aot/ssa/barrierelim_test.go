package ssa

import "testing"

func TestBarrierElim(t *testing.T) {
	testPass(t, "barrierelim", []passCase{
		{"a second barrier in the block goes; field accesses and checks do not collect", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Barrier <void> v0
  v2 = NullCheck <void> v0
  v3 = IGet <int> v0 [3]
  v4 = Barrier <void> v0 [1]
  v5 = IPut <void> v0 v3 [4]
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Barrier <void> v0
  v2 = NullCheck <void> v0
  v3 = IGet <int> v0 [3]
  v5 = IPut <void> v0 v3 [4]
  Return`},
		{"a call, an allocation, a static field access, a monitor between keep it", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Barrier <void> v0
  v2 = InvokeStatic <void> [5]
  v3 = Barrier <void> v0
  v4 = NewInstance <ref> [2]
  v5 = Barrier <void> v0
  v6 = SGet <int> [1]
  v7 = Barrier <void> v0
  v8 = MonitorEnter <void> v4
  v9 = Barrier <void> v0
  v10 = ConstString <ref> [3]
  v11 = Barrier <void> v0
  v12 = CheckCast <void> v0 [4]
  v13 = Barrier <void> v0
  Return`, unchanged},
		{"inherited from the immediate dominator", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Barrier <void> v0
  v3 = Eq <bool> v0 v1
  If v3 -> b1 b2
b1: <- b0
  v4 = Barrier <void> v0
  Plain -> b3
b2: <- b0
  v5 = Barrier <void> v0
  Plain -> b3
b3: <- b1 b2
  v6 = Barrier <void> v0
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Barrier <void> v0
  v3 = Eq <bool> v0 v1
  If v3 -> b1 b2
b1: <- b0
  Plain -> b3
b2: <- b0
  Plain -> b3
b3: <- b1 b2
  Return`},
		{"a call on one path to the join keeps the join's barrier", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Barrier <void> v0
  v3 = Eq <bool> v0 v1
  If v3 -> b1 b2
b1: <- b0
  v4 = InvokeStatic <void> [5]
  Plain -> b3
b2: <- b0
  Plain -> b3
b3: <- b1 b2
  v6 = Barrier <void> v0
  Return`, unchanged},
		{"a value barriered on every path to the join is marked there", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v3 = Eq <bool> v0 v1
  If v3 -> b1 b2
b1: <- b0
  v4 = Barrier <void> v1
  Plain -> b3
b2: <- b0
  v5 = Barrier <void> v1
  v6 = Barrier <void> v0
  Plain -> b3
b3: <- b1 b2
  v7 = Barrier <void> v1
  v8 = Barrier <void> v0
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v3 = Eq <bool> v0 v1
  If v3 -> b1 b2
b1: <- b0
  v4 = Barrier <void> v1
  Plain -> b3
b2: <- b0
  v5 = Barrier <void> v1
  v6 = Barrier <void> v0
  Plain -> b3
b3: <- b1 b2
  v8 = Barrier <void> v0
  Return`},
		{"a loop's back edge is a safepoint: the body barriers every iteration; a φ starts unbarriered", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [0]
  v3 = Barrier <void> v0
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v8
  v5 = Phi <ref> v0 v0
  v6 = Lt <bool> v4 v1
  If v6 -> b2 b3
b2: <- b1
  v7 = Barrier <void> v0
  v9 = Barrier <void> v5
  v10 = IGet <int> v0 [3]
  v11 = Barrier <void> v0
  v12 = IPut <void> v0 v4 [3]
  v8 = Add <int> v4 v10
  Plain -> b1
b3: <- b1
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = Const <int> [0]
  v3 = Barrier <void> v0
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v8
  v5 = Phi <ref> v0 v0
  v6 = Lt <bool> v4 v1
  If v6 -> b2 b3
b2: <- b1
  v7 = Barrier <void> v0
  v9 = Barrier <void> v5
  v10 = IGet <int> v0 [3]
  v12 = IPut <void> v0 v4 [3]
  v8 = Add <int> v4 v10
  Plain -> b1
b3: <- b1
  Return`},
		{"an exception edge carries nothing: the handler may run after a collection", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Barrier <void> v0
  v2 = NullCheck <void> v0
  v3 = IGet <int> v0 [3]
  Plain -> b1 catch b2
b1: <- b0
  v4 = Barrier <void> v0
  Return v3
b2: <- b0
  v5 = Exception <ref>
  v6 = Barrier <void> v0
  Return v3`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Barrier <void> v0
  v2 = NullCheck <void> v0
  v3 = IGet <int> v0 [3]
  Plain -> b1 catch b2
b1: <- b0
  Return v3
b2: <- b0
  v5 = Exception <ref>
  v6 = Barrier <void> v0
  Return v3`},
	})
}
