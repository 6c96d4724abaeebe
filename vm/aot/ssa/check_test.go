package ssa

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name, src, want string // want: "" valid, else a substring of the error
	}{
		{"valid loop", `
func f
b0:
  v0 = Param <int> [0]
  Plain -> b1
b1: <- b0 b1
  v1 = Phi <int> v0 v2
  v2 = Add <int> v1 v0
  v3 = Lt <bool> v2 v0
  If v3 -> b1 b2
b2: <- b1
  Return v2`, ""},
		{"φ arity", `
func f
b0:
  v0 = Param <int> [0]
  Plain -> b1
b1: <- b0
  v1 = Phi <int> v0 v0
  Return v1`, "φ v1 has 2 arguments, b1 has 1 predecessors"},
		{"use not dominated", `
func f
b0:
  v0 = Param <int> [0]
  v9 = Const <int> [0]
  v8 = Eq <bool> v0 v9
  If v8 -> b1 b2
b1: <- b0
  v1 = Add <int> v0 v0
  Plain -> b2
b2: <- b0 b1
  v2 = Add <int> v1 v0
  Return v2`, "v2 uses v1, whose definition does not dominate it"},
		{"use before definition in a block", `
func f
b0:
  v0 = Param <int> [0]
  v2 = Add <int> v1 v0
  v1 = Add <int> v0 v0
  Return v2`, "v2 uses v1"},
		{"φ argument not dominating its predecessor", `
func f
b0:
  v0 = Param <int> [0]
  v9 = Const <int> [0]
  v8 = Eq <bool> v0 v9
  If v8 -> b1 b2
b1: <- b0
  v1 = Add <int> v0 v0
  Plain -> b3
b2: <- b0
  Plain -> b3
b3: <- b1 b2
  v2 = Phi <int> v1 v1
  Return v2`, "φ v2 argument 1, v1, does not dominate the end of predecessor b2"},
		{"φ after a value", `
func f
b0:
  v0 = Param <int> [0]
  v1 = Phi <int>
  Return v0`, "φ v1 after a non-φ"},
		{"If without bool", `
func f
b0:
  v0 = Param <int> [0]
  If v0 -> b1 b1
b1: <- b0 b0
  Return`, "If needs two successors and a bool control value"},
		{"switch successors", `
func f
b0:
  v0 = Param <int> [0]
  Switch v0 [1 2] -> b1 b1
b1: <- b0 b0
  Return`, "Switch needs one successor per key plus a default"},
		{"entry with predecessors", `
func f
b0: <- b0
  Plain -> b0`, "entry b0 has predecessors"},
		{"φ type", `
func f
b0:
  v0 = Param <int> [0]
  Plain -> b1
b1: <- b0
  v1 = Phi <long> v0
  Return v1`, "φ v1 <long> has argument v0 <int>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			err = Check(f)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Check: %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("Check accepted it, want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("Check: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"func f\nb0:\n  v0 = Frob <int>\n  Return", "line 3: unknown op \"Frob\""},
		{"func f\nb0:\n  v0 = Add <int> v7 v7\n  Return", "v7 is used but not defined"},
		{"func f\nb0:\n  Plain -> b1", "block b1 is referenced but not defined"},
		{"func f\nb0:\n  v0 = Param <int> [0]", "block b0 has no end line"},
		{"func f\nb0:\n  Plain -> b1\nb1:\n  Return", "edge b0 -> b1 is not in b1's predecessor list"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestPrintParse checks that a dump parses back to the same text.
func TestPrintParse(t *testing.T) {
	src := `func f
b0:
  v0 = Param <int> [0]
  v1 = Const <int> [3]
  Switch v0 [1 -2] -> b1 b2 b3
b1: <- b0
  v2 = NullCheck <void> v0
  Plain -> b3 catch b4
b2: <- b0
  Plain -> b3
b3: <- b0 b1 b2
  v3 = Phi <int> v1 v0 v1
  Return v3
b4: <- b1
  v4 = Exception <ref>
  Throw v4
`
	f, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.String(); got != src {
		t.Errorf("round trip:\n%s\nwant:\n%s", got, src)
	}
	var sb strings.Builder
	Fdot(&sb, f, nil)
	for _, want := range []string{"digraph \"f\"", "b1 -> b4 [style=dashed label=\"catch\"]", "b0 -> b2 [label=\"-2\"]", "b0 -> b3 [label=\"default\"]"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("dot output lacks %q:\n%s", want, sb.String())
		}
	}
}
