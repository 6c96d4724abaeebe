package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCompareOpcostRuns: `droidprof compare` of two opcost runs ranks the
// cost tables per engine — rank correlations, max/min ratio, the opcodes
// that move most. Two runs of the same study on this host must agree on
// the ranks (the opcodes span nop to throw, a factor of ten and more). The
// bounds are loose because short loops' derived costs are noisy under
// load (ρ came out 0.58–0.97 at load 15), where rows matched wrongly would
// give ρ near 0.
func TestCompareOpcostRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("measures two opcost runs")
	}
	c := newCLI(t)
	cfg := c.write("opcost-compare.hcl", `experiment "opcost-compare" {
  matrix {
    engine = ["interp", "aot"]
  }
  collect "opcost" {
    opcodes = ["nop", "move", "const/4", "const-wide", "add-int", "mul-long", "div-double", "int-to-long", "double-to-int",
               "new-instance", "new-array", "throw", "invoke-static", "invoke-virtual", "invoke-interface", "check-cast", "instance-of",
               "monitor-enter", "iget", "sget", "aget", "const-string", "cmp-long", "array-length", "goto", "if-eq"]
    loop_size    = 1000
    loop_count   = 200
    measurements = 7
    vm {
      engine = matrix.engine
    }
  }
  analyze "opcost" {}
}
`)
	a, _ := runID(t, c.ok("run", cfg))
	b, _ := runID(t, c.ok("run", cfg))
	var out struct {
		Rankings []struct {
			Name, Item        string
			Labels            map[string]string
			Items             int
			Spearman, Kendall float64
			OldRatio          float64 `json:"old_max_min"`
			NewRatio          float64 `json:"new_max_min"`
		}
	}
	if err := json.Unmarshal([]byte(c.ok("compare", a, b, "--format", "json")), &out); err != nil {
		t.Fatal(err)
	}
	engines := map[string]bool{}
	for _, r := range out.Rankings {
		if r.Name != "cost" {
			continue
		}
		engines[r.Labels["engine"]] = true
		if r.Item != "opcode" || r.Items < 26 {
			t.Errorf("ranking of %s: %d %ss, want the 26 opcodes", r.Labels["engine"], r.Items, r.Item)
		}
		if r.Spearman < 0.5 || r.Kendall < 0.35 {
			t.Errorf("%s: two runs of one study rank apart: ρ %.3f τ %.3f", r.Labels["engine"], r.Spearman, r.Kendall)
		}
		if r.OldRatio < 10 || r.NewRatio < 10 {
			t.Errorf("%s: max/min %.1f and %.1f, want throw ≥ 10× the cheapest", r.Labels["engine"], r.OldRatio, r.NewRatio)
		}
	}
	if !engines["interp"] || !engines["aot"] {
		t.Errorf("rankings for engines %v, want interp and aot: %+v", engines, out.Rankings)
	}
	if text := c.ok("compare", a, b); !strings.Contains(text, "cost by opcode (engine=aot): ") {
		t.Errorf("compare's text has no ranking:\n%s", text)
	}
}
