// Package engine is the aot execution engine: it lowers a method's
// optimised SSA form (vm/aot) to closure-threaded code whose values live
// in slots of the thread's register stack, and runs it. A method the
// lowering does not handle runs on the portable interpreter; compiled and
// interpreted methods call each other through the runtime's Thread.Call,
// so the engine decides per method.
package engine

import (
	"fmt"
	"sort"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/interp"
	"github.com/droidprof/droidprof/vm/runtime"
)

// Engine runs compiled code, compiling each method at its first call, and
// falls back to the interpreter per method. One Engine serves one VM
// (method IDs are per VM); the VM's global lock serialises its use.
type Engine struct {
	in    *interp.Interp
	cfg   ssa.Config
	codes []*code // by runtime.Method.ID; nil: not tried yet
	// methodIndex maps each DEX file's code items to their method index.
	methodIndex map[*dex.File]map[*dex.Code]uint32
	fallbacks   map[string]int
	compiled    int
	threads     map[*runtime.Thread]*threadFrames
	last        *threadFrames // the thread that ran last
	// barrierSites counts the barriers in compiled methods; acc is
	// what they mark (barrier.go)
	barrierSites int
	acc          *gc.AccessBitmap
	// Filter, if set, selects the methods to compile; the others run on
	// the interpreter without counting as fallbacks.
	Filter func(m *runtime.Method) bool

	// cached are the methods of .oat caches (UseCache) by DEX file and
	// method index; fromCache counts those compiled.
	cached    map[*dex.File]map[uint32]cachedMethod
	fromCache int

	// noInline turns the inline pass off (SetInline); inlined counts
	// the calls it replaced.
	noInline bool
	inlined  int
	// guarded are the guarded inliners (aot.VirtualInliner) by DEX
	// file, which keep the callees they compiled
	guarded map[*dex.File]ssa.GuardedInliner
	guards  int
	// noIntrinsics turns the intrinsics off (SetIntrinsics)
	noIntrinsics   bool
	intrinsicCalls uint64
	// objInit is Object.<init>'s empty body once objInitDone
	objInit     *ssa.Func
	objInitDone bool
}

// countCalls counts the static and direct invokes of fn, the calls the
// inline pass may replace.
func countCalls(fn *ssa.Func) int {
	n := 0
	for _, b := range fn.Blocks {
		for _, v := range b.Values {
			if v.Op == ssa.OpInvokeStatic || v.Op == ssa.OpInvokeDirect {
				n++
			}
		}
	}
	return n
}

// interpreted marks a method left to the interpreter.
var interpreted = &code{}

// New returns an engine with the compiler's default pipeline.
func New() *Engine {
	return &Engine{
		in:          interp.New(),
		methodIndex: map[*dex.File]map[*dex.Code]uint32{},
		fallbacks:   map[string]int{},
		threads:     map[*runtime.Thread]*threadFrames{},
	}
}

var _ runtime.Engine = (*Engine)(nil)

// Execute runs m in the frame at fp: compiled code if m compiles, else
// the interpreter.
func (e *Engine) Execute(t *runtime.Thread, m *runtime.Method, fp int) bool {
	var c *code
	if m.ID < len(e.codes) {
		c = e.codes[m.ID]
	}
	if c == nil {
		c = e.compile(t.VM, m)
	}
	if c == interpreted || t.SP != fp+int(m.Code.Registers) {
		return e.in.Execute(t, m, fp)
	}
	return c.exec(e, t, m, fp)
}

func (e *Engine) compile(vm *runtime.VM, m *runtime.Method) *code {
	for m.ID >= len(e.codes) {
		e.codes = append(e.codes, nil)
	}
	if e.Filter != nil && !e.Filter(m) {
		e.codes[m.ID] = interpreted
		return interpreted
	}
	c, err := e.lowerMethod(vm, m)
	if err != nil {
		e.fallbacks[reason(err)]++
		c = interpreted
	} else {
		e.compiled++
	}
	e.codes[m.ID] = c
	return c
}

func (e *Engine) lowerMethod(vm *runtime.VM, m *runtime.Method) (*code, error) {
	if m.Class == nil || m.Class.File == nil || m.Code == nil {
		return nil, fmt.Errorf("no DEX code")
	}
	f := m.Class.File.F
	idx, ok := e.indexOf(f, m.Code)
	if !ok {
		return nil, fmt.Errorf("code item not found in its DEX file")
	}
	if c, ok, err := e.lowerCached(f, idx, m); ok {
		return c, err
	}
	cfg := e.cfg
	if e.inlines(vm) {
		cfg.Inline = e.inliner(vm, f, idx, cfg)
		cfg.Guarded = e.guardedInliner(f, cfg)
		// the calls the pass removed, for Stats
		calls := 0
		cfg.After = func(pass string, fn *ssa.Func) {
			switch pass {
			case "build":
				calls = countCalls(fn)
			case "inline":
				e.inlined += calls - countCalls(fn)
			case "guardinline":
				e.guards += countGuards(fn)
			}
		}
	}
	var t aot.Tables
	fn, err := aot.CompileMethod(frontend.Method{File: f, Method: idx, Access: m.Access, Code: m.Code}, aot.RecordTables(cfg, &t))
	if err != nil {
		return nil, err
	}
	c, err := lower(fn, m, t.Handlers, t.ThrowPC)
	if err == nil {
		e.barrierSites += ssa.CountBarriers(fn)
	}
	return c, err
}

// inlines reports whether methods compiled now may have calls inlined:
// not when a method entry or exit hook is set (dpa), which must see
// every call, nor when SetInline turned inlining off. The VM's hooks are
// set when it is created, before any method is compiled. Methods taken
// from an .oat cache keep the cache's IR, which is compiled without
// inlining.
func (e *Engine) inlines(vm *runtime.VM) bool {
	return !e.noInline && vm != nil && vm.Hooks.MethodEntry == nil && vm.Hooks.MethodExit == nil
}

// inliner is aot.SameClassInliner for method idx of f, which also offers
// the empty body of java.lang.Object's constructor, which every
// constructor of a direct subclass calls: the class comes from the boot
// class path, and its code is checked to be empty (objectInit).
func (e *Engine) inliner(vm *runtime.VM, f *dex.File, idx uint32, cfg ssa.Config) ssa.Inliner {
	objInit := func(call *ssa.Value) *ssa.Func {
		if call.Op == ssa.OpInvokeDirect && call.Aux >= 0 && int(call.Aux) < len(f.Methods) {
			ref := f.Methods[call.Aux]
			if f.TypeName(ref.Class) == "Ljava/lang/Object;" && f.Str(ref.Name) == "<init>" && f.ProtoString(ref.Proto) == "()V" {
				return e.objectInit(vm, cfg)
			}
		}
		return nil
	}
	// the callees are compiled with Object.<init> inlined (a
	// constructor of a direct subclass of Object is then a leaf), and
	// with nothing else, which could recurse
	callees := cfg
	callees.Inline = objInit
	same := aot.SameClassInliner(f, idx, callees)
	return func(call *ssa.Value) *ssa.Func {
		if g := objInit(call); g != nil {
			return g
		}
		if same == nil {
			return nil
		}
		return same(call)
	}
}

// guardedInliner is aot.VirtualInliner for f, made once per file.
func (e *Engine) guardedInliner(f *dex.File, cfg ssa.Config) ssa.GuardedInliner {
	if g, ok := e.guarded[f]; ok {
		return g
	}
	if e.guarded == nil {
		e.guarded = map[*dex.File]ssa.GuardedInliner{}
	}
	g := aot.VirtualInliner(f, cfg)
	e.guarded[f] = g
	return g
}

// objectInit returns the IR of the VM's java.lang.Object.<init>()V when
// it does nothing (This, then Return: no value that names an index of
// its DEX file, which would mean something else in the caller's), else
// nil; it compiles it once.
func (e *Engine) objectInit(vm *runtime.VM, cfg ssa.Config) *ssa.Func {
	if e.objInitDone {
		return e.objInit
	}
	e.objInitDone = true
	obj := vm.Class("Ljava/lang/Object;")
	if obj == nil {
		return nil
	}
	m := runtime.FindMethod(obj, "<init>", "()V")
	if m == nil || m.Class != obj || m.Code == nil || m.Class.File == nil {
		return nil
	}
	idx, ok := e.indexOf(m.Class.File.F, m.Code)
	if !ok {
		return nil
	}
	cfg.Inline, cfg.After = nil, nil
	g, err := aot.CompileMethod(frontend.Method{File: m.Class.File.F, Method: idx, Access: m.Access, Code: m.Code}, cfg)
	if err != nil {
		return nil
	}
	for _, b := range g.Blocks {
		for _, v := range b.Values {
			if v.Op != ssa.OpThis {
				return nil
			}
		}
		if b.Kind != ssa.BlockPlain && b.Kind != ssa.BlockReturn {
			return nil
		}
	}
	e.objInit = g
	return g
}

// SetInline turns the inlining of small callees (ssa's inline pass) on,
// the default, or off.
func (e *Engine) SetInline(on bool) { e.noInline = !on }

func (e *Engine) indexOf(f *dex.File, c *dex.Code) (uint32, bool) {
	mi := e.methodIndex[f]
	if mi == nil {
		mi = map[*dex.Code]uint32{}
		for ci := range f.ClassDefs {
			d := f.ClassDefs[ci].Data
			if d == nil {
				continue
			}
			for _, ms := range [][]dex.EncodedMethod{d.DirectMethods, d.VirtualMethods} {
				for _, em := range ms {
					if em.Code != nil {
						mi[em.Code] = em.Method
					}
				}
			}
		}
		e.methodIndex[f] = mi
	}
	i, ok := mi[c]
	return i, ok
}

// reason groups alike fallback reasons: the front end's reason without
// its pc and registers, the lowering's error text.
func reason(err error) string {
	if fe, ok := err.(*frontend.Error); ok {
		return "frontend: " + fe.Reason
	}
	return err.Error()
}

// countGuards counts the guards of guarded inlining in fn.
func countGuards(fn *ssa.Func) int {
	n := 0
	for _, b := range fn.Blocks {
		for _, v := range b.Values {
			if v.Op == ssa.OpTargetIs {
				n++
			}
		}
	}
	return n
}

// Stats are the engine's compilation counts so far.
type Stats struct {
	Compiled  int
	Fallbacks []aot.ReasonCount // most frequent first
	Barriers  BarrierStats

	// FromCache counts the compiled methods whose IR came from an .oat
	// cache (UseCache), without the front end or the passes.
	FromCache int

	// Inlined counts the call sites the inline pass replaced by their
	// callee's body in the compiled methods.
	Inlined int

	// Guards counts the guards (ssa.OpTargetIs) the guardinline pass
	// placed before the virtual and interface targets it inlined.
	Guards int

	// Intrinsics counts the calls an intrinsic answered without calling
	// (intrinsic.go).
	Intrinsics uint64
}

// NumFallbacks is the number of methods left to the interpreter.
func (s Stats) NumFallbacks() int {
	n := 0
	for _, r := range s.Fallbacks {
		n += r.Count
	}
	return n
}

// Stats returns how many methods were compiled and why the others fell
// back.
func (e *Engine) Stats() Stats {
	s := Stats{Compiled: e.compiled, FromCache: e.fromCache, Inlined: e.inlined, Guards: e.guards, Intrinsics: e.intrinsicCalls, Barriers: e.barrierStats()}
	for k, n := range e.fallbacks {
		s.Fallbacks = append(s.Fallbacks, aot.ReasonCount{Reason: k, Count: n})
	}
	sort.Slice(s.Fallbacks, func(i, j int) bool {
		a, b := s.Fallbacks[i], s.Fallbacks[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Reason < b.Reason
	})
	return s
}
