package ssa

import "fmt"

// BarrierLevel selects paper 003's object-access barriers (§3.4, Fig. 6):
// whether they are inserted, and which of its two optimisations apply.
type BarrierLevel uint8

// Barrier levels.
const (
	// BarriersOff inserts no barriers: the code is as without paper 003.
	BarriersOff BarrierLevel = iota
	// BarriersNone puts a barrier at every object-access point, with
	// neither optimisation (the paper's "None").
	BarriersNone
	// BarriersCache skips a barrier at run time when its object is the
	// last one a barrier saw (the paper's global-register cache).
	BarriersCache
	// BarriersElim removes, at compile time, the barriers whose object is
	// provably marked already (barrierelim).
	BarriersElim
	// BarriersAll is cache and elim together.
	BarriersAll
)

var barrierLevelNames = [...]string{"off", "none", "cache", "elim", "all"}

// String returns the level's name as --barriers and vm.barriers take it.
func (l BarrierLevel) String() string {
	if int(l) < len(barrierLevelNames) {
		return barrierLevelNames[l]
	}
	return fmt.Sprintf("BarrierLevel(%d)", uint8(l))
}

// Cached reports whether barriers check the last-object cache.
func (l BarrierLevel) Cached() bool { return l == BarriersCache || l == BarriersAll }

// Eliminated reports whether redundant barriers are removed statically.
func (l BarrierLevel) Eliminated() bool { return l == BarriersElim || l == BarriersAll }

// BarrierLevels lists the levels that insert barriers, least optimised
// first.
var BarrierLevels = []BarrierLevel{BarriersNone, BarriersCache, BarriersElim, BarriersAll}

// ParseBarrierLevel reads a level by name; "" is off.
func ParseBarrierLevel(s string) (BarrierLevel, error) {
	if s == "" {
		return BarriersOff, nil
	}
	for i, n := range barrierLevelNames {
		if s == n {
			return BarrierLevel(i), nil
		}
	}
	return BarriersOff, fmt.Errorf("barrier level %q: want off, none, cache, elim or all", s)
}

// insertBarriers puts a Barrier before every object-access point of f,
// as paper 003 instruments ART's Quick compiler: instance field get and
// put, array element get and put (fill-array-data too: it writes the
// elements), array-length read as data, the receiver of an instance
// invoke, monitor-enter, and both operands of a reference comparison
// (if-eq/if-ne of two references; a test against null reads no object).
// aux is the barriers' Aux: 0, 1 (cached: the barrier checks the
// last-object cache first) or 2 (check barriers).
//
// A barrier goes before the null check, array length and bounds check
// the front end put in front of its access, not between them and the
// access, so the lowering still sees the access sequence whole (it fuses
// it into one instruction); a barrier ignores null, so running before
// the null check changes nothing. Comparisons are evaluated at the end
// of their If block, so their barriers end the block.
//
// With last (no barrier pass follows), the Access values the inline
// pass left are deleted once they have their barrier: they do nothing.
func insertBarriers(f *Func, aux int64, last bool) {
	dataLen := lengthsUsedAsData(f)
	for _, b := range f.Blocks {
		vals := make([]*Value, 0, len(b.Values)+4)
		for _, v := range b.Values {
			if o := accessedObject(v, dataLen); o != nil {
				at := groupStart(vals, o, aux == BarrierCheck)
				bar := f.newValue(OpBarrier, TypeVoid, aux, []*Value{o})
				bar.Block, bar.PC = b, v.PC
				vals = append(vals, nil)
				copy(vals[at+1:], vals[at:])
				vals[at] = bar
			}
			if last && v.Op == OpAccess {
				continue
			}
			vals = append(vals, v)
		}
		b.Values = vals
		if c := b.Control; b.Kind == BlockIf && (c.Op == OpEq || c.Op == OpNe) && c.Args[0].Type == TypeRef &&
			!isNull(c.Args[0]) && !isNull(c.Args[1]) {
			for i, o := range c.Args {
				if i == 1 && o == c.Args[0] {
					continue
				}
				bar := b.NewValue(OpBarrier, TypeVoid, aux, o)
				bar.PC = c.PC
			}
		}
	}
}

// accessedObject returns the object v accesses, or nil.
func accessedObject(v *Value, dataLen []bool) *Value {
	switch v.Op {
	case OpIGet, OpIPut, OpAGet, OpAPut, OpFillArrayData, OpMonitorEnter, OpAccess:
		return v.Args[0]
	case OpArrayLength:
		if dataLen[v.ID] {
			return v.Args[0]
		}
	case OpInvokeVirtual, OpInvokeSuper, OpInvokeDirect, OpInvokeInterface, OpInvokePolymorphic:
		if len(v.Args) > 0 {
			return v.Args[0]
		}
	}
	return nil
}

// lengthsUsedAsData marks, by value ID, the ArrayLength values used other
// than as a bounds check's limit: Java's array-length. The others are
// the front end's implicit part of an element access, which has its own
// barrier.
func lengthsUsedAsData(f *Func) []bool {
	data := make([]bool, f.NumValues())
	use := func(a *Value) {
		if a.Op == OpArrayLength {
			data[a.ID] = true
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for i, a := range v.Args {
				if v.Op == OpBoundsCheck && i == 1 {
					continue
				}
				use(a)
			}
		}
		if b.Control != nil {
			use(b.Control)
		}
	}
	return data
}

// groupStart returns where in vals (the block's values so far) a barrier
// on o goes: before the trailing null check, array length and bounds
// check of o that belong to the access that follows, and with
// overBarriers (a check barrier) before the level's barrier of o too, so
// that the lowering sees that barrier next to its access as without
// check barriers.
func groupStart(vals []*Value, o *Value, overBarriers bool) int {
	at := len(vals)
	for at > 0 {
		p := vals[at-1]
		switch {
		case overBarriers && p.Op == OpBarrier && p.Args[0] == o,
			p.Op == OpNullCheck && p.Args[0] == o,
			p.Op == OpArrayLength && p.Args[0] == o,
			p.Op == OpBoundsCheck && p.Args[1].Op == OpArrayLength && p.Args[1].Args[0] == o:
			at--
			continue
		}
		break
	}
	return at
}

// Aux values of Barrier.
const (
	barrierPlain = 0
	// BarrierCached marks a barrier of levels cache and all, which
	// checks the last-object cache first.
	BarrierCached = 1
	// BarrierCheck marks a check barrier, which sets the shadow bitmap.
	BarrierCheck = 2
	// BarrierLoop, with BarrierCached, marks a barrier of a one-block
	// loop body that the loop may skip after a whole iteration
	// (barrierloop.go).
	BarrierLoop = 4
)

// CountBarriers returns the number of Barrier values in f (check
// barriers aside).
func CountBarriers(f *Func) int {
	n := 0
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op == OpBarrier && v.Aux != BarrierCheck {
				n++
			}
		}
	}
	return n
}
