package runtime

import "github.com/droidprof/droidprof/vm/gc"

// references is what the collector knows of java.lang.ref: the classes
// (nil until the core library loads them) and Reference's field offsets.
// The referent is left out of Reference's RefOffsets, so marking never
// follows it; the collector finds references while scanning instead.
type references struct {
	class, soft                  *Class
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
	for _, a := range *found {
		r := h.U32(a + vm.refs.referent)
		if r == 0 {
			continue
		}
		if n := tr.Forward(r); n != 0 {
			h.SetU32(a+vm.refs.referent, n)
			continue
		}
		h.SetU32(a+vm.refs.referent, 0)
		if h.U32(a+vm.refs.queue) != 0 && h.U32(a+vm.refs.pendingNext) == 0 && a != vm.refs.pending {
			h.SetU32(a+vm.refs.pendingNext, vm.refs.pending)
			vm.refs.pending = a
			added = true
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
