// Package leak ranks allocation sites and classes by how likely their
// objects leak, from the Address-Chains: the staleness of each live
// object (GC epochs since its last access) times its size, the rule of
// LeakTracer that paper 003 uses, summed per site or class.
//
// A leak grows: objects that are kept but never used again pile up, and
// their staleness grows with every collection. So the score of a group
// is taken at several collections through the run and the largest is
// kept — the end of a run may read everything once more (a final
// report, a checksum), which must not hide the leak it had all along.
//
// Staleness needs the access bitmaps (the aot engine's barriers). Without
// them an object is taken as used only at its allocation, and staleness
// becomes age. With them, only objects of the main space are scored: the
// bitmap covers nothing else (paper 003 tracks accesses there only).
package leak

import (
	"cmp"
	"slices"

	"github.com/droidprof/droidprof/plugins/artobj/chain"
)

// Score is one group's (an allocation site's or a class's) leak score.
type Score struct {
	Key uint32 // site or class id
	// Score is Σ size × staleness over the group's live objects at
	// Epoch, in byte·epochs: the largest over the collections checked.
	Score float64
	Epoch uint32
	// Objects and Bytes are the group's live objects at Epoch; Stale
	// their mean staleness in epochs.
	Objects int
	Bytes   uint64
	Stale   float64
}

// samples is how many collections through the run are scored.
const samples = 64

// Rank scores every group of objects key names (chain.Object's Site or
// Class) and returns them best first: the likeliest leak first.
func Rank(h *chain.Heap, key func(*chain.Object) uint32) []Score {
	useBitmap := h.AccessEpochs > 0
	epochs := sampleEpochs(h.Epochs)
	type acc struct {
		score float64
		n     int
		bytes uint64
		stale float64
	}
	best := map[uint32]*Score{}
	for _, g := range epochs {
		cur := map[uint32]*acc{}
		for i := range h.Objects {
			o := &h.Objects[i]
			if useBitmap && !o.Main {
				continue
			}
			if o.Birth >= g || (o.Death != chain.Alive && uint32(o.Death) <= g) {
				continue // not yet born, or dead, when collection g starts
			}
			s := float64(staleness(o, g))
			a := cur[key(o)]
			if a == nil {
				a = &acc{}
				cur[key(o)] = a
			}
			a.score += s * float64(o.Size)
			a.n++
			a.bytes += uint64(o.Size)
			a.stale += s
		}
		for k, a := range cur {
			b := best[k]
			if b == nil {
				b = &Score{Key: k, Score: -1}
				best[k] = b
			}
			if a.score > b.Score {
				*b = Score{Key: k, Score: a.score, Epoch: g, Objects: a.n, Bytes: a.bytes, Stale: a.stale / float64(a.n)}
			}
		}
	}
	out := make([]Score, 0, len(best))
	for _, b := range best {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b Score) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Key, b.Key))
	})
	return out
}

// staleness is the epochs between o's last use before collection g and
// the epoch g ends (g − 1): 0 for an object used in that epoch. An
// object's allocation counts as a use.
func staleness(o *chain.Object, g uint32) uint32 {
	last := o.Birth
	// The access epochs before g, the last of them.
	if i, _ := slices.BinarySearch(o.Accessed, g); i > 0 {
		last = max(last, o.Accessed[i-1])
	}
	return g - 1 - last
}

// sampleEpochs are the collections scored: every one up to samples of
// them, evenly spread otherwise, and the end of the run (epoch
// h.Epochs+1 stands for the exit, after the last epoch).
func sampleEpochs(n uint32) []uint32 {
	var out []uint32
	if n <= samples {
		for g := uint32(1); g <= n; g++ {
			out = append(out, g)
		}
	} else {
		for i := uint32(1); i <= samples; i++ {
			out = append(out, i*n/samples)
		}
	}
	return append(out, n+1)
}
