package runtime

import (
	"math"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/droidprof/droidprof/vm/clock"
	"github.com/droidprof/droidprof/vm/fdlibm"
	"github.com/droidprof/droidprof/vm/gc"
)

func long(a []uint32, i int) int64 { return int64(uint64(a[i]) | uint64(a[i+1])<<32) }
func dbl(a []uint32, i int) float64 {
	return math.Float64frombits(uint64(a[i]) | uint64(a[i+1])<<32)
}

// registerNatives fills vm.natives: the Go half of the core library's
// native methods. The list must match core.Natives (checked by a test).
func registerNatives(vm *VM) {
	n := vm.natives
	reg := func(class, name string, f NativeFunc) { n["Ljava/lang/"+class+";->"+name] = f }
	b2i := func(b bool) uint64 {
		if b {
			return 1
		}
		return 0
	}

	// java.lang.Object
	reg("Object", "getClass()Ljava/lang/Class;", func(t *Thread, a []uint32) { t.Ret = uint64(vm.ClassOf(a[0]).Addr) })
	reg("Object", "hashCode()I", func(t *Thread, a []uint32) { t.Ret = uint64(uint32(vm.IdentityHash(a[0]))) })
	reg("Object", "clone()Ljava/lang/Object;", func(t *Thread, a []uint32) { t.Ret = uint64(t.clone(a[0])) })
	reg("Object", "notify()V", func(t *Thread, a []uint32) { t.Notify(a[0], false) })
	reg("Object", "notifyAll()V", func(t *Thread, a []uint32) { t.Notify(a[0], true) })
	reg("Object", "wait(JI)V", func(t *Thread, a []uint32) {
		ms, ns := long(a, 1), int32(a[3])
		if ms < 0 || ns < 0 || ns > 999999 {
			t.ThrowNew("Ljava/lang/IllegalArgumentException;", "timeout value is negative")
			return
		}
		t.Wait(a[0], time.Duration(ms)*time.Millisecond+time.Duration(ns))
	})

	// java.lang.Class
	cls := func(a []uint32) *Class { return vm.ClassFromObject(a[0]) }
	reg("Class", "getName()Ljava/lang/String;", func(t *Thread, a []uint32) { t.Ret = uint64(t.NewString(cls(a).Name)) })
	reg("Class", "getSuperclass()Ljava/lang/Class;", func(t *Thread, a []uint32) {
		c := cls(a)
		t.Ret = 0
		if c.Super != nil && !c.IsInterface() {
			t.Ret = uint64(c.Super.Addr)
		}
	})
	reg("Class", "isArray()Z", func(t *Thread, a []uint32) { t.Ret = b2i(cls(a).IsArray()) })
	reg("Class", "isInterface()Z", func(t *Thread, a []uint32) { t.Ret = b2i(cls(a).IsInterface()) })
	reg("Class", "isPrimitive()Z", func(t *Thread, a []uint32) { t.Ret = b2i(cls(a).IsPrimitive()) })
	reg("Class", "getComponentType()Ljava/lang/Class;", func(t *Thread, a []uint32) {
		t.Ret = 0
		if c := cls(a).Component; c != nil {
			t.Ret = uint64(c.Addr)
		}
	})
	reg("Class", "isInstance(Ljava/lang/Object;)Z", func(t *Thread, a []uint32) {
		t.Ret = b2i(a[1] != 0 && vm.ClassOf(a[1]).AssignableTo(cls(a)))
	})
	reg("Class", "isAssignableFrom(Ljava/lang/Class;)Z", func(t *Thread, a []uint32) {
		if a[1] == 0 {
			t.ThrowNPE("")
			return
		}
		t.Ret = b2i(vm.ClassFromObject(a[1]).AssignableTo(cls(a)))
	})
	reg("Class", "newInstance()Ljava/lang/Object;", func(t *Thread, a []uint32) {
		c := cls(a)
		ctor := FindMethod(c, "<init>", "()V")
		if c.IsAbstract() || c.IsArray() || c.IsPrimitive() || ctor == nil || ctor.Class != c {
			t.ThrowNew("Ljava/lang/InstantiationException;", c.Name)
			return
		}
		if caller := t.callerClass(); !classAccessible(caller, c) || !canAccess(caller, c, ctor.Access, 0, vm) {
			t.ThrowNew("Ljava/lang/IllegalAccessException;", c.Name+" is not accessible from "+caller.Name)
			return
		}
		if !t.EnsureInitialized(c) {
			return
		}
		o := t.NewObject(c)
		if o == 0 {
			return
		}
		t.PushRoot(o)
		defer t.PopRoots(1)
		if t.Invoke(ctor, []uint32{o}) {
			t.Ret = uint64(t.Root(0))
		}
	})
	// forName0(name, initialize, bootOnly): bootOnly for the boot class
	// loader (a null loader), which sees only the core library.
	reg("Class", "forName0(Ljava/lang/String;ZZ)Ljava/lang/Class;", func(t *Thread, a []uint32) {
		if a[0] == 0 {
			t.ThrowNPE("name == null")
			return
		}
		name := vm.GoString(a[0])
		if !validBinaryName(name) {
			t.ThrowNew("Ljava/lang/ClassNotFoundException;", "Invalid name: "+name)
			return
		}
		desc := name
		if !strings.HasPrefix(name, "[") {
			desc = "L" + name + ";"
		}
		c := vm.loadClass(strings.ReplaceAll(desc, ".", "/"))
		if c == nil || a[2] != 0 && !c.Boot {
			t.ThrowNew("Ljava/lang/ClassNotFoundException;", name)
			return
		}
		if a[1] == 0 || t.EnsureInitialized(c) {
			t.Ret = uint64(c.Addr)
		}
	})
	reg("Class", "isBootClass()Z", func(t *Thread, a []uint32) { t.Ret = b2i(cls(a).Boot) })
	reg("Class", "enumValues0()[Ljava/lang/Object;", func(t *Thread, a []uint32) {
		c := cls(a)
		t.Ret = 0
		if c.Super == nil || c.Super.Descriptor != "Ljava/lang/Enum;" {
			return
		}
		m := FindMethod(c, "values", "()["+c.Descriptor)
		if m == nil || !m.IsStatic() || !t.EnsureInitialized(c) {
			return
		}
		t.Invoke(m, nil)
	})

	// java.lang.String
	reg("String", "intern()Ljava/lang/String;", func(t *Thread, a []uint32) {
		s := vm.GoString(a[0])
		if c, ok := vm.interned[s]; ok {
			t.Ret = uint64(c)
			return
		}
		vm.interned[s] = a[0]
		t.Ret = uint64(a[0])
	})

	// java.lang.System and Runtime
	reg("System", "arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V", func(t *Thread, a []uint32) {
		t.arraycopy(a[0], int32(a[1]), a[2], int32(a[3]), int32(a[4]))
	})
	n["Ldalvik/system/VMDebug;->threadCpuTimeNanos()J"] = func(t *Thread, a []uint32) {
		t.Ret = uint64(t.threadCPUTime())
	}
	reg("System", "nanoTime()J", func(t *Thread, a []uint32) {
		if t.VM.Hooks.VirtualTime {
			t.Ret = uint64(t.VM.Now())
			return
		}
		t.Ret = uint64(clock.Now())
	})
	reg("System", "currentTimeMillis()J", func(t *Thread, a []uint32) { t.Ret = uint64(time.Now().UnixMilli()) })
	reg("System", "identityHashCode(Ljava/lang/Object;)I", func(t *Thread, a []uint32) { t.Ret = uint64(uint32(vm.IdentityHash(a[0]))) })
	reg("System", "exit0(I)V", func(t *Thread, a []uint32) { t.Exit(int(int32(a[0])) & 0xff) })
	reg("System", "gc()V", func(t *Thread, a []uint32) { vm.GC() })
	reg("System", "vmProperties()[Ljava/lang/String;", func(t *Thread, a []uint32) { t.Ret = uint64(t.newStringArray(vm.vmProperties())) })
	reg("Runtime", "freeMemory()J", func(t *Thread, a []uint32) { t.Ret = vm.GCHeap.FreeMemory() })
	reg("Runtime", "totalMemory()J", func(t *Thread, a []uint32) { t.Ret = vm.GCHeap.TotalMemory() })
	reg("Runtime", "maxMemory()J", func(t *Thread, a []uint32) { t.Ret = vm.GCHeap.GrowthLimit() })
	reg("Runtime", "availableProcessors()I", func(t *Thread, a []uint32) { t.Ret = uint64(goruntime.NumCPU()) })

	// java.lang.Math (and StrictMath, which delegates to it): fdlibm's
	// results, which StrictMath specifies; ART's Math (bionic's libm)
	// mostly agrees.
	m1 := map[string]func(float64) float64{
		"sin": fdlibm.Sin, "cos": fdlibm.Cos, "tan": fdlibm.Tan, "asin": fdlibm.Asin, "acos": fdlibm.Acos, "atan": fdlibm.Atan,
		"exp": fdlibm.Exp, "log": fdlibm.Log, "log10": fdlibm.Log10, "sqrt": math.Sqrt, "cbrt": fdlibm.Cbrt,
		"sinh": fdlibm.Sinh, "cosh": fdlibm.Cosh, "tanh": fdlibm.Tanh, "expm1": fdlibm.Expm1, "log1p": fdlibm.Log1p,
		"floor": math.Floor, "ceil": math.Ceil, "rint": math.RoundToEven,
	}
	for name, f := range m1 {
		reg("Math", name+"(D)D", func(t *Thread, a []uint32) { t.Ret = math.Float64bits(f(dbl(a, 0))) })
	}
	m2 := map[string]func(float64, float64) float64{
		"atan2": fdlibm.Atan2, "pow": fdlibm.Pow, "hypot": fdlibm.Hypot, "IEEEremainder": math.Remainder,
	}
	for name, f := range m2 {
		reg("Math", name+"(DD)D", func(t *Thread, a []uint32) { t.Ret = math.Float64bits(f(dbl(a, 0), dbl(a, 2))) })
	}

	// java.lang.Float and Double
	reg("Float", "floatToRawIntBits(F)I", func(t *Thread, a []uint32) { t.Ret = uint64(a[0]) })
	reg("Float", "intBitsToFloat(I)F", func(t *Thread, a []uint32) { t.Ret = uint64(a[0]) })
	reg("Double", "doubleToRawLongBits(D)J", func(t *Thread, a []uint32) { t.Ret = uint64(long(a, 0)) })
	reg("Double", "longBitsToDouble(J)D", func(t *Thread, a []uint32) { t.Ret = uint64(long(a, 0)) })
	reg("Float", "toString(F)Ljava/lang/String;", func(t *Thread, a []uint32) {
		t.Ret = uint64(t.NewString(JavaFloatString(float64(math.Float32frombits(a[0])), 32)))
	})
	reg("Double", "toString(D)Ljava/lang/String;", func(t *Thread, a []uint32) {
		t.Ret = uint64(t.NewString(JavaFloatString(dbl(a, 0), 64)))
	})
	parse := func(t *Thread, s uint32, bits int) (float64, bool) {
		if s == 0 {
			t.ThrowNPE("")
			return 0, false
		}
		str := vm.GoString(s)
		f, ok := parseJavaFloat(str, bits)
		if !ok {
			msg := "For input string: \"" + str + "\""
			if strings.TrimSpace(str) == "" {
				msg = "empty String"
			}
			t.ThrowNew("Ljava/lang/NumberFormatException;", msg)
		}
		return f, ok
	}
	reg("Float", "parseFloat(Ljava/lang/String;)F", func(t *Thread, a []uint32) {
		if f, ok := parse(t, a[0], 32); ok {
			t.Ret = uint64(math.Float32bits(float32(f)))
		}
	})
	reg("Double", "parseDouble(Ljava/lang/String;)D", func(t *Thread, a []uint32) {
		if f, ok := parse(t, a[0], 64); ok {
			t.Ret = math.Float64bits(f)
		}
	})

	// java.lang.Thread
	reg("Thread", "currentThread()Ljava/lang/Thread;", func(t *Thread, a []uint32) { t.Ret = uint64(t.Obj) })
	reg("Thread", "start0()V", func(t *Thread, a []uint32) { t.StartThread(a[0]) })
	reg("Thread", "sleep(JI)V", func(t *Thread, a []uint32) {
		ms, ns := long(a, 0), int32(a[2])
		if ms < 0 {
			t.ThrowNew("Ljava/lang/IllegalArgumentException;", "millis < 0: "+strconv.FormatInt(ms, 10))
			return
		}
		// t.sleep(0) waits for a wake-up only (Object.wait(0)'s meaning);
		// sleep(0) is a yield.
		d := time.Duration(math.MaxInt64) // about 292 years: forever
		if ms < int64(d/time.Millisecond) {
			d = time.Duration(ms)*time.Millisecond + time.Duration(ns)
		}
		if d <= 0 {
			t.Yield()
		} else if !t.interrupted {
			select {
			case <-t.wake:
			default:
			}
			t.sleep(d, true)
		}
		if t.interrupted {
			t.interrupted = false
			t.ThrowNew("Ljava/lang/InterruptedException;", "")
		}
	})
	reg("Thread", "yield()V", func(t *Thread, a []uint32) { t.Yield() })
	reg("Thread", "isAlive()Z", func(t *Thread, a []uint32) { t.Ret = b2i(vm.threadOf(a[0]) != nil) })
	reg("Thread", "interrupt0()V", func(t *Thread, a []uint32) {
		if o := vm.threadOf(a[0]); o != nil {
			o.interrupted = true
			select {
			case o.wake <- struct{}{}:
			default:
			}
		}
	})
	reg("Thread", "isInterrupted0(Z)Z", func(t *Thread, a []uint32) {
		o := vm.threadOf(a[0])
		t.Ret = 0
		if o != nil {
			t.Ret = b2i(o.interrupted)
			if a[1] != 0 {
				o.interrupted = false
			}
		}
	})
	reg("Thread", "getThreads0()[Ljava/lang/Thread;", func(t *Thread, a []uint32) { t.Ret = uint64(t.liveThreads()) })
	reg("Thread", "getStackTrace0()[Ljava/lang/StackTraceElement;", func(t *Thread, a []uint32) {
		t.Ret = 0
		if o := vm.threadOf(a[0]); o != nil {
			// o's frames cannot change: it runs Java code only while
			// holding the global lock, which t holds.
			if bt := t.framesBacktrace(o.Frames); bt != 0 {
				t.Ret = uint64(t.stackTrace(bt))
			}
		}
	})

	n["Ljava/lang/ref/Reference;->waitForPending()Ljava/lang/ref/Reference;"] = func(t *Thread, a []uint32) { t.Ret = uint64(t.waitForPending()) }

	// java.lang.Throwable
	reg("Throwable", "nativeFillInStackTrace()Ljava/lang/Object;", func(t *Thread, a []uint32) { t.Ret = uint64(t.backtrace()) })
	reg("Throwable", "nativeGetStackTrace(Ljava/lang/Object;)[Ljava/lang/StackTraceElement;", func(t *Thread, a []uint32) {
		t.Ret = uint64(t.stackTrace(a[0]))
	})

	// java.lang.reflect.Array
	n["Ljava/lang/reflect/Array;->newArray(Ljava/lang/Class;I)Ljava/lang/Object;"] = func(t *Thread, a []uint32) {
		c := vm.ClassFromObject(a[0])
		if c.Prim == 'V' {
			t.ThrowNew("Ljava/lang/IllegalArgumentException;", "Can't allocate an array of void")
			return
		}
		t.Ret = uint64(t.NewArrayOf("["+c.Descriptor, int32(a[1])))
	}
	n["Ljava/lang/reflect/Array;->newMultiArray(Ljava/lang/Class;[I)Ljava/lang/Object;"] = func(t *Thread, a []uint32) {
		c := vm.ClassFromObject(a[0])
		k := vm.ArrayLength(a[1])
		dims := make([]int32, k)
		for i := range dims {
			dims[i] = int32(vm.Heap.U32(a[1] + 12 + uint32(4*i)))
		}
		if c.Prim == 'V' {
			t.ThrowNew("Ljava/lang/IllegalArgumentException;", "Can't allocate an array of void")
			return
		}
		t.Ret = uint64(t.newMultiArray(strings.Repeat("[", len(dims))+c.Descriptor, dims))
	}
	n["Ljava/lang/reflect/Array;->length(Ljava/lang/Object;)I"] = func(t *Thread, a []uint32) {
		t.Ret = uint64(uint32(vm.ArrayLength(a[0])))
	}

	registerReflectNatives(vm)
	registerFileNatives(vm)
	registerFinalizerNatives(vm)

	// java.io.FileOutputStream
	n["Ljava/io/FileOutputStream;->writeBytes(I[BII)V"] = func(t *Thread, a []uint32) {
		fd, arr, off, cnt := int32(a[0]), a[1], int32(a[2]), int32(a[3])
		if arr == 0 {
			t.ThrowNPE("")
			return
		}
		n := vm.ArrayLength(arr)
		if off < 0 || cnt < 0 || off > n-cnt {
			t.ThrowNew("Ljava/lang/ArrayIndexOutOfBoundsException;", "length="+strconv.Itoa(int(n))+"; regionStart="+strconv.Itoa(int(off))+"; regionLength="+strconv.Itoa(int(cnt)))
			return
		}
		b := vm.Heap.Bytes(arr+12+uint32(off), uint32(cnt))
		vm.outMu.Lock()
		defer vm.outMu.Unlock()
		switch fd {
		case 1:
			vm.stdout.Write(b)
		case 2:
			// System.out is buffered for speed; what it holds goes out
			// first, so a program whose stdout and stderr share a file
			// (as under ART's run-test) sees them in the order written.
			vm.stdout.Flush()
			vm.stderr.Write(b)
			vm.stderr.Flush()
		}
	}
}

// validBinaryName reports whether name is a class name Class.forName
// accepts: dotted ("java.lang.String", "Main$C") or an array descriptor
// with dots ("[I", "[[Ljava.lang.String;"); never "[V" or slashes.
func validBinaryName(name string) bool {
	dotted := func(n string) bool {
		if n == "" || strings.ContainsAny(n, "/;[") {
			return false
		}
		for _, part := range strings.Split(n, ".") {
			if part == "" {
				return false
			}
		}
		return true
	}
	elem := strings.TrimLeft(name, "[")
	switch dims := len(name) - len(elem); {
	case dims == 0:
		return dotted(name)
	case dims > 255:
		return false
	case len(elem) == 1:
		return strings.Contains("ZBSCIJFD", elem)
	default:
		return len(elem) > 2 && elem[0] == 'L' && elem[len(elem)-1] == ';' && dotted(elem[1:len(elem)-1])
	}
}

// threadOf finds the running thread of a java.lang.Thread object.
func (vm *VM) threadOf(obj uint32) *Thread {
	id := int(vm.Heap.U64(obj + vm.threadPeer))
	vm.threadsMu.Lock()
	defer vm.threadsMu.Unlock()
	for t := range vm.threads {
		if t.ID == id && t.alive && t.Obj == obj {
			return t
		}
	}
	return nil
}

// liveThreads returns a Thread[] of the running threads that have a
// java.lang.Thread object, ordered by thread id (0 if out of memory).
func (t *Thread) liveThreads() uint32 {
	vm := t.VM
	vm.threadsMu.Lock()
	var objs []*Thread
	for o := range vm.threads {
		if o.alive && o.Obj != 0 {
			objs = append(objs, o)
		}
	}
	vm.threadsMu.Unlock()
	sort.Slice(objs, func(i, j int) bool { return objs[i].ID < objs[j].ID })
	arr := t.NewArrayOf("[Ljava/lang/Thread;", int32(len(objs)))
	if arr == 0 {
		return 0
	}
	for i, o := range objs {
		vm.storeElem(arr, i, o.Obj)
	}
	return arr
}

// clone implements Object.clone for arrays and Cloneable objects.
func (t *Thread) clone(a uint32) uint32 {
	vm := t.VM
	c := vm.ClassOf(a)
	if !c.IsArray() && !vm.InstanceOf(a, "Ljava/lang/Cloneable;") {
		t.ThrowNew("Ljava/lang/CloneNotSupportedException;", "Class "+c.Name+" doesn't implement Cloneable")
		return 0
	}
	size := vm.SizeOf(a)
	t.PushRoot(a)
	kind := gc.Movable
	if c.IsArray() && c.Component.IsPrimitive() {
		kind = gc.LargeEligible
	}
	o := t.alloc(c, size, kind)
	a = t.Root(0)
	t.PopRoots(1)
	if o == 0 {
		return 0
	}
	copy(vm.Heap.Bytes(o+8, size-8), vm.Heap.Bytes(a+8, size-8))
	vm.GCHeap.RefsStored(o)
	return o
}

// arraycopy implements System.arraycopy with ART's checks and messages.
func (t *Thread) arraycopy(src uint32, sp int32, dst uint32, dp int32, n int32) {
	vm := t.VM
	if src == 0 {
		t.ThrowNPE("src == null")
		return
	}
	if dst == 0 {
		t.ThrowNPE("dst == null")
		return
	}
	sc, dc := vm.ClassOf(src), vm.ClassOf(dst)
	if !sc.IsArray() {
		t.ThrowNew("Ljava/lang/ArrayStoreException;", "source of type "+sc.PrettyName()+" is not an array")
		return
	}
	if !dc.IsArray() {
		t.ThrowNew("Ljava/lang/ArrayStoreException;", "destination of type "+dc.PrettyName()+" is not an array")
		return
	}
	sl, dl := vm.ArrayLength(src), vm.ArrayLength(dst)
	if sp < 0 || dp < 0 || n < 0 || sp > sl-n || dp > dl-n {
		t.ThrowNew("Ljava/lang/ArrayIndexOutOfBoundsException;", "src.length="+strconv.Itoa(int(sl))+" srcPos="+strconv.Itoa(int(sp))+
			" dst.length="+strconv.Itoa(int(dl))+" dstPos="+strconv.Itoa(int(dp))+" length="+strconv.Itoa(int(n)))
		return
	}
	scp, dcp := sc.Component, dc.Component
	if scp.IsPrimitive() || dcp.IsPrimitive() {
		if scp != dcp {
			t.ThrowNew("Ljava/lang/ArrayStoreException;", "Incompatible types: src="+sc.PrettyName()+", dst="+dc.PrettyName())
			return
		}
		sh := sc.ElemShift
		d0 := ArrayData(sc)
		copy(vm.Heap.Bytes(dst+d0+uint32(dp)<<sh, uint32(n)<<sh), vm.Heap.Bytes(src+d0+uint32(sp)<<sh, uint32(n)<<sh))
		return
	}
	if sc.AssignableTo(dc) {
		copy(vm.Heap.Bytes(dst+12+uint32(dp)*4, uint32(n)*4), vm.Heap.Bytes(src+12+uint32(sp)*4, uint32(n)*4))
		vm.GCHeap.RefsStored(dst)
		return
	}
	for i := int32(0); i < n; i++ {
		e := vm.Heap.U32(src + 12 + uint32(sp+i)*4)
		if e != 0 && !vm.ClassOf(e).AssignableTo(dcp) {
			t.ThrowNew("Ljava/lang/ArrayStoreException;", "source["+strconv.Itoa(int(sp+i))+"] of type "+vm.ClassOf(e).PrettyName()+
				" cannot be stored in destination array of type "+dc.PrettyName())
			return
		}
		vm.storeElem(dst, int(dp+i), e)
	}
}

// newMultiArray allocates an array of type desc with the outer
// dimension dims[0], each element an array with the remaining dimensions.
func (t *Thread) newMultiArray(desc string, dims []int32) uint32 {
	arr := t.NewArrayOf(desc, dims[0])
	if arr == 0 || len(dims) == 1 {
		return arr
	}
	t.PushRoot(arr)
	defer t.PopRoots(1)
	for i := int32(0); i < dims[0]; i++ {
		sub := t.newMultiArray(desc[1:], dims[1:])
		if sub == 0 {
			return 0
		}
		t.VM.storeElem(t.Root(0), int(i), sub)
	}
	return t.Root(0)
}

// NativeNames lists the native methods the VM implements, in the
// "Lpkg/Cls;->name(sig)" form of core.Natives.
func NativeNames() []string {
	vm := &VM{natives: map[string]NativeFunc{}}
	registerNatives(vm)
	names := make([]string, 0, len(vm.natives))
	for n := range vm.natives {
		names = append(names, n)
	}
	return names
}
