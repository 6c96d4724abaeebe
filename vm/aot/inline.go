package aot

import (
	"fmt"

	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
)

// MaxInlineUnits bounds the code units of a method SameClassInliner
// compiles as a callee: the bodies the inline pass accepts are a few
// instructions, so larger ones are not worth compiling to find out.
const MaxInlineUnits = 24

// SameClassInliner returns the ssa.Inliner for the methods of f's
// method caller: it offers the callees that an invoke-static or
// invoke-direct names in the caller's own class and that class declares
// (static methods, private methods, constructors), compiled with cfg
// (without barriers or dumps: the caller's pipeline adds its own after
// splicing). cfg.Inline, if set, inlines into the callees: it must offer
// no method that could lead back to them (the aot engine offers only
// Object.<init>'s empty body there, so that constructors become leaves).
//
// What makes these safe to inline, where the IR alone cannot tell: the
// class is the one the caller's code was loaded with, so the runtime
// resolves the invoke to this very method (a direct or static method is
// never overridden); it is initialised, or being initialised by this
// thread, whenever the caller runs, so an invoke-static of it would not
// start an initialisation; and every field the body accesses must be an
// instance field the class itself declares, so resolving it cannot fail.
// Synchronized and native callees and those with try blocks are not
// offered.
func SameClassInliner(f *dex.File, caller uint32, cfg ssa.Config) ssa.Inliner {
	if int(caller) >= len(f.Methods) {
		return nil
	}
	cls := f.Methods[caller].Class
	var def *dex.ClassDef
	for i := range f.ClassDefs {
		if f.ClassDefs[i].Class == cls {
			def = &f.ClassDefs[i]
			break
		}
	}
	if def == nil || def.Data == nil {
		return nil
	}
	fields := map[uint32]bool{}
	for _, ef := range def.Data.InstanceFields {
		fields[ef.Field] = true
	}
	cfg.After, cfg.Barriers, cfg.CheckBarriers = nil, ssa.BarriersOff, false
	memo := map[uint32]*ssa.Func{}
	return func(call *ssa.Value) *ssa.Func {
		idx := uint32(call.Aux)
		if call.Op != ssa.OpInvokeStatic && call.Op != ssa.OpInvokeDirect ||
			call.Aux < 0 || int(idx) >= len(f.Methods) || f.Methods[idx].Class != cls {
			// an invoke-virtual of a private method dispatches by
			// name on the receiver's class, which may declare its own
			return nil
		}
		if g, ok := memo[idx]; ok {
			return g
		}
		memo[idx] = nil
		var em *dex.EncodedMethod
		for i := range def.Data.DirectMethods {
			if def.Data.DirectMethods[i].Method == idx {
				em = &def.Data.DirectMethods[i]
				break
			}
		}
		if em == nil || em.Code == nil || len(em.Code.Insns) > MaxInlineUnits || len(em.Code.Tries) > 0 ||
			em.Access&(dex.AccNative|dex.AccSynchronized|dex.AccDeclaredSynchronized) != 0 ||
			(em.Access&dex.AccStatic != 0) != (call.Op == ssa.OpInvokeStatic) {
			return nil
		}
		g, err := CompileMethod(frontend.Method{File: f, Method: idx, Access: em.Access, Code: em.Code}, cfg)
		if err != nil {
			return nil
		}
		for _, b := range g.Blocks {
			for _, v := range b.Values {
				if (v.Op == ssa.OpIGet || v.Op == ssa.OpIPut) && (v.Aux < 0 || !fields[uint32(v.Aux)]) {
					return nil
				}
			}
		}
		memo[idx] = g
		return g
	}
}

// VirtualInliner returns the ssa.GuardedInliner for the methods of f:
// for a virtual or interface invoke whose method reference names a class
// or interface of f, one variant per concrete class of f below it (at
// most ssa.MaxVariants distinct ones, in class-definition order) whose
// implementation f declares, is small, and becomes inlinable once the
// calls it makes on its own receiver are inlined with that class's
// implementations too (a template method such as CaffeineMark's
// Shape.twice calling area). Each variant's guards name every dispatch
// it assumed, as method indices of f, so that the guard compares what
// the runtime's dispatch selects with the code inlined: a class of
// another DEX file, or a hierarchy the runtime resolved otherwise,
// misses and calls. Bodies that access fields are not offered (a field
// reference's resolution could fail where the call would have failed
// inside its own frame). cfg is as for SameClassInliner.
func VirtualInliner(f *dex.File, cfg ssa.Config) ssa.GuardedInliner {
	cfg.After, cfg.Barriers, cfg.CheckBarriers, cfg.Guarded = nil, ssa.BarriersOff, false, nil
	plain := cfg
	plain.Inline = nil
	h := &hierarchy{f: f, defs: map[uint32]*dex.ClassDef{}, subs: map[uint32][]uint32{}, plain: map[uint32]*ssa.Func{}}
	for i := range f.ClassDefs {
		d := &f.ClassDefs[i]
		h.defs[d.Class] = d
		if d.Super != dex.NoIndex {
			h.subs[d.Super] = append(h.subs[d.Super], d.Class)
		}
		for _, t := range d.Interfaces {
			h.subs[t] = append(h.subs[t], d.Class)
		}
	}
	memo := map[int64][]ssa.Variant{}
	return func(call *ssa.Value) []ssa.Variant {
		if call.Aux < 0 || int(call.Aux) >= len(f.Methods) {
			return nil
		}
		iface := call.Op == ssa.OpInvokeInterface
		key := call.Aux<<1 | int64(len(call.Args))<<40
		if iface {
			key |= 1
		}
		if vs, ok := memo[key]; ok {
			return vs
		}
		ref := uint32(call.Aux)
		argc := words(call.Args)
		var vs []ssa.Variant
		seen := map[string]bool{}
		tries := 0
		for _, c := range h.concrete(f.Methods[ref].Class) {
			if len(vs) == ssa.MaxVariants || tries == maxVariantTries {
				break
			}
			target, em := h.implementation(c, ref)
			if em == nil {
				continue
			}
			guards := []int64{ssa.TargetIsAux(ref, target, argc, iface)}
			g := h.compilePlain(target, em, plain)
			if g == nil {
				continue
			}
			if callsOnlyThis(g) {
				// a template method: its calls on the receiver
				// inlined with c's implementations, one compile
				// per class
				tries++
				inner := cfg
				inner.Inline = func(v *ssa.Value) *ssa.Func {
					if v.Op != ssa.OpInvokeVirtual && v.Op != ssa.OpInvokeInterface || len(v.Args) == 0 || v.Args[0].Op != ssa.OpThis {
						return nil
					}
					r := uint32(v.Aux)
					t, iem := h.implementation(c, r)
					if iem == nil {
						return nil
					}
					ig := h.compilePlain(t, iem, plain)
					if ig != nil {
						guards = append(guards, ssa.TargetIsAux(r, t, words(v.Args), v.Op == ssa.OpInvokeInterface))
					}
					return ig
				}
				if g = h.compile(target, em, inner); g == nil {
					continue
				}
			}
			k := fmt.Sprint(guards)
			if seen[k] {
				continue
			}
			seen[k] = true
			vs = append(vs, ssa.Variant{Guards: guards, Body: g})
		}
		memo[key] = vs
		return vs
	}
}

// maxVariantTries bounds the template methods VirtualInliner compiles
// per method reference (one per class below it): a reference such as
// Object.toString has hundreds of classes below it in core.dex.
const maxVariantTries = 8

// callsOnlyThis reports whether g has calls, all of them virtual or
// interface calls on its receiver.
func callsOnlyThis(g *ssa.Func) bool {
	n := 0
	for _, b := range g.Blocks {
		for _, v := range b.Values {
			switch v.Op {
			case ssa.OpInvokeVirtual, ssa.OpInvokeInterface:
				if len(v.Args) == 0 || v.Args[0].Op != ssa.OpThis {
					return false
				}
				n++
			case ssa.OpInvokeSuper, ssa.OpInvokeDirect, ssa.OpInvokeStatic, ssa.OpInvokePolymorphic, ssa.OpInvokeCustom:
				return false
			}
		}
	}
	return n > 0
}

// hierarchy answers class-hierarchy questions from one DEX file's
// class definitions alone.
type hierarchy struct {
	f    *dex.File
	defs map[uint32]*dex.ClassDef
	// subs are the classes and interfaces that extend or implement
	// each type directly
	subs map[uint32][]uint32
	// plain are the methods compiled without inlining, nil when that
	// failed or the body accesses fields
	plain map[uint32]*ssa.Func
}

// concrete returns the classes of f that are neither abstract nor
// interfaces and are type t or below it, depth first.
func (h *hierarchy) concrete(t uint32) []uint32 {
	var out []uint32
	seen := map[uint32]bool{}
	var walk func(c uint32)
	walk = func(c uint32) {
		if seen[c] {
			return
		}
		seen[c] = true
		if d := h.defs[c]; d != nil && d.Access&(dex.AccInterface|dex.AccAbstract) == 0 {
			out = append(out, c)
		}
		for _, s := range h.subs[c] {
			walk(s)
		}
	}
	walk(t)
	return out
}

// compilePlain is compile without inlining, once per method.
func (h *hierarchy) compilePlain(idx uint32, em *dex.EncodedMethod, cfg ssa.Config) *ssa.Func {
	if g, ok := h.plain[idx]; ok {
		return g
	}
	g := h.compile(idx, em, cfg)
	h.plain[idx] = g
	return g
}

// implementation returns the method of f that a virtual call of method
// reference ref selects for an object of class c, by walking c's
// superclasses in f; em is nil when the walk leaves f or finds an
// abstract, native, synchronized or large method, or one with try
// blocks (default methods of interfaces are not looked at).
func (h *hierarchy) implementation(c, ref uint32) (uint32, *dex.EncodedMethod) {
	want := h.f.Methods[ref]
	for n := 0; n < 64; n++ {
		d := h.defs[c]
		if d == nil || d.Data == nil {
			return 0, nil
		}
		for i := range d.Data.VirtualMethods {
			em := &d.Data.VirtualMethods[i]
			m := h.f.Methods[em.Method]
			if m.Name != want.Name || m.Proto != want.Proto {
				continue
			}
			if em.Code == nil || len(em.Code.Insns) > MaxInlineUnits || len(em.Code.Tries) > 0 ||
				em.Access&(dex.AccNative|dex.AccSynchronized|dex.AccDeclaredSynchronized|dex.AccAbstract) != 0 {
				return 0, nil
			}
			return em.Method, em
		}
		if d.Super == dex.NoIndex {
			return 0, nil
		}
		c = d.Super
	}
	return 0, nil
}

// compile returns the IR of method idx of f with cfg, or nil if it
// fails or accesses fields.
func (h *hierarchy) compile(idx uint32, em *dex.EncodedMethod, cfg ssa.Config) *ssa.Func {
	g, err := CompileMethod(frontend.Method{File: h.f, Method: idx, Access: em.Access, Code: em.Code}, cfg)
	if err != nil {
		return nil
	}
	for _, b := range g.Blocks {
		for _, v := range b.Values {
			if v.Op == ssa.OpIGet || v.Op == ssa.OpIPut || v.Op == ssa.OpSGet || v.Op == ssa.OpSPut {
				return nil
			}
		}
	}
	return g
}

// words counts the argument words of an invoke's arguments.
func words(args []*ssa.Value) int {
	n := 0
	for _, a := range args {
		n++
		if a.Type.Wide() {
			n++
		}
	}
	return n
}
