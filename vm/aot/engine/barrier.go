package engine

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
)

// barrier lowers paper 003's object-access barrier: it sets the object's
// bit in the heap's access bitmap (gc.AccessBitmap.Mark, inlined: a
// subtraction, a compare and an or), first checking the last-object
// cache when the compiler asked for it (Aux 1, levels cache and all).
func (l *lowerer) barrier(v *ssa.Value) instr {
	x := l.s(v.Args[0])
	switch v.Aux {
	case 1:
		return func(f *frame) bool { f.acc.MarkCached(f.r[x]); return true }
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
}

// Recorded is the number of barriers that went to the bitmap: those run
// minus the cache hits.
func (s BarrierStats) Recorded() uint64 { return s.Executed - s.CacheHits }

func (e *Engine) barrierStats() BarrierStats {
	s := BarrierStats{Level: e.cfg.Barriers, Static: e.barrierSites}
	if e.acc != nil {
		s.Executed, s.CacheHits = e.acc.Executed, e.acc.CacheHits
	}
	return s
}
