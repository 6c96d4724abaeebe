package opcost

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/plugins/opcost/microbench"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
)

// Files the collector writes into its step directory.
const (
	ResultFile = "result.json"
	DEXFile    = "microbench.dex"
)

// Result is the collector's output.
type Result struct {
	Engine       string        `json:"engine"`
	LoopSize     int           `json:"loop_size"`
	LoopCount    int           `json:"loop_count"`
	Measurements int           `json:"measurements"`
	Benches      []BenchResult `json:"benches"`
	// Sweep is the calibration sweep of one opcode, if one was asked for.
	Sweep []SweepPoint `json:"sweep,omitempty"`
	// Grids are the operand grids asked for.
	Grids []GridResult `json:"grids,omitempty"`
	// CallShapes are the calls measured in other shapes, if asked for.
	CallShapes *CallShapes `json:"call_shapes,omitempty"`
	// LinearityEmpty is the empty loop measured in the linearity study's
	// rounds, which its pairs are corrected by (the study's benchmarks
	// run in a program of their own, one of each a round).
	LinearityEmpty []int64 `json:"linearity_empty_ns,omitempty"`
	// AllocShapes are the allocations of large arrays, if asked for.
	AllocShapes *AllocShapes `json:"alloc_shapes,omitempty"`
	// InterpPlacement is where the interpreter loop of the binary that
	// ran the linearity study lies (see placement); "" on aot or without
	// the study.
	InterpPlacement string `json:"interp_placement,omitempty"`
}

// GridResult is one opcode measured over a grid of operand values.
type GridResult struct {
	Opcode string   `json:"opcode"`
	A      []string `json:"a"` // the first operand's values (columns)
	B      []string `json:"b"` // the second's (rows); one "-" for a conversion
	// Samples[row][column] are the measurements at one point.
	Samples [][][]int64 `json:"samples_ns"`
	Empty   []int64     `json:"empty_ns"` // the empty loop, for the grids' program
	// LoopSize and LoopCount are the grids' loop (0: the result's).
	LoopSize  int `json:"loop_size,omitempty"`
	LoopCount int `json:"loop_count,omitempty"`
}

// SweepPoint is the sweep's opcode and the empty loop measured at one
// loop size and count.
type SweepPoint struct {
	Opcode string  `json:"opcode"`
	Axis   string  `json:"axis"` // what varies: "size" or "count"
	Size   int     `json:"loop_size"`
	Count  int     `json:"loop_count"`
	Bench  []int64 `json:"samples_ns"`
	Empty  []int64 `json:"empty_ns"`
}

// BenchResult is one benchmark: how its cost is derived (microbench.Bench)
// and its measurements.
type BenchResult struct {
	Name     string   `json:"name"`
	Class    string   `json:"class"`
	Base     string   `json:"base,omitempty"`
	Split    []string `json:"split,omitempty"`
	Same     string   `json:"same,omitempty"`
	Included string   `json:"included,omitempty"`
	// Samples are the thread CPU times of the measured runs, ns per run of
	// LoopCount iterations; empty for an opcode measured by another
	// benchmark (Same, Included).
	Samples []int64 `json:"samples_ns,omitempty"`
}

func collect(ctx context.Context, step *sdk.Step) error {
	var cfg Config
	if err := step.Decode(&cfg); err != nil {
		return err
	}
	gcCfg, err := cfg.VM.Config()
	if err != nil {
		return fmt.Errorf("opcost: %w", err)
	}
	benches, err := microbench.Select(cfg.Opcodes)
	if err != nil {
		return err
	}
	gridOps := cfg.OperandGrids
	if len(gridOps) == 1 && gridOps[0] == "all" {
		gridOps = nil
		for _, g := range microbench.GridOps {
			gridOps = append(gridOps, g.Opcode)
		}
	}
	gridBenches, err := microbench.Grid(gridOps) // checked before anything is measured
	if err != nil {
		return err
	}
	if err := checkGridValues(gridOps, cfg.GridValues); err != nil {
		return err
	}
	if cfg.SweepOpcode != "" {
		// Checked before anything is measured.
		if _, err := sweepBench(cfg.SweepOpcode); err != nil {
			return err
		}
	}
	if cfg.UseCases {
		benches = union(benches, microbench.UseCaseBenches())
	}
	var lin []*microbench.Bench
	if cfg.Linearity {
		if lin, err = microbench.Linearity(nil); err != nil {
			return err
		}
		benches = union(benches, lin)
	}
	inRounds := map[string]bool{}
	for _, b := range lin {
		// Both programs measure an empty loop of their own.
		inRounds[b.Name] = b.Name != microbench.EmptyLoop
	}
	var alone []*microbench.Bench // the benchmarks measured one after another
	for _, b := range benches {
		if !inRounds[b.Name] {
			alone = append(alone, b)
		}
	}
	step.Progress(0, 1, "", fmt.Sprintf("generating %d micro-benchmarks of %d instructions", len(benches), cfg.LoopSize))
	data, err := microbench.Assemble(alone, cfg.LoopSize)
	if err != nil {
		return err
	}
	dexPath := filepath.Join(step.Dir, DEXFile)
	if err := os.WriteFile(dexPath, data, 0o644); err != nil {
		return err
	}
	res := Result{Engine: cmp.Or(cfg.VM.Engine, "interp"), LoopSize: cfg.LoopSize, LoopCount: cfg.LoopCount, Measurements: cfg.Measurements}
	index, measured := 0, 0
	for _, b := range alone {
		if b.Measured() {
			measured++
		}
	}
	var rounds map[string][]int64
	if len(lin) > 0 {
		step.Progress(0, 1, "", fmt.Sprintf("linearity: %d benchmarks, one of each a round, %d rounds", len(lin), cfg.Measurements))
		if rounds, err = measureRounds(ctx, step.Dir, lin, cfg, gcCfg); err != nil {
			return fmt.Errorf("opcost: linearity: %w", err)
		}
		res.LinearityEmpty = rounds[microbench.EmptyLoop]
		if res.Engine == "interp" {
			res.InterpPlacement = placement()
		}
	}
	for _, b := range benches {
		r := BenchResult{Name: b.Name, Class: b.Class, Base: b.Base, Split: b.Split, Same: b.Same, Included: b.Included}
		if inRounds[b.Name] {
			r.Samples = rounds[b.Name]
		} else if b.Measured() {
			step.Progress(float64(index), float64(measured), "benchmarks", "measuring "+b.Name)
			if r.Samples, err = measure(ctx, dexPath, index, cfg, gcCfg); err != nil {
				return fmt.Errorf("opcost: %s: %w", b.Name, err)
			}
			index++
		}
		res.Benches = append(res.Benches, r)
	}
	if cfg.SweepOpcode != "" {
		if res.Sweep, err = sweep(ctx, step, cfg, gcCfg); err != nil {
			return err
		}
	}
	if cfg.CallShapes {
		step.Progress(1, 1, "", "measuring the call shapes")
		if res.CallShapes, err = measureCallShapes(ctx, step.Dir, cfg.Measurements, cfg.VM.Engine, gcCfg); err != nil {
			return err
		}
	}
	if cfg.AllocShapes {
		step.Progress(1, 1, "", "measuring the allocation shapes")
		if res.AllocShapes, err = measureAllocShapes(ctx, step.Dir, cfg.Measurements, cfg.VM.Engine, gcCfg); err != nil {
			return err
		}
	}
	if len(gridOps) > 0 {
		if res.Grids, err = grids(ctx, step, cfg, gcCfg, gridOps, gridBenches); err != nil {
			return err
		}
	}
	if err := step.WriteJSON(ResultFile, &res); err != nil {
		return err
	}
	step.Progress(1, 1, "", fmt.Sprintf("%d benchmarks measured %d times each", measured, cfg.Measurements))
	return step.AddArtifacts(
		sdk.Artifact{Name: DEXFile, Kind: sdk.KindRaw, MediaType: "application/vnd.android.dex", Title: "the generated micro-benchmarks"},
	)
}

// measure runs benchmark index of the DEX file in a VM of its own and
// returns the measured runs' times. With cfg.StopCI it stops the VM as
// soon as the measured runs' 95 % confidence interval is narrow enough
// (stopper): a quiet benchmark needs far fewer than a noisy one.
func measure(ctx context.Context, dexPath string, index int, cfg Config, gcCfg gc.Config) ([]int64, error) {
	runs := cfg.Warmup + cfg.Measurements
	args := append([]string{strconv.Itoa(index), strconv.Itoa(cfg.LoopCount), strconv.Itoa(runs)}, cfg.operands...)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &stopper{warmup: cfg.Warmup, ci: cfg.StopCI / 100, cancel: cancel}
	opts := vm.Options{ClassPath: []string{dexPath}, GC: gcCfg, Engine: cfg.VM.Engine, Preload: cfg.VM.Preload, Stdout: out}
	if _, err := runProgram(ctx, opts, microbench.MainClass, args); err != nil && !out.stopped {
		return nil, err
	}
	if out.err != nil {
		return nil, out.err
	}
	if !out.stopped && len(out.times) != runs {
		return nil, fmt.Errorf("%d times printed, want %d", len(out.times), runs)
	}
	return out.times[cfg.Warmup:], nil
}

// MinStopRuns is how many measured runs a benchmark gets before its
// confidence interval may stop it.
const MinStopRuns = 10

// stopper is the driver's standard output: it parses each run's time as
// the driver prints it and, when ci > 0, cancels the VM once at least
// MinStopRuns measured runs have a 95 % confidence interval of their
// mean within ±ci of it.
type stopper struct {
	warmup  int
	ci      float64
	cancel  context.CancelFunc
	buf     []byte
	times   []int64
	stopped bool
	err     error
}

func (s *stopper) Write(p []byte) (int, error) {
	s.buf = append(s.buf, p...)
	// Once stopped, the runs the VM finishes before it stops are left
	// out: the times are those the interval was judged on.
	for !s.stopped {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(s.buf[:i]))
		s.buf = s.buf[i+1:]
		ns, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			if s.err == nil {
				s.err = fmt.Errorf("time %d %q: %w", len(s.times), line, err)
			}
			continue
		}
		s.times = append(s.times, ns)
		if m := s.times[min(s.warmup, len(s.times)):]; s.ci > 0 && !s.stopped && len(m) >= MinStopRuns && narrow(m, s.ci) {
			s.stopped = true
			s.cancel()
		}
	}
	return len(p), nil
}

// narrow reports whether the 95 % confidence interval of xs's mean is
// within ±rel of it (Student's t for n ≥ 10 is at most 2.26; 2.3 is used).
func narrow(xs []int64, rel float64) bool {
	var sum float64
	for _, x := range xs {
		sum += float64(x)
	}
	n := float64(len(xs))
	mean := sum / n
	var ss float64
	for _, x := range xs {
		d := float64(x) - mean
		ss += d * d
	}
	sd := math.Sqrt(ss / (n - 1))
	return mean > 0 && 2.3*sd/math.Sqrt(n) <= rel*mean
}

// measureRounds runs benches in a program of their own, every one once a
// round (the driver's Rounds), so that benchmarks compared with one
// another see the same phases of a shared host's load: measured one
// after another, 30 runs each, a pair and the opcodes it is compared
// with were minutes apart. It returns each one's measured runs by name;
// the first cfg.Warmup rounds are discarded.
func measureRounds(ctx context.Context, dir string, benches []*microbench.Bench, cfg Config, gcCfg gc.Config) (map[string][]int64, error) {
	data, err := microbench.Assemble(benches, cfg.LoopSize)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "rounds.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return nil, err
	}
	defer os.Remove(path)
	var measured []string
	for _, b := range benches {
		if b.Measured() {
			measured = append(measured, b.Name)
		}
	}
	var stdout bytes.Buffer
	rounds := cfg.Warmup + cfg.Measurements
	opts := vm.Options{ClassPath: []string{path}, GC: gcCfg, Engine: cfg.VM.Engine, Preload: cfg.VM.Preload, Stdout: &stdout}
	if _, err := runProgram(ctx, opts, microbench.MainClass, []string{strconv.Itoa(microbench.Rounds), strconv.Itoa(cfg.LoopCount), strconv.Itoa(rounds)}); err != nil {
		return nil, err
	}
	lines := strings.Fields(stdout.String())
	if len(lines) != rounds*len(measured) {
		return nil, fmt.Errorf("%d times printed, want %d rounds of %d", len(lines), rounds, len(measured))
	}
	out := map[string][]int64{}
	for i, l := range lines[cfg.Warmup*len(measured):] {
		ns, err := strconv.ParseInt(l, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("time %d %q: %w", i, l, err)
		}
		name := measured[i%len(measured)]
		out[name] = append(out[name], ns)
	}
	return out, nil
}

// union appends to a the benchmarks of b it does not hold.
func union(a, b []*microbench.Bench) []*microbench.Bench {
	have := map[string]bool{}
	for _, x := range a {
		have[x.Name] = true
	}
	for _, x := range b {
		if !have[x.Name] {
			a = append(a, x)
			have[x.Name] = true
		}
	}
	return a
}

// sweep measures the sweep opcode and the empty loop at each loop size
// (with the configured count) and each loop count (with the configured
// size).
func sweep(ctx context.Context, step *sdk.Step, cfg Config, gcCfg gc.Config) ([]SweepPoint, error) {
	b, err := sweepBench(cfg.SweepOpcode)
	if err != nil {
		return nil, err
	}
	empty, _ := microbench.Lookup(microbench.EmptyLoop)
	sizes, counts := cfg.SweepSizes, cfg.SweepCounts
	if len(sizes) == 0 {
		sizes = []int{100, 300, 1000, 3000, 10000, 30000, 80000}
	}
	if len(counts) == 0 {
		counts = []int{10, 30, 100, 300, 1000, 3000, 10000}
	}
	type point struct {
		axis        string
		size, count int
	}
	var points []point
	for _, s := range sizes {
		points = append(points, point{"size", s, cfg.LoopCount})
	}
	for _, c := range counts {
		points = append(points, point{"count", cfg.LoopSize, c})
	}
	var out []SweepPoint
	for i, pt := range points {
		if pt.size < 1 || pt.count < 1 {
			return nil, fmt.Errorf("opcost: sweep: loop size %d and count %d must be at least 1", pt.size, pt.count)
		}
		step.Progress(float64(i), float64(len(points)), "sweep points", fmt.Sprintf("sweep: %s, loop of %d × %d", b.Name, pt.size, pt.count))
		data, err := microbench.Assemble([]*microbench.Bench{empty, b}, pt.size)
		if err != nil {
			return nil, err
		}
		path := filepath.Join(step.Dir, "sweep.dex")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, err
		}
		c := cfg
		c.LoopCount = pt.count
		sp := SweepPoint{Opcode: b.Name, Axis: pt.axis, Size: pt.size, Count: pt.count}
		if sp.Empty, err = measure(ctx, path, 0, c, gcCfg); err != nil {
			return nil, fmt.Errorf("opcost: sweep: %w", err)
		}
		if sp.Bench, err = measure(ctx, path, 1, c, gcCfg); err != nil {
			return nil, fmt.Errorf("opcost: sweep: %w", err)
		}
		out = append(out, sp)
		os.Remove(path)
	}
	return out, nil
}

// sweepBench is the benchmark of a sweep opcode: one measured alone.
func sweepBench(name string) (*microbench.Bench, error) {
	b, ok := microbench.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("opcost: sweep_opcode: no opcode %q%s", name, microbench.Suggestion(name))
	}
	if !b.Measured() || b.Base != "" || len(b.Split) > 0 || b.Class == "helper" || b.Class == "loop" {
		return nil, fmt.Errorf("opcost: sweep_opcode %q: want an opcode measured alone by a unit of its own, e.g. move", name)
	}
	return b, nil
}

// grids measures each grid opcode at every point of its grid, in one
// program: the driver sets the operands of each point.
func grids(ctx context.Context, step *sdk.Step, cfg Config, gcCfg gc.Config, ops []string, benches []*microbench.Bench) ([]GridResult, error) {
	// A shorter body, as many instructions a run: the loop count grows
	// as the size shrinks.
	if cfg.GridLoopSize > 0 && cfg.GridLoopSize != cfg.LoopSize {
		cfg.LoopCount = max(1, cfg.LoopCount*cfg.LoopSize/cfg.GridLoopSize)
		cfg.LoopSize = cfg.GridLoopSize
	}
	data, err := microbench.Assemble(benches, cfg.LoopSize)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(step.Dir, "grids.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return nil, err
	}
	defer os.Remove(path)
	empty, err := measure(ctx, path, 0, cfg, gcCfg)
	if err != nil {
		return nil, fmt.Errorf("opcost: grids: %w", err)
	}
	var out []GridResult
	for i, op := range ops {
		g, _ := microbench.LookupGrid(op)
		values := microbench.GridValues(g.Kind)
		if len(cfg.GridValues) > 0 {
			values = cfg.GridValues
		}
		r := GridResult{Opcode: op, A: values, B: values, Empty: empty, LoopSize: cfg.LoopSize, LoopCount: cfg.LoopCount}
		if g.Unary {
			r.B = []string{"-"}
		}
		for row, b := range r.B {
			var line [][]int64
			for col, a := range r.A {
				step.Progress(float64(i*len(r.A)*len(r.B)+row*len(r.A)+col), float64(len(ops)*len(r.A)*len(r.B)), "grid points", fmt.Sprintf("grid: %s %s, %s", op, a, b))
				if b == "-" {
					b = "0"
				}
				c := cfg
				c.operands = []string{a, b}
				samples, err := measure(ctx, path, i+1, c, gcCfg)
				if err != nil {
					return nil, fmt.Errorf("opcost: grid %s at %s, %s: %w", op, a, b, err)
				}
				line = append(line, samples)
			}
			r.Samples = append(r.Samples, line)
		}
		out = append(out, r)
	}
	return out, nil
}

// MaxGridValues bounds a grid's axis: a 16 × 16 grid at the paper's
// loop figures (10 000 × 10 000, 30 measurements) already takes hours on
// the interpreter; a larger one is a mistake to report before measuring.
const MaxGridValues = 16

// checkGridValues checks the configured grid values before anything is
// measured: not too many, and each a valid operand of every grid opcode
// (the driver would otherwise fail on it halfway through the study).
func checkGridValues(ops, values []string) error {
	if len(values) > MaxGridValues {
		return fmt.Errorf("opcost: grid_values: a grid of %d × %d points is too large (at most %d values, a %d × %d grid)",
			len(values), len(values), MaxGridValues, MaxGridValues, MaxGridValues)
	}
	for _, op := range ops {
		g, _ := microbench.LookupGrid(op)
		for i, s := range values {
			var err error
			switch g.Kind {
			case "I":
				_, err = strconv.ParseInt(s, 10, 32)
			case "J":
				_, err = strconv.ParseInt(s, 10, 64)
			default:
				_, err = strconv.ParseFloat(s, 64)
			}
			if err != nil {
				return fmt.Errorf("opcost: grid_values[%d] %q is not a valid operand of %s (%s): %w", i, s, op, kindName(g.Kind), err)
			}
		}
	}
	return nil
}

// kindName names an operand type for messages.
func kindName(kind string) string {
	switch kind {
	case "I":
		return "an int"
	case "J":
		return "a long"
	}
	return "a double"
}
