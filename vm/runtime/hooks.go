package runtime

import (
	"time"

	"github.com/droidprof/droidprof/vm/gc"
)

// Hooks lets a profiler observe the VM in-process. Every field is
// optional; a nil hook costs one nil check at its event.
type Hooks struct {
	// MethodEntry runs when a method starts, with the call depth
	// (1 for the thread's outermost method) and now, VM.Now read right
	// before the hook is called, for a profiler to stamp its event with
	// (so the stamp is taken before the hook's dispatch, not inside it).
	MethodEntry func(t *Thread, m *Method, depth int, now int64)
	// MethodExit runs when a method returns or an exception leaves it,
	// with now as for MethodEntry.
	MethodExit func(t *Thread, m *Method, depth int, exceptional bool, now int64)
	// TimeMethodHooks makes the VM read its clock again when a method
	// hook returns and leave what the hook cost the thread, from now to
	// that read, in Thread.HookCost, where the thread's next hook finds
	// it. A profiler measuring its own cost this way sees its dispatch
	// and return too; what it cannot see is one clock read.
	TimeMethodHooks bool
	// Alloc runs after every object allocation outside the image space
	// (Class objects, which the class table keeps, excepted).
	Alloc func(t *Thread, site Site, c *Class, size uint32, addr uint32)
	// Free runs for every object a collection finds dead in a space
	// that does not move its objects (a semi-space's dead objects are
	// those that were not moved out of it: see Move).
	Free func(addr, size uint32)
	// Move runs for every object a copying collection moves, with its
	// old and new address.
	Move func(from, to, size uint32)
	// GCStart and GCEnd bracket each collection.
	GCStart func(count int)
	GCEnd   func(GCInfo)
	// Accesses runs at the start of collection count, after GCStart,
	// with paper 003's access bitmap (when the heap keeps one,
	// gc.Config.AccessBitmap): the objects the barriers saw — compiled
	// code's, and the interpreter's with InterpreterBarriers — since the
	// previous collection, at their addresses before this one.
	// The bitmap is cleared when the hook returns.
	Accesses func(count int, b *gc.AccessBitmap)
	// InterpreterBarriers makes the interpreter run paper 003's access
	// barrier (level none) at every object-access point, marking the
	// access bitmap, which the heap then keeps (gc.Config.AccessBitmap):
	// a program on the interpreter, or the methods the aot engine leaves
	// to it, records its accesses as compiled code with barriers does.
	InterpreterBarriers bool
	// CountOpcodes makes every thread count executed instructions by
	// opcode in Thread.OpCounts (and all threads' in VM.Instructions).
	CountOpcodes bool
	// WrapNative, when set, replaces each native method's implementation
	// with what it returns, when its class is loaded: opcost counts and
	// times the natives a program calls (work that no opcode count sees).
	WrapNative func(m *Method, f NativeFunc) NativeFunc
	// VirtualTime makes the VM's clock — VM.Now, so the hooks' stamps
	// and the threads' CPU clocks, and System.nanoTime — count executed
	// instructions, one nanosecond each, instead of real time: a clock
	// free of the host's noise and of what observing the program costs
	// (hooks and the code around them execute no instructions). It
	// implies CountOpcodes. Only the interpreter counts instructions,
	// so vm.New refuses it with the aot engine.
	VirtualTime bool
}

// Site is an allocation site: the method and dex pc of the instruction.
type Site struct {
	Method *Method
	PC     int
}

// GCInfo describes a finished collection. The fields are what ART's
// logcat GC line shows ("Explicit concurrent mark sweep GC freed
// 1234(56KB) AllocSpace objects, 0(0B) LOS objects, 40% free, 9216KB/15MB,
// paused 1.2ms total 12.3ms").
type GCInfo struct {
	Count int
	// Cause is ART's GcCause name: "Alloc", "Explicit", "Background"
	// (the heap passed its collection target), "Stress".
	Cause string
	// Kind is "sticky", "partial" or "full".
	Kind string
	// Collector is ART's name for what ran: "concurrent mark sweep",
	// "sticky concurrent mark sweep", "partial concurrent mark sweep",
	// "semispace".
	Collector string
	// Spaces names the spaces the collection could free objects in
	// (ART's names: "main rosalloc space", "zygote", "large object space", ...).
	Spaces []string
	// Objects and bytes freed outside (AllocSpace) and inside (LOS) the
	// large-object space.
	FreedObjects, FreedLargeObjects uint64
	FreedLargeBytes                 uint64
	Freed                           uint64 // bytes, all spaces
	Live                            uint64 // bytes allocated after the collection
	Footprint                       uint64 // the heap's footprint after growing or trimming
	Pause                           time.Duration
	Duration                        time.Duration
}
