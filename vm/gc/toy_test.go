package gc

import (
	"fmt"
	"testing"

	"github.com/droidprof/droidprof/vm/heap"
)

// toy is a minimal object model for the collectors' tests: one class
// object in the image; every object is [class, size, nrefs, refs...].
type toy struct {
	h     *Heap
	mem   *heap.Heap
	class uint32
	roots []uint32
}

func newToy(t *testing.T, cfg Config) *toy {
	t.Helper()
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	end := uint32(heap.LargeBase) + cfg.Max
	if cfg.Collector == SS {
		end = heap.SemiBase + cfg.Max
	}
	y := &toy{mem: heap.New(end)}
	y.h = New(cfg, y.mem, y)
	k, _ := y.h.AllocImage(16)
	y.mem.SetU32(k, k)
	y.mem.SetU32(k+4, 16)
	y.class = k
	return y
}

func (y *toy) SizeOf(a uint32) uint32 { return y.mem.U32(a + 4) }

func (y *toy) Scan(a uint32, _ bool, f func(slot uint32)) {
	f(a)
	if a == y.class {
		return
	}
	for i := uint32(0); i < y.mem.U32(a+8); i++ {
		f(a + 12 + 4*i)
	}
}

func (y *toy) Roots(f func(p *uint32)) {
	for i := range y.roots {
		f(&y.roots[i])
	}
}

func (y *toy) ProcessReferences(Tracer, bool) {}

func (y *toy) CheckRef(_, _, v uint32) string {
	if y.mem.U32(v) != y.class {
		return "not a toy object"
	}
	return ""
}

func (y *toy) DescribeRoot(n int) string { return fmt.Sprintf("toy root %d", n) }

func (y *toy) CheckObject(a uint32) string {
	if c := y.mem.U32(a); c != y.class {
		return fmt.Sprintf("class word %#x", c)
	}
	return ""
}

// obj allocates an object with n reference slots and size bytes in all
// (at least 12+4n), or returns 0.
func (y *toy) obj(n, size uint32, kind AllocKind) uint32 {
	size = max(size, 12+4*n)
	a := y.h.Alloc(size, kind)
	if a != 0 {
		y.mem.SetU32(a, y.class)
		y.mem.SetU32(a+4, size)
		y.mem.SetU32(a+8, n)
	}
	return a
}

// root keeps a alive and returns its root index.
func (y *toy) root(a uint32) int {
	y.roots = append(y.roots, a)
	return len(y.roots) - 1
}
