package vmconfig

import (
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/vm/gc"
)

// TestConfig checks that each setting reaches its gc.Config field, that
// zero settings stay zero (ART's defaults, applied by the heap), and that
// a bad value is an error naming the setting as a config writes it.
func TestConfig(t *testing.T) {
	const M = 1 << 20
	for _, tc := range []struct {
		name string
		s    Settings
		want gc.Config
		err  string
	}{
		{"defaults", Settings{}, gc.Config{}, ""},
		{"all", Settings{Collector: "ss", HeapStart: 4 * M, HeapGrowthLimit: 64 * M, HeapMax: 128 * M, TargetUtilization: 0.5,
			MinFree: M, MaxFree: 4 * M, GCStress: true, VerifyHeap: true},
			gc.Config{Collector: gc.SS, Start: 4 * M, GrowthLimit: 64 * M, Max: 128 * M, TargetUtilization: 0.5,
				MinFree: M, MaxFree: 4 * M, Stress: true, Verify: true}, ""},
		{"ART's spelling", Settings{Collector: "CMS"}, gc.Config{Collector: gc.CMS}, ""},
		{"small heap, default start clamped", Settings{HeapMax: M}, gc.Config{Max: M}, ""},
		{"unknown collector", Settings{Collector: "g1"}, gc.Config{}, "vm.collector"},
		{"aot engine", Settings{Engine: "aot"}, gc.Config{}, ""},
		{"unknown engine", Settings{Engine: "jit"}, gc.Config{}, `vm.engine "jit": want interp or aot`},
		{"oat cache", Settings{Engine: "aot", Oat: "app.oat"}, gc.Config{}, ""},
		{"oat cache on the interpreter", Settings{Oat: "app.oat"}, gc.Config{}, `vm.oat "app.oat": only the aot engine uses an .oat cache; set vm.engine = "aot"`},
		{"barriers on aot", Settings{Engine: "aot", Barriers: "all"}, gc.Config{}, ""},
		{"barriers off on the interpreter", Settings{Barriers: "off"}, gc.Config{}, ""},
		{"barriers on the interpreter", Settings{Barriers: "elim"}, gc.Config{}, `vm.barriers "elim": barriers are compiled in, so they need vm.engine = "aot"`},
		{"unknown barrier level", Settings{Engine: "aot", Barriers: "some"}, gc.Config{}, `vm.barriers "some": want off, none, cache, elim or all`},
		{"heap too small", Settings{HeapMax: 512 << 10}, gc.Config{}, "vm.heap_max 512KiB: below"},
		{"heap too large", Settings{HeapMax: 2 << 30}, gc.Config{}, "vm.heap_max 2GiB: out of range"},
		{"negative", Settings{MinFree: -1}, gc.Config{}, "vm.min_free"},
		{"start above max", Settings{HeapStart: 8 * M, HeapMax: 4 * M}, gc.Config{}, "vm.heap_start 8MiB: larger than vm.heap_max 4MiB"},
		{"start above default max", Settings{HeapStart: 512 * M}, gc.Config{}, "vm.heap_start 512MiB: larger than vm.heap_max 256MiB"},
		{"start above growth limit", Settings{HeapStart: 8 * M, HeapGrowthLimit: 4 * M}, gc.Config{}, "vm.heap_start 8MiB: larger than vm.heap_growth_limit 4MiB"},
		{"growth limit above max", Settings{HeapGrowthLimit: 32 * M, HeapMax: 16 * M}, gc.Config{}, "vm.heap_growth_limit 32MiB: larger than vm.heap_max 16MiB"},
		{"utilization 1", Settings{TargetUtilization: 1}, gc.Config{}, "vm.target_utilization 1: must be in (0, 1)"},
		{"utilization negative", Settings{TargetUtilization: -0.5}, gc.Config{}, "vm.target_utilization"},
		{"min above max free", Settings{MinFree: 16 * M}, gc.Config{}, "vm.min_free 16MiB: larger than vm.max_free 8MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.s.Config()
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			case tc.err == "" && got != tc.want:
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestSchema checks that the block is a valid plugin config block: the
// SDK derives a schema from it whose defaults fit its own rules.
func TestSchema(t *testing.T) {
	type cfg struct {
		VM Settings `json:"vm" doc:"the VM"`
	}
	p := &sdk.Plugin{Name: "vmtest", Version: "0.0.1", Description: "a VM block",
		Collectors: []sdk.Collector{{Name: "vmtest", Description: "nothing", Config: cfg{}}}}
	sdktest.Conformance(t, sdktest.Start(t, p))
}

// TestDefaults checks that the defaults the block documents are the
// heap's own (a zero Settings field also means the heap's default).
func TestDefaults(t *testing.T) {
	schema, err := sdk.SchemaOf(Settings{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"collector":          `"` + string(gc.CMS) + `"`,
		"target_utilization": strconv.FormatFloat(gc.DefaultTargetUtilization, 'g', -1, 64),
		"min_free":           strconv.Itoa(gc.DefaultMinFree),
		"max_free":           strconv.Itoa(gc.DefaultMaxFree),
	}
	for _, f := range schema.GetFields() {
		if w, ok := want[f.Name]; ok && f.DefaultJson != w {
			t.Errorf("%s: default %s, want the heap's %s", f.Name, f.DefaultJson, w)
		}
	}
	if d := (gc.Config{}).WithDefaults(); d.Collector != gc.CMS {
		t.Errorf("the heap's default collector is %s, the block's cms", d.Collector)
	}
}

// TestParseVariant checks the short names of heap configurations.
func TestParseVariant(t *testing.T) {
	for _, tc := range []struct {
		name string
		want gc.Config
		err  bool
	}{
		{"cms", gc.Config{Collector: gc.CMS}, false},
		{"ss", gc.Config{Collector: gc.SS}, false},
		{"ss-stress-verify", gc.Config{Collector: gc.SS, Stress: true, Verify: true}, false},
		{"cms-verify", gc.Config{Collector: gc.CMS, Verify: true}, false},
		{"SS-stress", gc.Config{Collector: gc.SS, Stress: true}, false},
		{"g1", gc.Config{}, true},
		{"cms-fast", gc.Config{}, true},
		{"", gc.Config{}, true},
	} {
		got, err := ParseVariant(tc.name)
		if (err != nil) != tc.err || err == nil && got != tc.want {
			t.Errorf("ParseVariant(%q) = %+v, %v; want %+v, error %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}

// TestParseEngineVariant checks the variant names with an engine part:
// "aot" anywhere after the collector, the interpreter when none is given.
func TestParseEngineVariant(t *testing.T) {
	for _, tc := range []struct {
		name   string
		want   gc.Config
		engine string
		err    string
	}{
		{"cms", gc.Config{Collector: gc.CMS}, "", ""},
		{"cms-aot", gc.Config{Collector: gc.CMS}, "aot", ""},
		{"ss-stress-verify-aot", gc.Config{Collector: gc.SS, Stress: true, Verify: true}, "aot", ""},
		{"ss-aot-stress", gc.Config{Collector: gc.SS, Stress: true}, "aot", ""},
		{"cms-interp", gc.Config{Collector: gc.CMS}, "interp", ""},
		{"cms-aot-interp", gc.Config{}, "", `two engines`},
		{"aot", gc.Config{}, "", `unknown collector`},
		{"cms-jit", gc.Config{}, "", `unknown part "jit"`},
	} {
		got, engine, err := ParseEngineVariant(tc.name)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseEngineVariant(%q): error %v, want one with %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want || engine != tc.engine {
			t.Errorf("ParseEngineVariant(%q) = %+v, %q, %v; want %+v, %q", tc.name, got, engine, err, tc.want, tc.engine)
		}
	}
	if _, err := ParseVariant("cms-aot"); err == nil {
		t.Error("ParseVariant accepts an engine part; only ParseEngineVariant should")
	}
}
