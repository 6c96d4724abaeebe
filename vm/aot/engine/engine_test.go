package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/vmconfig"
	"github.com/droidprof/droidprof/workloads"
)

// result is what a run printed and returned.
type result struct {
	stdout, stderrFirst string
	code                int
	stats               engine.Stats // of the aot engine
}

// run runs main from dexFile on the named engine.
func run(t *testing.T, eng string, c gc.Config, dexFile, main string, args []string, setup ...func(*engine.Engine)) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	v, err := vm.New(vm.Options{ClassPath: []string{dexFile}, GC: c, Stdout: &stdout, Stderr: &stderr, Engine: eng})
	if err != nil {
		t.Fatalf("%s engine: %v", eng, err)
	}
	for _, s := range setup {
		s(v.Engine.(*engine.Engine))
	}
	code, err := v.RunMain(ctx, main, args)
	if err != nil {
		t.Fatalf("%s engine: %v\nstderr:\n%s", eng, err, stderr.String())
	}
	r := result{stdout: stdout.String(), code: code}
	r.stderrFirst, _, _ = strings.Cut(stderr.String(), "\n")
	if e, ok := v.Engine.(*engine.Engine); ok {
		r.stats = e.Stats()
	}
	return r
}

// variantsEnv chooses the heap configurations, as workloads' TestOracle
// does: a comma list of vmconfig.ParseVariant names ("ss-stress-verify"
// makes every allocation move every object the compiled code holds).
const variantsEnv = "DROIDPROF_WORKLOADS_GC"

// TestWorkloadsSameOnBothEngines runs every workload on the interpreter
// and on the aot engine and requires the same stdout, first line of
// stderr (an uncaught exception) and exit status, under cms and under ss
// (whose collections move the objects compiled code refers to). Timed
// workloads print their elapsed time; their untimed twins run the same
// code.
func TestWorkloadsSameOnBothEngines(t *testing.T) {
	list := "cms,ss"
	if env := os.Getenv(variantsEnv); env != "" {
		list = env
	}
	for _, vname := range strings.Split(list, ",") {
		c, err := vmconfig.ParseVariant(vname)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range workloads.All {
			if strings.HasSuffix(w.Name, "-timed") {
				continue
			}
			t.Run(vname+"/"+w.Name, func(t *testing.T) {
				dexFile := filepath.Join("..", "..", "..", "workloads", "dex", w.DEX)
				want := run(t, "interp", c, dexFile, w.Main, w.Args)
				got := run(t, "aot", c, dexFile, w.Main, w.Args)
				if got.code != want.code {
					t.Errorf("exit status: aot %d, interp %d", got.code, want.code)
				}
				if got.stderrFirst != want.stderrFirst {
					t.Errorf("stderr: aot %q, interp %q", got.stderrFirst, want.stderrFirst)
				}
				if got.stdout != want.stdout {
					t.Errorf("stdout differs:\naot:\n%s\ninterp:\n%s", clip(got.stdout), clip(want.stdout))
				}
				s := got.stats
				if s.Compiled == 0 {
					t.Errorf("the aot engine compiled no method")
				}
				t.Logf("compiled %d methods, %d fell back: %v", s.Compiled, s.NumFallbacks(), s.Fallbacks)
			})
		}
	}
}

func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// TestHooksOnCompiledCode: dpa's method hooks see the same calls, in the
// same order and at the same depths, whichever engine runs them.
func TestHooksOnCompiledCode(t *testing.T) {
	w, ok := workloads.Lookup("dpa-fib")
	if !ok {
		t.Fatal("no workload dpa-fib")
	}
	dexFile := filepath.Join("..", "..", "..", "workloads", "dex", w.DEX)
	trace := func(eng string) []string {
		var events []string
		hooks := &runtime.Hooks{
			MethodEntry: func(_ *runtime.Thread, m *runtime.Method, depth int, _ int64) {
				if len(events) < 200000 {
					events = append(events, fmt.Sprintf("> %d %s.%s", depth, m.Class.Name, m.Name))
				}
			},
			MethodExit: func(_ *runtime.Thread, m *runtime.Method, depth int, exc bool, _ int64) {
				if len(events) < 200000 {
					events = append(events, fmt.Sprintf("< %d %s.%s %v", depth, m.Class.Name, m.Name, exc))
				}
			},
		}
		v, err := vm.New(vm.Options{ClassPath: []string{dexFile}, Hooks: hooks, Engine: eng})
		if err != nil {
			t.Fatal(err)
		}
		if code, err := v.RunMain(context.Background(), w.Main, []string{"15"}); err != nil || code != 0 {
			t.Fatalf("%s: exit %d, %v", eng, code, err)
		}
		return events
	}
	want, got := trace("interp"), trace("aot")
	if len(want) < 1000 {
		t.Fatalf("only %d events on the interpreter", len(want))
	}
	if len(got) != len(want) {
		t.Fatalf("aot: %d events, interp %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d: aot %q, interp %q", i, got[i], want[i])
		}
	}
}
