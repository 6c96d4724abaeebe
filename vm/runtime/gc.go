package runtime

import (
	"fmt"

	"github.com/droidprof/droidprof/vm/gc"
)

// gcView is the VM as package gc sees it: object layouts, roots and
// java.lang.ref semantics. The collectors themselves are in package gc.
type gcView struct{ vm *VM }

// newGCHeap makes the VM's collected heap and forwards its events to the
// hooks.
func (vm *VM) newGCHeap(cfg gc.Config) {
	g := gc.New(cfg, vm.Heap, gcView{vm})
	hk := vm.Hooks
	if hk.GCStart != nil {
		g.OnStart = hk.GCStart
	}
	if hk.Free != nil {
		g.OnFree = hk.Free
	}
	if hk.Move != nil {
		g.OnMove = hk.Move
	}
	if hk.Accesses != nil {
		g.OnAccesses = hk.Accesses
	}
	g.OnEnd = func(i gc.Info) {
		vm.GCCount = i.Count
		if hk.GCEnd != nil {
			hk.GCEnd(GCInfo{Count: i.Count, Cause: string(i.Cause), Kind: i.Kind.String(), Collector: i.Collector, Spaces: i.Spaces,
				FreedObjects: i.FreedObjects, FreedLargeObjects: i.FreedLarge, FreedLargeBytes: i.FreedLargeBytes,
				Freed: i.FreedBytes + i.FreedLargeBytes, Live: i.Live, Footprint: i.Footprint,
				Pause: i.Pause, Duration: i.Duration})
		}
	}
	vm.GCHeap = g
}

// StoreRef stores the reference v into the slot at slot of the object at
// obj. It is the VM's one reference store (the interpreter's iput-object,
// aput-object and sput-object and every native use it), so the write
// barrier the collectors need is here.
func (vm *VM) StoreRef(obj, slot, v uint32) { vm.GCHeap.StoreRef(obj, slot, v) }

// storeElem stores v as element i of the reference array at arr.
func (vm *VM) storeElem(arr uint32, i int, v uint32) {
	vm.GCHeap.StoreRef(arr, arr+12+4*uint32(i), v)
}

// SizeOf implements gc.Runtime.
func (c gcView) SizeOf(a uint32) uint32 { return c.vm.SizeOf(a) }

// Scan implements gc.Runtime.
func (c gcView) Scan(a uint32, discover bool, f func(slot uint32)) {
	vm := c.vm
	h := vm.Heap
	f(a) // the class pointer
	k := vm.ClassOf(a)
	switch {
	case k == vm.classClass:
		for _, off := range vm.ClassFromObject(a).StaticRefOffsets {
			f(a + off)
		}
	case k.IsArray():
		if k.Component.IsPrimitive() {
			return
		}
		n := uint32(vm.ArrayLength(a))
		for i := uint32(0); i < n; i++ {
			f(a + 12 + 4*i)
		}
	default:
		for _, off := range k.RefOffsets {
			f(a + off)
		}
		if vm.refs.class != nil && k.isReference && h.U32(a+vm.refs.referent) != 0 {
			if discover {
				vm.refs.found = append(vm.refs.found, a)
			} else {
				f(a + vm.refs.referent)
			}
		}
	}
}

// Roots implements gc.Runtime: the class table (Class objects hold the
// statics), interned strings and the DEX files' caches of them, the
// preallocated errors, the pending references and every thread's
// registers, handles and objects.
func (c gcView) Roots(f func(p *uint32)) {
	vm := c.vm
	for _, k := range vm.classes {
		if k.Addr != 0 {
			f(&k.Addr)
		}
	}
	for _, files := range [][]*DexFile{vm.bootFiles, vm.appFiles} {
		for _, d := range files {
			for i, s := range d.strings {
				if s != 0 {
					f(&d.strings[i])
				}
			}
		}
	}
	for s, a := range vm.interned {
		n := a
		f(&n)
		if n != a {
			vm.interned[s] = n
		}
	}
	f(&vm.oome)
	f(&vm.soe)
	f(&vm.refs.pending)
	vm.threadsMu.Lock()
	defer vm.threadsMu.Unlock()
	for t := range vm.threads {
		f(&t.Obj)
		f(&t.Exc)
		f(&t.Caught)
		for i := range t.handles {
			f(&t.handles[i])
		}
		for i := 0; i < t.SP; i++ {
			if t.Tags[i] {
				f(&t.Stack[i])
			}
		}
	}
}

// CheckRef implements gc.Runtime: the object at v must be an instance of
// the declared type of the field (instance or static) or array element
// at slot, when that type is loaded.
func (c gcView) CheckRef(obj, slot, v uint32) string {
	vm := c.vm
	if msg := c.CheckObject(v); msg != "" {
		return msg
	}
	k := vm.ClassOf(obj)
	var want *Class
	switch {
	case k.IsArray():
		want = k.Component
	case k == vm.classClass:
		for _, f := range vm.ClassFromObject(obj).Fields {
			if f.Static && obj+f.Offset == slot {
				want = vm.byDesc[f.Type]
			}
		}
	default:
		for d := k; d != nil && want == nil; d = d.Super {
			for _, f := range d.Fields {
				if !f.Static && obj+f.Offset == slot {
					want = vm.byDesc[f.Type]
				}
			}
		}
	}
	if got := vm.ClassOf(v); want != nil && !got.AssignableTo(want) {
		return fmt.Sprintf("an instance of %s, which does not fit the declared type %s", got.Name, want.Name)
	}
	return ""
}

// DescribeRoot implements gc.Runtime: it walks the roots in Roots'
// order to the n-th.
func (c gcView) DescribeRoot(n int) string {
	i := 0
	desc := ""
	c.Roots(func(p *uint32) {
		if i == n {
			desc = c.rootName(p) // Roots holds threadsMu here
		}
		i++
	})
	return desc
}

// rootName says where the root at p lives.
func (c gcView) rootName(p *uint32) string {
	vm := c.vm
	for _, k := range vm.classes {
		if p == &k.Addr {
			return "Class object of " + k.Name
		}
	}
	switch p {
	case &vm.oome, &vm.soe:
		return "preallocated error"
	case &vm.refs.pending:
		return "pending references"
	}
	for t := range vm.threads {
		switch p {
		case &t.Obj:
			return fmt.Sprintf("thread %d object", t.ID)
		case &t.Exc:
			return fmt.Sprintf("thread %d pending exception", t.ID)
		case &t.Caught:
			return fmt.Sprintf("thread %d caught exception", t.ID)
		}
		for i := range t.handles {
			if p == &t.handles[i] {
				return fmt.Sprintf("thread %d handle %d of %d", t.ID, i, len(t.handles))
			}
		}
		for i := 0; i < t.SP; i++ {
			if p == &t.Stack[i] {
				where := ""
				for _, f := range t.Frames {
					if f.FP <= i {
						where = fmt.Sprintf("%s pc %#x register v%d", f.Method, f.PC, i-f.FP)
					}
				}
				return fmt.Sprintf("thread %d stack word %d (%s)", t.ID, i, where)
			}
		}
	}
	return "a DEX file's string cache or an interned string"
}

// CheckObject implements gc.Runtime: the class word must be a Class
// object standing for a loaded class.
func (c gcView) CheckObject(a uint32) string {
	vm := c.vm
	h := vm.Heap
	k := h.U32(a)
	if k == 0 || k%8 != 0 || !vm.GCHeap.Holds(k) {
		return fmt.Sprintf("class word %#x is not an object", k)
	}
	if kk := h.U32(k); kk != vm.classClass.Addr {
		return fmt.Sprintf("class word %#x is an object of class word %#x, not a java.lang.Class", k, kk)
	}
	if id := h.U32(k + 8); int(id) >= len(vm.classes) || vm.classes[id].Addr != k {
		return fmt.Sprintf("class word %#x: class id %d does not name it", k, id)
	}
	return ""
}

// Roots calls f with a pointer to every root of the heap — what the
// collectors start from (class table, interned strings, threads'
// registers and objects, …) — for heap dumps. Not during a collection.
func (vm *VM) Roots(f func(p *uint32)) { gcView{vm}.Roots(f) }

// WalkImage calls f for every object of the image space, which Walk
// leaves out (for heap dumps).
func (vm *VM) WalkImage(f func(addr uint32)) {
	if h, ok := vm.GCHeap.(*gc.Heap); ok {
		h.Image.Walk(f)
	}
}

// GC runs a collection now, as System.gc does.
func (vm *VM) GC() { vm.GCHeap.Collect(gc.CauseExplicit) }

// AccessBitmap returns the heap's access bitmap (paper 003), which the
// AOT engine's barriers set; nil unless gc.Config.AccessBitmap.
func (vm *VM) AccessBitmap() *gc.AccessBitmap {
	if h, ok := vm.GCHeap.(*gc.Heap); ok {
		return h.Access
	}
	return nil
}
