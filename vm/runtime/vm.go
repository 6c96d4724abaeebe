// Package runtime is droidprof's Dalvik runtime: class loading and
// linking from DEX files, objects in the simulated heap (package heap),
// strings, exceptions, monitors, Java threads, the collector's roots and
// the profiler hooks. Bytecode execution is delegated to an Engine (the
// portable interpreter in package interp), so engines can be swapped
// without touching the runtime.
package runtime

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/droidprof/droidprof/vm/clock"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/heap"
)

// Engine executes bytecode.
type Engine interface {
	// Execute runs m, which has code, in the frame at t.Stack[fp:] whose
	// last m.ArgWords registers already hold the arguments. It returns
	// false when an exception (t.Exc) leaves the method.
	Execute(t *Thread, m *Method, fp int) bool
}

// Collector is the garbage-collected heap as the runtime uses it: where
// objects are allocated, the write barrier, collections and checks.
// Package gc's Heap implements it, with its cms and ss collectors.
type Collector interface {
	// Alloc returns zeroed memory for an object, or 0 when the heap is
	// exhausted (OOMMessage says why).
	Alloc(size uint32, kind gc.AllocKind) uint32
	// AllocImage returns zeroed memory in the image space.
	AllocImage(size uint32) (uint32, bool)
	// StoreRef is the write barrier: it stores the reference v in the
	// slot at slot of the object at obj.
	StoreRef(obj, slot, v uint32)
	// RefsStored is the write barrier of a bulk store into obj.
	RefsStored(obj uint32)
	// Collect runs a collection.
	Collect(cause gc.Cause)
	// Seal ends the zygote phase.
	Seal()
	OOMMessage(size uint64) string
	FreeMemory() uint64
	TotalMemory() uint64
	GrowthLimit() uint64
	// ImageBytes is the size of the image space.
	ImageBytes() uint64
	// Holds reports whether a lies in the allocated part of a space.
	Holds(a uint32) bool
	// Verify checks every object and root of the heap.
	Verify() error
	// Walk calls f for every live object outside the image.
	Walk(f func(addr uint32))
}

// Options configures a VM.
type Options struct {
	// GC sizes the heap and chooses its collector; zero fields are
	// ART's defaults.
	GC gc.Config
	// Preload names classes ("pkg.Name") to load and initialise in the
	// zygote phase, before the zygote space is sealed, as Android's
	// zygote preloads its preloaded-classes list.
	Preload        []string
	Stdout, Stderr io.Writer
	Engine         Engine
	Hooks          *Hooks
	// StackWords is the size of each thread's register stack; 0 means
	// DefaultStackWords.
	StackWords int
}

// DefaultStackWords bounds a thread's registers (4 MiB), which with
// typical frames allows recursion a few tens of thousands deep before
// StackOverflowError, like ART's default 8 MiB native stack.
const DefaultStackWords = 1 << 20

// MaxDepth bounds Java call depth independently of frame sizes.
const MaxDepth = 20000

// VM is one Java virtual machine instance.
type VM struct {
	// Heap is the object memory; GCHeap its spaces and collectors.
	Heap    *heap.Heap
	GCHeap  Collector
	Engine  Engine
	Hooks   *Hooks
	epoch   time.Time
	epochNs int64 // clock.Now() at epoch

	bootFiles, appFiles []*DexFile
	classes             []*Class
	byDesc              map[string]*Class
	loading             map[string]bool
	Methods             []*Method
	interned            map[string]uint32
	natives             map[string]NativeFunc
	proxies             map[string]*Class // proxy classes by their interfaces' descriptors
	files               files             // java.io's open files
	sealed              bool              // the zygote phase is over
	preload             []string          // classes initialised before sealing (Options.Preload)
	stress              bool              // gcstress: collect at allocations from new call stacks
	stressSeen          map[uint64]bool   // hashes of the call stacks stress has collected at
	stressAll           bool              // gc.Config.StressAll: collect at every allocation

	stdout, stderr *bufio.Writer
	outMu          sync.Mutex

	gil     chan struct{}
	wanting atomic.Int32
	stop    atomic.Bool
	done    chan struct{}
	flags   atomic.Int32 // nonzero: threads must call Safepoint

	threadsMu   sync.Mutex
	threads     map[*Thread]bool
	nextTID     int
	nonDaemon   sync.WaitGroup
	exitCode    int
	exited      bool
	monitors    []*Monitor
	stackWords  int
	GCCount     int
	booting     bool
	hashSeed    uint32
	opCounts    [256]uint64
	current     *Thread // holder of the global lock
	internalErr error

	// InterpAccess is the access bitmap the interpreter's barriers mark
	// (Hooks.InterpreterBarriers), else nil.
	InterpAccess *gc.AccessBitmap

	// Instructions counts the instructions all threads have executed
	// when Hooks.CountOpcodes or VirtualTime is set: written by the
	// engine of the thread holding the global lock, so it needs no
	// atomics.
	Instructions uint64

	// Well-known classes and layouts.
	objectClass, classClass, stringClass, charArray, throwableClass *Class
	threadClass, stackTraceClass, stackTraceArray, longArray        *Class
	stringValue, stringHash                                         uint32
	throwableBacktrace, threadPeer, threadDaemon, threadName        uint32
	oome, soe                                                       uint32 // preallocated errors
	refs                                                            references
}

// New makes a VM with the given boot (core library) and application
// class path, already parsed.
func New(opt Options, boot, app []*dex.File, bootNames, appNames []string) (*VM, error) {
	opt.GC = opt.GC.WithDefaults()
	if err := opt.GC.Validate(); err != nil {
		return nil, fmt.Errorf("runtime: %w", err)
	}
	if opt.Stdout == nil {
		opt.Stdout = io.Discard
	}
	if opt.Stderr == nil {
		opt.Stderr = io.Discard
	}
	if opt.Engine == nil {
		return nil, errors.New("runtime: no engine")
	}
	clock.Init()
	if opt.StackWords == 0 {
		opt.StackWords = DefaultStackWords
	}
	vm := &VM{
		Heap:       heap.New(heapEnd(opt.GC)),
		Engine:     opt.Engine,
		Hooks:      opt.Hooks,
		byDesc:     map[string]*Class{},
		loading:    map[string]bool{},
		interned:   map[string]uint32{},
		stdout:     bufio.NewWriterSize(opt.Stdout, 64<<10),
		stderr:     bufio.NewWriterSize(opt.Stderr, 4<<10),
		gil:        make(chan struct{}, 1),
		done:       make(chan struct{}),
		threads:    map[*Thread]bool{},
		stackWords: opt.StackWords,
		epoch:      time.Now(),
		epochNs:    clock.Now(),
	}
	if vm.Hooks == nil {
		vm.Hooks = &Hooks{}
	}
	if vm.Hooks.InterpreterBarriers {
		opt.GC.AccessBitmap = true
	}
	vm.newGCHeap(opt.GC)
	if vm.Hooks.InterpreterBarriers {
		vm.InterpAccess = vm.AccessBitmap()
	}
	vm.stress = opt.GC.Stress || opt.GC.StressAll
	vm.stressAll = opt.GC.StressAll
	vm.preload = opt.Preload
	for i, f := range boot {
		vm.bootFiles = append(vm.bootFiles, newDexFile(f, bootNames[i], true))
	}
	for i, f := range app {
		vm.appFiles = append(vm.appFiles, newDexFile(f, appNames[i], false))
	}
	vm.natives = map[string]NativeFunc{}
	registerNatives(vm)
	if err := vm.boot(); err != nil {
		return nil, err
	}
	if img := vm.GCHeap.ImageBytes(); img > uint64(opt.GC.Max) {
		return nil, fmt.Errorf("runtime: -Xmx %s: smaller than the boot image (%s)", gc.Bytes(uint64(opt.GC.Max)), gc.Bytes(img))
	}
	return vm, nil
}

// heapEnd is the end of the address range the heap reserves: the large
// object space's end under cms, the second semi-space's under ss.
func heapEnd(c gc.Config) uint32 {
	if c.Collector == gc.SS {
		return heap.SemiBase + c.Max
	}
	return heap.LargeBase + c.Max
}

// boot loads the classes the runtime itself needs and computes the
// layouts it reads directly.
func (vm *VM) boot() error {
	vm.booting = true
	defer func() { vm.booting = false }()
	must := func(desc string) (*Class, error) {
		c := vm.loadClass(desc)
		if c == nil {
			return nil, fmt.Errorf("runtime: boot class %s missing from the core library", desc)
		}
		return c, nil
	}
	var err error
	for _, x := range []struct {
		p    **Class
		desc string
	}{
		{&vm.objectClass, "Ljava/lang/Object;"},
		{&vm.classClass, "Ljava/lang/Class;"},
		{&vm.stringClass, "Ljava/lang/String;"},
		{&vm.charArray, "[C"},
		{&vm.longArray, "[J"},
		{&vm.throwableClass, "Ljava/lang/Throwable;"},
		{&vm.threadClass, "Ljava/lang/Thread;"},
		{&vm.stackTraceClass, "Ljava/lang/StackTraceElement;"},
		{&vm.stackTraceArray, "[Ljava/lang/StackTraceElement;"},
	} {
		if *x.p, err = must(x.desc); err != nil {
			return err
		}
	}
	field := func(c *Class, name string) (uint32, error) {
		for _, f := range c.Fields {
			if f.Name == name && !f.Static {
				return f.Offset, nil
			}
		}
		return 0, fmt.Errorf("runtime: core library: %s has no field %s", c.Name, name)
	}
	for _, x := range []struct {
		p    *uint32
		c    *Class
		name string
	}{
		{&vm.stringValue, vm.stringClass, "value"},
		{&vm.stringHash, vm.stringClass, "hash"},
		{&vm.throwableBacktrace, vm.throwableClass, "backtrace"},
		{&vm.threadPeer, vm.threadClass, "nativePeer"},
		{&vm.threadDaemon, vm.threadClass, "daemon"},
		{&vm.threadName, vm.threadClass, "name"},
	} {
		if *x.p, err = field(x.c, x.name); err != nil {
			return err
		}
	}
	// Class objects (in the image space) for the boot classes loaded so
	// far, now that java.lang.Class and String are known: static values
	// may hold string literals.
	vm.classClass.Addr = 0
	vm.allocClassObject(vm.classClass)
	for _, c := range vm.classes {
		if c.Addr == 0 {
			vm.allocClassObject(c)
		}
	}
	return nil
}

// Now is the VM's monotonic clock: nanoseconds since Epoch, or with
// Hooks.VirtualTime the instructions executed so far.
func (vm *VM) Now() int64 {
	if vm.Hooks.VirtualTime {
		return int64(vm.Instructions)
	}
	return clock.Now() - vm.epochNs
}

// Epoch is the wall-clock time at which Now was 0 (the VM's creation).
func (vm *VM) Epoch() time.Time { return vm.epoch }

// Stdout is where System.out goes (buffered; flushed at exit).
func (vm *VM) Stdout() *bufio.Writer { return vm.stdout }

// Flush writes out buffered program output.
func (vm *VM) Flush() {
	vm.outMu.Lock()
	defer vm.outMu.Unlock()
	vm.stdout.Flush()
	vm.stderr.Flush()
}

// Class returns a loaded class by descriptor, or nil.
func (vm *VM) Class(desc string) *Class { return vm.byDesc[desc] }

// Classes returns every loaded class, in load order.
func (vm *VM) Classes() []*Class { return vm.classes }
