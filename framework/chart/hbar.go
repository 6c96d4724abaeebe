package chart

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

const (
	// maxAutoWidth is the widest a horizontal bar chart grows, when its
	// Width is 0, to fit long labels (a report column is ~1150 px).
	maxAutoWidth = 960
	// labelShare is the largest share of the width for the label column.
	labelShare = 0.45
	// minPlotWidth is the plot width a growing chart keeps for its bars.
	minPlotWidth = 320
	// lineHeight is the distance between the lines of a wrapped label.
	lineHeight = 14
	// maxLabelLines is how many lines a category label wraps onto.
	maxLabelLines = 2
)

// horizontalSVG draws the bars left to right, one category per row, with
// each label right-aligned in a column sized to the longest one. A label
// wider than the column wraps onto a second line at a space or punctuation
// and, if still too long, loses its middle to an ellipsis; the full label
// is its tooltip.
func (b *BarChart) horizontalSVG(x valueAxis, isLog bool) []byte {
	vTitle := valueTitle(b.YLabel, b.Unit, isLog)
	names := seriesNames(b.Series)
	legendW := 0.0
	if len(names) > 1 || len(names) == 1 && names[0] != "" {
		for _, n := range names {
			legendW = math.Max(legendW, textWidth(truncate(n, 28)))
		}
		legendW += 24 + 8
	}
	// The last tick label is centred on the right end of the plot.
	ticks := x.ticks()
	overhang := 0.0
	if len(ticks) > 0 {
		overhang = textWidth(x.label(ticks[len(ticks)-1])) / 2
	}
	leftPad := 12.0
	if b.XLabel != "" {
		leftPad += fontSize + 8
	}
	maxLabel := 0.0
	for _, cat := range b.Categories {
		maxLabel = math.Max(maxLabel, textWidth(cat))
	}

	f := frame{w: float64(b.Width)}
	var col float64
	if f.w > 0 {
		col = math.Min(maxLabel, labelShare*f.w)
	} else {
		col = math.Min(maxLabel, labelShare*maxAutoWidth)
		need := leftPad + col + 8 + minPlotWidth + math.Max(overhang, legendW) + 16
		f.w = math.Max(defaultWidth, math.Min(math.Ceil(need), maxAutoWidth))
	}
	f.left = leftPad + col + 8
	f.right = f.w - 16 - math.Max(overhang, legendW)
	f.top = 16
	if b.Title != "" {
		f.top += titleSize + 12
	}
	bottomPad := 12.0 + fontSize + 8 // tick labels
	if vTitle != "" {
		bottomPad += fontSize + 8
	}

	n := max(len(b.Categories), 1)
	ns := max(len(b.Series), 1)
	lines := maxLabelLines
	wrapped := wrapAll(b.Categories, col, lines)
	used := 1
	for _, l := range wrapped {
		used = max(used, len(l))
	}
	var band float64
	if b.Height > 0 {
		f.h = float64(b.Height)
		band = (f.h - bottomPad - f.top) / float64(n)
		if band < float64(used)*lineHeight+4 && used > 1 {
			wrapped, used = wrapAll(b.Categories, col, 1), 1
		}
	} else {
		band = math.Max(math.Max(float64(ns)*14/0.8, float64(used)*lineHeight+10), 24)
		f.h = math.Ceil(f.top + float64(n)*band + bottomPad)
	}
	f.bottom = f.top + float64(n)*band

	var c canvas
	c.open(f.w, f.h, b.Title)
	if b.Title != "" {
		c.printf(`<text x="%s" y="%s" text-anchor="middle" font-size="%d" font-weight="bold">%s</text>`+"\n",
			num(f.w/2), num(float64(16+titleSize)), titleSize, esc(b.Title))
	}

	// The value axis along the bottom, its grid lines across the plot.
	c.WriteString(`<g class="x-axis value-axis">` + "\n")
	for _, t := range x.minorTicks() {
		px := x.pos(t, f.left, f.right)
		c.line(px, f.top, px, f.bottom, "#f0f0f0", 1)
	}
	for _, t := range ticks {
		px := x.pos(t, f.left, f.right)
		c.line(px, f.top, px, f.bottom, "#e0e0e0", 1)
		c.text(px, f.bottom+16, "middle", "", x.label(t))
	}
	c.line(f.left, f.bottom, f.right, f.bottom, "#333333", 1)
	c.WriteString("</g>\n")
	if vTitle != "" {
		c.text((f.left+f.right)/2, f.bottom+16+fontSize+10, "middle", "", vTitle)
	}
	if b.XLabel != "" {
		px, py := 12+float64(fontSize)/2+2, (f.top+f.bottom)/2
		c.text(px, py, "middle", fmt.Sprintf(` transform="rotate(-90 %s %s)"`, num(px), num(py)), b.XLabel)
	}

	groupH := band * 0.8
	barH := groupH / float64(ns)
	base := x.pos(x.base(), f.left, f.right)
	c.WriteString(`<g class="bars">` + "\n")
	for ci, cat := range b.Categories {
		y0 := f.top + float64(ci)*band + (band-groupH)/2
		for si, s := range b.Series {
			v := at(s.Values, ci)
			if !finite(v) {
				continue
			}
			y := y0 + float64(si)*barH
			px := x.pos(v, f.left, f.right)
			c.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n",
				num(math.Min(px, base)), num(y+0.5), num(math.Abs(px-base)), num(math.Max(barH-1, 1)), Palette[si%len(Palette)],
				esc(barTooltip(s.Name, cat, v, at(s.Lo, ci), at(s.Hi, ci), b.Unit)))
			if isLog && v <= 0 {
				c.text(base+3, y+barH/2+4, "start", ` font-size="10" fill="#666666"`, formatValue(v))
			}
			lo, hi := at(s.Lo, ci), at(s.Hi, ci)
			if finite(lo) && finite(hi) {
				plo, phi, cy, half := x.pos(lo, f.left, f.right), x.pos(hi, f.left, f.right), y+barH/2, math.Min(barH/4, 6)
				c.line(plo, cy, phi, cy, "#222222", 1)
				c.line(plo, cy-half, plo, cy+half, "#222222", 1)
				c.line(phi, cy-half, phi, cy+half, "#222222", 1)
			}
		}
	}
	c.WriteString("</g>\n")
	c.line(base, f.top, base, f.bottom, "#333333", 1)

	c.WriteString(`<g class="y-axis categories">` + "\n")
	lx := f.left - 8
	for ci, cat := range b.Categories {
		ls := wrapped[ci]
		// The block of lines is centred on the row.
		y := f.top + (float64(ci)+0.5)*band + fontSize/2 - 2 - float64(len(ls)-1)*lineHeight/2
		c.printf(`<text x="%s" y="%s" text-anchor="end"><title>%s</title>`, num(lx), num(y), esc(cat))
		if len(ls) == 1 {
			c.WriteString(esc(ls[0]))
		} else {
			for i, l := range ls {
				c.printf(`<tspan x="%s" y="%s">%s</tspan>`, num(lx), num(y+float64(i)*lineHeight), esc(l))
			}
		}
		c.WriteString("</text>\n")
	}
	c.WriteString("</g>\n")
	c.drawLegend(f, b.Series, false)
	c.close()
	return c.Bytes()
}

func wrapAll(cats []string, width float64, lines int) [][]string {
	out := make([][]string, len(cats))
	for i, c := range cats {
		out[i] = wrapLabel(c, width, lines)
	}
	return out
}

// wrapLabel splits s into at most maxLines lines no wider than width. It
// breaks after a space (preferred) or punctuation common in names (". , : ;
// / $ = _ - ("). What does not fit is cut from the middle, keeping the end,
// which names the method or cell that tells labels apart.
func wrapLabel(s string, width float64, maxLines int) []string {
	if textWidth(s) <= width {
		return []string{s}
	}
	r := []rune(s)
	fits := func(rs []rune) bool { return textWidth(string(rs)) <= width }
	trim := func(rs []rune) string { return strings.TrimSpace(string(rs)) }
	// breaks are the indices a line may end before, with their priority:
	// after a separator (": ", ", ", "; "), a space, punctuation.
	type brk struct{ at, prio int }
	var breaks []brk
	for i := 1; i < len(r); i++ {
		switch {
		case r[i-1] == ' ' && i >= 2 && strings.ContainsRune(":,;", r[i-2]):
			breaks = append(breaks, brk{i, 3})
		case r[i-1] == ' ':
			breaks = append(breaks, brk{i, 2})
		case strings.ContainsRune(".,:;/$=_-(", r[i-1]):
			breaks = append(breaks, brk{i, 1})
		}
	}
	if maxLines >= 2 {
		// Two lines that hold all of it: the best break, then the most
		// even split.
		best, bestLonger := -1, 0
		for i, b := range breaks {
			first, second := []rune(trim(r[:b.at])), []rune(trim(r[b.at:]))
			if !fits(first) || !fits(second) {
				continue
			}
			longer := max(len(first), len(second))
			if best < 0 || b.prio > breaks[best].prio || b.prio == breaks[best].prio && longer < bestLonger {
				best, bestLonger = i, longer
			}
		}
		if best >= 0 {
			return []string{trim(r[:breaks[best].at]), trim(r[breaks[best].at:])}
		}
	}
	// The end, after an ellipsis, on the last line.
	tail := func(room float64) string {
		for _, b := range breaks {
			if t := trim(r[b.at:]); textWidth("…"+t) <= room {
				return "…" + t
			}
		}
		n := max(int(room/charWidth)-1, 1)
		return "…" + string(r[len(r)-n:])
	}
	if maxLines < 2 {
		return []string{tail(width)}
	}
	last := tail(width)
	// The beginning, up to the last break that fits, on the first line.
	first := ""
	for i := len(breaks) - 1; i >= 0; i-- {
		if t := trim(r[:breaks[i].at]); fits([]rune(t)) {
			first = t
			break
		}
	}
	if first == "" {
		n := max(int(width/charWidth), 1)
		first = string(r[:n])
	}
	// Nothing is lost when the first line and the tail meet.
	if utf8.RuneCountInString(first)+utf8.RuneCountInString(last)-1 >= len(r) {
		last = trim(r[len([]rune(first)):])
	}
	return []string{first, last}
}
