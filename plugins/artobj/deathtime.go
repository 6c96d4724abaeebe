package artobj

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/plugins/artobj/chain"
)

// deathTimes compares each ordinary run's deaths with those of a run of
// the same program under gc_stress_all, whose deaths are exact (a
// collection at every allocation finds each object dead at the first
// allocation after it became unreachable): how much later, in bytes
// allocated, the GC-granular death times are — droidprof's answer to the
// exact death times of Merlin and Elephant Tracks. Objects are matched by
// allocation site and their order at it (the n-th object of a site in
// one run is the n-th in the other), which holds for a deterministic
// program; the allocation clock is the same in both runs when they
// allocate the same objects.
func deathTimes(res *sdk.Result, steps []*step, summary *strings.Builder) {
	exact := map[string]*step{}
	for _, s := range steps {
		if s.res.StressAll {
			exact[programKey(s)] = s
		}
	}
	var rows [][]string
	for _, s := range steps {
		x := exact[programKey(s)]
		if s.res.StressAll || x == nil {
			continue
		}
		d := compareDeaths(x.h, s.h)
		if d.matched == 0 {
			continue
		}
		med, p90 := "–", "–"
		if len(d.late) > 0 {
			med = fmt.Sprintf("%.0f", stats.Median(d.late))
			p90 = fmt.Sprintf("%.0f", stats.Quantile(d.late, 0.9))
		}
		rows = append(rows, []string{s.name, x.name, strconv.Itoa(d.matched), strconv.Itoa(d.unmatched), pct(d.same, d.matched),
			med, p90, strconv.Itoa(d.aliveOnly), strconv.Itoa(d.early)})
		fmt.Fprintf(summary, "Death times of %s against the exact ones of its stressed run: %s %% the same, median %s bytes allocated later. ", s.name, pct(d.same, d.matched), med)
	}
	if len(rows) == 0 {
		return
	}
	res.Table("death-times", "GC-granular death times against a run with a collection at every allocation (exact): delay in bytes allocated",
		[]string{"run", "exact run", "objects matched", "unmatched", "same death %", "median delay of the others (bytes)", "90th percentile (bytes)", "alive at exit, dead in the exact run", "earlier than exact"}, rows)
}

// programKey names a step's program and settings, not its stress.
func programKey(s *step) string {
	return strings.Join([]string{s.res.Workload, s.res.Main, strings.Join(s.res.Args, " "), s.res.Collector, s.res.Engine}, "\x00")
}

type deathDiff struct {
	matched, unmatched, same, aliveOnly, early int
	late                                       []float64 // bytes, for deaths later than exact
}

// compareDeaths matches the objects of an exact and an ordinary run by
// site and order at the site and compares their deaths on the allocation
// clock.
func compareDeaths(exact, run *chain.Heap) deathDiff {
	bySite := func(h *chain.Heap) map[uint32][]*chain.Object {
		m := map[uint32][]*chain.Object{}
		for i := range h.Objects {
			o := &h.Objects[i]
			m[o.Site] = append(m[o.Site], o)
		}
		return m
	}
	// Sites are numbered in order of first allocation, so the same site
	// has the same number in both runs of a deterministic program; the
	// classes of matched objects are checked too.
	xs, rs := bySite(exact), bySite(run)
	var d deathDiff
	for _, site := range slices.Sorted(maps.Keys(xs)) {
		a, b := xs[site], rs[site]
		n := min(len(a), len(b))
		d.unmatched += len(a) + len(b) - 2*n
		for i := range n {
			x, o := a[i], b[i]
			if x.Class != o.Class || x.Size != o.Size {
				d.unmatched += 2
				continue
			}
			d.matched++
			switch {
			case x.Death == chain.Alive && o.Death == chain.Alive:
				d.same++
			case o.Death == chain.Alive:
				d.aliveOnly++
			case x.Death == chain.Alive || o.DeathBytes < x.DeathBytes:
				d.early++
			case o.DeathBytes == x.DeathBytes:
				d.same++
			default:
				d.late = append(d.late, float64(o.DeathBytes-x.DeathBytes))
			}
		}
	}
	for site, b := range rs {
		if _, ok := xs[site]; !ok {
			d.unmatched += len(b)
		}
	}
	return d
}
