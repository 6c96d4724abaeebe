// Package chart draws small, dependency-free SVG charts for plugins and run
// reports: a grouped bar chart, a line chart and a heat map. Bars that differ by more
// than LogRatio get a logarithmic axis, and long category labels horizontal
// bars, so that neither small bars nor names are lost.
//
// Output is deterministic (the same chart gives the same bytes), is valid
// XML, and escapes every text. It has no XML declaration, so it can be
// written to a .svg file or embedded inline in an HTML page as it is.
package chart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Series is one named set of values.
type Series struct {
	Name string
	// Values has one value per category (bar chart, categorical line
	// chart) or per X (numeric line chart). NaN marks a missing value.
	Values []float64
	// X are the x coordinates of a numeric line chart; unused otherwise.
	X []float64
	// Lo and Hi, if set, are absolute bounds of an error bar per value
	// (e.g. a confidence interval). A NaN or infinite bound draws no bar.
	Lo, Hi []float64
}

// Palette is the colour cycle of the series (Okabe–Ito, readable by
// colour-blind readers).
var Palette = []string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"}

const (
	defaultWidth  = 640
	defaultHeight = 400
	fontSize      = 12
	titleSize     = 14
	charWidth     = 7.2 // generous average glyph width at fontSize, for layout
)

// frame is the geometry shared by both chart kinds.
type frame struct {
	w, h                     float64
	left, right, top, bottom float64 // plot area edges
}

func (f frame) plotW() float64 { return f.right - f.left }
func (f frame) plotH() float64 { return f.bottom - f.top }

// canvas accumulates SVG markup.
type canvas struct{ bytes.Buffer }

func (c *canvas) printf(format string, args ...any) { fmt.Fprintf(&c.Buffer, format, args...) }

// text writes a <text> element with escaped content.
func (c *canvas) text(x, y float64, anchor, extra, s string) {
	c.printf(`<text x="%s" y="%s" text-anchor="%s"%s>%s</text>`+"\n", num(x), num(y), anchor, extra, esc(s))
}

func (c *canvas) line(x1, y1, x2, y2 float64, stroke string, width float64) {
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"/>`+"\n",
		num(x1), num(y1), num(x2), num(y2), stroke, num(width))
}

func (c *canvas) open(w, h float64, title string) {
	c.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="%d" role="img">`+"\n",
		num(w), num(h), num(w), num(h), fontSize)
	if title != "" {
		c.printf("<title>%s</title>\n", esc(title))
	}
	c.printf(`<rect width="%s" height="%s" fill="#ffffff"/>`+"\n", num(w), num(h))
}

func (c *canvas) close() { c.WriteString("</svg>\n") }

// esc escapes s for XML text and attribute values; characters XML cannot
// hold become U+FFFD.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // never fails on a strings.Builder
	return b.String()
}

// num formats a coordinate compactly and deterministically.
func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "0"
	}
	s := strconv.FormatFloat(x, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func textWidth(s string) float64 { return float64(len([]rune(s))) * charWidth }

func truncate(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "…"
}

// niceNum rounds x to 1, 2, 5 or 10 times a power of ten (Heckbert's "nice
// numbers"), to the nearest one if round, else to the next larger one.
func niceNum(x float64, round bool) float64 {
	if x <= 0 || !finite(x) {
		return 1
	}
	exp := math.Floor(math.Log10(x))
	f := x / math.Pow(10, exp)
	var nf float64
	if round {
		switch {
		case f < 1.5:
			nf = 1
		case f < 3:
			nf = 2
		case f < 7:
			nf = 5
		default:
			nf = 10
		}
	} else {
		switch {
		case f <= 1:
			nf = 1
		case f <= 2:
			nf = 2
		case f <= 5:
			nf = 5
		default:
			nf = 10
		}
	}
	return nf * math.Pow(10, exp)
}

// axis is a linear value axis with nice ticks.
type axis struct {
	lo, hi, step float64
}

// niceAxis returns an axis covering [lo, hi] with about n ticks on round
// numbers.
func niceAxis(lo, hi float64, n int) axis {
	if !finite(lo) || !finite(hi) {
		lo, hi = 0, 1
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	if lo == hi {
		if lo == 0 {
			hi = 1
		} else {
			d := math.Abs(lo) * 0.1
			lo, hi = lo-d, hi+d
		}
	}
	step := niceNum(niceNum(hi-lo, false)/float64(n-1), true)
	return axis{lo: math.Floor(lo/step) * step, hi: math.Ceil(hi/step) * step, step: step}
}

// ticks returns the tick values; they are computed from integers so that
// they are exact multiples of the step.
func (a axis) ticks() []float64 {
	first := math.Round(a.lo / a.step)
	last := math.Round(a.hi / a.step)
	var t []float64
	for i := first; i <= last && len(t) < 100; i++ {
		t = append(t, i*a.step)
	}
	return t
}

// label formats a tick value with as many decimals as the step needs, and an
// SI prefix for large magnitudes.
func (a axis) label(v float64) string {
	if v == 0 {
		return "0"
	}
	scale, prefix := 1.0, ""
	m := math.Max(math.Abs(a.lo), math.Abs(a.hi))
	for _, p := range []struct {
		f float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e4, "k"}} {
		if m >= p.f {
			scale, prefix = p.f, p.s
			if p.s == "k" {
				scale = 1e3
			}
			break
		}
	}
	step := a.step / scale
	decimals := 0
	if step < 1 {
		decimals = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	return strconv.FormatFloat(v/scale, 'f', decimals, 64) + prefix
}

// pos maps a value to a pixel coordinate between p0 (at lo) and p1 (at hi).
func (a axis) pos(v, p0, p1 float64) float64 {
	return p0 + (v-a.lo)/(a.hi-a.lo)*(p1-p0)
}

func (a axis) clamp(v float64) float64 { return math.Max(a.lo, math.Min(a.hi, v)) }

// base is where bars start: zero, which a bar chart's axis always includes.
func (a axis) base() float64 { return a.clamp(0) }

func (a axis) minorTicks() []float64 { return nil }

// valueAxis maps values to pixels along a value axis, linear (axis) or
// logarithmic (logAxis).
type valueAxis interface {
	ticks() []float64
	// minorTicks are drawn as faint grid lines without labels.
	minorTicks() []float64
	label(v float64) string
	// pos maps v, clamped to the axis, to a pixel between p0 and p1.
	pos(v, p0, p1 float64) float64
	clamp(v float64) float64
	base() float64
}

// layout computes the frame for a chart with a title, a legend of the given
// names on the right, y tick labels and x labels.
func layout(w, h int, title string, names []string, yLabels []string, yTitle, xTitle string, xLabelHeight float64) frame {
	f := frame{w: float64(w), h: float64(h)}
	if f.w <= 0 {
		f.w = defaultWidth
	}
	if f.h <= 0 {
		f.h = defaultHeight
	}
	f.top = 16
	if title != "" {
		f.top += titleSize + 12
	}
	maxTick := 0.0
	for _, l := range yLabels {
		maxTick = math.Max(maxTick, textWidth(l))
	}
	f.left = 12 + maxTick + 8
	if yTitle != "" {
		f.left += fontSize + 8
	}
	f.right = f.w - 16
	if len(names) > 1 || len(names) == 1 && names[0] != "" {
		maxName := 0.0
		for _, n := range names {
			maxName = math.Max(maxName, textWidth(truncate(n, 28)))
		}
		f.right -= 24 + maxName + 8
	}
	f.bottom = f.h - 12 - xLabelHeight
	if xTitle != "" {
		f.bottom -= fontSize + 8
	}
	return f
}

// drawFrame draws the title, the y axis with grid lines and its title, and
// the x axis title.
func (c *canvas) drawFrame(f frame, title string, y valueAxis, yTitle, xTitle string) {
	if title != "" {
		c.printf(`<text x="%s" y="%s" text-anchor="middle" font-size="%d" font-weight="bold">%s</text>`+"\n",
			num(f.w/2), num(float64(16+titleSize)), titleSize, esc(title))
	}
	c.WriteString(`<g class="y-axis value-axis">` + "\n")
	for _, t := range y.minorTicks() {
		py := y.pos(t, f.bottom, f.top)
		c.line(f.left, py, f.right, py, "#f0f0f0", 1)
	}
	for _, t := range y.ticks() {
		py := y.pos(t, f.bottom, f.top)
		c.line(f.left, py, f.right, py, "#e0e0e0", 1)
		c.text(f.left-6, py+4, "end", "", y.label(t))
	}
	c.line(f.left, f.top, f.left, f.bottom, "#333333", 1)
	c.WriteString("</g>\n")
	if yTitle != "" {
		x, yy := 12+float64(fontSize)/2+2, (f.top+f.bottom)/2
		c.text(x, yy, "middle", fmt.Sprintf(` transform="rotate(-90 %s %s)"`, num(x), num(yy)), yTitle)
	}
	if xTitle != "" {
		c.text((f.left+f.right)/2, f.h-12, "middle", "", xTitle)
	}
}

// drawLegend draws one entry per series to the right of the plot area.
func (c *canvas) drawLegend(f frame, series []Series, line bool) {
	if len(series) == 0 || len(series) == 1 && series[0].Name == "" {
		return
	}
	c.WriteString(`<g class="legend">` + "\n")
	x := f.right + 16
	for i, s := range series {
		y := f.top + 8 + float64(i)*18
		col := Palette[i%len(Palette)]
		if line {
			c.line(x, y, x+14, y, col, 2)
			c.printf(`<circle cx="%s" cy="%s" r="3" fill="%s"/>`+"\n", num(x+7), num(y), col)
		} else {
			c.printf(`<rect x="%s" y="%s" width="12" height="12" fill="%s"/>`+"\n", num(x), num(y-6), col)
		}
		c.text(x+20, y+4, "start", "", truncate(s.Name, 28))
	}
	c.WriteString("</g>\n")
}

// drawErrorBar draws a vertical error bar from lo to hi at x.
func (c *canvas) drawErrorBar(y valueAxis, f frame, x, half, lo, hi float64) {
	if !finite(lo) || !finite(hi) {
		return
	}
	plo, phi := y.pos(y.clamp(lo), f.bottom, f.top), y.pos(y.clamp(hi), f.bottom, f.top)
	c.line(x, plo, x, phi, "#222222", 1)
	c.line(x-half, plo, x+half, plo, "#222222", 1)
	c.line(x-half, phi, x+half, phi, "#222222", 1)
}

// valueRange returns the range of all finite values and error bounds.
func valueRange(series []Series) (lo, hi float64, any bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	visit := func(v float64) {
		if finite(v) {
			lo, hi, any = math.Min(lo, v), math.Max(hi, v), true
		}
	}
	for _, s := range series {
		for i, v := range s.Values {
			if !finite(v) {
				continue
			}
			visit(v)
			if i < len(s.Lo) && i < len(s.Hi) && finite(s.Lo[i]) && finite(s.Hi[i]) {
				visit(s.Lo[i])
				visit(s.Hi[i])
			}
		}
	}
	return lo, hi, any
}

func at(xs []float64, i int) float64 {
	if i < len(xs) {
		return xs[i]
	}
	return math.NaN()
}

func formatValue(v float64) string {
	return strconv.FormatFloat(v, 'g', 6, 64)
}

func seriesNames(series []Series) []string {
	names := make([]string, len(series))
	for i, s := range series {
		names[i] = s.Name
	}
	return names
}

func tickLabels(a valueAxis) []string {
	var l []string
	for _, t := range a.ticks() {
		l = append(l, a.label(t))
	}
	return l
}

// yTitle combines an axis label and a unit: "latency (ms)".
func yTitle(label, unit string) string {
	switch {
	case label != "" && unit != "":
		return label + " (" + unit + ")"
	case unit != "":
		return unit
	}
	return label
}
