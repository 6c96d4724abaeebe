// Package dpa is droidprof's DPA plugin (Dalvik Profiler for Applications,
// papers 000/001): method- and process-level profiling inside the VM.
//
// The "dpa" collector runs a program on droidprof's VM with the method
// entry/exit hooks attached, stamps every event with the wall clock and the
// thread's CPU clock into a fixed-size record buffer that goes to the run
// directory only when full, and calibrates what one clock read and one
// recorded event cost. The "baseline" collector runs the same program
// untraced and measures it the way the paper's baselines do: the method's
// own System.nanoTime() timing (source instrumentation, like Traceview) and
// the whole run timed from outside (like RMP). The analyzer computes
// inclusive and exclusive times per method, thread and process, raw and with
// the tracing overhead deducted per activation, the error rates Err_m and
// Err_p against the baselines, hotspots, and writes the trace as Android
// .trace, pprof and Perfetto JSON.
package dpa

import (
	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/vm/vmconfig"
)

// Version is the plugin version.
const Version = "0.1.0"

// Plugin returns the dpa plugin.
func Plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:        "dpa",
		Version:     Version,
		Description: "DPA: method- and process-level profiling inside droidprof's VM, with tracing overhead deducted",
		Collectors: []sdk.Collector{
			{Name: "dpa", Description: "run a program on the VM with method entry/exit tracing (wall and thread-CPU clocks, record buffer)", Config: Config{}, Run: collectDPA},
			{Name: "baseline", Description: "run the same program untraced: its self-timed variant's System.nanoTime() figure and the whole run timed from outside", Config: Config{}, Run: collectBaseline},
		},
		Analyzers: []sdk.Analyzer{
			{Name: "dpa", Description: "inclusive/exclusive times per method, thread and process (raw and deducted), Err_m/Err_p against the baselines, hotspots, .trace/pprof/Perfetto outputs", Config: AnalyzerConfig{}, Run: analyze},
		},
	}
}

// Config configures both collectors: what to run and how to trace it.
type Config struct {
	Workload       string            `json:"workload" doc:"a program from droidprof's workload registry (e.g. dpa-fib, scimark-fft, chess); empty: use class_path and main"`
	ClassPath      []string          `json:"class_path" doc:"DEX files of the program when workload is empty"`
	Main           string            `json:"main" doc:"main class (pkg.Name); default: the workload's"`
	Args           []string          `json:"args" doc:"program arguments; default: the workload's"`
	HeapMax        sdk.Size          `json:"heap_max" doc:"the VM's heap limit: the older spelling of vm.heap_max, kept for existing configs (set one or the other); 0: vm.heap_max" default:"0"`
	VM             vmconfig.Settings `json:"vm" doc:"the VM's heap and garbage collector (sizes, growth policy, collector, GC stress, heap verification)"`
	BufferRecords  int               `json:"buffer_records" doc:"record buffer size in events: the records file is written only when the buffer is full; 0 writes each event as it happens (the paper's no-buffer ablation)" default:"65536" min:"0" max:"16777216"`
	PairedBaseline bool              `json:"paired_baseline" doc:"dpa collector: also run the untraced program and its self-timed variant right before tracing, so each step has its own baselines (pairs measured seconds apart are immune to the host's slow drifts)" default:"false"`
	BestOf         int               `json:"best_of" doc:"runs per step (traced and, with paired_baseline, untraced, alternating); the fastest of each is kept, which filters out a host whose speed jumps between runs" default:"1" min:"1" max:"100"`
	MeasureEvents  bool              `json:"measure_events" doc:"have the VM read the clock again when each method hook returns and record what the event cost, dispatch included; the analysis then deducts measured costs plus a calibrated remainder instead of a calibrated constant (one clock read and one 16-byte record more per event: fib's traced run 2.1× its untraced one instead of 1.5×, plugins/dpa/BENCHMARKS.md); false deducts a calibrated constant per event, as the paper does — with calibrate = program, the constant this program's own events cost" default:"false"`
	Clock          string            `json:"clock" doc:"what the timestamps count: wall, the host's clock (with the thread CPU clock derived from it: the paper's dual clock), or virtual, the instructions the VM executes, one nanosecond each — deterministic, free of the host's noise and of the tracing's own cost, so nothing is calibrated or deducted (interpreter only; the program's System.nanoTime counts the same way)" default:"wall" enum:"wall,virtual"`
	Calibrate      string            `json:"calibrate" doc:"where the per-event deduction comes from: program, pairs of runs of the profiled program itself (untraced and traced, on the kernel's CPU clock of its main thread: what an event costs this program, issue 18's per-program calibration), or paired, rounds of a separate calibration program calling 64 small methods (the deduction before issue 18); both are measured and recorded, the other is reported beside it as a cross-check" default:"program" enum:"program,paired"`
	ProgramPairs   int               `json:"program_pairs" doc:"calibrate = program: pairs of runs (untraced and traced) of the program that calibrate it, at least (made even; events of a microsecond, without a record buffer, stop at 6 once known to 2 %); more, up to 4×, until the median per-event cost is known to ±0.5 ns, unless its interval says that would take more than 4×; the median over the pairs is kept" default:"11" min:"1" max:"1000"`
	Calibration    int               `json:"calibration" doc:"clock reads timed in a row, and traced calls of a small method, to calibrate the cost of a clock read and of a recorded event (Traceview reads the clock 32000 times)" default:"32000" min:"100" max:"10000000"`
}

// AnalyzerConfig configures the analyzer.
type AnalyzerConfig struct {
	Top    int     `json:"top" doc:"hotspot methods listed per program" default:"10" min:"1" max:"1000"`
	Bar    float64 `json:"bar" doc:"the accuracy bar in percent: each cell's |Err_m| and |Err_p| (medians over repetitions) are checked against it, and a cell whose 95 % confidence interval is wider than the bar is flagged as not resolved by the run instead of passing or failing on a number that means little" default:"2" min:"0.01" max:"1000"`
	Deduct bool    `json:"deduct" doc:"deduct the calibrated tracing overhead per activation in the hotspot tables (the error tables always show both)" default:"true"`
}
