package engine

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
)

// guardSite is an OpTargetIs's cache: the last receiver classes it
// answered for, most recent first, and their answers. The answer for a
// class never changes once it is final (see variantOf). Threads share
// it, but run under the VM's global lock, handed over only at
// safepoints, and a guard has none: no thread sees a class beside
// another's answer while the arrays shift.
type guardSite struct {
	class  [4]*runtime.Class
	answer [4]uint32
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

// targetIs lowers the guard of guarded inlining (ssa.OpTargetIs): the
// number of the first variant whose dispatches all hold for the
// receiver, else 0. A dispatch holds when an invoke of its method
// reference on the receiver would dispatch (as Thread.Dispatch does) to
// the code item of the method paired with it. A null receiver, an
// unresolved reference (the guard never resolves: that is the call's
// business, on the miss path) and anything Dispatch would reject do
// not hold, so the call runs and does what it would have done. One
// class lookup and one cache answer the whole call site, where a guard
// per dispatch looked the class up once each.
func (l *lowerer) targetIs(v *ssa.Value) instr {
	d, a := l.s(v), l.s(v.Args[0])
	auxes := ssa.TargetIsVariants(v)
	if auxes == nil {
		panic(unsupported("a TargetIs whose operands do not match its counts"))
	}
	variants := make([][]guardPair, len(auxes))
	for k, vaux := range auxes {
		variants[k] = make([]guardPair, len(vaux))
		for i, aux := range vaux {
			ref, want, argc, iface := ssa.TargetIsFields(aux)
			p := guardPair{ref: ref, argc: argc, iface: iface}
			if l.m.Class != nil && l.m.Class.File != nil {
				p.want = virtualCode(l.m.Class.File.F, want)
			}
			variants[k][i] = p
		}
	}
	gs := &guardSite{}
	return func(f *frame) bool {
		recv := f.r[a]
		if recv == 0 {
			f.r[d] = 0
			return true
		}
		c := f.vm.ClassOf(recv)
		// by index: ranging over the array would copy it first
		for i := range gs.class {
			if gs.class[i] == c {
				f.r[d] = gs.answer[i]
				return true
			}
		}
		n, final := variantOf(f.file, c, variants)
		if final {
			copy(gs.class[1:], gs.class[:])
			copy(gs.answer[1:], gs.answer[:])
			gs.class[0], gs.answer[0] = c, n
		}
		f.r[d] = n
		return true
	}
}

// variantOf returns the number (from 1) of the first variant whose
// dispatches all hold for a receiver of class c, 0 if none, and whether
// that answer is final: every variant before it (all of them for 0) has
// a dispatch that fails for good, a resolved reference selecting other
// code or one Dispatch would reject, not merely an unresolved one, which
// may hold once the call resolves it.
func variantOf(file *runtime.DexFile, c *runtime.Class, variants [][]guardPair) (n uint32, final bool) {
	final = true
	for k, pairs := range variants {
		switch holds(file, c, pairs) {
		case dispatchHolds:
			return uint32(k + 1), final
		case dispatchUnresolved:
			final = false
		}
	}
	return 0, final
}

// dispatchAnswer is what holds says of a variant's dispatches.
type dispatchAnswer uint8

const (
	dispatchHolds      dispatchAnswer = iota // all of them hold
	dispatchFails                            // one fails, whatever is resolved later
	dispatchUnresolved                       // none fails, one is unresolved yet
)

// holds checks one variant's dispatches on a receiver of class c.
func holds(file *runtime.DexFile, c *runtime.Class, pairs []guardPair) dispatchAnswer {
	answer := dispatchHolds
	for _, p := range pairs {
		if p.want == nil {
			// no code of the caller's file to compare with: no
			// class runs it
			return dispatchFails
		}
		m := file.Method(p.ref)
		if m == nil {
			answer = dispatchUnresolved
			continue
		}
		ok := !m.IsStatic() && m.ArgWords == p.argc && (!p.iface || m.Class.IsInterface())
		if ok {
			t := c.Virtual(m)
			ok = t != nil && t.Code == p.want
		}
		if !ok {
			return dispatchFails
		}
	}
	return answer
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
