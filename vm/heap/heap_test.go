package heap

import "testing"

func TestAllocAlignsAndZeroes(t *testing.T) {
	h := New(1 << 20)
	a, ok := h.Alloc(12)
	if !ok || a != MainBase {
		t.Fatalf("first allocation at %#x, %v; want %#x", a, ok, MainBase)
	}
	h.SetU32(a+8, 0xdeadbeef)
	b, _ := h.Alloc(1)
	if b != a+16 {
		t.Fatalf("second allocation at %#x, want %#x (12 bytes round up to 16)", b, a+16)
	}
	if h.Allocated != 24 {
		t.Fatalf("Allocated = %d, want 24", h.Allocated)
	}
	i, ok := h.AllocImage(20)
	if !ok || i != ImageBase || !h.InImage(i) || h.InImage(a) {
		t.Fatalf("image allocation at %#x", i)
	}
}

func TestLimit(t *testing.T) {
	h := New(64)
	if _, ok := h.Alloc(64); !ok {
		t.Fatal("allocation of the whole heap failed")
	}
	if _, ok := h.Alloc(8); ok {
		t.Fatal("allocation beyond heap-max succeeded")
	}
}

// A sweep frees unmarked objects, coalesces neighbouring dead ones into one
// free block, and reuses the memory zeroed.
func TestSweepCoalescesAndReuses(t *testing.T) {
	h := New(1 << 20)
	size := map[uint32]uint32{}
	var objs []uint32
	for i := 0; i < 6; i++ {
		a, _ := h.Alloc(32)
		h.SetU32(a, 0xffffffff)
		size[a] = 32
		objs = append(objs, a)
	}
	h.Mark(objs[0])
	h.Mark(objs[5])
	var dead []uint32
	freed := h.Sweep(func(a uint32) uint32 { return size[a] }, func(a, sz uint32) { dead = append(dead, a) })
	if freed != 4*32 || len(dead) != 4 || dead[0] != objs[1] {
		t.Fatalf("freed %d bytes, dead %x", freed, dead)
	}
	if h.Allocated != 64 {
		t.Fatalf("Allocated after sweep = %d, want 64", h.Allocated)
	}
	// 128 bytes between the survivors: one 100-byte object fits there.
	a, ok := h.Alloc(100)
	if !ok || a != objs[1] {
		t.Fatalf("allocation after sweep at %#x, want the coalesced gap at %#x", a, objs[1])
	}
	if h.U32(a) != 0 {
		t.Fatal("reused memory not zeroed")
	}
	if !h.Valid(objs[0]) || h.Valid(objs[2]) {
		t.Fatal("live bitmap wrong after sweep")
	}
}

func TestSweepReturnsTailToBump(t *testing.T) {
	h := New(1 << 20)
	a, _ := h.Alloc(16)
	b, _ := h.Alloc(16)
	h.Mark(a)
	h.Sweep(func(uint32) uint32 { return 16 }, nil)
	if h.Main.Top != b {
		t.Fatalf("Top = %#x after the last object died, want %#x", h.Main.Top, b)
	}
}
