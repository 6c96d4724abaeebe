package runtime

import (
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
)

// Java's modifier bits live in the low 16 bits of DEX access flags; the
// rest are the VM's own (constructor, declared-synchronized).
const javaFlagsMask = 0xffff

// registerReflectNatives adds the natives of java.lang.reflect.VMReflection:
// members are named by their declaring class and their index ("slot") in
// that class's Fields or Methods, and the Java side does the checks,
// boxing and unboxing, so these only read the runtime's tables and move
// raw values.
func registerReflectNatives(vm *VM) {
	registerProxyNatives(vm)
	registerAnnotationNatives(vm)
	registerSignatureNatives(vm)
	reg := func(name string, f NativeFunc) { vm.natives["Ljava/lang/reflect/VMReflection;->"+name] = f }
	cls := func(a uint32) *Class { return vm.ClassFromObject(a) }
	classOrZero := func(c *Class) uint64 {
		if c == nil {
			return 0
		}
		return uint64(c.Addr)
	}

	reg("count(Ljava/lang/Class;Z)I", func(t *Thread, a []uint32) {
		c := cls(a[0])
		if a[1] != 0 {
			t.Ret = uint64(len(c.Fields))
		} else {
			t.Ret = uint64(len(c.Methods))
		}
	})
	reg("name(Ljava/lang/Class;IZ)Ljava/lang/String;", func(t *Thread, a []uint32) {
		c := cls(a[0])
		if a[2] != 0 {
			t.Ret = uint64(vm.Intern(c.Fields[a[1]].Name))
		} else {
			t.Ret = uint64(vm.Intern(c.Methods[a[1]].Name))
		}
	})
	reg("modifiers(Ljava/lang/Class;IZ)I", func(t *Thread, a []uint32) {
		c := cls(a[0])
		var acc uint32
		if a[2] != 0 {
			acc = c.Fields[a[1]].Access
		} else {
			acc = c.Methods[a[1]].Access
			if acc&dex.AccDeclaredSynchronized != 0 {
				acc |= dex.AccSynchronized
			}
		}
		t.Ret = uint64(acc & javaFlagsMask)
	})
	// typeOf loads the class a descriptor names, with the exception
	// pending when it cannot be loaded.
	typeOf := func(t *Thread, desc string) *Class {
		c := vm.loadClass(desc)
		if c == nil {
			t.ThrowNew("Ljava/lang/NoClassDefFoundError;", javaName(desc))
		}
		return c
	}
	reg("offset(Ljava/lang/Class;I)I", func(t *Thread, a []uint32) { t.Ret = uint64(cls(a[0]).Fields[a[1]].Offset) })
	reg("fieldType(Ljava/lang/Class;I)Ljava/lang/Class;", func(t *Thread, a []uint32) {
		t.Ret = classOrZero(typeOf(t, cls(a[0]).Fields[a[1]].Type))
	})
	reg("returnType(Ljava/lang/Class;I)Ljava/lang/Class;", func(t *Thread, a []uint32) {
		sig := cls(a[0]).Methods[a[1]].Signature
		_, ret := splitSignature(sig)
		t.Ret = classOrZero(typeOf(t, ret))
	})
	reg("parameterTypes(Ljava/lang/Class;I)[Ljava/lang/Class;", func(t *Thread, a []uint32) {
		params, _ := splitSignature(cls(a[0]).Methods[a[1]].Signature)
		t.Ret = uint64(t.classArray(params, typeOf))
	})
	reg("ensureInitialized(Ljava/lang/Class;)V", func(t *Thread, a []uint32) { t.EnsureInitialized(cls(a[0])) })
	reg("canAccess(Ljava/lang/Class;ILjava/lang/Object;)Z", func(t *Thread, a []uint32) {
		t.Ret = 0
		if canAccess(t.callerClass(), cls(a[0]), a[1], a[2], vm) {
			t.Ret = 1
		}
	})
	reg("callerName()Ljava/lang/String;", func(t *Thread, a []uint32) {
		name := "null"
		if c := t.callerClass(); c != nil {
			name = c.Name
		}
		t.Ret = uint64(t.NewString(name))
	})
	reg("interfaces(Ljava/lang/Class;)[Ljava/lang/Class;", func(t *Thread, a []uint32) {
		c := cls(a[0])
		descs := make([]string, len(c.Interfaces))
		for i, k := range c.Interfaces {
			descs[i] = k.Descriptor
		}
		t.Ret = uint64(t.classArray(descs, typeOf))
	})
	reg("classModifiers(Ljava/lang/Class;)I", func(t *Thread, a []uint32) {
		c := cls(a[0])
		acc := c.Access
		if inner := systemAnnotation(c, "Ldalvik/annotation/InnerClass;"); inner != nil {
			if v, ok := annotationValue(c, inner, "accessFlags"); ok {
				acc = uint32(v.Int())
			}
		}
		t.Ret = uint64(acc & javaFlagsMask)
	})
	reg("enclosingClass(Ljava/lang/Class;Z)Ljava/lang/Class;", func(t *Thread, a []uint32) {
		c := cls(a[0])
		t.Ret = 0
		if ann := systemAnnotation(c, "Ldalvik/annotation/EnclosingClass;"); ann != nil {
			if v, ok := annotationValue(c, ann, "value"); ok && v.Kind == dex.ValueType {
				t.Ret = classOrZero(typeOf(t, c.File.TypeName(v.Index())))
			}
			return
		}
		if a[1] != 0 { // the declaring class: member classes only
			return
		}
		if ann := systemAnnotation(c, "Ldalvik/annotation/EnclosingMethod;"); ann != nil {
			if v, ok := annotationValue(c, ann, "value"); ok && v.Kind == dex.ValueMethod {
				t.Ret = classOrZero(typeOf(t, c.File.TypeName(c.File.F.Methods[v.Index()].Class)))
			}
		}
	})
	reg("isAnonymous(Ljava/lang/Class;)Z", func(t *Thread, a []uint32) {
		c := cls(a[0])
		t.Ret = 0
		if inner := systemAnnotation(c, "Ldalvik/annotation/InnerClass;"); inner != nil {
			if v, ok := annotationValue(c, inner, "name"); ok && v.Kind == dex.ValueNull {
				t.Ret = 1
			}
		}
	})

	// Field access. The Java side has checked the receiver's class; a
	// static field's class is initialised first, as getstatic would.
	fieldAddr := func(t *Thread, c *Class, slot uint32, obj uint32) (*Field, uint32, bool) {
		f := c.Fields[slot]
		if f.Static {
			if !t.EnsureInitialized(c) {
				return nil, 0, false
			}
			return f, c.Addr + f.Offset, true
		}
		return f, obj + f.Offset, true
	}
	reg("getRef(Ljava/lang/Class;ILjava/lang/Object;)Ljava/lang/Object;", func(t *Thread, a []uint32) {
		if _, p, ok := fieldAddr(t, cls(a[0]), a[1], a[2]); ok {
			t.Ret = uint64(vm.Heap.U32(p))
		}
	})
	reg("getPrim(Ljava/lang/Class;ILjava/lang/Object;)J", func(t *Thread, a []uint32) {
		if f, p, ok := fieldAddr(t, cls(a[0]), a[1], a[2]); ok {
			t.Ret = vm.loadPrim(p, f.Kind)
		}
	})
	reg("setRef(Ljava/lang/Class;ILjava/lang/Object;Ljava/lang/Object;)V", func(t *Thread, a []uint32) {
		if f, p, ok := fieldAddr(t, cls(a[0]), a[1], a[2]); ok {
			vm.StoreRef(p-f.Offset, p, a[3])
		}
	})
	reg("setPrim(Ljava/lang/Class;ILjava/lang/Object;J)V", func(t *Thread, a []uint32) {
		if f, p, ok := fieldAddr(t, cls(a[0]), a[1], a[2]); ok {
			vm.storeField(p, f.Kind, uint64(long(a, 3)))
		}
	})

	// Calls. prims holds each primitive argument's raw bits (float bits in
	// the low word), refs each reference argument, both indexed by
	// parameter; a primitive result goes to primResult[0].
	reg("invoke(Ljava/lang/Class;ILjava/lang/Object;[J[Ljava/lang/Object;[J)Ljava/lang/Object;", func(t *Thread, a []uint32) {
		m := cls(a[0]).Methods[a[1]]
		recv, prims, refs, res := a[2], a[3], a[4], a[5]
		if !m.IsStatic() && m.Name != "<init>" && m.Access&dex.AccPrivate == 0 {
			if im := vm.ClassOf(recv).Virtual(m); im != nil {
				m = im
			}
		}
		if m.IsAbstract() {
			t.ThrowNew("Ljava/lang/AbstractMethodError;", m.String())
			return
		}
		if m.IsStatic() && !t.EnsureInitialized(m.Class) {
			return
		}
		// Initialising may have run a moving collection.
		recv, prims, refs, res = a[2], a[3], a[4], a[5]
		t.PushRoot(res)
		defer t.PopRoots(1)
		if !t.Invoke(m, vm.argWords(m, recv, prims, refs)) {
			return
		}
		_, ret := splitSignature(m.Signature)
		if ret[0] == 'L' || ret[0] == '[' {
			return // t.Ret holds the reference
		}
		vm.Heap.SetU64(t.Root(0)+ArrayData(vm.ClassOf(t.Root(0))), vm.rawPrim(t.Ret, ret[0]))
		t.Ret = 0
	})
	reg("newInstance(Ljava/lang/Class;I[J[Ljava/lang/Object;)Ljava/lang/Object;", func(t *Thread, a []uint32) {
		c := cls(a[0])
		m := c.Methods[a[1]]
		if c.IsAbstract() {
			t.ThrowNew("Ljava/lang/InstantiationException;", "Can't instantiate abstract class "+c.Name)
			return
		}
		if !t.EnsureInitialized(c) {
			return
		}
		t.PushRoot(a[2])
		t.PushRoot(a[3])
		defer t.PopRoots(2)
		o := t.NewObject(c)
		if o == 0 {
			return
		}
		t.PushRoot(o)
		defer t.PopRoots(1)
		if t.Invoke(m, vm.argWords(m, o, t.Root(2), t.Root(1))) {
			t.Ret = uint64(t.Root(0))
		}
	})
}

// argWords lays out recv (for instance methods) and the arguments held in
// the prims and refs arrays as m's argument words.
func (vm *VM) argWords(m *Method, recv, prims, refs uint32) []uint32 {
	params, _ := splitSignature(m.Signature)
	words := make([]uint32, 0, m.ArgWords)
	if !m.IsStatic() {
		words = append(words, recv)
	}
	for i, p := range params {
		switch p[0] {
		case 'L', '[':
			words = append(words, vm.Heap.U32(refs+12+uint32(4*i)))
		case 'J', 'D':
			v := vm.Heap.U64(prims + ArrayData(vm.ClassOf(prims)) + uint32(8*i))
			words = append(words, uint32(v), uint32(v>>32))
		default:
			words = append(words, uint32(vm.Heap.U64(prims+ArrayData(vm.ClassOf(prims))+uint32(8*i))))
		}
	}
	return words
}

// loadPrim reads a primitive field as the raw bits the Java side expects:
// integral kinds sign- (char: zero-) extended, float bits zero-extended.
func (vm *VM) loadPrim(p uint32, kind byte) uint64 {
	switch kind {
	case 'Z':
		return uint64(vm.Heap.U8(p))
	case 'B':
		return uint64(int64(int8(vm.Heap.U8(p))))
	case 'C':
		return uint64(vm.Heap.U16(p))
	case 'S':
		return uint64(int64(int16(vm.Heap.U16(p))))
	case 'I':
		return uint64(int64(int32(vm.Heap.U32(p))))
	case 'F':
		return uint64(vm.Heap.U32(p))
	default:
		return vm.Heap.U64(p)
	}
}

// rawPrim normalises a method's primitive result word the way loadPrim
// normalises field values.
func (vm *VM) rawPrim(v uint64, kind byte) uint64 {
	switch kind {
	case 'Z', 'C':
		return uint64(uint32(v)) & 0xffff
	case 'B', 'S', 'I':
		return uint64(int64(int32(uint32(v))))
	case 'F':
		return uint64(uint32(v))
	case 'V':
		return 0
	default:
		return v
	}
}

// classArray returns a Class[] of the classes descs name, or 0 with an
// exception pending.
func (t *Thread) classArray(descs []string, typeOf func(*Thread, string) *Class) uint32 {
	arr := t.NewArrayOf("[Ljava/lang/Class;", int32(len(descs)))
	if arr == 0 {
		return 0
	}
	t.PushRoot(arr)
	defer t.PopRoots(1)
	for i, d := range descs {
		c := typeOf(t, d)
		if c == nil {
			return 0
		}
		t.VM.storeElem(t.Root(0), i, c.Addr)
	}
	return t.Root(0)
}

// splitSignature splits "(I[JLjava/lang/String;)V" into its parameter
// descriptors and return descriptor.
func splitSignature(sig string) (params []string, ret string) {
	i := 1
	for i < len(sig) && sig[i] != ')' {
		j := i
		for sig[j] == '[' {
			j++
		}
		if sig[j] == 'L' {
			for sig[j] != ';' {
				j++
			}
		}
		params = append(params, sig[i:j+1])
		i = j + 1
	}
	return params, sig[i+1:]
}

// systemAnnotation returns c's class annotation of type desc with system
// visibility (javac's InnerClasses and EnclosingMethod attributes become
// these in DEX), or nil.
func systemAnnotation(c *Class, desc string) *dex.Annotation {
	if c.Def == nil || c.Def.Annotations == nil || c.Def.Annotations.Class == nil {
		return nil
	}
	for i := range c.Def.Annotations.Class.Items {
		ann := &c.Def.Annotations.Class.Items[i]
		if ann.Visibility == dex.VisibilitySystem && c.File.TypeName(ann.Type) == desc {
			return ann
		}
	}
	return nil
}

// annotationValue returns the element called name of ann.
func annotationValue(c *Class, ann *dex.Annotation, name string) (dex.Value, bool) {
	for _, e := range ann.Elements {
		if c.File.F.Strings[e.Name] == name {
			return e.Value, true
		}
	}
	return dex.Value{}, false
}

// callerClass is the class of the innermost frame outside the reflection
// implementation (java.lang.Class and java.lang.reflect): the code whose
// access rights a reflective call is checked against.
func (t *Thread) callerClass() *Class {
	for i := len(t.Frames) - 1; i >= 0; i-- {
		c := t.Frames[i].Method.Class
		if c.Descriptor != "Ljava/lang/Class;" && !strings.HasPrefix(c.Descriptor, "Ljava/lang/reflect/") {
			return c
		}
	}
	return nil
}

// canAccess applies ART's rule for reflective access to a member of decl
// with access flags from caller: public members always, private ones from
// decl only, protected ones from subclasses (for an instance member, when
// obj is an instance of the caller) or the package, the rest from the
// package. A nil caller (no frame outside reflection) may access all.
// Unlike the JVM, ART does not require decl itself to be public.
func canAccess(caller, decl *Class, flags uint32, obj uint32, vm *VM) bool {
	if flags&dex.AccPublic != 0 || caller == decl || caller == nil {
		return true
	}
	if flags&dex.AccPrivate != 0 {
		return false
	}
	if flags&dex.AccProtected != 0 {
		if obj != 0 && !vm.ClassOf(obj).AssignableTo(caller) && !samePackage(decl, caller) {
			return false
		}
		if caller.SubclassOf(decl) {
			return true
		}
	}
	return samePackage(decl, caller)
}

// classAccessible reports whether caller may name c: c is public or in
// caller's package.
func classAccessible(caller, c *Class) bool {
	return c.Access&dex.AccPublic != 0 || caller == nil || samePackage(c, caller)
}
