package vm_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
)

// The interpreter's access barriers (Hooks.InterpreterBarriers) mark, in
// every GC epoch, the objects the aot engine's barriers at level none
// mark for the same program: the same access points on either engine.
// Objects are named by their allocation order (the engines may copy
// them in different orders under ss, their roots being kept in different
// registers), so the bitmaps compare epoch by epoch.
func TestInterpreterBarriers(t *testing.T) {
	for _, tc := range []struct {
		workload string
		args     []string
	}{
		{"leak-swap", []string{"3000"}},
		{"binary-trees", []string{"8"}},
		{"chess", nil},
	} {
		t.Run(tc.workload, func(t *testing.T) {
			path, w := workloadDEX(t, tc.workload)
			args := tc.args
			if args == nil {
				args = w.Args
			}
			run := func(engine, barriers string, hooks *runtime.Hooks) (epochs []map[uint32]bool, out string) {
				var stdout bytes.Buffer
				ids := map[uint32]uint32{} // address -> allocation number
				moved := map[uint32]uint32{}
				n := uint32(0)
				hooks.Alloc = func(_ *runtime.Thread, _ runtime.Site, _ *runtime.Class, _, a uint32) { n++; ids[a] = n }
				hooks.Move = func(from, to, _ uint32) { moved[to] = ids[from]; delete(ids, from) }
				hooks.Free = func(a, _ uint32) { delete(ids, a) }
				hooks.GCEnd = func(runtime.GCInfo) {
					for a, id := range moved {
						ids[a] = id
					}
					clear(moved)
				}
				named := func(b *gc.AccessBitmap) map[uint32]bool {
					m := map[uint32]bool{}
					b.Walk(func(a uint32) {
						if id, ok := ids[a]; ok {
							m[id] = true
						} else {
							t.Errorf("%s: %#x marked, no object there", engine, a)
						}
					})
					return m
				}
				hooks.Accesses = func(count int, b *gc.AccessBitmap) { epochs = append(epochs, named(b)) }
				v, err := vm.New(vm.Options{ClassPath: []string{path}, GC: gc.Config{Collector: gc.SS, Max: 16 << 20, Start: 1 << 20, MinFree: 64 << 10, MaxFree: 256 << 10},
					Engine: engine, Barriers: barriers, Hooks: hooks, Stdout: &stdout})
				if err != nil {
					t.Fatal(err)
				}
				if code, err := v.RunMain(context.Background(), w.Main, args); err != nil || code != 0 {
					t.Fatalf("%s: exit %d, %v", engine, code, err)
				}
				return append(epochs, named(v.AccessBitmap())), stdout.String()
			}
			interp, out1 := run("interp", "off", &runtime.Hooks{InterpreterBarriers: true})
			aot, out2 := run("aot", "none", &runtime.Hooks{})
			if out1 != out2 {
				t.Fatalf("outputs differ:\n%s\n%s", out1, out2)
			}
			if len(interp) != len(aot) {
				t.Fatalf("%d epochs on the interpreter, %d on aot", len(interp), len(aot))
			}
			marked := 0
			for e := range interp {
				marked += len(interp[e])
				if diff := firstDiff(interp[e], aot[e]); diff != "" {
					t.Errorf("epoch %d: %s", e, diff)
				}
			}
			if marked == 0 {
				t.Error("no access recorded")
			}
			t.Logf("%d epochs, %d objects marked", len(interp), marked)
		})
	}
}

func firstDiff(a, b map[uint32]bool) string {
	n := 0
	first := ""
	for x := range a {
		if !b[x] {
			n++
			first = fmt.Sprintf("object %d marked by the interpreter only", x)
		}
	}
	for x := range b {
		if !a[x] {
			n++
			first = fmt.Sprintf("object %d marked by the aot engine only", x)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d objects differ (%d and %d marked), e.g. %s", n, len(a), len(b), first)
}
