package runtime

import (
	"fmt"
	"strconv"
	"strings"
)

// vmError is an internal failure of the VM (not a Java exception); it
// unwinds the whole VM and becomes Run's error.
type vmError string

func (e vmError) Error() string { return "vm: " + string(e) }

// Throw makes the object at exc the pending exception.
func (t *Thread) Throw(exc uint32) { t.Exc = exc }

// ThrowNew creates an exception of class desc with message msg (none if
// msg is empty) and makes it pending.
func (t *Thread) ThrowNew(desc, msg string) {
	t.throwNew(desc, msg, 0, true)
}

// ThrowNewCause creates an exception of class desc with a cause.
func (t *Thread) ThrowNewCause(desc string, cause uint32) {
	t.throwNew(desc, "", cause, false)
}

func (t *Thread) throwNew(desc, msg string, cause uint32, useMsg bool) {
	vm := t.VM
	t.Exc = 0
	c := vm.loadClass(desc)
	if c == nil {
		panic(vmError("core library lacks " + desc + " (message: " + msg + ")"))
	}
	if !t.EnsureInitialized(c) {
		return
	}
	t.PushRoot(cause)
	defer t.PopRoots(1)
	var m *Method
	var args []uint32
	switch {
	case cause != 0:
		m = FindMethod(c, "<init>", "(Ljava/lang/Throwable;)V")
	case useMsg && msg != "":
		m = FindMethod(c, "<init>", "(Ljava/lang/String;)V")
	default:
		m = FindMethod(c, "<init>", "()V")
	}
	if m == nil || m.Class != c {
		panic(vmError(fmt.Sprintf("core library: %s lacks the constructor the VM needs (message %q)", desc, msg)))
	}
	var s uint32
	if useMsg && msg != "" {
		if s = t.NewString(msg); s == 0 {
			return
		}
	}
	t.PushRoot(s)
	obj := t.NewObject(c)
	// A moving collection may have moved the message and the cause.
	s, cause = t.Root(0), t.Root(1)
	t.PopRoots(1)
	if obj == 0 {
		return
	}
	t.PushRoot(obj)
	defer t.PopRoots(1)
	args = []uint32{obj}
	if cause != 0 {
		args = append(args, cause)
	} else if s != 0 {
		args = append(args, s)
	}
	if !t.Invoke(m, args) {
		return
	}
	t.Exc = t.Root(0)
}

// ThrowNPE throws NullPointerException with ART's message for what was
// being done ("Attempt to invoke virtual method '...' on a null object
// reference" and the like).
func (t *Thread) ThrowNPE(what string) {
	t.ThrowNew("Ljava/lang/NullPointerException;", what)
}

// NPEInvoke is the NullPointerException message for calling m on null.
func NPEInvoke(kind string, m *Method) string {
	return "Attempt to invoke " + kind + " method '" + prettyMethod(m) + "' on a null object reference"
}

// NPEField is the message for reading or writing f of null.
func NPEField(read bool, f *Field) string {
	verb := "write to"
	if read {
		verb = "read from"
	}
	return "Attempt to " + verb + " field '" + prettyType(f.Type) + " " + f.Class.Name + "." + f.Name + "' on a null object reference"
}

// ThrowAIOOBE throws ArrayIndexOutOfBoundsException like ART.
func (t *Thread) ThrowAIOOBE(length, index int32) {
	t.ThrowNew("Ljava/lang/ArrayIndexOutOfBoundsException;", "length="+strconv.Itoa(int(length))+"; index="+strconv.Itoa(int(index)))
}

// PrettyName is the class's name as ART's exception messages write it:
// Class.getName's form, with arrays as the component's name followed by
// "[]" ("java.lang.String[]", "int[][]").
func (c *Class) PrettyName() string {
	d := c.Descriptor
	dims := 0
	for dims < len(d) && d[dims] == '[' {
		dims++
	}
	if dims == 0 {
		return c.Name
	}
	return javaName(d[dims:]) + strings.Repeat("[]", dims)
}

// ThrowClassCast throws ClassCastException for casting an object of
// class from to to.
func (t *Thread) ThrowClassCast(from, to *Class) {
	t.ThrowNew("Ljava/lang/ClassCastException;", from.PrettyName()+" cannot be cast to "+to.PrettyName())
}

// backtrace captures the call stack (without the frames of the
// exception's own constructors) as a long[] of method id << 32 | pc.
func (t *Thread) backtrace() uint32 {
	vm := t.VM
	n := len(t.Frames)
	// Skip fillInStackTrace and the Throwable constructors running on
	// the object being created.
	skip := 0
	for skip < n {
		m := t.Frames[n-1-skip].Method
		if m.Name == "fillInStackTrace" || m.Name == "nativeFillInStackTrace" || (m.Name == "<init>" && m.Class.SubclassOf(vm.throwableClass)) {
			skip++
			continue
		}
		break
	}
	return t.framesBacktrace(t.Frames[:n-skip])
}

// framesBacktrace records frames (of t or of another thread) innermost
// first, as backtrace does.
func (t *Thread) framesBacktrace(frames []Frame) uint32 {
	vm := t.VM
	arr := t.NewArray(vm.longArray, int32(len(frames)))
	if arr == 0 {
		return 0
	}
	for i := range frames {
		f := frames[len(frames)-1-i]
		vm.Heap.SetU64(arr+16+uint32(8*i), uint64(f.Method.ID)<<32|uint64(uint32(f.PC)))
	}
	return arr
}

// stackTrace turns a backtrace into a StackTraceElement[].
func (t *Thread) stackTrace(bt uint32) uint32 {
	vm := t.VM
	n := int32(0)
	if bt != 0 {
		n = vm.ArrayLength(bt)
	}
	t.PushRoot(bt)
	defer t.PopRoots(1)
	arr := t.NewArray(vm.stackTraceArray, n)
	if arr == 0 {
		return 0
	}
	t.PushRoot(arr)
	defer t.PopRoots(1)
	ctor := FindMethod(vm.stackTraceClass, "<init>", "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;I)V")
	if ctor == nil {
		panic(vmError("core library: StackTraceElement(String, String, String, int) missing"))
	}
	for i := int32(0); i < n; i++ {
		w := vm.Heap.U64(t.Root(1) + 16 + uint32(8*i))
		m := vm.Methods[w>>32]
		pc := int(uint32(w))
		line := m.Line(pc)
		if m.Native != nil {
			line = -2
		}
		var file uint32
		if m.Class.Def != nil && m.Class.Def.SourceFile != 0xffffffff {
			file = t.NewString(m.Class.File.F.Strings[m.Class.Def.SourceFile])
		}
		t.PushRoot(file)
		cls := t.NewString(m.Class.Name)
		t.PushRoot(cls)
		name := t.NewString(m.Name)
		t.PushRoot(name)
		e := t.NewObject(vm.stackTraceClass)
		if e == 0 || name == 0 || cls == 0 {
			t.PopRoots(3)
			return 0
		}
		// Re-read what a moving collection may have moved.
		name, cls, file = t.Root(0), t.Root(1), t.Root(2)
		t.PushRoot(e)
		if !t.Invoke(ctor, []uint32{e, cls, name, file, uint32(int32(line))}) {
			t.PopRoots(4)
			return 0
		}
		vm.storeElem(t.Root(4), int(i), t.Root(0))
		t.PopRoots(4)
	}
	return arr
}

// reportUncaught prints an uncaught exception the way the thread's
// dispatchUncaughtException does, falling back to a plain line when that
// fails.
func (t *Thread) reportUncaught(exc uint32) {
	vm := t.VM
	t.Exc = 0
	if m := FindMethod(vm.threadClass, "dispatchUncaughtException", "(Ljava/lang/Throwable;)V"); m != nil && t.Obj != 0 {
		t.PushRoot(exc)
		ok := t.Invoke(m, []uint32{t.Obj, exc})
		exc = t.Root(0) // as a moving collection left it
		t.PopRoots(1)
		if ok {
			return
		}
		t.Exc = 0
	}
	// The Java handler failed (out of memory, say): say what we can
	// without allocating.
	what := vm.ClassOf(exc).Name
	for k := vm.ClassOf(exc); k != nil; k = k.Super {
		if k == vm.throwableClass {
			for _, f := range k.Fields {
				if f.Name == "detailMessage" && !f.Static {
					if s := vm.Heap.U32(exc + f.Offset); s != 0 {
						what += ": " + vm.GoString(s)
					}
				}
			}
		}
	}
	vm.outMu.Lock()
	vm.stdout.Flush()
	fmt.Fprintf(vm.stderr, "Exception in thread \"%s\" %s\n", vm.threadNameOf(t), what)
	vm.outMu.Unlock()
}

func (vm *VM) threadNameOf(t *Thread) string {
	if t.Obj == 0 {
		return "main"
	}
	return vm.GoString(vm.Heap.U32(t.Obj + vm.threadName))
}
