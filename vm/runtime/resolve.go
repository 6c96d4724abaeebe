package runtime

// ResolveType returns the class for type index i of d, loading it; on
// failure it throws NoClassDefFoundError and returns nil.
func (t *Thread) ResolveType(d *DexFile, i uint32) *Class {
	if c := d.types[i]; c != nil {
		return c
	}
	desc := d.TypeName(i)
	c := t.VM.loadClass(desc)
	if c == nil {
		t.ThrowNew("Ljava/lang/NoClassDefFoundError;", "Failed resolution of: "+desc)
		return nil
	}
	if !t.checkClassAccess(t.referrer(d), c) {
		return nil
	}
	d.types[i] = c
	return c
}

// ResolveField returns field i of d; static selects the kind the
// instruction expects (IncompatibleClassChangeError otherwise).
func (t *Thread) ResolveField(d *DexFile, i uint32, static bool) *Field {
	if f := d.fields[i]; f != nil {
		if f.Static != static {
			t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "Expected "+kindWord(static)+" field "+f.Class.Name+"."+f.Name)
			return nil
		}
		return f
	}
	ref := d.F.Fields[i]
	c := t.ResolveType(d, ref.Class)
	if c == nil {
		return nil
	}
	name, typ := d.F.Strings[ref.Name], d.TypeName(ref.Type)
	f := findField(c, name, typ)
	if f == nil {
		t.ThrowNew("Ljava/lang/NoSuchFieldError;", "No "+kindWord(static)+" field "+name+" of type "+typ+" in class "+c.Descriptor+" or its superclasses")
		return nil
	}
	if !t.checkFieldAccess(t.referrer(d), f) {
		return nil
	}
	d.fields[i] = f
	if f.Static != static {
		t.ThrowNew("Ljava/lang/IncompatibleClassChangeError;", "Expected "+kindWord(static)+" field "+f.Class.Name+"."+f.Name)
		return nil
	}
	return f
}

func kindWord(static bool) string {
	if static {
		return "static"
	}
	return "instance"
}

// findField looks in c, its interfaces, then its super classes, as the
// JVM's field resolution does.
func findField(c *Class, name, typ string) *Field {
	for k := c; k != nil; k = k.Super {
		for _, f := range k.Fields {
			if f.Name == name && f.Type == typ {
				return f
			}
		}
		for _, i := range k.Interfaces {
			if f := findField(i, name, typ); f != nil {
				return f
			}
		}
	}
	return nil
}

// ResolveMethod returns method i of d. It does not check the invoke kind
// beyond static-ness, which ART also enforces.
func (t *Thread) ResolveMethod(d *DexFile, i uint32) *Method {
	if m := d.methods[i]; m != nil {
		return m
	}
	ref := d.F.Methods[i]
	c := t.ResolveType(d, ref.Class)
	if c == nil {
		return nil
	}
	p := d.F.Protos[ref.Proto]
	sig := "("
	for _, ti := range p.Params {
		sig += d.TypeName(ti)
	}
	sig += ")" + d.TypeName(p.Return)
	name := d.F.Strings[ref.Name]
	m := FindMethod(c, name, sig)
	if m == nil {
		t.ThrowNew("Ljava/lang/NoSuchMethodError;", "No method "+name+sig+" in class "+c.Descriptor+" or its super classes")
		return nil
	}
	if !t.checkMethodAccess(t.referrer(d), m) {
		return nil
	}
	d.methods[i] = m
	return m
}

// FindMethod looks a method up by name and signature in c, its super
// classes, then its interfaces.
func FindMethod(c *Class, name, sig string) *Method {
	for k := c; k != nil; k = k.Super {
		for _, m := range k.Methods {
			if m.Name == name && m.Signature == sig {
				return m
			}
		}
	}
	if m := c.byName[name+sig]; m != nil {
		return m
	}
	for i := range c.allIfaces {
		for _, m := range i.Methods {
			if m.Name == name && m.Signature == sig {
				return m
			}
		}
	}
	return nil
}

// ResolveString returns the interned String object for string index i.
func (t *Thread) ResolveString(d *DexFile, i uint32) uint32 {
	if s := d.strings[i]; s != 0 {
		return s
	}
	s := t.VM.Intern(d.F.Strings[i])
	d.strings[i] = s
	return s
}

// Virtual returns the implementation of m for receiver class c
// (invoke-virtual and invoke-interface), or nil when there is none.
func (c *Class) Virtual(m *Method) *Method {
	if m.VIndex >= 0 && !m.Class.IsInterface() && m.VIndex < len(c.VTable) {
		return c.VTable[m.VIndex]
	}
	if im := c.itab[m]; im != nil {
		return im
	}
	im := c.byName[m.Name+m.Signature]
	if im == nil {
		return nil
	}
	if c.itab == nil {
		c.itab = map[*Method]*Method{}
	}
	c.itab[m] = im
	return im
}

// SuperTarget returns the target of invoke-super of m from a method of class
// caller.
func (caller *Class) SuperTarget(m *Method) *Method {
	if m.Class.IsInterface() {
		return m // a default method named through the interface
	}
	if caller.Super == nil {
		return nil
	}
	if m.VIndex >= 0 {
		if !caller.SubclassOf(m.Class) {
			// invoke-super naming a class that is not a superclass of the
			// caller: ART throws NoSuchMethodError.
			return nil
		}
		if m.VIndex < len(caller.Super.VTable) {
			return caller.Super.VTable[m.VIndex]
		}
		// A method no superclass has (declared by the caller itself, say):
		// ART throws NoSuchMethodError.
		return nil
	}
	return m
}

// EnsureInitialized runs c's static initialisation if needed (JLS 12.4.2,
// simplified for a VM whose threads take turns). It returns false with an
// exception pending if initialisation failed.
func (t *Thread) EnsureInitialized(c *Class) bool {
	if c.VerifyError != "" {
		t.ThrowNew("Ljava/lang/VerifyError;", c.VerifyError)
		return false
	}
	if c.LinkageError != "" {
		t.ThrowNew("Ljava/lang/LinkageError;", c.LinkageError)
		return false
	}
	for {
		switch c.State {
		case ClassInitialized:
			return true
		case ClassErroneous:
			t.ThrowNew("Ljava/lang/NoClassDefFoundError;", "Could not initialize class "+c.Name)
			return false
		case ClassInitializing:
			if c.initThread == t {
				return true
			}
			t.Yield()
			if !t.Alive() {
				return false
			}
			continue
		}
		break
	}
	c.State = ClassInitializing
	c.initThread = t
	if c.Super != nil && !c.IsInterface() && !t.EnsureInitialized(c.Super) {
		c.State = ClassErroneous
		return false
	}
	if c.Clinit != nil && c.Clinit.Code != nil {
		if !t.Invoke(c.Clinit, nil) {
			exc := t.Exc
			if !t.VM.InstanceOf(exc, "Ljava/lang/Error;") {
				t.Exc = 0
				t.PushRoot(exc)
				t.ThrowNewCause("Ljava/lang/ExceptionInInitializerError;", exc)
				t.PopRoots(1)
			}
			c.State = ClassErroneous
			return false
		}
	}
	c.State = ClassInitialized
	c.initThread = nil
	return true
}
