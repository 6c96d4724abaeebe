package revmap

import (
	"sort"
)

// History is what a trace tells about blocks and names over time: which
// inode a block range was mapped to and when, when it was freed, and what
// an inode was called. It maps the blocks of files that no longer exist at
// the end of the trace — what MOST needed a kernel patch for.
type History struct {
	// blocks holds, per block, the changes of its owner in trace order;
	// a stamp is added only when the owner changes, so the many lookups
	// of the same extent a workload causes cost nothing later.
	blocks map[uint64][]stamp
	names  map[uint32][]named
	unlink map[uint32]int64
}

type stamp struct {
	t   int64
	ino uint32 // 0: freed
}

type named struct {
	t    int64
	path string
}

// NewHistory returns an empty history.
func NewHistory() *History {
	return &History{blocks: map[uint64][]stamp{}, names: map[uint32][]named{}, unlink: map[uint32]int64{}}
}

// MapBlocks records that at time t blocks [pblk, pblk+n) belonged to ino
// (ext4_ext_map_blocks_exit, ext4_ind_map_blocks_exit,
// ext4_allocate_blocks).
func (h *History) MapBlocks(t int64, ino uint32, pblk, n uint64) {
	if ino == 0 {
		return
	}
	h.set(t, ino, pblk, n)
}

// FreeBlocks records that at time t blocks [pblk, pblk+n) were freed
// (ext4_free_blocks).
func (h *History) FreeBlocks(t int64, pblk, n uint64) { h.set(t, 0, pblk, n) }

func (h *History) set(t int64, ino uint32, pblk, n uint64) {
	for b := pblk; b < pblk+n; b++ {
		st := h.blocks[b]
		if k := len(st); k > 0 && st[k-1].ino == ino {
			continue
		}
		h.blocks[b] = append(st, stamp{t: t, ino: ino})
	}
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

// Owner returns the inode block belonged to at time t according to the
// trace: the latest mapping or free of the block at or before t, else the
// earliest after t (a block allocated by the first event that names it).
// ok is false when the trace says nothing about the block, or that it was
// free at t.
func (h *History) Owner(block uint64, t int64) (ino uint32, ok bool) {
	st := h.blocks[block]
	if len(st) == 0 {
		return 0, false
	}
	i := sort.Search(len(st), func(i int) bool { return st[i].t > t })
	if i > 0 {
		i--
	}
	return st[i].ino, st[i].ino != 0
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
