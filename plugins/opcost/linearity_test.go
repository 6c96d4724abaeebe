package opcost

import (
	"math"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/plugins/opcost/microbench"
)

// The linearity study's collector figures: each run's collection time
// is taken out of the mutator's cost, and a pair whose collections come
// at another rate per allocation than alone is reported as unfair.
func TestLinearityCollector(t *testing.T) {
	const instrs = 1000 // loop 1000 × 1
	// 4 runs each; empty loop 0. div-int costs 4 ns; new-instance 50 ns
	// of which gc is 20: 10 collections of 2000 ns per 1000 allocations.
	runs := func(ns int64) []int64 { return []int64{ns, ns, ns, ns} }
	gcs := func(n int) []int { return []int{n, n, n, n} }
	tests := []struct {
		name              string
		pairGCs           int   // collections per run of each pair (500 allocations)
		pairGCNS          int64 // their time per run
		wantCollectorErr  float64
		wantMutatorAltErr float64
		wantWarning       bool
	}{
		{"proportional", 5, 10000, 0, 0, false},
		{"pairs collect twice as often", 10, 20000, 1, 0, true},
		{"pairs collect 5 % less", 5, 9500, -0.05, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A pair's mutator is the mean: (4 + 30) / 2 = 17 ns per
			// instruction, plus its collections.
			pair := 17*instrs + tt.pairGCNS
			r := Result{LoopSize: instrs, LoopCount: 1, LinearityEmpty: runs(0), Benches: []BenchResult{
				{Name: microbench.EmptyLoop, Samples: runs(0)},
				{Name: microbench.PartnerName, Samples: runs(4 * instrs), GCs: gcs(0), GCNS: runs(0)},
				{Name: "new-instance", Samples: runs(50 * instrs), GCs: gcs(10), GCNS: runs(20000)},
				{Name: microbench.PairName("new-instance", microbench.Alternating), Samples: runs(pair), GCs: gcs(tt.pairGCs), GCNS: runs(tt.pairGCNS)},
				{Name: microbench.PairName("new-instance", microbench.Halves), Samples: runs(pair), GCs: gcs(tt.pairGCs), GCNS: runs(tt.pairGCNS)},
			}}
			rows, err := Linearity(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 1 {
				t.Fatalf("%d rows, want 1", len(rows))
			}
			l := rows[0]
			if l.GCs != [3]float64{10, float64(tt.pairGCs), float64(tt.pairGCs)} {
				t.Errorf("collections %v", l.GCs)
			}
			if l.MutatorMean != 17 || math.Abs(l.MutatorAlternatingErr-tt.wantMutatorAltErr) > 1e-9 {
				t.Errorf("mutator mean %v, alternating error %v, want 17 and %v", l.MutatorMean, l.MutatorAlternatingErr, tt.wantMutatorAltErr)
			}
			if math.Abs(l.CollectorAlternatingErr-tt.wantCollectorErr) > 1e-9 || math.Abs(l.CollectorHalvesErr-tt.wantCollectorErr) > 1e-9 {
				t.Errorf("collector errors %v / %v, want %v", l.CollectorAlternatingErr, l.CollectorHalvesErr, tt.wantCollectorErr)
			}
			var summary strings.Builder
			if err := linearity((&sdk.Analysis{}).NewResult(), "", "", r, &summary); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(summary.String(), "collector's time per instruction in the pairs of new-instance"); got != tt.wantWarning {
				t.Errorf("warning %v, want %v: %s", got, tt.wantWarning, summary.String())
			}
		})
	}
}
