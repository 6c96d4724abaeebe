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
	"strconv"
	"strings"
	"testing"
)

// node is an element of a parsed SVG document.
type node struct {
	name   string
	attr   map[string]string
	text   string // character data directly inside the element
	kids   []*node
	parent *node
}

// parseTree parses data with encoding/xml (so it must be well-formed) into
// a tree and checks the root is <svg>.
func parseTree(t *testing.T, data []byte) *node {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	doc := &node{}
	cur := doc
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name.Local, attr: map[string]string{}, parent: cur}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			cur.kids = append(cur.kids, n)
			cur = n
		case xml.EndElement:
			cur = cur.parent
		case xml.CharData:
			cur.text += string(tok)
		}
	}
	if cur != doc || len(doc.kids) != 1 || doc.kids[0].name != "svg" {
		t.Fatalf("not one <svg> root:\n%s", data)
	}
	return doc.kids[0]
}

// all returns the elements below n (depth first) for which keep is true.
func (n *node) all(keep func(*node) bool) []*node {
	var out []*node
	for _, k := range n.kids {
		if keep(k) {
			out = append(out, k)
		}
		out = append(out, k.all(keep)...)
	}
	return out
}

// group returns the <g> that has the given class.
func (n *node) group(t *testing.T, class string) *node {
	t.Helper()
	gs := n.all(func(k *node) bool { return k.name == "g" && slices.Contains(strings.Fields(k.attr["class"]), class) })
	if len(gs) != 1 {
		t.Fatalf("%d <g class=%q>, want 1", len(gs), class)
	}
	return gs[0]
}

// title is the text of n's <title> child.
func (n *node) title() string {
	for _, k := range n.kids {
		if k.name == "title" {
			return k.text
		}
	}
	return ""
}

// visibleText is n's own text and that of its <tspan>s, without <title>.
func (n *node) visibleText() string {
	s := n.text
	for _, k := range n.kids {
		if k.name == "tspan" {
			s += k.visibleText()
		}
	}
	return s
}

func (n *node) f(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(n.attr[name], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", n.name, name, n.attr[name], err)
	}
	return v
}

type bar struct {
	x, y, w, h float64
	title      string
}

func bars(t *testing.T, svg *node) []bar {
	t.Helper()
	var out []bar
	for _, r := range svg.group(t, "bars").all(func(k *node) bool { return k.name == "rect" }) {
		out = append(out, bar{r.f(t, "x"), r.f(t, "y"), r.f(t, "width"), r.f(t, "height"), r.title()})
	}
	return out
}

type tick struct {
	label string
	at    float64 // pixel coordinate along the value axis
}

// valueTicks returns the labels of the value axis: the y axis of a
// vertical bar chart, the x axis of a horizontal one.
func valueTicks(t *testing.T, svg *node, horizontal bool) []tick {
	t.Helper()
	var out []tick
	g := svg.group(t, "value-axis")
	for _, tx := range g.all(func(k *node) bool { return k.name == "text" }) {
		at := tx.f(t, "y") - 4 // labels sit 4 px below their grid line
		if horizontal {
			at = tx.f(t, "x")
		}
		out = append(out, tick{tx.visibleText(), at})
	}
	return out
}

// parseSI reads a tick label such as "10k", "1M" or "0.01".
func parseSI(t *testing.T, s string) float64 {
	t.Helper()
	mult := 1.0
	for suffix, m := range map[string]float64{"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("tick label %q: %v", s, err)
	}
	return v * mult
}

// axisTitle is the text of the rotated value-axis title (vertical chart) or
// of the title below the value axis (horizontal chart).
func hasText(svg *node, s string) bool {
	for _, tx := range svg.all(func(k *node) bool { return k.name == "text" }) {
		if strings.Contains(tx.visibleText(), s) {
			return true
		}
	}
	return false
}

func TestBarScale(t *testing.T) {
	tests := []struct {
		name       string
		values     []float64
		scale      Scale
		horizontal bool
		wantLog    bool
		wantTicks  []string // nil: not checked
	}{
		{"fsync next to buffered", []float64{1500272, 4007, 324877, 919.5}, ScaleAuto, false, true, []string{"100", "1k", "10k", "100k", "1M", "10M"}},
		{"1 in 1000", []float64{1000, 1}, ScaleAuto, false, true, []string{"0.1", "1", "10", "100", "1k"}},
		{"ratio 21", []float64{2.1, 0.1}, ScaleAuto, false, true, []string{"0.01", "0.1", "1", "10"}},
		{"ratio 20 stays linear", []float64{100, 5}, ScaleAuto, false, false, nil},
		{"negative stays linear", []float64{-5, 3, 1000}, ScaleAuto, false, false, nil},
		{"zero does not count", []float64{0, 50, 100}, ScaleAuto, false, false, nil},
		{"zero next to a wide range", []float64{0, 5, 1000}, ScaleAuto, false, true, []string{"1", "10", "100", "1k"}},
		{"forced linear", []float64{1000, 1}, ScaleLinear, false, false, nil},
		{"forced log", []float64{100, 50}, ScaleLog, false, true, []string{"10", "100"}},
		{"horizontal", []float64{1500272, 4007, 324877, 919.5}, ScaleAuto, true, true, []string{"100", "1k", "10k", "100k", "1M", "10M"}},
		{"many decades", []float64{1e12, 1e-3}, ScaleAuto, false, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cats := make([]string, len(tt.values))
			for i := range cats {
				cats[i] = "c" + strconv.Itoa(i)
			}
			b := &BarChart{Title: "t", Categories: cats, Series: []Series{{Name: "s", Values: tt.values}},
				YLabel: "throughput", Unit: "KB/s", Scale: tt.scale, Horizontal: tt.horizontal}
			data := b.SVG()
			writeOut("scale_"+tt.name, data)
			svg := parseTree(t, data)
			isLog := hasText(svg, "log scale")
			if isLog != tt.wantLog {
				t.Fatalf("log scale %v, want %v\n%s", isLog, tt.wantLog, data)
			}
			if tt.wantLog && !hasText(svg, "throughput (KB/s, log scale)") {
				t.Errorf("axis title does not name the unit and the log scale:\n%s", data)
			}
			ticks := valueTicks(t, svg, tt.horizontal)
			var labels []string
			for _, tk := range ticks {
				labels = append(labels, tk.label)
			}
			if tt.wantTicks != nil && strings.Join(labels, " ") != strings.Join(tt.wantTicks, " ") {
				t.Errorf("ticks %q, want %q", labels, tt.wantTicks)
			}
			if !tt.wantLog {
				return
			}
			if len(ticks) < 2 || len(ticks) > 9 {
				t.Fatalf("%d ticks: %q", len(ticks), labels)
			}
			// Ticks are powers of ten, evenly spaced.
			for i, tk := range ticks {
				v := parseSI(t, tk.label)
				if e := math.Log10(v); math.Abs(e-math.Round(e)) > 1e-9 {
					t.Errorf("tick %q is not a power of ten", tk.label)
				}
				if i >= 2 {
					d1, d0 := ticks[i].at-ticks[i-1].at, ticks[i-1].at-ticks[i-2].at
					if math.Abs(d1-d0) > 0.02 {
						t.Errorf("ticks not evenly spaced: %v", ticks)
					}
				}
			}
			// Each bar ends where its value lies between the ticks, in
			// log10, and every positive bar is visible.
			first, last := ticks[0], ticks[len(ticks)-1]
			lf, ll := math.Log10(parseSI(t, first.label)), math.Log10(parseSI(t, last.label))
			perDecade := (last.at - first.at) / (ll - lf)
			bs := bars(t, svg)
			if len(bs) != len(tt.values) {
				t.Fatalf("%d bars, want %d", len(bs), len(tt.values))
			}
			longest := 0.0
			for _, br := range bs {
				longest = math.Max(longest, max(br.w, br.h))
			}
			for i, br := range bs {
				v := tt.values[i]
				length, end := br.h, br.y
				if tt.horizontal {
					length, end = br.w, br.x+br.w
				}
				if v <= 0 {
					if length > 0.01 {
						t.Errorf("bar of %v has length %v", v, length)
					}
					continue
				}
				want := first.at + (math.Log10(v)-lf)*perDecade
				if math.Abs(end-want) > 0.6 {
					t.Errorf("bar of %v ends at %.2f, want %.2f (log position)", v, end, want)
				}
				if length < 10 || length < 0.05*longest {
					t.Errorf("bar of %v is %.1f px long (longest %.1f): not visible", v, length, longest)
				}
			}
		})
	}
}

func TestBarLinearSmallBarInvisible(t *testing.T) {
	// The defect the log axis fixes: on a linear axis a bar of 1/1000 of
	// the maximum is under a pixel tall.
	svg := parseTree(t, (&BarChart{Categories: []string{"a", "b"}, Series: []Series{{Values: []float64{1000, 1}}}, Scale: ScaleLinear}).SVG())
	if h := bars(t, svg)[1].h; h >= 1 {
		t.Errorf("linear bar of 1/1000 is %.2f px tall; want < 1 (test premise)", h)
	}
}

func TestBarLongLabels(t *testing.T) {
	hot := []string{
		"caffeine-method 40 buffer=65536: caffeine.MethodTest.depth",
		"caffeine-method 40 buffer=65536: caffeine.MethodTest.round",
		"caffeine-method 40 buffer=65536: caffeine.MethodTest.bump",
		"caffeine-method 40 buffer=65536: caffeine.MethodTest$Shape.twice",
		"caffeine-method 40 buffer=65536: caffeine.MethodTest$Tri.area",
	}
	huge := strings.Repeat("com.example.verylongpackagename.", 6) + "Outer$Inner.method"
	tests := []struct {
		name   string
		cats   []string
		width  int
		series int
		// visible lists substrings each label must show in full.
		visible func(cat string) string
	}{
		{"hotspots", hot, 0, 1, func(c string) string { return c[strings.Index(c, ": ")+2:] }},
		{"hotspots two series", hot, 0, 2, func(c string) string { return c[strings.Index(c, ": ")+2:] }},
		{"hotspots fixed width", hot, 640, 1, func(c string) string { return c[strings.LastIndex(c, ".")+1:] }},
		{"one huge label", []string{huge, "short"}, 0, 1, func(c string) string { return c[strings.LastIndex(c, ".")+1:] }},
		{"many", func() []string {
			var cs []string
			for i := 0; i < 30; i++ {
				cs = append(cs, hot[i%len(hot)]+strconv.Itoa(i))
			}
			return cs
		}(), 0, 1, func(c string) string { return c[strings.LastIndex(c, ".")+1:] }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &BarChart{Title: "Top methods by exclusive wall time", Categories: tt.cats, YLabel: "ms", XLabel: "cell: method", Width: tt.width}
			for s := 0; s < tt.series; s++ {
				vals := make([]float64, len(tt.cats))
				for i := range vals {
					vals[i] = float64(len(tt.cats)-i) + float64(s)
				}
				b.Series = append(b.Series, Series{Name: "s" + strconv.Itoa(s), Values: vals})
			}
			data := b.SVG()
			writeOut("labels_"+tt.name, data)
			svg := parseTree(t, data)
			w, h := svg.f(t, "width"), svg.f(t, "height")
			if tt.width > 0 && w != float64(tt.width) {
				t.Errorf("width %v, want %d", w, tt.width)
			}
			labels := svg.group(t, "categories").all(func(k *node) bool { return k.name == "text" })
			if len(labels) != len(tt.cats) {
				t.Fatalf("%d category labels, want %d", len(labels), len(tt.cats))
			}
			bs := bars(t, svg)
			plotLeft := math.Inf(1)
			for _, br := range bs {
				plotLeft = math.Min(plotLeft, br.x)
				if br.x < 0 || br.y < 0 || br.x+br.w > w+0.01 || br.y+br.h > h+0.01 {
					t.Errorf("bar %+v outside the %vx%v canvas", br, w, h)
				}
			}
			type box struct{ top, bottom float64 }
			var boxes []box
			for i, l := range labels {
				// The full name is the tooltip; the visible text shows the
				// part that tells methods apart.
				if l.title() != tt.cats[i] {
					t.Errorf("label %d tooltip %q, want %q", i, l.title(), tt.cats[i])
				}
				lines := l.all(func(k *node) bool { return k.name == "tspan" })
				if len(lines) == 0 {
					lines = []*node{l}
				}
				var shown []string
				for _, ln := range lines {
					shown = append(shown, ln.text)
					// Right-aligned at x: it must start inside the canvas
					// and end left of the bars.
					x := l.f(t, "x")
					if ln.attr["x"] != "" {
						x = ln.f(t, "x")
					}
					if l.attr["text-anchor"] != "end" {
						t.Fatalf("label anchor %q, want end", l.attr["text-anchor"])
					}
					if x-textWidth(ln.text) < 0 || x > plotLeft {
						t.Errorf("label line %q spans %.1f..%.1f, outside 0..%.1f", ln.text, x-textWidth(ln.text), x, plotLeft)
					}
				}
				if want := tt.visible(tt.cats[i]); !strings.Contains(strings.Join(shown, ""), want) {
					t.Errorf("label %d shows %q, which lacks %q", i, shown, want)
				}
				y := l.f(t, "y")
				boxes = append(boxes, box{y - fontSize, y + float64(len(lines)-1)*lineHeight})
			}
			for i := 1; i < len(boxes); i++ {
				if boxes[i].top < boxes[i-1].bottom+2 {
					t.Errorf("labels %d and %d overlap: %v %v", i-1, i, boxes[i-1], boxes[i])
				}
			}
		})
	}
}

// writeOut keeps a chart in $CHART_OUT, for looking at it.
func writeOut(name string, data []byte) {
	if dir := os.Getenv("CHART_OUT"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".svg"), data, 0o644)
	}
}

func TestWrapLabel(t *testing.T) {
	w := func(runes int) float64 { return float64(runes) * charWidth }
	tests := []struct {
		s     string
		width float64
		lines int
		want  []string
	}{
		{"short", w(10), 2, []string{"short"}},
		{"cell a=1: pkg.Class.method", w(16), 2, []string{"cell a=1:", "pkg.Class.method"}},
		{"one two three four", w(10), 2, []string{"one two", "three four"}},
		{"a.b.c.d.e.f.g.h", w(8), 2, []string{"a.b.c.d.", "e.f.g.h"}},
		{"cell a=1: pkg.Class.method", w(12), 1, []string{"…method"}},
		{"cell a=1: com.example.Outer$Inner.method", w(16), 2, []string{"cell a=1: com.", "…Inner.method"}},
		{"abcdefghijklmnopqrstuvwxyz", w(10), 2, []string{"abcdefghij", "…rstuvwxyz"}},
	}
	for _, tt := range tests {
		got := wrapLabel(tt.s, tt.width, tt.lines)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("wrapLabel(%q, %v runes, %d) = %q, want %q", tt.s, tt.width/charWidth, tt.lines, got, tt.want)
		}
		for _, l := range got {
			if textWidth(l) > tt.width+0.01 {
				t.Errorf("wrapLabel(%q): line %q is wider than %v runes", tt.s, l, tt.width/charWidth)
			}
		}
	}
}
