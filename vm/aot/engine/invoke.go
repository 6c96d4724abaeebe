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

// invoke lowers a call: the callee gets a frame on top of the register
// stack and runs through Thread.Call, so hooks, synchronisation and the
// engine's per-method choice apply as for the interpreter's calls.
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
	return func(f *frame) bool {
		f.at(pc)
		if !call(f, caller, kind, idx, args, words) {
			return false
		}
		if d >= 0 {
			if wide {
				setL(f.r, d, f.t.Ret)
			} else {
				f.r[d] = uint32(f.t.Ret)
			}
		}
		return true
	}
}

// call resolves, dispatches (Thread.Dispatch, as the interpreter does)
// and runs an invoke.
func call(f *frame, caller *runtime.Method, kind uint8, idx uint32, args []arg, argc int) bool {
	t := f.t
	m := f.file.Method(idx)
	if m == nil {
		if m = t.ResolveMethod(f.file, idx); m == nil {
			return false
		}
	}
	var recv uint32
	if kind != runtime.InvokeStatic && len(args) > 0 {
		recv = f.r[args[0].slot]
	}
	target := t.Dispatch(caller, m, kind, argc, recv)
	if target == nil {
		return false
	}
	fp, nregs, ok := t.PushFrame(target, argc)
	if !ok {
		return false
	}
	base := fp + nregs - argc
	i := base
	for _, a := range args {
		t.Stack[i], t.Tags[i] = f.r[a.slot], a.ref
		i++
		if a.wide {
			t.Stack[i], t.Tags[i] = f.r[a.slot+1], false
			i++
		}
	}
	t.SP = fp + nregs
	ok = t.Call(target, fp)
	t.SP = fp
	return ok
}
