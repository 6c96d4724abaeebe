package runtime

import (
	"strconv"
	"unicode/utf8"

	"github.com/droidprof/droidprof/vm/gc"
)

// ClassOf returns the class of the object at a (not null).
func (vm *VM) ClassOf(a uint32) *Class {
	h := vm.Heap
	return vm.classes[h.U32(h.U32(a)+8)]
}

// ClassFromObject returns the class a java.lang.Class object stands for.
func (vm *VM) ClassFromObject(a uint32) *Class { return vm.classes[vm.Heap.U32(a+8)] }

// InstanceOf reports whether the object at a (may be null: false) is an
// instance of the class named by desc.
func (vm *VM) InstanceOf(a uint32, desc string) bool {
	c := vm.byDesc[desc]
	return a != 0 && c != nil && vm.ClassOf(a).AssignableTo(c)
}

// ArrayData returns the offset of element 0 in arrays of class c.
func ArrayData(c *Class) uint32 {
	if c.ElemShift == 3 {
		return 16
	}
	return 12
}

// ArrayLength returns the length of the array at a.
func (vm *VM) ArrayLength(a uint32) int32 { return int32(vm.Heap.U32(a + arrayLength)) }

// SizeOf is the size in bytes of the object at a (unaligned).
func (vm *VM) SizeOf(a uint32) uint32 {
	c := vm.ClassOf(a)
	switch {
	case c.IsArray():
		return ArrayData(c) + uint32(vm.ArrayLength(a))<<c.ElemShift
	case c == vm.classClass:
		return classObjectHeader + vm.ClassFromObject(a).StaticSize
	default:
		return c.ObjectSize
	}
}

// alloc gets zeroed memory for an object of class c, collecting and
// growing the heap as ART does and throwing OutOfMemoryError when even
// a full collection that clears soft references leaves no room. The
// caller must not hold unrooted references across it: a collection may
// free or move them.
func (t *Thread) alloc(c *Class, size uint32, kind gc.AllocKind) uint32 {
	vm := t.VM
	if vm.stress && vm.sealed && (vm.stressAll || vm.newStressStack(t)) {
		vm.GCHeap.Collect(gc.CauseStress)
	}
	a := vm.GCHeap.Alloc(size, kind)
	if a == 0 {
		t.throwOOM(uint64(size))
		return 0
	}
	vm.Heap.SetU32(a, c.Addr)
	if hk := vm.Hooks.Alloc; hk != nil {
		var site Site
		if n := len(t.Frames); n > 0 {
			site = Site{Method: t.Frames[n-1].Method, PC: t.Frames[n-1].PC}
		}
		hk(t, site, c, heapAlign(size), a)
	}
	return a
}

// stressFrames is how much of the call stack tells gcstress's
// allocation sites apart, as ART's (16 native frames).
const stressFrames = 16

// newStressStack reports whether t's call stack (its top stressFrames
// methods and dex pcs) is new to gcstress, and remembers it: ART's
// gcstress collects before every allocation whose backtrace it has not
// seen, so each allocation site in each calling context meets a
// collection once, without a collection per allocation.
func (vm *VM) newStressStack(t *Thread) bool {
	h := uint64(14695981039346656037) // FNV-1a
	mix := func(v uint64) {
		for i := 0; i < 8; i++ {
			h ^= v & 0xff
			h *= 1099511628211
			v >>= 8
		}
	}
	for i, n := len(t.Frames)-1, 0; i >= 0 && n < stressFrames; i, n = i-1, n+1 {
		f := t.Frames[i]
		id := -1
		if f.Method != nil {
			id = f.Method.ID
		}
		mix(uint64(id)<<32 | uint64(uint32(f.PC)))
	}
	if vm.stressSeen == nil {
		vm.stressSeen = map[uint64]bool{}
	}
	if vm.stressSeen[h] {
		return false
	}
	vm.stressSeen[h] = true
	return true
}

func heapAlign(n uint32) uint32 { return (n + 7) &^ 7 }

func (t *Thread) throwOOM(size uint64) {
	vm := t.VM
	msg := vm.GCHeap.OOMMessage(size)
	if t.inOOM || vm.oome == 0 {
		t.Exc = vm.oome
		if t.Exc == 0 {
			panic(vmError("out of memory before the VM could preallocate OutOfMemoryError: " + msg))
		}
		return
	}
	t.inOOM = true
	t.ThrowNew("Ljava/lang/OutOfMemoryError;", msg)
	t.inOOM = false
	if t.Exc == 0 || vm.ClassOf(t.Exc).Name != "java.lang.OutOfMemoryError" {
		t.Exc = vm.oome
	}
}

// NewObject allocates an instance of c (already initialised) or returns 0
// with OutOfMemoryError pending. An instance of a class that overrides
// Object.finalize is registered for finalization, as ART does when it
// allocates one.
func (t *Thread) NewObject(c *Class) uint32 {
	a := t.alloc(c, c.ObjectSize, gc.Movable)
	if a == 0 || !t.VM.finalizable(c) {
		return a
	}
	return t.registerFinalizer(a)
}

// NewArray allocates an array of class c with n elements; n < 0 throws
// NegativeArraySizeException.
func (t *Thread) NewArray(c *Class, n int32) uint32 {
	if n < 0 {
		t.ThrowNew("Ljava/lang/NegativeArraySizeException;", strconv.Itoa(int(n)))
		return 0
	}
	size := uint64(ArrayData(c)) + uint64(n)<<c.ElemShift
	if size > t.VM.GCHeap.GrowthLimit() {
		t.throwOOM(size)
		return 0
	}
	kind := gc.Movable
	if c.Component.IsPrimitive() {
		kind = gc.LargeEligible
	}
	a := t.alloc(c, uint32(size), kind)
	if a != 0 {
		t.VM.Heap.SetU32(a+arrayLength, uint32(n))
	}
	return a
}

// NewArrayOf allocates an array whose descriptor is desc.
func (t *Thread) NewArrayOf(desc string, n int32) uint32 {
	c := t.VM.loadClass(desc)
	if c == nil {
		t.ThrowNew("Ljava/lang/NoClassDefFoundError;", desc)
		return 0
	}
	return t.NewArray(c, n)
}

// NewString makes a java.lang.String holding s (UTF-8, where unpaired
// surrogates may appear in their 3-byte form).
func (t *Thread) NewString(s string) uint32 {
	return t.NewStringUTF16(utf16Of(s))
}

// NewStringUTF16 makes a String from UTF-16 code units.
func (t *Thread) NewStringUTF16(u []uint16) uint32 {
	vm := t.VM
	arr := t.NewArray(vm.charArray, int32(len(u)))
	if arr == 0 {
		return 0
	}
	h := vm.Heap
	if len(u) > 0 {
		b := h.Bytes(arr+12, uint32(2*len(u)))
		for i, c := range u {
			b[2*i], b[2*i+1] = byte(c), byte(c>>8)
		}
	}
	t.PushRoot(arr)
	s := t.NewObject(vm.stringClass)
	if s == 0 {
		t.PopRoots(1)
		return 0
	}
	vm.StoreRef(s, s+vm.stringValue, t.Root(0))
	t.PopRoots(1)
	return s
}

// StringUTF16 returns the code units of the String at s.
func (vm *VM) StringUTF16(s uint32) []uint16 {
	arr := vm.Heap.U32(s + vm.stringValue)
	if arr == 0 {
		return nil
	}
	n := vm.ArrayLength(arr)
	u := make([]uint16, n)
	b := vm.Heap.Bytes(arr+12, uint32(2*n))
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return u
}

// GoString converts the String at s to Go (UTF-8; an unpaired surrogate
// keeps its 3-byte form). Null gives "null".
func (vm *VM) GoString(s uint32) string {
	if s == 0 {
		return "null"
	}
	return stringOf(vm.StringUTF16(s))
}

// Intern returns the canonical String object for s, as String.intern
// and string literals do. Interned strings are never collected.
func (vm *VM) Intern(s string) uint32 {
	if a, ok := vm.interned[s]; ok {
		return a
	}
	t := vm.current
	var a uint32
	if t == nil || vm.booting {
		a = vm.imageString(s)
	} else {
		a = t.NewString(s)
		if a == 0 {
			return 0
		}
	}
	vm.interned[s] = a
	return a
}

// imageString allocates a String in the image space (boot literals).
func (vm *VM) imageString(s string) uint32 {
	u := utf16Of(s)
	h := vm.Heap
	arr, ok := vm.GCHeap.AllocImage(12 + uint32(2*len(u)))
	str, ok2 := vm.GCHeap.AllocImage(vm.stringClass.ObjectSize)
	if !ok || !ok2 {
		panic(vmError("image space full"))
	}
	h.SetU32(arr, vm.charArray.Addr)
	h.SetU32(arr+arrayLength, uint32(len(u)))
	for i, c := range u {
		h.SetU16(arr+12+uint32(2*i), c)
	}
	h.SetU32(str, vm.stringClass.Addr)
	h.SetU32(str+vm.stringValue, arr)
	return str
}

// utf16Of converts UTF-8 (with 3-byte surrogates allowed) to UTF-16.
func utf16Of(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			u = append(u, uint16(c))
			i++
			continue
		}
		// A 3-byte encoded surrogate (ED A0..BF xx) is invalid UTF-8 to
		// Go but is how MUTF-8 and our strings carry lone surrogates.
		if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 {
			u = append(u, uint16(c&0x0f)<<12|uint16(s[i+1]&0x3f)<<6|uint16(s[i+2]&0x3f))
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3ff)))
		} else {
			u = append(u, uint16(r))
		}
		i += n
	}
	return u
}

// stringOf converts UTF-16 to UTF-8, keeping unpaired surrogates in
// their 3-byte form so that utf16Of gives the same units back.
func stringOf(u []uint16) string {
	b := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		switch {
		case c < 0x80:
			b = append(b, byte(c))
			continue
		case c >= 0xD800 && c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000:
			r := 0x10000 + (c-0xD800)<<10 + rune(u[i+1]-0xDC00)
			b = utf8.AppendRune(b, r)
			i++
			continue
		case c >= 0xD800 && c < 0xE000:
			b = append(b, 0xE0|byte(c>>12), 0x80|byte(c>>6)&0x3f, 0x80|byte(c)&0x3f)
			continue
		}
		b = utf8.AppendRune(b, c)
	}
	return string(b)
}
