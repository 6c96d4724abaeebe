package artobj

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
)

// min_heap_multiple: the collector finds the program's minimum heap, runs
// with the multiple of it as heap_max, and caches it; a second step takes
// it from the cache without a run. Under ss, whose runs are deterministic,
// checked on the VM directly: the program runs in the minimum and runs
// out of memory 64KiB below it (cms's background collections depend on
// timing, so near its minimum a limit may run once and fail the next
// time: the search asks for three runs in a row there).
func TestMinHeap(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	cache := filepath.Join(t.TempDir(), "minheap.json")
	for _, collector := range []string{"cms", "ss"} {
		t.Run(collector, func(t *testing.T) {
			cfg := map[string]any{"workload": "leak-list 10000", "min_heap_multiple": 1.5, "min_heap_cache": cache,
				"vm": map[string]any{"collector": collector, "heap_max": 16 << 20, "heap_start": 1 << 20}}
			_, r, _ := collectStep(t, c, run, collector+"-1", cfg)
			if r.MinHeap == 0 || r.MinHeapRuns == 0 || r.ExitCode != 0 {
				t.Fatalf("min heap %d found in %d runs, exit %d", r.MinHeap, r.MinHeapRuns, r.ExitCode)
			}
			want := (uint64(r.MinHeap)*3/2 + minHeapStep - 1) / minHeapStep * minHeapStep
			if uint64(r.HeapMax) != want {
				t.Errorf("heap_max %d, want 1.5 × %d rounded up to 64KiB = %d", r.HeapMax, r.MinHeap, want)
			}
			if r.MinHeap <= minHeapLow {
				t.Fatalf("min heap %d: the program should need more than the search's low end", r.MinHeap)
			}
			for _, tc := range []struct {
				max  uint32
				oome bool
			}{{r.MinHeap, false}, {r.MinHeap - minHeapStep, true}} {
				if collector != "ss" {
					break
				}
				var stderr strings.Builder
				w := filepath.Join(run, "steps", collector+"-1", "leak-list.dex")
				v, err := vm.New(vm.Options{ClassPath: []string{w}, GC: gc.Config{Collector: gc.Collector(collector), Max: tc.max, Start: 1 << 20}, Stdout: io.Discard, Stderr: &stderr})
				if err != nil {
					t.Fatal(err)
				}
				code, err := v.RunMain(context.Background(), "leak.ListLeak", []string{"10000"})
				if oome := code != 0 && strings.Contains(stderr.String(), "OutOfMemoryError"); err != nil || oome != tc.oome || !oome && code != 0 {
					t.Errorf("heap_max %d: exit %d, %v, out of memory %v; want out of memory %v", tc.max, code, err, oome, tc.oome)
				}
			}
			_, r2, _ := collectStep(t, c, run, collector+"-2", cfg)
			if r2.MinHeap != r.MinHeap || r2.MinHeapRuns != 0 || r2.HeapMax != r.HeapMax {
				t.Errorf("second step: min heap %d in %d runs, heap_max %d; want %d from the cache", r2.MinHeap, r2.MinHeapRuns, r2.HeapMax, r.MinHeap)
			}
			t.Logf("%s: minimum heap %d bytes (%d runs), heap_max %d", collector, r.MinHeap, r.MinHeapRuns, r.HeapMax)
		})
	}
}
