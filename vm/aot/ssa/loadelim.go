package ssa

// loadElim deletes array loads whose value the block already has: a load
// of the element an earlier load of the block read (same array value,
// index value and kind), or of the element a store of the block wrote
// (store-to-load forwarding, for the kinds whose load returns exactly
// what was stored). CaffeineMark's float kernel reads back `xs[i]` and
// `ys[i]` twice each right after storing them.
//
// What the block knows is forgotten at anything that may write an array
// behind the pass's back or make another thread's writes visible (a
// call, a static access that may initialise a class, a monitor, a field
// access, which may be volatile), at anything that may collect — so that
// a deleted load's array was accessed in the same GC epoch by the access
// it reuses, and paper 003's barriers, inserted after this pass, mark
// the same objects — and, for the aliasing classes a store may write
// (two array values may be one array), at every store of that class.
// Array elements are never volatile, so two loads with no store between
// them read the same value under the Java memory model.
//
// A deleted load cannot throw: the access it reuses checked the same
// array and index already.
func loadElim(f *Func) {
	type key struct {
		arr, idx int
		kind     int64
	}
	repl := map[*Value]*Value{}
	for _, b := range f.Blocks {
		known := map[key]*Value{}
		vals := b.Values[:0]
		for _, v := range b.Values {
			for i, a := range v.Args {
				if r := repl[a]; r != nil {
					v.Args[i] = r
				}
			}
			switch v.Op {
			case OpAGet:
				k := key{v.Args[0].ID, v.Args[1].ID, v.Aux}
				if w := known[k]; w != nil && w.Type == v.Type {
					repl[v] = w
					continue
				}
				known[k] = v
			case OpAPut:
				for k := range known {
					if aliasClass(k.kind) == aliasClass(v.Aux) {
						delete(known, k)
					}
				}
				if exactStore(v.Aux) {
					known[key{v.Args[0].ID, v.Args[1].ID, v.Aux}] = v.Args[2]
				}
			case OpNullCheck, OpBoundsCheck, OpDivZeroCheck, OpArrayLength, OpCheckCast, OpInstanceOf, OpSelect, OpAccess:
			default:
				if v.Op.HasEffect() || mayCollect(v.Op) {
					clear(known)
				}
			}
			vals = append(vals, v)
		}
		clear(b.Values[len(vals):])
		b.Values = vals
	}
	if len(repl) == 0 {
		return
	}
	// φ arguments and controls may come from blocks walked later
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for i, a := range v.Args {
				if r := repl[a]; r != nil {
					v.Args[i] = r
				}
			}
		}
		if r := repl[b.Control]; b.Control != nil && r != nil {
			b.Control = r
		}
	}
}

// aliasClass groups the array kinds of aget/aput (the front end's Aux:
// 0 int or float, 1 long or double, 2 reference, 3–6 boolean, byte, char,
// short) by the arrays they may touch: a store of one class never writes
// an array a load of another class reads.
func aliasClass(kind int64) int64 {
	switch kind {
	case 1, 2:
		return kind
	}
	return 0
}

// exactStore says whether a load of kind returns exactly the value a
// store of that kind wrote; the narrow kinds truncate.
func exactStore(kind int64) bool { return kind <= 2 }
