package report

import (
	"bytes"
	"encoding/base64"
	"html/template"
	"strings"

	"github.com/droidprof/droidprof/framework/compare"
)

// renderHTML writes report.html: one page, its CSS inline, no scripts of
// its own (an interactive figure's run in its sandboxed frame).
func renderHTML(m *model) ([]byte, error) {
	var buf bytes.Buffer
	err := page.Execute(&buf, m)
	return buf.Bytes(), err
}

func dataURI(mediaType string, data []byte) string {
	return "data:" + mediaType + ";base64," + base64.StdEncoding.EncodeToString(data)
}

var funcs = template.FuncMap{
	// markdown renders an analyzer's summary with the safe subset of
	// Markdown that markdownToHTML supports.
	"markdown": markdownToHTML,
	// svg marks sanitized SVG markup as safe.
	"svg": func(s string) template.HTML { return template.HTML(s) },
	// datauri marks a data URI built by dataURI from a raster image as safe.
	"datauri": func(s string) template.URL { return template.URL(s) },
	"short":   short,
	// breakable escapes a comma-separated list (labels, mount options) and
	// lets the browser wrap it after each comma, so that a table with one
	// long list still fits the window.
	"breakable": compare.BreakAfterCommas,
	// header lets a table's column name wrap after "_" as well
	// ("ctx_involuntary"): a per-cell table has a dozen such columns.
	"header": func(s string) template.HTML {
		return template.HTML(strings.ReplaceAll(string(compare.BreakAfterCommas(s)), "_", "_<wbr>"))
	},
}

const extraCSS = `dl.header{display:grid;grid-template-columns:max-content auto;gap:.1em 1em}
dl.header dt{font-weight:600}
dl.header dd{margin:0}
figure{margin:1em 0 2em}
figure svg,figure img{max-width:100%;height:auto}
figure iframe.page{width:100%;max-width:1000px;height:600px;border:1px solid #ddd}
figcaption{color:#666;font-size:.9em}
.summary{border-left:3px solid #ddd;padding-left:1em}
pre{background:#f4f4f4;padding:.5em;overflow-x:auto}
.status-ok{color:#067d17}
.status-failed,.status-incomplete{color:#b00020}
`

var page = template.Must(template.New("report").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + compare.CSS + extraCSS + `</style>
</head>
<body>
<h1>{{.Title}}</h1>
<dl class="header">{{range .Header}}<dt>{{.Key}}</dt><dd{{if eq .Key "status"}} class="status-{{.Value}}"{{end}}>{{.Value}}</dd>{{end}}</dl>
{{if .Warnings}}<div class="warn"><b>Warnings</b><ul>{{range .Warnings}}<li>{{.}}</li>{{end}}</ul></div>{{end}}

<h2>Steps</h2>
<p>{{range $i, $c := .StepCounts}}{{if $i}} · {{end}}{{$c.Key}}: {{$c.Value}}{{end}}</p>
{{if .FailedSteps}}<h3>Failed steps</h3>
<div class="table-wrap"><table>
<thead><tr><th>step</th><th>collector</th><th>labels</th><th>repetition</th><th>error</th></tr></thead>
<tbody>{{range .FailedSteps}}<tr><td>{{.ID}}</td><td>{{.Collector}}</td><td>{{breakable .Labels}}</td><td class="num">{{.Repetition}}</td><td>{{.Error}}</td></tr>{{end}}</tbody>
</table></div>{{end}}
{{if .Missing}}<h3>Cells missing repetitions</h3>
<p>The analyses used the repetitions these cells have.</p>
<div class="table-wrap"><table>
<thead><tr><th>collector</th><th>labels</th><th>ok</th><th>planned</th></tr></thead>
<tbody>{{range .Missing}}<tr><td>{{.Collector}}</td><td>{{breakable .Labels}}</td><td class="num">{{.OK}}</td><td class="num">{{.Planned}}</td></tr>{{end}}</tbody>
</table></div>{{end}}

{{if .Analyses}}<h2>Analyses</h2>
{{range .Analyses}}<h3>{{.Analyzer}} <span class="muted status-{{.Status}}">({{.Status}})</span></h3>
{{if .Error}}<p><b>Error:</b> {{.Error}}</p>{{end}}
{{with .Summary}}<div class="summary">{{markdown .}}</div>{{end}}
{{end}}{{end}}

{{if .Figures}}<h2>Figures</h2>
{{range .Figures}}<figure>
{{if .SVG}}{{svg .SVG}}{{else if .DataURI}}<img src="{{datauri .DataURI}}" alt="{{.Title}}">{{else if .Page}}<iframe class="page" sandbox="allow-scripts" srcdoc="{{.Page}}" title="{{.Title}}"></iframe>{{else}}<p><a href="{{.Path}}">{{.Path}}</a> <span class="muted">({{.Note}})</span></p>{{end}}
<figcaption>{{.Title}}</figcaption>
</figure>
{{end}}{{end}}

{{if .Tables}}<h2>Tables</h2>
{{range .Tables}}<h3>{{if .Title}}{{.Title}}{{else}}{{.Name}}{{end}}</h3>
<div class="table-wrap"><table>
<thead><tr>{{range .Columns}}<th>{{header .}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{breakable .}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{end}}{{end}}

{{if .Metrics}}<h2>Metrics</h2>
<p class="muted">Medians with 95% confidence intervals (± ∞: fewer than 6 samples).</p>
<div class="table-wrap"><table>
<thead><tr><th>metric</th><th>labels</th><th>unit</th><th>n</th><th>median</th><th>min</th><th>max</th><th>better</th></tr></thead>
<tbody>{{range .Metrics}}<tr><td>{{.Name}}</td><td>{{breakable .Labels}}</td><td>{{.Unit}}</td><td class="num">{{.N}}</td><td class="num">{{.Median}}{{with .CI}} ± {{.}}{{end}}</td><td class="num">{{.Min}}</td><td class="num">{{.Max}}</td><td>{{.Better}}</td></tr>
{{end}}</tbody>
</table></div>{{end}}

<h2>Environment</h2>
<div class="table-wrap"><table>{{range .Environment}}<tr><th>{{.Key}}</th><td>{{breakable .Value}}</td></tr>{{end}}</table></div>
{{if .Plugins}}<div class="table-wrap"><table>
<thead><tr><th>plugin</th><th>version</th><th>kind</th><th>sha256</th><th>path</th></tr></thead>
<tbody>{{range .Plugins}}<tr><td>{{.Name}}</td><td>{{.Version}}</td><td>{{.Kind}}</td><td title="{{.SHA256}}"><code>{{short .SHA256}}</code></td><td>{{.Path}}</td></tr>{{end}}</tbody>
</table></div>{{end}}
</body>
</html>
`))
