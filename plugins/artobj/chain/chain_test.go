package chain

import (
	"testing"

	"github.com/droidprof/droidprof/plugins/artobj/events"
)

// file makes an event file of evs (sequence numbers in order) and
// bitmaps, as the reader returns it.
func file(evs []events.Event, bitmaps ...events.Bitmap) *events.File {
	f := &events.File{Run: events.RunDef{Main: [][2]uint32{{0x1000, 0x2000}}}, Bitmaps: bitmaps}
	for i, e := range evs {
		e.Seq = uint64(i + 1)
		f.Events = append(f.Events, events.Record{Event: e, Thread: 1})
	}
	return f
}

func alloc(epoch, addr, size uint32) events.Event {
	return events.Event{Kind: events.Alloc, Epoch: epoch, A: addr, B: size, C: 1, D: 1}
}
func gcStart(c uint32) events.Event { return events.Event{Kind: events.GCStart, Epoch: c, A: c} }
func gcEnd(c uint32) events.Event   { return events.Event{Kind: events.GCEnd, Epoch: c, A: c} }
func moveEv(c, from, to uint32) events.Event {
	return events.Event{Kind: events.Move, Epoch: c, A: from, B: to, C: 16}
}
func free(c, addr uint32) events.Event {
	return events.Event{Kind: events.Free, Epoch: c, A: addr, B: 16}
}

// bitmap marks the objects at addrs in epoch.
func bitmap(epoch uint32, final bool, addrs ...uint32) events.Bitmap {
	b := events.Bitmap{Epoch: epoch, Base: 0x1000, Final: final}
	for _, a := range addrs {
		i := (a - 0x1000) / 8
		w := i / 64
		if n := len(b.Index); n == 0 || b.Index[n-1] != w {
			b.Index, b.Words = append(b.Index, w), append(b.Words, 0)
		}
		b.Words[len(b.Words)-1] |= 1 << (i % 64)
	}
	return b
}

func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    *events.File
		// per object: death, chain length, last use, uses
		death   []int64
		chain   []int
		lastUse []int64
		uses    []int
		unknown int // frees and moves of untracked objects
	}{
		{
			name:  "mark-sweep",
			f:     file([]events.Event{alloc(0, 0x1000, 16), alloc(0, 0x1010, 16), gcStart(1), free(1, 0x1000), gcEnd(1), alloc(1, 0x1000, 16)}),
			death: []int64{1, Alive, Alive}, chain: []int{1, 1, 1}, lastUse: []int64{-1, -1, -1}, uses: []int{0, 0, 0},
		},
		{
			// A moves to where B was while B moves on: one remap.
			name: "simultaneous moves",
			f: file([]events.Event{alloc(0, 0x1000, 16), alloc(0, 0x1010, 16), gcStart(1), moveEv(1, 0x1000, 0x1010), moveEv(1, 0x1010, 0x1020), gcEnd(1),
				gcStart(2), free(2, 0x1020), gcEnd(2)}),
			death: []int64{Alive, 2}, chain: []int{2, 2}, lastUse: []int64{-1, -1}, uses: []int{0, 0},
		},
		{
			// The bitmap of epoch 0 is at the addresses before collection
			// 1 moves them; the final one at the addresses after.
			name: "accesses before moves",
			f: file([]events.Event{alloc(0, 0x1000, 16), alloc(0, 0x1010, 16), gcStart(1), moveEv(1, 0x1000, 0x1800), free(1, 0x1010), gcEnd(1)},
				bitmap(0, false, 0x1000, 0x1010), bitmap(1, true, 0x1800)),
			death: []int64{Alive, 1}, chain: []int{2, 1}, lastUse: []int64{1, 0}, uses: []int{2, 1},
		},
		{
			name:  "untracked frees and moves",
			f:     file([]events.Event{alloc(0, 0x1000, 16), gcStart(1), free(1, 0x1f00), moveEv(1, 0x1e00, 0x1d00), gcEnd(1)}),
			death: []int64{Alive}, chain: []int{1}, lastUse: []int64{-1}, uses: []int{0}, unknown: 2,
		},
		{
			// A partial file: an address reused without a recorded free.
			name:  "reuse without a free",
			f:     file([]events.Event{alloc(0, 0x1000, 16), gcStart(1), alloc(1, 0x1000, 16)}),
			death: []int64{1, Alive}, chain: []int{1, 1}, lastUse: []int64{-1, -1}, uses: []int{0, 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Build(tc.f)
			if len(h.Objects) != len(tc.death) {
				t.Fatalf("%d objects, want %d", len(h.Objects), len(tc.death))
			}
			for i := range h.Objects {
				o := &h.Objects[i]
				if o.Death != tc.death[i] || len(o.Chain) != tc.chain[i] || o.LastUse != tc.lastUse[i] || o.Uses != tc.uses[i] {
					t.Errorf("object %d: %v last use %d uses %d; want death %d, %d addresses, last use %d, uses %d",
						i, o, o.LastUse, o.Uses, tc.death[i], tc.chain[i], tc.lastUse[i], tc.uses[i])
				}
			}
			if got := h.UnknownFrees + h.UnknownMoves; got != tc.unknown {
				t.Errorf("%d untracked frees and moves, want %d", got, tc.unknown)
			}
		})
	}
}

func TestLifetimeInBytes(t *testing.T) {
	h := Build(file([]events.Event{alloc(0, 0x1000, 16), alloc(0, 0x1010, 24), alloc(0, 0x1030, 32), gcStart(1), free(1, 0x1000), gcEnd(1), alloc(1, 0x1000, 8)}))
	first, last := h.Objects[0], h.Objects[3]
	if first.DeathBytes-first.BirthBytes != 16+24+32 {
		t.Errorf("the first object lived %d bytes, want the %d allocated to its death", first.DeathBytes-first.BirthBytes, 16+24+32)
	}
	if last.DeathBytes-last.BirthBytes != 8 || h.AllocBytes != 16+24+32+8 {
		t.Errorf("the last object, alive at exit, lived %d bytes of %d", last.DeathBytes-last.BirthBytes, h.AllocBytes)
	}
}
