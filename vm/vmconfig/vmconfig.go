// Package vmconfig is the `vm` block every VM-based plugin accepts (dpa
// today, artobj next): the heap's size, growth policy and collector, named
// after dalvikvm's options and checked before the VM starts, so that a bad
// value is a configuration error naming its setting.
package vmconfig

import (
	"fmt"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/vm/gc"
)

// Settings is the `vm` block. Its defaults are ART's (vm/gc's Default*
// constants); the sizes that default to another setting or that dpa's
// older heap_max may set default to 0, which the heap reads as its default.
type Settings struct {
	Collector         string   `json:"collector" doc:"the main space's garbage collector: cms (free-list mark-sweep with sticky, partial and full collections; ART's default) or ss (copying semi-space: objects move); dalvikvm -Xgc:" default:"cms" enum:"cms,ss"`
	HeapStart         sdk.Size `json:"heap_start" doc:"initial heap footprint (dalvikvm -Xms, dalvik.vm.heapstartsize); 0: 2MiB, or heap_max if smaller" default:"0"`
	HeapGrowthLimit   sdk.Size `json:"heap_growth_limit" doc:"footprint limit of an ordinary app (dalvikvm -XX:HeapGrowthLimit=, dalvik.vm.heapgrowthlimit); 0: heap_max" default:"0"`
	HeapMax           sdk.Size `json:"heap_max" doc:"the heap limit (dalvikvm -Xmx, dalvik.vm.heapsize), 1MiB to 1GiB; 0: 256MiB" default:"0"`
	TargetUtilization float64  `json:"target_utilization" doc:"live fraction the heap is grown to after a collection, in (0, 1) (dalvikvm -XX:HeapTargetUtilization=)" default:"0.75"`
	MinFree           sdk.Size `json:"min_free" doc:"least free space left after a collection (dalvikvm -XX:HeapMinFree=)" default:"512KiB"`
	MaxFree           sdk.Size `json:"max_free" doc:"most free space left after a collection (dalvikvm -XX:HeapMaxFree=)" default:"8MiB"`
	GCStress          bool     `json:"gc_stress" doc:"collect before every allocation from a call stack not seen before, as ART's gcstress does (slow: for finding GC bugs, not for measuring)" default:"false"`
	Engine            string   `json:"engine" doc:"the execution engine: interp (the portable interpreter) or aot (compiles each method at its first call, falling back to the interpreter per method; droidprof vm run --engine)" default:"interp" enum:"interp,aot"`
	Oat               string   `json:"oat" doc:"an .oat cache of the class path's DEX file (droidprof vm compile APP.dex -o APP.oat) from which the aot engine takes the compiled methods instead of compiling them at run time; needs engine = \"aot\"; a stale or corrupt cache stops the run (droidprof vm run --oat)"`
	Barriers          string   `json:"barriers" doc:"paper 003's object-access barriers in compiled code (needs engine = aot): off, none (a barrier at every access point), cache (skip the object the last barrier saw), elim (redundant barriers removed at compile time) or all (cache and elim); the access bitmap they set is cleared at each collection (droidprof vm run --barriers)" default:"off" enum:"off,none,cache,elim,all"`
	Preload           []string `json:"preload" doc:"classes (pkg.Name) loaded and initialised in the zygote phase, before the zygote space is sealed, as Android's preloaded-classes (droidprof vm run --preload-classes FILE)"`
	VerifyHeap        bool     `json:"verify_heap" doc:"check every reference in the heap before and after each collection and stop the VM at the first bad one (dalvikvm -Xgc:preverify,postverify)" default:"false"`
}

// Config checks the settings and returns the heap configuration they
// describe. Errors name the setting as the config writes it (vm.heap_max).
func (s Settings) Config() (gc.Config, error) {
	var c gc.Config
	switch s.Engine {
	case "", "interp", "aot":
	default:
		return c, fmt.Errorf("vm.engine %q: want interp or aot", s.Engine)
	}
	if s.Oat != "" && s.Engine != "aot" {
		return c, fmt.Errorf("vm.oat %q: only the aot engine uses an .oat cache; set vm.engine = \"aot\"", s.Oat)
	}
	switch s.Barriers {
	case "", "off":
	case "none", "cache", "elim", "all":
		if s.Engine != "aot" {
			return c, fmt.Errorf("vm.barriers %q: barriers are compiled in, so they need vm.engine = \"aot\" (it is %q)", s.Barriers, s.Engine)
		}
	default:
		return c, fmt.Errorf("vm.barriers %q: want off, none, cache, elim or all", s.Barriers)
	}
	if s.Collector != "" {
		col, err := gc.ParseCollector(s.Collector)
		if err != nil {
			return c, fmt.Errorf("vm.collector: %w", err)
		}
		c.Collector = col
	}
	sizes := []struct {
		name string
		v    sdk.Size
		to   *uint32
	}{
		{"heap_start", s.HeapStart, &c.Start},
		{"heap_growth_limit", s.HeapGrowthLimit, &c.GrowthLimit},
		{"heap_max", s.HeapMax, &c.Max},
		{"min_free", s.MinFree, &c.MinFree},
		{"max_free", s.MaxFree, &c.MaxFree},
	}
	for _, f := range sizes {
		if f.v < 0 || f.v > gc.MaxMax {
			return c, fmt.Errorf("vm.%s %s: out of range [0, %s]", f.name, f.v, sdk.Size(gc.MaxMax))
		}
		*f.to = uint32(f.v)
	}
	if s.TargetUtilization != 0 && !(s.TargetUtilization > 0 && s.TargetUtilization < 1) {
		return c, fmt.Errorf("vm.target_utilization %g: must be in (0, 1)", s.TargetUtilization)
	}
	c.TargetUtilization = s.TargetUtilization
	c.Stress, c.Verify = s.GCStress, s.VerifyHeap

	// The relations between settings, checked on the values the VM will
	// use, so that a default is named as the setting it stands for.
	d := c.WithDefaults()
	switch {
	case d.Max < gc.MinMax:
		return c, fmt.Errorf("vm.heap_max %s: below the least heap, %s", sdk.Size(d.Max), sdk.Size(gc.MinMax))
	case d.GrowthLimit > d.Max:
		return c, fmt.Errorf("vm.heap_growth_limit %s: larger than vm.heap_max %s", sdk.Size(d.GrowthLimit), sdk.Size(d.Max))
	case d.Start > d.Max:
		return c, fmt.Errorf("vm.heap_start %s: larger than vm.heap_max %s", sdk.Size(d.Start), sdk.Size(d.Max))
	case d.Start > d.GrowthLimit:
		return c, fmt.Errorf("vm.heap_start %s: larger than vm.heap_growth_limit %s", sdk.Size(d.Start), sdk.Size(d.GrowthLimit))
	case d.MinFree > d.MaxFree:
		return c, fmt.Errorf("vm.min_free %s: larger than vm.max_free %s", sdk.Size(d.MinFree), sdk.Size(d.MaxFree))
	}
	// What the heap itself checks, in case it checks more than the above.
	if err := d.Validate(); err != nil {
		return c, fmt.Errorf("vm block: %w", err)
	}
	return c, nil
}

// ParseVariant reads the short name test harnesses and benchmarks give a
// heap configuration: the collector, then "-stress" (GC stress) and
// "-verify" (heap verification) in any order, e.g. "ss-stress-verify".
func ParseVariant(name string) (gc.Config, error) {
	parts := strings.Split(name, "-")
	col, err := gc.ParseCollector(parts[0])
	if err != nil {
		return gc.Config{}, fmt.Errorf("variant %q: %w", name, err)
	}
	c := gc.Config{Collector: col}
	for _, p := range parts[1:] {
		switch p {
		case "stress":
			c.Stress = true
		case "verify":
			c.Verify = true
		default:
			return gc.Config{}, fmt.Errorf("variant %q: unknown part %q (want stress or verify)", name, p)
		}
	}
	return c, nil
}

// ParseEngineVariant reads a variant name that may also choose the
// execution engine, for harnesses that run on both: ParseVariant's parts
// plus "aot" or "interp" in any position after the collector, e.g.
// "ss-stress-aot". engine is "" when the name gives none (the
// interpreter, vm.Options' default).
func ParseEngineVariant(name string) (c gc.Config, engine string, err error) {
	parts := strings.Split(name, "-")
	heap := parts[:1:1]
	for _, p := range parts[1:] {
		switch p {
		case "aot", "interp":
			if engine != "" {
				return gc.Config{}, "", fmt.Errorf("variant %q: two engines (%s and %s)", name, engine, p)
			}
			engine = p
		default:
			heap = append(heap, p)
		}
	}
	c, err = ParseVariant(strings.Join(heap, "-"))
	switch {
	case err != nil && engine == "":
		return gc.Config{}, "", err // ParseVariant's error names the whole variant
	case err != nil:
		return gc.Config{}, "", fmt.Errorf("variant %q: %w", name, err)
	}
	return c, engine, nil
}
