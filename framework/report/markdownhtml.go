package report

import (
	"html"
	"html/template"
	"regexp"
	"strings"
)

// markdownToHTML renders the small subset of Markdown analyzer summaries use:
// headings, paragraphs, bullet and numbered lists, pipe tables, fenced code
// blocks, and inline `code`, **bold**, *emphasis* and http(s) links. The
// text is escaped before any markup is added, so the result is safe
// whatever the input.
func markdownToHTML(src string) template.HTML {
	var out strings.Builder
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var para []string
	flush := func() {
		if len(para) > 0 {
			out.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "```"):
			flush()
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				code = append(code, lines[i])
			}
			out.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
		case headingRE.MatchString(trimmed):
			flush()
			m := headingRE.FindStringSubmatch(trimmed)
			level := min(len(m[1])+3, 6) // summaries sit under an <h3>
			tag := "h" + string(rune('0'+level))
			out.WriteString("<" + tag + ">" + inline(m[2]) + "</" + tag + ">\n")
		case strings.HasPrefix(trimmed, "|") && i+1 < len(lines) && tableSepRE.MatchString(strings.TrimSpace(lines[i+1])):
			flush()
			out.WriteString("<div class=\"table-wrap\"><table>\n<thead><tr>")
			for _, c := range splitRow(trimmed) {
				out.WriteString("<th>" + inline(c) + "</th>")
			}
			out.WriteString("</tr></thead>\n<tbody>\n")
			for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				out.WriteString("<tr>")
				for _, c := range splitRow(strings.TrimSpace(lines[i])) {
					out.WriteString("<td>" + inline(c) + "</td>")
				}
				out.WriteString("</tr>\n")
			}
			i--
			out.WriteString("</tbody>\n</table></div>\n")
		case bulletRE.MatchString(line) || numberRE.MatchString(line):
			flush()
			ordered := numberRE.MatchString(line)
			tag := "ul"
			re := bulletRE
			if ordered {
				tag, re = "ol", numberRE
			}
			out.WriteString("<" + tag + ">\n")
			for ; i < len(lines) && re.MatchString(lines[i]); i++ {
				item := re.FindStringSubmatch(lines[i])[1]
				out.WriteString("<li>" + inline(item) + "</li>\n")
			}
			i--
			out.WriteString("</" + tag + ">\n")
		default:
			para = append(para, trimmed)
		}
	}
	flush()
	return template.HTML(out.String())
}

var (
	headingRE  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*$`)
	tableSepRE = regexp.MustCompile(`^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$`)
	bulletRE   = regexp.MustCompile(`^\s*[-*+]\s+(.*)$`)
	numberRE   = regexp.MustCompile(`^\s*\d+[.)]\s+(.*)$`)
	codeRE     = regexp.MustCompile("`([^`]+)`")
	boldRE     = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	emRE       = regexp.MustCompile(`(^|[^*\w])\*([^*\s][^*]*)\*`)
	linkRE     = regexp.MustCompile(`\[([^\]]+)\]\((https?://[^)\s]+)\)`)
)

// splitRow splits a pipe-table row into trimmed cells, honouring "\|".
func splitRow(row string) []string {
	row = strings.TrimPrefix(strings.TrimSuffix(row, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteByte('|')
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// inline escapes s and then renders code spans, bold, emphasis and links.
// Code spans are rendered first and protected from the other rules.
func inline(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	var codes []string
	s = codeRE.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00" + string(rune('0'+len(codes)-1)) + "\x00"
	})
	s = html.EscapeString(s)
	s = linkRE.ReplaceAllString(s, `<a href="$2">$1</a>`)
	s = boldRE.ReplaceAllString(s, "<strong>$1</strong>")
	s = emRE.ReplaceAllString(s, "$1<em>$2</em>")
	for i, c := range codes {
		s = strings.Replace(s, "\x00"+string(rune('0'+i))+"\x00", c, 1)
	}
	return s
}
