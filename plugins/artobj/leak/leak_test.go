package leak

import (
	"testing"

	"github.com/droidprof/droidprof/plugins/artobj/chain"
)

// obj is an object of site, born in birth, accessed in the epochs given.
func obj(site, size, birth uint32, death int64, main bool, accessed ...uint32) chain.Object {
	o := chain.Object{Site: site, Size: size, Birth: birth, Death: death, LastUse: -1, Main: main, Accessed: accessed, Uses: len(accessed)}
	if len(accessed) > 0 {
		o.LastUse = int64(accessed[len(accessed)-1])
	}
	return o
}

func every(from, to uint32) []uint32 {
	var out []uint32
	for e := from; e <= to; e++ {
		out = append(out, e)
	}
	return out
}

func TestRank(t *testing.T) {
	const epochs = 10
	for _, tc := range []struct {
		name    string
		objects []chain.Object
		access  bool
		want    []uint32 // sites, best first
	}{
		{
			// Site 1: large objects used in every epoch (a cache in use);
			// site 2: smaller ones never used after birth (the leak);
			// site 3: short-lived temporaries (no leak, and fewer bytes than site 1).
			name: "stale beats large",
			objects: []chain.Object{
				obj(1, 1000, 0, chain.Alive, true, every(0, epochs)...), obj(1, 1000, 0, chain.Alive, true, every(0, epochs)...),
				obj(2, 100, 0, chain.Alive, true), obj(2, 100, 1, chain.Alive, true), obj(2, 100, 2, chain.Alive, true),
				obj(3, 50, 3, 6, true, 3, 4, 5), obj(3, 50, 5, 6, true),
			},
			access: true, want: []uint32{2, 1, 3},
		},
		{
			// Site 2's objects are all read once more at exit (a final
			// report): the leak they were all run long still ranks first.
			name: "a last read at exit does not hide a leak",
			objects: []chain.Object{
				obj(1, 100, 0, chain.Alive, true, every(0, epochs)...),
				obj(2, 100, 0, chain.Alive, true, epochs), obj(2, 100, 0, chain.Alive, true, epochs),
			},
			access: true, want: []uint32{2, 1},
		},
		{
			// Outside the main space the bitmap sees nothing: not scored.
			name: "outside the main space",
			objects: []chain.Object{
				obj(1, 100, 0, chain.Alive, true, every(0, epochs)...), obj(1, 100, 0, chain.Alive, true, 5),
				obj(2, 10000, 0, chain.Alive, false),
			},
			access: true, want: []uint32{1},
		},
		{
			// Without bitmaps staleness is age: the oldest bytes first.
			name: "no access information",
			objects: []chain.Object{
				obj(1, 100, 8, chain.Alive, false), obj(2, 100, 0, chain.Alive, false), obj(3, 100, 0, 3, false),
			},
			want: []uint32{2, 1, 3},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &chain.Heap{Objects: tc.objects, Epochs: epochs}
			if tc.access {
				h.AccessEpochs = epochs + 1
			}
			got := Rank(h, func(o *chain.Object) uint32 { return o.Site })
			if len(got) != len(tc.want) {
				t.Fatalf("ranked %+v, want sites %v", got, tc.want)
			}
			for i, s := range got {
				if s.Key != tc.want[i] {
					t.Errorf("rank %d: site %d (score %.0f), want %d; all %+v", i+1, s.Key, s.Score, tc.want[i], got)
				}
			}
		})
	}
}
