package runtime

import "sort"

// RootKind says what holds a heap root, in the terms heap dumps use.
type RootKind uint8

// Root kinds.
const (
	// RootInternal: the VM's own references (preallocated errors, the
	// pending reference queue).
	RootInternal RootKind = iota
	// RootClass: a loaded class's Class object, which holds its statics;
	// classes are never unloaded.
	RootClass
	// RootString: a DEX file's resolved string or an interned string.
	RootString
	// RootThreadObject: a thread's java.lang.Thread object.
	RootThreadObject
	// RootFrame: a reference register of a Java frame.
	RootFrame
	// RootNative: a reference held by native (Go) code for a thread, as
	// a JNI local reference would be.
	RootNative
	// RootThreadBlock: a thread's pending or caught exception.
	RootThreadBlock
)

// HeapRoot is one root of the heap and what holds it.
type HeapRoot struct {
	Kind RootKind
	Addr uint32
	// Thread holds the root for the thread kinds, nil otherwise.
	Thread *Thread
	// Depth is, for RootFrame and RootNative, the frame's depth from the
	// top of Thread's stack (0 = the running frame).
	Depth int
}

// HeapRoots calls f with every non-null root Roots would visit, saying
// what holds it, for heap dumps that tell roots apart. Threads come in
// the order of their IDs. Call it while the VM is stopped, not during a
// collection.
func (vm *VM) HeapRoots(f func(HeapRoot)) {
	emit := func(k RootKind, a uint32, t *Thread, depth int) {
		if a != 0 {
			f(HeapRoot{Kind: k, Addr: a, Thread: t, Depth: depth})
		}
	}
	for _, k := range vm.classes {
		emit(RootClass, k.Addr, nil, 0)
	}
	for _, files := range [][]*DexFile{vm.bootFiles, vm.appFiles} {
		for _, d := range files {
			for _, s := range d.strings {
				emit(RootString, s, nil, 0)
			}
		}
	}
	for _, a := range vm.interned {
		emit(RootString, a, nil, 0)
	}
	emit(RootInternal, vm.oome, nil, 0)
	emit(RootInternal, vm.soe, nil, 0)
	emit(RootInternal, vm.refs.pending, nil, 0)
	for _, t := range vm.Threads() {
		emit(RootThreadObject, t.Obj, t, 0)
		emit(RootThreadBlock, t.Exc, t, 0)
		emit(RootThreadBlock, t.Caught, t, 0)
		for _, h := range t.handles {
			emit(RootNative, h, t, 0)
		}
		// A register belongs to the innermost frame starting at or below it.
		fi := 0
		for i := 0; i < t.SP; i++ {
			for fi+1 < len(t.Frames) && t.Frames[fi+1].FP <= i {
				fi++
			}
			if t.Tags[i] {
				emit(RootFrame, t.Stack[i], t, len(t.Frames)-1-fi)
			}
		}
	}
}

// Threads returns the VM's live threads in the order of their IDs.
func (vm *VM) Threads() []*Thread {
	vm.threadsMu.Lock()
	ts := make([]*Thread, 0, len(vm.threads))
	for t := range vm.threads {
		ts = append(ts, t)
	}
	vm.threadsMu.Unlock()
	sort.Slice(ts, func(i, j int) bool { return ts[i].ID < ts[j].ID })
	return ts
}

// LockOwner returns the ID of the thread holding the lock of the object
// at a, 0 when nobody holds it.
func (vm *VM) LockOwner(a uint32) int {
	w := vm.lockWord(a)
	switch w >> lockStateShift {
	case lockThin:
		return int(w&lockPayload) >> thinOwnerShift
	case lockFat:
		if m := vm.monitors[w&lockPayload]; m.owner != nil {
			return m.owner.ID
		}
	}
	return 0
}
