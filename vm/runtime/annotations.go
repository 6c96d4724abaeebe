package runtime

import (
	"github.com/droidprof/droidprof/vm/dex"
)

// Annotation targets of VMReflection.annotations.
const (
	annClass = iota
	annField
	annMethod
	annParam
)

// registerAnnotationNatives adds VMReflection's annotation natives. An
// annotation reaches Java as an Object[] {annotation class, name1, value1,
// name2, value2, ...}; values are boxes, Strings, Classes, enum constants,
// Object[] for arrays and such Object[]s for nested annotations, and the
// Java side turns them into proxies of the annotation interface.
func registerAnnotationNatives(vm *VM) {
	reg := func(name string, f NativeFunc) { vm.natives["Ljava/lang/reflect/VMReflection;->"+name] = f }
	reg("annotations(Ljava/lang/Class;III)[Ljava/lang/Object;", func(t *Thread, a []uint32) {
		c := vm.ClassFromObject(a[0])
		set := annotationSetOf(c, int(a[1]), int(a[2]), int(a[3]))
		t.Ret = uint64(t.annotationArray(c, set, dex.VisibilityRuntime))
	})
	reg("annotationDefaults(Ljava/lang/Class;)[Ljava/lang/Object;", func(t *Thread, a []uint32) {
		c := vm.ClassFromObject(a[0])
		t.Ret = 0
		ann := systemAnnotation(c, "Ldalvik/annotation/AnnotationDefault;")
		if ann == nil {
			return
		}
		if v, ok := annotationValue(c, ann, "value"); ok && v.Kind == dex.ValueAnnotation {
			// Only the elements matter here: compilers name various types
			// (smali's tests one that does not exist).
			t.Ret = uint64(t.annotationObject(c, v.Annotation, false))
		}
	})
}

// annotationSetOf finds the annotation set of c (annClass), its field or
// method at slot, or parameter param of that method; nil if none.
func annotationSetOf(c *Class, kind, slot, param int) *dex.AnnotationSet {
	if c.Def == nil || c.Def.Annotations == nil {
		return nil
	}
	d, f := c.Def.Annotations, c.File.F
	switch kind {
	case annClass:
		return d.Class
	case annField:
		fld := c.Fields[slot]
		for _, fa := range d.Fields {
			r := f.Fields[fa.Field]
			if f.Strings[r.Name] == fld.Name && c.File.TypeName(r.Type) == fld.Type {
				return fa.Set
			}
		}
	case annMethod, annParam:
		m := c.Methods[slot]
		matches := func(idx uint32) bool {
			r := f.Methods[idx]
			return f.Strings[r.Name] == m.Name && f.ProtoString(r.Proto) == m.Signature
		}
		if kind == annMethod {
			for _, ma := range d.Methods {
				if matches(ma.Method) {
					return ma.Set
				}
			}
			return nil
		}
		for _, pa := range d.Params {
			if matches(pa.Method) && param < len(pa.Sets) {
				return pa.Sets[param]
			}
		}
	}
	return nil
}

// annotationArray returns an Object[] of the annotations in set with the
// given visibility, each as annotationObject makes it; 0 with an
// exception pending on failure.
func (t *Thread) annotationArray(c *Class, set *dex.AnnotationSet, visibility uint8) uint32 {
	// Annotations whose type cannot be loaded are left out, as on ART and
	// the JVM.
	var items []*dex.Annotation
	if set != nil {
		for i := range set.Items {
			if set.Items[i].Visibility == visibility && t.VM.loadClass(c.File.TypeName(set.Items[i].Type)) != nil {
				items = append(items, &set.Items[i])
			}
		}
	}
	arr := t.NewArrayOf("[Ljava/lang/Object;", int32(len(items)))
	if arr == 0 {
		return 0
	}
	t.PushRoot(arr)
	defer t.PopRoots(1)
	for i, ann := range items {
		o := t.annotationObject(c, &ann.EncodedAnnotation, true)
		if o == 0 && t.Exc != 0 {
			return 0
		}
		t.VM.storeElem(t.Root(0), i, o)
	}
	return t.Root(0)
}

// annotationObject turns an encoded annotation into {class, name, value,
// ...}; the class is null when it cannot be loaded and needType is false.
func (t *Thread) annotationObject(c *Class, ann *dex.EncodedAnnotation, needType bool) uint32 {
	vm := t.VM
	typ := vm.loadClass(c.File.TypeName(ann.Type))
	if typ == nil && needType {
		t.ThrowNew("Ljava/lang/NoClassDefFoundError;", javaName(c.File.TypeName(ann.Type)))
		return 0
	}
	arr := t.NewArrayOf("[Ljava/lang/Object;", int32(1+2*len(ann.Elements)))
	if arr == 0 {
		return 0
	}
	t.PushRoot(arr)
	defer t.PopRoots(1)
	if typ != nil {
		vm.storeElem(arr, 0, typ.Addr)
	}
	for i, e := range ann.Elements {
		name := vm.Intern(c.File.F.Strings[e.Name])
		vm.storeElem(t.Root(0), 1+2*i, name)
		v, ok := t.annotationValueObject(c, e.Value)
		if !ok {
			return 0
		}
		vm.storeElem(t.Root(0), 2+2*i, v)
	}
	return t.Root(0)
}

// annotationValueObject turns an encoded value into an object; ok is
// false with an exception pending on failure.
func (t *Thread) annotationValueObject(c *Class, v dex.Value) (uint32, bool) {
	vm := t.VM
	f := c.File
	box := func(desc, sig string, words ...uint32) (uint32, bool) {
		bc := vm.loadClass(desc)
		m := FindMethod(bc, "valueOf", sig)
		if m == nil || !t.EnsureInitialized(bc) || !t.Invoke(m, words) {
			return 0, false
		}
		return uint32(t.Ret), true
	}
	switch v.Kind {
	case dex.ValueByte:
		return box("Ljava/lang/Byte;", "(B)Ljava/lang/Byte;", uint32(v.Bits))
	case dex.ValueShort:
		return box("Ljava/lang/Short;", "(S)Ljava/lang/Short;", uint32(v.Bits))
	case dex.ValueChar:
		return box("Ljava/lang/Character;", "(C)Ljava/lang/Character;", uint32(v.Bits))
	case dex.ValueInt:
		return box("Ljava/lang/Integer;", "(I)Ljava/lang/Integer;", uint32(v.Bits))
	case dex.ValueLong:
		return box("Ljava/lang/Long;", "(J)Ljava/lang/Long;", uint32(v.Bits), uint32(v.Bits>>32))
	case dex.ValueFloat:
		return box("Ljava/lang/Float;", "(F)Ljava/lang/Float;", uint32(v.Bits))
	case dex.ValueDouble:
		return box("Ljava/lang/Double;", "(D)Ljava/lang/Double;", uint32(v.Bits), uint32(v.Bits>>32))
	case dex.ValueBoolean:
		return box("Ljava/lang/Boolean;", "(Z)Ljava/lang/Boolean;", uint32(v.Bits))
	case dex.ValueString:
		return vm.Intern(f.F.Strings[v.Index()]), true
	case dex.ValueType:
		k := vm.loadClass(f.TypeName(v.Index()))
		if k == nil {
			t.ThrowNew("Ljava/lang/NoClassDefFoundError;", javaName(f.TypeName(v.Index())))
			return 0, false
		}
		return k.Addr, true
	case dex.ValueEnum:
		r := f.F.Fields[v.Index()]
		k := vm.loadClass(f.TypeName(r.Class))
		if k == nil || !t.EnsureInitialized(k) {
			if t.Exc == 0 {
				t.ThrowNew("Ljava/lang/NoClassDefFoundError;", javaName(f.TypeName(r.Class)))
			}
			return 0, false
		}
		fld := findField(k, f.F.Strings[r.Name], f.TypeName(r.Type))
		if fld == nil || !fld.Static {
			t.ThrowNew("Ljava/lang/NoSuchFieldError;", f.F.Strings[r.Name])
			return 0, false
		}
		return vm.Heap.U32(fld.Class.Addr + fld.Offset), true
	case dex.ValueArray:
		arr := t.NewArrayOf("[Ljava/lang/Object;", int32(len(v.Array)))
		if arr == 0 {
			return 0, false
		}
		t.PushRoot(arr)
		defer t.PopRoots(1)
		for i, e := range v.Array {
			o, ok := t.annotationValueObject(c, e)
			if !ok {
				return 0, false
			}
			vm.storeElem(t.Root(0), i, o)
		}
		return t.Root(0), true
	case dex.ValueAnnotation:
		o := t.annotationObject(c, v.Annotation, true)
		return o, o != 0
	}
	return 0, true // null, and method or field values the Java side does not expose
}

// memberSystemAnnotation returns the system annotation of type desc on c
// (annClass) or on its field or method at slot, or nil.
func memberSystemAnnotation(c *Class, kind, slot int, desc string) *dex.Annotation {
	set := annotationSetOf(c, kind, slot, 0)
	if set == nil {
		return nil
	}
	for i := range set.Items {
		ann := &set.Items[i]
		if ann.Visibility == dex.VisibilitySystem && c.File.TypeName(ann.Type) == desc {
			return ann
		}
	}
	return nil
}

// registerSignatureNatives adds the natives that read generic signatures
// (dalvik.annotation.Signature) and declared exceptions
// (dalvik.annotation.Throws).
func registerSignatureNatives(vm *VM) {
	reg := func(name string, f NativeFunc) { vm.natives["Ljava/lang/reflect/VMReflection;->"+name] = f }
	reg("signature(Ljava/lang/Class;II)Ljava/lang/String;", func(t *Thread, a []uint32) {
		c := vm.ClassFromObject(a[0])
		t.Ret = 0
		ann := memberSystemAnnotation(c, int(a[1]), int(a[2]), "Ldalvik/annotation/Signature;")
		if ann == nil {
			return
		}
		// The signature is split into an array of strings (to share
		// common pieces in the string table); joined, it is the class
		// file's Signature attribute.
		v, ok := annotationValue(c, ann, "value")
		if !ok || v.Kind != dex.ValueArray {
			return
		}
		var sb []byte
		for _, e := range v.Array {
			if e.Kind == dex.ValueString {
				sb = append(sb, c.File.F.Strings[e.Index()]...)
			}
		}
		t.Ret = uint64(t.NewString(string(sb)))
	})
	reg("enclosingMethodSlot(Ljava/lang/Class;)I", func(t *Thread, a []uint32) {
		c := vm.ClassFromObject(a[0])
		t.Ret = uint64(uint32(0xffffffff))
		ann := systemAnnotation(c, "Ldalvik/annotation/EnclosingMethod;")
		if ann == nil {
			return
		}
		v, ok := annotationValue(c, ann, "value")
		if !ok || v.Kind != dex.ValueMethod {
			return
		}
		f := c.File.F
		r := f.Methods[v.Index()]
		k := vm.loadClass(c.File.TypeName(r.Class))
		if k == nil {
			return
		}
		name, sig := f.Strings[r.Name], f.ProtoString(r.Proto)
		for i, m := range k.Methods {
			if m.Name == name && m.Signature == sig {
				t.Ret = uint64(i)
			}
		}
	})
	reg("memberClasses(Ljava/lang/Class;)[Ljava/lang/Class;", func(t *Thread, a []uint32) {
		c := vm.ClassFromObject(a[0])
		t.Ret = uint64(vm.typeList(t, c, systemAnnotation(c, "Ldalvik/annotation/MemberClasses;")))
	})
	reg("loadType(Ljava/lang/String;)Ljava/lang/Class;", func(t *Thread, a []uint32) {
		t.Ret = 0
		if c := vm.loadClass(vm.GoString(a[0])); c != nil {
			t.Ret = uint64(c.Addr)
		}
	})
	reg("exceptionTypes(Ljava/lang/Class;I)[Ljava/lang/Class;", func(t *Thread, a []uint32) {
		c := vm.ClassFromObject(a[0])
		t.Ret = uint64(vm.typeList(t, c, memberSystemAnnotation(c, annMethod, int(a[1]), "Ldalvik/annotation/Throws;")))
	})
}

// typeList returns the classes that system annotation ann of c lists in its
// value (MemberClasses, Throws) as a Class[], loading each; a class that
// cannot be loaded throws NoClassDefFoundError. No annotation: an empty array.
func (vm *VM) typeList(t *Thread, c *Class, ann *dex.Annotation) uint32 {
	var descs []string
	if ann != nil {
		if v, ok := annotationValue(c, ann, "value"); ok && v.Kind == dex.ValueArray {
			for _, e := range v.Array {
				if e.Kind == dex.ValueType {
					descs = append(descs, c.File.TypeName(e.Index()))
				}
			}
		}
	}
	return t.classArray(descs, func(t *Thread, desc string) *Class {
		k := vm.loadClass(desc)
		if k == nil {
			t.ThrowNew("Ljava/lang/NoClassDefFoundError;", javaName(desc))
		}
		return k
	})
}
