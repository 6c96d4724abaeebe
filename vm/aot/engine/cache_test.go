package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/oat"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/workloads"
)

// writeCache compiles dexFile and writes its .oat cache into dir, after
// edit (if set) has changed the compiler's result; it returns the path.
func writeCache(t *testing.T, dir, dexFile string, edit func(*aot.Result)) string {
	t.Helper()
	data, err := os.ReadFile(dexFile)
	if err != nil {
		t.Fatal(err)
	}
	f, err := dex.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	r := aot.Compile(f, aot.Options{})
	if edit != nil {
		edit(r)
	}
	b, err := oat.Encode(oat.New(f, dexFile, r, ssa.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.Base(dexFile)+".oat")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runOat runs main from dexFile on the aot engine with the cache oatFile,
// after setup (if any) has configured the engine.
func runOat(t *testing.T, oatFile, dexFile, main string, args []string, setup ...func(*engine.Engine)) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	v, err := vm.New(vm.Options{ClassPath: []string{dexFile}, Stdout: &stdout, Stderr: &stderr, Engine: "aot", Oat: oatFile})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range setup {
		s(v.Engine.(*engine.Engine))
	}
	code, err := v.RunMain(ctx, main, args)
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	r := result{stdout: stdout.String(), code: code, stats: v.Engine.(*engine.Engine).Stats()}
	r.stderrFirst, _, _ = strings.Cut(stderr.String(), "\n")
	return r
}

// TestWorkloadsFromCache runs every workload on the aot engine with and
// without its .oat cache: the same output and exit status, the same
// number of methods compiled (without inlining, as the cache is
// compiled), and the workload's methods taken from the cache.
func TestWorkloadsFromCache(t *testing.T) {
	dir := t.TempDir()
	for _, w := range workloads.All {
		if strings.HasSuffix(w.Name, "-timed") {
			continue
		}
		t.Run(w.Name, func(t *testing.T) {
			dexFile := filepath.Join("..", "..", "..", "workloads", "dex", w.DEX)
			cache := writeCache(t, dir, dexFile, nil)
			// the cache's IR is compiled without inlining, so neither
			// run inlines in the methods it compiles (a method
			// inlined everywhere would not be compiled on its own)
			noInline := func(e *engine.Engine) { e.SetInline(false) }
			want := run(t, "aot", gc.Config{}, dexFile, w.Main, w.Args, noInline)
			got := runOat(t, cache, dexFile, w.Main, w.Args, noInline)
			if got.stdout != want.stdout || got.code != want.code || got.stderrFirst != want.stderrFirst {
				t.Errorf("from the cache: exit %d, stdout:\n%s\nstderr: %s\nwithout: exit %d, stdout:\n%s\nstderr: %s",
					got.code, got.stdout, got.stderrFirst, want.code, want.stdout, want.stderrFirst)
			}
			if got.stats.Compiled != want.stats.Compiled || got.stats.NumFallbacks() != want.stats.NumFallbacks() {
				t.Errorf("from the cache: %d compiled, %d fallbacks; without: %d, %d", got.stats.Compiled, got.stats.NumFallbacks(), want.stats.Compiled, want.stats.NumFallbacks())
			}
			if got.stats.FromCache == 0 || want.stats.FromCache != 0 {
				t.Errorf("methods from the cache: %d with it, %d without", got.stats.FromCache, want.stats.FromCache)
			}
			t.Logf("%d methods compiled, %d of them from the cache", got.stats.Compiled, got.stats.FromCache)
		})
	}
}

// TestCacheIsWhatRuns checks that the engine takes a method from the
// cache, not from the compiler: methods the cache records as fallbacks
// (which the compiler would compile) run on the interpreter, counted
// with the cache's reason, and the program's output does not change.
func TestCacheIsWhatRuns(t *testing.T) {
	w, _ := workloads.Lookup("dpa-fib")
	dexFile := filepath.Join("..", "..", "..", "workloads", "dex", w.DEX)
	const why = "left to the interpreter by the test"
	cache := writeCache(t, t.TempDir(), dexFile, func(r *aot.Result) {
		for _, m := range r.Methods {
			r.Fallbacks = append(r.Fallbacks, aot.Fallback{Name: m.Name, Index: m.Index, Reason: &frontend.Error{PC: -1, Reason: why}})
		}
		r.Methods = nil
	})
	want := run(t, "interp", gc.Config{}, dexFile, w.Main, w.Args)
	got := runOat(t, cache, dexFile, w.Main, w.Args)
	if got.stdout != want.stdout || got.code != want.code {
		t.Errorf("from the cache: exit %d, stdout:\n%s\ninterpreter: exit %d, stdout:\n%s", got.code, got.stdout, want.code, want.stdout)
	}
	n := 0
	for _, rc := range got.stats.Fallbacks {
		if rc.Reason == "frontend: "+why {
			n = rc.Count
		}
	}
	if n == 0 || got.stats.FromCache != 0 {
		t.Errorf("stats %+v: want the cache's fallbacks counted and nothing from the cache compiled", got.stats)
	}
}
