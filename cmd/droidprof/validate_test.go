package main

import (
	"strings"
	"testing"
)

// TestValidateReportsEveryError: a bad top-level setting does not hide the
// plugin blocks' errors; validate and run report all of them in one pass.
func TestValidateReportsEveryError(t *testing.T) {
	c := newCLI(t)
	cfg := c.write("x.hcl", `experiment "e" {
  repeat = 0
  matrix {
    n = []
  }
  collect "mobibench" {
    acess = 1
  }
  analyze "mobibnech" {}
}
`)
	for _, cmd := range []string{"validate", "run"} {
		_, errOut, code := c.run(cmd, cfg)
		if code == 0 {
			t.Fatalf("%s accepted a bad config", cmd)
		}
		for _, want := range []string{
			`x.hcl:2:12: Invalid value for "repeat"`,
			`x.hcl:4:`, `axis "n" has no values`,
			`x.hcl:7:5: Unsupported argument`, `Did you mean "access"?`,
			`x.hcl:9:11: Unknown plugin`,
		} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: error output lacks %q:\n%s", cmd, want, errOut)
			}
		}
	}
}
