package report

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/droidprof/droidprof/framework/compare"
)

var esc = compare.MarkdownEscape

// renderMarkdown writes report.md. Analyzer summaries are Markdown already
// and are included as they are; every other string is escaped. The results
// come first (figures before the long metric table), the environment last.
func renderMarkdown(m *model) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p("# %s\n\n", esc(m.Title))
	for _, h := range m.Header {
		p("- **%s:** %s\n", h.Key, esc(h.Value))
	}

	if len(m.Warnings) > 0 {
		p("\n## Warnings\n\n")
		for _, w := range m.Warnings {
			p("- %s\n", esc(w))
		}
	}

	p("\n## Steps\n\n")
	var counts []string
	for _, c := range m.StepCounts {
		counts = append(counts, fmt.Sprintf("%s: %s", esc(c.Key), c.Value))
	}
	p("%s\n", strings.Join(counts, " · "))
	if len(m.FailedSteps) > 0 {
		p("\n### Failed steps\n\n| step | collector | labels | repetition | error |\n|:--|:--|:--|--:|:--|\n")
		for _, s := range m.FailedSteps {
			p("| %s | %s | %s | %d | %s |\n", esc(s.ID), esc(s.Collector), esc(s.Labels), s.Repetition, esc(s.Error))
		}
	}

	if len(m.Missing) > 0 {
		p("\n### Cells missing repetitions\n\nThe analyses used the repetitions these cells have.\n\n| collector | labels | ok | planned |\n|:--|:--|--:|--:|\n")
		for _, c := range m.Missing {
			p("| %s | %s | %d | %d |\n", esc(c.Collector), esc(c.Labels), c.OK, c.Planned)
		}
	}

	if len(m.Analyses) > 0 {
		p("\n## Analyses\n")
		for _, a := range m.Analyses {
			p("\n### %s (%s)\n\n", esc(a.Analyzer), esc(a.Status))
			if a.Error != "" {
				p("**Error:** %s\n\n", esc(a.Error))
			}
			if s := strings.TrimSpace(a.Summary); s != "" {
				p("%s\n", s)
			}
		}
	}

	if len(m.Figures) > 0 {
		p("\n## Figures\n")
		for _, f := range m.Figures {
			p("\n![%s](<%s>)\n", esc(f.Title), markdownPath(f.Path))
		}
	}

	if len(m.Tables) > 0 {
		p("\n## Tables\n")
		for _, t := range m.Tables {
			title := t.Title
			if title == "" {
				title = t.Name
			}
			p("\n### %s\n\n", esc(title))
			if len(t.Columns) == 0 {
				continue
			}
			cells := make([]string, len(t.Columns))
			for i, c := range t.Columns {
				cells[i] = esc(c)
			}
			p("| %s |\n|%s\n", strings.Join(cells, " | "), strings.Repeat(":--|", len(t.Columns)))
			for _, row := range t.Rows {
				for i := range cells {
					cells[i] = ""
					if i < len(row) {
						cells[i] = esc(row[i])
					}
				}
				p("| %s |\n", strings.Join(cells, " | "))
			}
		}
	}

	if len(m.Metrics) > 0 {
		p("\n## Metrics\n\nMedians with 95%% confidence intervals (`± ∞`: fewer than 6 samples).\n\n")
		p("| metric | labels | unit | n | median | min | max | better |\n|:--|:--|:--|--:|--:|--:|--:|:--|\n")
		for _, mt := range m.Metrics {
			med := mt.Median
			if mt.CI != "" {
				med += " ± " + mt.CI
			}
			p("| %s | %s | %s | %d | %s | %s | %s | %s |\n",
				esc(mt.Name), esc(mt.Labels), esc(mt.Unit), mt.N, med, mt.Min, mt.Max, esc(mt.Better))
		}
	}

	p("\n## Environment\n\n| | |\n|:--|:--|\n")
	for _, e := range m.Environment {
		p("| %s | %s |\n", e.Key, esc(e.Value))
	}
	if len(m.Plugins) > 0 {
		p("\n| plugin | version | kind | sha256 | path |\n|:--|:--|:--|:--|:--|\n")
		for _, pl := range m.Plugins {
			p("| %s | %s | %s | `%s` | %s |\n", esc(pl.Name), esc(pl.Version), pl.Kind, esc(short(pl.SHA256)), esc(pl.Path))
		}
	}
	return b.String()
}

// markdownPath percent-encodes each segment of a relative path for a
// Markdown link destination.
func markdownPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
