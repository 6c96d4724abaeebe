// Package chain builds the Address-Chain of every object (paper 003
// §3.1, after Shi et al.) from an artobj event file: its allocation
// (site, class, size, thread, epoch and address), each move with the
// collection that made it, and its death or its survival to the end of
// the run, with its accesses per GC epoch from the access bitmaps.
//
// Time is counted two ways: in collections (an object born in epoch b —
// after b collections — and found dead by collection d lived d − b) and
// in bytes allocated (by every thread) between its birth and its death.
package chain

import (
	"fmt"

	"github.com/droidprof/droidprof/plugins/artobj/events"
)

// Alive is the Death of an object still live at the end of the run.
const Alive = -1

// Step is one link of a chain: the object is at Addr from collection
// Epoch on.
type Step struct {
	Epoch uint32
	Addr  uint32
}

// Object is one object's Address-Chain and what is derived from it.
type Object struct {
	Class, Site, Thread uint32
	Size                uint32
	// Birth is the epoch of its allocation; BirthBytes the bytes
	// allocated before it.
	Birth      uint32
	BirthBytes uint64
	// Chain is its addresses: the first at allocation, then one per move.
	Chain []Step
	// Death is the collection that found it dead, or Alive.
	Death      int64
	DeathBytes uint64 // bytes allocated before its death (or the run's total)
	// LastUse is the last epoch its access bit was set in, -1 if never;
	// Uses is the number of epochs it was set in (access frequency).
	LastUse int64
	Uses    int
	// Accessed lists the epochs its access bit was set in, in order.
	Accessed []uint32
	// Main is whether it was allocated in the main space, the only one
	// the access bitmap covers: for the others LastUse means nothing.
	Main bool
}

// Lifetime is the object's life in collections: death − birth, or the
// collections it lived through to the end of the run.
func (o *Object) Lifetime(epochs uint32) uint32 {
	if o.Death == Alive {
		return epochs - o.Birth
	}
	return uint32(o.Death) - o.Birth
}

// Addr is where the object was last.
func (o *Object) Addr() uint32 { return o.Chain[len(o.Chain)-1].Addr }

// String is the chain in the paper's form: ⟨(site, death), (t0, addr0), …⟩.
func (o *Object) String() string {
	d := "alive"
	if o.Death != Alive {
		d = fmt.Sprint(o.Death)
	}
	s := fmt.Sprintf("⟨(site %d, %s)", o.Site, d)
	for _, st := range o.Chain {
		s += fmt.Sprintf(", (%d, %#x)", st.Epoch, st.Addr)
	}
	return s + "⟩"
}

// Heap is every object's chain.
type Heap struct {
	Objects []Object
	// Epochs is the number of collections; the last epoch, which ends
	// at exit, is Epochs.
	Epochs uint32
	// AllocBytes is the bytes allocated in the whole run.
	AllocBytes uint64
	// EpochBytes[c] is the bytes allocated before collection c started
	// (EpochBytes[0] is 0): the allocation clock of each collection.
	EpochBytes []uint64
	// AccessEpochs is the number of bitmaps applied (0: the run kept no
	// access bitmap, and LastUse and Uses mean nothing).
	AccessEpochs int
	// Unknown counts events naming an address where no tracked object
	// was: frees and moves of objects the allocation hook does not
	// report (Class objects), and accesses to them.
	UnknownFrees, UnknownMoves, UnknownAccesses int
}

// Build builds the chains of f. A partial file gives the chains of what
// it holds: objects whose death was not recorded are alive at its end.
func Build(f *events.File) *Heap {
	b := &builder{h: &Heap{EpochBytes: []uint64{0}}, live: map[uint32]int32{}, bitmaps: map[uint32]*events.Bitmap{}}
	var final *events.Bitmap
	for i := range f.Bitmaps {
		bm := &f.Bitmaps[i]
		if bm.Final {
			final = bm
		} else {
			b.bitmaps[bm.Epoch] = bm
		}
	}
	h := b.h
	for _, e := range f.Events {
		switch e.Kind {
		case events.Alloc:
			if old, ok := b.live[e.A]; ok {
				// Its death went unrecorded (a partial file): it can
				// only have died before this.
				h.Objects[old].Death = int64(e.Epoch)
				h.Objects[old].DeathBytes = h.AllocBytes
			}
			b.live[e.A] = int32(len(h.Objects))
			h.Objects = append(h.Objects, Object{Class: e.C, Site: e.D, Thread: e.Thread, Size: e.B, Birth: e.Epoch,
				BirthBytes: h.AllocBytes, Chain: []Step{{e.Epoch, e.A}}, Death: Alive, LastUse: -1, Main: f.Run.InMain(e.A)})
			h.AllocBytes += uint64(e.B)
		case events.GCStart:
			// The epoch that ends: its accesses are at the addresses
			// objects had before this collection moves or frees them.
			if e.A > 0 {
				b.access(e.A - 1)
			}
			h.Epochs = max(h.Epochs, e.A)
			for uint32(len(h.EpochBytes)) <= e.A {
				h.EpochBytes = append(h.EpochBytes, h.AllocBytes)
			}
			b.moves = b.moves[:0]
		case events.Move:
			if i, ok := b.live[e.A]; ok {
				b.moves = append(b.moves, move{i, e.B})
				delete(b.live, e.A)
			} else {
				h.UnknownMoves++
			}
		case events.Free:
			if i, ok := b.live[e.A]; ok {
				h.Objects[i].Death = int64(e.Epoch)
				h.Objects[i].DeathBytes = h.AllocBytes
				delete(b.live, e.A)
			} else {
				h.UnknownFrees++
			}
		case events.GCEnd:
			b.endMoves(e.A)
		}
	}
	b.endMoves(h.Epochs) // a partial file may end inside a collection
	if final != nil {
		b.applyBitmap(final)
	}
	for _, i := range b.live {
		h.Objects[i].DeathBytes = h.AllocBytes
	}
	return h
}

type move struct {
	obj int32
	to  uint32
}

type builder struct {
	h       *Heap
	live    map[uint32]int32 // address -> object
	moves   []move           // of the collection under way
	bitmaps map[uint32]*events.Bitmap
}

// endMoves puts the moved objects at their new addresses, all at once:
// a collection's moves are one simultaneous remap (an object may move to
// where another was).
func (b *builder) endMoves(epoch uint32) {
	for _, m := range b.moves {
		o := &b.h.Objects[m.obj]
		o.Chain = append(o.Chain, Step{epoch, m.to})
		b.live[m.to] = m.obj
	}
	b.moves = b.moves[:0]
}

func (b *builder) access(epoch uint32) {
	if bm := b.bitmaps[epoch]; bm != nil {
		b.applyBitmap(bm)
	}
}

func (b *builder) applyBitmap(bm *events.Bitmap) {
	b.h.AccessEpochs++
	bm.Each(func(a uint32) {
		i, ok := b.live[a]
		if !ok {
			b.h.UnknownAccesses++
			return
		}
		o := &b.h.Objects[i]
		o.LastUse = int64(bm.Epoch)
		o.Uses++
		o.Accessed = append(o.Accessed, bm.Epoch)
	})
}
