package runtime

// Access checks (JVMS §5.4.4), made when bytecode first resolves a
// class, field or method reference, as ART's verifier arranges: an
// inaccessible target throws IllegalAccessError with ART's message. The
// resolution is cached per DEX file once it succeeds, so a second class
// of the same file reaching the same member illegally is not caught;
// javac never emits such code, hand-written smali can.

// referrer is the class whose bytecode is resolving a reference of d: the
// method on top of the stack, if it comes from d. Natives resolving for
// the reflection API (whose frames are the core library's) are not
// checked: reflection has its own checks.
func (t *Thread) referrer(d *DexFile) *Class {
	if n := len(t.Frames); n > 0 {
		if m := t.Frames[n-1].Method; m != nil && m.Class.File == d {
			return m.Class
		}
	}
	return nil
}

// checkClassAccess throws IllegalAccessError if from may not use c.
func (t *Thread) checkClassAccess(from, c *Class) bool {
	e := c
	for e.Component != nil {
		e = e.Component
	}
	if from == nil || e.IsPrimitive() || classAccessible(from, e) {
		return true
	}
	t.ThrowNew("Ljava/lang/IllegalAccessError;", "Illegal class access: '"+from.Name+"' attempting to access '"+c.Name+"'")
	return false
}

// checkFieldAccess throws IllegalAccessError if from may not use f.
func (t *Thread) checkFieldAccess(from *Class, f *Field) bool {
	if from == nil || canAccess(from, f.Class, f.Access, 0, t.VM) {
		return true
	}
	t.ThrowNew("Ljava/lang/IllegalAccessError;", "Field '"+prettyType(f.Type)+" "+f.Class.Name+"."+f.Name+"' is inaccessible to class '"+from.Name+"'")
	return false
}

// checkMethodAccess throws IllegalAccessError if from may not call m.
func (t *Thread) checkMethodAccess(from *Class, m *Method) bool {
	if from == nil || canAccess(from, m.Class, m.Access, 0, t.VM) {
		return true
	}
	t.ThrowNew("Ljava/lang/IllegalAccessError;", "Method '"+prettyMethod(m)+"' is inaccessible to class '"+from.Name+"'")
	return false
}
