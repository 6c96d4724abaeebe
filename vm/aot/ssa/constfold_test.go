package ssa

import "testing"

func TestConstFold(t *testing.T) {
	testPass(t, "constfold", []passCase{
		{"int arithmetic wraps", `
func f
b0:
  v0 = Const <int> [2147483647]
  v1 = Const <int> [1]
  v2 = Add <int> v0 v1
  Return v2`, `
func f
b0:
  v0 = Const <int> [2147483647]
  v1 = Const <int> [1]
  v2 = Const <int> [-2147483648]
  Return v2`},
		{"shift count masked", `
func f
b0:
  v0 = Const <int> [1]
  v1 = Const <int> [33]
  v2 = Shl <int> v0 v1
  Return v2`, `
func f
b0:
  v0 = Const <int> [1]
  v1 = Const <int> [33]
  v2 = Const <int> [2]
  Return v2`},
		{"MIN / -1 is MIN", `
func f
b0:
  v0 = Const <long> [-9223372036854775808]
  v1 = Const <long> [-1]
  v2 = Div <long> v0 v1
  Return v2`, `
func f
b0:
  v0 = Const <long> [-9223372036854775808]
  v1 = Const <long> [-1]
  v2 = Const <long> [-9223372036854775808]
  Return v2`},
		{"division by zero is left to its check", `
func f
b0:
  v0 = Const <int> [7]
  v1 = Const <int> [0]
  v2 = DivZeroCheck <void> v1
  v3 = Div <int> v0 v1
  Return v3`, unchanged},
		{"check of a non-zero constant goes", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [3]
  v2 = DivZeroCheck <void> v1
  v3 = Rem <int> v0 v1
  Return v3`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [3]
  v3 = Rem <int> v0 v1
  Return v3`},
		{"double to int saturates, NaN is 0", `
func f
b0:
  v0 = Const <double> [9218868437227405312]
  v1 = Conv <int> v0
  v2 = Const <double> [9221120237041090560]
  v3 = Conv <long> v2
  v4 = Conv <long> v1
  v5 = Add <long> v3 v4
  Return v5`, `
func f
b0:
  v0 = Const <double> [9218868437227405312]
  v1 = Const <int> [2147483647]
  v2 = Const <double> [9221120237041090560]
  v3 = Const <long> [0]
  v4 = Const <long> [2147483647]
  v5 = Const <long> [2147483647]
  Return v5`},
		{"cmpg of NaN is 1, cmpl -1", `
func f
b0:
  v0 = Const <float> [2143289344]
  v1 = Const <float> [0]
  v2 = Cmpg <int> v0 v1
  v3 = Cmpl <int> v0 v1
  v4 = Sub <int> v2 v3
  Return v4`, `
func f
b0:
  v0 = Const <float> [2143289344]
  v1 = Const <float> [0]
  v2 = Const <int> [1]
  v3 = Const <int> [-1]
  v4 = Const <int> [2]
  Return v4`},
		{"constant branch and the φ it feeds", `
func f
b0:
  v0 = Const <int> [1]
  v1 = Const <int> [0]
  v2 = Ne <bool> v0 v1
  If v2 -> b1 b2
b1: <- b0
  v3 = Const <int> [5]
  Plain -> b3
b2: <- b0
  v4 = Const <int> [6]
  Plain -> b3
b3: <- b1 b2
  v5 = Phi <int> v3 v4
  v6 = Mul <int> v5 v5
  Return v6`, `
func f
b0:
  v0 = Const <int> [1]
  v1 = Const <int> [0]
  v2 = Const <bool> [1]
  Plain -> b1
b1: <- b0
  v3 = Const <int> [5]
  Plain -> b3
b3: <- b1
  v5 = Const <int> [5]
  v6 = Const <int> [25]
  Return v6`},
		{"switch on a constant", `
func f
b0:
  v0 = Const <int> [5]
  Switch v0 [1 5] -> b1 b2 b3
b1: <- b0
  Return v0
b2: <- b0
  Return v0
b3: <- b0
  Return v0`, `
func f
b0:
  v0 = Const <int> [5]
  Plain -> b2
b2: <- b0
  Return v0`},
		{"a φ folded among φs leaves the φs first", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [4]
  v9 = Const <int> [0]
  v8 = Eq <bool> v0 v9
  If v8 -> b1 b2
b1: <- b0
  Plain -> b2
b2: <- b0 b1
  v2 = Phi <int> v1 v1
  v3 = Phi <int> v0 v1
  v4 = Add <int> v2 v3
  Return v4`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [4]
  v9 = Const <int> [0]
  v8 = Eq <bool> v0 v9
  If v8 -> b1 b2
b1: <- b0
  Plain -> b2
b2: <- b0 b1
  v3 = Phi <int> v0 v1
  v2 = Const <int> [4]
  v4 = Add <int> v2 v3
  Return v4`},
		{"a φ after a folded φ loses the argument of a dropped edge", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [4]
  v9 = Const <int> [0]
  v8 = Eq <bool> v0 v9
  If v8 -> b1 b2
b2: <- b0 b1
  v2 = Phi <int> v1 v1
  v3 = Phi <int> v0 v1
  v4 = Add <int> v2 v3
  Return v4
b1: <- b0
  v5 = Ne <bool> v1 v9
  If v5 -> b3 b2
b3: <- b1
  Return v0`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [4]
  v9 = Const <int> [0]
  v8 = Eq <bool> v0 v9
  If v8 -> b1 b2
b2: <- b0
  v3 = Phi <int> v0
  v2 = Const <int> [4]
  v4 = Add <int> v2 v3
  Return v4
b1: <- b0
  v5 = Const <bool> [1]
  Plain -> b3
b3: <- b1
  Return v0`},
		{"unknown operand stays", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [1]
  v2 = Add <int> v0 v1
  Return v2`, unchanged},
	})
}
