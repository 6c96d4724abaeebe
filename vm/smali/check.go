package smali

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/smali/lexer"
	"github.com/droidprof/droidprof/vm/smali/opcode"
)

// Check verifies a class the way smali 2.5.2 does before it writes DEX:
// operand shapes and ranges of every instruction (after mapping pN to vN),
// literal ranges, labels, .registers/.locals, .param registers, access
// flags, annotations and descriptors. Parse runs it; call it on trees built
// in Go. It returns nil or an ErrorList.
func Check(c *ast.Class, opts *Options) error {
	k := &checker{api: opts.api()}
	if c.Name == "" {
		k.errorf(c.Pos, "the class has no name")
	}
	k.class(c, nil)
	return k.errs.Err()
}

type checker struct {
	api  int
	errs ErrorList
}

// check is Check for Parse, which has reported a missing .class already
// and passes the methods whose syntax errors left them incomplete.
func check(c *ast.Class, api int, broken map[*ast.Method]bool) ErrorList {
	k := &checker{api: api}
	k.class(c, broken)
	return k.errs
}

func (k *checker) errorf(pos ast.Pos, format string, args ...any) {
	if len(k.errs) < maxErrors {
		k.errs.add(pos, format, args...)
	}
}

func (k *checker) class(c *ast.Class, broken map[*ast.Method]bool) {
	if c.Name != "" && !isClassDesc(c.Name, k.api) {
		k.errorf(c.Pos, "invalid class descriptor %q", c.Name)
	}
	if c.Super == nil && c.Name != "" && c.Name != "Ljava/lang/Object;" {
		k.errorf(c.Pos, "the file must contain a .super directive (only java.lang.Object has no superclass)")
	}
	if c.Super != nil {
		k.classType(c.Super)
	}
	for _, t := range c.Implements {
		k.classType(t)
	}
	for _, m := range c.Modifiers {
		if _, ok := ast.AccessFlag(m.Name); !ok {
			k.errorf(m.Pos, "%q is not an access flag", m.Name)
		}
	}
	if c.Source != nil {
		k.stringLit(c.Source)
	}
	k.annotations(c.Annotations)
	for _, f := range c.Fields {
		k.field(f)
	}
	for _, m := range c.Methods {
		k.method(m, broken[m])
	}
}

func (k *checker) classType(t *ast.TypeRef) {
	if t == nil || !isClassDesc(t.Desc, k.api) {
		k.errorf(posOf(t), "invalid class descriptor %q", descOf(t))
	}
}

// posOf is a node's position, or no position for a nil node.
func posOf[N interface {
	comparable
	Position() ast.Pos
}](n N) ast.Pos {
	var none N
	if n == none {
		return ast.Pos{}
	}
	return n.Position()
}

func descOf(t *ast.TypeRef) string {
	if t == nil {
		return ""
	}
	return t.Desc
}

func (k *checker) stringLit(l *ast.Literal) {
	if l == nil || l.Kind != ast.StringLit {
		k.errorf(posOf(l), "expected a string literal")
	}
}

// modifiers checks member modifiers: access flags and hidden API
// restrictions (API 29+, at most one that is not domain-specific).
func (k *checker) modifiers(mods []*ast.Modifier) {
	var restriction *ast.Modifier
	for _, m := range mods {
		if _, ok := ast.AccessFlag(m.Name); ok {
			continue
		}
		if !isHiddenAPI(m.Name) {
			k.errorf(m.Pos, "%q is neither an access flag nor a hidden API restriction", m.Name)
			continue
		}
		if k.api < 29 {
			k.errorf(m.Pos, "hidden API restrictions are only supported on API 29 and above (-a 29)")
			continue
		}
		if m.Name == "core-platform-api" || m.Name == "test-api" {
			continue
		}
		if restriction != nil {
			k.errorf(m.Pos, "only one hidden API restriction may be given (%s already is)", restriction.Name)
		}
		restriction = m
	}
}

func isHiddenAPI(name string) bool {
	for _, n := range lexer.HiddenAPINames() {
		if n == name {
			return true
		}
	}
	return false
}

func (k *checker) annotations(annos []*ast.Annotation) {
	seen := map[string]bool{}
	for _, a := range annos {
		if a == nil {
			k.errorf(ast.Pos{}, "nil annotation")
			continue
		}
		if seen[a.Type] {
			k.errorf(a.Pos, "multiple annotations of type %s", a.Type)
		}
		seen[a.Type] = true
		switch a.Visibility {
		case "build", "runtime", "system":
		default:
			k.errorf(a.Pos, "invalid annotation visibility %q (want build, runtime or system)", a.Visibility)
		}
		if !isClassDesc(a.Type, k.api) {
			k.errorf(a.Pos, "invalid annotation type %q", a.Type)
		}
		k.elements(a.Elements)
	}
}

func (k *checker) elements(els []*ast.AnnotationElement) {
	for _, e := range els {
		if !isSimpleNameText(e.Name) {
			k.errorf(e.Pos, "invalid annotation element name %q", e.Name)
		}
		k.value(e.Value)
	}
}

func (k *checker) value(v ast.Value) {
	switch v := v.(type) {
	case *ast.Literal:
		if v == nil || v.Kind < ast.IntLit || v.Kind > ast.NullLit {
			k.errorf(posOf(v), "invalid literal")
		}
	case *ast.TypeRef:
		if !isTypeDesc(v.Desc, true, k.api) {
			k.errorf(v.Pos, "invalid type descriptor %q", v.Desc)
		}
	case *ast.FieldRef:
		k.fieldRef(v)
	case *ast.MethodRef:
		k.methodRef(v)
	case *ast.EnumRef:
		if v.Field == nil {
			k.errorf(v.Pos, "enum value without a field")
		} else {
			k.fieldRef(v.Field)
		}
	case *ast.ArrayValue:
		for _, e := range v.Elements {
			k.value(e)
		}
	case *ast.Subannotation:
		if !isClassDesc(v.Type, k.api) {
			k.errorf(v.Pos, "invalid annotation type %q", v.Type)
		}
		k.elements(v.Elements)
	case *ast.MethodHandle:
		k.methodHandle(v)
	case *ast.Proto:
		k.proto(v)
	default:
		k.errorf(ast.Pos{}, "invalid value %T", v)
	}
}

func (k *checker) fieldRef(f *ast.FieldRef) {
	if f == nil {
		k.errorf(ast.Pos{}, "missing field reference")
		return
	}
	if f.Class != "" && !isRefType(f.Class, k.api) {
		k.errorf(f.Pos, "invalid class %q in field reference", f.Class)
	}
	if !isMemberName(f.Name) {
		k.errorf(f.Pos, "invalid field name %q", f.Name)
	}
	if !isTypeDesc(f.Type, false, k.api) {
		k.errorf(f.Pos, "invalid field type %q", f.Type)
	}
}

func (k *checker) methodRef(m *ast.MethodRef) {
	if m == nil {
		k.errorf(ast.Pos{}, "missing method reference")
		return
	}
	if m.Class != "" && !isRefType(m.Class, k.api) {
		k.errorf(m.Pos, "invalid class %q in method reference", m.Class)
	}
	if !isMemberName(m.Name) {
		k.errorf(m.Pos, "invalid method name %q", m.Name)
	}
	k.proto(m.Proto)
}

func (k *checker) proto(p *ast.Proto) {
	if p == nil {
		k.errorf(ast.Pos{}, "missing method prototype")
		return
	}
	for _, t := range p.Params {
		if !isTypeDesc(t, false, k.api) {
			k.errorf(p.Pos, "invalid parameter type %q", t)
		}
	}
	if !isTypeDesc(p.Return, true, k.api) {
		k.errorf(p.Pos, "invalid return type %q", p.Return)
	}
}

func (k *checker) methodHandle(h *ast.MethodHandle) {
	field, ok := methodHandleKinds[h.Kind]
	switch {
	case !ok:
		k.errorf(h.Pos, "invalid method handle kind %q", h.Kind)
	case field && (h.Field == nil || h.Method != nil):
		k.errorf(h.Pos, "a %s method handle takes a field reference", h.Kind)
	case !field && (h.Method == nil || h.Field != nil):
		k.errorf(h.Pos, "an %s method handle takes a method reference", h.Kind)
	case field:
		k.fieldRef(h.Field)
	default:
		k.methodRef(h.Method)
	}
}

func (k *checker) field(f *ast.Field) {
	k.modifiers(f.Modifiers)
	if !isMemberName(f.Name) {
		k.errorf(f.Pos, "invalid field name %q", f.Name)
	}
	if f.Type == nil || !isTypeDesc(f.Type.Desc, false, k.api) {
		k.errorf(f.Pos, "invalid field type %q", descOf(f.Type))
	}
	if f.Initial != nil {
		if !ast.HasFlag(f.Modifiers, ast.AccStatic) {
			k.errorf(f.Pos, "initial field values can only be specified for static fields")
		}
		k.value(f.Initial)
	}
	k.annotations(f.Annotations)
}

// methodCtx is what checking one method's body needs.
type methodCtx struct {
	*checker
	m         *ast.Method
	total     int // registers of the frame
	paramRegs int // registers of the parameters, "this" included
	static    bool
	labels    map[string]*ast.Label
	broken    bool
}

func (k *checker) method(m *ast.Method, broken bool) {
	k.modifiers(m.Modifiers)
	if !isMemberName(m.Name) {
		k.errorf(m.Pos, "invalid method name %q", m.Name)
	}
	if m.Proto == nil {
		k.errorf(m.Pos, "method %s has no prototype", m.Name)
		return
	}
	k.proto(m.Proto)
	k.annotations(m.Annotations)
	mc := &methodCtx{checker: k, m: m, static: ast.HasFlag(m.Modifiers, ast.AccStatic),
		labels: map[string]*ast.Label{}, broken: broken}
	mc.paramRegs = m.Proto.ParamRegisters()
	if !mc.static {
		mc.paramRegs++
	}
	if m.Registers != nil {
		mc.total = m.Registers.Count
		if m.Registers.Locals {
			mc.total += mc.paramRegs
		}
		if m.Registers.Count < 0 || m.Registers.Count > 0xffff {
			k.errorf(m.Registers.Pos, "register count %d is out of range (0-65535)", m.Registers.Count)
		}
	}

	instructions, catches, debug := 0, 0, 0
	for _, s := range m.Body {
		switch s := s.(type) {
		case *ast.Instruction, *ast.ArrayData, *ast.PackedSwitch, *ast.SparseSwitch:
			instructions++
		case *ast.Catch:
			catches++
		case *ast.Line, *ast.Local, *ast.EndLocal, *ast.RestartLocal, *ast.Prologue, *ast.Epilogue, *ast.SourceFile:
			debug++
		case *ast.Label:
			if !isSimpleNameText(s.Name) {
				k.errorf(s.Pos, "invalid label name %q", s.Name)
			}
			if prev := mc.labels[s.Name]; prev != nil {
				k.errorf(s.Pos, "duplicate label :%s (already defined at %s)", s.Name, prev.Pos)
			} else {
				mc.labels[s.Name] = s
			}
		}
	}
	abstract := ast.HasFlag(m.Modifiers, ast.AccAbstract)
	native := !abstract && ast.HasFlag(m.Modifiers, ast.AccNative)
	if instructions == 0 {
		kind := "an abstract"
		if native {
			kind = "a native"
		}
		switch {
		case !abstract && !native:
			k.errorf(m.Pos, "a non-abstract, non-native method must have at least 1 instruction")
		case m.Registers != nil && m.Registers.Locals:
			k.errorf(m.Registers.Pos, "a .locals directive is not valid in %s method", kind)
		case m.Registers != nil:
			k.errorf(m.Registers.Pos, "a .registers directive is not valid in %s method", kind)
		case catches > 0:
			k.errorf(m.Pos, "try/catch blocks cannot be present in %s method", kind)
		case debug > 0:
			k.errorf(m.Pos, "debug directives cannot be present in %s method", kind)
		}
	} else {
		switch {
		case abstract:
			k.errorf(m.Pos, "an abstract method cannot have any instructions")
		case native:
			k.errorf(m.Pos, "a native method cannot have any instructions")
		case m.Registers == nil:
			k.errorf(m.Pos, "a method with instructions needs a .registers or .locals directive")
		case mc.total < mc.paramRegs:
			k.errorf(m.Registers.Pos, "this method needs at least %d registers for its parameters", mc.paramRegs)
		}
	}
	for _, s := range m.Body {
		mc.stmt(s)
	}
	for _, p := range m.Params {
		mc.param(p)
	}
}

// resolve maps pN to its v register: pN is v(total - paramRegs + N).
func (mc *methodCtx) resolve(r *ast.Register) int {
	if r.Param {
		return mc.total - mc.paramRegs + r.Num
	}
	return r.Num
}

func (mc *methodCtx) regName(r *ast.Register) string {
	if r.Param {
		return fmt.Sprintf("%s (v%d in this method)", r, mc.resolve(r))
	}
	return r.String()
}

// register checks that r fits in [0, limit].
func (mc *methodCtx) register(r *ast.Register, limit int) {
	if r == nil {
		mc.errorf(ast.Pos{}, "missing register")
		return
	}
	if v := mc.resolve(r); v < 0 || v > limit {
		mc.errorf(r.Pos, "invalid register %s: must be between v0 and v%d", mc.regName(r), limit)
	}
}

// debugRegister checks a register of .local, .end local and .restart
// local, where smali allows up to v131071.
func (mc *methodCtx) debugRegister(r *ast.Register) {
	mc.register(r, 2<<16-1)
}

func (mc *methodCtx) labelRef(l *ast.LabelRef) {
	if l == nil {
		mc.errorf(ast.Pos{}, "missing label")
		return
	}
	if mc.labels[l.Name] == nil && !mc.broken {
		mc.errorf(l.Pos, "label :%s is not defined in this method", l.Name)
	}
}

// Literal kinds allowed per context, as the parser's token sets.
var (
	integralLits = litKinds(ast.LongLit, ast.IntLit, ast.ShortLit, ast.CharLit, ast.ByteLit)
	fixed32Lits  = litKinds(ast.LongLit, ast.IntLit, ast.ShortLit, ast.ByteLit, ast.FloatLit, ast.CharLit, ast.BoolLit)
	fixedLits    = litKinds(ast.LongLit, ast.IntLit, ast.ShortLit, ast.ByteLit, ast.FloatLit, ast.DoubleLit, ast.CharLit, ast.BoolLit)
)

func litKinds(kinds ...ast.LitKind) map[ast.LitKind]bool {
	m := map[ast.LitKind]bool{}
	for _, k := range kinds {
		m[k] = true
	}
	return m
}

func (mc *methodCtx) literal(l *ast.Literal, kinds map[ast.LitKind]bool, what string) bool {
	if l == nil {
		mc.errorf(ast.Pos{}, "missing %s", what)
		return false
	}
	if !kinds[l.Kind] {
		mc.errorf(l.Pos, "%s literal %s where a %s is expected", l.Kind, l, what)
		return false
	}
	return true
}

func (mc *methodCtx) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.Instruction:
		mc.instruction(s)
	case *ast.ArrayData:
		if s.Width != 1 && s.Width != 2 && s.Width != 4 && s.Width != 8 {
			mc.errorf(s.Pos, "invalid element width %d: must be 1, 2, 4 or 8", s.Width)
		}
		for _, e := range s.Elements {
			mc.literal(e, fixedLits, "array element")
		}
	case *ast.PackedSwitch:
		if mc.literal(s.FirstKey, fixed32Lits, "32-bit key") {
			if _, err := s.FirstKey.Fixed32(); err != nil {
				mc.errorf(s.FirstKey.Pos, "%v", err)
			}
		}
		for _, t := range s.Targets {
			mc.labelRef(t)
		}
	case *ast.SparseSwitch:
		for _, c := range s.Cases {
			if mc.literal(c.Key, fixed32Lits, "32-bit key") {
				if _, err := c.Key.Fixed32(); err != nil {
					mc.errorf(c.Key.Pos, "%v", err)
				}
			}
			mc.labelRef(c.Target)
		}
	case *ast.Catch:
		if s.Type != nil && !isTypeDesc(s.Type.Desc, false, mc.api) {
			mc.errorf(s.Type.Pos, "invalid exception type %q", s.Type.Desc)
		}
		mc.labelRef(s.Start)
		mc.labelRef(s.End)
		mc.labelRef(s.Handler)
	case *ast.Local:
		mc.debugRegister(s.Reg)
		if s.Name != nil {
			mc.stringLit(s.Name)
		}
		if s.Signature != nil {
			mc.stringLit(s.Signature)
		}
		if s.Type != nil && !isTypeDesc(s.Type.Desc, false, mc.api) {
			mc.errorf(s.Type.Pos, "invalid local variable type %q", s.Type.Desc)
		}
	case *ast.EndLocal:
		mc.debugRegister(s.Reg)
	case *ast.RestartLocal:
		mc.debugRegister(s.Reg)
	case *ast.SourceFile:
		if s.File != nil {
			mc.stringLit(s.File)
		}
	case *ast.Label, *ast.Line, *ast.Prologue, *ast.Epilogue:
	default:
		mc.errorf(ast.Pos{}, "invalid statement %T", s)
	}
}

func (mc *methodCtx) instruction(in *ast.Instruction) {
	info := opcode.Lookup(in.Name)
	switch {
	case info == nil:
		mc.errorf(in.Pos, "unknown instruction %q", in.Name)
		return
	case info.Odex:
		mc.errorf(in.Pos, "%s is an odex instruction; smali cannot assemble it", in.Name)
		return
	case info.MinAPI > mc.api:
		mc.errorf(in.Pos, "%s needs API level %d or higher (-a %d)", in.Name, info.MinAPI, info.MinAPI)
		return
	case len(in.Args) != len(info.Operands):
		mc.errorf(in.Pos, "%s takes %d operands (%s), found %d", in.Name, len(info.Operands), shapeString(info), len(in.Args))
		return
	}
	for i, kind := range info.Operands {
		mc.operand(in, kind, in.Args[i])
	}
}

func (mc *methodCtx) operand(in *ast.Instruction, kind opcode.Operand, arg ast.Operand) {
	wrong := func() { mc.errorf(in.Pos, "%s: operand %T where a %s is expected", in.Name, arg, kind) }
	switch kind {
	case opcode.RegNibble, opcode.RegByte, opcode.RegShort:
		r, ok := arg.(*ast.Register)
		if !ok {
			wrong()
			return
		}
		mc.register(r, map[opcode.Operand]int{opcode.RegNibble: 15, opcode.RegByte: 255, opcode.RegShort: 65535}[kind])
	case opcode.RegList:
		l, ok := arg.(*ast.RegisterList)
		if !ok {
			wrong()
			return
		}
		if len(l.Regs) > 5 {
			mc.errorf(l.Pos, "a register list can hold at most 5 registers; use %s/range", in.Name)
		}
		for _, r := range l.Regs {
			mc.register(r, 15)
		}
	case opcode.RegRange:
		r, ok := arg.(*ast.RegisterRange)
		if !ok {
			wrong()
			return
		}
		mc.registerRange(r)
	case opcode.LitNibble, opcode.LitByte, opcode.LitShort:
		l, ok := arg.(*ast.Literal)
		if !ok {
			wrong()
			return
		}
		if !mc.literal(l, integralLits, kind.String()) {
			return
		}
		v, err := l.ShortIntegral()
		if err != nil {
			mc.errorf(l.Pos, "%v", err)
			return
		}
		lo, hi := int16(-32768), int16(32767)
		switch kind {
		case opcode.LitNibble:
			lo, hi = -8, 7
		case opcode.LitByte:
			lo, hi = -128, 127
		}
		if v < lo || v > hi {
			mc.errorf(l.Pos, "literal %s does not fit in a %s (%d to %d)", l, kind, lo, hi)
		}
	case opcode.LitInt, opcode.LitHigh16:
		l, ok := arg.(*ast.Literal)
		if !ok {
			wrong()
			return
		}
		if !mc.literal(l, fixed32Lits, kind.String()) {
			return
		}
		v, err := l.Fixed32()
		if err != nil {
			mc.errorf(l.Pos, "%v", err)
			return
		}
		if kind == opcode.LitHigh16 && v&0xffff != 0 {
			mc.errorf(l.Pos, "literal %s (%#x) does not have its low 16 bits zero, as %s needs", l, uint32(v), in.Name)
		}
	case opcode.LitWide, opcode.LitWideHigh16:
		l, ok := arg.(*ast.Literal)
		if !ok {
			wrong()
			return
		}
		kinds := fixedLits
		if kind == opcode.LitWideHigh16 {
			kinds = fixed32Lits
		}
		if !mc.literal(l, kinds, kind.String()) {
			return
		}
		v, err := l.Fixed64()
		if err != nil {
			mc.errorf(l.Pos, "%v", err)
			return
		}
		if kind == opcode.LitWideHigh16 && v&(1<<48-1) != 0 {
			mc.errorf(l.Pos, "literal %s (%#x) does not have its low 48 bits zero, as %s needs", l, uint64(v), in.Name)
		}
	case opcode.Label:
		l, ok := arg.(*ast.LabelRef)
		if !ok {
			wrong()
			return
		}
		mc.labelRef(l)
	case opcode.StringRef:
		l, ok := arg.(*ast.Literal)
		if !ok || l.Kind != ast.StringLit {
			wrong()
		}
	case opcode.TypeRef:
		t, ok := arg.(*ast.TypeRef)
		if !ok {
			wrong()
			return
		}
		if !isTypeDesc(t.Desc, false, mc.api) {
			mc.errorf(t.Pos, "invalid type descriptor %q", t.Desc)
		}
	case opcode.FieldRef:
		f, ok := arg.(*ast.FieldRef)
		if !ok {
			wrong()
			return
		}
		mc.fieldRef(f)
	case opcode.MethodRef:
		m, ok := arg.(*ast.MethodRef)
		if !ok {
			wrong()
			return
		}
		mc.methodRef(m)
	case opcode.ProtoRef:
		p, ok := arg.(*ast.Proto)
		if !ok {
			wrong()
			return
		}
		mc.proto(p)
	case opcode.MethodHandleRef:
		h, ok := arg.(*ast.MethodHandle)
		if !ok {
			wrong()
			return
		}
		mc.methodHandle(h)
	case opcode.CallSiteRef:
		cs, ok := arg.(*ast.CallSite)
		if !ok {
			wrong()
			return
		}
		if !isSimpleNameText(cs.Name) {
			mc.errorf(cs.Pos, "invalid call site name %q", cs.Name)
		}
		mc.proto(cs.MethodType)
		for _, v := range cs.Args {
			mc.value(v)
		}
		mc.methodRef(cs.Bootstrap)
	default:
		wrong()
	}
}

// registerRange checks {vN .. vM}: smali wants N <= M, N <= 65535 and at
// most 255 registers.
func (mc *methodCtx) registerRange(r *ast.RegisterRange) {
	if r.First == nil {
		if r.Last != nil {
			mc.errorf(r.Pos, "a register range with a last but no first register")
		}
		return
	}
	first := mc.resolve(r.First)
	last := first
	if r.Last != nil {
		last = mc.resolve(r.Last)
	}
	for _, reg := range []*ast.Register{r.First, r.Last} {
		if reg != nil {
			if v := mc.resolve(reg); v < 0 || v >= 2<<16 {
				mc.errorf(reg.Pos, "invalid register %s", mc.regName(reg))
				return
			}
		}
	}
	switch {
	case last < first:
		mc.errorf(r.Pos, "a register range must list the lower register first")
	case first > 65535:
		mc.errorf(r.First.Pos, "invalid register %s: must be between v0 and v65535", mc.regName(r.First))
	case last-first+1 > 255:
		mc.errorf(r.Pos, "a register range can hold at most 255 registers, this one has %d", last-first+1)
	}
}

// param checks a .param directive as smali does: the register must be a
// parameter's first register.
func (mc *methodCtx) param(p *ast.Param) {
	if p.Name != nil {
		mc.stringLit(p.Name)
	}
	mc.annotations(p.Annotations)
	if p.Reg == nil {
		mc.errorf(p.Pos, "a .param directive needs a register")
		return
	}
	reg := mc.resolve(p.Reg)
	if reg >= mc.total {
		mc.errorf(p.Reg.Pos, "register %s is beyond the last register v%d of this method", p.Reg, mc.total-1)
		return
	}
	index := reg - (mc.total - mc.paramRegs)
	if !mc.static {
		index--
	}
	if index < 0 {
		mc.errorf(p.Reg.Pos, "register %s is not a parameter register", p.Reg)
		return
	}
	at := 0
	for _, t := range mc.m.Proto.Params {
		if at == index {
			return
		}
		at++
		if ast.IsWide(t) {
			at++
		}
		if at > index {
			break
		}
	}
	if at == index+1 {
		mc.errorf(p.Reg.Pos, "register %s is the second half of a wide parameter", p.Reg)
	} else {
		mc.errorf(p.Reg.Pos, "register %s is not a parameter register", p.Reg)
	}
}

// isTypeDesc reports whether desc is a valid field type (or V with void).
func isTypeDesc(desc string, void bool, api int) bool {
	if desc == "V" {
		return void
	}
	dims := 0
	for dims < len(desc) && desc[dims] == '[' {
		dims++
	}
	if dims > 255 {
		return false
	}
	elem := desc[dims:]
	return ast.IsPrimitive(elem) || isClassDesc(elem, api)
}

// isRefType reports whether desc is a class or array type.
func isRefType(desc string, api int) bool {
	return isTypeDesc(desc, false, api) && !ast.IsPrimitive(desc)
}

// isClassDesc reports whether desc is L(name/)*name; where names hold name
// characters or, from API 30, spaces.
func isClassDesc(desc string, api int) bool {
	if len(desc) < 3 || desc[0] != 'L' || desc[len(desc)-1] != ';' {
		return false
	}
	for _, seg := range strings.Split(desc[1:len(desc)-1], "/") {
		if !isNameText(seg, api >= lexer.SpacesAPI) {
			return false
		}
	}
	return true
}

func isNameText(s string, spaces bool) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r == utf8.RuneError || !(lexer.IsNameRune(r) || (spaces && isSpace(r))) {
			return false
		}
	}
	return true
}

func isSpace(r rune) bool {
	return r == 0x20 || r == 0xa0 || r == 0x1680 || (r >= 0x2000 && r <= 0x200a) || r == 0x202f ||
		r == 0x205f || r == 0x3000
}

// isSimpleNameText reports whether a name can be written in smali (quoted
// if need be): name characters and spaces, or smali's oddity
// invoke-polymorphic/range.
func isSimpleNameText(s string) bool {
	return isNameText(s, true) || s == "invoke-polymorphic/range"
}

// isMemberName is isSimpleNameText or <name>.
func isMemberName(s string) bool {
	if len(s) > 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return isNameText(s[1:len(s)-1], false)
	}
	return isSimpleNameText(s)
}
