package difftest

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"

	"github.com/droidprof/droidprof/vm"
	aotengine "github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/verify"
)

// api is the API level the programs are assembled for.
const api = 28

// Assemble assembles files into a DEX file and runs the verifier on
// every class: an error names the file and line (assembly) or the method
// and dex pc (verification).
func Assemble(files []File) ([]byte, error) {
	var classes []*ast.Class
	for _, f := range files {
		c, err := smali.Parse(f.Name, []byte(f.Text), &smali.Options{API: api})
		if err != nil {
			return nil, fmt.Errorf("difftest: %w", err)
		}
		classes = append(classes, c)
	}
	data, err := smali.Assemble(classes, &smali.AssembleOptions{API: api})
	if err != nil {
		return nil, fmt.Errorf("difftest: assemble: %w", err)
	}
	app, err := dex.Read(data)
	if err != nil {
		return nil, fmt.Errorf("difftest: read back: %w", err)
	}
	boot, err := dex.Read(core.DEX())
	if err != nil {
		return nil, fmt.Errorf("difftest: core library: %w", err)
	}
	h := verify.NewFiles(boot, app)
	for i := range app.ClassDefs {
		if err := verify.Class(app, &app.ClassDefs[i], h); err != nil {
			return nil, fmt.Errorf("difftest: verifier rejects a generated program: %w", err)
		}
	}
	return data, nil
}

// Result is what one run of a program printed and returned.
type Result struct {
	Stdout, Stderr string
	Exit           int
}

// Stats is what a comparison saw besides the results: the aot engine's
// compilation counts and the size of the trace.
type Stats struct {
	Compiled, Fallbacks int
	FallbackReasons     []string
	Inlined             int  // calls the aot engine's inline pass replaced
	Guards              int  // guards its guardinline pass placed
	Lines               int  // of stdout
	Uncaught            bool // the program ended with an uncaught exception
}

// Run runs main from the DEX file at path on the named engine.
func Run(ctx context.Context, path, main, engine string, c gc.Config) (Result, error) {
	r, _, err := run(ctx, path, main, engine, c, nil, "")
	return r, err
}

// run is Run that also returns the aot engine's counts; filter, if set,
// chooses the methods the aot engine compiles (the others it leaves to
// the interpreter).
func run(ctx context.Context, path, main, engine string, c gc.Config, filter func(*runtime.Method) bool, barriers string) (Result, Stats, error) {
	var stdout, stderr bytes.Buffer
	v, err := vm.New(vm.Options{ClassPath: []string{path}, GC: c, Stdout: &stdout, Stderr: &stderr, Engine: engine, Barriers: barriers})
	if err != nil {
		return Result{}, Stats{}, fmt.Errorf("%s engine: %w", engine, err)
	}
	if e, ok := v.Engine.(*aotengine.Engine); ok {
		e.Filter = filter
	}
	code, err := v.RunMain(ctx, main, nil)
	if err != nil {
		return Result{}, Stats{}, fmt.Errorf("%s engine: %w", engine, err)
	}
	r := Result{Stdout: stdout.String(), Stderr: stderr.String(), Exit: code}
	st := Stats{Lines: strings.Count(r.Stdout, "\n"), Uncaught: strings.HasPrefix(r.Stderr, "Exception in thread")}
	if e, ok := v.Engine.(*aotengine.Engine); ok {
		s := e.Stats()
		st.Compiled, st.Fallbacks, st.Inlined, st.Guards = s.Compiled, s.NumFallbacks(), s.Inlined, s.Guards
		for _, r := range s.Fallbacks {
			st.FallbackReasons = append(st.FallbackReasons, fmt.Sprintf("%d× %s", r.Count, r.Reason))
		}
	}
	return r, st, nil
}

// Mismatch describes how the two engines disagreed on a program.
type Mismatch struct {
	Interp, AOT Result
}

func (m *Mismatch) Error() string {
	var b strings.Builder
	if m.Interp.Exit != m.AOT.Exit {
		fmt.Fprintf(&b, "exit status: interp %d, aot %d\n", m.Interp.Exit, m.AOT.Exit)
	}
	if m.Interp.Stderr != m.AOT.Stderr {
		fmt.Fprintf(&b, "stderr:\n--- interp\n%s--- aot\n%s", clip(m.Interp.Stderr), clip(m.AOT.Stderr))
	}
	if m.Interp.Stdout != m.AOT.Stdout {
		fmt.Fprintf(&b, "stdout differs from line %d:\n%s", firstDiff(m.Interp.Stdout, m.AOT.Stdout), lineDiff(m.Interp.Stdout, m.AOT.Stdout))
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "...\n"
	}
	return s
}

// firstDiff is the 1-based number of the first line where a and b differ.
func firstDiff(a, b string) int {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// lineDiff shows a few lines around the first difference.
func lineDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := firstDiff(a, b) - 1
	var out strings.Builder
	for j := max(0, i-3); j < i+4; j++ {
		x, y := "", ""
		if j < len(la) {
			x = la[j]
		}
		if j < len(lb) {
			y = lb[j]
		}
		mark := " "
		if x != y {
			mark = "!"
		}
		fmt.Fprintf(&out, "%s %4d interp %-30q aot %q\n", mark, j+1, x, y)
	}
	return out.String()
}

// Mixed returns a filter for the aot engine that compiles about half of
// the methods, chosen by seed, so that compiled and interpreted methods
// call each other and exceptions cross from one to the other.
func Mixed(seed int64) func(*runtime.Method) bool {
	return func(m *runtime.Method) bool {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d %s.%s%s", seed, m.Class.Name, m.Name, m.Signature)
		return h.Sum64()&1 == 0
	}
}

// barrierLevels are the levels the compiled side runs at, by seed.
var barrierLevels = []string{"off", "none", "cache", "elim", "all"}

// Compare assembles p into dir, runs it on the interpreter and on the
// aot engine, and returns a *Mismatch if they disagree on stdout, stderr
// (an uncaught exception and its stack) or the exit status. For one seed
// in three the aot engine compiles only the methods Mixed chooses, and
// the compiled code has paper 003's barriers at a level chosen by the
// seed (off, none, cache, elim, all), which must change nothing.

func Compare(ctx context.Context, p *Program, dir string, c gc.Config) (Stats, error) {
	data, err := Assemble(p.Files)
	if err != nil {
		return Stats{}, fmt.Errorf("seed %d: %w", p.Seed, err)
	}
	path := filepath.Join(dir, fmt.Sprintf("seed-%d.dex", p.Seed))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return Stats{}, err
	}
	defer os.Remove(path)
	want, _, err := run(ctx, path, p.Main, "interp", c, nil, "")
	if err != nil {
		return Stats{}, fmt.Errorf("seed %d: %w", p.Seed, err)
	}
	var filter func(*runtime.Method) bool
	if p.Seed%3 == 0 {
		filter = Mixed(p.Seed)
	}
	// Barriers (paper 003) must not change what a program does: the
	// compiled side runs at a level chosen by the seed.
	got, st, err := run(ctx, path, p.Main, "aot", c, filter, barrierLevels[p.Seed%int64(len(barrierLevels))])
	if err != nil {
		return st, fmt.Errorf("seed %d: %w", p.Seed, err)
	}
	if got != want {
		return st, &Mismatch{Interp: want, AOT: got}
	}
	if st.Fallbacks > 0 {
		// Not a wrong result, but generated code the compiler should
		// handle: worth a look.
		return st, fmt.Errorf("seed %d: the same results, but %d methods fell back to the interpreter: %s", p.Seed, st.Fallbacks, strings.Join(st.FallbackReasons, "; "))
	}
	return st, nil
}
