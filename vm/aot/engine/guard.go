package engine

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
)

// guardSite is an OpTargetIs's cache: the last two receiver classes it
// answered yes for and the last two it answered no for, for all of its
// dispatches at once. The answer for a class never changes once the
// method references are resolved (a no is cached only when a resolved
// reference dispatches elsewhere, which resolving the others cannot
// undo).
type guardSite struct {
	hit, miss [2]*runtime.Class
}

// guardPair is one dispatch a guard checks: an invoke of method
// reference ref with argc argument words (invoke-interface if iface)
// selects the code item want.
type guardPair struct {
	ref   uint32
	argc  int
	iface bool
	want  *dex.Code
}

// targetIs lowers a guard of guarded inlining (ssa.OpTargetIs): 1 when
// an invoke of each of the guard's method references on the receiver
// would dispatch (as Thread.Dispatch does) to the code item of the
// method the guard pairs it with, else 0. A null receiver, an
// unresolved reference (the guard never resolves: that is the call's
// business, on the miss path) and anything Dispatch would reject give 0,
// so the call runs and does what it would have done. All the pairs of a
// variant share one class lookup and one cache, where a guard per
// dispatch, and-ed, looked the class up once each.
func (l *lowerer) targetIs(v *ssa.Value) instr {
	d, a := l.s(v), l.s(v.Args[0])
	auxes := ssa.TargetIsPairs(v)
	if auxes == nil {
		panic(unsupported("a TargetIs operand that is not a constant"))
	}
	pairs := make([]guardPair, len(auxes))
	never := l.m.Class == nil || l.m.Class.File == nil
	for i, aux := range auxes {
		ref, want, argc, iface := ssa.TargetIsFields(aux)
		pairs[i] = guardPair{ref: ref, argc: argc, iface: iface}
		if !never {
			pairs[i].want = virtualCode(l.m.Class.File.F, want)
		}
		// no code to compare with: no class can run it
		never = never || pairs[i].want == nil
	}
	gs := &guardSite{}
	return func(f *frame) bool {
		recv := f.r[a]
		if recv == 0 || never {
			f.r[d] = 0
			return true
		}
		c := f.vm.ClassOf(recv)
		switch c {
		case gs.hit[0], gs.hit[1]:
			f.r[d] = 1
			return true
		case gs.miss[0], gs.miss[1]:
			f.r[d] = 0
			return true
		}
		hit, final := dispatchesTo(f.file, c, pairs)
		switch {
		case hit:
			gs.hit[1], gs.hit[0] = gs.hit[0], c
			f.r[d] = 1
		case final:
			gs.miss[1], gs.miss[0] = gs.miss[0], c
			f.r[d] = 0
		default:
			f.r[d] = 0
		}
		return true
	}
}

// dispatchesTo reports whether an invoke of each pair's reference on a
// receiver of class c selects the pair's code, and whether that answer
// is final: a no is final when some resolved reference selects other
// code (or Dispatch would reject it), not when a reference is merely
// unresolved yet.
func dispatchesTo(file *runtime.DexFile, c *runtime.Class, pairs []guardPair) (hit, final bool) {
	unresolved := false
	for _, p := range pairs {
		m := file.Method(p.ref)
		if m == nil {
			unresolved = true
			continue
		}
		ok := !m.IsStatic() && m.ArgWords == p.argc && (!p.iface || m.Class.IsInterface())
		if ok {
			t := c.Virtual(m)
			ok = t != nil && t.Code == p.want
		}
		if !ok {
			return false, true
		}
	}
	return !unresolved, !unresolved
}

// virtualCode returns the code item of virtual method idx of f, nil if
// f defines no such method.
func virtualCode(f *dex.File, idx uint32) *dex.Code {
	if int(idx) >= len(f.Methods) {
		return nil
	}
	for i := range f.ClassDefs {
		d := &f.ClassDefs[i]
		if d.Class != f.Methods[idx].Class || d.Data == nil {
			continue
		}
		for j := range d.Data.VirtualMethods {
			if d.Data.VirtualMethods[j].Method == idx {
				return d.Data.VirtualMethods[j].Code
			}
		}
	}
	return nil
}
