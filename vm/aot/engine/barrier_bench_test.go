package engine_test

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/workloads"
)

// paperSet is paper 003's benchmark set (its Fig. 6 less EEMBC, which is
// not free): the SciMark kernels, the CaffeineMark tests, chess and
// DeltaBlue, with arguments that make a run on the aot engine take
// 0.1–0.5 s.
var paperSet = []struct {
	workload string
	args     []string
}{
	{"scimark-fft", []string{"1024", "200"}},
	{"scimark-sor", []string{"200", "80"}},
	{"scimark-montecarlo", []string{"400000"}},
	{"scimark-sparse", []string{"1000", "5000", "800"}},
	{"scimark-lu", []string{"300"}},
	{"caffeine-sieve", []string{"400"}},
	{"caffeine-loop", []string{"300"}},
	{"caffeine-logic", []string{"300"}},
	{"caffeine-string", []string{"50"}},
	{"caffeine-float", []string{"6000"}},
	{"caffeine-method", []string{"200"}},
	{"chess", []string{"3"}},
	{"deltablue", []string{"200"}},
}

// BenchmarkBarrierOverhead measures paper 003's Fig. 6 in kind: the time
// of each workload with barriers at each level against without (off),
// side by side: each iteration runs every level once, in an order that
// rotates, so that the host's drift touches them alike. It reports each
// level's median time as a percentage over off's median (metrics
// none-%, cache-%, elim-%, all-%). Run with -benchtime=Nx for N ≥ 5
// samples per level:
//
//	go test -run '^$' -bench BarrierOverhead -benchtime 7x ./vm/aot/engine/
//
// The time is the process's CPU time (user and system, all threads: the
// Go runtime's collector too) during RunMain (class loading, compiling,
// the program), not of making the VM, which is the same at every level:
// on a shared host CPU time varies far less than wall time, which other
// processes stretch.
func BenchmarkBarrierOverhead(b *testing.B) {
	levels := append([]ssa.BarrierLevel{ssa.BarriersOff}, ssa.BarrierLevels...)
	for _, k := range paperSet {
		w, ok := workloads.Lookup(k.workload)
		if !ok {
			b.Fatalf("no workload %s", k.workload)
		}
		dexFile := filepath.Join("..", "..", "..", "workloads", "dex", w.DEX)
		b.Run(k.workload, func(b *testing.B) {
			times := make([][]time.Duration, len(levels))
			for i := 0; i < b.N; i++ {
				for j := range levels {
					l := (i + j) % len(levels)
					v, err := vm.New(vm.Options{ClassPath: []string{dexFile}, Stdout: io.Discard, Engine: "aot", Barriers: levels[l].String()})
					if err != nil {
						b.Fatal(err)
					}
					start := cpuTime(b)
					code, err := v.RunMain(context.Background(), w.Main, k.args)
					times[l] = append(times[l], cpuTime(b)-start)
					if err != nil || code != 0 {
						b.Fatalf("%s: exit %d, %v", levels[l], code, err)
					}
				}
			}
			off := median(times[0])
			b.ReportMetric(float64(off.Microseconds())/1000, "off-ms")
			for l := 1; l < len(levels); l++ {
				b.ReportMetric(100*(float64(median(times[l]))/float64(off)-1), levels[l].String()+"-%")
			}
		})
	}
}

// cpuTime is the process's CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
