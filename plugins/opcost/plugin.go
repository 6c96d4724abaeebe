// Package opcost is droidprof's opcost plugin (paper 004, Majima et al.):
// the CPU cost of every Dalvik instruction on droidprof's VM.
//
// The "opcost" collector generates a micro-benchmark per opcode
// (package microbench: a loop of N copies of the instruction, with its
// setup), runs each on the VM with the chosen engine and measures the
// measuring thread's CPU time of every run. The analyzer subtracts the
// empty loop (and, for instructions that cannot stand alone, the unit
// they are measured with), divides by the instructions executed, and
// writes the cost table per opcode with each one's coefficient of
// variation, as a table, CSV and JSON files and bar charts per opcode
// class.
package opcost

import (
	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/vm/vmconfig"
)

// Version is the plugin version.
const Version = "0.1.0"

// Plugin returns the opcost plugin.
func Plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:        "opcost",
		Version:     Version,
		Description: "opcost: the CPU cost of every Dalvik instruction on droidprof's VM, from generated micro-benchmarks",
		Collectors: []sdk.Collector{
			{Name: "opcost", Description: "generate a micro-benchmark per opcode and measure each one's thread CPU time on the VM", Config: Config{}, Run: collect},
			{Name: "workloads", Description: "run programs: count the instructions they execute by opcode, and measure their thread CPU time (what the cost model predicts)", Config: WorkloadsConfig{}, Run: collectWorkloads},
		},
		Analyzers: []sdk.Analyzer{
			{Name: "opcost", Description: "the cost table per opcode (ns per instruction, coefficient of variation), CSV, JSON and charts per opcode class", Config: AnalyzerConfig{}, Run: analyze},
		},
	}
}

// Config configures the collector.
type Config struct {
	Opcodes      []string          `json:"opcodes" doc:"opcode mnemonics (add-int/2addr) or opcode classes (the paper's Table 1: nop, move, exception, return, const, monitor, type, array, instance, control, cmp, array-access, field, static-field, invoke, arith, conversion) to measure; empty: all 218"`
	LoopSize     int               `json:"loop_size" doc:"copies of the instruction in the loop body (the paper: 10000, where its per-instruction cost became flat)" default:"10000" min:"1" max:"100000"`
	LoopCount    int               `json:"loop_count" doc:"iterations of the loop per measurement (the paper: 10000)" default:"10000" min:"1" max:"100000000"`
	Measurements int               `json:"measurements" doc:"measurements per benchmark (the paper: at least 30)" default:"30" min:"3" max:"10000"`
	Linearity    bool              `json:"linearity" doc:"also run the linearity study (the paper's Table 3): div-int paired with an opcode of each class, alternating and in halves, against the mean of the two measured alone"`
	SweepOpcode  string            `json:"sweep_opcode" doc:"calibration (the paper's Fig. 1): an opcode to measure at every loop size of sweep_sizes (with loop_count iterations) and every loop count of sweep_counts (with loop_size copies), to show where its cost per instruction becomes flat; empty: no sweep"`
	SweepSizes   []int             `json:"sweep_sizes" doc:"loop sizes of the calibration sweep (default 100, 300, 1000, 3000, 10000, 30000, 80000)"`
	SweepCounts  []int             `json:"sweep_counts" doc:"loop counts of the calibration sweep (default 10, 30, 100, 300, 1000, 3000, 10000)"`
	OperandGrids []string          `json:"operand_grids" doc:"opcodes whose cost to measure over a grid of operand magnitudes, as heat maps (the paper's operand-value dependence): div-int, rem-int, mul-int, div-long, mul-long, div-double, mul-double, double-to-int, double-to-long, or all"`
	GridValues   []string          `json:"grid_values" doc:"operand values of the grids, for both axes (default: eight magnitudes from 1 to near the type's limit); each must be a valid operand of every grid opcode, at most 16 (a 16 × 16 grid)"`
	GridLoopSize int               `json:"grid_loop_size" doc:"copies of the instruction in the operand grids' loop bodies, with loop_count scaled so that a run executes as many instructions (0: loop_size); where the calibration sweep shows the cost flat from a smaller size, a shorter body costs the aot engine a tenth of the compilation per grid point" min:"0" max:"100000"`
	UseCases     bool              `json:"use_cases" doc:"also run the paper's expression use cases ((double)(x/2) against (double)x/2 for a long x): each written both ways, estimated from the cost table and measured"`
	CallShapes   bool              `json:"call_shapes" doc:"also measure calls in the shapes the invoke benchmarks leave out — an argument word, a recursive call, a call whose target differs from its call site's last — for the cost model"`
	AllocShapes  bool              `json:"alloc_shapes" doc:"also measure allocations of large char arrays in both heap spaces — the zeroing and the collections a byte brings on, which a new-array of one element does not pay — for the cost model"`
	StopCI       float64           `json:"stop_ci" doc:"adaptive stopping: a benchmark (and a sweep or grid point) stops after at least 10 measured runs once the 95 % confidence interval of their mean is within ± this many per cent of it, instead of running all measurements; 0: always run all (the linearity study's rounds always do)" min:"0" max:"100"`
	Warmup       int               `json:"warmup" doc:"runs per benchmark before the measured ones, discarded (class loading, the aot engine's compilation)" default:"1" min:"0" max:"1000"`
	VM           vmconfig.Settings `json:"vm" doc:"the VM: engine (interp or aot), heap and collector"`

	operands []string // of a grid point, for the driver
}

// AnalyzerConfig configures the analyzer.
type AnalyzerConfig struct {
	MaxCV float64 `json:"max_cv" doc:"the largest coefficient of variation (%) of a benchmark's measurements that is trusted; noisier opcodes are flagged in the table and the summary (the host is too noisy for them)" default:"5" min:"0.01" max:"1000"`
}
