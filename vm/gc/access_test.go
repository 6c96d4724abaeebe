package gc

import (
	"slices"
	"testing"

	"github.com/droidprof/droidprof/vm/heap"
)

// The access bitmap records main-space objects only, is shown to
// OnAccesses at each collection's start and is empty after it, and under
// ss follows the main space to the other half.
func TestAccessBitmapEpochs(t *testing.T) {
	for _, col := range []Collector{CMS, SS} {
		t.Run(string(col), func(t *testing.T) {
			y := newToy(t, Config{Collector: col, AccessBitmap: true})
			y.h.Seal()
			b := y.h.Access
			if b == nil {
				t.Fatal("no access bitmap with Config.AccessBitmap")
			}
			a1 := y.root(y.obj(0, 16, Movable))
			a2 := y.root(y.obj(0, 24, Movable))
			nm := y.obj(0, 16, NonMoving)
			b.Mark(y.roots[a1])
			b.Mark(y.roots[a2])
			b.Mark(nm) // not the main space: ignored
			b.Mark(0)  // null: ignored
			var seen [][]uint32
			y.h.OnAccesses = func(count int, b *AccessBitmap) {
				var got []uint32
				b.Walk(func(a uint32) { got = append(got, a) })
				seen = append(seen, got)
			}
			want := []uint32{y.roots[a1], y.roots[a2]}
			y.h.Collect(CauseExplicit)
			if len(seen) != 1 || !slices.Equal(seen[0], want) {
				t.Fatalf("first epoch: %#x, want [%#x]", seen, want)
			}
			if b.Marked(y.roots[a1]) || b.Marked(y.roots[a2]) {
				t.Error("bits left after the collection")
			}
			if wantBase := uint32(heap.MainBase); col == SS && b.Base() == wantBase {
				t.Errorf("bitmap base %#x did not follow the main space to the other half", b.Base())
			}
			b.Mark(y.roots[a2]) // its address after the collection
			if !b.Marked(y.roots[a2]) || b.Marked(y.roots[a1]) {
				t.Errorf("second epoch: a2 %v, a1 %v", b.Marked(y.roots[a2]), b.Marked(y.roots[a1]))
			}
			y.h.Collect(CauseExplicit)
			if len(seen) != 2 || !slices.Equal(seen[1], []uint32{y.roots[a2]}) && col == CMS {
				t.Fatalf("second epoch: %#x, want [%#x]", seen, y.roots[a2])
			}
			if col == SS && (len(seen[1]) != 1 || seen[1][0] < heap.SemiBase) {
				t.Fatalf("second epoch: %#x, want a2's address in the second half", seen)
			}
			if b.Executed != 5 {
				t.Errorf("Executed %d, want 5", b.Executed)
			}
		})
	}
}

// The cache skips the object the previous cached barrier saw, and
// forgets it at a collection.
func TestAccessBitmapCache(t *testing.T) {
	y := newToy(t, Config{AccessBitmap: true})
	y.h.Seal()
	b := y.h.Access
	o1 := y.root(y.obj(0, 16, Movable))
	o2 := y.root(y.obj(0, 16, Movable))
	b.MarkCached(y.roots[o1])
	b.MarkCached(y.roots[o1])
	b.MarkCached(y.roots[o2])
	b.MarkCached(y.roots[o1])
	if b.Executed != 4 || b.CacheHits != 1 {
		t.Fatalf("executed %d, hits %d; want 4, 1", b.Executed, b.CacheHits)
	}
	y.h.Collect(CauseExplicit)
	b.MarkCached(y.roots[o1]) // the same address, a new epoch: must mark
	if !b.Marked(y.roots[o1]) || b.CacheHits != 1 {
		t.Errorf("after a collection: marked %v, hits %d", b.Marked(y.roots[o1]), b.CacheHits)
	}
}
