package ssa

import "testing"

func TestDeadCode(t *testing.T) {
	testPass(t, "deadcode", []passCase{
		{"unused arithmetic goes, effects stay", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Const <int> [1]
  v2 = Add <int> v1 v1
  v3 = NullCheck <void> v0
  v4 = IGet <int> v0 [7]
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v3 = NullCheck <void> v0
  v4 = IGet <int> v0 [7]
  Return`},
		{"unreachable block and its φ argument", `
func f
b0:
  v0 = Param <int> [0]
  Plain -> b2
b1:
  v1 = Const <int> [9]
  Plain -> b2
b2: <- b0 b1
  v2 = Phi <int> v0 v1
  Return v2`, `
func f
b0:
  v0 = Param <int> [0]
  Plain -> b2
b2: <- b0
  v2 = Phi <int> v0
  Return v2`},
		{"dead φ cycle", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [1]
  Plain -> b1
b1: <- b0 b1
  v2 = Phi <int> v0 v3
  v3 = Add <int> v2 v1
  v4 = Lt <bool> v0 v1
  If v4 -> b1 b2
b2: <- b1
  Return`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [1]
  Plain -> b1
b1: <- b0 b1
  v4 = Lt <bool> v0 v1
  If v4 -> b1 b2
b2: <- b1
  Return`},
	})
}
