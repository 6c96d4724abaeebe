package heap

import "testing"

func TestReadWrite(t *testing.T) {
	h := New(ImageBase + ImageMax)
	for _, a := range []uint32{MainBase, MainBase + 8, ImageBase, ImageBase + ImageMax - 8} {
		h.SetU64(a, 0x0102030405060708)
		if h.U32(a) != 0x05060708 || h.U16(a+4) != 0x0304 || h.U8(a+7) != 1 {
			t.Errorf("%#x: little-endian layout broken", a)
		}
		h.Clear(a, 8)
		if h.U64(a) != 0 {
			t.Errorf("%#x: not cleared", a)
		}
	}
	h.SetU32(MainBase, 7)
	h.Copy(MainBase+64, MainBase, 8)
	if h.U32(MainBase+64) != 7 {
		t.Error("copy lost the value")
	}
}

func TestAlign(t *testing.T) {
	for _, c := range []struct{ in, want uint32 }{{0, 0}, {1, 8}, {8, 8}, {12, 16}, {17, 24}} {
		if got := Align(c.in); got != c.want {
			t.Errorf("Align(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}

// Released pages read as zeros; a range too small to release keeps its
// contents.
func TestRelease(t *testing.T) {
	h := New(ImageBase)
	for _, c := range []struct {
		n    uint32
		kept bool
	}{{64 << 10, false}, {16 << 10, true}} {
		a := uint32(MainBase + 1<<20)
		h.SetU32(a+8192, 42)
		h.Release(a, c.n)
		if got := h.U32(a+8192) == 42; got != c.kept {
			t.Errorf("release of %d bytes: value kept %v, want %v", c.n, got, c.kept)
		}
	}
}
