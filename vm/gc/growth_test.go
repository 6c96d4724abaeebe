package gc

import "testing"

// artTarget is ART's GrowForUtilization for the target footprint,
// written out from the formula (shared/reference §3), not from Growth:
//
//	non-sticky: allocated + clamp(allocated/U - allocated, minFree, maxFree) * mult
//	sticky:     allocated + maxFree*mult if that is below the footprint,
//	            else max(allocated, footprint)
//
// clamped to the growth limit.
func artTarget(cfg Config, sticky bool, allocated, footprint uint64) uint64 {
	const mult = 2.0
	var target uint64
	if !sticky {
		delta := float64(allocated)/cfg.TargetUtilization - float64(allocated)
		if delta < float64(cfg.MinFree) {
			delta = float64(cfg.MinFree)
		}
		if delta > float64(cfg.MaxFree) {
			delta = float64(cfg.MaxFree)
		}
		target = allocated + uint64(delta*mult)
	} else if allocated+uint64(float64(cfg.MaxFree)*mult) < footprint {
		target = allocated + uint64(float64(cfg.MaxFree)*mult)
	} else {
		target = max(allocated, footprint)
	}
	return min(target, uint64(cfg.GrowthLimit))
}

func TestGrowthFormula(t *testing.T) {
	cfg := Config{}.WithDefaults()
	cases := []struct {
		name                 string
		kind                 Kind
		allocated, footprint uint64
		zygote, pays         bool
		want                 uint64
		next                 Kind
	}{
		{"small live set: min free", Full, 100 << 10, 2 << 20, true, false, 100<<10 + 2*512<<10, Sticky},
		{"utilization", Partial, 3 << 20, 4 << 20, true, false, 3<<20 + 2*1<<20, Sticky},
		{"large live set: max free", Full, 60 << 20, 64 << 20, true, false, 60<<20 + 2*8<<20, Sticky},
		{"sticky keeps the footprint", Sticky, 3 << 20, 4 << 20, true, true, 4 << 20, Sticky},
		{"sticky trims", Sticky, 1 << 20, 40 << 20, true, true, 1<<20 + 16<<20, Sticky},
		{"sticky does not pay", Sticky, 3 << 20, 4 << 20, true, false, 4 << 20, Partial},
		{"sticky without a zygote", Sticky, 3 << 20, 4 << 20, false, false, 4 << 20, Full},
		{"sticky past the footprint", Sticky, 5 << 20, 4 << 20, true, true, 5 << 20, Partial},
		{"growth limit", Full, 250 << 20, 255 << 20, true, false, 256 << 20, Sticky},
	}
	for _, c := range cases {
		got, next := Growth(cfg, c.kind, c.allocated, c.footprint, c.zygote, c.pays)
		if got != c.want || next != c.next {
			t.Errorf("%s: Growth = %d, %v; want %d, %v", c.name, got, next, c.want, c.next)
		}
		if art := artTarget(cfg, c.kind == Sticky, c.allocated, c.footprint); art != got {
			t.Errorf("%s: Growth = %d, ART's formula %d", c.name, got, art)
		}
	}
}

// A known allocation sequence (a growing live set with garbage between)
// runs through the heap; after every collection the footprint is what
// ART's formula gives for that collection's kind, live bytes and the
// footprint before it.
func TestGrowthReplay(t *testing.T) {
	for _, col := range []Collector{CMS, SS} {
		cfg := Config{Collector: col, Max: 64 << 20, MaxFree: 2 << 20, TargetUtilization: 0.5}.WithDefaults()
		y := newToy(t, cfg)
		y.h.Seal()
		footprint := y.h.Footprint()
		gcs, auto := 0, 0
		y.h.OnEnd = func(i Info) {
			gcs++
			if i.Cause != CauseExplicit {
				auto++
			}
			want := artTarget(cfg, i.Kind == Sticky, i.Live, footprint)
			if i.Footprint != want || y.h.Footprint() != want {
				t.Errorf("%s: GC %d (%v, %s): footprint %d, ART's formula %d (live %d, footprint before %d)",
					col, i.Count, i.Kind, i.Cause, i.Footprint, want, i.Live, footprint)
			}
			footprint = i.Footprint
		}
		for i := 0; i < 200000; i++ {
			a := y.obj(0, 64+uint32(i%7)*8, Movable)
			if a == 0 {
				t.Fatalf("%s: out of memory at %d", col, i)
			}
			if i%3 == 0 {
				y.root(a)
			}
			if i%50000 == 49999 {
				y.h.Collect(CauseExplicit)
			}
		}
		if gcs < 5 || auto == 0 {
			t.Errorf("%s: %d collections, %d not explicit", col, gcs, auto)
		}
	}
}
