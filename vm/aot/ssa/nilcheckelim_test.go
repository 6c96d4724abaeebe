package ssa

import "testing"

func TestNilCheckElim(t *testing.T) {
	testPass(t, "nilcheckelim", []passCase{
		{"receiver and allocation", `
func f
b0:
  v0 = This <ref>
  v1 = NullCheck <void> v0
  v2 = IGet <int> v0 [3]
  v3 = NewInstance <ref> [4]
  v4 = NullCheck <void> v3
  v5 = IPut <void> v3 v2 [3]
  Return`, `
func f
b0:
  v0 = This <ref>
  v2 = IGet <int> v0 [3]
  v3 = NewInstance <ref> [4]
  v5 = IPut <void> v3 v2 [3]
  Return`},
		{"a check that may throw to a handler protects only its own block", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = InvokeVirtual <void> v0 [1]
  v3 = NullCheck <void> v0
  Plain -> b1 catch b2
b1: <- b0
  Plain -> b3
b2: <- b0
  v4 = Exception <ref>
  Plain -> b3
b3: <- b1 b2
  v5 = NullCheck <void> v0
  v6 = ArrayLength <int> v0
  Return v6`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = InvokeVirtual <void> v0 [1]
  Plain -> b1 catch b2
b1: <- b0
  Plain -> b3
b2: <- b0
  v4 = Exception <ref>
  Plain -> b3
b3: <- b1 b2
  v5 = NullCheck <void> v0
  v6 = ArrayLength <int> v0
  Return v6`},
		{"dominated by an earlier check", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = ArrayLength <int> v0
  Plain -> b1
b1: <- b0
  v3 = NullCheck <void> v0
  v4 = ArrayLength <int> v0
  v5 = Add <int> v2 v4
  Return v5`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = NullCheck <void> v0
  v2 = ArrayLength <int> v0
  Plain -> b1
b1: <- b0
  v4 = ArrayLength <int> v0
  v5 = Add <int> v2 v4
  Return v5`},
		{"a check on one branch does not cover the join", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v9 = Const <int> [0]
  v2 = Eq <bool> v1 v9
  If v2 -> b1 b2
b1: <- b0
  v3 = NullCheck <void> v0
  Plain -> b2
b2: <- b0 b1
  v4 = NullCheck <void> v0
  v5 = ArrayLength <int> v0
  Return v5`, unchanged},
		{"branch on null", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Const <ref> [0]
  v2 = Eq <bool> v0 v1
  If v2 -> b1 b2
b1: <- b0
  v3 = NullCheck <void> v0
  Return
b2: <- b0
  v4 = NullCheck <void> v0
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Const <ref> [0]
  v2 = Eq <bool> v0 v1
  If v2 -> b1 b2
b1: <- b0
  v3 = NullCheck <void> v0
  Return
b2: <- b0
  Return`},
		{"φ of allocations in a loop", `
func f
b0:
  v0 = NewInstance <ref> [1]
  v9 = Param <int> [0]
  Plain -> b1
b1: <- b0 b1
  v1 = Phi <ref> v0 v2
  v3 = NullCheck <void> v1
  v4 = MonitorEnter <void> v1
  v2 = NewInstance <ref> [1]
  v5 = Const <int> [0]
  v6 = Ne <bool> v9 v5
  If v6 -> b1 b2
b2: <- b1
  Return`, `
func f
b0:
  v0 = NewInstance <ref> [1]
  v9 = Param <int> [0]
  Plain -> b1
b1: <- b0 b1
  v1 = Phi <ref> v0 v2
  v4 = MonitorEnter <void> v1
  v2 = NewInstance <ref> [1]
  v5 = Const <int> [0]
  v6 = Ne <bool> v9 v5
  If v6 -> b1 b2
b2: <- b1
  Return`},
		{"φ with a parameter keeps the check", `
func f
b0:
  v0 = Param <ref> [0]
  v7 = Param <int> [1]
  Plain -> b1
b1: <- b0 b1
  v1 = Phi <ref> v0 v2
  v3 = NullCheck <void> v1
  v2 = NewInstance <ref> [1]
  v5 = Const <int> [0]
  v6 = Ne <bool> v7 v5
  If v6 -> b1 b2
b2: <- b1
  Return`, unchanged},
	})
}
