package aot

import (
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
		if call.Aux < 0 || int(idx) >= len(f.Methods) || f.Methods[idx].Class != cls {
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
