// Package artobj is droidprof's ART object profiler (paper 003, Wang,
// Shi and Lu): every object's life — where and when it was born, how the
// collector moved it, when it was last used and when it died — recorded
// with the Address-Chain technique on droidprof's VM.
//
// The "artobj" collector runs a program with the VM's allocation, move,
// free and collection hooks and, when the VM keeps paper 003's access
// bitmap (the aot engine's barriers at level none, cache, elim or all),
// dumps the bitmap at every collection and at exit. Events go through
// fixed-size per-thread record buffers to a background writer, into the
// event file of package events (its doc is the file format), with one
// global order by GC epoch and sequence number.
//
// The analyzer (package chain builds the chains) reads the file back,
// builds every object's Address-Chain (allocation, moves, death or alive
// at exit), and reports lifetimes in collections and in allocated bytes,
// last use and access frequency from the bitmaps, survival per class,
// the per-program table of the paper's Table 2, the top allocation sites
// and classes (Tables 3–4), the space overhead (the bitmap is heap/64,
// Table 1) and the time overhead when measured, and ranks allocation
// sites and classes by leak score (package leak: staleness × size, the
// LeakTracer rule the paper uses).
package artobj

import (
	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/vm/vmconfig"
)

// Version is the plugin version.
const Version = "0.1.0"

// Plugin returns the artobj plugin.
func Plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:        "artobj",
		Version:     Version,
		Description: "artobj: every object's life (Address-Chain: allocation site, moves, last use, death), leak prediction, barrier overhead",
		Collectors: []sdk.Collector{
			{Name: "artobj", Description: "run a program on the VM recording allocations, moves, deaths, collections and the access bitmap of every GC epoch", Config: Config{}, Run: collect},
		},
		Analyzers: []sdk.Analyzer{
			{Name: "artobj", Description: "Address-Chains: lifetimes, last use, survival per class, top sites and classes, leak ranking, space and time overhead", Config: AnalyzerConfig{}, Run: analyze},
		},
	}
}

// Config configures the collector.
type Config struct {
	Workload            string            `json:"workload" doc:"a program from droidprof's workload registry (e.g. leak-list, chess, scimark-lu), optionally followed by its arguments (\"scimark-lu 300\"); empty: use class_path and main"`
	ClassPath           []string          `json:"class_path" doc:"DEX files of the program when workload is empty"`
	Main                string            `json:"main" doc:"main class (pkg.Name); default: the workload's"`
	Args                []string          `json:"args" doc:"program arguments; default: the workload's"`
	VM                  vmconfig.Settings `json:"vm" doc:"the VM: engine (interp or aot), barriers (none, cache, elim or all on aot: what records accesses), heap sizes and collector (cms or ss)"`
	InterpreterBarriers bool              `json:"interpreter_barriers" doc:"run the access barrier (level none) in interpreted code too: on the interp engine the only way to record accesses, on aot the methods it leaves to the interpreter (with vm.barriers other than off)" default:"true"`
	BufferRecords       int               `json:"buffer_records" doc:"records per thread buffer: a buffer goes to the background writer when full" default:"16384" min:"1" max:"16777216"`
	StressAll           bool              `json:"gc_stress_all" doc:"collect before every allocation (once the zygote space is sealed): every death is then recorded in the epoch the object became unreachable; very slow, for exact lifetimes of small programs"`
	Overhead            bool              `json:"overhead" doc:"also time the program unprofiled (no barriers, no hooks), with barriers but no event output, and profiled, side by side, to split the time overhead into barriers and event output (paper 003 Fig. 5)"`
	HprofAtGC           []int             `json:"hprof_at_gc" doc:"collections after which to write an HPROF heap dump (heap-gc<N>.hprof: Android Studio, Eclipse MAT and jmap's readers open it)"`
	HprofAtExit         bool              `json:"hprof_at_exit" doc:"write an HPROF heap dump of the heap at the end of the program (heap-exit.hprof)"`
	OverheadRounds      int               `json:"overhead_rounds" doc:"rounds of the overhead measurement: each times every variant once, in a rotating order" default:"5" min:"1" max:"100"`
	MinHeapMultiple     float64           `json:"min_heap_multiple" doc:"run with heap_max = this multiple of the program's minimum heap (the smallest heap_max it runs in on this engine and collector, found by bisection over vm.heap_max in 64KiB steps from 1MiB, and cached), as paper 003 ran with the minimum heap; 0: vm.heap_max as given" default:"0" min:"0" max:"64"`
	MinHeapCache        string            `json:"min_heap_cache" doc:"the minimum heaps' cache file; empty: ~/.cache/droidprof/artobj-minheap.json"`
}

// AnalyzerConfig configures the analyzer.
type AnalyzerConfig struct {
	Top        int      `json:"top" doc:"allocation sites and classes listed in the top and leak tables" default:"10" min:"1" max:"1000"`
	ReplayBase string   `json:"replay_base" doc:"first address of the heap window the replay figure draws (paper 003 Fig. 7), e.g. \"0x12c00000\"; empty: the start of the main space"`
	ReplaySize sdk.Size `json:"replay_size" doc:"size of the replay's heap window (the paper drew 16KiB)" default:"16KiB" min:"64" max:"67108864"`
}
