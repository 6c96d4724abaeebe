package ssa

import (
	"strings"
	"testing"
)

// passCase is one before → after test of a pass, in the text form.
type passCase struct {
	name          string
	before, after string
}

// unchanged as a case's after: the pass leaves its input as it is.
const unchanged = "unchanged"

// testPass parses each case's input, checks it, runs the pass, checks the
// result and compares its dump with the expected text (both normalised:
// leading and trailing blank space of each line removed).
func testPass(t *testing.T, pass string, cases []passCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse(c.before)
			if err != nil {
				t.Fatalf("parse before: %v", err)
			}
			if err := Check(f); err != nil {
				t.Fatalf("input does not check: %v", err)
			}
			if err := Run(f, pass); err != nil {
				t.Fatal(err)
			}
			if err := Check(f); err != nil {
				t.Fatalf("after %s: %v\n%s", pass, err, f)
			}
			if c.after == unchanged {
				c.after = c.before
			}
			got, want := normalise(f.String()), normalise(c.after)
			if got != want {
				t.Errorf("after %s:\n%s\nwant:\n%s", pass, got, want)
			}
		})
	}
}

func normalise(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
