package runtime

import (
	"fmt"
	goruntime "runtime"
	"time"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/vm/heap"
)

// Frame is one activation on a thread's call stack.
type Frame struct {
	Method *Method
	PC     int // dex pc of the current instruction (updated at calls and throws)
	FP     int // first register in Thread.Stack
}

// Thread is a Java thread. Threads run Java code only while holding the
// VM's global lock, which they pass on at safepoints (backward branches
// and calls) when another thread waits for it, and release while they
// block. That gives Java's concurrency semantics without data races in
// the heap, and a collection never has to stop anybody.
type Thread struct {
	VM  *VM
	ID  int
	Obj uint32 // the java.lang.Thread object

	// Registers of all frames; Tags marks the registers that hold
	// references, which makes the collector's stack roots precise.
	Stack []uint32
	Tags  []bool
	SP    int // first free register
	// Frames mirrors the Java call stack.
	Frames []Frame

	Ret uint64 // result of the last invoke (move-result)
	Exc uint32 // pending exception, 0 if none
	// Caught holds the exception a handler was entered for until its
	// move-exception takes it.
	Caught uint32

	stackMem    [2]*heap.Region // keeps Stack and Tags mapped
	handles     []uint32        // references held by Go code (natives)
	wake        chan struct{}
	interrupted bool
	inOOM       bool
	cpuNanos    int64 // time spent holding the global lock, up to sliceStart
	sliceStart  int64 // VM.Now when the thread last took the lock
	overflowing bool
	alive       bool
	// OpCounts, when not nil, counts executed instructions by opcode.
	OpCounts *[256]uint64
	// HookCost is, with Hooks.TimeMethodHooks, what the thread's last
	// method hook cost (VM.Now nanoseconds); 0 before its first.
	HookCost int64
	// osLocked: the thread's goroutine was locked to its OS thread when
	// it first read the kernel's CPU clock of its thread, and is unlocked
	// when the thread ends.
	osLocked bool
}

func (vm *VM) newThread() *Thread {
	vm.threadsMu.Lock()
	vm.nextTID++
	stack, tags := heap.Reserve(4*vm.stackWords), heap.Reserve(vm.stackWords)
	t := &Thread{VM: vm, ID: vm.nextTID, Stack: stack.Words(), Tags: tags.Bools(), stackMem: [2]*heap.Region{stack, tags},
		wake: make(chan struct{}, 1), alive: true}
	if vm.Hooks.CountOpcodes || vm.Hooks.VirtualTime {
		t.OpCounts = new([256]uint64)
	}
	vm.threads[t] = true
	vm.threadsMu.Unlock()
	return t
}

// PushRoot keeps a reference alive (and, for a moving collector, up to
// date) while Go code holds it.
func (t *Thread) PushRoot(a uint32) { t.handles = append(t.handles, a) }

// PopRoots drops the n most recent PushRoot references.
func (t *Thread) PopRoots(n int) { t.handles = t.handles[:len(t.handles)-n] }

// Root returns the i-th most recent pushed reference (0 = last).
func (t *Thread) Root(i int) uint32 { return t.handles[len(t.handles)-1-i] }

// Alive reports whether the thread may go on running Java code (the VM is
// not shutting down).
func (t *Thread) Alive() bool { return !t.VM.stop.Load() }

// stopUnwind unwinds a thread's goroutine when the VM shuts down.
type stopUnwind struct{}

// acquire takes the global lock.
func (t *Thread) acquire() {
	vm := t.VM
	vm.wanting.Add(1)
	vm.flags.Add(1)
	select {
	case <-vm.gil:
	case <-vm.done:
		vm.wanting.Add(-1)
		vm.flags.Add(-1)
		panic(stopUnwind{})
	}
	vm.wanting.Add(-1)
	vm.flags.Add(-1)
	vm.current = t
	t.sliceStart = vm.Now()
	if vm.stop.Load() {
		vm.current = nil
		vm.gil <- struct{}{}
		panic(stopUnwind{})
	}
}

// release gives the global lock up.
func (t *Thread) release() {
	t.cpuNanos += t.VM.Now() - t.sliceStart
	t.VM.current = nil
	t.VM.gil <- struct{}{}
}

// CPUTime is the thread's CPU clock at VM time now (a VM.Now reading
// taken while the thread runs): the time it has spent running Java code,
// i.e. holding the global lock. Only one Java thread runs at a time, so
// this is the CPU time the thread consumed, and reading it costs no system
// call (the kernel's per-thread CPU clock costs microseconds on some
// virtual machines, more than a small method runs).
func (t *Thread) CPUTime(now int64) int64 { return t.cpuNanos + now - t.sliceStart }

// threadCPUTime is the CPU time the kernel has given the thread's OS
// thread (CLOCK_THREAD_CPUTIME_ID): unlike CPUTime it leaves out the time
// another process had the core, which is what a measurement on a shared
// host needs. The goroutine is locked to its OS thread at the first read
// so that later ones read the same clock. Under Hooks.VirtualTime it is
// CPUTime, on the virtual clock.
func (t *Thread) threadCPUTime() int64 {
	if t.VM.Hooks.VirtualTime {
		return t.CPUTime(t.VM.Now())
	}
	if !t.osLocked {
		goruntime.LockOSThread()
		t.osLocked = true
	}
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return t.CPUTime(t.VM.Now())
	}
	return ts.Nano()
}

// unlockOS undoes threadCPUTime's lock, on the thread's goroutine.
func (t *Thread) unlockOS() {
	if t.osLocked {
		t.osLocked = false
		goruntime.UnlockOSThread()
	}
}

// Yield lets a waiting thread run.
func (t *Thread) Yield() {
	t.release()
	t.acquire()
}

// Safepoint is called by engines at backward branches and calls when
// VM.Flags is nonzero: it yields to waiting threads and unwinds when the
// VM stops.
func (t *Thread) Safepoint() {
	vm := t.VM
	if vm.stop.Load() {
		panic(stopUnwind{})
	}
	if vm.wanting.Load() > 0 {
		t.Yield()
	}
}

// Flags is nonzero when threads must call Safepoint; engines poll it.
func (vm *VM) Flags() int32 { return vm.flags.Load() }

// block releases the lock while f blocks (sleeping, waiting), then takes
// it back.
func (t *Thread) block(f func()) {
	t.release()
	defer t.acquire()
	f()
}

// sleep blocks for d (0: no limit) or, if wakeable, until the thread is
// woken (notify, interrupt), without holding the global lock.
func (t *Thread) sleep(d time.Duration, wakeable bool) {
	var timer <-chan time.Time
	if d > 0 {
		tm := time.NewTimer(d)
		defer tm.Stop()
		timer = tm.C
	}
	var wake chan struct{}
	if wakeable {
		wake = t.wake
	}
	t.block(func() {
		select {
		case <-timer:
		case <-wake:
		case <-t.VM.done:
		}
	})
}

// Invoke calls m with the given argument words from Go code (natives,
// class initialisation, the launcher). It returns false with t.Exc set
// when an exception escapes.
func (t *Thread) Invoke(m *Method, args []uint32) bool {
	fp := t.SP
	regs := m.ArgWords
	if m.Code != nil {
		regs = int(m.Code.Registers)
	}
	if t.Overflows(fp, regs) {
		t.ThrowStackOverflow()
		return false
	}
	base := fp + regs - m.ArgWords
	// The frame's other registers hold what older frames left there:
	// they must not look like references to the collector.
	clear(t.Tags[fp:base])
	copy(t.Stack[base:], args)
	for i := range args {
		t.Tags[base+i] = m.RefArgs[i]
	}
	t.SP = fp + regs
	ok := t.Call(m, fp)
	t.SP = fp
	return ok
}

// Stack space kept back for creating and throwing StackOverflowError,
// like the protected region at the end of ART's thread stacks.
const (
	reserveWords  = 64 << 10
	reserveFrames = 200
)

// Overflows reports whether a frame of regs registers at fp exceeds the
// thread's stack (or call depth) limit.
func (t *Thread) Overflows(fp, regs int) bool {
	if t.overflowing {
		return fp+regs > len(t.Stack) || len(t.Frames) >= MaxDepth+reserveFrames
	}
	return fp+regs > len(t.Stack)-reserveWords || len(t.Frames) >= MaxDepth
}

// ThrowStackOverflow throws StackOverflowError, using the reserved stack
// to run its constructor.
func (t *Thread) ThrowStackOverflow() {
	if t.overflowing {
		// Even the reserve is used up: the constructor itself
		// overflowed. Unwind with the preallocated error.
		t.Exc = t.VM.oome
		if soe := t.VM.soe; soe != 0 {
			t.Exc = soe
		}
		return
	}
	t.overflowing = true
	t.ThrowNew("Ljava/lang/StackOverflowError;", "stack size "+fmt.Sprint((len(t.Stack)-reserveWords)*4/1024)+"KB")
	t.overflowing = false
}

// Call runs m in the frame at fp whose arguments are in place: natives
// directly, bytecode through the engine. It pushes the Frame, runs the
// hooks and handles synchronized methods.
func (t *Thread) Call(m *Method, fp int) bool {
	vm := t.VM
	t.Frames = append(t.Frames, Frame{Method: m, FP: fp})
	depth := len(t.Frames)
	if h := vm.Hooks.MethodEntry; h != nil {
		now := vm.Now()
		h(t, m, depth, now)
		if vm.Hooks.TimeMethodHooks {
			t.HookCost = vm.Now() - now
		}
	}
	var lock uint32
	if m.IsSynchronized() {
		if m.IsStatic() {
			lock = m.Class.Addr
		} else {
			lock = t.Stack[fp+t.regsOf(m)-m.ArgWords]
		}
		t.PushRoot(lock)
		t.MonitorEnter(lock)
	}
	ok := true
	switch {
	case t.Exc != 0:
		ok = false
	case m.Code != nil:
		ok = vm.Engine.Execute(t, m, fp)
	case m.Native != nil:
		t.Exc = 0
		regs := t.regsOf(m)
		m.Native(t, t.Stack[fp+regs-m.ArgWords:fp+regs])
		ok = t.Exc == 0
	case m.IsAbstract():
		t.ThrowNew("Ljava/lang/AbstractMethodError;", "abstract method \""+prettyMethod(m)+"\"")
		ok = false
	default:
		t.ThrowNew("Ljava/lang/UnsatisfiedLinkError;", "No implementation found for "+prettyMethod(m))
		ok = false
	}
	if m.IsSynchronized() {
		exc := t.Exc
		t.Exc = 0
		t.MonitorExit(t.Root(0))
		t.PopRoots(1)
		if exc != 0 {
			t.Exc = exc
		}
		ok = t.Exc == 0
	}
	if h := vm.Hooks.MethodExit; h != nil {
		now := vm.Now()
		h(t, m, depth, !ok, now)
		if vm.Hooks.TimeMethodHooks {
			t.HookCost = vm.Now() - now
		}
	}
	t.Frames = t.Frames[:depth-1]
	return ok
}

func (t *Thread) regsOf(m *Method) int {
	if m.Code != nil {
		return int(m.Code.Registers)
	}
	return m.ArgWords
}

// prettyMethod is ART's PrettyMethod: "void Foo.bar(int, java.lang.String)".
func prettyMethod(m *Method) string {
	sig := m.Signature
	params, ret := sig[1:len(sig)-len(returnOf(sig))-1], returnOf(sig)
	s := prettyType(ret) + " " + m.Class.Name + "." + m.Name + "("
	first := true
	for len(params) > 0 {
		n := descLen(params)
		if !first {
			s += ", "
		}
		first = false
		s += prettyType(params[:n])
		params = params[n:]
	}
	return s + ")"
}

func returnOf(sig string) string {
	for i := len(sig) - 1; i >= 0; i-- {
		if sig[i] == ')' {
			return sig[i+1:]
		}
	}
	return sig
}

func descLen(s string) int {
	i := 0
	for s[i] == '[' {
		i++
	}
	if s[i] == 'L' {
		for s[i] != ';' {
			i++
		}
	}
	return i + 1
}

// Name is the thread's Java name (Thread.getName).
func (t *Thread) Name() string { return t.VM.threadNameOf(t) }
