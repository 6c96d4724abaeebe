package artobj

import (
	"slices"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/plugins/artobj/chain"
	"github.com/droidprof/droidprof/plugins/artobj/leak"
)

// The leak predictor names the leak of both of paper 003's leaking
// programs first, as site and as class, under both collectors and with
// the aot engine's barriers or the interpreter's: the objects each
// program keeps by construction and never uses again (ListLeak's requests in a static list, SwapLeak's replaced versions'
// data chained behind the current one) — not their short-lived
// temporaries, nor the containers that are used at every step.
func TestLeakPredictor(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	for _, tc := range []struct {
		workload, args string
		// The methods whose allocations the program leaks, and the
		// classes of those objects.
		sites   []string
		classes []string
	}{
		{"leak-list", "3000", []string{"leak.ListLeak.main", "leak.ListLeak$Request.<init>"}, []string{"leak.ListLeak$Request", "[I", "java.lang.String", "[C"}},
		{"leak-swap", "12000", []string{"leak.SwapLeak$Store.update", "leak.SwapLeak$Store.undo"}, []string{"leak.SwapLeak$Version", "[D"}},
	} {
		for _, v := range []struct{ collector, engine, barriers string }{{"cms", "aot", "all"}, {"ss", "aot", "all"}, {"cms", "interp", "off"}} {
			name := tc.workload + "-" + v.collector + "-" + v.engine
			t.Run(name, func(t *testing.T) {
				cfg := map[string]any{"workload": tc.workload, "args": []string{tc.args},
					"vm": map[string]any{"collector": v.collector, "engine": v.engine, "barriers": v.barriers, "heap_max": 16 << 20, "heap_start": 1 << 20, "min_free": 64 << 10, "max_free": 256 << 10}}
				_, _, f := collectStep(t, c, run, name, cfg)
				h := chain.Build(f)
				if h.Epochs < 3 {
					t.Fatalf("%d collections: the leak needs a few to show", h.Epochs)
				}
				sites := leak.Rank(h, func(o *chain.Object) uint32 { return o.Site })
				classes := leak.Rank(h, func(o *chain.Object) uint32 { return o.Class })
				for i := range min(3, len(sites)) {
					t.Logf("site %d: %s score %.0f, %d objects, %d bytes, mean staleness %.1f at %d", i+1, f.Sites[sites[i].Key], sites[i].Score, sites[i].Objects, sites[i].Bytes, sites[i].Stale, sites[i].Epoch)
				}
				for i := range min(3, len(classes)) {
					t.Logf("class %d: %s score %.0f", i+1, f.Classes[classes[i].Key], classes[i].Score)
				}
				if len(sites) == 0 || !slices.Contains(tc.sites, f.Sites[sites[0].Key].Method) {
					t.Errorf("top site %v, want one in %s", f.Sites[sites[0].Key], strings.Join(tc.sites, ", "))
				}
				if len(classes) == 0 || !slices.Contains(tc.classes, f.Classes[classes[0].Key]) {
					t.Errorf("top class %s, want one of %s", f.Classes[classes[0].Key], strings.Join(tc.classes, ", "))
				}
				// The top site's objects are of the top class: one leak,
				// named both ways.
				top := sites[0].Key
				for i := range h.Objects {
					if o := &h.Objects[i]; o.Site == top && o.Class != classes[0].Key {
						t.Errorf("top site %v allocates %s, but the top class is %s", f.Sites[top], f.Classes[o.Class], f.Classes[classes[0].Key])
						break
					}
				}
			})
		}
	}
}
