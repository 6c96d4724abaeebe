package engine

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/runtime"
)

// arg is one argument of an invoke: its slot, width and tag.
type arg struct {
	slot      int
	wide, ref bool
}

var invokeKinds = map[ssa.Op]uint8{
	ssa.OpInvokeVirtual: runtime.InvokeVirtual, ssa.OpInvokeSuper: runtime.InvokeSuper, ssa.OpInvokeDirect: runtime.InvokeDirect,
	ssa.OpInvokeStatic: runtime.InvokeStatic, ssa.OpInvokeInterface: runtime.InvokeInterface,
}

// site is an invoke's cache: the resolved method, once Dispatch has
// accepted it, and the last two receiver classes of a virtual or
// interface call with the methods they selected (a bimorphic inline
// cache: CaffeineMark's shapes alternate between two classes).
type site struct {
	m       *runtime.Method
	cls     [2]*runtime.Class
	targets [2]*runtime.Method
	// intr is m's intrinsic (intrinsic.go), looked up once m is
	// resolved (looked)
	intr   intrinsic
	looked bool
	// codes are the direct-run code of m (static and direct calls) and
	// of targets, once Engine.direct returned it, which it then always
	// does for that method
	codes [2]*code
}

// invoke lowers a call: the callee gets a frame on top of the register
// stack and runs through Thread.Call, so hooks, synchronisation and the
// engine's per-method choice apply as for the interpreter's calls; a
// compiled callee runs directly when none of those applies (call).
func (l *lowerer) invoke(v *ssa.Value) instr {
	kind := invokeKinds[v.Op]
	idx := uint32(v.Aux)
	pc := v.PC
	args := make([]arg, len(v.Args))
	words := 0
	for i, a := range v.Args {
		args[i] = arg{l.s(a), a.Type.Wide(), a.Type == ssa.TypeRef}
		words += width(a.Type)
	}
	d := -1
	if v.Type != ssa.TypeVoid {
		d = l.s(v)
	}
	wide := v.Type.Wide()
	caller := l.m
	cs := &site{}
	clr := new([]int)
	l.afterCall = clr
	return func(f *frame) bool {
		if cs.intr != nil {
			if f.vm.Flags() != 0 {
				// the call's safepoint, before the intrinsic reads
				// its arguments (a moving collection updates them)
				f.at(pc)
				f.t.Safepoint()
			}
			if ret, ok := cs.intr(f, args); ok {
				f.e.intrinsicCalls++
				if d >= 0 {
					if wide {
						setL(f.r, d, ret)
					} else {
						f.r[d] = uint32(ret)
					}
				}
				for _, s := range *clr {
					f.r[s] = 0
				}
				return true
			}
		}
		f.at(pc)
		ok := call(f, caller, kind, idx, args, words, cs)
		if !cs.looked && cs.m != nil {
			cs.looked = true
			cs.intr = f.e.intrinsicFor(f.vm, cs.m)
		}
		if ok && d >= 0 {
			if wide {
				setL(f.r, d, f.t.Ret)
			} else {
				f.r[d] = uint32(f.t.Ret)
			}
		}
		// the references whose last use this call is, or its own
		// result when nothing uses it (clearDead)
		for _, s := range *clr {
			f.r[s] = 0
		}
		return ok
	}
}

// call resolves, dispatches (Thread.Dispatch, as the interpreter does)
// and runs an invoke. A call the site's cache has seen before skips
// Dispatch (its checks passed for this method, and a virtual call's
// target depends only on the receiver's class); a compiled callee runs
// without Thread.Call when no method hook is set (direct).
func call(f *frame, caller *runtime.Method, kind uint8, idx uint32, args []arg, argc int, cs *site) bool {
	t := f.t
	var recv uint32
	if kind != runtime.InvokeStatic && len(args) > 0 {
		recv = f.r[args[0].slot]
	}
	var target *runtime.Method
	var c *code
	k := 0 // the entry of cs.codes for target
	if m := cs.m; m != nil {
		switch kind {
		case runtime.InvokeStatic:
			if m.Class.State == runtime.ClassInitialized {
				target, c = m, cs.codes[0]
			}
		case runtime.InvokeDirect:
			if recv != 0 {
				target, c = m, cs.codes[0]
			}
		case runtime.InvokeVirtual, runtime.InvokeInterface:
			if recv != 0 {
				switch rc := f.vm.ClassOf(recv); rc {
				case cs.cls[0]:
					target, c = cs.targets[0], cs.codes[0]
				case cs.cls[1]:
					target, c, k = cs.targets[1], cs.codes[1], 1
				}
			}
		}
		if target != nil && f.vm.Flags() != 0 {
			t.Safepoint()
		}
	}
	if target == nil {
		m := f.file.Method(idx)
		if m == nil {
			if m = t.ResolveMethod(f.file, idx); m == nil {
				return false
			}
		}
		if target = t.Dispatch(caller, m, kind, argc, recv); target == nil {
			return false
		}
		cs.m = m
		if kind == runtime.InvokeVirtual || kind == runtime.InvokeInterface {
			// the receiver's slot is current after a safepoint's move
			cs.cls[1], cs.targets[1], cs.codes[1] = cs.cls[0], cs.targets[0], cs.codes[0]
			cs.cls[0], cs.targets[0] = f.vm.ClassOf(f.r[args[0].slot]), target
		}
		cs.codes[0] = nil
	}
	if c == nil {
		if c = f.e.direct(f.vm, target); c != nil {
			cs.codes[k] = c
		}
	}
	if c != nil && t.Exc == 0 {
		return c.invoke(f, target, args)
	}
	fp, nregs, ok := t.PushFrame(target, argc)
	if !ok {
		return false
	}
	copyArgs(t, f.r, args, fp+nregs-argc)
	t.SP = fp + nregs
	ok = t.Call(target, fp)
	t.SP = fp
	return ok
}

// invoke runs compiled code as the callee of f's call with args: what
// PushFrame, Thread.Call and exec do for it, with the frame's tags and
// initial value slots copied from templates made by the lowering.
func (c *code) invoke(f *frame, m *runtime.Method, args []arg) bool {
	t := f.t
	fp := t.SP
	size := len(c.frameTags)
	if t.Overflows(fp, size) {
		t.ThrowStackOverflow()
		return false
	}
	if c.leaf && !m.IsSynchronized() {
		return c.invokeLeaf(f, m, args, fp, size)
	}
	copy(t.Tags[fp:fp+size], c.frameTags)
	base := fp + c.nregs
	copy(t.Stack[base:fp+size], c.slotInit)
	copyArgs(t, f.r, args, base-m.ArgWords)
	t.Frames = append(t.Frames, runtime.Frame{Method: m, FP: fp})
	t.SP = fp + size
	fi := len(t.Frames) - 1
	if m.IsSynchronized() {
		return c.invokeSynchronized(f, m, fp, size, fi)
	}
	g := f.calleeFrame()
	g.r, g.file, g.m, g.fi = t.Stack[fp:fp+size:fp+size], m.Class.File, m, fi
	ok := c.run(g)
	t.SP = fp
	t.Frames = t.Frames[:fi]
	return ok
}

// invokeLeaf is the rest of invoke for a leaf callee (code.leaf): as
// the callee cannot throw, call, collect or reach a safepoint, nothing
// looks at its stack trace or scans its slots while it runs, and after
// it they are above the stack pointer; so it gets no entry in t.Frames,
// its slots no tags, and t.SP stays (caffeine-method's area and apply).
func (c *code) invokeLeaf(f *frame, m *runtime.Method, args []arg, fp, size int) bool {
	t := f.t
	base := fp + c.nregs
	copy(t.Stack[base:fp+size], c.slotInit)
	copyArgs(t, f.r, args, base-m.ArgWords)
	fi := len(t.Frames)
	g := f.calleeFrame()
	g.r, g.file, g.m, g.fi = t.Stack[fp:fp+size:fp+size], m.Class.File, m, fi
	return c.run(g)
}

// invokeSynchronized is the rest of invoke for a synchronized callee,
// whose frame is set up: it locks and unlocks the monitor around the
// body as Thread.Call does (the lock held as a root, so that a moving
// collection while it blocks or runs updates it; an exception of the
// body survives the unlock), without Thread.Call's second frame set-up
// and its engine dispatch. Only ACC_SYNCHRONIZED methods come here
// (runtime.Method.IsSynchronized): javac's synchronized methods, such as
// SciMark's Random.next, are declared-synchronized and lock with their
// own monitor instructions.
func (c *code) invokeSynchronized(f *frame, m *runtime.Method, fp, size, fi int) bool {
	t := f.t
	var lock uint32
	if m.IsStatic() {
		lock = m.Class.Addr
	} else {
		lock = t.Stack[fp+c.nregs-m.ArgWords]
	}
	t.PushRoot(lock)
	t.MonitorEnter(lock)
	g := f.calleeFrame()
	g.r, g.file, g.m, g.fi = t.Stack[fp:fp+size:fp+size], m.Class.File, m, fi
	ok := c.run(g)
	exc := t.Exc
	t.Exc = 0
	t.MonitorExit(t.Root(0))
	t.PopRoots(1)
	if exc != 0 {
		t.Exc = exc
	}
	ok = t.Exc == 0
	t.SP = fp
	t.Frames = t.Frames[:fi]
	return ok
}

// direct returns the compiled code of m when a call may run it without
// Thread.Call, else nil: when no method hook is set (Thread.Call
// reports calls to them) and m's code is compiled. A synchronized
// callee qualifies too; code.invoke takes its monitor.
func (e *Engine) direct(vm *runtime.VM, m *runtime.Method) *code {
	if vm.Hooks.MethodEntry != nil || vm.Hooks.MethodExit != nil || m.Code == nil || int(m.Code.Registers) < m.ArgWords {
		return nil
	}
	var c *code
	if m.ID < len(e.codes) {
		c = e.codes[m.ID]
	}
	if c == nil {
		c = e.compile(vm, m)
	}
	if c == interpreted {
		return nil
	}
	return c
}

// copyArgs copies a call's arguments from the caller's slots r to the
// callee's registers from i on, with their tags.
func copyArgs(t *runtime.Thread, r []uint32, args []arg, i int) {
	for _, a := range args {
		t.Stack[i], t.Tags[i] = r[a.slot], a.ref
		i++
		if a.wide {
			t.Stack[i], t.Tags[i] = r[a.slot+1], false
			i++
		}
	}
}
