package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"strings"

	"github.com/droidprof/droidprof/vm/gc"
)

// RunMain runs mainClass.main(args) on a new main thread, waits for the
// other non-daemon threads like dalvikvm, and returns the exit status:
// System.exit's argument, 1 after an uncaught exception in main, else 0.
// err is a VM failure (including ctx being cancelled).
func (vm *VM) RunMain(ctx context.Context, mainClass string, args []string) (code int, err error) {
	stopWatch := context.AfterFunc(ctx, func() { vm.shutdown(-1, fmt.Errorf("vm: %w", ctx.Err())) })
	defer stopWatch()
	t := vm.newThread()
	vm.nonDaemon.Add(1)
	vm.gil <- struct{}{}
	func() {
		defer vm.threadExit(t, true)
		t.acquire()
		if vm.startMain(t, mainClass, args) {
			return
		}
		exc := t.Exc
		t.PushRoot(exc)
		t.reportUncaught(exc)
		vm.exitCode = 1
	}()
	// dalvikvm's DestroyJavaVM: wait for the non-daemon threads.
	all := make(chan struct{})
	go func() { vm.nonDaemon.Wait(); close(all) }()
	select {
	case <-all:
	case <-vm.done:
	}
	vm.shutdown(vm.exitCode, nil)
	vm.Flush()
	vm.files.closeAll()
	return vm.exitCode, vm.internalErr
}

// startMain creates the main Thread object and calls main. It returns
// false with t.Exc pending if an exception escapes.
func (vm *VM) startMain(t *Thread, mainClass string, args []string) bool {
	if !t.EnsureInitialized(vm.threadClass) {
		return false
	}
	t.Obj = t.NewObject(vm.threadClass)
	if t.Obj == 0 {
		return false
	}
	vm.Heap.SetU64(t.Obj+vm.threadPeer, uint64(t.ID))
	name := t.NewString("main")
	ctor := FindMethod(vm.threadClass, "<init>", "(Ljava/lang/String;)V")
	if name == 0 || ctor == nil || !t.Invoke(ctor, []uint32{t.Obj, name}) {
		if t.Exc == 0 {
			panic(vmError("core library: Thread(String) missing"))
		}
		return false
	}
	// Errors thrown when there is no memory or stack left to make one.
	for _, pre := range []struct {
		p    *uint32
		desc string
	}{{&vm.oome, "Ljava/lang/OutOfMemoryError;"}, {&vm.soe, "Ljava/lang/StackOverflowError;"}} {
		if c := vm.loadClass(pre.desc); c != nil && t.EnsureInitialized(c) {
			*pre.p = t.NewObject(c)
		}
	}
	// ART's detail for the OutOfMemoryError thrown when there is no
	// memory left to make one.
	if msg := t.NewString("OutOfMemoryError thrown while trying to throw OutOfMemoryError; no stack trace available"); msg != 0 && vm.oome != 0 {
		for _, f := range vm.throwableClass.Fields {
			if f.Name == "detailMessage" && !f.Static {
				vm.StoreRef(vm.oome, vm.oome+f.Offset, msg)
			}
		}
	}
	// The zygote's preloading: the classes Options.Preload names are
	// loaded and initialised now, so what their static initialisers
	// allocate lives in the zygote space.
	for _, name := range vm.preload {
		c := vm.loadClass("L" + strings.ReplaceAll(name, ".", "/") + ";")
		if c == nil {
			t.ThrowNew("Ljava/lang/ClassNotFoundException;", "preloading: didn't find class \""+name+"\" on path: "+vm.classPathString())
			return false
		}
		if !t.EnsureInitialized(c) {
			return false
		}
	}
	// The VM has booted and preloaded: seal the zygote space, as the
	// zygote's fork does, before the application's classes load.
	vm.GCHeap.Seal()
	vm.sealed = true
	desc := "L" + strings.ReplaceAll(mainClass, ".", "/") + ";"
	c := vm.loadClass(desc)
	if c == nil {
		t.ThrowNew("Ljava/lang/ClassNotFoundException;", "Didn't find class \""+strings.ReplaceAll(mainClass, "/", ".")+"\" on path: "+vm.classPathString())
		return false
	}
	var main *Method
	for _, m := range c.Methods {
		if m.Name == "main" && m.Signature == "([Ljava/lang/String;)V" && m.IsStatic() {
			main = m
		}
	}
	if main == nil {
		t.ThrowNew("Ljava/lang/NoSuchMethodError;", "no static method \"Ljava/lang/String;.main([Ljava/lang/String;)V\" in class "+desc)
		return false
	}
	if !t.EnsureInitialized(c) {
		return false
	}
	arr := t.NewArrayOf("[Ljava/lang/String;", int32(len(args)))
	if arr == 0 {
		return false
	}
	t.PushRoot(arr)
	for i, a := range args {
		s := t.NewString(a)
		if s == 0 {
			return false
		}
		vm.storeElem(t.Root(0), i, s)
	}
	arr = t.Root(0)
	t.PopRoots(1)
	return t.Invoke(main, []uint32{arr})
}

func (vm *VM) classPathString() string {
	var names []string
	for _, f := range vm.appFiles {
		names = append(names, f.Name)
	}
	return "DexPathList[[" + strings.Join(names, ":") + "]]"
}

// StartThread starts the Java thread whose object is obj (Thread.start).
func (t *Thread) StartThread(obj uint32) {
	vm := t.VM
	nt := vm.newThread()
	nt.Obj = obj
	vm.Heap.SetU64(obj+vm.threadPeer, uint64(nt.ID))
	daemon := vm.Heap.U8(obj+vm.threadDaemon) != 0
	if !daemon {
		vm.nonDaemon.Add(1)
	}
	run := FindMethod(vm.ClassOf(obj), "run", "()V")
	go func() {
		defer vm.threadExit(nt, !daemon)
		nt.acquire()
		if run == nil {
			return
		}
		if !nt.Invoke(vm.ClassOf(nt.Obj).Virtual(run), []uint32{nt.Obj}) {
			exc := nt.Exc
			nt.PushRoot(exc)
			nt.reportUncaught(exc)
		}
	}()
}

// threadExit ends a thread's goroutine: it turns panics into VM errors,
// wakes joiners and gives the global lock back.
func (vm *VM) threadExit(t *Thread, nonDaemon bool) {
	r := recover()
	defer t.unlockOS()
	switch r := r.(type) {
	case nil:
	case stopUnwind:
	case vmError:
		vm.shutdown(-1, r)
	case gc.VerifyError:
		vm.shutdown(-1, fmt.Errorf("vm: %w", r))
	default:
		buf := make([]byte, 8<<10)
		buf = buf[:goruntime.Stack(buf, false)]
		vm.shutdown(-1, fmt.Errorf("vm: internal error in thread %d at %s: %v\n%s", t.ID, vm.where(t), r, buf))
	}
	holding := vm.current == t && r == nil
	if holding {
		t.alive = false
		t.Exc = 0
		if t.Obj != 0 {
			t.MonitorEnter(t.Obj)
			t.Notify(t.Obj, true)
			t.MonitorExit(t.Obj)
		}
		t.release()
	} else if r != nil && vm.current == t {
		t.release()
	}
	t.alive = false
	vm.threadsMu.Lock()
	delete(vm.threads, t)
	if t.OpCounts != nil {
		for i, n := range t.OpCounts {
			vm.opCounts[i] += n
		}
	}
	vm.threadsMu.Unlock()
	if nonDaemon {
		vm.nonDaemon.Done()
	}
}

// where describes a thread's current Java frame, for VM errors.
func (vm *VM) where(t *Thread) string {
	if n := len(t.Frames); n > 0 {
		f := t.Frames[n-1]
		return fmt.Sprintf("%s pc %#x", f.Method, f.PC)
	}
	return "no Java frame"
}

// shutdown stops every thread: code >= 0 is an exit status (System.exit),
// err a VM failure. The first reason wins.
func (vm *VM) shutdown(code int, err error) {
	vm.threadsMu.Lock()
	defer vm.threadsMu.Unlock()
	if vm.stop.Load() {
		return
	}
	if code >= 0 {
		vm.exitCode = code
	}
	if err != nil {
		vm.internalErr = err
	}
	vm.stop.Store(true)
	vm.flags.Add(1)
	close(vm.done)
}

// Exit implements System.exit: the VM stops with status code and the
// calling thread unwinds.
func (t *Thread) Exit(code int) {
	t.VM.shutdown(code, nil)
	panic(stopUnwind{})
}

// OpCounts returns the instructions executed by finished threads, by
// opcode (Hooks.CountOpcodes must be set).
func (vm *VM) OpCounts() [256]uint64 {
	vm.threadsMu.Lock()
	defer vm.threadsMu.Unlock()
	return vm.opCounts
}
