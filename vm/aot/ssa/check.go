package ssa

import "fmt"

// Check verifies the IR's invariants and returns the first violation:
// edges recorded on both ends, φs first in their block with one argument
// per predecessor, every argument defined in a block that dominates its
// use (for a φ, dominating the end of the matching predecessor), values
// before their uses within a block, control values and successor counts
// that fit the block kind, and unique IDs. Passes run it between them in
// tests (Config.Check).
func Check(f *Func) error {
	if len(f.Blocks) == 0 {
		return fmt.Errorf("ssa check %s: no blocks", f.Name)
	}
	if len(f.Entry().Preds) != 0 {
		return fmt.Errorf("ssa check %s: entry b%d has predecessors", f.Name, f.Entry().ID)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("ssa check %s: %s", f.Name, fmt.Sprintf(format, args...))
	}
	inFunc := map[*Block]bool{}
	for _, b := range f.Blocks {
		if inFunc[b] {
			return bad("b%d listed twice", b.ID)
		}
		inFunc[b] = true
	}
	seenV := map[int]*Value{}
	where := map[*Value]int{} // index in its block
	for _, b := range f.Blocks {
		if b.Func != f {
			return bad("b%d belongs to another function", b.ID)
		}
		for _, s := range b.Succs {
			if !inFunc[s] {
				return bad("b%d has successor b%d, which is not in the function", b.ID, s.ID)
			}
			if count(s.Preds, b) != count(b.Succs, s) {
				return bad("edge b%d -> b%d missing from b%d's predecessors", b.ID, s.ID, s.ID)
			}
		}
		for _, p := range b.Preds {
			if !inFunc[p] {
				return bad("b%d has predecessor b%d, which is not in the function", b.ID, p.ID)
			}
			if count(p.Succs, b) != count(b.Preds, p) {
				return bad("b%d lists predecessor b%d, which has no edge to it", b.ID, p.ID)
			}
		}
		if b.NCatch < 0 || b.NCatch > len(b.Succs) {
			return bad("b%d has %d exception edges of %d successors", b.ID, b.NCatch, len(b.Succs))
		}
		normal := len(b.Succs) - b.NCatch
		switch b.Kind {
		case BlockPlain:
			if normal != 1 || b.Control != nil {
				return bad("b%d: Plain needs one successor and no control value", b.ID)
			}
		case BlockIf:
			if normal != 2 || b.Control == nil || b.Control.Type != TypeBool {
				return bad("b%d: If needs two successors and a bool control value", b.ID)
			}
		case BlockSwitch:
			if normal != len(b.Keys)+1 || b.Control == nil || b.Control.Type != TypeInt {
				return bad("b%d: Switch needs one successor per key plus a default, and an int control value", b.ID)
			}
		case BlockReturn:
			if normal != 0 {
				return bad("b%d: Return has successors", b.ID)
			}
		case BlockThrow:
			if normal != 0 || b.Control == nil || b.Control.Type != TypeRef {
				return bad("b%d: Throw needs a ref control value and no normal successors", b.ID)
			}
		default:
			return bad("b%d: unknown kind %d", b.ID, b.Kind)
		}
		phis := true
		for i, v := range b.Values {
			if w := seenV[v.ID]; w != nil {
				return bad("v%d defined twice", v.ID)
			}
			seenV[v.ID] = v
			where[v] = i
			if v.Block != b {
				return bad("v%d is in b%d but says it is in another block", v.ID, b.ID)
			}
			if v.Op == OpInvalid || v.Op >= numOps {
				return bad("v%d has an invalid op", v.ID)
			}
			if v.Op == OpPhi {
				if !phis {
					return bad("φ v%d after a non-φ in b%d", v.ID, b.ID)
				}
				if len(v.Args) != len(b.Preds) {
					return bad("φ v%d has %d arguments, b%d has %d predecessors", v.ID, len(v.Args), b.ID, len(b.Preds))
				}
				for _, a := range v.Args {
					if a.Type != v.Type && a.Op != OpUndef {
						return bad("φ v%d <%s> has argument v%d <%s>", v.ID, v.Type, a.ID, a.Type)
					}
				}
			} else {
				phis = false
			}
		}
	}
	// Dominance: arguments of the reachable blocks only (passes delete
	// unreachable blocks, but a dump in between may still show them).
	reach := map[*Block]bool{}
	for _, b := range f.RPO() {
		reach[b] = true
	}
	dominatesUse := func(def *Value, b *Block, at int) bool {
		if def.Block == b {
			return where[def] < at
		}
		return f.Dominates(def.Block, b)
	}
	for _, b := range f.Blocks {
		if !reach[b] {
			continue
		}
		for i, v := range b.Values {
			for j, a := range v.Args {
				if seenV[a.ID] != a {
					return bad("v%d uses v%d, which is not in the function", v.ID, a.ID)
				}
				if v.Op == OpPhi {
					p := b.Preds[j]
					if !reach[p] {
						continue
					}
					if !reach[a.Block] {
						return bad("φ v%d uses v%d of unreachable b%d", v.ID, a.ID, a.Block.ID)
					}
					if !dominatesUse(a, p, len(p.Values)) {
						return bad("φ v%d argument %d, v%d, does not dominate the end of predecessor b%d", v.ID, j, a.ID, p.ID)
					}
					continue
				}
				if !reach[a.Block] {
					return bad("v%d uses v%d of unreachable b%d", v.ID, a.ID, a.Block.ID)
				}
				if !dominatesUse(a, b, i) {
					return bad("v%d uses v%d, whose definition does not dominate it", v.ID, a.ID)
				}
			}
		}
		if c := b.Control; c != nil {
			if seenV[c.ID] != c {
				return bad("b%d's control v%d is not in the function", b.ID, c.ID)
			}
			if !dominatesUse(c, b, len(b.Values)) {
				return bad("b%d's control v%d does not dominate the block's end", b.ID, c.ID)
			}
		}
	}
	return nil
}
