package compare

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteText renders c as aligned plain-text tables in benchstat's layout, one
// per unit:
//
//	                 │  old run-a   │               new run-b                │
//	                 │      ms      │     ms       vs base                   │
//	insert mode=wal    12.34 ± 3%     10.00 ± 2%  -18.96% (p=0.002 n=6) better
//	geomean            12.34          10.00       -18.96%
//
// followed by the numbered row warnings and the run-level warnings.
func WriteText(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	v := newView(c)
	fmt.Fprintf(bw, "old: %s\nnew: %s\n", describeRun(c.Old), describeRun(c.New))
	fmt.Fprintf(bw, "medians with %s confidence intervals; Mann–Whitney U test, α = %s\n", v.Confidence, v.Alpha)
	if len(v.Groups) == 0 {
		fmt.Fprintln(bw, "\nno metric is present in both runs")
	}
	for _, g := range v.Groups {
		bw.WriteString("\n")
		writeGroupText(bw, g, v.OldLabel, v.NewLabel)
	}
	if len(v.Footnotes) > 0 {
		bw.WriteString("\n")
		for i, f := range v.Footnotes {
			fmt.Fprintf(bw, "%s %s\n", superscript(i+1), f)
		}
	}
	if len(c.Rankings) > 0 {
		bw.WriteString("\nrankings:\n")
		for _, r := range c.Rankings {
			fmt.Fprintf(bw, "  %s: %s\n", r.Title(), r.Summary())
		}
	}
	if len(v.Warnings) > 0 {
		bw.WriteString("\nwarnings:\n")
		for _, wn := range v.Warnings {
			fmt.Fprintf(bw, "  - %s\n", wn)
		}
	}
	return bw.Flush()
}

func describeRun(r RunInfo) string {
	s := r.Label()
	if s == "" {
		s = "(unnamed run)"
	}
	var extra []string
	if r.Experiment != "" && r.Experiment != s {
		extra = append(extra, "experiment "+r.Experiment)
	}
	if !r.Started.IsZero() {
		extra = append(extra, "started "+r.Started.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	if r.Status != "" {
		extra = append(extra, r.Status)
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// Columns of a text row.
const (
	colName = iota
	colOld
	colOldCI
	colNew
	colNewCI
	colDelta
	colNote
	colVerdict
	colFoot
	numCols
)

func writeGroupText(w io.Writer, g groupView, oldLabel, newLabel string) {
	rows := make([][numCols]string, len(g.Rows))
	for i, r := range g.Rows {
		rows[i][colName] = r.Name
		rows[i][colOld] = r.Old
		rows[i][colNew] = r.New
		if !r.IsGeomean {
			rows[i][colOldCI] = "± " + r.OldCI
			rows[i][colNewCI] = "± " + r.NewCI
			rows[i][colNote] = "(" + r.Note + ")"
		}
		rows[i][colDelta] = r.Delta
		rows[i][colVerdict] = r.Verdict
		rows[i][colFoot] = r.FootnoteMarks()
	}
	var width [numCols]int
	for _, r := range rows {
		for c, s := range r {
			width[c] = max(width[c], runeLen(s))
		}
	}
	unit := g.Unit
	if unit == "" {
		unit = "(no unit)"
	}
	// Space before each column: one before "±" and the note, three (under
	// " │ ") between the runs, else two.
	gap := func(c int) int {
		switch c {
		case colOldCI, colNewCI, colNote:
			return 1
		case colNew:
			return 3
		}
		return 2
	}
	span := func(from, to int) int { // width of columns from..to with gaps
		n := 0
		for c := from; c <= to; c++ {
			n += width[c]
			if c > from {
				n += gap(c)
			}
		}
		return n
	}
	// Make the headings fit their spans.
	if d := runeLen(oldLabel) - span(colOld, colOldCI); d > 0 {
		width[colOldCI] += d
	}
	if d := max(runeLen(newLabel), runeLen(unit)+2+len("vs base")) - span(colNew, colFoot); d > 0 {
		width[colFoot] += d
	}
	if d := runeLen(unit) - span(colOld, colOldCI); d > 0 {
		width[colOldCI] += d
	}

	pad := strings.Repeat(" ", width[colName])
	fmt.Fprintf(w, "%s │ %s │ %s │\n", pad, center(oldLabel, span(colOld, colOldCI)), center(newLabel, span(colNew, colFoot)))
	newHead := padRight(center(unit, span(colNew, colNewCI))+"  vs base", span(colNew, colFoot))
	fmt.Fprintf(w, "%s │ %s │ %s │\n", pad, center(unit, span(colOld, colOldCI)), newHead)
	for _, r := range rows {
		var b strings.Builder
		b.WriteString(padRight(r[colName], width[colName]))
		b.WriteString("   ")
		for c := colOld; c < numCols; c++ {
			if c > colOld {
				b.WriteString(strings.Repeat(" ", gap(c)))
			}
			switch c {
			case colOld, colNew, colDelta:
				b.WriteString(padLeft(r[c], width[c]))
			default:
				b.WriteString(padRight(r[c], width[c]))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

func padRight(s string, n int) string {
	if d := n - runeLen(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

func padLeft(s string, n int) string {
	if d := n - runeLen(s); d > 0 {
		return strings.Repeat(" ", d) + s
	}
	return s
}

func center(s string, n int) string {
	d := n - runeLen(s)
	if d <= 0 {
		return s
	}
	return strings.Repeat(" ", d/2) + s + strings.Repeat(" ", d-d/2)
}
