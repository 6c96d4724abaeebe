package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// view is a Comparison with every number formatted, shared by the text,
// Markdown and HTML renderers.
type view struct {
	OldLabel, NewLabel string
	Alpha, Confidence  string
	Groups             []groupView
	Footnotes          []string // row warnings, numbered from 1
	Warnings           []string // run-level warnings
}

type groupView struct {
	Unit string
	Rows []rowView
}

type rowView struct {
	Name         string // metric key
	Old, OldCI   string // "12.34", "3%" / "∞"
	New, NewCI   string
	Delta        string // "~", "+20.00%"
	Note         string // "p=0.002 n=6"
	Verdict      string // "better", "worse", ""
	Change       int
	Footnotes    []int
	IsGeomean    bool
	GeomeanNotes string
}

func (r rowView) FootnoteMarks() string {
	marks := make([]string, len(r.Footnotes))
	for i, n := range r.Footnotes {
		marks[i] = superscript(n)
	}
	return strings.Join(marks, " ")
}

func newView(c *Comparison) view {
	v := view{
		OldLabel:   "old " + c.Old.Label(),
		NewLabel:   "new " + c.New.Label(),
		Alpha:      strconv.FormatFloat(c.Alpha, 'g', -1, 64),
		Confidence: strconv.FormatFloat(c.Confidence*100, 'g', -1, 64) + "%",
		Warnings:   c.Warnings,
	}
	footnote := map[string]int{}
	note := func(msgs []string) []int {
		var ids []int
		for _, m := range msgs {
			id, ok := footnote[m]
			if !ok {
				v.Footnotes = append(v.Footnotes, m)
				id = len(v.Footnotes)
				footnote[m] = id
			}
			ids = append(ids, id)
		}
		return ids
	}
	for _, g := range c.Groups {
		gv := groupView{Unit: g.Unit}
		bin := binaryUnit(g.Unit)
		for _, r := range g.Rows {
			sc := commonScale([]float64{r.Old.Median, r.New.Median}, bin)
			gv.Rows = append(gv.Rows, rowView{
				Name:      r.Key,
				Old:       sc.format(r.Old.Median),
				OldCI:     r.Old.CIString(),
				New:       sc.format(r.New.Median),
				NewCI:     r.New.CIString(),
				Delta:     r.DeltaText,
				Note:      r.Note(),
				Verdict:   r.Verdict(),
				Change:    r.Change,
				Footnotes: note(r.Warnings),
			})
		}
		if gm := g.Geomean; gm != nil {
			sc := commonScale([]float64{gm.Old, gm.New}, bin)
			rv := rowView{Name: "geomean", Old: sc.format(gm.Old), New: sc.format(gm.New),
				Delta: fmt.Sprintf("%+.2f%%", gm.Delta), IsGeomean: true}
			if gm.Skipped > 0 {
				rv.Footnotes = note([]string{"geomean leaves out rows with non-positive medians"})
			}
			gv.Rows = append(gv.Rows, rv)
		}
		v.Groups = append(v.Groups, gv)
	}
	return v
}

var superDigits = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

func superscript(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for _, d := range s {
		b.WriteRune(superDigits[d-'0'])
	}
	return b.String()
}

// binaryUnit reports whether values of unit are scaled by powers of 1024
// (bytes), as benchstat does for "B" and "bytes" units.
func binaryUnit(unit string) bool {
	u := strings.SplitN(unit, "/", 2)[0]
	return u == "B" || u == "bytes"
}

// scaler formats the values of a row with a common prefix and precision, the
// way benchstat does: the smallest value gets at least 4 significant digits
// ("12.34", "1.235k", "512.0Mi").
type scaler struct {
	prec   int
	factor float64
	prefix string
}

type prefix struct {
	factor float64
	name   string
}

var (
	siPrefixes  = []prefix{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}}
	iecPrefixes = []prefix{{1 << 40, "Ti"}, {1 << 30, "Gi"}, {1 << 20, "Mi"}, {1 << 10, "Ki"}, {1, ""}}
)

func commonScale(vals []float64, binary bool) scaler {
	smallest := 0.0
	for _, v := range vals {
		v = math.Abs(v)
		if v != 0 && !math.IsNaN(v) && !math.IsInf(v, 0) && (smallest == 0 || v < smallest) {
			smallest = v
		}
	}
	if smallest == 0 {
		return scaler{prec: 3, factor: 1}
	}
	prefixes := siPrefixes
	if binary {
		prefixes = iecPrefixes
	}
	for _, p := range prefixes {
		// Thresholds sit half a unit of the last digit below 100, 10, 1,
		// so that rounding never shows "100.00".
		switch x := smallest / p.factor; {
		case x >= 99.995:
			return scaler{1, p.factor, p.name}
		case x >= 9.9995:
			return scaler{2, p.factor, p.name}
		case x >= 0.99995:
			return scaler{3, p.factor, p.name}
		}
	}
	p := prefixes[len(prefixes)-1]
	x := smallest / p.factor
	prec := 3 + int(math.Ceil(-math.Log10(x)))
	return scaler{min(prec, 12), p.factor, p.name}
}

func (s scaler) format(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v/s.factor, 'f', s.prec, 64) + s.prefix
}

// Formatter returns a function that formats values of the unit with the
// scale and precision benchstat would pick for the reference values (the
// smallest non-zero one gets four significant digits): "12.34", "1.235k",
// "4.000Ki". NaN renders as "-".
func Formatter(unit string, ref ...float64) func(float64) string {
	return commonScale(ref, binaryUnit(unit)).format
}
