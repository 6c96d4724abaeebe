package ssa

import (
	"fmt"
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
// unused.
var passes = []pass{
	{"copyprop", copyProp, "forward the sources of copies and trivial φs to their uses"},
	{"constfold", constFold, "fold constant expressions and branches, propagating constants through φs"},
	{"cse", cse, "replace a value by an equal one that dominates it (common subexpression elimination)"},
	{"deadcode", deadCode, "delete unreachable blocks and values without effect nobody uses"},
	{"nilcheckelim", nilCheckElim, "delete null checks of values proven non-null"},
	{"boundscheckelim", boundsCheckElim, "delete bounds checks of indices proven in range"},
	{"licm", licm, "hoist loop-invariant values without effect into the loop's preheader"},
	{"deadcode2", deadCode, "delete what the check eliminations left unused"},
	{"emptyblocks", emptyBlocks, "delete empty blocks that only jump on"},
}

// PassNames returns the names of the passes in pipeline order.
func PassNames() []string {
	names := make([]string, len(passes))
	for i, p := range passes {
		names[i] = p.name
	}
	return names
}

// PassDoc returns a line describing the named pass, or "".
func PassDoc(name string) string {
	for _, p := range passes {
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
}

// ValidPass reports whether name is a pass name or "build" (the IR as the
// front end built it).
func ValidPass(name string) bool {
	if name == "build" {
		return true
	}
	for _, p := range passes {
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
	for _, p := range passes {
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

// Run runs the single named pass over f; tests use it.
func Run(f *Func, name string) error {
	for _, p := range passes {
		if p.name == name {
			p.fn(f)
			return nil
		}
	}
	return fmt.Errorf("ssa: unknown pass %q", name)
}
