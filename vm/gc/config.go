// Package gc is the VM's garbage-collected heap, modelled on ART's: an
// image space, a zygote space, a main space collected either by
// mark-sweep (sticky, partial and full collections over a free-list space
// with a card table) or by a copying semi-space collector, a non-moving
// space and a large-object space, grown and trimmed by ART's
// GrowForUtilization policy.
package gc

import (
	"fmt"
	"strings"
)

// Collector names the main space's kind and the collector that owns it.
type Collector string

const (
	// CMS is a free-list mark-sweep main space with sticky, partial and
	// full collections (ART's concurrent mark sweep, run stop-the-world).
	CMS Collector = "cms"
	// SS is a bump-pointer main space whose survivors a copying
	// semi-space collector moves.
	SS Collector = "ss"
)

// Config sizes the heap and chooses its collector. The zero value of a
// field means ART's default for it (Default).
type Config struct {
	// Collector is the main space's collector: cms (default) or ss.
	Collector Collector
	// Start is the initial footprint (-Xms, dalvik.vm.heapstartsize).
	Start uint32
	// GrowthLimit bounds the footprint of an ordinary app
	// (-XX:HeapGrowthLimit=, dalvik.vm.heapgrowthlimit); 0 means Max.
	GrowthLimit uint32
	// Max is the heap limit (-Xmx, dalvik.vm.heapsize).
	Max uint32
	// TargetUtilization is the live fraction the heap is grown to after
	// a collection (-XX:HeapTargetUtilization=).
	TargetUtilization float64
	// MinFree and MaxFree clamp the free space left after a collection
	// (-XX:HeapMinFree=, -XX:HeapMaxFree=).
	MinFree, MaxFree uint32
	// Stress collects before every allocation whose call stack (its top
	// 16 frames) has not been seen before, as ART's gcstress does, once
	// the zygote phase is over.
	Stress bool
	// StressAll collects before every allocation once the zygote phase
	// is over, whatever its call stack: every object is then found dead
	// at the first allocation after it became unreachable, which makes
	// GC-epoch lifetimes exact (artobj's acceptance test). Far slower
	// than Stress.
	StressAll bool
	// Verify checks every reference in the heap before and after each
	// collection and fails the VM on the first bad one.
	Verify bool
	// AccessBitmap keeps paper 003's access bitmap of the main space
	// (Heap.Access), which the AOT engine's barriers set.
	AccessBitmap bool
}

// ART's defaults (Android 11: runtime/gc/heap.h and the dalvik.vm.heap*
// properties of a typical device).
const (
	DefaultStart             = 2 << 20
	DefaultMax               = 256 << 20
	DefaultTargetUtilization = 0.75
	DefaultMinFree           = 512 << 10
	DefaultMaxFree           = 8 << 20
	// MaxMax is the largest heap the 32-bit address map allows.
	MaxMax = 1 << 30
	// MinMax is the smallest heap limit accepted.
	MinMax = 1 << 20
)

// WithDefaults returns c with every zero field set to its default.
func (c Config) WithDefaults() Config {
	if c.Collector == "" {
		c.Collector = CMS
	}
	if c.Max == 0 {
		c.Max = DefaultMax
	}
	if c.Start == 0 {
		c.Start = min(DefaultStart, c.Max)
	}
	if c.GrowthLimit == 0 {
		c.GrowthLimit = c.Max
	}
	if c.TargetUtilization == 0 {
		c.TargetUtilization = DefaultTargetUtilization
	}
	if c.MinFree == 0 {
		c.MinFree = DefaultMinFree
	}
	if c.MaxFree == 0 {
		c.MaxFree = DefaultMaxFree
	}
	return c
}

// Validate reports the first setting out of range, named as dalvikvm's
// option for it, in a config with defaults applied.
func (c Config) Validate() error {
	switch c.Collector {
	case CMS, SS:
	default:
		return fmt.Errorf("-Xgc:%s: unknown collector (want %s or %s)", c.Collector, CMS, SS)
	}
	switch {
	case c.Max < MinMax || c.Max > MaxMax:
		return fmt.Errorf("-Xmx %s: out of range [%s, %s]", Bytes(uint64(c.Max)), Bytes(MinMax), Bytes(MaxMax))
	case c.Start > c.Max:
		return fmt.Errorf("-Xms %s: larger than -Xmx %s", Bytes(uint64(c.Start)), Bytes(uint64(c.Max)))
	case c.GrowthLimit > c.Max:
		return fmt.Errorf("-XX:HeapGrowthLimit=%s: larger than -Xmx %s", Bytes(uint64(c.GrowthLimit)), Bytes(uint64(c.Max)))
	case c.Start > c.GrowthLimit:
		return fmt.Errorf("-Xms %s: larger than -XX:HeapGrowthLimit=%s", Bytes(uint64(c.Start)), Bytes(uint64(c.GrowthLimit)))
	case !(c.TargetUtilization > 0 && c.TargetUtilization < 1):
		return fmt.Errorf("-XX:HeapTargetUtilization=%g: must be in (0, 1)", c.TargetUtilization)
	case c.MinFree > c.MaxFree:
		return fmt.Errorf("-XX:HeapMinFree=%s: larger than -XX:HeapMaxFree=%s", Bytes(uint64(c.MinFree)), Bytes(uint64(c.MaxFree)))
	}
	return nil
}

// Bytes formats n as ART's PrettySize does in logcat GC lines: bytes
// below 10 KiB, KiB below 10 MiB, MiB above (512B, 56KB, 9MB).
func Bytes(n uint64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%dMB", n>>20)
	case n >= 10<<10:
		return fmt.Sprintf("%dKB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// ParseCollector reads a -Xgc: value.
func ParseCollector(s string) (Collector, error) {
	c := Collector(strings.ToLower(s))
	if c != CMS && c != SS {
		return "", fmt.Errorf("unknown collector %q (want %s or %s)", s, CMS, SS)
	}
	return c, nil
}
