package ssa

import "testing"

func TestMergeBlocks(t *testing.T) {
	testPass(t, "mergeblocks", []passCase{
		{"a chain becomes one block, its φ forwarded", `
func f
b0:
  v0 = Param <int> [0]
  Plain -> b1
b1: <- b0
  v1 = Phi <int> v0
  v2 = Add <int> v1 v1
  Plain -> b2
b2: <- b1
  v3 = Mul <int> v2 v1
  Return v3`, `
func f
b0:
  v0 = Param <int> [0]
  v2 = Add <int> v0 v0
  v3 = Mul <int> v2 v0
  Return v3`},
		{"a loop body after its header's test joins into one block", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  Plain -> b1
b1: <- b0 b3
  v3 = Phi <int> v1 v5
  v4 = Lt <bool> v3 v0
  If v4 -> b2 b4
b2: <- b1
  v5 = Add <int> v3 v2
  Plain -> b3
b3: <- b2
  Plain -> b1
b4: <- b1
  Return v3`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v3 = Phi <int> v1 v5
  v4 = Lt <bool> v3 v0
  If v4 -> b2 b4
b2: <- b1
  v5 = Add <int> v3 v2
  Plain -> b1
b4: <- b1
  Return v3`},
		{"a join, exception edges, a throw and the entry as successor stay", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Lt <bool> v0 v0
  If v1 -> b1 b2
b1: <- b0
  Plain -> b3
b2: <- b0
  Plain -> b3
b3: <- b1 b2
  v2 = DivZeroCheck <void> v0
  v3 = Div <int> v0 v0
  Plain -> b4 catch b5
b4: <- b3
  v4 = Const <ref> [0]
  Plain -> b6
b5: <- b3
  v5 = Exception <ref>
  Return v0
b6: <- b4
  Throw v4`, unchanged},
	})
}
