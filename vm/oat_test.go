package vm

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/aot/oat"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
)

// TestOatCoreLibrary runs a program with an .oat cache of the core
// library: the core methods it calls come from the cache.
func TestOatCoreLibrary(t *testing.T) {
	f, err := dex.Read(core.DEX())
	if err != nil {
		t.Fatal(err)
	}
	b, err := oat.Encode(oat.New(f, "core.dex", aot.Compile(f, aot.Options{}), ssa.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "core.oat")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join("..", "workloads", "dex", "dpa-fib.dex")
	var out bytes.Buffer
	v, err := New(Options{ClassPath: []string{app}, Engine: "aot", Oat: path, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	if code, err := v.RunMain(context.Background(), "dpa.Fib", []string{"10"}); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	s := v.Engine.(*engine.Engine).Stats()
	if s.FromCache == 0 || s.FromCache >= s.Compiled {
		t.Errorf("%d methods compiled, %d from the cache: want the core library's from it and the program's not", s.Compiled, s.FromCache)
	}
	t.Logf("%s: %d methods compiled, %d from the core library's cache", strings.TrimSpace(out.String()), s.Compiled, s.FromCache)
}

// TestOatOptions checks the errors of Options.Oat that come before any
// cache is read.
func TestOatOptions(t *testing.T) {
	app := filepath.Join("..", "workloads", "dex", "dpa-fib.dex")
	for _, tc := range []struct {
		opts Options
		is   error
		want string
	}{
		{Options{ClassPath: []string{app}, Oat: "app.oat"}, nil, "vm: .oat cache app.oat: only the aot engine uses one"},
		{Options{ClassPath: []string{app}, Oat: filepath.Join(t.TempDir(), "none.oat"), Engine: "aot"}, os.ErrNotExist, "make it with droidprof vm compile " + app + " -o "},
	} {
		_, err := New(tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("New(%+v): %v, want an error containing %q", tc.opts, err, tc.want)
		}
	}
}

// A cache compiled without barriers is refused by a run with them (the
// level is part of the compiler's identity), and the advice to remake it
// compiles at the run's level.
func TestOatBarrierLevel(t *testing.T) {
	app := filepath.Join("..", "workloads", "dex", "dpa-fib.dex")
	data, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	f, err := dex.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	b, err := oat.Encode(oat.New(f, app, aot.Compile(f, aot.Options{}), ssa.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fib.oat")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = New(Options{ClassPath: []string{app}, Engine: "aot", Oat: path, Barriers: "all"})
	if want := "recompile with droidprof vm compile " + app + " --barriers=all -o " + path; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("barriers all with a cache compiled without: %v, want an error containing %q", err, want)
	}
	if _, err := New(Options{ClassPath: []string{app}, Engine: "aot", Oat: path}); err != nil {
		t.Errorf("the same cache without barriers: %v", err)
	}
}
