package runtime

import (
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
)

// registerProxyNatives adds the natives of java.lang.reflect.Proxy.
func registerProxyNatives(vm *VM) {
	reg := func(name string, f NativeFunc) { vm.natives["Ljava/lang/reflect/Proxy;->"+name] = f }
	reg("proxyClass([Ljava/lang/Class;)Ljava/lang/Class;", func(t *Thread, a []uint32) {
		n := vm.ArrayLength(a[0])
		ifaces := make([]*Class, n)
		for i := range ifaces {
			o := vm.Heap.U32(a[0] + 12 + uint32(4*i))
			if o == 0 {
				t.ThrowNPE("interface is null")
				return
			}
			ifaces[i] = vm.ClassFromObject(o)
		}
		if c := t.proxyClass(ifaces); c != nil {
			t.Ret = uint64(c.Addr)
		}
	})
	reg("isProxyClass0(Ljava/lang/Class;)Z", func(t *Thread, a []uint32) {
		t.Ret = 0
		if vm.ClassFromObject(a[0]).proxyOf != nil {
			t.Ret = 1
		}
	})
	reg("allocate(Ljava/lang/Class;)Ljava/lang/Object;", func(t *Thread, a []uint32) {
		t.Ret = uint64(t.NewObject(vm.ClassFromObject(a[0])))
	})
}

// proxyClass returns the proxy class implementing ifaces, defining it at
// the first request: a final subclass of java.lang.reflect.Proxy whose
// methods (one per interface method, and equals, hashCode and toString)
// are natives that call Proxy.dispatch.
func (t *Thread) proxyClass(ifaces []*Class) *Class {
	vm := t.VM
	var key strings.Builder
	for _, i := range ifaces {
		key.WriteString(i.Descriptor)
	}
	if c := vm.proxies[key.String()]; c != nil {
		return c
	}
	super := vm.loadClass("Ljava/lang/reflect/Proxy;")
	dispatch := FindMethod(super, "dispatch", "(Ljava/lang/reflect/Proxy;Ljava/lang/Class;I[J[Ljava/lang/Object;[J)Ljava/lang/Object;")
	if super == nil || dispatch == nil || !t.EnsureInitialized(super) {
		if t.Exc == 0 {
			t.ThrowNew("Ljava/lang/InternalError;", "java.lang.reflect.Proxy is incomplete")
		}
		return nil
	}
	if vm.proxies == nil {
		vm.proxies = map[string]*Class{}
	}
	name := "$Proxy" + strconv.Itoa(len(vm.proxies))
	c := &Class{Descriptor: "L" + name + ";", Name: name, Access: dex.AccPublic | dex.AccFinal, Super: super,
		Prim: 'L', State: ClassInitialized, ObjectSize: super.ObjectSize, RefOffsets: super.RefOffsets,
		Interfaces: append([]*Class(nil), ifaces...), allIfaces: map[*Class]bool{}, proxyOf: ifaces}
	for k := range super.allIfaces {
		c.allIfaces[k] = true
	}
	for _, i := range ifaces {
		c.allIfaces[i] = true
		for k := range i.allIfaces {
			c.allIfaces[k] = true
		}
	}
	c.VTable = append([]*Method(nil), super.VTable...)
	c.byName = map[string]*Method{}
	for k, m := range super.byName {
		c.byName[k] = m
	}
	// The object methods a proxy forwards, then every interface method;
	// the first of a name and signature wins, as in Java.
	var targets []*Method
	object := vm.loadClass("Ljava/lang/Object;")
	for _, sig := range []string{"equals(Ljava/lang/Object;)Z", "hashCode()I", "toString()Ljava/lang/String;"} {
		for _, m := range object.Methods {
			if m.Name+m.Signature == sig {
				targets = append(targets, m)
			}
		}
	}
	all := make([]*Class, 0, len(c.allIfaces))
	seen := map[*Class]bool{}
	var walk func(i *Class)
	walk = func(i *Class) {
		if seen[i] {
			return
		}
		seen[i] = true
		all = append(all, i)
		for _, j := range i.Interfaces {
			walk(j)
		}
	}
	for _, i := range ifaces {
		walk(i)
	}
	for _, i := range all {
		ms := i.Methods
		for _, m := range ms {
			if !m.IsStatic() && m.Name != "<clinit>" && m.Access&dex.AccPrivate == 0 {
				targets = append(targets, m)
			}
		}
	}
	done := map[string]bool{}
	for _, target := range targets {
		key := target.Name + target.Signature
		if done[key] {
			continue
		}
		done[key] = true
		m := &Method{ID: len(vm.Methods), Class: c, Name: target.Name, Signature: target.Signature, Shorty: target.Shorty,
			Access: dex.AccPublic | dex.AccFinal | dex.AccNative, VIndex: -1, ArgWords: target.ArgWords,
			RefArgs: target.RefArgs, ReturnRef: target.ReturnRef}
		m.Native = vm.proxyNative(target, dispatch)
		vm.Methods = append(vm.Methods, m)
		c.Methods = append(c.Methods, m)
		if old := c.byName[key]; old != nil && old.VIndex >= 0 && !old.Class.IsInterface() {
			m.VIndex = old.VIndex
			c.VTable[m.VIndex] = m
		}
		c.byName[key] = m
	}
	vm.register(c)
	vm.proxies[key.String()] = c
	return c
}

// proxyNative is the body of a proxy method standing for target: it packs
// the arguments into the long[] and Object[] that Proxy.dispatch takes and
// unpacks its result.
func (vm *VM) proxyNative(target *Method, dispatch *Method) NativeFunc {
	slot := 0
	for i, m := range target.Class.Methods {
		if m == target {
			slot = i
		}
	}
	params, ret := splitSignature(target.Signature)
	return func(t *Thread, a []uint32) {
		n := int32(len(params))
		prims := t.NewArrayOf("[J", n)
		if prims == 0 {
			return
		}
		t.PushRoot(prims)
		defer t.PopRoots(1)
		refs := t.NewArrayOf("[Ljava/lang/Object;", n)
		if refs == 0 {
			return
		}
		t.PushRoot(refs)
		defer t.PopRoots(1)
		res := t.NewArrayOf("[J", 1)
		if res == 0 {
			return
		}
		t.PushRoot(res)
		defer t.PopRoots(1)
		// The arrays as a moving collection has left them.
		prims, refs, res = t.Root(2), t.Root(1), t.Root(0)
		h := vm.Heap
		w := 1 // a[0] is the proxy
		for i, p := range params {
			var v uint64
			switch p[0] {
			case 'L', '[':
				vm.storeElem(refs, i, a[w])
				w++
				continue
			case 'J', 'D':
				v = uint64(a[w]) | uint64(a[w+1])<<32
				w += 2
			case 'Z', 'C', 'F':
				v = uint64(a[w])
				w++
			default:
				v = uint64(int64(int32(a[w])))
				w++
			}
			h.SetU64(prims+ArrayData(vm.ClassOf(prims))+uint32(8*i), v)
		}
		if !t.Invoke(dispatch, []uint32{a[0], target.Class.Addr, uint32(slot), prims, refs, res}) {
			return
		}
		switch ret[0] {
		case 'L', '[':
		case 'V':
			t.Ret = 0
		default:
			t.Ret = h.U64(t.Root(0) + ArrayData(vm.ClassOf(t.Root(0))))
		}
	}
}
