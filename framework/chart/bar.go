package chart

import (
	"fmt"
	"math"
)

// BarChart is a grouped bar chart: one group of bars per category, one bar
// per series in each group. A linear value axis always includes zero; when
// the values span more than LogRatio the axis is logarithmic (see Scale).
// Categories whose labels are too long to stand or lean under their bars
// are drawn as horizontal bars, with the labels in a column on the left.
type BarChart struct {
	Title      string
	Categories []string
	Series     []Series
	YLabel     string // value axis title; the unit is appended in parentheses
	Unit       string
	XLabel     string // category axis title
	Width      int    // pixels; 640 if 0 (horizontal bars: up to 960 to fit the labels)
	Height     int    // pixels; 400 if 0 (horizontal bars: as the categories need)
	// Scale selects a linear or logarithmic value axis; ScaleAuto if 0.
	Scale Scale
	// Horizontal draws horizontal bars whatever the label lengths.
	Horizontal bool
}

// maxLeaningRunes is the longest category label drawn at an angle under a
// vertical bar; longer ones make the chart horizontal.
const maxLeaningRunes = 24

// SVG renders the chart.
func (b *BarChart) SVG() []byte {
	y, isLog := chooseScale(b.Scale, b.Series)
	if b.Horizontal {
		return b.horizontalSVG(y, isLog)
	}
	vTitle := valueTitle(b.YLabel, b.Unit, isLog)

	// Category labels lean when they do not fit their band.
	maxLabel, maxRunes := 0.0, 0
	for _, cat := range b.Categories {
		maxLabel = math.Max(maxLabel, textWidth(cat))
		maxRunes = max(maxRunes, len([]rune(cat)))
	}
	xLabelHeight := float64(fontSize) + 6
	f := layout(b.Width, b.Height, b.Title, seriesNames(b.Series), tickLabels(y), vTitle, b.XLabel, xLabelHeight)
	n := max(len(b.Categories), 1)
	band := f.plotW() / float64(n)
	rotate := maxLabel > band-4
	if rotate && maxRunes > maxLeaningRunes {
		return b.horizontalSVG(y, isLog)
	}
	if rotate {
		// Labels run down-left at 35°: make room below and on the left.
		sin, cos := math.Sin(35*math.Pi/180), math.Cos(35*math.Pi/180)
		xLabelHeight = math.Min(maxLabel*sin+fontSize+8, f.h/3)
		f = layout(b.Width, b.Height, b.Title, seriesNames(b.Series), tickLabels(y), vTitle, b.XLabel, xLabelHeight)
		band = f.plotW() / float64(n)
		if need := 4 + maxLabel*cos - band/2; need > f.left {
			f.left = math.Min(need, f.w/3)
			band = f.plotW() / float64(n)
		}
	}

	var c canvas
	c.open(f.w, f.h, b.Title)
	c.drawFrame(f, b.Title, y, vTitle, b.XLabel)

	ns := max(len(b.Series), 1)
	groupW := band * 0.8
	barW := groupW / float64(ns)
	base := y.pos(y.base(), f.bottom, f.top)
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
			top, h := math.Min(py, base), math.Abs(base-py)
			c.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n",
				num(x+0.5), num(top), num(math.Max(barW-1, 1)), num(h), Palette[si%len(Palette)],
				esc(barTooltip(s.Name, cat, v, at(s.Lo, ci), at(s.Hi, ci), b.Unit)))
			if isLog && v <= 0 {
				// A log axis has no zero: say that the bar is missing
				// because it is zero.
				c.text(x+barW/2, base-3, "middle", ` font-size="10" fill="#666666"`, formatValue(v))
			}
			c.drawErrorBar(y, f, x+barW/2, math.Min(barW/4, 6), at(s.Lo, ci), at(s.Hi, ci))
		}
	}
	c.WriteString("</g>\n")
	c.line(f.left, base, f.right, base, "#333333", 1)

	// Category labels.
	c.WriteString(`<g class="x-axis categories">` + "\n")
	for ci, cat := range b.Categories {
		x := f.left + (float64(ci)+0.5)*band
		if rotate {
			yy := f.bottom + 14
			c.text(x, yy, "end", fmt.Sprintf(` transform="rotate(-35 %s %s)"`, num(x), num(yy)), cat)
		} else {
			c.text(x, f.bottom+16, "middle", "", cat)
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
