package runtime

import "time"

// collect runs a full stop-the-world mark-sweep collection of the main
// space. The thread calling it holds the global lock, so every other
// thread is parked outside Java code with its references in its
// registers (tagged), handles or thread object: the roots are exact.
func (vm *VM) collect() {
	h := vm.Heap
	start := time.Now()
	vm.GCCount++
	if hk := vm.Hooks.GCStart; hk != nil {
		hk(vm.GCCount)
	}
	var stack []uint32
	mark := func(a uint32) {
		if a != 0 && h.Mark(a) {
			stack = append(stack, a)
		}
	}
	var found []uint32 // references whose referents were unmarked when scanned
	scan := func(a uint32) { vm.visitRefs(a, mark) }
	if vm.refs.class != nil {
		scan = func(a uint32) {
			vm.visitRefs(a, mark)
			vm.discoverReference(a, &found)
		}
	}
	drain := func() {
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			scan(a)
		}
	}

	// Roots: the class table (Class objects hold the statics), the image
	// space, interned strings, and every thread.
	for _, c := range vm.classes {
		if c.Addr != 0 {
			mark(c.Addr)
		}
	}
	h.WalkImage(vm.SizeOf, scan)
	for _, a := range vm.interned {
		mark(a)
	}
	mark(vm.oome)
	mark(vm.soe)
	vm.threadsMu.Lock()
	for t := range vm.threads {
		mark(t.Obj)
		mark(t.Exc)
		mark(t.Caught)
		for _, a := range t.handles {
			mark(a)
		}
		for i := 0; i < t.SP; i++ {
			if t.Tags[i] {
				mark(t.Stack[i])
			}
		}
	}
	vm.threadsMu.Unlock()
	mark(vm.refs.pending)
	drain()
	if len(found) > 0 {
		vm.processReferences(&found, mark, drain)
	}
	var dead func(a, size uint32)
	if hk := vm.Hooks.Free; hk != nil {
		dead = func(a, size uint32) { hk(a, size) }
	}
	freed := h.Sweep(vm.SizeOf, dead)
	vm.growForUtilization()
	if hk := vm.Hooks.GCEnd; hk != nil {
		hk(GCInfo{Count: vm.GCCount, Freed: freed, Live: h.Allocated, Duration: time.Since(start)})
	}
}

// visitRefs calls f for every reference stored in the object at a.
func (vm *VM) visitRefs(a uint32, f func(uint32)) {
	h := vm.Heap
	f(h.U32(a)) // the class pointer
	c := vm.ClassOf(a)
	switch {
	case c == vm.classClass:
		k := vm.ClassFromObject(a)
		for _, off := range k.StaticRefOffsets {
			f(h.U32(a + off))
		}
	case c.IsArray():
		if c.Component.IsPrimitive() {
			return
		}
		n := uint32(vm.ArrayLength(a))
		for i := uint32(0); i < n; i++ {
			f(h.U32(a + 12 + 4*i))
		}
	default:
		for _, off := range c.RefOffsets {
			f(h.U32(a + off))
		}
	}
}

// ART's heap growth defaults (Nougat): target utilisation 0.5, free
// space after a collection kept within [512 KiB, 2 MiB].
const (
	targetUtilization = 0.5
	minFree           = 512 << 10
	maxFree           = 2 << 20
)

// growForUtilization sets the allocation volume that triggers the next
// collection, like ART's Heap::GrowForUtilization for a full GC.
func (vm *VM) growForUtilization() {
	live := vm.Heap.Allocated
	grow := uint64(float64(live)/targetUtilization) - live
	grow = max(min(grow, maxFree), minFree)
	vm.gcTarget = min(live+grow, uint64(vm.Heap.Max))
}

// GC runs a collection now (System.gc, Runtime.gc).
func (vm *VM) GC() { vm.collect() }
