package runtime

import "github.com/droidprof/droidprof/vm/gc"

// references is what the collector knows of java.lang.ref: the classes
// (nil until the core library loads them) and Reference's field offsets.
// The referent is left out of Reference's RefOffsets, so marking never
// follows it; the collector finds references while scanning instead.
type references struct {
	class, soft, phantom         *Class
	finalizer                    *Class // java.lang.ref.FinalizerReference, once loaded
	finalizersQueued             int64  // finalizer references handed to the queue so far
	referent, queue, pendingNext uint32
	pending                      uint32        // cleared references with queues, for the queue daemon
	wake                         chan struct{} // signalled when pending becomes non-empty
	found                        []uint32      // references with referents scanned by this collection
}

// noteReferenceClass records the java.lang.ref classes of the core
// library as they are laid out, and hides the referent from marking.
func (vm *VM) noteReferenceClass(c *Class) {
	if c.Super != nil && c.Super.isReference {
		c.isReference = true
	}
	if !c.Boot {
		return
	}
	switch c.Descriptor {
	case "Ljava/lang/ref/SoftReference;":
		vm.refs.soft = c
	case "Ljava/lang/ref/PhantomReference;":
		vm.refs.phantom = c
	case "Ljava/lang/ref/FinalizerReference;":
		vm.refs.finalizer = c
	case "Ljava/lang/ref/Reference;":
		for _, f := range c.Fields {
			switch {
			case f.Static:
			case f.Name == "referent":
				vm.refs.referent = f.Offset
			case f.Name == "queue":
				vm.refs.queue = f.Offset
			case f.Name == "pendingNext":
				vm.refs.pendingNext = f.Offset
			}
		}
		if vm.refs.referent == 0 || vm.refs.queue == 0 || vm.refs.pendingNext == 0 {
			panic(vmError("core library: java.lang.ref.Reference lacks referent, queue or pendingNext"))
		}
		offs := c.RefOffsets[:0:0]
		for _, o := range c.RefOffsets {
			if o != vm.refs.referent {
				offs = append(offs, o)
			}
		}
		c.RefOffsets = offs
		c.isReference = true
		vm.refs.wake = make(chan struct{}, 1)
		vm.refs.class = c
	}
}

// ProcessReferences implements gc.Runtime. It runs once marking is
// done, on the references Scan found: soft referents are kept (through
// tr, which may find more references) unless the collection clears
// them; then every reference whose referent is still unreached is
// cleared, and those with a queue go on the pending list for the queue
// daemon; the others get their referent's new address. Fat monitors
// hold their objects weakly: a dead object's monitor forgets it.
func (c gcView) ProcessReferences(tr gc.Tracer, clearSoft bool) {
	vm := c.vm
	h := vm.Heap
	found := &vm.refs.found
	defer func() { *found = (*found)[:0] }()
	for _, m := range vm.monitors {
		if m.obj != 0 {
			m.obj = tr.Forward(m.obj)
		}
	}
	if !clearSoft && vm.refs.soft != nil {
		// Keeping a soft referent may find more references, which are
		// appended to found: iterate by index.
		for i := 0; i < len(*found); i++ {
			a := (*found)[i]
			if r := h.U32(a + vm.refs.referent); r != 0 && tr.Forward(r) == 0 && vm.ClassOf(a).SubclassOf(vm.refs.soft) {
				h.SetU32(a+vm.refs.referent, tr.Keep(r))
			}
		}
	}
	added := false
	enqueue := func(a uint32) {
		if h.U32(a+vm.refs.queue) != 0 && h.U32(a+vm.refs.pendingNext) == 0 && a != vm.refs.pending {
			h.SetU32(a+vm.refs.pendingNext, vm.refs.pending)
			vm.refs.pending = a
			added = true
		}
	}
	// clearOrForward clears a weak, soft or phantom reference whose
	// referent was not reached, and queues it; a reached referent gets its
	// new address.
	clearOrForward := func(a uint32) {
		r := h.U32(a + vm.refs.referent)
		if r == 0 {
			return
		}
		if n := tr.Forward(r); n != 0 {
			h.SetU32(a+vm.refs.referent, n)
			return
		}
		h.SetU32(a+vm.refs.referent, 0)
		enqueue(a)
	}
	isFinalizer := func(a uint32) bool { return vm.refs.finalizer != nil && vm.ClassOf(a) == vm.refs.finalizer }
	isPhantom := func(a uint32) bool { return vm.refs.phantom != nil && vm.ClassOf(a).SubclassOf(vm.refs.phantom) }
	// Java's order: weak (and unkept soft) references are cleared before
	// their referents are finalized, phantom ones only once finalization
	// has let them go.
	n0 := len(*found)
	for _, a := range (*found)[:n0] {
		if !isFinalizer(a) && !isPhantom(a) {
			clearOrForward(a)
		}
	}
	// An unreached finalizable object is kept, with all it reaches, for
	// its finalizer; keeping it may find more references (appended to
	// found, hence the index).
	for i := 0; i < len(*found); i++ {
		a := (*found)[i]
		if !isFinalizer(a) {
			continue
		}
		if r := h.U32(a + vm.refs.referent); r != 0 && tr.Forward(r) == 0 {
			h.SetU32(a+vm.refs.referent, tr.Keep(r))
			enqueue(a)
			vm.refs.finalizersQueued++
			continue
		}
		clearOrForward(a) // reached: only forwarded
	}
	for _, a := range (*found)[n0:] {
		if !isFinalizer(a) && !isPhantom(a) {
			clearOrForward(a)
		}
	}
	for _, a := range *found {
		if isPhantom(a) {
			clearOrForward(a)
		}
	}
	if added {
		select {
		case vm.refs.wake <- struct{}{}:
		default:
		}
	}
}

// waitForPending is Reference.waitForPending: it blocks (without the
// global lock) until the collector has cleared references with queues,
// then takes the whole pending list.
func (t *Thread) waitForPending() uint32 {
	vm := t.VM
	for vm.refs.pending == 0 {
		t.block(func() {
			select {
			case <-vm.refs.wake:
			case <-vm.done:
			}
		})
	}
	p := vm.refs.pending
	vm.refs.pending = 0
	return p
}

// finalizable reports whether instances of c must be registered for
// finalization: c overrides Object.finalize (an empty override counts, as
// in ART). Classes instantiated while the core library boots are not.
func (vm *VM) finalizable(c *Class) bool {
	if c.finalize == 0 {
		c.finalize = finalizeNo
		if m := c.byName["finalize()V"]; m != nil && m.Class != vm.objectClass && !vm.booting {
			c.finalize = finalizeYes
		}
	}
	return c.finalize == finalizeYes
}

const (
	finalizeYes = 1
	finalizeNo  = 2
)

// registerFinalizer calls FinalizerReference.add for the new object at a
// and returns its address, which the call may have moved (0 with an
// exception pending).
func (t *Thread) registerFinalizer(a uint32) uint32 {
	vm := t.VM
	c := vm.loadClass("Ljava/lang/ref/FinalizerReference;")
	if c == nil {
		panic(vmError("core library: no java.lang.ref.FinalizerReference"))
	}
	t.PushRoot(a)
	defer t.PopRoots(1)
	if !t.EnsureInitialized(c) {
		return 0
	}
	if !t.Invoke(FindMethod(c, "add", "(Ljava/lang/Object;)V"), []uint32{t.Root(0)}) {
		return 0
	}
	return t.Root(0)
}

// registerFinalizerNatives adds FinalizerReference's natives.
func registerFinalizerNatives(vm *VM) {
	n := vm.natives
	n["Ljava/lang/ref/FinalizerReference;->invokeFinalize(Ljava/lang/Object;)V"] = func(t *Thread, a []uint32) {
		if a[0] == 0 {
			return
		}
		if m := vm.ClassOf(a[0]).byName["finalize()V"]; m != nil && !t.Invoke(m, []uint32{a[0]}) {
			t.Exc = 0 // what a finalizer throws is ignored
		}
	}
	n["Ljava/lang/ref/FinalizerReference;->enqueuedCount()J"] = func(t *Thread, a []uint32) {
		t.Ret = uint64(vm.refs.finalizersQueued)
	}
}
