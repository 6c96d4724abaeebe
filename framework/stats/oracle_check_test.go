package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

type goldenSummary struct {
	Name   string     `json:"name"`
	Xs     []float64  `json:"xs"`
	Levels []goldenCI `json:"levels"`
}

// goldenCI is benchmath's summary of one sample at one confidence level.
type goldenCI struct {
	Level      float64  `json:"level"` // requested confidence
	Center     string   `json:"center"`
	Lo         string   `json:"lo"`
	Hi         string   `json:"hi"`
	Confidence string   `json:"confidence"` // achieved
	PctRange   string   `json:"pct_range"`
	Warnings   []string `json:"warnings,omitempty"`
}

type goldenCompare struct {
	Name     string    `json:"name"`
	Old      []float64 `json:"old"`
	New      []float64 `json:"new"`
	P        string    `json:"p"`
	Note     string    `json:"note"`
	Delta    string    `json:"delta"`
	Warnings []string  `json:"warnings,omitempty"`
}

// oracleLevels are the confidence levels summaries are checked at.
var oracleLevels = []float64{0.95, 0.90, 0.99}

const oracleTol = 1e-9

func closeTo(got, want float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= oracleTol*math.Max(1, math.Abs(want))
}

func parseF(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("golden value %q: %v", s, err)
	}
	return f
}

// checkSummary compares our Summarize with the expected answers.
func checkSummary(t *testing.T, g goldenSummary) {
	t.Helper()
	for _, l := range g.Levels {
		checkCI(t, g.Name, g.Xs, l)
	}
}

func checkCI(t *testing.T, name string, xs []float64, g goldenCI) {
	t.Helper()
	s := Summarize(xs, g.Level)
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"median", s.Median, parseF(t, g.Center)},
		{"lo", s.Lo, parseF(t, g.Lo)},
		{"hi", s.Hi, parseF(t, g.Hi)},
		{"confidence", s.Confidence, parseF(t, g.Confidence)},
	} {
		if !closeTo(c.got, c.want) {
			t.Errorf("%s level %v: %s = %v, benchmath %v (xs %v)", name, g.Level, c.what, c.got, c.want, xs)
		}
	}
	if got := s.CIString(); got != g.PctRange {
		t.Errorf("%s level %v: CI %q, benchmath %q", name, g.Level, got, g.PctRange)
	}
	if !equalStrings(s.Warnings, g.Warnings) {
		t.Errorf("%s level %v: warnings %q, benchmath %q", name, g.Level, s.Warnings, g.Warnings)
	}
}

// checkCompare compares our CompareSamples with one expected answer.
func checkCompare(t *testing.T, g goldenCompare) {
	t.Helper()
	c := CompareSamples(g.Old, g.New, DefaultAlpha)
	want, note := parseF(t, g.P), g.Note
	if want > 1 {
		// With ties benchmath's p-value can exceed 1; ours is capped.
		note = strings.Replace(note, fmt.Sprintf("p=%0.3f", want), "p=1.000", 1)
		want = 1
	}
	if !closeTo(c.P, want) {
		t.Errorf("%s: p = %v, benchmath %v (old %v new %v)", g.Name, c.P, want, g.Old, g.New)
	}
	if got := c.String(); got != note {
		t.Errorf("%s: note %q, benchmath %q", g.Name, got, note)
	}
	if got := c.FormatDelta(Median(g.Old), Median(g.New)); got != g.Delta {
		t.Errorf("%s: delta %q, benchmath %q", g.Name, got, g.Delta)
	}
	if !equalStrings(c.Warnings, g.Warnings) {
		t.Errorf("%s: warnings %q, benchmath %q", g.Name, c.Warnings, g.Warnings)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBenchmathGolden checks every oracle case against benchmath's recorded
// answers.
