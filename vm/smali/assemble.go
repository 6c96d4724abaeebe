package smali

import (
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/smali/opcode"
)

// AssembleOptions controls Assemble.
type AssembleOptions struct {
	// API is the target API level as smali's -a; it picks the DEX version
	// (035 below 24, 037 for 24 and 25, 038 for 26 and 27, 039 from 28).
	// 0 means DefaultAPI.
	API int
}

func dexVersion(api int) int {
	switch {
	case api >= 28:
		return 39
	case api >= 26:
		return 38
	case api >= 24:
		return 37
	}
	return 35
}

// Assemble lowers parsed smali classes to a DEX file. Problems the parser
// could not see (undefined labels, registers out of range once pN is
// resolved, branch offsets that do not fit, literals that do not fit) are
// returned as an ErrorList with positions. A class defined twice keeps its
// first definition, as do duplicate fields and methods.
func Assemble(classes []*ast.Class, opts *AssembleOptions) ([]byte, error) {
	api := DefaultAPI
	if opts != nil && opts.API != 0 {
		api = opts.API
	}
	var errs ErrorList
	lower := func(jumbo map[string]bool) []*dex.ClassSpec {
		var specs []*dex.ClassSpec
		seen := map[string]bool{}
		for _, c := range classes {
			if seen[c.Name] {
				continue
			}
			seen[c.Name] = true
			specs = append(specs, lowerClass(c, jumbo, &errs))
		}
		return specs
	}
	specs := lower(nil)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	// As smali, promote const-string to const-string/jumbo when the final
	// string index does not fit 16 bits. The string table does not depend
	// on the layout, but the promoted instructions are longer, so the
	// methods are laid out again.
	idx, err := dex.StringIndices(specs)
	if err != nil {
		return nil, err
	}
	jumbo := map[string]bool{}
	for s, i := range idx {
		if i > 0xffff {
			jumbo[s] = true
		}
	}
	if len(jumbo) > 0 {
		specs = lower(jumbo)
		if err := errs.Err(); err != nil {
			return nil, err
		}
	}
	f, err := dex.Build(specs, dexVersion(api))
	if err != nil {
		return nil, err
	}
	return dex.Write(f)
}

func lowerClass(c *ast.Class, jumbo map[string]bool, errs *ErrorList) *dex.ClassSpec {
	cs := &dex.ClassSpec{Type: c.Name, Access: ast.AccessFlags(c.Modifiers)}
	if c.Super != nil {
		cs.Super = c.Super.Desc
	}
	for _, t := range c.Implements {
		cs.Interfaces = append(cs.Interfaces, t.Desc)
	}
	if c.Source != nil {
		s := c.Source.Str
		cs.SourceFile = &s
	}
	cs.Annotations = annotations(c.Name, c.Annotations)
	seenF := map[string]bool{}
	for _, f := range c.Fields {
		k := f.Name + ":" + f.Type.Desc
		if seenF[k] {
			continue
		}
		seenF[k] = true
		fs := dex.FieldSpec{Name: f.Name, Type: f.Type.Desc, Access: ast.AccessFlags(f.Modifiers), Annotations: annotations(c.Name, f.Annotations)}
		if f.Initial != nil {
			v := value(c.Name, f.Initial)
			fs.Initial = &v
		}
		if fs.Access&ast.AccStatic != 0 {
			cs.StaticFields = append(cs.StaticFields, fs)
		} else {
			cs.InstanceFields = append(cs.InstanceFields, fs)
		}
	}
	seenM := map[string]bool{}
	for _, m := range c.Methods {
		k := m.Name + m.Proto.Descriptor()
		if seenM[k] {
			continue
		}
		seenM[k] = true
		ms := lowerMethod(c, m, jumbo, errs)
		if ms.Access&(ast.AccStatic|ast.AccPrivate|ast.AccConstructor) != 0 {
			cs.DirectMethods = append(cs.DirectMethods, ms)
		} else {
			cs.VirtualMethods = append(cs.VirtualMethods, ms)
		}
	}
	return cs
}

func protoSpec(p *ast.Proto) dex.ProtoSpec {
	return dex.ProtoSpec{Return: p.Return, Params: append([]string(nil), p.Params...)}
}

func classOr(cur, class string) string {
	if class == "" {
		return cur
	}
	return class
}

func fieldSpec(cur string, f *ast.FieldRef) dex.FieldSpecRef {
	return dex.FieldSpecRef{Class: classOr(cur, f.Class), Name: f.Name, Type: f.Type}
}

func methodSpec(cur string, m *ast.MethodRef) dex.MethodSpecRef {
	return dex.MethodSpecRef{Class: classOr(cur, m.Class), Name: m.Name, Proto: protoSpec(m.Proto)}
}

var handleKinds = map[string]uint16{
	"static-put": dex.HandleStaticPut, "static-get": dex.HandleStaticGet,
	"instance-put": dex.HandleInstancePut, "instance-get": dex.HandleInstanceGet,
	"invoke-static": dex.HandleInvokeStatic, "invoke-instance": dex.HandleInvokeInstance,
	"invoke-constructor": dex.HandleInvokeConstructor, "invoke-direct": dex.HandleInvokeDirect,
	"invoke-interface": dex.HandleInvokeInterface,
}

func handleSpec(cur string, h *ast.MethodHandle) dex.HandleSpec {
	hs := dex.HandleSpec{Kind: handleKinds[h.Kind]}
	if h.Field != nil {
		hs.Field = fieldSpec(cur, h.Field)
	}
	if h.Method != nil {
		hs.Method = methodSpec(cur, h.Method)
	}
	return hs
}

func annotations(cur string, annos []*ast.Annotation) []dex.AnnotationSpec {
	var out []dex.AnnotationSpec
	for _, a := range annos {
		vis := uint8(dex.VisibilityBuild)
		switch a.Visibility {
		case "runtime":
			vis = dex.VisibilityRuntime
		case "system":
			vis = dex.VisibilitySystem
		}
		out = append(out, dex.AnnotationSpec{Visibility: vis, Type: a.Type, Elements: elements(cur, a.Elements)})
	}
	return out
}

func elements(cur string, els []*ast.AnnotationElement) []dex.ElementSpec {
	var out []dex.ElementSpec
	for _, e := range els {
		out = append(out, dex.ElementSpec{Name: e.Name, Value: value(cur, e.Value)})
	}
	return out
}

func value(cur string, v ast.Value) dex.ValueSpec {
	switch v := v.(type) {
	case *ast.Literal:
		switch v.Kind {
		case ast.IntLit:
			return dex.ValueSpec{Kind: dex.ValueInt, Bits: uint64(v.Int)}
		case ast.LongLit:
			return dex.ValueSpec{Kind: dex.ValueLong, Bits: uint64(v.Int)}
		case ast.ShortLit:
			return dex.ValueSpec{Kind: dex.ValueShort, Bits: uint64(v.Int)}
		case ast.ByteLit:
			return dex.ValueSpec{Kind: dex.ValueByte, Bits: uint64(v.Int)}
		case ast.CharLit:
			return dex.ValueSpec{Kind: dex.ValueChar, Bits: uint64(uint16(v.Int))}
		case ast.FloatLit:
			return dex.ValueSpec{Kind: dex.ValueFloat, Bits: v.Bits & 0xffffffff}
		case ast.DoubleLit:
			return dex.ValueSpec{Kind: dex.ValueDouble, Bits: v.Bits}
		case ast.BoolLit:
			return dex.ValueSpec{Kind: dex.ValueBoolean, Bits: uint64(v.Int)}
		case ast.StringLit:
			return dex.ValueSpec{Kind: dex.ValueString, Str: v.Str}
		}
		return dex.ValueSpec{Kind: dex.ValueNull}
	case *ast.TypeRef:
		return dex.ValueSpec{Kind: dex.ValueType, Str: v.Desc}
	case *ast.FieldRef:
		return dex.ValueSpec{Kind: dex.ValueField, Field: fieldSpec(cur, v)}
	case *ast.EnumRef:
		return dex.ValueSpec{Kind: dex.ValueEnum, Field: fieldSpec(cur, v.Field)}
	case *ast.MethodRef:
		return dex.ValueSpec{Kind: dex.ValueMethod, Method: methodSpec(cur, v)}
	case *ast.Proto:
		return dex.ValueSpec{Kind: dex.ValueMethodType, Proto: protoSpec(v)}
	case *ast.MethodHandle:
		return dex.ValueSpec{Kind: dex.ValueMethodHandle, Handle: handleSpec(cur, v)}
	case *ast.ArrayValue:
		out := dex.ValueSpec{Kind: dex.ValueArray}
		for _, e := range v.Elements {
			out.Array = append(out.Array, value(cur, e))
		}
		return out
	case *ast.Subannotation:
		return dex.ValueSpec{Kind: dex.ValueAnnotation, Annotation: &dex.AnnotationSpec{Type: v.Type, Elements: elements(cur, v.Elements)}}
	}
	return dex.ValueSpec{Kind: dex.ValueNull}
}

// item is one laid-out statement of a method body.
type item struct {
	in      *ast.Instruction
	info    *opcode.Info
	op      dex.Opcode // may be widened (goto → goto/16 → goto/32)
	payload ast.Stmt
	addr    int
	pad     bool // a nop is emitted before this payload
	removed bool // a nop dropped to align the payload after it
}

// size is the item's size in code units (without the padding nop).
func (it *item) size() int {
	switch {
	case it.removed:
		return 0
	case it.payload != nil:
		return payloadSize(it.payload)
	}
	return it.op.Format().Size()
}

type lowerer struct {
	cur     string
	errs    *ErrorList
	regs    int // registers_size
	params  int // parameter registers (with this)
	labels  map[string]int
	items   []*item
	outs    int
	failing bool
}

func (l *lowerer) errorf(pos ast.Pos, format string, args ...any) {
	l.failing = true
	l.errs.add(pos, format, args...)
}

func (l *lowerer) reg(r *ast.Register) int {
	if r.Param {
		n := l.regs - l.params + r.Num
		if r.Num >= l.params {
			l.errorf(r.Pos, "%s is not a parameter register (the method has %d parameter registers)", r, l.params)
		}
		return n
	}
	return r.Num
}

func (l *lowerer) checkedReg(r *ast.Register, limit int) int {
	n := l.reg(r)
	if n > limit {
		l.errorf(r.Pos, "register %s is v%d; this operand takes v0 to v%d", r, n, limit)
	}
	return n
}

func (l *lowerer) label(ref *ast.LabelRef) int {
	a, ok := l.labels[ref.Name]
	if !ok {
		l.errorf(ref.Pos, "undefined label :%s", ref.Name)
		return 0
	}
	return a
}

func payloadSize(s ast.Stmt) int {
	switch s := s.(type) {
	case *ast.ArrayData:
		return 4 + (s.Width*len(s.Elements)+1)/2
	case *ast.PackedSwitch:
		return 4 + 2*len(s.Targets)
	case *ast.SparseSwitch:
		return 2 + 4*len(s.Cases)
	}
	return 0
}

// layout assigns addresses to the items and the labels. A payload must
// be 4-byte aligned; as smali (dexlib2's MutableMethodImplementation), a
// misaligned payload right after a nop instruction drops that nop, and
// otherwise gets a nop inserted before it. Dropping a nop moves labels, so
// layout reports it and is run again.
func (l *lowerer) layout(body []ast.Stmt) (changed bool) {
	l.labels = map[string]int{}
	addr := 0
	var pending []string
	idx := 0
	var prev *item
	for _, s := range body {
		switch s := s.(type) {
		case *ast.Label:
			pending = append(pending, s.Name)
			continue
		case *ast.Instruction, *ast.ArrayData, *ast.PackedSwitch, *ast.SparseSwitch:
			it := l.items[idx]
			idx++
			it.pad = false
			if it.payload != nil && addr%2 != 0 {
				if prev != nil && prev.payload == nil && prev.op == dex.OpNop {
					prev.removed, changed = true, true
				} else {
					it.pad = true
					addr++
				}
			}
			size := it.size()
			if !it.removed {
				prev = it
			}
			it.addr = addr
			for _, n := range pending {
				l.labels[n] = addr
			}
			pending = pending[:0]
			addr += size
		}
	}
	for _, n := range pending {
		l.labels[n] = addr
	}
	l.labels["\x00end"] = addr
	return changed
}

// lowerMethod lowers one method; a const-string of a string in jumbo
// becomes const-string/jumbo.
func lowerMethod(c *ast.Class, m *ast.Method, jumbo map[string]bool, errs *ErrorList) dex.MethodSpec {
	ms := dex.MethodSpec{Name: m.Name, Proto: protoSpec(m.Proto), Access: ast.AccessFlags(m.Modifiers), Annotations: annotations(c.Name, m.Annotations)}
	l := &lowerer{cur: c.Name, errs: errs}
	static := ms.Access&ast.AccStatic != 0
	l.params = m.Proto.ParamRegisters()
	if !static {
		l.params++
	}
	if m.Registers != nil {
		l.regs = m.Registers.Count
		if m.Registers.Locals {
			l.regs += l.params
		}
	}
	// Parameter names and annotations, by parameter index.
	paramIndex := map[int]int{} // p register number -> parameter index
	preg := 0
	if !static {
		preg = 1
	}
	for i, t := range m.Proto.Params {
		paramIndex[preg] = i
		preg++
		if ast.IsWide(t) {
			preg++
		}
	}
	var names []*string
	hasNames := false
	var pannos [][]dex.AnnotationSpec
	for _, p := range m.Params {
		num := p.Reg.Num
		if !p.Reg.Param {
			num = p.Reg.Num - (l.regs - l.params)
		}
		i, ok := paramIndex[num]
		if !ok {
			errs.add(p.Pos, "%s is not the first register of a parameter", p.Reg)
			continue
		}
		if p.Name != nil {
			if names == nil {
				names = make([]*string, len(m.Proto.Params))
			}
			s := p.Name.Str
			names[i], hasNames = &s, true
		}
		if len(p.Annotations) > 0 {
			if pannos == nil {
				pannos = make([][]dex.AnnotationSpec, len(m.Proto.Params))
			}
			pannos[i] = annotations(c.Name, p.Annotations)
		}
	}
	ms.ParamAnnotations = pannos

	for _, s := range m.Body {
		switch s := s.(type) {
		case *ast.Instruction:
			info := opcode.Lookup(s.Name)
			if info == nil || info.Odex {
				errs.add(s.Pos, "cannot assemble %s", s.Name)
				return ms
			}
			if info.Opcode == 0x1a && len(s.Args) == 2 {
				if lit, ok := s.Args[1].(*ast.Literal); ok && jumbo[lit.Str] {
					info = opcode.Lookup("const-string/jumbo")
				}
			}
			l.items = append(l.items, &item{in: s, info: info, op: dex.Opcode(info.Opcode)})
		case *ast.ArrayData, *ast.PackedSwitch, *ast.SparseSwitch:
			l.items = append(l.items, &item{payload: s})
		}
	}
	if len(l.items) == 0 {
		return ms
	}
	if m.Registers == nil {
		l.regs = l.params
	}
	if l.params > l.regs {
		errs.add(m.Registers.Pos, "the method has %d registers, fewer than its %d parameter registers", l.regs, l.params)
		return ms
	}
	// Lay out, widening gotos whose offsets do not fit, until stable.
	for {
		changed := l.layout(m.Body)
		for _, it := range l.items {
			if it.in == nil || it.removed || it.info.Format != opcode.Format10t && it.info.Format != opcode.Format20t {
				continue
			}
			ref, ok := it.in.Args[0].(*ast.LabelRef)
			if !ok {
				continue
			}
			a, ok := l.labels[ref.Name]
			if !ok {
				continue
			}
			off := a - it.addr
			switch {
			case it.op == 0x28 && (off < -128 || off > 127):
				it.op, changed = 0x29, true
			case it.op == 0x29 && (off < -32768 || off > 32767):
				it.op, changed = 0x2a, true
			}
		}
		if !changed {
			break
		}
	}
	code := &dex.CodeSpec{Registers: uint16(l.regs), Ins: uint16(l.params)}
	switchOf := map[ast.Stmt]int{} // payload -> address of the referring instruction
	for _, it := range l.items {
		if it.in != nil {
			for _, a := range it.in.Args {
				if ref, ok := a.(*ast.LabelRef); ok && (it.op == dex.OpPackedSwitch || it.op == dex.OpSparseSwitch) {
					// Looked up once: a method of 10 000 switches (opcost's
					// benchmarks) spent 3 of its 8 s in this lookup.
					target := l.labels[ref.Name]
					for _, p := range l.items {
						if p.payload != nil && target == p.addr {
							if _, done := switchOf[p.payload]; !done {
								switchOf[p.payload] = it.addr
							}
						}
					}
				}
			}
		}
	}
	for _, it := range l.items {
		if it.removed {
			continue
		}
		if it.pad {
			code.Insns = append(code.Insns, dex.InsnSpec{Op: dex.OpNop})
		}
		if it.payload != nil {
			code.Insns = append(code.Insns, l.payload(it, switchOf))
			continue
		}
		code.Insns = append(code.Insns, l.insn(it))
	}
	code.Outs = uint16(l.outs)
	code.Tries = l.tries(m.Body)
	code.Debug = l.debug(m.Body, names, hasNames, len(m.Proto.Params))
	if !l.failing {
		ms.Code = code
	}
	return ms
}

func (l *lowerer) payload(it *item, switchOf map[ast.Stmt]int) dex.InsnSpec {
	switch p := it.payload.(type) {
	case *ast.ArrayData:
		ps := &dex.PayloadSpec{Kind: dex.ArrayDataPayload, Width: p.Width}
		for _, e := range p.Elements {
			v, err := e.Fixed64()
			if err != nil {
				l.errorf(e.Pos, "%v", err)
			}
			ps.Elements = append(ps.Elements, v)
		}
		return dex.InsnSpec{Payload: ps}
	case *ast.PackedSwitch:
		base := switchOf[p]
		ps := &dex.PayloadSpec{Kind: dex.PackedSwitchPayload}
		k, err := p.FirstKey.Fixed32()
		if err != nil {
			l.errorf(p.FirstKey.Pos, "%v", err)
		}
		ps.FirstKey = k
		for _, t := range p.Targets {
			ps.Targets = append(ps.Targets, int32(l.label(t)-base))
		}
		return dex.InsnSpec{Payload: ps}
	case *ast.SparseSwitch:
		base := switchOf[p]
		ps := &dex.PayloadSpec{Kind: dex.SparseSwitchPayload}
		for _, c := range p.Cases {
			k, err := c.Key.Fixed32()
			if err != nil {
				l.errorf(c.Key.Pos, "%v", err)
			}
			ps.Keys = append(ps.Keys, k)
			ps.Targets = append(ps.Targets, int32(l.label(c.Target)-base))
		}
		return dex.InsnSpec{Payload: ps}
	}
	return dex.InsnSpec{}
}

func (l *lowerer) literal(lit *ast.Literal, kind opcode.Operand) int64 {
	fail := func(err error) int64 {
		l.errorf(lit.Pos, "%v", err)
		return 0
	}
	rng := func(v int64, lo, hi int64) int64 {
		if v < lo || v > hi {
			l.errorf(lit.Pos, "literal %s does not fit in %s", lit, kind)
		}
		return v
	}
	switch kind {
	case opcode.LitNibble, opcode.LitByte, opcode.LitShort:
		v, err := lit.ShortIntegral()
		if err != nil {
			return fail(err)
		}
		switch kind {
		case opcode.LitNibble:
			return rng(int64(v), -8, 7)
		case opcode.LitByte:
			return rng(int64(v), -128, 127)
		}
		return int64(v)
	case opcode.LitInt, opcode.LitHigh16:
		v, err := lit.Fixed32()
		if err != nil {
			return fail(err)
		}
		if kind == opcode.LitHigh16 {
			if v&0xffff != 0 {
				l.errorf(lit.Pos, "literal %s has nonzero low 16 bits", lit)
			}
			return int64(v >> 16)
		}
		return int64(v)
	case opcode.LitWide, opcode.LitWideHigh16:
		v, err := lit.Fixed64()
		if err != nil {
			return fail(err)
		}
		if kind == opcode.LitWideHigh16 {
			if v&(1<<48-1) != 0 {
				l.errorf(lit.Pos, "literal %s has nonzero low 48 bits", lit)
			}
			return v >> 48
		}
		return v
	}
	return 0
}

func regLimit(kind opcode.Operand) int {
	switch kind {
	case opcode.RegNibble, opcode.RegList:
		return 15
	case opcode.RegByte:
		return 255
	}
	return 65535
}

func (l *lowerer) insn(it *item) dex.InsnSpec {
	in := dex.InsnSpec{Op: it.op}
	words := 0
	for i, a := range it.in.Args {
		if i >= len(it.info.Operands) {
			break
		}
		kind := it.info.Operands[i]
		switch a := a.(type) {
		case *ast.Register:
			in.Regs = append(in.Regs, l.checkedReg(a, regLimit(kind)))
		case *ast.RegisterList:
			for _, r := range a.Regs {
				in.Regs = append(in.Regs, l.checkedReg(r, 15))
			}
			words = len(a.Regs)
		case *ast.RegisterRange:
			if a.First != nil {
				first := l.checkedReg(a.First, 65535)
				last := first
				if a.Last != nil {
					last = l.checkedReg(a.Last, 65535)
				}
				in.Regs = []int{first}
				in.Count = last - first + 1
				if in.Count < 0 || in.Count > 255 {
					l.errorf(a.Pos, "register range of %d registers (at most 255)", in.Count)
				}
			}
			words = in.Count
		case *ast.Literal:
			if kind == opcode.StringRef {
				in.Ref = a.Str
			} else {
				in.Lit = l.literal(a, kind)
			}
		case *ast.LabelRef:
			off := l.label(a) - it.addr
			in.Target = int32(off)
			lo, hi := -1<<31, 1<<31-1
			switch it.op.Format() {
			case dex.Format10t:
				lo, hi = -128, 127
			case dex.Format20t, dex.Format21t, dex.Format22t:
				lo, hi = -32768, 32767
			}
			if off < lo || off > hi {
				l.errorf(a.Pos, "branch offset %d to :%s does not fit in %s", off, a.Name, it.op.Format())
			}
		case *ast.TypeRef:
			in.Ref = a.Desc
		case *ast.FieldRef:
			in.Ref = fieldSpec(l.cur, a)
		case *ast.MethodRef:
			in.Ref = methodSpec(l.cur, a)
		case *ast.Proto:
			if it.op.Info().Index == dex.IndexMethodAndProto {
				in.Proto = protoSpec(a)
			} else {
				in.Ref = protoSpec(a)
			}
		case *ast.MethodHandle:
			in.Ref = handleSpec(l.cur, a)
		case *ast.CallSite:
			cs := &dex.CallSiteSpec{Bootstrap: dex.HandleSpec{Kind: dex.HandleInvokeStatic, Method: methodSpec(l.cur, a.Bootstrap)},
				Name: a.MethodName, Type: protoSpec(a.MethodType)}
			for _, v := range a.Args {
				cs.Args = append(cs.Args, value(l.cur, v))
			}
			in.Ref = cs
		}
	}
	if it.op.Info().Flags&dex.FlagInvoke != 0 || it.op == 0x24 || it.op == 0x25 {
		if it.op.Info().Flags&dex.FlagInvoke != 0 {
			l.outs = max(l.outs, words)
		}
	}
	return in
}

// tries builds the try blocks: the ranges of all .catch and .catchall
// directives are split into disjoint intervals, each with the handlers of
// every directive covering it (.catch before .catchall, the first handler
// of a type winning).
func (l *lowerer) tries(body []ast.Stmt) []dex.TrySpec {
	type rng struct {
		start, end int
		c          *ast.Catch
	}
	var catches, alls []rng
	for _, s := range body {
		c, ok := s.(*ast.Catch)
		if !ok {
			continue
		}
		r := rng{l.label(c.Start), l.label(c.End), c}
		l.label(c.Handler)
		if r.end <= r.start {
			l.errorf(c.Pos, "try range :%s .. :%s is empty or backwards", c.Start.Name, c.End.Name)
			continue
		}
		if c.Type == nil {
			alls = append(alls, r)
		} else {
			catches = append(catches, r)
		}
	}
	all := append(catches, alls...)
	if len(all) == 0 {
		return nil
	}
	points := map[int]bool{}
	for _, r := range all {
		points[r.start], points[r.end] = true, true
	}
	var bounds []int
	for p := range points {
		bounds = append(bounds, p)
	}
	sortInts(bounds)
	var out []dex.TrySpec
	for i := 0; i+1 < len(bounds); i++ {
		a, b := bounds[i], bounds[i+1]
		t := dex.TrySpec{Start: uint32(a), Count: uint16(b - a), CatchAll: -1}
		seen := map[string]bool{}
		covered := false
		for _, r := range all {
			if r.start > a || r.end < b {
				continue
			}
			covered = true
			h := int64(l.label(r.c.Handler))
			if r.c.Type == nil {
				if t.CatchAll < 0 {
					t.CatchAll = h
				}
				continue
			}
			if !seen[r.c.Type.Desc] {
				seen[r.c.Type.Desc] = true
				t.Catches = append(t.Catches, dex.CatchSpec{Type: r.c.Type.Desc, Addr: uint32(h)})
			}
		}
		if !covered {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Start+uint32(out[n-1].Count) == t.Start && sameHandlers(out[n-1], t) {
			out[n-1].Count += t.Count
			continue
		}
		out = append(out, t)
	}
	return out
}

func sameHandlers(a, b dex.TrySpec) bool {
	if a.CatchAll != b.CatchAll || len(a.Catches) != len(b.Catches) {
		return false
	}
	for i := range a.Catches {
		if a.Catches[i] != b.Catches[i] {
			return false
		}
	}
	return true
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j-1] > a[j]; j-- {
			a[j-1], a[j] = a[j], a[j-1]
		}
	}
}

func (l *lowerer) debug(body []ast.Stmt, names []*string, hasNames bool, nParams int) *dex.DebugSpec {
	d := &dex.DebugSpec{}
	addr := 0
	idx := 0
	str := func(lit *ast.Literal) *string {
		if lit == nil {
			return nil
		}
		s := lit.Str
		return &s
	}
	for _, s := range body {
		ev := dex.DebugEvent{Addr: uint32(addr)}
		switch s := s.(type) {
		case *ast.Instruction, *ast.ArrayData, *ast.PackedSwitch, *ast.SparseSwitch:
			it := l.items[idx]
			idx++
			addr = it.addr + it.size()
			continue
		case *ast.Line:
			ev.Kind, ev.Line = dex.DebugLine, uint32(s.Line)
		case *ast.Local:
			ev.Kind, ev.Reg = dex.DebugStartLocal, uint32(l.checkedReg(s.Reg, 65535))
			ev.Name, ev.Sig = str(s.Name), str(s.Signature)
			if s.Type != nil {
				t := s.Type.Desc
				ev.Type = &t
			}
		case *ast.EndLocal:
			ev.Kind, ev.Reg = dex.DebugEndLocal, uint32(l.checkedReg(s.Reg, 65535))
		case *ast.RestartLocal:
			ev.Kind, ev.Reg = dex.DebugRestartLocal, uint32(l.checkedReg(s.Reg, 65535))
		case *ast.Prologue:
			ev.Kind = dex.DebugPrologue
		case *ast.Epilogue:
			ev.Kind = dex.DebugEpilogue
		case *ast.SourceFile:
			ev.Kind, ev.Name = dex.DebugSetFile, str(s.File)
		default:
			continue
		}
		d.Events = append(d.Events, ev)
	}
	if len(d.Events) == 0 && !hasNames {
		return nil
	}
	if hasNames {
		d.ParamNames = names
	} else {
		d.ParamNames = make([]*string, nParams)
	}
	return d
}
