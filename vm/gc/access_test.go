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
			e0 := b.Epoch()
			y.h.Collect(CauseExplicit)
			if b.Epoch() == e0 {
				t.Errorf("Epoch %d unchanged by a collection", e0)
			}
			if len(seen) != 1 || !slices.Equal(seen[0], want) {
				t.Fatalf("first epoch: %#x, want [%#x]", seen, want)
			}
			if b.Marked(y.roots[a1]) || b.Marked(y.roots[a2]) {
				t.Error("bits left after the collection")
			}
			if wantBase := uint32(heap.MainBase); col == SS && b.Base() == wantBase {
				t.Errorf("bitmap base %#x did not follow the main space to the other half", b.Base())
			}
			e1 := b.Epoch()
			b.Mark(y.roots[a2]) // its address after the collection
			if b.Epoch() != e1 {
				t.Errorf("Epoch changed by a barrier: %d → %d", e1, b.Epoch())
			}
			if !b.Marked(y.roots[a2]) || b.Marked(y.roots[a1]) {
				t.Errorf("second epoch: a2 %v, a1 %v", b.Marked(y.roots[a2]), b.Marked(y.roots[a1]))
			}
			y.h.Collect(CauseExplicit)
			if len(seen) != 2 || !slices.Equal(seen[1], []uint32{y.roots[a2]}) && col == CMS {
				t.Fatalf("second epoch: %#x, want [%#x]", seen, y.roots[a2])
			}
			if b.Epoch() == e1 {
				t.Errorf("Epoch %d unchanged by the second collection", e1)
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

// The cache skips an object a cached barrier saw before in this epoch
// while its slot still holds it: objects of different slots do not evict
// each other (the loop over two or three arrays), two of one slot do, and
// a collection forgets them all.
func TestAccessBitmapCache(t *testing.T) {
	for _, c := range []struct {
		name string
		// the objects' cache slots (different objects for one slot
		// given twice), and the order the barriers see them in
		slots []uint32
		seq   []int
		hits  uint64
	}{
		{"one object again", []uint32{0}, []int{0, 0, 0}, 2},
		{"three objects in turn, three slots", []uint32{0, 2, 6}, []int{0, 1, 2, 0, 1, 2, 0}, 4},
		{"two objects of one slot evict each other", []uint32{3, 3}, []int{0, 1, 0, 1}, 0},
		{"an evicted object comes back", []uint32{5, 5, 9}, []int{0, 2, 1, 2, 0, 0}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			y := newToy(t, Config{AccessBitmap: true})
			y.h.Seal()
			b := y.h.Access
			// the bitmap and the cache see addresses: in one large
			// object, the first unused address of each slot asked for
			const room = 64 * cacheSlots
			base := y.obj(0, room*heap.Alignment, Movable)
			used := map[uint32]bool{}
			var objs []uint32
			for _, s := range c.slots {
				for i := uint32(0); ; i++ {
					if i == room {
						t.Fatalf("no free address of slot %d in %d", s, room)
					}
					if a := base + i*heap.Alignment; cacheSlot(a) == s && !used[a] {
						used[a] = true
						objs = append(objs, a)
						break
					}
				}
			}
			for _, k := range c.seq {
				b.MarkCached(objs[k])
			}
			if b.Executed != uint64(len(c.seq)) || b.CacheHits != c.hits {
				t.Fatalf("executed %d, hits %d; want %d, %d", b.Executed, b.CacheHits, len(c.seq), c.hits)
			}
			for _, k := range c.seq {
				if !b.Marked(objs[k]) {
					t.Errorf("object %d not marked", k)
				}
			}
			y.h.Collect(CauseExplicit)
			for k, a := range objs {
				if b.Marked(a) {
					t.Errorf("object %d still marked after the collection", k)
				}
				b.MarkCached(a) // a new epoch: each must mark
				if !b.Marked(a) || b.CacheHits != c.hits {
					t.Errorf("after a collection: object %d marked %v, hits %d", k, b.Marked(a), b.CacheHits)
				}
			}
		})
	}
}
