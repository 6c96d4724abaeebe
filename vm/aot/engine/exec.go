package engine

import (
	"unsafe"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/heap"
	"github.com/droidprof/droidprof/vm/runtime"
)

// code is a lowered method. Its values live in slots of the thread's
// register stack: the method's Dalvik registers first (the parameters are
// read where the caller put them), then one slot per value with a result
// (two for long and double). A slot's tag is fixed by its value's type, so
// the collector sees exactly the reference slots, and a moving collection
// updates them in place.
type code struct {
	nregs  int    // the Dalvik frame, m.Code.Registers
	tags   []bool // of the value slots after the Dalvik frame
	consts []constInit
	entry  *cblock
	// frameTags are the tags of the whole frame (the Dalvik registers
	// untagged, then tags) and slotInit the value slots as a call
	// starts them (zero, constants set), copied by code.invoke
	frameTags []bool
	slotInit  []uint32
	// leaf is set when the method cannot throw, call, allocate, lock or
	// reach a safepoint (isLeaf): code.invoke then gives it a lighter
	// frame
	leaf bool
}

type constInit struct {
	slot int
	bits uint64
	wide bool
}

// instr runs one value; false means it threw (t.Exc is set and the frame's
// pc names the instruction).
type instr func(f *frame) bool

// cblock is a lowered basic block: its straight-line values, then a
// terminator choosing the outgoing edge.
type cblock struct {
	code []instr
	// next is the edge of a plain block; others have a terminator.
	next *edge
	term func(f *frame) *edge
	// run is the block in one closure (seal): its values, then the
	// edge taken, throwEdge when a value threw.
	run func(f *frame) *edge
	// catches are the exception edges by handler address.
	catches []catchEdge
	// ifEdges are an If block's edges, yes then no.
	ifEdges [2]*edge
	// test is the If's comparison when it compares two int slots
	test intTest
	// step is the last instruction when it adds to a counter in place
	step step
	// loopBars is the number of barriers of a loop body that the loop
	// may skip (ssa.BarrierLoop), loopObjs the slots of their objects
	// and bare the body lowered without them (barrierloop.go)
	loopBars int
	loopObjs []int
	bare     *cblock
}

// step is an instruction r[slot] += r[by] (or += k when by < 0): a
// loop's counter, done inline by the loop closure (cblock.loop).
type step struct {
	ok       bool
	slot, by int
	k        uint32
}

// do runs the step.
func (s *step) do(r []uint32) {
	if s.by >= 0 {
		r[s.slot] += r[s.by]
	} else {
		r[s.slot] += s.k
	}
}

// intTest is a comparison of int slots a and b (a constant has a slot).
type intTest struct {
	op   ssa.Op
	a, b int
	ok   bool
}

// holds evaluates t.
func (t *intTest) holds(r []uint32) bool {
	x, y := int32(r[t.a]), int32(r[t.b])
	switch t.op {
	case ssa.OpEq:
		return x == y
	case ssa.OpNe:
		return x != y
	case ssa.OpLt:
		return x < y
	case ssa.OpGe:
		return x >= y
	case ssa.OpGt:
		return x > y
	}
	return x <= y
}

// loop makes the run of a loop header h (its values, then an If) whose
// body is one block b going back to h run the whole loop: the
// iterations do not return to code.run, which costs about as much as a
// small body's instructions (the sieve's and SOR's inner loops). Neither
// block may have exception edges: a throw leaves the loop with
// throwEdge, and code.run then looks for a handler in h.
func (h *cblock) loop() {
	if h.term == nil || len(h.catches) != 0 || h.ifEdges[0] == nil {
		return
	}
	for _, in := range h.ifEdges {
		b := in.to
		if in.back || b == h || len(b.catches) != 0 || b.next == nil || b.next.to != h || !b.next.back {
			continue
		}
		test, head, body, back := h.term, h.code, b.code, b.next
		moves := func(f *frame, e *edge) {
			switch {
			case len(e.moves) == 0:
			case e.single:
				f.r[e.moves[0].dst] = f.r[e.moves[0].src]
			case e.two:
				e.applyTwo(f.r)
			default:
				e.apply(f.r)
			}
		}
		if b.loopBars > 0 && b.bare != nil {
			h.loopBare(in, b)
			return
		}
		if b.loopBars > 0 {
			h.loopSkipping(in, b)
			return
		}
		if t := h.test; t.ok && len(head) == 0 {
			// the test in the loop: no call per iteration for it; the
			// counter's step inline, and a body of one or two
			// instructions called without a loop over them
			onYes, exit := h.testExit(in)
			st := b.step
			body = b.bodyLessStep(body)
			plain := len(in.moves) == 0 && len(back.moves) == 0
			switch {
			case plain && st.ok && len(body) == 1:
				x0 := body[0]
				h.run = func(f *frame) *edge {
					for {
						if t.holds(f.r) != onYes {
							return exit
						}
						if !x0(f) {
							return throwEdge
						}
						st.do(f.r)
						if f.vm.Flags() != 0 {
							f.t.Safepoint()
						}
					}
				}
			case plain && st.ok && len(body) == 2:
				x0, x1 := body[0], body[1]
				h.run = func(f *frame) *edge {
					for {
						if t.holds(f.r) != onYes {
							return exit
						}
						if !x0(f) || !x1(f) {
							return throwEdge
						}
						st.do(f.r)
						if f.vm.Flags() != 0 {
							f.t.Safepoint()
						}
					}
				}
			default:
				run := seq(body)
				h.run = func(f *frame) *edge {
					for {
						if t.holds(f.r) != onYes {
							return exit
						}
						moves(f, in)
						if !run(f) {
							return throwEdge
						}
						if st.ok {
							st.do(f.r)
						}
						moves(f, back)
						if f.vm.Flags() != 0 {
							f.t.Safepoint()
						}
					}
				}
			}
			return
		}
		runHead, runBody := seq(head), seq(body)
		h.run = func(f *frame) *edge {
			for {
				if !runHead(f) {
					return throwEdge
				}
				e := test(f)
				if e != in {
					return e
				}
				moves(f, in)
				if !runBody(f) {
					return throwEdge
				}
				moves(f, back)
				if f.vm.Flags() != 0 {
					f.t.Safepoint()
				}
			}
		}
		return
	}
}

// testExit says, for a loop header h with a slot comparison test and
// the edge in into the loop's body, whether the body is the test's yes
// arm, and the edge that leaves the loop.
func (h *cblock) testExit(in *edge) (onYes bool, exit *edge) {
	if in == h.ifEdges[0] {
		return true, h.ifEdges[1]
	}
	return false, h.ifEdges[0]
}

// bodyLessStep is body, the instructions of b, without its last one when
// that is b's counter step, which the loops run inline.
func (b *cblock) bodyLessStep(body []instr) []instr {
	if b.step.ok {
		return body[:len(body)-1]
	}
	return body
}

// loopSkipping is loop for a body b with barriers it may skip
// (ssa.BarrierLoop, barrierloop.go): their objects are defined before the
// loop and neither block may collect, so once an iteration has run b
// whole they are marked in the current epoch, and the following
// iterations run b with frame.skipLoop set, until a safepoint is taken
// (a collection may have ended the epoch) or the loop is left. The
// barriers skipped are counted as cache hits, when the loop is left, for
// the iterations that ran b whole.
func (h *cblock) loopSkipping(in *edge, b *cblock) {
	test, head, body, back := h.term, h.code, b.code, b.next
	nb := uint64(b.loopBars)
	// as in loop: a func literal called directly, which Go inlines (a
	// method call per edge cost SOR's loop 5 %)
	moves := func(r []uint32, e *edge) {
		switch {
		case len(e.moves) == 0:
		case e.single:
			r[e.moves[0].dst] = r[e.moves[0].src]
		case e.two:
			e.applyTwo(r)
		default:
			e.apply(r)
		}
	}
	leave := func(f *frame, skipped uint64) {
		f.skipLoop = false
		f.acc.Executed += skipped * nb
		f.acc.CacheHits += skipped * nb
		f.acc.LoopSkips += skipped * nb
	}
	if t := h.test; t.ok && len(head) == 0 {
		onYes, exit := h.testExit(in)
		st := b.step
		body = b.bodyLessStep(body)
		plain := len(in.moves) == 0 && len(back.moves) == 0
		if plain && st.ok && len(body) == 1 {
			// sparse's, LU's and the sieve's inner loops
			x0 := body[0]
			h.run = func(f *frame) *edge {
				var skipped uint64
				for {
					if t.holds(f.r) != onYes {
						leave(f, skipped)
						return exit
					}
					if !x0(f) {
						leave(f, skipped)
						return throwEdge
					}
					st.do(f.r)
					skipped += b2u(f.skipLoop)
					f.skipLoop = true
					if f.vm.Flags() != 0 {
						f.t.Safepoint()
						f.skipLoop = false
					}
				}
			}
			return
		}
		if plain && st.ok && len(body) == 2 {
			// the sieve's first loop: a barrier, then a store
			x0, x1 := body[0], body[1]
			h.run = func(f *frame) *edge {
				var skipped uint64
				for {
					if t.holds(f.r) != onYes {
						leave(f, skipped)
						return exit
					}
					if !x0(f) || !x1(f) {
						leave(f, skipped)
						return throwEdge
					}
					st.do(f.r)
					skipped += b2u(f.skipLoop)
					f.skipLoop = true
					if f.vm.Flags() != 0 {
						f.t.Safepoint()
						f.skipLoop = false
					}
				}
			}
			return
		}
		runBody := seq(body)
		h.run = func(f *frame) *edge {
			var skipped uint64
			for {
				if t.holds(f.r) != onYes {
					leave(f, skipped)
					return exit
				}
				moves(f.r, in)
				if !runBody(f) {
					leave(f, skipped)
					return throwEdge
				}
				if st.ok {
					st.do(f.r)
				}
				moves(f.r, back)
				skipped += b2u(f.skipLoop)
				f.skipLoop = true
				if f.vm.Flags() != 0 {
					f.t.Safepoint()
					f.skipLoop = false
				}
			}
		}
		return
	}
	runHead, runBody := seq(head), seq(body)
	h.run = func(f *frame) *edge {
		var skipped uint64
		for {
			if !runHead(f) {
				leave(f, skipped)
				return throwEdge
			}
			e := test(f)
			if e != in {
				leave(f, skipped)
				return e
			}
			moves(f.r, in)
			if !runBody(f) {
				leave(f, skipped)
				return throwEdge
			}
			moves(f.r, back)
			skipped += b2u(f.skipLoop)
			f.skipLoop = true
			if f.vm.Flags() != 0 {
				f.t.Safepoint()
				f.skipLoop = false
			}
		}
	}
}

// seq is one instruction running code in order, stopping at the first
// that throws. The calls are unrolled, up to eight in a closure: each
// call site then has one or a few targets, which the processor's
// indirect-branch predictor learns, where a loop over the slice calls
// every instruction from one site (caffeine-logic's loop body: eighteen
// targets at one call, about a fifth of its time).
func seq(code []instr) instr {
	switch len(code) {
	case 0:
		return func(*frame) bool { return true }
	case 1:
		return code[0]
	case 2:
		i0, i1 := code[0], code[1]
		return func(f *frame) bool { return i0(f) && i1(f) }
	case 3:
		i0, i1, i2 := code[0], code[1], code[2]
		return func(f *frame) bool { return i0(f) && i1(f) && i2(f) }
	case 4:
		i0, i1, i2, i3 := code[0], code[1], code[2], code[3]
		return func(f *frame) bool { return i0(f) && i1(f) && i2(f) && i3(f) }
	case 5:
		i0, i1, i2, i3, i4 := code[0], code[1], code[2], code[3], code[4]
		return func(f *frame) bool { return i0(f) && i1(f) && i2(f) && i3(f) && i4(f) }
	case 6:
		i0, i1, i2, i3, i4, i5 := code[0], code[1], code[2], code[3], code[4], code[5]
		return func(f *frame) bool { return i0(f) && i1(f) && i2(f) && i3(f) && i4(f) && i5(f) }
	case 7:
		i0, i1, i2, i3, i4, i5, i6 := code[0], code[1], code[2], code[3], code[4], code[5], code[6]
		return func(f *frame) bool { return i0(f) && i1(f) && i2(f) && i3(f) && i4(f) && i5(f) && i6(f) }
	}
	i0, i1, i2, i3, i4, i5, i6, i7 := code[0], code[1], code[2], code[3], code[4], code[5], code[6], code[7]
	if len(code) == 8 {
		return func(f *frame) bool { return i0(f) && i1(f) && i2(f) && i3(f) && i4(f) && i5(f) && i6(f) && i7(f) }
	}
	rest := seq(code[8:])
	return func(f *frame) bool {
		return i0(f) && i1(f) && i2(f) && i3(f) && i4(f) && i5(f) && i6(f) && i7(f) && rest(f)
	}
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// seal builds b.run. Blocks of numeric loops hold one to four
// instructions; calling them from one closure, not a loop over a slice
// in code.run, saves a third of SOR's and the sieve's dispatch cost.
func (b *cblock) seal() {
	term, next := b.term, b.next
	if next != nil {
		term = nil
	}
	code := b.code
	switch {
	case len(code) == 0 && term == nil:
		b.run = func(*frame) *edge { return next }
	case len(code) == 0:
		b.run = term
	case len(code) == 1 && term == nil:
		i0 := code[0]
		b.run = func(f *frame) *edge {
			if !i0(f) {
				return throwEdge
			}
			return next
		}
	case len(code) == 1:
		i0 := code[0]
		b.run = func(f *frame) *edge {
			if !i0(f) {
				return throwEdge
			}
			return term(f)
		}
	case len(code) == 2 && term == nil:
		i0, i1 := code[0], code[1]
		b.run = func(f *frame) *edge {
			if !i0(f) || !i1(f) {
				return throwEdge
			}
			return next
		}
	case len(code) == 2:
		i0, i1 := code[0], code[1]
		b.run = func(f *frame) *edge {
			if !i0(f) || !i1(f) {
				return throwEdge
			}
			return term(f)
		}
	case len(code) == 3 && term == nil:
		i0, i1, i2 := code[0], code[1], code[2]
		b.run = func(f *frame) *edge {
			if !i0(f) || !i1(f) || !i2(f) {
				return throwEdge
			}
			return next
		}
	case len(code) == 3:
		i0, i1, i2 := code[0], code[1], code[2]
		b.run = func(f *frame) *edge {
			if !i0(f) || !i1(f) || !i2(f) {
				return throwEdge
			}
			return term(f)
		}
	case term == nil:
		b.run = func(f *frame) *edge {
			for _, in := range code {
				if !in(f) {
					return throwEdge
				}
			}
			return next
		}
	default:
		b.run = func(f *frame) *edge {
			for _, in := range code {
				if !in(f) {
					return throwEdge
				}
			}
			return term(f)
		}
	}
}

type catchEdge struct {
	addr int
	e    *edge
}

// edge is a CFG edge with the φ moves it implies.
type edge struct {
	to       *cblock
	moves    []move
	parallel bool // some move reads a slot another one writes
	back     bool // a loop's back edge: a safepoint
	single   bool // one narrow move
	two      bool // two moves, not parallel
	plain    bool // no moves, not back, not a sentinel: just go to
}

type move struct {
	dst, src int
	wide     bool
}

// Sentinel edges a terminator returns to leave the method.
var (
	retEdge   = &edge{}
	throwEdge = &edge{}
)

// frame is the state of one activation of compiled code.
type frame struct {
	r    []uint32 // the Dalvik registers and the value slots
	e    *Engine
	t    *runtime.Thread
	vm   *runtime.VM
	h    *heap.Heap
	file *runtime.DexFile
	m    *runtime.Method
	fi   int // index in t.Frames
	// threw is set by an array load inside an expression tree whose
	// check failed; the tree's root clears it and throws (expr.go).
	threw bool

	acc *gc.AccessBitmap // what the barriers mark (barrier.go)
	// touches are the barriers an intrinsic runs on each object the
	// method it stands for would access (frame.touch)
	touches uint8

	// callee is the frame struct of this thread one call deeper, once
	// looked up (calleeFrame)
	callee *frame

	// skipLoop is set by a loop closure while its body's BarrierLoop
	// barriers may be skipped: an iteration ran the body whole and no
	// safepoint was taken since (cblock.loopSkipping)
	skipLoop bool
}

// calleeFrame is the frame struct for a compiled method f calls: the
// thread's at the next depth (Engine.frame), kept in f, whose depth and
// thread never change, so that a call does not look it up again.
func (f *frame) calleeFrame() *frame {
	if g := f.callee; g != nil {
		return g
	}
	f.callee = f.e.frame(f.t, f.fi+1)
	return f.callee
}

// at records the dex pc of the instruction about to throw or call, for
// handlers and stack traces.
func (f *frame) at(pc int) { f.t.Frames[f.fi].PC = pc }

// getL and setL access a wide value's two slots as one 64-bit word
// (amd64 and arm64 allow the unaligned access; the slots are little-endian
// like the interpreter's register pairs).
func getL(r []uint32, i int) uint64 {
	_ = r[i+1]
	return *(*uint64)(unsafe.Pointer(&r[i]))
}

func setL(r []uint32, i int, v uint64) {
	_ = r[i+1]
	*(*uint64)(unsafe.Pointer(&r[i])) = v
}

// applyTwo is apply for two moves that are not parallel: a counter and
// an accumulator, sparse's and the loops' back edges.
func (e *edge) applyTwo(r []uint32) {
	m := e.moves
	if m[0].wide {
		setL(r, m[0].dst, getL(r, m[0].src))
	} else {
		r[m[0].dst] = r[m[0].src]
	}
	if m[1].wide {
		setL(r, m[1].dst, getL(r, m[1].src))
	} else {
		r[m[1].dst] = r[m[1].src]
	}
}

func (e *edge) apply(r []uint32) {
	if !e.parallel {
		for _, mv := range e.moves {
			r[mv.dst] = r[mv.src]
			if mv.wide {
				r[mv.dst+1] = r[mv.src+1]
			}
		}
		return
	}
	var buf [64]uint64
	tmp := buf[:0]
	for _, mv := range e.moves {
		v := uint64(r[mv.src])
		if mv.wide {
			v = getL(r, mv.src)
		}
		tmp = append(tmp, v)
	}
	for i, mv := range e.moves {
		if mv.wide {
			setL(r, mv.dst, tmp[i])
		} else {
			r[mv.dst] = uint32(tmp[i])
		}
	}
}

// exec runs the lowered method in the frame at fp; the value slots go
// above the Dalvik frame, where t.SP points.
func (c *code) exec(e *Engine, t *runtime.Thread, m *runtime.Method, fp int) bool {
	base := fp + c.nregs
	n := len(c.tags)
	if t.Overflows(base, n) {
		t.ThrowStackOverflow()
		return false
	}
	clear(t.Stack[base : base+n])
	copy(t.Tags[base:base+n], c.tags)
	r := t.Stack[fp : base+n : base+n]
	for _, k := range c.consts {
		if k.wide {
			setL(r, k.slot, k.bits)
		} else {
			r[k.slot] = uint32(k.bits)
		}
	}
	sp := t.SP
	t.SP = base + n
	fi := len(t.Frames) - 1
	f := e.frame(t, fi)
	// t, vm and h were set when the struct was made for this thread
	f.r, f.file, f.m, f.fi = r, m.Class.File, m, fi
	ok := c.run(f)
	t.SP = sp
	return ok
}

func (c *code) run(f *frame) bool {
	b := c.entry
	for {
		e := b.run(f)
		if e.plain {
			b = e.to
			continue
		}
		switch {
		case e == retEdge:
			return true
		case e == throwEdge:
			if e = b.catch(f); e == nil {
				return false
			}
		case e.back && f.vm.Flags() != 0:
			f.t.Safepoint()
		}
		switch {
		case e.single:
			f.r[e.moves[0].dst] = f.r[e.moves[0].src]
		case e.two:
			e.applyTwo(f.r)
		case len(e.moves) > 0:
			e.apply(f.r)
		}
		b = e.to
	}
}

// catch finds the handler for the pending exception at the frame's pc,
// as the interpreter does, and the exception edge to it; nil when the
// exception leaves the method.
func (b *cblock) catch(f *frame) *edge {
	if len(b.catches) == 0 {
		return nil
	}
	t := f.t
	exc := t.Exc
	if exc == 0 {
		return nil
	}
	addr, ok := t.CatchAddr(f.m, t.Frames[f.fi].PC, exc)
	if !ok {
		return nil
	}
	for _, ce := range b.catches {
		if ce.addr == addr {
			t.Exc, t.Caught = 0, exc
			return ce.e
		}
	}
	// The compiler left out the edge to this handler: a bug; let the
	// exception leave rather than run the wrong code.
	return nil
}

// threadFrames are one thread's frame structs by call depth: reused, so
// that a call allocates nothing on the Go heap. Calls on a thread nest, so
// a depth has one live frame at a time.
type threadFrames struct {
	t      *runtime.Thread
	frames []*frame
}

func (e *Engine) frame(t *runtime.Thread, depth int) *frame {
	fs := e.last
	if fs == nil || fs.t != t {
		fs = e.threads[t]
		if fs == nil {
			fs = &threadFrames{t: t}
			e.threads[t] = fs
		}
		e.last = fs
	}
	for depth >= len(fs.frames) {
		fs.frames = append(fs.frames, &frame{e: e, t: t, vm: t.VM, h: t.VM.Heap, acc: e.accessBitmap(t.VM), touches: e.touchBarriers()})
	}
	return fs.frames[depth]
}
