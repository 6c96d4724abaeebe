package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
)

// A cost per opcode on two engines, in two runs: the new run swaps the
// dearest and the cheapest opcode of one engine. Each engine's rows are
// ranked apart; a metric of few rows is not ranked.
func TestRankings(t *testing.T) {
	const n = 25
	var old, new []metricSpec
	for _, engine := range []string{"interp", "aot"} {
		for i := range n {
			op := fmt.Sprintf("op%02d", i)
			cost := float64(i + 1)
			newCost := cost
			if engine == "aot" && i == 0 {
				newCost = n
			}
			if engine == "aot" && i == n-1 {
				newCost = 1
			}
			old = append(old, metricSpec{engine, op, cost})
			new = append(new, metricSpec{engine, op, newCost})
		}
	}
	few := metric("time", "s", "lower", map[string]string{"case": "a"}, base6...)
	a := run("a", fp(), append(costMetrics(old), few)...)
	b := run("b", fp(), append(costMetrics(new), few)...)
	c := Compare(a, b, Options{})
	if len(c.Rankings) != 2 {
		t.Fatalf("%d rankings, want 2 (one per engine): %+v", len(c.Rankings), c.Rankings)
	}
	// By hand: unchanged ranks, then the extremes swapped — Σd² = 2·24²,
	// ρ = 1 − 6Σd²/(n(n²−1)); 47 of the 300 pairs discordant.
	wantRho := 1 - 6*2*24*24/float64(n*(n*n-1))
	wantTau := float64(300-2*47) / 300
	for _, tc := range []struct {
		engine   string
		rho, tau float64
		moves    []RankMove
	}{
		{"interp", 1, 1, nil},
		{"aot", wantRho, wantTau, []RankMove{{"op00", 25, 1}, {"op24", 1, 25}}},
	} {
		var r *Ranking
		for i := range c.Rankings {
			if c.Rankings[i].Labels["engine"] == tc.engine {
				r = &c.Rankings[i]
			}
		}
		if r == nil {
			t.Fatalf("no ranking of %s", tc.engine)
		}
		if r.Item != "opcode" || r.Items != n || r.Name != "cost" {
			t.Errorf("%s: item %q, %d items, name %q", tc.engine, r.Item, r.Items, r.Name)
		}
		if math.Abs(r.Spearman-tc.rho) > 1e-9 || math.Abs(r.Kendall-tc.tau) > 1e-9 {
			t.Errorf("%s: ρ %.4f τ %.4f, want %.4f %.4f", tc.engine, r.Spearman, r.Kendall, tc.rho, tc.tau)
		}
		if r.OldRatio != n || r.NewRatio != n {
			t.Errorf("%s: max/min %g and %g, want %d", tc.engine, r.OldRatio, r.NewRatio, n)
		}
		if fmt.Sprint(r.Moves) != fmt.Sprint(tc.moves) {
			t.Errorf("%s: moves %v, want %v", tc.engine, r.Moves, tc.moves)
		}
	}
	var text, md, js bytes.Buffer
	if err := WriteText(&text, c); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("cost by opcode (engine=aot): 25 rows: Spearman ρ %.3f, Kendall τ %.3f; max/min 25× old, 25× new; rank moves most (1 = largest): op00 25 → 1, op24 1 → 25", wantRho, wantTau); !strings.Contains(text.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, text.String())
	}
	if err := WriteMarkdown(&md, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "## Rankings") || !strings.Contains(md.String(), "**cost by opcode (engine=interp)**: 25 rows: Spearman ρ 1.000") {
		t.Errorf("markdown:\n%s", md.String())
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, c); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`<td class="num">%.3f</td>`, wantTau); !strings.Contains(page.String(), "<h2>Rankings</h2>") || !strings.Contains(page.String(), want) ||
		!strings.Contains(page.String(), `<span class="nowrap">op00 25 → 1</span>, <span class="nowrap">op24 1 → 25</span>`) {
		t.Errorf("html lacks the rankings (τ cell %q, the moves):\n%s", want, page.String())
	}
	if err := WriteJSON(&js, c); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Rankings []struct {
			Item     string
			Spearman float64
			Moves    []RankMove
		}
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Rankings) != 2 || out.Rankings[1].Item != "opcode" || len(out.Rankings[1].Moves) != 2 {
		t.Errorf("json rankings %+v", out.Rankings)
	}
	// Without enough rows differing in one label, nothing is ranked.
	if c := Compare(run("a", fp(), few), run("b", fp(), few), Options{}); len(c.Rankings) != 0 {
		t.Errorf("rankings of one row: %+v", c.Rankings)
	}
}

type metricSpec struct {
	engine, opcode string
	cost           float64
}

// costMetrics makes a metric per spec with six samples around its cost.
func costMetrics(specs []metricSpec) []results.Metric {
	var out []results.Metric
	for _, s := range specs {
		var samples []float64
		for _, f := range base6 {
			samples = append(samples, s.cost*f/100)
		}
		out = append(out, metric("cost", "ns", "lower", map[string]string{"engine": s.engine, "opcode": s.opcode}, samples...))
	}
	return out
}
