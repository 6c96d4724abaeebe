package engine

import (
	"testing"

	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// TestIsLeaf classifies small methods: a leaf (code.invoke's light frame)
// may not throw, call, allocate, lock or loop.
func TestIsLeaf(t *testing.T) {
	for _, c := range []struct {
		name, ir string
		leaf     bool
	}{
		{"arithmetic", `
func f
b0:
  v0 = This <ref>
  v1 = Param <int> [1]
  v2 = Const <int> [2]
  v3 = Mul <int> v1 v1
  v4 = Div <int> v3 v2
  Return v4`, true},
		{"branch and φ", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Lt <bool> v0 v1
  If v2 -> b1 b2
b1: <- b0
  v3 = Neg <int> v0
  Plain -> b2
b2: <- b0 b1
  v4 = Phi <int> v0 v3
  Return v4`, true},
		{"a call", `
func f
b0:
  v0 = This <ref>
  v1 = Param <int> [1]
  v2 = InvokeVirtual <int> v0 v1 [6]
  Return v2`, false},
		{"division that may throw", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Param <int> [1]
  v2 = DivZeroCheck <void> v1
  v3 = Div <int> v0 v1
  Return v3`, false},
		{"a field load", `
func f
b0:
  v0 = This <ref>
  v1 = IGet <int> v0 [3]
  Return v1`, false},
		{"a loop", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [1]
  Plain -> b1
b1: <- b0 b1
  v2 = Phi <int> v0 v3
  v3 = Sub <int> v2 v1
  v4 = Const <int> [0]
  v5 = Gt <bool> v3 v4
  If v5 -> b1 b2
b2: <- b1
  Return v3`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fn, err := ssa.Parse(c.ir)
			if err != nil {
				t.Fatal(err)
			}
			rpo := make([]int, fn.NumBlocks())
			for i, b := range fn.RPO() {
				rpo[b.ID] = i
			}
			if got := isLeaf(fn, rpo); got != c.leaf {
				t.Errorf("isLeaf = %v, want %v", got, c.leaf)
			}
		})
	}
}
