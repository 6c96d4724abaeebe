package compare

import (
	"html/template"
	"io"
	"strings"
)

// WriteHTML renders c as one self-contained HTML page (inline CSS, no
// scripts); every string from the runs is escaped.
func WriteHTML(w io.Writer, c *Comparison) error {
	v := newView(c)
	return htmlPage.Execute(w, struct {
		view
		Old, New string
		Rankings []Ranking
	}{v, describeRun(c.Old), describeRun(c.New), c.Rankings})
}

// BreakAfterCommas escapes s for HTML and lets the browser wrap it after
// each comma, so that a table cell holding a label list such as
// "buffer=65536,method=…,program=…" does not widen the table past the
// window.
func BreakAfterCommas(s string) template.HTML {
	return template.HTML(strings.ReplaceAll(template.HTMLEscapeString(s), ",", ",<wbr>"))
}

// CSS is the style sheet of the comparison page; the run report reuses it.
const CSS = `body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222;line-height:1.4}
h1,h2,h3{font-weight:600}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{padding:.25em .5em;border-bottom:1px solid #ddd;vertical-align:top}
th{background:#f4f4f4;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.better td.delta{color:#067d17;font-weight:600}
tr.worse td.delta{color:#b00020;font-weight:600}
tr.geomean td{font-style:italic;border-top:2px solid #bbb}
.muted{color:#666}
.nowrap{white-space:nowrap}
.warn{background:#fff8e1;border-left:4px solid #f0b400;padding:.5em 1em;margin:1em 0}
.warn ul{margin:.2em 0;padding-left:1.2em}
code{background:#f4f4f4;padding:0 .2em}
.table-wrap{overflow-x:auto;max-width:100%;margin:.5em 0 1.5em}
.table-wrap table{margin:0}
`

var htmlPage = template.Must(template.New("compare").Funcs(template.FuncMap{"breakable": BreakAfterCommas, "ratio": fmtRatio}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>droidprof comparison: {{.OldLabel}} vs {{.NewLabel}}</title>
<style>` + CSS + `</style>
</head>
<body>
<h1>Comparison</h1>
<p><b>old:</b> {{.Old}}<br><b>new:</b> {{.New}}</p>
<p class="muted">Medians with {{.Confidence}} confidence intervals; a change is shown when the Mann–Whitney U test gives p ≤ {{.Alpha}}, else <code>~</code>.</p>
{{if .Warnings}}<div class="warn"><b>Warnings</b><ul>{{range .Warnings}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
{{if not .Groups}}<p>No metric is present in both runs.</p>{{end}}
{{range .Groups}}<h3>{{if .Unit}}{{.Unit}}{{else}}(no unit){{end}}</h3>
<div class="table-wrap"><table>
<thead><tr><th>metric</th><th>{{$.OldLabel}}</th><th>{{$.NewLabel}}</th><th>vs base</th><th>p, n</th><th></th></tr></thead>
<tbody>
{{range .Rows}}<tr class="{{if .IsGeomean}}geomean{{else if eq .Change 1}}better{{else if eq .Change -1}}worse{{end}}">
<td>{{breakable .Name}}</td>
<td class="num">{{.Old}}{{if not .IsGeomean}} ± {{.OldCI}}{{end}}</td>
<td class="num">{{.New}}{{if not .IsGeomean}} ± {{.NewCI}}{{end}}</td>
<td class="num delta">{{.Delta}}</td>
<td class="muted nowrap">{{if not .IsGeomean}}{{.Note}}{{end}}</td>
<td class="nowrap">{{.Verdict}}{{with .FootnoteMarks}} {{.}}{{end}}</td>
</tr>
{{end}}</tbody>
</table></div>
{{end}}
{{if .Footnotes}}<ol class="muted">{{range .Footnotes}}<li>{{.}}</li>{{end}}</ol>{{end}}
{{if .Rankings}}<h2>Rankings</h2>
<p class="muted">Metrics measured per many items (e.g. a cost per opcode), compared by their order: rank 1 is the largest median.</p>
<div class="table-wrap"><table>
<thead><tr><th>metric</th><th>rows</th><th>Spearman ρ</th><th>Kendall τ</th><th>max/min old</th><th>max/min new</th><th>rank moves most</th></tr></thead>
<tbody>
{{range .Rankings}}<tr>
<td>{{breakable .Title}}</td>
<td class="num">{{.Items}}</td>
<td class="num">{{printf "%.3f" .Spearman}}</td>
<td class="num">{{printf "%.3f" .Kendall}}</td>
<td class="num">{{ratio .OldRatio}}</td>
<td class="num">{{ratio .NewRatio}}</td>
<td>{{range $i, $m := .Moves}}{{if $i}}, {{end}}<span class="nowrap">{{$m.Item}} {{$m.Old}} → {{$m.New}}</span>{{end}}</td>
</tr>
{{end}}</tbody>
</table></div>
{{end}}
</body>
</html>
`))
