// Package aot is droidprof's ahead-of-time compiler for DEX bytecode, as
// ART's dex2oat is for Android: per method, the front end
// (vm/aot/frontend) builds the control-flow graph, dominator tree and SSA
// form with inferred types, and the passes of vm/aot/ssa optimise it.
// A method the compiler does not handle is a fallback, counted with its
// reason, and runs on the interpreter.
//
// vm/aot/engine lowers the optimised IR to executable closures and
// vm/aot/oat stores it in .oat cache files. With Options.Passes.Barriers,
// the last passes insert paper 003's object-access barriers and remove the
// redundant ones; Method.Barriers counts them.
package aot

import (
	"fmt"
	"sort"

	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
)

// Options select what Compile does.
type Options struct {
	// Passes configures the optimisation pipeline (disabled passes,
	// checking, dumps).
	Passes ssa.Config
	// Filter, if set, selects the methods to compile by their name as
	// dex.File.MethodName gives it ("LClass;.name:(params)ret").
	Filter func(name string) bool
	// Inline runs the inline pass with SameClassInliner and the
	// guardinline pass with VirtualInliner, as the aot engine does when
	// no method hook is set. An .oat cache must not
	// be written from such a result: its IR would hide calls from a
	// VM with method hooks (oat.Identity of a Config without Inline
	// would not say so).
	Inline bool
}

// Method is one compiled method.
type Method struct {
	Name  string
	Index uint32 // method index in the DEX file
	Func  *ssa.Func
	// Tables are what the lowering needs of the IR as the front end
	// built it.
	Tables Tables
	// Barriers is the number of paper 003's barriers in Func (at the
	// level Options.Passes.Barriers selects).
	Barriers int
}

// Tables are facts of a method's IR as the front end built it that the
// passes do not keep and the lowering needs, by block ID.
type Tables struct {
	// Handlers are the handler addresses of each block's exception
	// edges, in edge order: passes may redirect an edge past an empty
	// handler block (emptyblocks), never reorder or drop one.
	Handlers map[int][]int
	// ThrowPC is the pc of each Throw block's throw instruction: copy
	// propagation replaces the control by the thrown value, whose pc is
	// where that was made.
	ThrowPC map[int]int
}

// RecordTables returns cfg with an After hook that fills t from the IR
// as built (before the first pass), then calls cfg's own After.
func RecordTables(cfg ssa.Config, t *Tables) ssa.Config {
	after := cfg.After
	cfg.After = func(pass string, fn *ssa.Func) {
		if pass == "build" {
			t.Handlers, t.ThrowPC = map[int][]int{}, map[int]int{}
			for _, b := range fn.Blocks {
				for _, h := range b.Succs[len(b.Succs)-b.NCatch:] {
					t.Handlers[b.ID] = append(t.Handlers[b.ID], h.PC)
				}
				if b.Kind == ssa.BlockThrow && b.Control != nil {
					t.ThrowPC[b.ID] = b.Control.PC
				}
			}
		}
		if after != nil {
			after(pass, fn)
		}
	}
	return cfg
}

// Fallback is a method left to the interpreter, and why.
type Fallback struct {
	Name   string
	Index  uint32 // method index in the DEX file
	Reason error
}

// Result is the outcome of compiling a DEX file.
type Result struct {
	Methods   []Method
	Fallbacks []Fallback
	// Bytecodes counts the code units of the methods attempted.
	Bytecodes int
}

// Compile compiles every method with code in f (those Filter selects).
// It never fails as a whole: a method that cannot be compiled is a
// fallback.
func Compile(f *dex.File, opt Options) *Result {
	r := &Result{}
	var guarded ssa.GuardedInliner
	if opt.Inline {
		guarded = VirtualInliner(f, opt.Passes)
	}
	for ci := range f.ClassDefs {
		def := &f.ClassDefs[ci]
		if def.Data == nil {
			continue
		}
		for _, ms := range [][]dex.EncodedMethod{def.Data.DirectMethods, def.Data.VirtualMethods} {
			for _, em := range ms {
				if em.Code == nil {
					continue
				}
				name := f.MethodName(em.Method)
				if opt.Filter != nil && !opt.Filter(name) {
					continue
				}
				r.Bytecodes += len(em.Code.Insns)
				cfg := opt.Passes
				if opt.Inline {
					cfg.Inline = SameClassInliner(f, em.Method, cfg)
					cfg.Guarded = guarded
				}
				var t Tables
				fn, err := CompileMethod(frontend.Method{File: f, Method: em.Method, Access: em.Access, Code: em.Code}, RecordTables(cfg, &t))
				if err != nil {
					r.Fallbacks = append(r.Fallbacks, Fallback{name, em.Method, err})
					continue
				}
				r.Methods = append(r.Methods, Method{name, em.Method, fn, t, ssa.CountBarriers(fn)})
			}
		}
	}
	return r
}

// CompileMethod builds and optimises one method. A bug in the compiler
// that panics becomes an error naming it (tests fail on those; a VM falls
// back to the interpreter rather than crash).
func CompileMethod(m frontend.Method, cfg ssa.Config) (fn *ssa.Func, err error) {
	defer func() {
		if r := recover(); r != nil {
			name := "a method without a DEX file"
			if m.File != nil {
				name = m.File.MethodName(m.Method)
			}
			fn, err = nil, fmt.Errorf("internal compiler error in %s: %v", name, r)
		}
	}()
	fn, err = frontend.Build(m)
	if err != nil {
		return nil, err
	}
	if err := ssa.Optimize(fn, cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", fn.Name, err)
	}
	return fn, nil
}

// FallbackReasons counts the fallbacks by reason, the dex pc and
// register numbers left out so that alike reasons group; most frequent
// first.
func (r *Result) FallbackReasons() []ReasonCount {
	m := map[string]int{}
	for _, fb := range r.Fallbacks {
		m[reasonKey(fb.Reason)]++
	}
	out := make([]ReasonCount, 0, len(m))
	for k, n := range m {
		out = append(out, ReasonCount{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Reason < out[j].Reason
	})
	return out
}

// ReasonCount is a fallback reason and how many methods it applies to.
type ReasonCount struct {
	Reason string
	Count  int
}

func reasonKey(err error) string {
	if e, ok := err.(*frontend.Error); ok {
		return e.Reason
	}
	return err.Error()
}
