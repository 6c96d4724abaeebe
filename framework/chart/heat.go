package chart

import (
	"fmt"
	"math"
	"strconv"
)

// HeatMap colours a grid of values: one cell per (column, row), e.g. an
// instruction's cost over the magnitudes of its two operands.
type HeatMap struct {
	Title   string
	Columns []string    // the x categories, left to right
	Rows    []string    // the y categories, bottom to top
	Values  [][]float64 // Values[row][column]; NaN: no value
	XLabel  string
	YLabel  string
	Unit    string // of the values, in the legend
	Width   int    // pixels; 640 if 0
	Height  int    // pixels; 400 if 0
}

// heatRamp runs from light to dark blue through the palette's blue;
// readable in grey and by colour-blind readers.
var heatRamp = [][3]float64{{0xf7, 0xfb, 0xff}, {0x9e, 0xca, 0xe1}, {0x42, 0x92, 0xc6}, {0x08, 0x30, 0x6b}}

func heatColour(f float64) string {
	f = math.Max(0, math.Min(1, f))
	seg := f * float64(len(heatRamp)-1)
	i := int(math.Min(seg, float64(len(heatRamp)-2)))
	t := seg - float64(i)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(heatRamp[i][k] + t*(heatRamp[i+1][k]-heatRamp[i][k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// SVG renders the heat map, each cell labelled with its value.
func (h *HeatMap) SVG() []byte {
	w, ht := float64(h.Width), float64(h.Height)
	if w == 0 {
		w = defaultWidth
	}
	if ht == 0 {
		ht = defaultHeight
	}
	rowLabel := 0
	for _, r := range h.Rows {
		rowLabel = max(rowLabel, len([]rune(r)))
	}
	f := frame{w: w, h: ht, left: 30 + float64(rowLabel)*charWidth, right: w - 90, top: 40, bottom: ht - 50}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range h.Values {
		for _, v := range row {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	var c canvas
	c.open(w, ht, h.Title)
	c.text(w/2, 20, "middle", fmt.Sprintf(` font-size="%d" font-weight="bold"`, titleSize), h.Title)
	nc, nr := len(h.Columns), len(h.Rows)
	if nc > 0 && nr > 0 {
		cw, ch := f.plotW()/float64(nc), f.plotH()/float64(nr)
		for r := 0; r < nr; r++ {
			y := f.bottom - float64(r+1)*ch
			c.text(f.left-6, y+ch/2+4, "end", "", h.Rows[r])
			for col := 0; col < nc; col++ {
				x := f.left + float64(col)*cw
				v := math.NaN()
				if r < len(h.Values) && col < len(h.Values[r]) {
					v = h.Values[r][col]
				}
				fill, label, ink := "#eeeeee", "–", "#000000"
				if finite(v) {
					frac := 0.0
					if hi > lo {
						frac = (v - lo) / (hi - lo)
					}
					fill, label = heatColour(frac), compact(v)
					if frac > 0.55 {
						ink = "#ffffff"
					}
				}
				c.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#ffffff"/>`+"\n", num(x), num(y), num(cw), num(ch), fill)
				if cw >= float64(len(label))*charWidth*0.8 {
					c.text(x+cw/2, y+ch/2+4, "middle", fmt.Sprintf(` fill="%s"`, ink), label)
				}
			}
		}
		for col := 0; col < nc; col++ {
			c.text(f.left+(float64(col)+0.5)*cw, f.bottom+16, "middle", "", h.Columns[col])
		}
	}
	c.text((f.left+f.right)/2, ht-12, "middle", "", h.XLabel)
	c.printf(`<text x="14" y="%s" text-anchor="middle" transform="rotate(-90 14 %s)">%s</text>`+"\n", num((f.top+f.bottom)/2), num((f.top+f.bottom)/2), esc(h.YLabel))
	// The legend: the ramp from lo (bottom) to hi (top).
	lx, steps := f.right+20, 20
	for i := 0; i < steps; i++ {
		y := f.bottom - float64(i+1)*f.plotH()/float64(steps)
		c.printf(`<rect x="%s" y="%s" width="16" height="%s" fill="%s"/>`+"\n", num(lx), num(y), num(f.plotH()/float64(steps)+0.5), heatColour((float64(i)+0.5)/float64(steps)))
	}
	unit := ""
	if h.Unit != "" {
		unit = " " + h.Unit
	}
	c.text(lx+20, f.top+10, "start", "", compact(hi)+unit)
	c.text(lx+20, f.bottom, "start", "", compact(lo)+unit)
	c.close()
	return c.Bytes()
}

// compact is a value in three significant digits, for a cell.
func compact(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
