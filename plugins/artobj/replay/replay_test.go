package replay

import (
	"bytes"
	"encoding/xml"
	"io"
	"regexp"
	"strconv"
	"testing"

	"github.com/droidprof/droidprof/plugins/artobj/chain"
)

// rects returns the x, width of the rectangles of a fill colour.
func rects(t *testing.T, svg []byte, fill string) [][2]float64 {
	t.Helper()
	re := regexp.MustCompile(`<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="` + fill + `"/>`)
	var out [][2]float64
	for _, m := range re.FindAllSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		w, _ := strconv.ParseFloat(string(m[2]), 64)
		out = append(out, [2]float64{x, w})
	}
	return out
}

func TestSVG(t *testing.T) {
	const base = 0x1000
	// In order: A at base dies at GC 1 (after 120 bytes); D, allocated
	// outside the window, moves into it at GC 1; B takes A's place after
	// 150 bytes; C lives outside the window.
	h := &chain.Heap{
		Objects: []chain.Object{
			{Size: 32, BirthBytes: 0, Death: 1, Chain: []chain.Step{{Epoch: 0, Addr: base}}},
			{Size: 64, BirthBytes: 100, Death: chain.Alive, Chain: []chain.Step{{Epoch: 0, Addr: 0x9000}, {Epoch: 1, Addr: base + 64}}},
			{Size: 16, BirthBytes: 150, Death: chain.Alive, Chain: []chain.Step{{Epoch: 1, Addr: base}}},
			{Size: 16, BirthBytes: 166, Death: chain.Alive, Chain: []chain.Step{{Epoch: 1, Addr: 0x8000}}},
		},
		Epochs: 1, AllocBytes: 200, EpochBytes: []uint64{0, 120},
	}
	const width, height = 1110, 400 // a plot 1000 pixels wide: 5 pixels per byte
	svg, n := SVG(h, Window{Base: base, Size: 256}, "test <replay>", width, height)
	if n != 3 {
		t.Errorf("%d objects drawn, want the 3 in the window", n)
	}
	// Well-formed XML.
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, svg)
		}
	}
	// Animated, resting on the whole run: the curtain is drawn back
	// unless a renderer plays the animation.
	if !regexp.MustCompile(`<rect [^>]*width="0" [^>]*fill="white"[^>]*><animate attributeName="x"`).Match(svg) {
		t.Error("no curtain animation resting drawn back")
	}
	x := func(t uint64) float64 { return 90 + 1000*float64(t)/200 }
	grey := rects(t, svg, "#bbb")
	if len(grey) != 1 || grey[0][0] != x(120) || grey[0][0]+grey[0][1] != x(150) {
		t.Errorf("grey %v: want A's place collected from GC 1 (x %.0f) until B takes it (x %.0f)", grey, x(120), x(150))
	}
	dark := rects(t, svg, "#222")
	if len(dark) != 3 {
		t.Fatalf("dark bands %v: want A, D after its move, B", dark)
	}
	// D arrives in the window at GC 1, not at its allocation.
	found := false
	for _, r := range dark {
		if r[0] == x(120) && r[0]+r[1] == x(200) {
			found = true
		}
	}
	if !found {
		t.Errorf("no band for the moved object from GC 1 to the end: %v", dark)
	}
}
