package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"strings"
)

const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
)

// svgElements are the SVG elements kept when a figure is embedded inline:
// drawing, text, structure and paint servers. Anything else (script,
// foreignObject, animation, image, a, use of external files, …) is dropped
// with its content.
var svgElements = map[string]bool{
	"svg": true, "g": true, "defs": true, "symbol": true, "use": true, "title": true, "desc": true,
	"rect": true, "circle": true, "ellipse": true, "line": true, "polyline": true, "polygon": true, "path": true,
	"text": true, "tspan": true, "textPath": true,
	"clipPath": true, "mask": true, "marker": true, "pattern": true,
	"linearGradient": true, "radialGradient": true, "stop": true,
}

// sanitizeSVG re-serializes an SVG document keeping only svgElements and
// their presentation attributes: no event handlers, no external or
// javascript: references (href must point inside the document, "#id"), no
// style with url() other than to "#id". The result can be placed inline in
// an HTML page.
func sanitizeSVG(data []byte) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.Entity = nil // no custom entities
	var out strings.Builder
	depth, skip := 0, 0 // skip > 0: inside a dropped element
	root := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("invalid SVG: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if skip > 0 {
				skip++
				continue
			}
			if depth == 1 {
				if t.Name.Local != "svg" || (t.Name.Space != svgNS && t.Name.Space != "") {
					return "", errors.New("not an SVG document")
				}
				root = true
			}
			if (t.Name.Space != svgNS && t.Name.Space != "") || !svgElements[t.Name.Local] {
				skip = 1
				continue
			}
			out.WriteString("<" + t.Name.Local)
			if depth == 1 {
				out.WriteString(` xmlns="` + svgNS + `"`)
			}
			for _, a := range t.Attr {
				name, ok := safeAttr(a)
				if !ok {
					continue
				}
				out.WriteString(" " + name + `="` + html.EscapeString(a.Value) + `"`)
			}
			out.WriteString(">")
		case xml.EndElement:
			depth--
			if skip > 0 {
				skip--
				continue
			}
			out.WriteString("</" + t.Name.Local + ">")
		case xml.CharData:
			if skip == 0 && depth > 0 {
				out.WriteString(html.EscapeString(string(t)))
			}
		}
		// Comments, processing instructions and directives (DOCTYPE) are
		// dropped.
	}
	if !root {
		return "", errors.New("not an SVG document")
	}
	return out.String(), nil
}

// safeAttr returns the name to write for attribute a, or false to drop it.
func safeAttr(a xml.Attr) (string, bool) {
	local := a.Name.Local
	switch a.Name.Space {
	case "":
	case xlinkNS:
		if local != "href" {
			return "", false
		}
	default: // xmlns declarations and foreign namespaces
		return "", false
	}
	lower := strings.ToLower(local)
	v := strings.ToLower(strings.TrimSpace(a.Value))
	switch {
	case lower == "xmlns" || strings.HasPrefix(lower, "on"):
		return "", false
	case lower == "href":
		if !strings.HasPrefix(v, "#") {
			return "", false
		}
		return "href", true
	case lower == "style" || strings.Contains(v, "url("):
		if hasExternalURL(v) || strings.Contains(v, "expression") || strings.Contains(v, "@import") {
			return "", false
		}
	}
	for _, r := range local {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == ':') {
			return "", false
		}
	}
	return local, true
}

// hasExternalURL reports whether a CSS or attribute value references
// anything but a fragment of the document with url(...).
func hasExternalURL(v string) bool {
	for {
		i := strings.Index(v, "url(")
		if i < 0 {
			return false
		}
		v = strings.TrimLeft(v[i+4:], " \t\n'\"")
		if !strings.HasPrefix(v, "#") {
			return true
		}
	}
}
