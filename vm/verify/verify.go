// Package verify is the bytecode verifier: the checks ART's (and
// Dalvik's) verifier makes before a class's code may run, so the engines
// can trust verified code.
//
// It has two stages per method, as ART's MethodVerifier: structural checks
// of the code item (every instruction decodes, register operands are
// below registers_size, indices are inside the DEX tables, branch and
// switch targets land on instruction starts, payloads are aligned and of
// the right kind, try ranges and handlers are well formed, invokes pass
// as many argument words as the callee's prototype has), then a type-flow
// analysis over the control-flow graph (register types merged at joins:
// no int used as a reference or the reverse, wide pairs intact,
// move-result only after an invoke or filled-new-array, move-exception
// only at a handler, objects initialised before use, returns that match
// the method's return type).
//
// Like ART it fails only on hard errors: references it cannot resolve
// (unknown classes, methods, fields) are left to the runtime, which
// throws NoClassDefFoundError or NoSuchMethodError at the instruction.
package verify

import (
	"github.com/droidprof/droidprof/vm/dex"
)

// ClassInfo is what the type checks need to know about a class.
type ClassInfo struct {
	// Super is the super class's descriptor, "" for java.lang.Object.
	Super string
	// Interface is set for interfaces.
	Interface bool
}

// Hierarchy looks classes up by descriptor for the type checks. ok is
// false for a class that cannot be found, which makes the checks that
// need it pass (they are left to run time).
type Hierarchy interface {
	Lookup(desc string) (info ClassInfo, ok bool)
}

// Class verifies every method of a class definition of f. It returns nil
// or a *ClassError listing each method that failed.
func Class(f *dex.File, def *dex.ClassDef, h Hierarchy) error {
	if def.Data == nil {
		return nil
	}
	var ce *ClassError
	for _, ms := range [][]dex.EncodedMethod{def.Data.DirectMethods, def.Data.VirtualMethods} {
		for _, em := range ms {
			if err := method(f, def, em, h); err != nil {
				if ce == nil {
					ce = &ClassError{Class: prettyType(f.Strings[f.Types[def.Class]])}
				}
				ce.Methods = append(ce.Methods, err)
			}
		}
	}
	if ce == nil {
		return nil
	}
	return ce
}

// Method verifies one method of class def. It returns nil or an *Error
// naming the method and the dex pc of the first hard failure.
func Method(f *dex.File, def *dex.ClassDef, em dex.EncodedMethod, h Hierarchy) error {
	if err := method(f, def, em, h); err != nil {
		return err
	}
	return nil
}

func method(f *dex.File, def *dex.ClassDef, em dex.EncodedMethod, h Hierarchy) (err *Error) {
	v := &verifier{f: f, h: h, def: def, em: em, code: em.Code, pc: -1}
	ref := f.Methods[em.Method]
	proto := f.Protos[ref.Proto]
	v.class = f.Strings[f.Types[def.Class]]
	v.name = f.Strings[ref.Name]
	v.ret = f.Strings[f.Types[proto.Return]]
	for _, p := range proto.Params {
		v.params = append(v.params, f.Strings[f.Types[p]])
	}
	defer func() {
		if r := recover(); r != nil {
			fl, ok := r.(failure)
			if !ok {
				panic(r)
			}
			err = &Error{Method: v.pretty(), PC: fl.pc, Reason: fl.reason}
		}
	}()
	v.run()
	return nil
}

// verifier holds the state of one method's verification.
type verifier struct {
	f    *dex.File
	h    Hierarchy
	def  *dex.ClassDef
	em   dex.EncodedMethod
	code *dex.Code

	class, name, ret string
	params           []string

	insns []uint16
	pc    int // the instruction being checked, -1 for the method as a whole

	// Per code unit, from the structural pass.
	insn    []dex.Instruction // decoded at instruction starts
	flags   []uint8
	catches [][]string // per handler address: the caught descriptors ("" = all)

	// The type flow: a line per branch target and handler, and the line
	// of the instruction being checked.
	lines []line
	cur   line
}

// Per code unit flags.
const (
	fStart   uint8 = 1 << iota // an instruction (not a payload) starts here
	fPayload                   // a payload starts here
	fTarget                    // a branch target or handler: keeps a register line
	fHandler                   // a catch handler starts here
	fInTry                     // covered by a try item
)

func (v *verifier) static() bool { return v.em.Access&dex.AccStatic != 0 }

func (v *verifier) run() {
	acc := v.em.Access
	switch {
	case acc&(dex.AccAbstract|dex.AccNative) != 0:
		if v.code != nil {
			v.fail("abstract or native method has code")
		}
		return
	case v.code == nil:
		v.fail("method has no code")
	}
	v.checkDesc(v.def.Class, false)
	v.checkProto(v.f.Methods[v.em.Method].Proto)
	v.structure()
	v.flow()
}

// pretty is the method in ART's PrettyMethod form, "void Foo.bar(int)".
func (v *verifier) pretty() string {
	s := prettyType(v.ret) + " " + prettyType(v.class) + "." + v.name + "("
	for i, p := range v.params {
		if i > 0 {
			s += ", "
		}
		s += prettyType(p)
	}
	return s + ")"
}

func (v *verifier) typeName(i uint32) string { return v.f.Strings[v.f.Types[i]] }

// methodSig is "Lpkg/Cls;.name(params)ret" for messages.
func (v *verifier) methodSig(i uint32) string {
	m := v.f.Methods[i]
	p := v.f.Protos[m.Proto]
	s := prettyType(v.typeName(m.Class)) + "." + v.f.Strings[m.Name] + " ("
	for _, t := range p.Params {
		s += v.typeName(t)
	}
	return s + ")" + v.typeName(p.Return)
}
