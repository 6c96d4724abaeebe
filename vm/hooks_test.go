package vm_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/workloads"
)

// workloadDEX writes a committed workload's DEX file to a temp dir.
func workloadDEX(t testing.TB, name string) (string, workloads.Workload) {
	t.Helper()
	w, ok := workloads.Lookup(name)
	if !ok {
		t.Fatalf("no workload %q", name)
	}
	p := filepath.Join(t.TempDir(), w.DEX)
	data, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, w
}

func TestHooks(t *testing.T) {
	path, w := workloadDEX(t, "dpa-fib")
	var entries, exits, fibCalls, maxDepth, allocs, gcStarts, gcEnds int
	var balance = map[*runtime.Thread]int{}
	hooks := &runtime.Hooks{
		MethodEntry: func(th *runtime.Thread, m *runtime.Method, depth int, _ int64) {
			entries++
			balance[th]++
			if depth != balance[th] {
				t.Errorf("entry depth %d, want %d", depth, balance[th])
			}
			if m.Class.Name == "dpa.Fib" && m.Name == "fib" {
				fibCalls++
			}
			maxDepth = max(maxDepth, depth)
		},
		MethodExit: func(th *runtime.Thread, m *runtime.Method, depth int, exc bool, _ int64) {
			exits++
			if depth != balance[th] {
				t.Errorf("exit depth %d, want %d", depth, balance[th])
			}
			balance[th]--
		},
		Alloc: func(th *runtime.Thread, site runtime.Site, c *runtime.Class, size, addr uint32) {
			allocs++
			if addr%8 != 0 || size%8 != 0 || size < 8 {
				t.Errorf("allocation of %s: %d bytes at %#x", c.Name, size, addr)
			}
		},
		GCStart:      func(int) { gcStarts++ },
		GCEnd:        func(runtime.GCInfo) { gcEnds++ },
		CountOpcodes: true,
	}
	v, err := vm.New(vm.Options{ClassPath: []string{path}, Hooks: hooks, Stdout: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	code, err := v.RunMain(context.Background(), w.Main, []string{"15"})
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	// fib(15) makes 2*fib(16)-1 calls.
	if fibCalls != 2*987-1 {
		t.Errorf("fib entered %d times, want %d", fibCalls, 2*987-1)
	}
	if entries != exits || entries == 0 {
		t.Errorf("%d entries, %d exits", entries, exits)
	}
	if maxDepth < 15 {
		t.Errorf("max depth %d", maxDepth)
	}
	if allocs == 0 {
		t.Error("no allocations seen")
	}
	if gcStarts != gcEnds {
		t.Errorf("%d GC starts, %d ends", gcStarts, gcEnds)
	}
	ops := v.OpCounts()
	if ops[0x71] < 2*987-1 { // invoke-static
		t.Errorf("invoke-static executed %d times", ops[0x71])
	}
}

// A program that keeps little alive while allocating much more than the
// heap makes the collector run, and every collection is reported.
func TestCollections(t *testing.T) {
	path, w := workloadDEX(t, "dpa-concat")
	var gcs []runtime.GCInfo
	freed := 0
	hooks := &runtime.Hooks{
		GCEnd: func(i runtime.GCInfo) { gcs = append(gcs, i) },
		Free:  func(addr, size uint32) { freed++ },
	}
	var out bytes.Buffer
	v, err := vm.New(vm.Options{ClassPath: []string{path}, Hooks: hooks, GC: gc.Config{Max: 4 << 20}, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	code, err := v.RunMain(context.Background(), w.Main, w.Args)
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if len(gcs) == 0 || freed == 0 {
		t.Fatalf("%d collections freed %d objects", len(gcs), freed)
	}
	for _, g := range gcs {
		if g.Live > 4<<20 {
			t.Errorf("collection %d: %d bytes live, more than heap-max", g.Count, g.Live)
		}
	}
}

// With Hooks.VirtualTime the VM's clock counts executed instructions: a
// self-timed program measures the same figure on every run, the method
// hooks' stamps agree with it to the few instructions around the call,
// the thread's CPU clock equals the wall clock of a single-threaded run,
// and the aot engine, which does not count, is refused.
func TestVirtualTime(t *testing.T) {
	path, _ := workloadDEX(t, "dpa-fib")
	w, _ := workloads.Lookup("dpa-fib-timed")
	run := func() (elapsed, incl, cpu int64, now int64, total uint64) {
		var enter, enterCPU int64
		hooks := &runtime.Hooks{
			VirtualTime: true,
			MethodEntry: func(th *runtime.Thread, m *runtime.Method, depth int, now int64) {
				if m.Name == "fib" && depth == 2 {
					enter, enterCPU = now, th.CPUTime(now)
				}
			},
			MethodExit: func(th *runtime.Thread, m *runtime.Method, depth int, _ bool, now int64) {
				if m.Name == "fib" && depth == 2 {
					incl, cpu = now-enter, th.CPUTime(now)-enterCPU
				}
			},
		}
		var stderr bytes.Buffer
		v, err := vm.New(vm.Options{ClassPath: []string{path}, Hooks: hooks, Stdout: &bytes.Buffer{}, Stderr: &stderr})
		if err != nil {
			t.Fatal(err)
		}
		if code, err := v.RunMain(context.Background(), w.Main, []string{"12"}); err != nil || code != 0 {
			t.Fatalf("exit %d, %v\n%s", code, err, stderr.String())
		}
		if _, err := fmt.Sscanf(stderr.String(), "dpa.Fib.fib elapsed_ns=%d", &elapsed); err != nil {
			t.Fatalf("stderr %q: %v", stderr.String(), err)
		}
		for _, n := range v.OpCounts() {
			total += n
		}
		return elapsed, incl, cpu, v.Now(), total
	}
	e1, incl, cpu, now, total := run()
	e2, _, _, _, _ := run()
	t.Logf("fib(12): %d instructions self-timed, %d between its hooks; %d in the run", e1, incl, now)
	if e1 != e2 || e1 <= 0 {
		t.Errorf("self-timed figures %d and %d, want one positive figure", e1, e2)
	}
	// nanoTime's own invoke, the move-result-wide after it, and the
	// invoke and move-result of fib lie between the program's two reads.
	if d := e1 - incl; d < 0 || d > 4 {
		t.Errorf("self-timed %d, hooks %d: want the hooks at most 4 instructions inside", e1, incl)
	}
	if cpu != incl {
		t.Errorf("CPU clock %d, wall clock %d, want equal on one thread", cpu, incl)
	}
	if uint64(now) != total || total == 0 {
		t.Errorf("VM.Now %d at exit, %d instructions counted", now, total)
	}
	_, err := vm.New(vm.Options{ClassPath: []string{path}, Engine: "aot", Hooks: &runtime.Hooks{VirtualTime: true}})
	if err == nil || !strings.Contains(err.Error(), "needs the interpreter") {
		t.Errorf("virtual time on aot: %v, want a refusal", err)
	}
}
