package chart

import (
	"math"
	"strings"
)

// LineChart draws one line per series. The x axis is categorical when
// Categories is set (each series has one value per category, evenly
// spaced), else numeric (each series has its own X).
type LineChart struct {
	Title      string
	Categories []string
	Series     []Series
	XLabel     string
	YLabel     string // the unit is appended in parentheses
	Unit       string
	// YFromZero makes the value axis start at zero (for positive data).
	YFromZero bool
	Width     int // pixels; 640 if 0
	Height    int // pixels; 400 if 0
}

// SVG renders the chart.
func (l *LineChart) SVG() []byte {
	lo, hi, ok := valueRange(l.Series)
	if !ok {
		lo, hi = 0, 1
	}
	if l.YFromZero {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	y := niceAxis(lo, hi, 6)

	categorical := len(l.Categories) > 0
	var x axis
	if !categorical {
		xlo, xhi := math.Inf(1), math.Inf(-1)
		for _, s := range l.Series {
			for i, v := range s.X {
				if finite(v) && finite(at(s.Values, i)) {
					xlo, xhi = math.Min(xlo, v), math.Max(xhi, v)
				}
			}
		}
		x = niceAxis(xlo, xhi, 8)
	}

	f := layout(l.Width, l.Height, l.Title, seriesNames(l.Series), tickLabels(y), yTitle(l.YLabel, l.Unit), l.XLabel, float64(fontSize)+6)
	var c canvas
	c.open(f.w, f.h, l.Title)
	c.drawFrame(f, l.Title, y, yTitle(l.YLabel, l.Unit), l.XLabel)

	// x position of the i-th point of a series.
	band := f.plotW() / float64(max(len(l.Categories), 1))
	xpos := func(s Series, i int) float64 {
		if categorical {
			return f.left + (float64(i)+0.5)*band
		}
		return x.pos(at(s.X, i), f.left, f.right)
	}

	// x axis: ticks and labels.
	c.WriteString(`<g class="x-axis">` + "\n")
	c.line(f.left, f.bottom, f.right, f.bottom, "#333333", 1)
	if categorical {
		for i, cat := range l.Categories {
			px := f.left + (float64(i)+0.5)*band
			c.line(px, f.bottom, px, f.bottom+4, "#333333", 1)
			c.text(px, f.bottom+16, "middle", "", truncate(cat, max(3, int(band/charWidth))))
		}
	} else {
		for _, t := range x.ticks() {
			px := x.pos(t, f.left, f.right)
			c.line(px, f.bottom, px, f.bottom+4, "#333333", 1)
			c.text(px, f.bottom+16, "middle", "", x.label(t))
		}
	}
	c.WriteString("</g>\n")

	c.WriteString(`<g class="lines">` + "\n")
	for si, s := range l.Series {
		col := Palette[si%len(Palette)]
		n := len(s.Values)
		if !categorical {
			n = min(n, len(s.X))
		} else {
			n = min(n, len(l.Categories))
		}
		// A missing value breaks the line.
		var path strings.Builder
		pen := false
		for i := 0; i < n; i++ {
			v := s.Values[i]
			px := xpos(s, i)
			if !finite(v) || !finite(px) {
				pen = false
				continue
			}
			cmd := "L"
			if !pen {
				cmd = "M"
			}
			path.WriteString(cmd + num(px) + " " + num(y.pos(v, f.bottom, f.top)) + " ")
			pen = true
		}
		if p := strings.TrimSpace(path.String()); p != "" {
			c.printf(`<path d="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", p, col)
		}
		for i := 0; i < n; i++ {
			v := s.Values[i]
			px := xpos(s, i)
			if !finite(v) || !finite(px) {
				continue
			}
			c.drawErrorBar(y, f, px, 4, at(s.Lo, i), at(s.Hi, i))
			label := ""
			if categorical {
				label = l.Categories[i]
			} else {
				label = formatValue(s.X[i])
			}
			c.printf(`<circle cx="%s" cy="%s" r="3" fill="%s"><title>%s</title></circle>`+"\n",
				num(px), num(y.pos(v, f.bottom, f.top)), col, esc(barTooltip(s.Name, label, v, at(s.Lo, i), at(s.Hi, i), l.Unit)))
		}
	}
	c.WriteString("</g>\n")
	c.drawLegend(f, l.Series, true)
	c.close()
	return c.Bytes()
}
