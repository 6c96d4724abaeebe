package revmap

import "testing"

func TestHistoryOwner(t *testing.T) {
	h := NewHistory()
	h.MapBlocks(10, 12, 100, 8) // file 12 gets 100-107 at t=10
	h.FreeBlocks(20, 100, 8)    // deleted at 20
	h.MapBlocks(30, 13, 104, 4) // 104-107 reused by 13 at 30
	h.MapBlocks(5, 14, 500, 1)
	for _, tt := range []struct {
		block uint64
		t     int64
		ino   uint32
		ok    bool
	}{
		{100, 15, 12, true},
		{107, 15, 12, true},
		{100, 25, 0, false}, // freed
		{105, 25, 0, false},
		{105, 35, 13, true},
		{101, 35, 0, false},
		{100, 1, 12, true}, // before any event: the first mapping after
		{500, 100, 14, true},
		{108, 15, 0, false}, // never mapped
		{99, 15, 0, false},
	} {
		ino, ok := h.Owner(tt.block, tt.t)
		if ino != tt.ino || ok != tt.ok {
			t.Errorf("Owner(%d, %d) = %d %v, want %d %v", tt.block, tt.t, ino, ok, tt.ino, tt.ok)
		}
	}
}

func TestHistoryNames(t *testing.T) {
	h := NewHistory()
	h.Name(10, 12, "/a.db-journal")
	h.Name(50, 12, "/b.db-journal") // inode reused under another name
	for _, tt := range []struct {
		t    int64
		want string
	}{{5, "/a.db-journal"}, {20, "/a.db-journal"}, {60, "/b.db-journal"}} {
		if got, ok := h.NameOf(12, tt.t); !ok || got != tt.want {
			t.Errorf("NameOf(12, %d) = %q, want %q", tt.t, got, tt.want)
		}
	}
	if _, ok := h.NameOf(13, 0); ok {
		t.Error("a name for an inode never named")
	}
	h.Unlink(70, 12)
	if !h.Unlinked(12) || h.Unlinked(13) {
		t.Error("Unlinked")
	}
}
