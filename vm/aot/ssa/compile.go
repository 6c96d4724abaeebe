package ssa

import (
	"fmt"
	"slices"
	"strings"
)

// A pass transforms a function in place.
type pass struct {
	name string
	fn   func(*Func)
	doc  string
}

// passes is the optimisation pipeline, in order. Copy propagation runs
// first so the folds see through moves; common subexpression elimination
// after folding, so equal constants are one value, and before the check
// eliminations, so they see one array length where the bytecode computed
// it at each access; loop-invariant code motion after the check
// eliminations, whose patterns it would not change anyway; dead code
// elimination runs after the passes that can leave values or blocks
// unused; if-conversion after the check eliminations (a branch they
// decide is not converted for nothing), the merge of straight-line
// blocks when the branches that will go have gone, and the load
// elimination last, on the largest blocks.
var passes = []pass{
	{"copyprop", copyProp, "forward the sources of copies and trivial φs to their uses"},
	{"constfold", constFold, "fold constant expressions and branches, propagating constants through φs"},
	{"cse", cse, "replace a value by an equal one that dominates it (common subexpression elimination)"},
	{"deadcode", deadCode, "delete unreachable blocks and values without effect nobody uses"},
	{"nilcheckelim", nilCheckElim, "delete null checks of values proven non-null"},
	{"boundscheckelim", boundsCheckElim, "delete bounds checks of indices proven in range"},
	{"licm", licm, "hoist loop-invariant values without effect into the loop's preheader"},
	{"ifconv", ifConv, "turn branches that only choose a number into Selects (if-conversion)"},
	{"deadcode2", deadCode, "delete what the check eliminations left unused"},
	{"emptyblocks", emptyBlocks, "delete empty blocks that only jump on"},
	{"mergeblocks", mergeBlocks, "join a block to its only predecessor when that one jumps only to it"},
	{"loadelim", loadElim, "delete array loads of an element the block already loaded or stored"},
}

// Docs of the barrier passes, which run after the others when
// Config.Barriers asks for them.
const (
	barriersDoc     = "insert paper 003's object-access barriers (levels none, cache, elim, all)"
	barrierElimDoc  = "delete barriers whose object is provably marked in the current GC epoch (levels elim and all)"
	barrierLoopDoc  = "mark the cached barriers of a one-block loop body whose object the loop does not define: skipped after a whole iteration until a safepoint (levels cache and all)"
	barrierCheckDoc = "insert check barriers, unoptimised, at every access point (Config.CheckBarriers)"
)

// pipeline returns the passes cfg runs, in order: the barriers come
// last, so that no optimisation has to keep them in mind and they see
// the accesses the optimised code still makes.
func pipeline(cfg Config) []pass {
	ps := passes[:len(passes):len(passes)]
	if cfg.Guarded != nil {
		ps = append([]pass{{"guardinline", func(f *Func) { guardInline(f, cfg.Guarded, cfg.Barriers) }, guardInlineDoc}}, ps...)
	}
	if cfg.Inline != nil {
		// first, so that the passes optimise the spliced bodies with
		// their callers' arguments
		ps = append([]pass{{"inline", func(f *Func) { inlineCalls(f, cfg.Inline, cfg.Barriers) }, inlineDoc}}, ps...)
	}
	if cfg.Barriers != BarriersOff {
		aux := int64(barrierPlain)
		if cfg.Barriers.Cached() {
			aux = BarrierCached
		}
		ps = append(ps, pass{"barriers", func(f *Func) { insertBarriers(f, aux, !cfg.CheckBarriers) }, barriersDoc})
	}
	if cfg.Barriers.Eliminated() {
		ps = append(ps, pass{"barrierelim", barrierElim, barrierElimDoc})
	}
	if cfg.Barriers.Cached() {
		ps = append(ps, pass{"barrierloop", barrierLoop, barrierLoopDoc})
	}
	if cfg.CheckBarriers {
		ps = append(ps, pass{"barriercheck", func(f *Func) { insertBarriers(f, BarrierCheck, true) }, barrierCheckDoc})
	}
	return ps
}

// allPasses is every pass a configuration may run.
// (the barriers uncached, as at level none, for Run's tests; barrierloop
// in its place after barrierelim)
var allPasses = withBarrierLoop(pipeline(Config{Barriers: BarriersElim, CheckBarriers: true, Inline: func(*Value) *Func { return nil }, Guarded: func(*Value) []Variant { return nil }}))

func withBarrierLoop(ps []pass) []pass {
	i := slices.IndexFunc(ps, func(p pass) bool { return p.name == "barrierelim" }) + 1
	return slices.Insert(ps, i, pass{"barrierloop", barrierLoop, barrierLoopDoc})
}

// PassNames returns the names of the passes in pipeline order.
func PassNames() []string {
	names := make([]string, len(allPasses))
	for i, p := range allPasses {
		names[i] = p.name
	}
	return names
}

// PassDoc returns a line describing the named pass, or "".
func PassDoc(name string) string {
	for _, p := range allPasses {
		if p.name == name {
			return p.doc
		}
	}
	return ""
}

// Config selects what Optimize does.
type Config struct {
	// Disabled names passes to skip.
	Disabled map[string]bool
	// Check runs Check after every pass and fails on the first violation
	// (tests set it; it costs a dominator computation per pass).
	Check bool
	// After, if set, is called after each pass (and with "build" before
	// the first) with the function as it stands: the dumps use it.
	After func(pass string, f *Func)
	// Barriers selects paper 003's object-access barriers; off (the
	// zero value) inserts none.
	Barriers BarrierLevel
	// CheckBarriers adds, after the barriers of the level, a check
	// barrier at every access point, unoptimised, which marks a shadow
	// bitmap: at each collection the two bitmaps must be equal, or the
	// cache or the elimination dropped an object's only barrier in that
	// epoch (the engine's barrier check).
	CheckBarriers bool
	// Inline, if set, supplies the callees the inline pass may splice
	// into their callers (inline.go); without it the pass does not run.
	// Inlined calls are invisible to method entry/exit hooks, so a VM
	// with hooks compiles without it.
	Inline Inliner
	// Guarded, if set, supplies the variants the guardinline pass may
	// splice behind guards at virtual and interface calls
	// (guardinline.go), after the inline pass; like Inline, only for a
	// VM without method hooks.
	Guarded GuardedInliner
}

// ValidPass reports whether name is a pass name or "build" (the IR as the
// front end built it).
func ValidPass(name string) bool {
	if name == "build" {
		return true
	}
	for _, p := range allPasses {
		if p.name == name {
			return true
		}
	}
	return false
}

// Optimize runs the enabled passes over f in order.
func Optimize(f *Func, cfg Config) error {
	for name := range cfg.Disabled {
		if !ValidPass(name) || name == "build" {
			return fmt.Errorf("ssa: unknown pass %q (passes: %s)", name, strings.Join(PassNames(), ", "))
		}
	}
	if cfg.Check {
		if err := Check(f); err != nil {
			return fmt.Errorf("before the passes: %w", err)
		}
	}
	if cfg.After != nil {
		cfg.After("build", f)
	}
	for _, p := range pipeline(cfg) {
		if cfg.Disabled[p.name] {
			continue
		}
		p.fn(f)
		if cfg.Check {
			if err := Check(f); err != nil {
				return fmt.Errorf("after %s: %w", p.name, err)
			}
		}
		if cfg.After != nil {
			cfg.After(p.name, f)
		}
	}
	return nil
}

// Run runs the single named pass over f (barriers: uncached, the none
// level's); tests use it.
func Run(f *Func, name string) error {
	for _, p := range allPasses {
		if p.name == name {
			p.fn(f)
			return nil
		}
	}
	return fmt.Errorf("ssa: unknown pass %q", name)
}
