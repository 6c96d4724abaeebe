package engine

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
)

// barrier lowers paper 003's object-access barrier: it sets the object's
// bit in the heap's access bitmap (gc.AccessBitmap.Mark, inlined: a
// subtraction, a compare and an or), first checking the last-object
// cache when the compiler asked for it (Aux BarrierCached, levels cache
// and all), and not at all in a loop iteration that may skip it
// (BarrierLoop: frame.skipLoop, cblock.loop).
func (l *lowerer) barrier(v *ssa.Value) instr {
	x := l.s(v.Args[0])
	switch v.Aux {
	case ssa.BarrierCached:
		return func(f *frame) bool { f.acc.MarkCached(f.r[x]); return true }
	case ssa.BarrierCached | ssa.BarrierLoop:
		return func(f *frame) bool {
			if !f.skipLoop {
				f.acc.MarkCached(f.r[x])
			}
			return true
		}
	case ssa.BarrierCheck:
		return func(f *frame) bool { f.acc.Shadow.Mark(f.r[x]); return true }
	}
	return func(f *frame) bool { f.acc.Mark(f.r[x]); return true }
}

// SetBarriers selects the barriers compiled code gets (paper 003's
// levels; off, the default, inserts none). Set it before the first
// method runs; the VM's heap should keep an access bitmap
// (gc.Config.AccessBitmap), without which the barriers run, and are
// counted, but record nothing.
func (e *Engine) SetBarriers(level ssa.BarrierLevel) { e.cfg.Barriers = level }

// CheckBarriers adds check barriers to compiled code: unoptimised, at
// every access point, marking the access bitmap's shadow
// (gc.AccessBitmap.Shadow), which must equal the bitmap at every
// collection whatever the level. For tests and for checking the
// optimisations on a program; set it before the first method runs.
func (e *Engine) CheckBarriers() { e.cfg.CheckBarriers = true }

// accessBitmap returns the bitmap the barriers of vm's threads mark.
func (e *Engine) accessBitmap(vm *runtime.VM) *gc.AccessBitmap {
	if e.acc == nil {
		e.acc = vm.AccessBitmap()
		if e.acc == nil {
			e.acc = &gc.AccessBitmap{} // records nothing, counts
		}
		if e.cfg.CheckBarriers {
			e.acc.EnableShadow()
		}
	}
	return e.acc
}

// BarrierStats count paper 003's barriers at the engine's level.
type BarrierStats struct {
	Level ssa.BarrierLevel
	// Static is the number of barriers in the methods compiled so far.
	Static int
	// Executed counts the barriers run; CacheHits those that found
	// their object in the last-object cache and did nothing else.
	Executed, CacheHits uint64
	// LoopSkips counts the cache hits that were barriers a one-block
	// loop skipped after a whole iteration (ssa.BarrierLoop).
	LoopSkips uint64
}

// Recorded is the number of barriers that went to the bitmap: those run
// minus the cache hits.
func (s BarrierStats) Recorded() uint64 { return s.Executed - s.CacheHits }

func (e *Engine) barrierStats() BarrierStats {
	s := BarrierStats{Level: e.cfg.Barriers, Static: e.barrierSites}
	if e.acc != nil {
		s.Executed, s.CacheHits, s.LoopSkips = e.acc.Executed, e.acc.CacheHits, e.acc.LoopSkips
	}
	return s
}

// barrierThenAccess lowers, where vals[k] is a barrier on an array
// followed by a fused array access of that array (fuse.go), both as one
// instruction: the int, float, long, double, reference-load and
// boolean/byte accesses of loops with the checks and the bitmap update
// inline, the others behind one call, so that a barrier costs no
// dispatch of its own. Otherwise it is fusedAccess.
func (l *lowerer) barrierThenAccess(vals []*ssa.Value, k int, p *blockPlan) (instr, int) {
	bar := vals[k]
	if bar.Op != ssa.OpBarrier || bar.Aux == ssa.BarrierCheck || k+1 >= len(vals) {
		return l.fusedAccess(vals, k)
	}
	if l.inTree(vals, p, k+1) {
		// the access is part of an expression tree, or has one for an
		// operand: the tree does it, and the barrier stays on its own
		return nil, 0
	}
	in, n := l.fusedAccess(vals, k+1)
	if in == nil {
		return l.barrierThenValue(vals, k, p)
	}
	acc := vals[k+n]
	if acc.Args[0] != bar.Args[0] {
		return nil, 0
	}
	cached, loop := bar.Aux&ssa.BarrierCached != 0, bar.Aux&ssa.BarrierLoop != 0
	a, x := l.s(acc.Args[0]), l.s(acc.Args[1])
	fast := true // as fastAccess: no length slot to write
	for _, v := range vals[k+1 : k+1+n] {
		if v.Op == ssa.OpArrayLength && l.uses[v.ID] > 1 {
			fast = false
		}
	}
	switch {
	case !fast:
	case acc.Op == ssa.OpAGet && (acc.Aux == k32 || acc.Aux == kRef):
		d := l.s(acc)
		return func(f *frame) bool {
			r, h := f.r, f.h
			arr := r[a]
			if !cached {
				f.acc.Mark(arr)
			} else if !loop || !f.skipLoop {
				f.acc.MarkCached(arr)
			}
			if arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					r[d] = h.U32(arr + 12 + idx*4)
					return true
				}
			}
			return in(f)
		}, n + 1
	case acc.Op == ssa.OpAGet && acc.Aux == k64:
		d := l.s(acc)
		return func(f *frame) bool {
			r, h := f.r, f.h
			arr := r[a]
			if !cached {
				f.acc.Mark(arr)
			} else if !loop || !f.skipLoop {
				f.acc.MarkCached(arr)
			}
			if arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					setL(r, d, h.U64(arr+16+idx*8))
					return true
				}
			}
			return in(f)
		}, n + 1
	case acc.Op == ssa.OpAPut && acc.Aux == k32:
		v := l.s(acc.Args[2])
		return func(f *frame) bool {
			r, h := f.r, f.h
			arr := r[a]
			if !cached {
				f.acc.Mark(arr)
			} else if !loop || !f.skipLoop {
				f.acc.MarkCached(arr)
			}
			if arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					h.SetU32(arr+12+idx*4, r[v])
					return true
				}
			}
			return in(f)
		}, n + 1
	case acc.Op == ssa.OpAPut && acc.Aux == k64:
		v := l.s(acc.Args[2])
		return func(f *frame) bool {
			r, h := f.r, f.h
			arr := r[a]
			if !cached {
				f.acc.Mark(arr)
			} else if !loop || !f.skipLoop {
				f.acc.MarkCached(arr)
			}
			if arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					h.SetU64(arr+16+idx*8, getL(r, v))
					return true
				}
			}
			return in(f)
		}, n + 1
	case acc.Op == ssa.OpAGet && (acc.Aux == kBool || acc.Aux == kByte):
		d, signed := l.s(acc), acc.Aux == kByte
		return func(f *frame) bool {
			r, h := f.r, f.h
			arr := r[a]
			if !cached {
				f.acc.Mark(arr)
			} else if !loop || !f.skipLoop {
				f.acc.MarkCached(arr)
			}
			if arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					if b := h.U8(arr + 12 + idx); signed {
						r[d] = uint32(int32(int8(b)))
					} else {
						r[d] = uint32(b)
					}
					return true
				}
			}
			return in(f)
		}, n + 1
	case acc.Op == ssa.OpAPut && (acc.Aux == kBool || acc.Aux == kByte):
		v := l.s(acc.Args[2])
		return func(f *frame) bool {
			r, h := f.r, f.h
			arr := r[a]
			if !cached {
				f.acc.Mark(arr)
			} else if !loop || !f.skipLoop {
				f.acc.MarkCached(arr)
			}
			if arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					h.SetU8(arr+12+idx, uint8(r[v]))
					return true
				}
			}
			return in(f)
		}, n + 1
	}
	if loop {
		return func(f *frame) bool {
			if !f.skipLoop {
				f.acc.MarkCached(f.r[a])
			}
			return in(f)
		}, n + 1
	}
	if cached {
		return func(f *frame) bool { f.acc.MarkCached(f.r[a]); return in(f) }, n + 1
	}
	return func(f *frame) bool { f.acc.Mark(f.r[a]); return in(f) }, n + 1
}

// The barriers an expression tree does for an array access (lowerer.bar):
// the Barrier values right before the access's checks, which plan puts
// in the access's group so that the access keeps its place in its tree.
const (
	barMark   = 1 << iota // a barrier of levels none and elim
	barCached             // a barrier of levels cache and all
	barShadow             // a check barrier (CheckBarriers)
	// barLoop, with barCached: a barrier a loop iteration may skip
	// (ssa.BarrierLoop; frame.skipLoop)
	barLoop
)

// barBits returns the barXxx bit of barrier bar.
func barBits(bar *ssa.Value) uint8 {
	switch bar.Aux {
	case ssa.BarrierCached:
		return barCached
	case ssa.BarrierCached | ssa.BarrierLoop:
		return barCached | barLoop
	case ssa.BarrierCheck:
		return barShadow
	}
	return barMark
}

// markBar runs the barriers b of a tree's array access on the object at
// a, as their Barrier instructions would (a null a is counted and
// ignored). It is small enough to inline: a loop iteration that skips
// the barrier (barLoop) costs no call.
func markBar(f *frame, b uint8, a uint32) {
	if b == barCached|barLoop && f.skipLoop {
		return
	}
	markBarCall(f, b, a)
}

// markBarCall is markBar's call: the single-barrier cases first.
func markBarCall(f *frame, b uint8, a uint32) {
	switch b {
	case barMark:
		f.acc.Mark(a)
	case barCached, barCached | barLoop:
		f.acc.MarkCached(a)
	default:
		markBars(f, b, a)
	}
}

func markBars(f *frame, b uint8, a uint32) {
	// the order of the level's and the check barrier does not matter:
	// they mark two bitmaps
	if b&barCached != 0 && (b&barLoop == 0 || !f.skipLoop) {
		f.acc.MarkCached(a)
	}
	if b&barMark != 0 {
		f.acc.Mark(a)
	}
	if b&barShadow != 0 {
		f.acc.Shadow.Mark(a)
	}
}

// barrierThenValue lowers, where vals[k] starts barriers on one object
// (the level's, then a check barrier) followed by a null check of that
// object and/or an instance field get or put on it, all of them as one
// instruction: the barrier costs no dispatch of its own, nor does the
// null check, and an int or reference field's access is inline (its
// offset cached at its first run, as the field access's own instruction
// does). It returns nil when vals[k] does not start such a sequence or a
// value of it is part of an expression tree.
func (l *lowerer) barrierThenValue(vals []*ssa.Value, k int, p *blockPlan) (instr, int) {
	obj := vals[k].Args[0]
	j, bits := k, uint8(0)
	for j < len(vals) && vals[j].Op == ssa.OpBarrier && vals[j].Args[0] == obj && bits&barBits(vals[j]) == 0 {
		bits |= barBits(vals[j])
		j++
	}
	var nc, acc *ssa.Value
	if j < len(vals) && vals[j].Op == ssa.OpNullCheck && vals[j].Args[0] == obj {
		nc = vals[j]
		j++
	}
	if j < len(vals) && (vals[j].Op == ssa.OpIGet || vals[j].Op == ssa.OpIPut) && vals[j].Args[0] == obj {
		acc = vals[j]
		j++
	}
	if acc != nil && (l.inl[acc.ID] || l.hasTreeArg(acc)) {
		// the access is part of an expression tree: the barrier and
		// the null check only
		acc = nil
		j--
	}
	if nc == nil && acc == nil {
		return nil, 0
	}
	for i := k; i < j; i++ {
		if p.group[i] >= 0 || l.inl[vals[i].ID] || l.hasTreeArg(vals[i]) {
			return nil, 0
		}
	}
	o := l.s(obj)
	var check instr // the null check's own instruction, which throws
	if nc != nil {
		check = l.value(nc)
	}
	// the level's barrier (the cache check inline), then the check
	// barrier: with check barriers (the tests) the level's runs as
	// without
	lv, shadow := bits&^barShadow, bits&barShadow != 0
	if acc == nil {
		return func(f *frame) bool {
			a := f.r[o]
			if lv == barCached {
				f.acc.MarkCached(a)
			} else if lv != 0 {
				markBar(f, lv, a)
			}
			if shadow {
				markShadow(f, a)
			}
			return a != 0 || check(f)
		}, j - k
	}
	in := l.value(acc)
	if check == nil {
		check = in // it checks the object too
	}
	df := l.m.Class.File
	idx := uint32(acc.Aux)
	kind := kindOf(df.F.TypeName(df.F.Fields[idx].Type))
	// learn caches the field's offset once the access's own instruction
	// has resolved it
	var off uint32
	resolved := false
	learn := func(f *frame) bool {
		if !in(f) {
			return false
		}
		if fd := f.file.Field(idx); fd != nil && !fd.Static {
			off, resolved = fd.Offset, true
		}
		return true
	}
	switch {
	case acc.Op == ssa.OpIGet && (kind == k32 || kind == kRef):
		d := l.s(acc)
		return func(f *frame) bool {
			r := f.r
			a := r[o]
			if lv == barCached {
				f.acc.MarkCached(a)
			} else if lv != 0 {
				markBar(f, lv, a)
			}
			if shadow {
				markShadow(f, a)
			}
			if a == 0 {
				return check(f)
			}
			if resolved {
				r[d] = f.h.U32(a + off)
				return true
			}
			return learn(f)
		}, j - k
	case acc.Op == ssa.OpIPut && kind == k32:
		x := l.s(acc.Args[1])
		return func(f *frame) bool {
			r := f.r
			a := r[o]
			if lv == barCached {
				f.acc.MarkCached(a)
			} else if lv != 0 {
				markBar(f, lv, a)
			}
			if shadow {
				markShadow(f, a)
			}
			if a == 0 {
				return check(f)
			}
			if resolved {
				f.h.SetU32(a+off, r[x])
				return true
			}
			return learn(f)
		}, j - k
	}
	// other kinds: the barrier and the null check inline, the access
	// behind one call
	return func(f *frame) bool {
		a := f.r[o]
		if lv == barCached {
			f.acc.MarkCached(a)
		} else if lv != 0 {
			markBar(f, lv, a)
		}
		if shadow {
			markShadow(f, a)
		}
		if a == 0 {
			return check(f)
		}
		return in(f)
	}, j - k
}

// markShadow is the check barrier of a barrierThenValue instruction,
// out of line: only tests run it.
//
//go:noinline
func markShadow(f *frame, a uint32) { f.acc.Shadow.Mark(a) }
