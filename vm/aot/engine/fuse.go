package engine

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
)

// fusedAccess lowers an array access together with the checks the front
// end put right before it — [NullCheck a, ArrayLength a,] BoundsCheck i
// (ArrayLength a), AGet/APut a i — into one instruction, which throws the
// same exceptions in the same order: one dispatch instead of up to four
// is most of what compiled array loops gain over the interpreter. It
// returns nil when vals[k] does not start such a sequence, else the
// instruction and the number of values it covers.
func (l *lowerer) fusedAccess(vals []*ssa.Value, k int) (instr, int) {
	n, ln := accessGroup(vals, k)
	if n == 0 {
		return nil, 0
	}
	acc := vals[k+n-1]
	a, x := l.s(acc.Args[0]), l.s(acc.Args[1])
	lenSlot := -1
	if ln != nil && l.uses[ln.ID] > 1 {
		lenSlot = l.s(ln)
	}
	return l.arrayAccess(acc, &access{a: a, x: x, lenSlot: lenSlot, pc: acc.PC, npe: l.npe(acc.PC)}), n
}

// accessGroup returns the number of values of the fused access starting
// at vals[k] (0 if none) and its ArrayLength if it has one.
func accessGroup(vals []*ssa.Value, k int) (int, *ssa.Value) {
	var ln *ssa.Value
	i := k
	if vals[i].Op == ssa.OpNullCheck && i+1 < len(vals) && vals[i+1].Op == ssa.OpArrayLength && vals[i+1].Args[0] == vals[i].Args[0] {
		ln = vals[i+1]
		i += 2
	}
	if i+1 >= len(vals) || vals[i].Op != ssa.OpBoundsCheck {
		return 0, nil
	}
	bc, acc := vals[i], vals[i+1]
	if acc.Op != ssa.OpAGet && acc.Op != ssa.OpAPut {
		return 0, nil
	}
	n := bc.Args[1]
	if n.Op != ssa.OpArrayLength || n.Args[0] != acc.Args[0] || bc.Args[0] != acc.Args[1] {
		return 0, nil
	}
	if ln != nil && ln != n {
		return 0, nil
	}
	return i + 2 - k, ln
}

// arrayAccess lowers an AGet or APut with its null and bounds checks.
// Accesses whose checks the passes removed are checked too (a compare
// the branch predictor absorbs): a wrong proof must throw, never become a
// Go panic.
func (l *lowerer) arrayAccess(acc *ssa.Value, ac *access) instr {
	kind := int(acc.Aux)
	if in := l.fastAccess(acc, ac); in != nil {
		return in
	}
	if acc.Op == ssa.OpAGet {
		d := l.s(acc)
		switch kind {
		case k32, kRef:
			return func(f *frame) bool {
				arr, idx, ok := ac.check(f)
				if ok {
					f.r[d] = f.h.U32(arr + 12 + idx*4)
				}
				return ok
			}
		case k64:
			return func(f *frame) bool {
				arr, idx, ok := ac.check(f)
				if ok {
					setL(f.r, d, f.h.U64(arr+16+idx*8))
				}
				return ok
			}
		}
		shift := uint32(0)
		if kind == kChar || kind == kShort {
			shift = 1
		}
		return func(f *frame) bool {
			arr, idx, ok := ac.check(f)
			if ok {
				load(f, kind, arr+12+idx<<shift, d)
			}
			return ok
		}
	}
	v := l.s(acc.Args[2])
	switch kind {
	case k32:
		return func(f *frame) bool {
			arr, idx, ok := ac.check(f)
			if ok {
				f.h.SetU32(arr+12+idx*4, f.r[v])
			}
			return ok
		}
	case k64:
		return func(f *frame) bool {
			arr, idx, ok := ac.check(f)
			if ok {
				f.h.SetU64(arr+16+idx*8, getL(f.r, v))
			}
			return ok
		}
	case kRef:
		put := l.refStore(acc)
		return func(f *frame) bool {
			if _, _, ok := ac.check(f); !ok {
				return false
			}
			return put(f)
		}
	}
	shift := uint32(0)
	if kind == kChar || kind == kShort {
		shift = 1
	}
	return func(f *frame) bool {
		arr, idx, ok := ac.check(f)
		if ok {
			store(f, kind, arr+12+idx<<shift, v)
		}
		return ok
	}
}

// access is the checking half of a fused array access.
type access struct {
	a, x, lenSlot, pc int
	npe               func(f *frame)
}

// check returns the array and index, or false after throwing.
func (c *access) check(f *frame) (uint32, uint32, bool) {
	arr := f.r[c.a]
	if arr == 0 {
		f.at(c.pc)
		c.npe(f)
		return 0, 0, false
	}
	length := f.h.U32(arr + 8)
	if c.lenSlot >= 0 {
		f.r[c.lenSlot] = length
	}
	idx := f.r[c.x]
	if idx >= length {
		f.at(c.pc)
		f.t.ThrowAIOOBE(int32(length), int32(idx))
		return 0, 0, false
	}
	return arr, idx, true
}

// fastAccess is arrayAccess for the primitive accesses of numeric
// kernels, with the checks inline: no call on the path where they pass.
func (l *lowerer) fastAccess(acc *ssa.Value, ac *access) instr {
	if ac.lenSlot >= 0 {
		return nil
	}
	a, x := ac.a, ac.x
	slow := func(f *frame) bool { _, _, ok := ac.check(f); return ok }
	switch {
	case acc.Op == ssa.OpAGet && acc.Aux == k32:
		d := l.s(acc)
		return func(f *frame) bool {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					r[d] = h.U32(arr + 12 + idx*4)
					return true
				}
			}
			return slow(f)
		}
	case acc.Op == ssa.OpAGet && acc.Aux == k64:
		d := l.s(acc)
		return func(f *frame) bool {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					setL(r, d, h.U64(arr+16+idx*8))
					return true
				}
			}
			return slow(f)
		}
	case acc.Op == ssa.OpAPut && acc.Aux == k32:
		v := l.s(acc.Args[2])
		return func(f *frame) bool {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					h.SetU32(arr+12+idx*4, r[v])
					return true
				}
			}
			return slow(f)
		}
	case acc.Op == ssa.OpAGet && (acc.Aux == kBool || acc.Aux == kByte):
		d := l.s(acc)
		signed := acc.Aux == kByte
		return func(f *frame) bool {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					b := h.U8(arr + 12 + idx)
					if signed {
						r[d] = uint32(int32(int8(b)))
					} else {
						r[d] = uint32(b)
					}
					return true
				}
			}
			return slow(f)
		}
	case acc.Op == ssa.OpAGet && (acc.Aux == kChar || acc.Aux == kShort):
		d := l.s(acc)
		signed := acc.Aux == kShort
		return func(f *frame) bool {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					c := h.U16(arr + 12 + idx*2)
					if signed {
						r[d] = uint32(int32(int16(c)))
					} else {
						r[d] = uint32(c)
					}
					return true
				}
			}
			return slow(f)
		}
	case acc.Op == ssa.OpAPut && (acc.Aux == kBool || acc.Aux == kByte):
		v := l.s(acc.Args[2])
		return func(f *frame) bool {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					h.SetU8(arr+12+idx, uint8(r[v]))
					return true
				}
			}
			return slow(f)
		}
	case acc.Op == ssa.OpAPut && (acc.Aux == kChar || acc.Aux == kShort):
		v := l.s(acc.Args[2])
		return func(f *frame) bool {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					h.SetU16(arr+12+idx*2, uint16(r[v]))
					return true
				}
			}
			return slow(f)
		}
	case acc.Op == ssa.OpAPut && acc.Aux == k64:
		v := l.s(acc.Args[2])
		return func(f *frame) bool {
			r, h := f.r, f.h
			if arr := r[a]; arr != 0 {
				if idx := r[x]; idx < h.U32(arr+8) {
					h.SetU64(arr+16+idx*8, getL(r, v))
					return true
				}
			}
			return slow(f)
		}
	}
	return nil
}
