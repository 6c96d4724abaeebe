package revmap

import (
	"sort"
)

// History is what a trace tells about blocks and names over time: which
// inode a block range was mapped to and when, when it was freed, and what
// an inode was called. It maps the blocks of files that no longer exist at
// the end of the trace — what MOST needed a kernel patch for.
type History struct {
	maps    []mapping
	byStart []int // indexes into maps, sorted by start
	maxEnd  []uint64
	names   map[uint32][]named
	unlink  map[uint32]int64
}

type mapping struct {
	start, end uint64
	t          int64
	ino        uint32 // 0: freed
}

type named struct {
	t    int64
	path string
}

// NewHistory returns an empty history.
func NewHistory() *History {
	return &History{names: map[uint32][]named{}, unlink: map[uint32]int64{}}
}

// MapBlocks records that at time t blocks [pblk, pblk+n) belonged to ino
// (ext4_ext_map_blocks_exit, ext4_ind_map_blocks_exit,
// ext4_allocate_blocks).
func (h *History) MapBlocks(t int64, ino uint32, pblk, n uint64) {
	if n == 0 || ino == 0 {
		return
	}
	h.maps = append(h.maps, mapping{start: pblk, end: pblk + n, t: t, ino: ino})
	h.byStart = nil
}

// FreeBlocks records that at time t blocks [pblk, pblk+n) were freed
// (ext4_free_blocks).
func (h *History) FreeBlocks(t int64, pblk, n uint64) {
	if n == 0 {
		return
	}
	h.maps = append(h.maps, mapping{start: pblk, end: pblk + n, t: t})
	h.byStart = nil
}

// Name records that from time t inode ino was called path (relative to the
// filesystem root, "/a/b").
func (h *History) Name(t int64, ino uint32, path string) {
	h.names[ino] = append(h.names[ino], named{t: t, path: path})
}

// Unlink records the unlink of ino at time t (ext4_unlink_enter).
func (h *History) Unlink(t int64, ino uint32) {
	if _, ok := h.unlink[ino]; !ok {
		h.unlink[ino] = t
	}
}

// Unlinked reports whether the trace saw ino unlinked.
func (h *History) Unlinked(ino uint32) bool {
	_, ok := h.unlink[ino]
	return ok
}

func (h *History) index() {
	if h.byStart != nil || len(h.maps) == 0 {
		return
	}
	h.byStart = make([]int, len(h.maps))
	for i := range h.byStart {
		h.byStart[i] = i
	}
	sort.SliceStable(h.byStart, func(a, b int) bool { return h.maps[h.byStart[a]].start < h.maps[h.byStart[b]].start })
	h.maxEnd = make([]uint64, len(h.byStart))
	var m uint64
	for i, k := range h.byStart {
		m = max(m, h.maps[k].end)
		h.maxEnd[i] = m
	}
}

// Owner returns the inode block belonged to at time t according to the
// trace: the latest mapping or free of the block at or before t, else the
// earliest after t (a block allocated by the first event that names it).
// ok is false when the trace says nothing about the block, or that it was
// free at t.
func (h *History) Owner(block uint64, t int64) (ino uint32, ok bool) {
	h.index()
	hi := sort.Search(len(h.byStart), func(i int) bool { return h.maps[h.byStart[i]].start > block })
	best, after := -1, -1
	for i := hi - 1; i >= 0 && h.maxEnd[i] > block; i-- {
		m := h.maps[h.byStart[i]]
		if block >= m.end {
			continue
		}
		k := h.byStart[i]
		switch {
		case m.t <= t:
			if best < 0 || m.t > h.maps[best].t || m.t == h.maps[best].t && k > best {
				best = k
			}
		default:
			if after < 0 || m.t < h.maps[after].t {
				after = k
			}
		}
	}
	if best < 0 {
		best = after
	}
	if best < 0 || h.maps[best].ino == 0 {
		return 0, false
	}
	return h.maps[best].ino, true
}

// NameOf returns what ino was called at time t: the latest name given at or
// before t, else the first one given.
func (h *History) NameOf(ino uint32, t int64) (string, bool) {
	ns := h.names[ino]
	if len(ns) == 0 {
		return "", false
	}
	best := ns[0]
	for _, n := range ns {
		if n.t <= t && n.t >= best.t {
			best = n
		}
	}
	return best.path, true
}
