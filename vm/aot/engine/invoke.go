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
	ssa.OpInvokeVirtual: 0x6e, ssa.OpInvokeSuper: 0x6f, ssa.OpInvokeDirect: 0x70,
	ssa.OpInvokeStatic: 0x71, ssa.OpInvokeInterface: 0x72,
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

// call resolves and dispatches like the interpreter's invoke.
func call(f *frame, caller *runtime.Method, kind uint8, idx uint32, args []arg, argc int) bool {
	t, vm := f.t, f.vm
	m := f.file.Method(idx)
	if m == nil {
		if m = t.ResolveMethod(f.file, idx); m == nil {
			return false
		}
	}
	if argc != m.ArgWords {
		t.ThrowNew("Ljava/lang/VerifyError;", "wrong argument count for "+m.String())
		return false
	}
	if (kind == 0x71) != m.IsStatic() {
		t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "The method '"+m.String()+"' was expected to be of type "+kindName(kind)+" but instead was found to be of type "+staticName(m))
		return false
	}
	target := m
	if kind != 0x71 {
		recv := f.r[args[0].slot]
		if recv == 0 {
			t.ThrowNPE(runtime.NPEInvoke(kindName(kind), m))
			return false
		}
		switch kind {
		case 0x6e, 0x72:
			if kind == 0x72 && !m.Class.IsInterface() {
				t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "Class "+m.Class.Name+" does not implement interface ...")
				return false
			}
			rc := vm.ClassOf(recv)
			target = rc.Virtual(m)
			if target == nil {
				if kind == 0x72 {
					t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "Class '"+rc.Name+"' does not implement interface '"+m.Class.Name+"' in call to '"+m.String()+"'")
				} else {
					t.ThrowNew("Ljava/lang/AbstractMethodError;", "abstract method \""+m.String()+"\"")
				}
				return false
			}
		case 0x6f:
			target = caller.Class.SuperTarget(m)
			if target == nil {
				t.ThrowNew("Ljava/lang/NoSuchMethodError;", "super method "+m.String())
				return false
			}
		}
	} else if c := m.Class; c.State != runtime.ClassInitialized && !t.EnsureInitialized(c) {
		return false
	}
	if vm.Flags() != 0 {
		t.Safepoint()
	}
	nregs := target.ArgWords
	if target.Code != nil {
		nregs = int(target.Code.Registers)
		if nregs < target.ArgWords {
			t.ThrowNew("Ljava/lang/VerifyError;", "fewer registers than arguments in "+target.String())
			return false
		}
	}
	fp := t.SP
	if t.Overflows(fp, nregs) {
		t.ThrowStackOverflow()
		return false
	}
	base := fp + nregs - argc
	clear(t.Tags[fp:base])
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
	ok := t.Call(target, fp)
	t.SP = fp
	return ok
}

func staticName(m *runtime.Method) string {
	if m.IsStatic() {
		return "static"
	}
	return "instance"
}
