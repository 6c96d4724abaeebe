package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/vmconfig"
	"github.com/droidprof/droidprof/workloads"
)

// epoch is what the barriers marked between two collections: how many
// objects, and a hash of their addresses in order.
type epoch struct {
	objects int
	hash    uint64
}

// barrierRun is one run of a workload at a barrier level.
type barrierRun struct {
	stdout string
	code   int
	epochs []epoch // one per collection, then the epoch the run ended in
	stats  engine.BarrierStats
	// bad names the first epoch whose bitmap differs from the check
	// barriers' shadow, "" if none does
	bad string
}

func summarise(b *gc.AccessBitmap) epoch {
	h := fnv.New64a()
	var e epoch
	var buf [4]byte
	b.Walk(func(a uint32) {
		e.objects++
		buf[0], buf[1], buf[2], buf[3] = byte(a), byte(a>>8), byte(a>>16), byte(a>>24)
		h.Write(buf[:])
	})
	e.hash = h.Sum64()
	return e
}

func runBarriers(t *testing.T, level string, c gc.Config, w workloads.Workload) barrierRun {
	t.Helper()
	var stdout bytes.Buffer
	var r barrierRun
	check := func(count int, b *gc.AccessBitmap) {
		if b.Shadow == nil || r.bad != "" {
			return
		}
		if a, diff := b.FirstDifference(b.Shadow); diff {
			r.bad = fmt.Sprintf("before collection %d: object %#x marked %v, by the check barriers %v", count, a, b.Marked(a), b.Shadow.Marked(a))
		}
	}
	hooks := &runtime.Hooks{Accesses: func(count int, b *gc.AccessBitmap) {
		r.epochs = append(r.epochs, summarise(b))
		check(count, b)
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dexFile := filepath.Join("..", "..", "..", "workloads", "dex", w.DEX)
	v, err := vm.New(vm.Options{ClassPath: []string{dexFile}, GC: c, Stdout: &stdout, Engine: "aot", Barriers: level, CheckBarriers: level != "off", Hooks: hooks})
	if err != nil {
		t.Fatalf("barriers %s: %v", level, err)
	}
	r.code, err = v.RunMain(ctx, w.Main, w.Args)
	if err != nil {
		t.Fatalf("barriers %s: %v", level, err)
	}
	r.stdout = stdout.String()
	if b := v.AccessBitmap(); b != nil {
		r.epochs = append(r.epochs, summarise(b))
		check(-1, b) // the last epoch: -1 is the end of the run
	}
	r.stats = v.Engine.(*engine.Engine).Stats().Barriers
	return r
}

// TestBarrierLevelsOnWorkloads runs every workload on the aot engine
// without barriers and at each level, and requires:
//   - the same output and exit status at every level as without;
//   - at every level, between each two collections, the same objects
//     marked as by check barriers (vm.Options.CheckBarriers: the none
//     level's barriers, marking a shadow bitmap in the same run): the
//     cache and the elimination never drop the only barrier of an
//     object in an epoch;
//   - under ss, the same objects marked between each two collections at
//     every level as in the run at none: the runs allocate alike, and ss
//     collects at the same points, so objects have the same addresses
//     (not under cms, whose choice between sticky and partial
//     collections follows their measured throughput, so varies from run
//     to run);
//   - barrier counts that fall with each optimisation: the barriers run
//     (closures executed) equal at none and cache, fewer at elim, equal
//     at elim and all; the barriers that reach the bitmap (run minus
//     cache hits) fewer at cache than at none and fewer at all than at
//     elim or cache, all the fewest; statically, fewer at elim. Whether
//     cache or elim records fewer depends on the workload (the
//     elimination, being exact, knows nothing across calls, allocations
//     and loop back edges; BENCHMARKS.md): logged, not required.
//
// DROIDPROF_WORKLOADS_GC chooses the heap configurations (default cms,ss).
func TestBarrierLevelsOnWorkloads(t *testing.T) {
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
				off := runBarriers(t, "off", c, w)
				runs := map[ssa.BarrierLevel]barrierRun{}
				for _, l := range ssa.BarrierLevels {
					r := runBarriers(t, l.String(), c, w)
					if r.stdout != off.stdout || r.code != off.code {
						t.Fatalf("%s: output or exit status differs from a run without barriers (exit %d, want %d)", l, r.code, off.code)
					}
					runs[l] = r
				}
				for _, l := range ssa.BarrierLevels {
					if r := runs[l]; r.bad != "" {
						t.Errorf("%s: the bitmap differs from the check barriers' %s", l, r.bad)
					}
				}
				none := runs[ssa.BarriersNone]
				for _, l := range ssa.BarrierLevels[1:] {
					r := runs[l]
					if c.Collector != gc.SS {
						break
					}
					if len(r.epochs) != len(none.epochs) {
						t.Errorf("%s: %d collections, none %d", l, len(r.epochs)-1, len(none.epochs)-1)
						continue
					}
					for i := range r.epochs {
						if r.epochs[i] != none.epochs[i] {
							t.Errorf("%s: epoch %d of %d: %d objects marked, none marked %d (or others)", l, i, len(r.epochs), r.epochs[i].objects, none.epochs[i].objects)
							break
						}
					}
				}
				s := func(l ssa.BarrierLevel) engine.BarrierStats { return runs[l].stats }
				for _, l := range ssa.BarrierLevels {
					t.Logf("%-5s static %6d  executed %10d  cache hits %10d  recorded %10d  epochs %d", l, s(l).Static, s(l).Executed, s(l).CacheHits, s(l).Recorded(), len(runs[l].epochs))
				}
				n, ca, el, al := s(ssa.BarriersNone), s(ssa.BarriersCache), s(ssa.BarriersElim), s(ssa.BarriersAll)
				if n.Executed == 0 {
					t.Fatal("no barrier ran at none")
				}
				if !(n.Recorded() > ca.Recorded() && ca.Recorded() > al.Recorded() && n.Recorded() > el.Recorded() && el.Recorded() > al.Recorded()) {
					t.Errorf("recorded barriers: none %d, cache %d, elim %d, all %d: want none > cache, elim > all", n.Recorded(), ca.Recorded(), el.Recorded(), al.Recorded())
				}
				if n.Executed != ca.Executed || el.Executed != al.Executed || !(el.Executed < n.Executed) {
					t.Errorf("barriers run: none %d, cache %d, elim %d, all %d", n.Executed, ca.Executed, el.Executed, al.Executed)
				}
				if n.Static != ca.Static || el.Static != al.Static || !(el.Static < n.Static) {
					t.Errorf("static barriers: none %d, cache %d, elim %d, all %d", n.Static, ca.Static, el.Static, al.Static)
				}
				if n.CacheHits != 0 || el.CacheHits != 0 {
					t.Errorf("cache hits without the cache: none %d, elim %d", n.CacheHits, el.CacheHits)
				}
			})
		}
	}
}
