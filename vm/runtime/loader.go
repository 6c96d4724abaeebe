package runtime

import (
	"math"
	"sort"
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
)

// DexFile is a loaded DEX file with its resolution caches, indexed like
// the file's id tables (nil until first resolved).
type DexFile struct {
	F          *dex.File
	Name       string
	Boot       bool
	classIndex map[string]int // descriptor -> class_defs index
	types      []*Class
	fields     []*Field
	methods    []*Method
	strings    []uint32
}

func newDexFile(f *dex.File, name string, boot bool) *DexFile {
	d := &DexFile{
		F: f, Name: name, Boot: boot,
		classIndex: make(map[string]int, len(f.ClassDefs)),
		types:      make([]*Class, len(f.Types)),
		fields:     make([]*Field, len(f.Fields)),
		methods:    make([]*Method, len(f.Methods)),
		strings:    make([]uint32, len(f.Strings)),
	}
	for i := range f.ClassDefs {
		desc := f.Strings[f.Types[f.ClassDefs[i].Class]]
		if _, dup := d.classIndex[desc]; !dup {
			d.classIndex[desc] = i
		}
	}
	return d
}

// TypeName returns the descriptor of type index i.
func (d *DexFile) TypeName(i uint32) string { return d.F.Strings[d.F.Types[i]] }

// LoadClass finds a class by descriptor, loading it if needed; nil if
// no class path entry defines it.
func (vm *VM) LoadClass(desc string) *Class { return vm.loadClass(desc) }

// loadClass finds, defines and links the class with descriptor desc, or
// returns nil when no class path entry defines it (or it is circular or
// malformed; the caller throws NoClassDefFoundError).
func (vm *VM) loadClass(desc string) *Class {
	if c := vm.byDesc[desc]; c != nil {
		return c
	}
	if len(desc) == 0 {
		return nil
	}
	switch desc[0] {
	case '[':
		comp := vm.loadClass(desc[1:])
		if comp == nil || desc[1] == 'V' {
			return nil
		}
		return vm.defineArray(desc, comp)
	case 'L':
	default:
		if len(desc) == 1 && primitiveName(desc[0]) != "" {
			return vm.definePrimitive(desc[0])
		}
		return nil
	}
	if vm.loading[desc] {
		return nil // ClassCircularityError in a full VM
	}
	for _, files := range [][]*DexFile{vm.bootFiles, vm.appFiles} {
		for _, f := range files {
			if i, ok := f.classIndex[desc]; ok {
				vm.loading[desc] = true
				c := vm.defineClass(f, &f.F.ClassDefs[i], desc)
				delete(vm.loading, desc)
				return c
			}
		}
	}
	return nil
}

func primitiveName(p byte) string {
	switch p {
	case 'Z', 'B', 'S', 'C', 'I', 'J', 'F', 'D', 'V':
		return javaName(string(p))
	}
	return ""
}

func (vm *VM) register(c *Class) {
	c.ID = len(vm.classes)
	vm.classes = append(vm.classes, c)
	vm.byDesc[c.Descriptor] = c
	if !vm.booting {
		vm.allocClassObject(c)
	}
}

func (vm *VM) definePrimitive(p byte) *Class {
	c := &Class{Descriptor: string(p), Name: primitiveName(p), Prim: p, State: ClassInitialized,
		Access: dex.AccPublic | dex.AccFinal | dex.AccAbstract, Boot: true}
	vm.register(c)
	return c
}

func (vm *VM) defineArray(desc string, comp *Class) *Class {
	obj := vm.loadClass("Ljava/lang/Object;")
	c := &Class{Descriptor: desc, Name: javaName(desc), Component: comp, Super: obj,
		State: ClassInitialized, Access: dex.AccPublic | dex.AccFinal | dex.AccAbstract, Boot: comp.Boot || vm.booting}
	c.Prim = 'L'
	if comp.IsPrimitive() {
		switch kindSize(comp.Prim) {
		case 8:
			c.ElemShift = 3
		case 4:
			c.ElemShift = 2
		case 2:
			c.ElemShift = 1
		}
	} else {
		c.ElemShift = 2
	}
	c.allIfaces = map[*Class]bool{}
	for _, n := range []string{"Ljava/lang/Cloneable;", "Ljava/io/Serializable;"} {
		if i := vm.loadClass(n); i != nil {
			c.allIfaces[i] = true
			c.Interfaces = append(c.Interfaces, i)
		}
	}
	if obj != nil {
		c.VTable = obj.VTable
		c.byName = obj.byName
	}
	vm.register(c)
	return c
}

// defineClass loads super class and interfaces, lays out fields, builds
// the vtable and allocates the Class object.
func (vm *VM) defineClass(f *DexFile, def *dex.ClassDef, desc string) *Class {
	c := &Class{Descriptor: desc, Name: javaName(desc), Access: def.Access, File: f, Def: def, Boot: f.Boot, Prim: 'L'}
	if def.Super != dex.NoIndex {
		c.Super = vm.loadClass(f.TypeName(def.Super))
		if c.Super == nil || c.Super.IsInterface() {
			return nil
		}
	} else if desc != "Ljava/lang/Object;" {
		return nil
	}
	c.allIfaces = map[*Class]bool{}
	if c.Super != nil {
		for i := range c.Super.allIfaces {
			c.allIfaces[i] = true
		}
	}
	for _, ti := range def.Interfaces {
		i := vm.loadClass(f.TypeName(ti))
		if i == nil || !i.IsInterface() {
			return nil
		}
		c.Interfaces = append(c.Interfaces, i)
		c.allIfaces[i] = true
		for j := range i.allIfaces {
			c.allIfaces[j] = true
		}
	}
	vm.layoutFields(c)
	vm.linkMethods(c)
	vm.verifyClass(c)
	c.State = ClassLinked
	vm.register(c)
	return c
}

// layoutFields packs instance fields after the super class's: references
// first, then by decreasing size, each aligned to its size; a smaller
// field fills the hole a wide field's alignment leaves, as in ART.
func (vm *VM) layoutFields(c *Class) {
	start := uint32(objectHeader)
	if c.Super != nil {
		start = c.Super.ObjectSize
		c.RefOffsets = append([]uint32(nil), c.Super.RefOffsets...)
	}
	var inst, stat []*Field
	f := c.File.F
	if d := c.Def.Data; d != nil {
		for _, lst := range []struct {
			fs     []dex.EncodedField
			static bool
		}{{d.StaticFields, true}, {d.InstanceFields, false}} {
			for _, ef := range lst.fs {
				ref := f.Fields[ef.Field]
				fld := &Field{Class: c, Name: f.Strings[ref.Name], Type: c.File.TypeName(ref.Type), Access: ef.Access, Static: lst.static}
				fld.Kind = shortyOf(fld.Type)
				c.Fields = append(c.Fields, fld)
				if fld.Static {
					stat = append(stat, fld)
				} else {
					inst = append(inst, fld)
				}
			}
		}
	}
	var refs []uint32
	c.ObjectSize, refs = pack(inst, start)
	c.RefOffsets = append(c.RefOffsets, refs...)
	end, srefs := pack(stat, classObjectHeader)
	c.StaticSize = end - classObjectHeader
	c.StaticRefOffsets = srefs
	vm.noteReferenceClass(c)
}

// pack assigns offsets from start and returns the end and the reference
// offsets, as ART's class linker lays fields out: references first (from
// start aligned to 4), then wide, int, short and byte fields, each taking
// the largest gap that alignment left behind when it fits (the lowest of
// equal ones), else going at the end, aligned to its size.
func pack(fields []*Field, start uint32) (uint32, []uint32) {
	order := append([]*Field(nil), fields...)
	rank := func(f *Field) int {
		if f.Kind == 'L' {
			return 0
		}
		return 9 - int(f.Size())
	}
	sort.SliceStable(order, func(i, j int) bool { return rank(order[i]) < rank(order[j]) })
	type gap struct{ off, size uint32 }
	var gaps []gap
	// addGap records [from, to) as aligned pieces of 4, 2 and 1 bytes.
	addGap := func(from, to uint32) {
		for from < to {
			switch n := to - from; {
			case n >= 4 && from%4 == 0:
				gaps = append(gaps, gap{from, 4})
				from += 4
			case n >= 2 && from%2 == 0:
				gaps = append(gaps, gap{from, 2})
				from += 2
			default:
				gaps = append(gaps, gap{from, 1})
				from++
			}
		}
	}
	off := start
	var refs []uint32
	for _, fl := range order {
		sz := fl.Size()
		if fl.Kind != 'L' && len(gaps) > 0 {
			best := -1
			for i, g := range gaps {
				if best < 0 || g.size > gaps[best].size || g.size == gaps[best].size && g.off < gaps[best].off {
					best = i
				}
			}
			if g := gaps[best]; g.size >= sz {
				gaps = append(gaps[:best], gaps[best+1:]...)
				fl.Offset = g.off
				addGap(g.off+sz, g.off+g.size)
				continue
			}
		}
		align := sz
		if fl.Kind == 'L' {
			align = 4
		}
		if r := off % align; r != 0 {
			addGap(off, off+align-r)
			off += align - r
		}
		fl.Offset = off
		off += sz
		if fl.Kind == 'L' {
			refs = append(refs, fl.Offset)
		}
	}
	return off, refs
}

// Object layout constants (ART's mirror::Object and mirror::Array).
const (
	objectHeader      = 8  // class pointer, lock word
	arrayLength       = 8  // offset of an array's length
	classObjectHeader = 16 // header, class id, padding; statics follow
)

// samePackage reports whether a and b are in the same runtime package:
// the same package name and class loader (boot or application); an array
// class is in its element class's package.
func samePackage(a, b *Class) bool {
	elem := func(c *Class) *Class {
		for c.Component != nil {
			c = c.Component
		}
		return c
	}
	a, b = elem(a), elem(b)
	pkg := func(d string) string { return d[:strings.LastIndexByte(d, '/')+1] }
	return a.Boot == b.Boot && pkg(a.Descriptor) == pkg(b.Descriptor)
}

func (vm *VM) linkMethods(c *Class) {
	f := c.File.F
	if c.Super != nil {
		c.VTable = append([]*Method(nil), c.Super.VTable...)
	}
	c.byName = map[string]*Method{}
	if c.Super != nil {
		for k, m := range c.Super.byName {
			c.byName[k] = m
		}
	}
	add := func(em dex.EncodedMethod, virtual bool) {
		ref := f.Methods[em.Method]
		p := f.Protos[ref.Proto]
		m := &Method{ID: len(vm.Methods), Class: c, Name: f.Strings[ref.Name], Access: em.Access, Code: em.Code, VIndex: -1,
			Shorty: f.Strings[p.Shorty]}
		sig := "("
		if !m.IsStatic() {
			m.ArgWords = 1
			m.RefArgs = append(m.RefArgs, true)
		}
		for _, t := range p.Params {
			d := c.File.TypeName(t)
			sig += d
			w := 1
			if d == "J" || d == "D" {
				w = 2
			}
			m.ArgWords += w
			for k := 0; k < w; k++ {
				m.RefArgs = append(m.RefArgs, d[0] == 'L' || d[0] == '[')
			}
		}
		ret := c.File.TypeName(p.Return)
		m.Signature = sig + ")" + ret
		m.ReturnRef = ret[0] == 'L' || ret[0] == '['
		vm.Methods = append(vm.Methods, m)
		c.Methods = append(c.Methods, m)
		if m.Access&dex.AccNative != 0 {
			m.Native = vm.natives[m.String()]
			if w := vm.Hooks.WrapNative; w != nil && m.Native != nil {
				m.Native = w(m, m.Native)
			}
		}
		if m.Name == "<clinit>" {
			c.Clinit = m
		}
		if !virtual || c.IsInterface() {
			if virtual {
				c.byName[m.Name+m.Signature] = m
			}
			return
		}
		key := m.Name + m.Signature
		// m overrides every inherited entry of the same name and
		// signature that it can access: a package-private method only
		// from its own runtime package (as ART links; 300-package-override).
		// Otherwise it takes a new slot.
		if c.Super != nil {
			for i, old := range c.Super.VTable {
				if old.Name == m.Name && old.Signature == m.Signature && old.Access&dex.AccPrivate == 0 &&
					(old.Access&(dex.AccPublic|dex.AccProtected) != 0 || samePackage(old.Class, c)) {
					if old.Access&dex.AccFinal != 0 && c.LinkageError == "" {
						c.LinkageError = "Method " + prettyMethod(m) + " overrides final method in class " + old.Class.Descriptor
					}
					if m.VIndex < 0 {
						m.VIndex = i
					}
					c.VTable[i] = m
				}
			}
		}
		if m.VIndex < 0 {
			m.VIndex = len(c.VTable)
			c.VTable = append(c.VTable, m)
		}
		c.byName[key] = m
	}
	if d := c.Def.Data; d != nil {
		for _, em := range d.DirectMethods {
			add(em, false)
		}
		for _, em := range d.VirtualMethods {
			add(em, true)
		}
	}
	if c.IsInterface() {
		for i := range c.allIfaces {
			for k, m := range i.byName {
				if _, ok := c.byName[k]; !ok {
					c.byName[k] = m
				}
			}
		}
		return
	}
	// Interface methods the class does not implement: defaults (the most
	// specific one wins) or abstract "miranda" entries.
	ifaces := make([]*Class, 0, len(c.allIfaces))
	for i := range c.allIfaces {
		ifaces = append(ifaces, i)
	}
	sort.Slice(ifaces, func(a, b int) bool { return ifaces[a].ID < ifaces[b].ID })
	for _, i := range ifaces {
		for _, m := range i.Methods {
			if m.IsStatic() || m.Name == "<clinit>" || m.Access&dex.AccPrivate != 0 {
				continue
			}
			key := m.Name + m.Signature
			old := c.byName[key]
			switch {
			case old == nil:
			case !old.Class.IsInterface():
				continue // implemented by a class
			case old.IsAbstract() && !m.IsAbstract():
			case !old.IsAbstract() && !m.IsAbstract() && m.Class.allIfaces[old.Class]:
			default:
				continue
			}
			c.byName[key] = m
		}
	}
}

// allocClassObject makes c's java.lang.Class instance: boot classes in
// the image space, others in the non-moving space (kept alive by the
// class table).
func (vm *VM) allocClassObject(c *Class) {
	size := classObjectHeader + c.StaticSize
	var a uint32
	var ok bool
	if c.Boot || vm.booting {
		a, ok = vm.GCHeap.AllocImage(size)
	} else {
		a = vm.GCHeap.Alloc(size, gc.NonMoving)
		ok = a != 0
	}
	if !ok {
		panic(vmError("out of memory for class object of " + c.Name + ": " + vm.GCHeap.OOMMessage(uint64(size))))
	}
	h := vm.Heap
	h.SetU32(a, vm.classClass.Addr)
	h.SetU32(a+8, uint32(c.ID))
	c.Addr = a
	if vm.classClass == c {
		h.SetU32(a, a)
	}
	if c.Def != nil {
		vm.setStaticValues(c)
	}
	if c.Descriptor == "Ljava/lang/Void;" {
		// The core library cannot name the void class in Java.
		for _, f := range c.Fields {
			if f.Static && f.Name == "TYPE" {
				if v := vm.loadClass("V"); v != nil {
					vm.StoreRef(a, a+f.Offset, v.Addr)
				}
			}
		}
	}
}

// setStaticValues applies class_def.static_values.
func (vm *VM) setStaticValues(c *Class) {
	vals := c.Def.StaticValues
	if len(vals) == 0 || c.Def.Data == nil {
		return
	}
	for i, v := range vals {
		if i >= len(c.Def.Data.StaticFields) {
			break
		}
		ef := c.Def.Data.StaticFields[i]
		ref := c.File.F.Fields[ef.Field]
		var fld *Field
		for _, x := range c.Fields {
			if x.Static && x.Name == c.File.F.Strings[ref.Name] && x.Type == c.File.TypeName(ref.Type) {
				fld = x
			}
		}
		if fld == nil {
			continue
		}
		a := c.Addr + fld.Offset
		h := vm.Heap
		switch v.Kind {
		case dex.ValueString:
			vm.StoreRef(c.Addr, a, vm.Intern(c.File.F.Strings[v.Bits]))
		case dex.ValueType:
			if k := vm.loadClass(c.File.TypeName(uint32(v.Bits))); k != nil {
				vm.StoreRef(c.Addr, a, k.Addr)
			}
		case dex.ValueNull:
		case dex.ValueFloat:
			h.SetU32(a, math.Float32bits(v.Float()))
		case dex.ValueDouble:
			h.SetU64(a, v.Bits)
		default:
			vm.storeField(a, fld.Kind, uint64(v.Int()))
		}
	}
}

func (vm *VM) storeField(a uint32, kind byte, v uint64) {
	h := vm.Heap
	switch kindSize(kind) {
	case 8:
		h.SetU64(a, v)
	case 4:
		h.SetU32(a, uint32(v))
	case 2:
		h.SetU16(a, uint16(v))
	default:
		h.SetU8(a, uint8(v))
	}
}

// Type returns the resolved class of type index i, or nil if it has not
// been resolved yet (then use Thread.ResolveType).
func (d *DexFile) Type(i uint32) *Class { return d.types[i] }

// Field returns the resolved field i or nil.
func (d *DexFile) Field(i uint32) *Field { return d.fields[i] }

// Method returns the resolved method i or nil.
func (d *DexFile) Method(i uint32) *Method { return d.methods[i] }

// String returns the interned string i or 0.
func (d *DexFile) String(i uint32) uint32 { return d.strings[i] }
