package compare

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown renders c as GitHub-flavoured Markdown: one table per unit,
// then the numbered row warnings and the run-level warnings.
func WriteMarkdown(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	v := newView(c)
	fmt.Fprintf(bw, "# Comparison\n\n")
	fmt.Fprintf(bw, "- **old:** %s\n- **new:** %s\n\n", MarkdownEscape(describeRun(c.Old)), MarkdownEscape(describeRun(c.New)))
	fmt.Fprintf(bw, "Medians with %s confidence intervals; a change is shown when the Mann–Whitney U test gives p ≤ %s, else `~`.\n",
		v.Confidence, v.Alpha)
	if len(v.Groups) == 0 {
		fmt.Fprintf(bw, "\nNo metric is present in both runs.\n")
	}
	for _, g := range v.Groups {
		unit := g.Unit
		if unit == "" {
			unit = "(no unit)"
		}
		fmt.Fprintf(bw, "\n### %s\n\n", MarkdownEscape(unit))
		fmt.Fprintf(bw, "| metric | %s | %s | vs base | p, n | |\n", MarkdownEscape(v.OldLabel), MarkdownEscape(v.NewLabel))
		fmt.Fprintf(bw, "|:--|--:|--:|--:|:--|:--|\n")
		for _, r := range g.Rows {
			name, old, new, delta, note := MarkdownEscape(r.Name), r.Old, r.New, r.Delta, ""
			if r.IsGeomean {
				name = "*geomean*"
			} else {
				old += " ± " + r.OldCI
				new += " ± " + r.NewCI
				note = r.Note
			}
			if r.Change != 0 {
				delta = "**" + delta + "**"
			}
			verdict := r.Verdict
			if m := r.FootnoteMarks(); m != "" {
				verdict = strings.TrimSpace(verdict + " " + m)
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s |\n", name, old, new, delta, note, verdict)
		}
	}
	if len(v.Footnotes) > 0 {
		bw.WriteString("\n")
		for i, f := range v.Footnotes {
			fmt.Fprintf(bw, "%s %s  \n", superscript(i+1), MarkdownEscape(f))
		}
	}
	if len(c.Rankings) > 0 {
		bw.WriteString("\n## Rankings\n\n")
		for _, r := range c.Rankings {
			fmt.Fprintf(bw, "- **%s**: %s\n", MarkdownEscape(r.Title()), MarkdownEscape(r.Summary()))
		}
	}
	if len(v.Warnings) > 0 {
		bw.WriteString("\n## Warnings\n\n")
		for _, wn := range v.Warnings {
			fmt.Fprintf(bw, "- %s\n", MarkdownEscape(wn))
		}
	}
	return bw.Flush()
}

var mdReplacer = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"|", `\|`, "<", "&lt;", ">", "&gt;", "&", "&amp;",
	"\r\n", " ", "\n", " ", "\r", " ",
)

// MarkdownEscape makes s safe as inline Markdown text, also inside a table
// cell: Markdown punctuation is backslash-escaped, HTML characters become
// entities and line breaks spaces.
func MarkdownEscape(s string) string { return mdReplacer.Replace(s) }
