package engine

import (
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
)

// guardSite is an OpTargetIs's cache: the last two receiver classes it
// answered yes for and the last two it answered no for. The answer for
// a class never changes once the method reference is resolved.
type guardSite struct {
	hit, miss [2]*runtime.Class
}

// targetIs lowers a guard of guarded inlining (ssa.OpTargetIs): 1 when
// an invoke of the guard's method reference on the receiver would
// dispatch (as Thread.Dispatch does) to the code item of the method the
// guard names, else 0. A null receiver, an unresolved reference (the
// guard never resolves: that is the call's business, on the miss path)
// and anything Dispatch would reject give 0, so the call runs and does
// what it would have done.
func (l *lowerer) targetIs(v *ssa.Value) instr {
	d, a := l.s(v), l.s(v.Args[0])
	ref, want, argc, iface := ssa.TargetIsFields(v.Aux)
	var wantCode *dex.Code
	if l.m.Class != nil && l.m.Class.File != nil {
		wantCode = virtualCode(l.m.Class.File.F, want)
	}
	gs := &guardSite{}
	return func(f *frame) bool {
		recv := f.r[a]
		if recv == 0 || wantCode == nil {
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
		m := f.file.Method(ref)
		if m == nil {
			f.r[d] = 0
			return true
		}
		ok := !m.IsStatic() && m.ArgWords == argc && (!iface || m.Class.IsInterface())
		if ok {
			t := c.Virtual(m)
			ok = t != nil && t.Code == wantCode
		}
		if ok {
			gs.hit[1], gs.hit[0] = gs.hit[0], c
			f.r[d] = 1
		} else {
			gs.miss[1], gs.miss[0] = gs.miss[0], c
			f.r[d] = 0
		}
		return true
	}
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
