package difftest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/vmconfig"
)

// Environment of TestEnginesAgree: how many programs, from which seed,
// under which heap variant, and where failing programs are written.
const (
	countEnv   = "DROIDPROF_DIFFTEST_N"    // default 200
	seedEnv    = "DROIDPROF_DIFFTEST_SEED" // first seed, default 1
	variantEnv = "DROIDPROF_DIFFTEST_GC"   // vmconfig.ParseVariant name, default cms
	outEnv     = "DROIDPROF_DIFFTEST_OUT"  // default $TMPDIR/droidprof-difftest
	replayEnv  = "DROIDPROF_DIFFTEST_REPLAY"
)

// TestReplay runs a program file as TestEnginesAgree writes them
// (perhaps cut down by hand while looking for the smallest program that
// still fails) on both engines: DROIDPROF_DIFFTEST_REPLAY=path.
func TestReplay(t *testing.T) {
	path := os.Getenv(replayEnv)
	if path == "" {
		t.Skipf("set %s to a program file to replay it", replayEnv)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := &Program{Files: Split(string(text)), Main: "Main"}
	if _, err := Compare(context.Background(), p, t.TempDir(), gc.Config{}); err != nil {
		t.Fatal(err)
	}
}

func envInt(t *testing.T, name string, def int64) int64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// TestEnginesAgree generates programs and runs each on the interpreter
// and on the aot engine: the same stdout, stderr and exit status, and
// every program passes the verifier. A failing program's seed and smali
// text are logged and written to a file (replay one with
// DROIDPROF_DIFFTEST_SEED=seed DROIDPROF_DIFFTEST_N=1).
func TestEnginesAgree(t *testing.T) {
	n := envInt(t, countEnv, 200)
	first := envInt(t, seedEnv, 1)
	variant := os.Getenv(variantEnv)
	if variant == "" {
		variant = "cms"
	}
	c, err := vmconfig.ParseVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	out := os.Getenv(outEnv)
	if out == "" {
		out = filepath.Join(os.TempDir(), "droidprof-difftest")
	}
	dir := t.TempDir()
	start := time.Now()
	var next atomic.Int64
	next.Store(first)
	var failed, compiled, fellBack, inlined, guards, lines, uncaught atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				seed := next.Add(1) - 1
				if seed >= first+n || failed.Load() >= 5 {
					return
				}
				p := Generate(seed)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				st, err := Compare(ctx, p, dir, c)
				cancel()
				compiled.Add(int64(st.Compiled))
				fellBack.Add(int64(st.Fallbacks))
				inlined.Add(int64(st.Inlined))
				guards.Add(int64(st.Guards))
				lines.Add(int64(st.Lines))
				if st.Uncaught {
					uncaught.Add(1)
				}
				if err == nil {
					continue
				}
				failed.Add(1)
				file := filepath.Join(out, fmt.Sprintf("seed-%d.smali", seed))
				werr := os.MkdirAll(out, 0o755)
				if werr == nil {
					werr = os.WriteFile(file, []byte(p.Text()), 0o644)
				}
				mu.Lock()
				var m *Mismatch
				kind := "error"
				if errors.As(err, &m) {
					kind = "engines disagree"
				}
				t.Errorf("seed %d: %s (program in %s, write error %v):\n%v", seed, kind, file, werr, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d programs (seeds %d..%d) under %s in %v, %d failed; aot: %d methods compiled, %d fell back, %d calls inlined, %d guards placed; %d lines of trace, %d programs ended by an uncaught exception",
		n, first, first+n-1, variant, time.Since(start).Round(time.Millisecond), failed.Load(), compiled.Load(), fellBack.Load(), inlined.Load(), guards.Load(), lines.Load(), uncaught.Load())
	if n >= 100 && failed.Load() == 0 && guards.Load() == 0 {
		t.Errorf("no guard placed in %d programs: the generator's virtual calls (gen.go, call) no longer reach the guardinline pass", n)
	}
	if n >= 100 && failed.Load() == 0 && inlined.Load() == 0 {
		t.Errorf("no call inlined in %d programs: the generator's leaf calls (gen.go, call) no longer reach the inline pass", n)
	}

}

// TestGenerateDeterministic: a seed is a program.
func TestGenerateDeterministic(t *testing.T) {
	for _, seed := range []int64{1, 2, 12345} {
		a, b := Generate(seed).Text(), Generate(seed).Text()
		if a != b {
			t.Errorf("seed %d: two different programs", seed)
		}
		if got := Split(a); len(got) != len(Generate(seed).Files) || got[0].Text != Generate(seed).Files[0].Text+"\n" {
			t.Errorf("seed %d: Split does not read back Text", seed)
		}
	}
	if Generate(1).Text() == Generate(2).Text() {
		t.Error("seeds 1 and 2 give the same program")
	}
}

// TestMixed: with Mixed's filter the aot engine compiles some methods and
// leaves others to the interpreter, and the program still prints the
// same.
func TestMixed(t *testing.T) {
	p := Generate(3)
	data, err := Assemble(p.Files)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	all, sAll, err := run(context.Background(), path, p.Main, "aot", gc.Config{}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	half, sHalf, err := run(context.Background(), path, p.Main, "aot", gc.Config{}, Mixed(3), "")
	if err != nil {
		t.Fatal(err)
	}
	if sHalf.Compiled == 0 || sHalf.Compiled >= sAll.Compiled {
		t.Errorf("Mixed compiled %d methods, all %d: want some but fewer", sHalf.Compiled, sAll.Compiled)
	}
	if half != all {
		t.Errorf("mixed run differs from the fully compiled one")
	}
}
