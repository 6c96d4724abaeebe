package ssa

import "testing"

func TestLoadElim(t *testing.T) {
	testPass(t, "loadelim", []passCase{
		{"a load again, and a store read back", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = Param <double> [2]
  v3 = AGet <double> v0 v1 [1]
  v4 = AGet <double> v0 v1 [1]
  v5 = Mul <double> v3 v4
  v6 = APut <void> v0 v1 v5 [1]
  v7 = AGet <double> v0 v1 [1]
  v8 = Add <double> v7 v2
  Return v8`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = Param <double> [2]
  v3 = AGet <double> v0 v1 [1]
  v5 = Mul <double> v3 v3
  v6 = APut <void> v0 v1 v5 [1]
  v8 = Add <double> v5 v2
  Return v8`},
		{"a store to another array value of the class may be to the same array", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Param <int> [2]
  v3 = Param <double> [3]
  v4 = APut <void> v0 v2 v3 [1]
  v5 = APut <void> v1 v2 v3 [1]
  v6 = AGet <double> v0 v2 [1]
  v7 = AGet <double> v1 v2 [1]
  v8 = Add <double> v6 v7
  Return v8`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Param <int> [2]
  v3 = Param <double> [3]
  v4 = APut <void> v0 v2 v3 [1]
  v5 = APut <void> v1 v2 v3 [1]
  v6 = AGet <double> v0 v2 [1]
  v8 = Add <double> v6 v3
  Return v8`},
		{"a store of another class leaves a load known", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Param <int> [2]
  v7 = Param <long> [3]
  v3 = AGet <int> v0 v2
  v4 = APut <void> v1 v2 v7 [1]
  v5 = AGet <int> v0 v2
  v6 = Add <int> v3 v5
  Return v6`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <ref> [1]
  v2 = Param <int> [2]
  v7 = Param <long> [3]
  v3 = AGet <int> v0 v2
  v4 = APut <void> v1 v2 v7 [1]
  v6 = Add <int> v3 v3
  Return v6`},
		{"a narrow store is not read back (it truncates)", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = Param <int> [2]
  v3 = APut <void> v0 v1 v2 [4]
  v4 = AGet <int> v0 v1 [4]
  Return v4`, unchanged},
		{"a call, an allocation or a field access forgets", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = AGet <int> v0 v1
  v3 = InvokeStatic <void> [7]
  v4 = AGet <int> v0 v1
  v5 = NewInstance <ref> [3]
  v6 = AGet <int> v0 v1
  v7 = IGet <int> v0 [2]
  v8 = AGet <int> v0 v1
  v9 = Add <int> v2 v4
  v10 = Add <int> v6 v8
  v11 = Add <int> v9 v10
  Return v11`, unchanged},
		{"not across blocks", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = AGet <int> v0 v1
  Plain -> b1
b1: <- b0
  v3 = AGet <int> v0 v1
  v4 = Add <int> v2 v3
  Return v4`, unchanged},
	})
}
