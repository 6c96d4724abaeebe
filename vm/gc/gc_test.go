package gc

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/heap"
)

// Each space hands out addresses in its own range: ordinary objects in
// the zygote space before Seal and in the main space after, class
// objects in the non-moving space, large primitive arrays page-aligned
// in the large-object space.
func TestSpaces(t *testing.T) {
	for _, col := range []Collector{CMS, SS} {
		y := newToy(t, Config{Collector: col})
		zyg := y.obj(0, 24, Movable)
		y.h.Seal()
		cases := []struct {
			name      string
			a         uint32
			base, end uint32
			align     uint32
		}{
			{"zygote", zyg, heap.ZygoteBase, heap.ZygoteBase + heap.ZygoteMax, 8},
			{"main", y.obj(1, 24, Movable), heap.MainBase, heap.ImageBase, 8},
			{"small array", y.obj(0, 4000, LargeEligible), heap.MainBase, heap.ImageBase, 8},
			{"non-moving", y.obj(0, 100, NonMoving), heap.NonMovingBase, heap.LargeBase, 8},
			{"large", y.obj(0, LargeThreshold, LargeEligible), heap.LargeBase, heap.SemiBase, pageSize},
			{"large 2", y.obj(0, LargeThreshold+1, LargeEligible), heap.LargeBase, heap.SemiBase, pageSize},
		}
		for _, c := range cases {
			if c.a < c.base || c.a >= c.end || c.a%c.align != 0 {
				t.Errorf("%s: %s object at %#x, want in [%#x, %#x) aligned to %d", col, c.name, c.a, c.base, c.end, c.align)
			}
		}
		if got := cases[5].a - cases[4].a; got != 12<<10 {
			t.Errorf("%s: large objects %d bytes apart, want 12 KiB (page-rounded)", col, got)
		}
		if err := y.h.Verify(); err != nil {
			t.Errorf("%s: %v", col, err)
		}
	}
}

// The write barrier is what lets a sticky collection find a young object
// referenced only from an old one.
func TestStickyNeedsTheCardTable(t *testing.T) {
	for _, barrier := range []bool{true, false} {
		y := newToy(t, Config{Collector: CMS})
		y.h.Seal()
		old := y.obj(1, 16, Movable)
		y.root(old)
		y.h.collect(Full, CauseExplicit, false) // old is old now
		young := y.obj(0, 16, Movable)
		if barrier {
			y.h.StoreRef(old, old+12, young)
		} else {
			y.mem.SetU32(old+12, young)
		}
		var freed []uint32
		y.h.OnFree = func(a, _ uint32) { freed = append(freed, a) }
		var kinds []Kind
		y.h.OnEnd = func(i Info) { kinds = append(kinds, i.Kind) }
		y.h.collect(Sticky, CauseExplicit, false)
		if kinds[0] != Sticky {
			t.Fatalf("ran %v, want sticky", kinds)
		}
		died := len(freed) == 1 && freed[0] == young
		if died == barrier {
			t.Errorf("barrier %v: freed %#x (young %#x)", barrier, freed, young)
		}
	}
}

// A sticky collection frees only young objects; a partial one leaves
// the zygote space alone; a full one collects it too.
func TestKindsAndTheZygote(t *testing.T) {
	y := newToy(t, Config{Collector: CMS})
	z1, z2 := y.obj(0, 16, Movable), y.obj(0, 16, Movable) // unreachable
	y.h.Seal()
	old := y.obj(0, 16, Movable)
	y.h.collect(Partial, CauseExplicit, false)
	if y.h.IsLive(old) || !y.h.IsLive(z1) {
		t.Errorf("partial collection: old %#x live %v, z1 %#x live %v", old, y.h.IsLive(old), z1, y.h.IsLive(z1))
	}
	young := y.obj(0, 16, Movable)
	cases := []struct {
		kind Kind
		live map[uint32]bool
	}{
		{Sticky, map[uint32]bool{z1: true, z2: true, young: false}},
		{Partial, map[uint32]bool{z1: true, z2: true}},
		{Full, map[uint32]bool{z1: false, z2: false}},
	}
	var spaces []string
	y.h.OnEnd = func(i Info) { spaces = i.Spaces }
	for _, c := range cases {
		y.h.collect(c.kind, CauseExplicit, false)
		if hasZygote := slices.Contains(spaces, "zygote"); hasZygote != (c.kind == Full) || !slices.Contains(spaces, "main rosalloc space") {
			t.Errorf("%v collection reports spaces %q", c.kind, spaces)
		}
		for a, want := range c.live {
			if got := y.h.IsLive(a); got != want {
				t.Errorf("after %v: object %#x live %v, want %v", c.kind, a, got, want)
			}
		}
	}
	if z1 < heap.ZygoteBase || z1 >= heap.NonMovingBase {
		t.Errorf("zygote-phase object at %#x", z1)
	}
}

// The semi-space collector moves every reachable main-space object,
// updates the roots and the references to it, reports each move and the
// dead it leaves behind, and leaves other spaces' objects in place.
func TestSemiSpaceMoves(t *testing.T) {
	y := newToy(t, Config{Collector: SS, Verify: true})
	y.h.Seal()
	a := y.obj(2, 0, Movable)
	ra := y.root(a)
	b := y.obj(1, 0, Movable)
	y.h.StoreRef(y.roots[ra], y.roots[ra]+12, b)
	y.h.StoreRef(b, b+12, y.roots[ra]) // a cycle
	dead := y.obj(0, 40, Movable)
	nm := y.obj(1, 0, NonMoving)
	y.h.StoreRef(y.roots[ra], y.roots[ra]+16, nm)
	y.h.StoreRef(nm, nm+12, b)
	moves := map[uint32]uint32{}
	y.h.OnMove = func(from, to, _ uint32) { moves[from] = to }
	var freed []uint32
	y.h.OnFree = func(a, _ uint32) { freed = append(freed, a) }
	y.h.Collect(CauseExplicit)
	a2 := y.roots[ra]
	if moves[a] != a2 || a2 == a {
		t.Fatalf("a moved %#x -> %#x, root says %#x", a, moves[a], a2)
	}
	b2 := moves[b]
	if b2 == 0 || y.mem.U32(a2+12) != b2 || y.mem.U32(b2+12) != a2 || y.mem.U32(nm+12) != b2 || y.mem.U32(a2+16) != nm {
		t.Errorf("references not updated: a.0=%#x a.1=%#x b.0=%#x nm.0=%#x; b -> %#x", y.mem.U32(a2+12), y.mem.U32(a2+16), y.mem.U32(b2+12), y.mem.U32(nm+12), b2)
	}
	if _, ok := moves[nm]; ok {
		t.Error("a non-moving object moved")
	}
	if len(freed) != 1 || freed[0] != dead {
		t.Errorf("freed %#x, want [%#x]", freed, dead)
	}
	if y.h.Allocated() != uint64(heap.Align(20)+heap.Align(16)+heap.Align(16)) {
		t.Errorf("allocated %d after the collection", y.h.Allocated())
	}
}

// The verifier names the object, the field's offset and the bad value.
func TestVerifierFindsABadReference(t *testing.T) {
	for _, col := range []Collector{CMS, SS} {
		y := newToy(t, Config{Collector: col})
		y.h.Seal()
		a := y.obj(2, 0, Movable)
		y.root(a)
		b := y.obj(0, 0, Movable)
		y.mem.SetU32(a+16, b+4)
		err := y.h.Verify()
		want := regexp.MustCompile(`object 0x[0-9a-f]+ in .*: the reference at offset 16 holds 0x[0-9a-f]+, which is not a live object`)
		if err == nil || !want.MatchString(err.Error()) || !strings.Contains(err.Error(), "0x") {
			t.Errorf("%s: Verify() = %v", col, err)
		}
	}
}

// When a full collection that clears soft references cannot make room,
// the allocation fails with ART 11's message.
func TestOutOfMemoryMessage(t *testing.T) {
	for _, col := range []Collector{CMS, SS} {
		y := newToy(t, Config{Collector: col, Max: 1 << 20})
		y.h.Seal()
		n := 0
		for ; n < 1<<20; n++ {
			a := y.obj(0, 1000, Movable)
			if a == 0 {
				break
			}
			y.root(a)
		}
		msg := y.h.OOMMessage(1000)
		want := regexp.MustCompile(`^Failed to allocate a 1000 byte allocation with \d+ free bytes and \d+(B|KB|MB) until OOM, target footprint \d+, growth limit 1048576`)
		if !want.MatchString(msg) {
			t.Errorf("%s: after %d objects: %q", col, n, msg)
		}
		if y.h.Allocated()+1000 <= 1<<20 && col == SS {
			t.Errorf("%s: failed with %d of %d bytes allocated", col, y.h.Allocated(), 1<<20)
		}
	}
}

// What the zygote phase allocated belongs to the sealed zygote space:
// a sticky collection right after Seal must not free it as young.
func TestSealMakesZygoteObjectsOld(t *testing.T) {
	y := newToy(t, Config{Collector: CMS})
	z := y.obj(0, 16, Movable) // unreachable, but in the zygote space
	y.h.Seal()
	y.h.collect(Sticky, CauseExplicit, false)
	y.h.collect(Partial, CauseExplicit, false)
	if !y.h.IsLive(z) {
		t.Fatal("a sticky or partial collection freed a zygote object")
	}
	y.h.collect(Full, CauseExplicit, false)
	if y.h.IsLive(z) {
		t.Fatal("a full collection kept an unreachable zygote object")
	}
}

// A failed allocation runs ART's sequence: the next kind, each more
// thorough kind of the plan, growth, then a full collection that clears
// soft references; only then does it give up.
func TestFailedAllocationPath(t *testing.T) {
	cases := []struct {
		col  Collector
		want []string
	}{
		{CMS, []string{"sticky Alloc", "partial Alloc", "full Alloc", "full Alloc (soft cleared)"}},
		{SS, []string{"full Alloc", "full Alloc (soft cleared)"}},
	}
	for _, c := range cases {
		y := newToy(t, Config{Collector: c.col, Max: 1 << 20})
		y.h.Seal()
		for y.h.Allocated() < 900<<10 {
			y.root(y.obj(0, 1000, Movable))
		}
		var got []string
		y.h.OnEnd = func(i Info) {
			if i.Cause == CauseAlloc {
				got = append(got, i.Kind.String()+" "+string(i.Cause))
			} else {
				got = append(got, "")
			}
		}
		soft := []bool{}
		y.h.rt = softSpy{y, &soft}
		if a := y.obj(0, 200<<10, Movable); a != 0 {
			t.Fatalf("%s: a 200 KiB object fitted in a full 1 MiB heap", c.col)
		}
		var alloc []string
		for i := range got {
			if soft[i] {
				got[i] += " (soft cleared)"
			}
			if got[i] != "" {
				alloc = append(alloc, got[i])
			}
		}
		got = alloc
		if strings.Join(got, ", ") != strings.Join(c.want, ", ") {
			t.Errorf("%s: collections %q, want %q", c.col, got, c.want)
		}
	}
}

// softSpy records whether each collection clears soft references.
type softSpy struct {
	*toy
	soft *[]bool
}

func (s softSpy) ProcessReferences(_ Tracer, clearSoft bool) { *s.soft = append(*s.soft, clearSoft) }

// Dead large objects give their pages back: a later large allocation
// reuses them.
func TestLargeObjectsReuse(t *testing.T) {
	y := newToy(t, Config{Collector: CMS})
	y.h.Seal()
	a := y.obj(0, 20<<10, LargeEligible)
	keep := y.obj(0, 20<<10, LargeEligible)
	y.root(keep)
	var freed []uint32
	y.h.OnFree = func(addr, size uint32) {
		if size != 20<<10 {
			t.Errorf("large object of %d bytes freed, want 20 KiB (page-rounded)", size)
		}
		freed = append(freed, addr)
	}
	var info Info
	y.h.OnEnd = func(i Info) { info = i }
	y.h.Collect(CauseExplicit)
	if len(freed) != 1 || freed[0] != a || info.FreedLarge != 1 || info.FreedLargeBytes != 20<<10 || info.FreedObjects != 0 {
		t.Fatalf("freed %#x, info %+v", freed, info)
	}
	if b := y.obj(0, 16<<10, LargeEligible); b != a {
		t.Errorf("new large object at %#x, want the freed pages at %#x", b, a)
	}
}

// The card scan finds exactly the dirty cards, clipped to the range,
// whatever their place among clean ones.
func TestCardScan(t *testing.T) {
	c := newCardTable()
	base := uint32(heap.MainBase)
	dirty := []uint32{0, 7, 8, 9, 63, 64, 200}
	for _, i := range dirty {
		c.mark(base + i<<heap.CardShift + 5)
	}
	var got []uint32
	c.scan(base+1, base+200<<heap.CardShift+1, func(lo, hi uint32) {
		got = append(got, (lo-base)>>heap.CardShift)
		if lo != base+1 && lo%(1<<heap.CardShift) != 0 || hi-lo > 1<<heap.CardShift {
			t.Errorf("card range [%#x, %#x)", lo, hi)
		}
	})
	if fmt.Sprint(got) != fmt.Sprint(dirty) {
		t.Errorf("dirty cards %v, want %v", got, dirty)
	}
	c.clearRange(base, base+300<<heap.CardShift)
	c.scan(base, base+300<<heap.CardShift, func(lo, _ uint32) { t.Errorf("card at %#x still dirty", lo) })
}
