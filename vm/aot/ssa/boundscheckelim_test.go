package ssa

import (
	"strings"
	"testing"
)

// loop is `for (i = START; i < a.length; i += STEP) a[i]` as dx lays it
// out: the test at the top, if-ge leaving the loop.
const loop = `
func f
b0:
  v0 = Param <ref> [0]
  v20 = Param <int> [1]
  v1 = Const <int> [START]
  v11 = Const <int> [STEP]
  Plain -> b1
b1: <- b0 b2
  v2 = Phi <int> v1 v6
  v3 = NullCheck <void> v0
  v4 = ArrayLength <int> v0
  v5 = COND <bool> v2 v4
  If v5 -> b3 b2
b2: <- b1
  v8 = ArrayLength <int> v0
  v9 = BoundsCheck <void> v2 v8
  v10 = AGet <int> v0 v2
  v6 = Add <int> v2 v11
  Plain -> b1
b3: <- b1
  Return`

func loopCase(start, step, cond string, removed bool) (before, after string) {
	r := strings.NewReplacer("START", start, "STEP", step, "COND", cond)
	before = r.Replace(loop)
	after = before
	if removed {
		after = strings.Replace(after, "  v9 = BoundsCheck <void> v2 v8\n", "", 1)
	}
	return before, after
}

func TestBoundsCheckElim(t *testing.T) {
	var cases []passCase
	for _, c := range []struct {
		name              string
		start, step, cond string
		removed           bool
	}{
		{"counting loop", "0", "1", "Ge", true},
		{"loop from 3", "3", "1", "Ge", true},
		{"step 2 may wrap", "0", "2", "Ge", false},
		{"negative start", "-1", "1", "Ge", false},
		{"start from a parameter", "v20", "1", "Ge", false},
		{"i <= length is not enough", "0", "1", "Gt", false},
	} {
		b, a := loopCase(c.start, c.step, c.cond, c.removed)
		if strings.HasPrefix(c.start, "v") {
			b = strings.Replace(b, "v1 = Const <int> [v20]", "v1 = Copy <int> v20", 1)
			a = strings.Replace(a, "v1 = Const <int> [v20]", "v1 = Copy <int> v20", 1)
		}
		cases = append(cases, passCase{c.name, b, a})
	}
	cases = append(cases,
		passCase{"constant index into a new array", `
func f
b0:
  v0 = Const <int> [4]
  v1 = NewArray <ref> v0 [2]
  v2 = Const <int> [3]
  v3 = ArrayLength <int> v1
  v4 = BoundsCheck <void> v2 v3
  v5 = Const <int> [4]
  v6 = BoundsCheck <void> v5 v3
  Return`, `
func f
b0:
  v0 = Const <int> [4]
  v1 = NewArray <ref> v0 [2]
  v2 = Const <int> [3]
  v3 = ArrayLength <int> v1
  v5 = Const <int> [4]
  v6 = BoundsCheck <void> v5 v3
  Return`},
		passCase{"loop up to the length the array was allocated with", `
func f
b0:
  v0 = Param <int> [0]
  v1 = NewArray <ref> v0 [2]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v7
  v5 = Ge <bool> v4 v0
  If v5 -> b3 b2
b2: <- b1
  v8 = ArrayLength <int> v1
  v9 = BoundsCheck <void> v4 v8
  v10 = APut <void> v1 v4 v3
  v7 = Add <int> v4 v3
  Plain -> b1
b3: <- b1
  Return`, `
func f
b0:
  v0 = Param <int> [0]
  v1 = NewArray <ref> v0 [2]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v7
  v5 = Ge <bool> v4 v0
  If v5 -> b3 b2
b2: <- b1
  v8 = ArrayLength <int> v1
  v10 = APut <void> v1 v4 v3
  v7 = Add <int> v4 v3
  Plain -> b1
b3: <- b1
  Return`},
		passCase{"loop up to a bound unrelated to the array", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <ref> [1]
  v2 = Const <int> [0]
  v3 = Const <int> [1]
  Plain -> b1
b1: <- b0 b2
  v4 = Phi <int> v2 v7
  v5 = Ge <bool> v4 v0
  If v5 -> b3 b2
b2: <- b1
  v8 = ArrayLength <int> v1
  v9 = BoundsCheck <void> v4 v8
  v7 = Add <int> v4 v3
  Plain -> b1
b3: <- b1
  Return`, unchanged},
		passCase{"a check that may throw to a handler proves nothing beyond its block", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = ArrayLength <int> v0
  v3 = BoundsCheck <void> v1 v2
  v4 = AGet <int> v0 v1
  Plain -> b1 catch b2
b1: <- b0
  Plain -> b3
b2: <- b0
  v5 = Exception <ref>
  Plain -> b3
b3: <- b1 b2
  v6 = BoundsCheck <void> v1 v2
  v7 = AGet <int> v0 v1
  Return v7`, unchanged},
		passCase{"repeated index into the same array", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = ArrayLength <int> v0
  v3 = BoundsCheck <void> v1 v2
  v4 = AGet <int> v0 v1
  v5 = ArrayLength <int> v0
  v6 = BoundsCheck <void> v1 v5
  v7 = APut <void> v0 v1 v4
  Return`, `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v2 = ArrayLength <int> v0
  v3 = BoundsCheck <void> v1 v2
  v4 = AGet <int> v0 v1
  v5 = ArrayLength <int> v0
  v7 = APut <void> v0 v1 v4
  Return`},
		passCase{"same index, another array", `
func f
b0:
  v0 = Param <ref> [0]
  v1 = Param <int> [1]
  v8 = Param <ref> [2]
  v2 = ArrayLength <int> v0
  v3 = BoundsCheck <void> v1 v2
  v5 = ArrayLength <int> v8
  v6 = BoundsCheck <void> v1 v5
  Return`, unchanged},
	)
	testPass(t, "boundscheckelim", cases)
}
