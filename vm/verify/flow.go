package verify

import (
	"github.com/droidprof/droidprof/vm/dex"
)

// line is the register types at one point of the method; the last two
// entries are the pending result of an invoke or filled-new-array (low
// and high half), kUndef when there is none.
type line []regType

// flow runs the type-flow analysis: a worklist over the instructions,
// keeping a register line at every branch target and handler and merging
// into it until nothing changes, as ART's CodeFlowVerifier does.
func (v *verifier) flow() {
	n := len(v.insns)
	nregs := int(v.code.Registers)
	v.lines = make([]line, n)
	entry := make(line, nregs+2)
	r := nregs - int(v.code.Ins)
	if !v.static() {
		if v.name == "<init>" && v.class != objectDesc {
			entry[r] = regType{k: kUninitThis, desc: v.class}
		} else {
			entry[r] = ref(v.class)
		}
		r++
	}
	for _, p := range v.params {
		t := fromDesc(p)
		entry[r] = t
		if width(p) == 2 {
			entry[r+1] = hiOf(t)
			r++
		}
		r++
	}
	v.flags[0] |= fTarget
	v.lines[0] = entry
	queued := make([]bool, n)
	work := []int{0}
	queued[0] = true
	cur := make(line, nregs+2)
	saved := make(line, nregs+2)
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		queued[pc] = false
		copy(cur, v.lines[pc])
		for {
			v.pc = pc
			in := &v.insn[pc]
			info := in.Op.Info()
			inTry := v.flags[pc]&fInTry != 0 && info.Flags&dex.FlagThrow != 0
			if inTry {
				copy(saved, cur)
			}
			v.cur = cur
			v.exec(pc, in)
			if inTry {
				saved[nregs], saved[nregs+1] = tUndef, tUndef
				for _, h := range v.handlersOf(pc) {
					if v.mergeInto(int(h), saved) && !queued[h] {
						queued[h] = true
						work = append(work, int(h))
					}
				}
			}
			if info.Flags&dex.FlagInvoke == 0 && in.Op != 0x24 && in.Op != 0x25 {
				cur[nregs], cur[nregs+1] = tUndef, tUndef
			}
			var targets []int64
			if info.Flags&dex.FlagBranch != 0 {
				targets = append(targets, in.Target(pc))
			}
			if info.Flags&dex.FlagSwitch != 0 {
				targets = append(targets, v.switchTargets(pc, in)...)
			}
			for _, t := range targets {
				if v.mergeInto(int(t), cur) && !queued[t] {
					queued[t] = true
					work = append(work, int(t))
				}
			}
			if info.Flags&dex.FlagContinue == 0 {
				break
			}
			next := pc + int(in.Size)
			if next >= n || v.flags[next]&fStart == 0 {
				v.fail("Control flow falls off the end of the code or into a payload")
			}
			if v.flags[next]&fTarget != 0 {
				if v.mergeInto(next, cur) && !queued[next] {
					queued[next] = true
					work = append(work, next)
				}
				break
			}
			pc = next
		}
	}
	v.pc = -1
}

// mergeInto merges l into the line kept at pc and reports whether that
// line changed (or was set for the first time).
func (v *verifier) mergeInto(pc int, l line) bool {
	old := v.lines[pc]
	if old == nil {
		v.lines[pc] = append(line(nil), l...)
		return true
	}
	changed := false
	for i := range old {
		if m := v.merge(old[i], l[i]); m != old[i] {
			old[i] = m
			changed = true
		}
	}
	return changed
}

// handlersOf lists the handler addresses covering pc.
func (v *verifier) handlersOf(pc int) []uint32 {
	var out []uint32
	for _, t := range v.code.Tries {
		if uint32(pc) >= t.Start && uint32(pc) < t.Start+uint32(t.Count) {
			h := v.code.Handlers[t.Handler]
			for _, c := range h.Catches {
				out = append(out, c.Addr)
			}
			if h.HasCatchAll {
				out = append(out, h.CatchAll)
			}
		}
	}
	return out
}

func (v *verifier) switchTargets(pc int, in *dex.Instruction) []int64 {
	p := int(int64(pc) + in.Lit)
	var offs []int32
	if in.Op == dex.OpPackedSwitch {
		ps, _ := dex.DecodePackedSwitch(v.insns, p)
		offs = ps.Targets
	} else {
		ss, _ := dex.DecodeSparseSwitch(v.insns, p)
		offs = ss.Targets
	}
	out := make([]int64, len(offs))
	for i, o := range offs {
		out[i] = int64(pc) + int64(o)
	}
	return out
}
