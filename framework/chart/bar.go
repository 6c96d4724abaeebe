package chart

import (
	"fmt"
	"math"
)

// BarChart is a grouped bar chart: one group of bars per category, one bar
// per series in each group. The value axis always includes zero.
type BarChart struct {
	Title      string
	Categories []string
	Series     []Series
	YLabel     string // value axis title; the unit is appended in parentheses
	Unit       string
	XLabel     string // category axis title
	Width      int    // pixels; 640 if 0
	Height     int    // pixels; 400 if 0
}

// SVG renders the chart.
func (b *BarChart) SVG() []byte {
	lo, hi, ok := valueRange(b.Series)
	if !ok {
		lo, hi = 0, 1
	}
	y := niceAxis(math.Min(lo, 0), math.Max(hi, 0), 6)

	// Category labels are rotated when they do not fit their band.
	maxLabel := 0.0
	for _, cat := range b.Categories {
		maxLabel = math.Max(maxLabel, textWidth(truncate(cat, 24)))
	}
	xLabelHeight := float64(fontSize) + 6
	f := layout(b.Width, b.Height, b.Title, seriesNames(b.Series), tickLabels(y), yTitle(b.YLabel, b.Unit), b.XLabel, xLabelHeight)
	n := max(len(b.Categories), 1)
	band := f.plotW() / float64(n)
	rotate := maxLabel > band-4
	if rotate {
		// Labels run down-left at 35°: make room below and on the left.
		sin, cos := math.Sin(35*math.Pi/180), math.Cos(35*math.Pi/180)
		xLabelHeight = math.Min(maxLabel*sin+fontSize+8, f.h/3)
		f = layout(b.Width, b.Height, b.Title, seriesNames(b.Series), tickLabels(y), yTitle(b.YLabel, b.Unit), b.XLabel, xLabelHeight)
		band = f.plotW() / float64(n)
		if need := 4 + maxLabel*cos - band/2; need > f.left {
			f.left = math.Min(need, f.w/3)
			band = f.plotW() / float64(n)
		}
	}

	var c canvas
	c.open(f.w, f.h, b.Title)
	c.drawFrame(f, b.Title, y, yTitle(b.YLabel, b.Unit), b.XLabel)

	ns := max(len(b.Series), 1)
	groupW := band * 0.8
	barW := groupW / float64(ns)
	zero := y.pos(0, f.bottom, f.top)
	c.WriteString(`<g class="bars">` + "\n")
	for ci, cat := range b.Categories {
		x0 := f.left + float64(ci)*band + (band-groupW)/2
		for si, s := range b.Series {
			v := at(s.Values, ci)
			if !finite(v) {
				continue
			}
			x := x0 + float64(si)*barW
			py := y.pos(v, f.bottom, f.top)
			top, h := math.Min(py, zero), math.Abs(zero-py)
			c.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n",
				num(x+0.5), num(top), num(math.Max(barW-1, 1)), num(h), Palette[si%len(Palette)],
				esc(barTooltip(s.Name, cat, v, at(s.Lo, ci), at(s.Hi, ci), b.Unit)))
			c.drawErrorBar(y, f, x+barW/2, math.Min(barW/4, 6), at(s.Lo, ci), at(s.Hi, ci))
		}
	}
	c.WriteString("</g>\n")
	c.line(f.left, zero, f.right, zero, "#333333", 1)

	// Category labels.
	c.WriteString(`<g class="x-axis">` + "\n")
	for ci, cat := range b.Categories {
		x := f.left + (float64(ci)+0.5)*band
		label := truncate(cat, 24)
		if rotate {
			yy := f.bottom + 14
			c.text(x, yy, "end", fmt.Sprintf(` transform="rotate(-35 %s %s)"`, num(x), num(yy)), label)
		} else {
			c.text(x, f.bottom+16, "middle", "", label)
		}
	}
	c.WriteString("</g>\n")
	c.drawLegend(f, b.Series, false)
	c.close()
	return c.Bytes()
}

func barTooltip(series, cat string, v, lo, hi float64, unit string) string {
	s := cat
	if series != "" {
		s = series + " / " + cat
	}
	s += ": " + formatValue(v)
	if unit != "" {
		s += " " + unit
	}
	if finite(lo) && finite(hi) {
		s += fmt.Sprintf(" [%s, %s]", formatValue(lo), formatValue(hi))
	}
	return s
}
