package engine

import (
	"bytes"

	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/runtime"
)

// intrinsic runs a core-library method's body in Go in place of a call
// of it, reading the call's arguments from the caller's slots. It
// returns handled false for every case it does not cover, and then the
// site makes the real call: so every exception (a null receiver, an
// index out of range) and its stack trace comes from the method itself,
// and an intrinsic only ever does what the method would have returned.
type intrinsic func(f *frame, args []arg) (ret uint64, handled bool)

// intrinsicMakers build the intrinsics of boot class path methods, by
// class descriptor, name and signature, for the method as loaded (its
// class's field offsets); nil when the class is not as expected.
// caffeine-string's calls are most of these (String.length, charAt,
// equals, compareTo, Math.min from compareTo; StringBuilder.append of a
// char or a String, four to seven calls each in the core library):
// tiny bodies for which the calls cost more than the work. None of them
// allocates, calls or may collect. scimark-montecarlo's are Random.next,
// four per sample (through nextDouble), whose monitor is elided.
var intrinsicMakers = map[string]func(vm *runtime.VM, m *runtime.Method) intrinsic{
	"Ljava/lang/String;->length()I":                                                  stringIntrinsic(strLength),
	"Ljava/lang/String;->isEmpty()Z":                                                 stringIntrinsic(strIsEmpty),
	"Ljava/lang/String;->charAt(I)C":                                                 stringIntrinsic(strCharAt),
	"Ljava/lang/String;->equals(Ljava/lang/Object;)Z":                                stringIntrinsic(strEquals),
	"Ljava/lang/String;->compareTo(Ljava/lang/String;)I":                             stringIntrinsic(strCompareTo),
	"Ljava/lang/StringBuilder;->append(C)Ljava/lang/StringBuilder;":                  builderIntrinsic(sbAppendChar),
	"Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;": builderIntrinsic(sbAppendString),
	"Ljava/util/Random;->next(I)I":                                                   randomNext,
	"Ljava/lang/Math;->min(II)I":                                                     staticIntrinsic(mathMin),
	"Ljava/lang/Math;->max(II)I":                                                     staticIntrinsic(mathMax),
}

// intrinsicFor returns the intrinsic of the resolved method m of a call
// site, or nil. Only when calls may be inlined (no method hook would
// miss the call: Engine.inlines).
func (e *Engine) intrinsicFor(vm *runtime.VM, m *runtime.Method) intrinsic {
	if e.noIntrinsics || !e.inlines(vm) || m == nil || m.Class == nil || !m.Class.Boot {
		return nil
	}
	mk := intrinsicMakers[m.Class.Descriptor+"->"+m.Name+m.Signature]
	if mk == nil {
		return nil
	}
	return mk(vm, m)
}

// touchBarriers are the barriers of frame.touch at the engine's level:
// the level's own (cached or not) and the check barrier's.
func (e *Engine) touchBarriers() uint8 {
	var b uint8
	switch {
	case e.cfg.Barriers == ssa.BarriersOff:
	case e.cfg.Barriers.Cached():
		b = barCached
	default:
		b = barMark
	}
	if e.cfg.CheckBarriers {
		b |= barShadow
	}
	return b
}

// touch runs paper 003's barrier on the object at a (not null) that the
// method an intrinsic stands for would access, when barriers are on:
// the bitmap then marks the same objects in each GC epoch as with the
// compiled method (whose barriers at a field, array or monitor access
// of each; not its counts: an intrinsic's barriers are never
// eliminated, and it runs one per object).
func (f *frame) touch(a uint32) {
	if f.touches != 0 && a != 0 {
		markBar(f, f.touches, a)
	}
}

// SetIntrinsics turns the intrinsics on (the default) or off; for
// measuring them and for tests comparing a site with and without.
func (e *Engine) SetIntrinsics(on bool) { e.noIntrinsics = !on }

// charData is the offset of element 0 of a char array.
const charData = 12

// strOp is a String method's body over the receiver's value array s and
// its length n.
type strOp func(f *frame, str *runtime.Class, value uint32, args []arg, s uint32, n int32) (uint64, bool)

// stringIntrinsic makes the intrinsic of a String method: the receiver
// must be a String (the class is final, so the call would run this very
// method) with its value array set, else the call is made.
func stringIntrinsic(op strOp) func(vm *runtime.VM, m *runtime.Method) intrinsic {
	return func(vm *runtime.VM, m *runtime.Method) intrinsic {
		str := m.Class
		value, ok := charArrayField(str, "value")
		if !ok || str.Access&dex.AccFinal == 0 {
			return nil
		}
		return func(f *frame, args []arg) (uint64, bool) {
			recv := f.r[args[0].slot]
			if recv == 0 || f.vm.ClassOf(recv) != str {
				return 0, false
			}
			s := f.h.U32(recv + value)
			if s == 0 {
				return 0, false
			}
			ret, ok := op(f, str, value, args, s, f.vm.ArrayLength(s))
			if ok {
				f.touch(recv) // each reads this or compares it
			}
			return ret, ok
		}
	}
}

// charArrayField is the offset of the instance field name of type char[]
// of c (declared by c or a superclass).
func charArrayField(c *runtime.Class, name string) (uint32, bool) {
	return instanceField(c, name, "[C")
}

// instanceField is the offset of the instance field name of type typ of
// c, declared by c or a superclass.
func instanceField(c *runtime.Class, name, typ string) (uint32, bool) {
	for ; c != nil; c = c.Super {
		for _, fl := range c.Fields {
			if fl.Name == name && !fl.Static && fl.Type == typ {
				return fl.Offset, true
			}
		}
	}
	return 0, false
}

func strLength(f *frame, _ *runtime.Class, _ uint32, _ []arg, s uint32, n int32) (uint64, bool) {
	f.touch(s)
	return uint64(uint32(n)), true
}

func strIsEmpty(f *frame, _ *runtime.Class, _ uint32, _ []arg, s uint32, n int32) (uint64, bool) {
	f.touch(s)
	if n == 0 {
		return 1, true
	}
	return 0, true
}

func strCharAt(f *frame, _ *runtime.Class, _ uint32, args []arg, s uint32, n int32) (uint64, bool) {
	i := int32(f.r[args[1].slot])
	if i < 0 || i >= n {
		return 0, false // StringIndexOutOfBoundsException, from charAt
	}
	f.touch(s)
	return uint64(f.h.U16(s + charData + 2*uint32(i))), true
}

func strEquals(f *frame, str *runtime.Class, value uint32, args []arg, s uint32, n int32) (uint64, bool) {
	recv, o := f.r[args[0].slot], f.r[args[1].slot]
	switch {
	case o == recv:
		return 1, true
	case o == 0 || f.vm.ClassOf(o) != str: // instanceof String: the class is final
		f.touch(o) // this == anObject reads both
		return 0, true
	}
	t := f.h.U32(o + value)
	if t == 0 {
		return 0, false
	}
	f.touch(o)
	f.touch(s)
	f.touch(t)
	if f.vm.ArrayLength(t) != n {
		return 0, true
	}
	if bytes.Equal(f.h.Bytes(s+charData, 2*uint32(n)), f.h.Bytes(t+charData, 2*uint32(n))) {
		return 1, true
	}
	return 0, true
}

func strCompareTo(f *frame, str *runtime.Class, value uint32, args []arg, s uint32, n int32) (uint64, bool) {
	o := f.r[args[1].slot]
	if o == 0 || f.vm.ClassOf(o) != str {
		return 0, false // NullPointerException, from compareTo
	}
	t := f.h.U32(o + value)
	if t == 0 {
		return 0, false
	}
	f.touch(o)
	f.touch(s)
	f.touch(t)
	m := f.vm.ArrayLength(t)
	k := min(n, m)
	a, b := f.h.Bytes(s+charData, 2*uint32(k)), f.h.Bytes(t+charData, 2*uint32(k))
	for i := 0; i < len(a); i += 2 {
		x, y := int32(a[i])|int32(a[i+1])<<8, int32(b[i])|int32(b[i+1])<<8
		if x != y {
			return uint64(uint32(x - y)), true
		}
	}
	return uint64(uint32(n - m)), true
}

// builderOp is a StringBuilder method's body over the receiver sb, its
// value array v (of length n) and the count of characters in it at
// offset count.
type builderOp func(f *frame, args []arg, str *runtime.Class, strValue uint32, sb, v uint32, n int32, count uint32) (uint64, bool)

// builderIntrinsic makes the intrinsic of a StringBuilder method (the
// class is final: the call would run this very method), which the call
// makes when the receiver is null or its value array is unset.
func builderIntrinsic(op builderOp) func(vm *runtime.VM, m *runtime.Method) intrinsic {
	return func(vm *runtime.VM, m *runtime.Method) intrinsic {
		sbc := m.Class
		value, ok1 := charArrayField(sbc, "value")
		count, ok2 := instanceField(sbc, "count", "I")
		str := stringClass(vm)
		if !ok1 || !ok2 || str == nil || sbc.Access&dex.AccFinal == 0 {
			return nil
		}
		strValue, ok := charArrayField(str, "value")
		if !ok {
			return nil
		}
		return func(f *frame, args []arg) (uint64, bool) {
			sb := f.r[args[0].slot]
			if sb == 0 || f.vm.ClassOf(sb) != sbc {
				return 0, false
			}
			v := f.h.U32(sb + value)
			if v == 0 {
				return 0, false
			}
			ret, ok := op(f, args, str, strValue, sb, v, f.vm.ArrayLength(v), sb+count)
			if ok {
				// each reads count and value, and stores into value
				f.touch(sb)
				f.touch(v)
			}
			return ret, ok
		}
	}
}

// stringClass is java.lang.String of the boot class path, or nil.
func stringClass(vm *runtime.VM) *runtime.Class {
	if c := vm.Class("Ljava/lang/String;"); c != nil && c.Boot {
		return c
	}
	return nil
}

// sbAppendChar is AbstractStringBuilder.append(char) when the character
// fits: value[count++] = c (else the call grows the array).
func sbAppendChar(f *frame, args []arg, _ *runtime.Class, _ uint32, sb, v uint32, n int32, count uint32) (uint64, bool) {
	k := int32(f.h.U32(count))
	if k < 0 || k >= n {
		return 0, false
	}
	f.h.SetU16(v+charData+2*uint32(k), uint16(f.r[args[1].slot]))
	f.h.SetU32(count, uint32(k+1))
	return uint64(sb), true
}

// sbAppendString is AbstractStringBuilder.append(String) for a String
// that fits: its characters copied after count (else the call: null
// appends "null", a full array grows).
func sbAppendString(f *frame, args []arg, str *runtime.Class, strValue uint32, sb, v uint32, n int32, count uint32) (uint64, bool) {
	s := f.r[args[1].slot]
	if s == 0 || f.vm.ClassOf(s) != str {
		return 0, false
	}
	sv := f.h.U32(s + strValue)
	if sv == 0 {
		return 0, false
	}
	k, m := int64(int32(f.h.U32(count))), int64(f.vm.ArrayLength(sv))
	if k < 0 || k+m > int64(n) {
		return 0, false
	}
	f.h.Copy(v+charData+2*uint32(k), sv+charData, 2*uint32(m))
	// str.length() and str.getChars read str.value and its length
	// (System.arraycopy, a native, has no barriers)
	f.touch(s)
	f.touch(sv)
	f.h.SetU32(count, uint32(k+m))
	return uint64(sb), true
}

// randomNext is java.util.Random.next(int) of the core library, for a
// receiver of exactly that class (a subclass may override next), with
// its monitor elided: the method locks the receiver around the seed's
// update, which cannot collect, call or let another thread run, so when
// no thread holds the lock (runtime.VM.Unlocked) taking and releasing it
// leaves no trace. Held, hashed or inflated, the call is made. The
// constants are those of vm/core's Random.java (TestIntrinsicsSameOnBothEngines
// compares sequences with the method's).
func randomNext(_ *runtime.VM, m *runtime.Method) intrinsic {
	rc := m.Class
	seed, ok := instanceField(rc, "seed", "J")
	if !ok {
		return nil
	}
	const multiplier, addend, mask = 0x5DEECE66D, 0xB, 1<<48 - 1
	return func(f *frame, args []arg) (uint64, bool) {
		r := f.r[args[0].slot]
		if r == 0 || f.vm.ClassOf(r) != rc || !f.vm.Unlocked(r) {
			return 0, false
		}
		s := (f.h.U64(r+seed)*multiplier + addend) & mask
		f.h.SetU64(r+seed, s)
		f.touch(r) // the monitor and the seed's load and store
		bits := int32(f.r[args[1].slot])
		return uint64(uint32(s >> (uint32(48-bits) & 63))), true
	}
}

// staticIntrinsic makes the intrinsic of a static method, which a call
// may skip once the class is initialised (before, the call runs its
// <clinit>).
func staticIntrinsic(op func(f *frame, args []arg) uint64) func(vm *runtime.VM, m *runtime.Method) intrinsic {
	return func(vm *runtime.VM, m *runtime.Method) intrinsic {
		c := m.Class
		return func(f *frame, args []arg) (uint64, bool) {
			if c.State != runtime.ClassInitialized {
				return 0, false
			}
			return op(f, args), true
		}
	}
}

func mathMin(f *frame, args []arg) uint64 {
	return uint64(uint32(min(int32(f.r[args[0].slot]), int32(f.r[args[1].slot]))))
}

func mathMax(f *frame, args []arg) uint64 {
	return uint64(uint32(max(int32(f.r[args[0].slot]), int32(f.r[args[1].slot]))))
}
