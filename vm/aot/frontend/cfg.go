package frontend

import (
	"fmt"
	"sort"

	"github.com/droidprof/droidprof/vm/dex"
)

// insn is one decoded instruction.
type insn struct {
	pc int
	in dex.Instruction
}

// cfg is a method's control-flow graph at the bytecode level: blocks as
// ranges of instructions, with their successors.
type cfg struct {
	insns []insn
	at    []int // per code unit: index into insns of the instruction starting there, -1 elsewhere
	// blocks in pc order
	blocks []*bblock
	byPC   map[int]*bblock
}

// bblock is a basic block of bytecode: insns[first:last+1].
type bblock struct {
	first, last int
	succs       []int   // pcs of the normal successors (If: taken, then fall-through; Switch: per key, then default)
	keys        []int32 // switch keys
	catches     []int   // pcs of the handlers its last instruction may throw to
	fallsOff    bool    // its last instruction would continue past the end of the code
	reach       bool
}

// errorf makes a compile error at a dex pc.
func errorf(pc int, format string, args ...any) error {
	return &Error{PC: pc, Reason: fmt.Sprintf(format, args...)}
}

// Error is why a method could not be compiled: malformed or unverifiable
// code, or bytecode the compiler does not handle. The method then runs
// on the interpreter.
type Error struct {
	PC     int // dex pc of the instruction, -1 for the method as a whole
	Reason string
}

// Error formats the error with the dex pc.
func (e *Error) Error() string {
	if e.PC < 0 {
		return e.Reason
	}
	return fmt.Sprintf("at dex pc %#04x: %s", e.PC, e.Reason)
}

// handlersAt returns the handler addresses for an instruction at pc, in
// the order the try item lists them (catch-all last), without repeats.
func handlersAt(code *dex.Code, pc int) []int {
	for _, t := range code.Tries {
		if uint32(pc) >= t.Start && uint32(pc) < t.Start+uint32(t.Count) {
			if t.Handler < 0 || t.Handler >= len(code.Handlers) {
				return nil
			}
			h := code.Handlers[t.Handler]
			var out []int
			add := func(a uint32) {
				for _, o := range out {
					if o == int(a) {
						return
					}
				}
				out = append(out, int(a))
			}
			for _, c := range h.Catches {
				add(c.Addr)
			}
			if h.HasCatchAll {
				add(h.CatchAll)
			}
			return out
		}
	}
	return nil
}

// buildCFG decodes code and splits it into basic blocks. A throwing
// instruction inside a try range ends its block, whose exception edges
// go to the range's handlers.
func buildCFG(code *dex.Code) (*cfg, error) {
	n := len(code.Insns)
	if n == 0 {
		return nil, errorf(-1, "empty code")
	}
	g := &cfg{at: make([]int, n), byPC: map[int]*bblock{}}
	for i := range g.at {
		g.at[i] = -1
	}
	it := dex.NewIterator(code.Insns)
	for it.Next() {
		in := *it.Inst()
		if in.Payload != dex.NoPayload {
			continue
		}
		if in.Op.Info().Flags&dex.FlagUnused != 0 {
			return nil, errorf(it.PC(), "invalid opcode %#02x", uint8(in.Op))
		}
		g.at[it.PC()] = len(g.insns)
		g.insns = append(g.insns, insn{it.PC(), in})
	}
	if err := it.Err(); err != nil {
		return nil, errorf(-1, "%v", err)
	}
	if len(g.insns) == 0 {
		return nil, errorf(-1, "no instructions")
	}
	valid := func(pc int64) bool { return pc >= 0 && pc < int64(n) && g.at[pc] >= 0 }

	leader := map[int]bool{g.insns[0].pc: true}
	type ends struct {
		succs    []int
		keys     []int32
		catches  []int
		fallsOff bool
	}
	end := map[int]*ends{} // by instruction index
	for i, x := range g.insns {
		fl := x.in.Op.Info().Flags
		e := &ends{}
		isEnd := false
		next := -1
		if i+1 < len(g.insns) {
			next = g.insns[i+1].pc
		}
		fallsThrough := fl&dex.FlagContinue != 0
		switch {
		case fl&dex.FlagBranch != 0:
			t := x.in.Target(x.pc)
			if !valid(t) {
				return nil, errorf(x.pc, "invalid branch target %d", t)
			}
			if fl&dex.FlagUnconditional != 0 && t == int64(x.pc) && x.in.Op == 0x28 {
				// goto +0 is illegal; a self loop needs goto/32
				return nil, errorf(x.pc, "branch offset of zero not allowed")
			}
			leader[int(t)] = true
			e.succs = append(e.succs, int(t))
			isEnd = true
		case fl&dex.FlagSwitch != 0:
			p := x.in.Target(x.pc)
			if p < 0 || p >= int64(n) {
				return nil, errorf(x.pc, "invalid switch payload offset %d", p)
			}
			var keys, targets []int32
			if x.in.Op == dex.OpPackedSwitch {
				ps, err := dex.DecodePackedSwitch(code.Insns, int(p))
				if err != nil {
					return nil, errorf(x.pc, "%v", err)
				}
				for k := range ps.Targets {
					keys = append(keys, ps.FirstKey+int32(k))
				}
				targets = ps.Targets
			} else {
				ss, err := dex.DecodeSparseSwitch(code.Insns, int(p))
				if err != nil {
					return nil, errorf(x.pc, "%v", err)
				}
				keys, targets = ss.Keys, ss.Targets
			}
			for k, t := range targets {
				tp := int64(x.pc) + int64(t)
				if !valid(tp) {
					return nil, errorf(x.pc, "invalid switch target %d for key %d", tp, keys[k])
				}
				leader[int(tp)] = true
				e.succs = append(e.succs, int(tp))
			}
			e.keys = keys
			isEnd = true
		case fl&(dex.FlagReturn) != 0 || x.in.Op == 0x27:
			isEnd = true
		}
		if fl&dex.FlagThrow != 0 {
			if hs := handlersAt(code, x.pc); len(hs) > 0 {
				for _, h := range hs {
					if !valid(int64(h)) {
						return nil, errorf(x.pc, "invalid handler address %#x", h)
					}
					leader[h] = true
				}
				e.catches = hs
				isEnd = true
			}
		}
		if fallsThrough {
			if next < 0 {
				// an error only if reachable (dx pads with a nop
				// before a trailing payload)
				e.fallsOff = true
				isEnd = true
			} else {
				// the fall-through successor comes last (If: false
				// edge; Switch: default)
				e.succs = append(e.succs, next)
			}
		}
		if isEnd {
			end[i] = e
			if next >= 0 {
				leader[next] = true
			}
		}
	}
	// Try boundaries need not split blocks: only throwing instructions
	// see handlers, and they end their blocks.
	pcs := make([]int, 0, len(leader))
	for pc := range leader {
		pcs = append(pcs, pc)
	}
	sort.Ints(pcs)
	for k, pc := range pcs {
		first := g.at[pc]
		last := len(g.insns) - 1
		if k+1 < len(pcs) {
			last = g.at[pcs[k+1]] - 1
		}
		bb := &bblock{first: first, last: last}
		if e := end[last]; e != nil {
			bb.succs, bb.keys, bb.catches, bb.fallsOff = e.succs, e.keys, e.catches, e.fallsOff
		} else {
			// a block cut short by the next leader falls through
			bb.succs = []int{g.insns[last+1].pc}
		}
		g.blocks = append(g.blocks, bb)
		g.byPC[pc] = bb
	}
	// reachability from pc 0
	work := []*bblock{g.byPC[g.insns[0].pc]}
	work[0].reach = true
	for len(work) > 0 {
		bb := work[len(work)-1]
		work = work[:len(work)-1]
		if bb.fallsOff {
			return nil, errorf(g.insns[bb.last].pc, "execution falls off the end of the code")
		}
		for _, list := range [][]int{bb.succs, bb.catches} {
			for _, s := range list {
				if c := g.byPC[s]; !c.reach {
					c.reach = true
					work = append(work, c)
				}
			}
		}
	}
	return g, nil
}
