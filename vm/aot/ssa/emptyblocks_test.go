package ssa

import "testing"

func TestEmptyBlocks(t *testing.T) {
	testPass(t, "emptyblocks", []passCase{
		{"landing block after a throwing instruction", `
func f
b0:
  v0 = Param <int> [0]
  v1 = DivZeroCheck <void> v0
  v2 = Div <int> v0 v0
  Plain -> b1 catch b2
b1: <- b0
  Plain -> b3
b2: <- b0
  v3 = Exception <ref>
  Plain -> b3
b3: <- b1 b2
  v4 = Phi <int> v2 v0
  Return v4`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = DivZeroCheck <void> v0
  v2 = Div <int> v0 v0
  Plain -> b3 catch b2
b2: <- b0
  v3 = Exception <ref>
  Plain -> b3
b3: <- b0 b2
  v4 = Phi <int> v2 v0
  Return v4`},
		{"both arms of an If empty", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Lt <bool> v0 v1
  If v2 -> b1 b2
b1: <- b0
  Plain -> b3
b2: <- b0
  Plain -> b3
b3: <- b1 b2
  v3 = Phi <int> v0 v1
  Return v3`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Lt <bool> v0 v1
  If v2 -> b3 b2
b2: <- b0
  Plain -> b3
b3: <- b0 b2
  v3 = Phi <int> v0 v1
  Return v3`},
		{"arms listed in the other order keep their φ arguments", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Lt <bool> v0 v1
  If v2 -> b2 b1
b1: <- b0
  Plain -> b3
b2: <- b0
  Plain -> b3
b3: <- b1 b2
  v3 = Phi <int> v0 v1
  Return v3`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Lt <bool> v0 v1
  If v2 -> b2 b3
b2: <- b0
  Plain -> b3
b3: <- b0 b2
  v3 = Phi <int> v0 v1
  Return v3`},
		{"a join and a self loop stay", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Lt <bool> v0 v1
  If v2 -> b1 b2
b1: <- b0 b1
  Plain -> b1
b2: <- b0
  Return`, unchanged},
	})
}
