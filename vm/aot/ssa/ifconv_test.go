package ssa

import "testing"

func TestIfConv(t *testing.T) {
	testPass(t, "ifconv", []passCase{
		{"a triangle choosing a constant (a boolean of a comparison); the blocks merge", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  v3 = Lt <bool> v0 v1
  If v3 -> b1 b2
b1: <- b0
  Plain -> b2
b2: <- b0 b1
  v4 = Phi <int> v2 v1
  Return v4`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  v3 = Lt <bool> v0 v1
  v5 = Select <int> v3 v1 v2
  Return v5`},
		{"a diamond whose arms compute (speculated), long φ", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <long> [1]
  v2 = Const <int> [0]
  v3 = Ge <bool> v0 v2
  If v3 -> b1 b2
b1: <- b0
  v4 = Const <long> [1]
  v5 = Add <long> v1 v4
  Plain -> b3
b2: <- b0
  v6 = Neg <long> v1
  Plain -> b3
b3: <- b1 b2
  v7 = Phi <long> v5 v6
  v8 = Phi <int> v0 v0
  Return v7`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <long> [1]
  v2 = Const <int> [0]
  v3 = Ge <bool> v0 v2
  v4 = Const <long> [1]
  v5 = Add <long> v1 v4
  v6 = Neg <long> v1
  v9 = Select <long> v3 v5 v6
  Return v9`},
		{"a || choosing a boolean: the two Ifs combine (the empty arm loses b1), then the triangle converts; the blocks merge", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  v3 = Eq <bool> v0 v1
  If v3 -> b3 b1
b1: <- b0
  v4 = Gt <bool> v0 v2
  If v4 -> b3 b2
b2: <- b1
  Plain -> b4
b3: <- b0 b1
  Plain -> b4
b4: <- b2 b3
  v5 = Phi <int> v1 v2
  Return v5`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  v3 = Eq <bool> v0 v1
  v4 = Gt <bool> v0 v2
  v6 = Select <int> v4 v2 v1
  v7 = Select <int> v3 v2 v6
  v8 = Ne <bool> v7 v1
  Return v7`},
		{"an && branch: the two Ifs combine, the call stays", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  v3 = Gt <bool> v0 v1
  If v3 -> b1 b3
b1: <- b0
  v4 = Lt <bool> v0 v2
  If v4 -> b2 b3
b2: <- b1
  v5 = InvokeStatic <void> v0 [7]
  Return v0
b3: <- b0 b1
  Return v1`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  v3 = Gt <bool> v0 v1
  v4 = Lt <bool> v0 v2
  v6 = Select <int> v4 v1 v2
  v7 = Select <int> v3 v6 v2
  v8 = Ne <bool> v7 v1
  If v8 -> b3 b2
b2: <- b0
  v5 = InvokeStatic <void> v0 [7]
  Return v0
b3: <- b0
  Return v1`},
		{"Ifs whose shared target's φ tells them apart stay", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Const <int> [1]
  v3 = Gt <bool> v0 v1
  If v3 -> b1 b3
b1: <- b0
  v4 = Lt <bool> v0 v2
  If v4 -> b2 b3
b2: <- b1
  v5 = InvokeStatic <void> v0 [7]
  Return v0
b3: <- b0 b1
  v6 = Phi <int> v1 v2
  v7 = InvokeStatic <void> v6 [7]
  Return v6`, unchanged},
		{"effects, loads, divisions, references and too much work stay branches", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <ref> [1]
  v2 = Const <int> [0]
  v3 = Lt <bool> v0 v2
  If v3 -> b1 b2
b1: <- b0
  v4 = Div <int> v2 v0
  Plain -> b2
b2: <- b0 b1
  v5 = Phi <int> v2 v4
  v6 = Gt <bool> v5 v2
  If v6 -> b3 b4
b3: <- b2
  v7 = Const <ref> [0]
  Plain -> b4
b4: <- b2 b3
  v8 = Phi <ref> v1 v7
  v9 = Eq <bool> v0 v5
  If v9 -> b5 b6
b5: <- b4
  v10 = Add <int> v0 v0
  v11 = Add <int> v10 v0
  v12 = Add <int> v11 v0
  v13 = Add <int> v12 v0
  v14 = Add <int> v13 v0
  v16 = Add <int> v14 v0
  v17 = Add <int> v16 v0
  v18 = Add <int> v17 v0
  v19 = Add <int> v18 v0
  Plain -> b6
b6: <- b4 b5
  v15 = Phi <int> v0 v19
  Return v15`, unchanged},
	})
}
