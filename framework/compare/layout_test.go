package compare

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestHTMLTablesFitTheWindow: a comparison of metrics with long label lists
// scrolls inside each table's box, not the page, and the metric names may
// wrap after each comma.
func TestHTMLTablesFitTheWindow(t *testing.T) {
	long := map[string]string{"buffer": "65536", "method": "caffeine.MethodTest$Shape.twice", "program": "caffeine-method 40"}
	c := Compare(
		run("run-a", fp(), metric("method_excl", "ms", "lower", long, base6...), metric("x", "s", "lower", nil, base6...)),
		run("run-b", fp(), metric("method_excl", "ms", "lower", long, plus20...), metric("x", "s", "lower", nil, base6...)),
		Options{})
	var buf bytes.Buffer
	if err := WriteHTML(&buf, c); err != nil {
		t.Fatal(err)
	}
	h := buf.String()
	if !regexp.MustCompile(`\.table-wrap\{[^}]*overflow-x:auto`).MatchString(h) {
		t.Error("no .table-wrap{overflow-x:auto} in the CSS")
	}
	tables := regexp.MustCompile(`<table[ >]`).FindAllStringIndex(h, -1)
	wrapped := regexp.MustCompile(`<div class="table-wrap">\s*<table[ >]`).FindAllStringIndex(h, -1)
	ends := regexp.MustCompile(`</table>\s*</div>`).FindAllStringIndex(h, -1)
	if len(tables) != 2 || len(wrapped) != 2 || len(ends) != 2 {
		t.Errorf("%d tables (want 2), %d in a table-wrap div, %d closed with it", len(tables), len(wrapped), len(ends))
	}
	if want := "buffer=65536,<wbr>method=caffeine.MethodTest$Shape.twice,<wbr>program=caffeine-method 40"; !strings.Contains(h, want) {
		t.Errorf("the metric name does not break after commas; want %q", want)
	}
}
