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
	if vm.hierarchy == nil {
		var files []*dex.File
		for _, f := range vm.bootFiles {
			files = append(files, f.F)
		}
		for _, f := range vm.appFiles {
			files = append(files, f.F)
		}
		vm.hierarchy = verify.NewFiles(files...)
	}
	err := verify.Class(c.File.F, c.Def, vm.hierarchy)
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
