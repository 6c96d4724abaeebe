package ssa

import "testing"

func TestCSE(t *testing.T) {
	testPass(t, "cse", []passCase{
		{"constants and array lengths", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Const <int> [1]
  v2 = ArrayLength <int> v0
  Plain -> b1
b1: <- b0
  v3 = Const <int> [1]
  v4 = ArrayLength <int> v0
  v5 = Add <int> v4 v3
  v6 = Add <int> v1 v2
  v7 = Mul <int> v5 v6
  Return v7`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Const <int> [1]
  v2 = ArrayLength <int> v0
  Plain -> b1
b1: <- b0
  v5 = Add <int> v2 v1
  v7 = Mul <int> v5 v5
  Return v7`},
		{"not across siblings", `
func f
b0:
  v0 = Param <int> [0]
  v9 = Const <int> [0]
  v8 = Eq <bool> v0 v9
  If v8 -> b1 b2
b1: <- b0
  v1 = Add <int> v0 v0
  Return v1
b2: <- b0
  v2 = Add <int> v0 v0
  Return v2`, unchanged},
		{"types, aux and effects keep values apart", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Const <int> [0]
  v2 = Const <ref> [0]
  v3 = IGet <int> v0 [1]
  v4 = IGet <int> v0 [1]
  v5 = Sub <int> v3 v4
  v6 = Sub <int> v4 v3
  v7 = Add <int> v5 v6
  Return v7`, unchanged},
		{"φ argument from a back edge", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [1]
  Plain -> b1
b1: <- b0 b1
  v2 = Phi <int> v0 v4
  v3 = Const <int> [1]
  v4 = Add <int> v2 v3
  v5 = Lt <bool> v4 v0
  If v5 -> b1 b2
b2: <- b1
  Return v4`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [1]
  Plain -> b1
b1: <- b0 b1
  v2 = Phi <int> v0 v4
  v4 = Add <int> v2 v1
  v5 = Lt <bool> v4 v0
  If v5 -> b1 b2
b2: <- b1
  Return v4`},
	})
}
