// Package replay draws paper 003's heap replay (its Fig. 7): the
// allocation and collection of objects in a window of the heap, address
// against time, from the Address-Chains. Each object is a dark band at
// its address, as high as its size, from its allocation (or its arrival
// there by a move) to its death (or its move away); after its death the
// memory it held is grey until the next object is placed there — the
// collected regions. In a browser the picture is animated: revealed in
// time order, again and again; a static renderer shows the whole run.
// Time is the allocation clock (bytes allocated by
// the program so far), with the collections marked, so that allocation
// within an epoch is resolved and not only collection.
package replay

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/droidprof/droidprof/plugins/artobj/chain"
)

// Window is the part of the heap drawn: [Base, Base+Size).
type Window struct {
	Base, Size uint32
}

// segment is one object at one address for a span of time.
type segment struct {
	addr, size   uint32
	from, to     uint64 // allocation clock
	dead         bool   // the span ends with the object's death
	deadUntilEnd uint64 // for a death: when the next object takes the address (set later)
}

// AnimationSeconds is how long the animated replay takes to go through
// the run once.
const AnimationSeconds = 12

// MaxSegments bounds the bands drawn (a long run through a small window
// may have many more): the first ones in time are kept.
const MaxSegments = 50000

// segments lays out the replay of window w: the bands in time order
// (at most MaxSegments), the end of the time axis, and how many objects
// have a band.
func segments(h *chain.Heap, w Window) ([]segment, uint64, int) {
	end := h.AllocBytes
	at := func(epoch uint32) uint64 {
		if int(epoch) < len(h.EpochBytes) {
			return h.EpochBytes[epoch]
		}
		return end
	}
	var segs []segment
	objects := 0
	for i := range h.Objects {
		o := &h.Objects[i]
		drawn := false
		for j, st := range o.Chain {
			if st.Addr+o.Size <= w.Base || st.Addr >= w.Base+w.Size {
				continue
			}
			s := segment{addr: st.Addr, size: o.Size, from: o.BirthBytes, to: end}
			if j > 0 {
				s.from = at(st.Epoch)
			}
			if j+1 < len(o.Chain) {
				s.to = at(o.Chain[j+1].Epoch)
			} else if o.Death != chain.Alive {
				s.to, s.dead = at(uint32(o.Death)), true
			}
			segs = append(segs, s)
			drawn = true
		}
		if drawn {
			objects++
		}
	}
	slices.SortFunc(segs, func(a, b segment) int { return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.addr, b.addr)) })
	if len(segs) > MaxSegments {
		segs = segs[:MaxSegments]
		end = segs[len(segs)-1].from
	}
	greyUntil(segs, w, end)
	return segs, end, objects
}

// SVG renders the replay of window w, titled, at the given size in pixels.
// It also returns how many objects' bands it drew.
func SVG(h *chain.Heap, w Window, title string, width, height int) ([]byte, int) {
	segs, end, objects := segments(h, w)
	const left, right, top, bottom = 90, 20, 40, 50
	pw, ph := float64(width-left-right), float64(height-top-bottom)
	x := func(t uint64) float64 {
		if end == 0 {
			return left
		}
		return left + pw*float64(t)/float64(end)
	}
	y := func(a uint32) float64 { return top + ph*float64(a-w.Base)/float64(w.Size) }
	clip := func(a uint32) uint32 { return min(max(a, w.Base), w.Base+w.Size) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="20" font-size="14">%s</text>`+"\n", width/2-len(title)*3, escape(title))
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%.1f" fill="none" stroke="#888"/>`+"\n", left, top, pw, ph)
	// Collections: vertical lines at their allocation clock.
	for c := 1; c < len(h.EpochBytes); c++ {
		if t := h.EpochBytes[c]; t <= end {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#D55E00" stroke-width="0.5" opacity="0.6"><title>GC %d</title></line>`+"\n", x(t), top, x(t), top+ph, c)
		}
	}
	for _, s := range segs {
		lo, hi := clip(s.addr), clip(s.addr+s.size)
		fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#222"/>`+"\n", x(s.from), y(lo), max(x(s.to)-x(s.from), 0.3), max(y(hi)-y(lo), 0.3))
		if s.dead && s.deadUntilEnd > s.to {
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#bbb"/>`+"\n", x(s.to), y(lo), x(s.deadUntilEnd)-x(s.to), max(y(hi)-y(lo), 0.3))
		}
	}
	// The animation (SMIL, which browsers play in an <img> too): a white
	// curtain over the future draws back from left to right, with a
	// cursor at the present, over AnimationSeconds, again and again. Its
	// resting state, which a static renderer shows, is drawn back: the
	// whole run.
	fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="0" height="%.1f" fill="white" opacity="0.92">`+
		`<animate attributeName="x" from="%.1f" to="%.1f" dur="%ds" repeatCount="indefinite"/>`+
		`<animate attributeName="width" from="%.1f" to="0" dur="%ds" repeatCount="indefinite"/></rect>`+"\n",
		left+pw, top, ph, float64(left), left+pw, AnimationSeconds, pw, AnimationSeconds)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#0072B2" stroke-width="1.5" opacity="0">`+
		`<animate attributeName="x1" from="%d" to="%.1f" dur="%ds" repeatCount="indefinite"/>`+
		`<animate attributeName="x2" from="%d" to="%.1f" dur="%ds" repeatCount="indefinite"/>`+
		`<set attributeName="opacity" to="1" begin="0s"/></line>`+"\n",
		left+pw, top, left+pw, top+ph, left, left+pw, AnimationSeconds, left, left+pw, AnimationSeconds)
	// Axes: addresses down the left, the allocation clock along the bottom.
	for i := 0; i <= 4; i++ {
		a := w.Base + uint32(uint64(w.Size)*uint64(i)/4)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%#x</text>`+"\n", left-4, y(a)+4, a)
		t := end * uint64(i) / 4
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x(t), top+ph+16, bytesLabel(t))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">bytes allocated (time); vertical lines: collections; dark: live objects, grey: collected</text>`+"\n", left+pw/2, height-10)
	b.WriteString("</svg>\n")
	return b.Bytes(), objects
}

// greyUntil sets, for each death, when an object is next placed over
// any of its bytes (end if never): a sweep through time with, per
// 8-byte granule of the window, the death waiting to be covered.
func greyUntil(segs []segment, w Window, end uint64) {
	type event struct {
		t     uint64
		place bool // else a death
		i     int
	}
	var evs []event
	for i := range segs {
		evs = append(evs, event{segs[i].from, true, i})
		if segs[i].dead {
			segs[i].deadUntilEnd = end
			evs = append(evs, event{segs[i].to, false, i})
		}
	}
	// Deaths first at equal times: a collection frees before the next
	// allocation reuses.
	slices.SortStableFunc(evs, func(a, b event) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		if a.place == b.place {
			return 0
		}
		if a.place {
			return 1
		}
		return -1
	})
	pending := make([]int32, (w.Size+7)/8)
	for i := range pending {
		pending[i] = -1
	}
	granules := func(s *segment) (int, int) {
		lo, hi := max(s.addr, w.Base), min(s.addr+s.size, w.Base+w.Size)
		return int((lo - w.Base) / 8), int((hi - w.Base + 7) / 8)
	}
	for _, e := range evs {
		s := &segs[e.i]
		lo, hi := granules(s)
		for g := lo; g < hi; g++ {
			if e.place {
				if d := pending[g]; d >= 0 {
					segs[d].deadUntilEnd = min(segs[d].deadUntilEnd, e.t)
					pending[g] = -1
				}
			} else {
				pending[g] = int32(e.i)
			}
		}
	}
}

func bytesLabel(n uint64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 10<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func escape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
