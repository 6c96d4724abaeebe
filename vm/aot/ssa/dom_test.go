package ssa

import (
	"math/rand"
	"testing"
)

// randomFunc makes a function of n blocks with random edges (each block
// 1–3 successors), all Plain/If/Switch shaped enough for the dominator
// computation, which looks only at edges.
func randomFunc(r *rand.Rand, n int) *Func {
	f := &Func{Name: "rand"}
	for i := 0; i < n; i++ {
		f.NewBlock(BlockPlain)
	}
	for _, b := range f.Blocks {
		k := 1 + r.Intn(3)
		for j := 0; j < k; j++ {
			c := f.Blocks[1+r.Intn(n-1)] // never back to the entry
			b.AddEdge(c)
		}
	}
	return f
}

// naiveDominators computes dominator sets by the textbook data-flow
// equations: Dom(entry) = {entry}; Dom(b) = {b} ∪ ⋂ Dom(p) over reachable
// predecessors p. It is the oracle for the CHK implementation.
func naiveDominators(f *Func) map[*Block]map[*Block]bool {
	reach := map[*Block]bool{}
	for _, b := range f.RPO() {
		reach[b] = true
	}
	dom := map[*Block]map[*Block]bool{}
	all := map[*Block]bool{}
	for b := range reach {
		all[b] = true
	}
	for b := range reach {
		if b == f.Entry() {
			dom[b] = map[*Block]bool{b: true}
			continue
		}
		dom[b] = map[*Block]bool{}
		for x := range all {
			dom[b][x] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.RPO()[1:] {
			var meet map[*Block]bool
			for _, p := range b.Preds {
				if !reach[p] {
					continue
				}
				if meet == nil {
					meet = map[*Block]bool{}
					for x := range dom[p] {
						meet[x] = true
					}
					continue
				}
				for x := range meet {
					if !dom[p][x] {
						delete(meet, x)
					}
				}
			}
			meet[b] = true
			if len(meet) != len(dom[b]) {
				dom[b] = meet
				changed = true
			}
		}
	}
	return dom
}

// TestDominatorsAgainstDefinition checks Cooper–Harvey–Kennedy against
// the data-flow definition on random graphs, reducible or not, with
// unreachable blocks.
func TestDominatorsAgainstDefinition(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	for iter := 0; iter < 300; iter++ {
		f := randomFunc(r, 2+r.Intn(25))
		want := naiveDominators(f)
		idom := f.Idom()
		for _, b := range f.RPO() {
			// b's dominators are b and the chain of its immediate dominators
			got := map[*Block]bool{}
			for d := b; d != nil; d = idom[d.ID] {
				got[d] = true
			}
			if len(got) != len(want[b]) {
				t.Fatalf("graph %d: b%d: CHK gives %d dominators, the definition %d", iter, b.ID, len(got), len(want[b]))
			}
			for d := range want[b] {
				if !got[d] {
					t.Fatalf("graph %d: b%d: b%d dominates it by definition, not by CHK", iter, b.ID, d.ID)
				}
				if !f.Dominates(d, b) {
					t.Fatalf("graph %d: Dominates(b%d, b%d) = false", iter, d.ID, b.ID)
				}
			}
		}
	}
}

func TestIdomExample(t *testing.T) {
	// the irreducible example of Cooper, Harvey and Kennedy's Figure 4:
	// entry 5 → 4, 3; 4 → 1; 3 → 2; 1 → 2; 2 → 1
	f, err := Parse(`
func f
b5:
  v0 = Param <int> [0]
  v1 = Const <int> [0]
  v2 = Eq <bool> v0 v1
  If v2 -> b4 b3
b4: <- b5
  Plain -> b1
b3: <- b5
  Plain -> b2
b1: <- b4 b2
  Plain -> b2
b2: <- b3 b1
  Plain -> b1`)
	if err != nil {
		t.Fatal(err)
	}
	idom := f.Idom()
	for _, b := range f.Blocks[1:] {
		if idom[b.ID] != f.Entry() {
			t.Errorf("idom(b%d) = b%d, want the entry b5", b.ID, idom[b.ID].ID)
		}
	}
}
