package chart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// parseSVG checks that data is well-formed XML with an <svg> root and
// returns all character data.
func parseSVG(t *testing.T, data []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var text strings.Builder
	depth, root := 0, ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("invalid XML: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = tok.Name.Local
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			text.Write(tok)
		}
	}
	if root != "svg" || depth != 0 {
		t.Fatalf("root %q, depth %d", root, depth)
	}
	return text.String()
}

func TestCharts(t *testing.T) {
	nan := math.NaN()
	charts := []struct {
		name string
		svg  func() []byte
		want []string // substrings of the character data
	}{
		{"bar", func() []byte {
			return (&BarChart{
				Title:      "Insert throughput",
				Categories: []string{"delete", "truncate", "wal"},
				Series: []Series{
					{Name: "ext4", Values: []float64{120, 130, 480}, Lo: []float64{110, 125, 450}, Hi: []float64{125, 140, 500}},
					{Name: "xfs", Values: []float64{100, nan, 400}},
				},
				Unit: "tx/s", YLabel: "throughput", XLabel: "journal mode",
			}).SVG()
		}, []string{"Insert throughput", "throughput (tx/s)", "journal mode", "ext4", "xfs", "wal", "ext4 / wal: 480 tx/s [450, 500]"}},
		{"bar negative", func() []byte {
			return (&BarChart{Categories: []string{"a", "b"}, Series: []Series{{Values: []float64{-5, 3}}}}).SVG()
		}, []string{"-5"}},
		{"bar empty", func() []byte { return (&BarChart{Title: "nothing"}).SVG() }, []string{"nothing"}},
		{"bar leaning labels", func() []byte {
			cats := make([]string, 12)
			for i := range cats {
				cats[i] = strings.Repeat("category", 2) + string(rune('A'+i)) // up to maxLeaningRunes
			}
			return (&BarChart{Categories: cats, Series: []Series{{Name: "s", Values: make([]float64, 12)}}}).SVG()
		}, []string{"rotate(-35"}},
		{"escaping", func() []byte {
			return (&BarChart{
				Title:      `<script>alert("x")</script> & co`,
				Categories: []string{"<b>", "a&b", "\x01ctl"},
				Series:     []Series{{Name: `"quoted" 'name'`, Values: []float64{1, 2, 3}}},
				Unit:       "<unit>",
			}).SVG()
		}, []string{`<script>alert("x")</script> & co`, "<b>", "a&b", `"quoted" 'name'`, "<unit>"}},
		{"line numeric", func() []byte {
			return (&LineChart{
				Title:  "Scaling",
				XLabel: "threads", Unit: "ms",
				Series: []Series{
					{Name: "fsync", X: []float64{1, 2, 4, 8, 16, 32}, Values: []float64{10, 12, nan, 20, 35, 70}},
					{Name: "fdatasync", X: []float64{1, 2, 4, 8, 16, 32}, Values: []float64{8, 9, 11, 15, 26, 51},
						Lo: []float64{7, 8, 10, 14, 25, 50}, Hi: []float64{9, 10, 12, 16, 27, 52}},
				},
			}).SVG()
		}, []string{"Scaling", "threads", "fsync", "fdatasync", "32"}},
		{"line categorical", func() []byte {
			return (&LineChart{
				Categories: []string{"1KiB", "4KiB", "16KiB"},
				Series:     []Series{{Name: "read", Values: []float64{1e6, 2.5e6, 3e6}}},
				YFromZero:  true, Unit: "B/s",
			}).SVG()
		}, []string{"1KiB", "16KiB", "3M", "read"}},
		{"heat map", func() []byte {
			return (&HeatMap{
				Title: "div-int", Columns: []string{"2^0", "2^8", "2^16"}, Rows: []string{"2^0", "2^16"},
				Values: [][]float64{{2.5, 2.7, 3}, {2.4, nan, 4.25}}, XLabel: "dividend", YLabel: "divisor", Unit: "ns",
			}).SVG()
		}, []string{"div-int", "dividend", "divisor", "2^16", "4.25 ns", "2.4 ns", "2.7", "–"}},
		{"heat map empty", func() []byte { return (&HeatMap{Title: "none"}).SVG() }, []string{"none"}},
	}
	for _, c := range charts {
		t.Run(c.name, func(t *testing.T) {
			a, b := c.svg(), c.svg()
			if !bytes.Equal(a, b) {
				t.Fatal("output not deterministic")
			}
			text := parseSVG(t, a)
			for _, w := range c.want {
				if !strings.Contains(text, w) && !strings.Contains(string(a), w) {
					t.Errorf("missing %q in\n%s", w, a)
				}
			}
			if strings.Contains(string(a), "<script>") || strings.Contains(string(a), "NaN") || strings.Contains(string(a), "Inf") {
				t.Errorf("unescaped or non-finite output:\n%s", a)
			}
			if dir := os.Getenv("CHART_OUT"); dir != "" { // for looking at them
				_ = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".svg"), a, 0o644)
			}
		})
	}
}

func TestNiceAxis(t *testing.T) {
	tests := []struct {
		lo, hi float64
		ticks  []float64
		labels []string
	}{
		{0, 97, []float64{0, 20, 40, 60, 80, 100}, []string{"0", "20", "40", "60", "80", "100"}},
		{0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}, []string{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{-5, 3, []float64{-6, -4, -2, 0, 2, 4}, []string{"-6", "-4", "-2", "0", "2", "4"}},
		{0, 3e6, []float64{0, 1e6, 2e6, 3e6}, []string{"0", "1M", "2M", "3M"}},
		{0, 1.8e6, []float64{0, 5e5, 1e6, 1.5e6, 2e6}, []string{"0", "0.5M", "1.0M", "1.5M", "2.0M"}},
		{0, 45000, []float64{0, 1e4, 2e4, 3e4, 4e4, 5e4}, []string{"0", "10k", "20k", "30k", "40k", "50k"}},
		{5, 5, []float64{4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6}, []string{"4.4", "4.6", "4.8", "5.0", "5.2", "5.4", "5.6"}},
		{0, 0, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}, nil},
		{0.001, 0.0042, []float64{0.001, 0.002, 0.003, 0.004, 0.005}, []string{"0.001", "0.002", "0.003", "0.004", "0.005"}},
	}
	for _, tt := range tests {
		a := niceAxis(tt.lo, tt.hi, 6)
		got := a.ticks()
		if len(got) != len(tt.ticks) {
			t.Errorf("niceAxis(%v, %v) ticks %v, want %v", tt.lo, tt.hi, got, tt.ticks)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-tt.ticks[i]) > 1e-9*math.Max(1, math.Abs(tt.ticks[i])) {
				t.Errorf("niceAxis(%v, %v) ticks %v, want %v", tt.lo, tt.hi, got, tt.ticks)
				break
			}
		}
		if tt.labels != nil {
			var labels []string
			for _, v := range got {
				labels = append(labels, a.label(v))
			}
			if !slices.Equal(labels, tt.labels) {
				t.Errorf("niceAxis(%v, %v) labels %q, want %q", tt.lo, tt.hi, labels, tt.labels)
			}
		}
	}
}
