package runtime

import (
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/verify"
)

// verifyClass runs the bytecode verifier on a newly linked application
// class, as ART does before a class may be initialised. A class that
// fails keeps its methods but cannot run them: its initialisation throws
// VerifyError (EnsureInitialized), and so does any call that reaches one
// of its methods without it (a default method through an implementing
// class), because each method with code is replaced by a native stub that
// throws. The engines may therefore trust every method they execute.
//
// The core library is not verified at run time: like ART's boot image it
// is verified when it is built (vm/verify's tests check it).
func (vm *VM) verifyClass(c *Class) {
	if c.Boot || c.Def == nil {
		return
	}
	err := verify.Class(c.File.F, c.Def, classPath{vm})
	if err == nil {
		return
	}
	c.VerifyError = err.Error()
	for _, m := range c.Methods {
		if m.Code != nil {
			m.Code = nil
			m.Native = throwVerifyError
		}
	}
}

func throwVerifyError(t *Thread, _ []uint32) {
	m := t.Frames[len(t.Frames)-1].Method
	t.ThrowNew("Ljava/lang/VerifyError;", m.Class.VerifyError)
}

// classPath answers the verifier's class questions from the class path's
// definitions, in the class linker's search order, without loading
// anything.
type classPath struct{ vm *VM }

// Lookup implements verify.Hierarchy.
func (h classPath) Lookup(desc string) (verify.ClassInfo, bool) {
	for _, files := range [][]*DexFile{h.vm.bootFiles, h.vm.appFiles} {
		for _, f := range files {
			if i, ok := f.classIndex[desc]; ok {
				def := &f.F.ClassDefs[i]
				info := verify.ClassInfo{Interface: def.Access&dex.AccInterface != 0}
				if def.Super != dex.NoIndex {
					info.Super = f.TypeName(def.Super)
				}
				return info, true
			}
		}
	}
	return verify.ClassInfo{}, false
}
