package ssa

import "testing"

func TestCopyProp(t *testing.T) {
	testPass(t, "copyprop", []passCase{
		{"chain of copies", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Copy <int> v0
  v2 = Copy <int> v1
  v3 = Add <int> v2 v1
  Return v3`, `
func f
b0:
  v0 = Param <int> [0]
  v3 = Add <int> v0 v0
  Return v3`},
		{"trivial φ of a loop", `
func f
b0:
  v0 = Param <int> [0]
  Plain -> b1
b1: <- b0 b1
  v1 = Phi <int> v0 v1
  v2 = Ne <bool> v1 v0
  If v2 -> b1 b2
b2: <- b1
  Return v1`, `
func f
b0:
  v0 = Param <int> [0]
  Plain -> b1
b1: <- b0 b1
  v2 = Ne <bool> v0 v0
  If v2 -> b1 b2
b2: <- b1
  Return v0`},
		{"φ of copies of one value", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v5 = Const <int> [0]
  v6 = Eq <bool> v1 v5
  If v6 -> b1 b2
b1: <- b0
  v2 = Copy <ref> v0
  Plain -> b3
b2: <- b0
  v3 = Copy <ref> v0
  Plain -> b3
b3: <- b1 b2
  v4 = Phi <ref> v2 v3
  Return v4`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v5 = Const <int> [0]
  v6 = Eq <bool> v1 v5
  If v6 -> b1 b2
b1: <- b0
  Plain -> b3
b2: <- b0
  Plain -> b3
b3: <- b1 b2
  Return v0`},
		{"a real φ stays", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [1]
  Plain -> b1
b1: <- b0 b1
  v2 = Phi <int> v0 v3
  v3 = Add <int> v2 v1
  v4 = Lt <bool> v3 v0
  If v4 -> b1 b2
b2: <- b1
  Return v3`, unchanged},
	})
}
