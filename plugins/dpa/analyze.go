package dpa

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/chart"
	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/plugins/dpa/analysis"
	"github.com/droidprof/droidprof/plugins/dpa/trace"
)

// step is one collector step's data.
type step struct {
	id     string
	cell   string            // cellData.name
	labels map[string]string // program and buffer
	res    Result
	tr     *trace.Trace      // the first dpa step of a cell only
	prof   *analysis.Profile // dpa steps, deduction on (raw fields too)
	// cross is the same trace with the deduction of the calibration it
	// was not deducted with (the cross-check), nil when the trace does
	// not hold the other's figures.
	cross *analysis.Profile
	// calib and crossCalib name the two calibrations; event and
	// crossEvent are their whole per-event costs (ns).
	calib, crossCalib string
	event, crossEvent float64
}

// cellData groups the steps of one matrix cell.
type cellData struct {
	name, program string
	labels        map[string]string
	dpa, bases    []*step
}

func analyze(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	var cfg AnalyzerConfig
	if err := a.Decode(&cfg); err != nil {
		return nil, err
	}
	cells, err := loadSteps(a)
	if err != nil {
		return nil, err
	}
	res := a.NewResult()
	if len(cells) == 0 {
		res.Summary("No dpa steps with results.")
		return res, nil
	}
	var summary strings.Builder
	accuracy(res, cells, cfg.Bar/100, &summary)
	if err := hotspots(res, cells, cfg, &summary); err != nil {
		return nil, err
	}
	if err := exports(res, cells); err != nil {
		return nil, err
	}
	res.Summary(summary.String())
	return res, nil
}

// loadSteps reads every ok dpa step and groups them into cells by what
// they ran: the program (workload or main class, and arguments) and, for
// traced steps, the record buffer size. Matrix axes that do not change
// the program (a quickstart sweeping storage settings) do not split the
// cells, and settings that change only the machine (heap_max) stay out of
// the labels, so that compare matches the same program across runs.
// Baseline steps join every cell of their program.
func loadSteps(a *sdk.Analysis) ([]*cellData, error) {
	byCell := map[string]*cellData{}
	var order []string
	basesOf := map[string][]*step{}
	for _, st := range a.Steps {
		if st.Status != "" && st.Status != "ok" {
			continue
		}
		if !strings.HasPrefix(st.Collector, "dpa.") && st.Collector != "dpa" {
			continue
		}
		art := sdk.Find(st, ResultFile)
		if art == nil {
			continue
		}
		s := &step{id: st.ID}
		if err := a.ReadJSON(art, &s.res); err != nil {
			return nil, fmt.Errorf("step %s: %w", s.id, err)
		}
		prog := programName(s.res)
		if s.res.Collector != "dpa" {
			basesOf[prog] = append(basesOf[prog], s)
			continue
		}
		s.labels = map[string]string{"program": prog, "buffer": strconv.Itoa(s.res.BufferRecords)}
		s.cell = prog + " buffer=" + strconv.Itoa(s.res.BufferRecords)
		if s.res.MeasureEvents {
			// Measured event costs trace differently (one clock
			// read more per event): a cell of their own.
			s.labels["events"] = "measured"
			s.cell += " measured"
		}
		rec, meta := sdk.Find(st, trace.RecordsFile), sdk.Find(st, trace.MetaFile)
		if rec == nil || meta == nil {
			return nil, fmt.Errorf("step %s: no %s or %s", s.id, trace.RecordsFile, trace.MetaFile)
		}
		tr, err := trace.Load(a.Path(rec), a.Path(meta))
		if err != nil {
			return nil, fmt.Errorf("step %s: %w", s.id, err)
		}
		s.tr = tr
		s.prof = analysis.Analyze(tr, analysis.Options{Deduct: true})
		if s.prof.Err != nil {
			return nil, fmt.Errorf("step %s: %w", s.id, s.prof.Err)
		}
		s.calib, s.event = cmp.Or(tr.Calibration, trace.CalibrationPaired), cmp.Or(tr.EventOverheadNs, float64(tr.EventOverhead))
		if x := crossCheck(tr); x != nil {
			s.cross = analysis.Analyze(x, analysis.Options{Deduct: true})
			s.crossCalib, s.crossEvent = x.Calibration, cmp.Or(x.EventOverheadNs, float64(x.EventOverhead))
		}
		c := byCell[s.cell]
		if c == nil {
			c = &cellData{name: s.cell, program: prog, labels: s.labels}
			byCell[s.cell] = c
			order = append(order, s.cell)
		}
		c.dpa = append(c.dpa, s)
		if len(c.dpa) > 1 {
			// Only a cell's first trace is shown in detail and exported;
			// the others live on in their profiles. (Holding every trace
			// of the accuracy config at once took over 20 GB.)
			s.tr = nil
		}
	}
	var cells []*cellData
	for _, name := range order {
		c := byCell[name]
		c.bases = basesOf[c.program]
		cells = append(cells, c)
	}
	return cells, nil
}

// joinCalib adds calibration name c to the names so far, "a+b" when the
// steps of a cell differ.
func joinCalib(names, c string) string {
	if names == "" || names == c || c == "" {
		return cmp.Or(names, c)
	}
	for _, n := range strings.Split(names, "+") {
		if n == c {
			return names
		}
	}
	return names + "+" + c
}

// crossCheck is t with the deduction of the calibration it was not
// deducted with, nil when t does not hold that calibration's figures.
func crossCheck(t *trace.Trace) *trace.Trace {
	x := *t
	switch cmp.Or(t.Calibration, trace.CalibrationPaired) {
	case trace.CalibrationProgram:
		if t.PairedEventOverhead <= 0 {
			return nil
		}
		x.Calibration = trace.CalibrationPaired
		x.EventOverhead, x.UnmeasuredOverhead = t.PairedEventOverhead, t.PairedUnmeasuredOverhead
		x.EventOverheadNs, x.UnmeasuredOverheadNs = 0, 0
	default:
		if t.ProgramEventOverheadNs == 0 {
			return nil
		}
		x.Calibration = trace.CalibrationProgram
		x.EventOverheadNs, x.UnmeasuredOverheadNs = t.ProgramEventOverheadNs, t.ProgramUnmeasuredOverheadNs
		x.EventOverhead = time.Duration(math.Round(t.ProgramEventOverheadNs))
		x.UnmeasuredOverhead = time.Duration(math.Round(t.ProgramUnmeasuredOverheadNs))
	}
	return &x
}

// programName names what a step ran: the workload (or main class), with
// its arguments when they were given, and the engine and clock when they
// are not the defaults (their times are not comparable with the
// interpreter's on the host's clock, so they make cells of their own).
func programName(r Result) string {
	name := r.Workload
	if name == "" {
		name = r.Main
	}
	if len(r.Args) > 0 {
		name += " " + strings.Join(r.Args, " ")
	}
	if r.Engine != "" && r.Engine != "interp" {
		name += " engine=" + r.Engine
	}
	if r.Clock != "" {
		name += " clock=" + r.Clock
	}
	return name
}

// methodName turns a workload's "Lpkg/Cls;.name:(sig)" into the trace's
// class, name and signature.
func methodName(spec string) (class, name, sig string, ok bool) {
	cls, rest, ok1 := strings.Cut(spec, ";.")
	name, sig, ok2 := strings.Cut(rest, ":")
	if !ok1 || !ok2 || !strings.HasPrefix(cls, "L") {
		return "", "", "", false
	}
	return strings.ReplaceAll(cls[1:], "/", "."), name, sig, true
}

// methodStats finds the profiled method of a step.
func (s *step) methodStats() (analysis.MethodStats, bool) { return statsOf(s.prof, s.res.Method) }

// statsOf finds a workload's profiled method (Result.Method) in a profile.
func statsOf(prof *analysis.Profile, method string) (analysis.MethodStats, bool) {
	class, name, sig, ok := methodName(method)
	if !ok {
		return analysis.MethodStats{}, false
	}
	for _, m := range prof.Methods {
		if m.Method.Class == class && m.Method.Name == name && m.Method.Signature == sig {
			return m, true
		}
	}
	return analysis.MethodStats{}, false
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// medianOf returns the median of f over the steps that have a value.
func medianOf(steps []*step, f func(*step) (float64, bool)) (float64, int) {
	var xs []float64
	for _, s := range steps {
		if v, ok := f(s); ok {
			xs = append(xs, v)
		}
	}
	if len(xs) == 0 {
		return math.NaN(), 0
	}
	return stats.Median(xs), len(xs)
}

// accuracy emits the per-step metrics, the Err_m/Err_p table and figure,
// and checks each cell against the bar (a fraction).
func accuracy(res *sdk.Result, cells []*cellData, bar float64, summary *strings.Builder) {
	verdicts := map[string][]string{}
	var rows [][]string
	var errCells []string
	var errDed, errRaw []float64
	worst, noisiest := 0.0, 0.0
	virtual, programCalibrated := false, false
	for _, c := range cells {
		virtual = virtual || len(c.dpa) > 0 && c.dpa[0].res.Clock == trace.ClockVirtual
		mkLabels := func() map[string]string { return maps.Clone(c.labels) }
		for _, s := range c.dpa {
			l := mkLabels()
			res.Sample("process_time", "ms", sdk.LowerIsBetter, l, ms(s.prof.ProcessTime.Wall))
			res.Sample("process_time_raw", "ms", sdk.LowerIsBetter, l, ms(s.prof.ProcessTimeRaw.Wall))
			res.Sample("run_time_traced", "ms", sdk.LowerIsBetter, l, float64(s.res.RunNanos)/1e6)
			if m, ok := s.methodStats(); ok {
				res.Sample("method_time", "ms", sdk.LowerIsBetter, l, ms(m.Incl.Wall))
				res.Sample("method_time_raw", "ms", sdk.LowerIsBetter, l, ms(m.InclRaw.Wall))
			}
		}
		for _, s := range c.bases {
			l := mkLabels()
			res.Sample("run_time", "ms", sdk.LowerIsBetter, l, float64(s.res.RunNanos)/1e6)
			if name := baseName(s.res.Method); name != "" {
				if v, ok := s.res.MethodNanos[name]; ok {
					res.Sample("baseline_method_time", "ms", sdk.LowerIsBetter, l, float64(v)/1e6)
				}
			}
		}
		if len(c.dpa) == 0 {
			continue
		}
		// Each dpa step's baselines: its own paired ones, else the
		// medians of the cell's baseline steps.
		cellBase, _ := medianOf(c.bases, func(s *step) (float64, bool) {
			v, ok := s.res.MethodNanos[baseName(s.res.Method)]
			return float64(v), ok
		})
		cellRun, _ := medianOf(c.bases, func(s *step) (float64, bool) { return float64(s.res.BaseRunNanos), s.res.BaseRunNanos > 0 })
		baseOf := func(s *step) (method, run float64) {
			method, run = cellBase, cellRun
			if v, ok := s.res.MethodNanos[baseName(s.res.Method)]; ok {
				method = float64(v)
			}
			if s.res.BaseRunNanos > 0 {
				run = float64(s.res.BaseRunNanos)
			}
			return method, run
		}
		var eM, eMRaw, eMX, eP, ePRaw, ePX, over, bases, runs, events, crossEvents []float64
		// A cell's steps may deduct different calibrations (a program
		// too short to be calibrated on itself in some steps): the
		// calibration columns then name both.
		var calib, crossCalib string
		for _, s := range c.dpa {
			mb, rb := baseOf(s)
			calib = joinCalib(calib, s.calib)
			programCalibrated = programCalibrated || s.calib == trace.CalibrationProgram
			if s.event != 0 {
				events = append(events, s.event)
			}
			if s.cross != nil {
				crossCalib = joinCalib(crossCalib, s.crossCalib)
				crossEvents = append(crossEvents, s.crossEvent)
			}
			if !math.IsNaN(mb) {
				if m, ok := s.methodStats(); ok {
					eM = append(eM, analysis.ErrRate(float64(m.Incl.Wall), mb))
					eMRaw = append(eMRaw, analysis.ErrRate(float64(m.InclRaw.Wall), mb))
					bases = append(bases, mb)
					res.Sample("err_m", "%", sdk.LowerIsBetter, maps.Clone(c.labels), 100*math.Abs(eM[len(eM)-1]))
					if s.cross != nil {
						if x, ok := statsOf(s.cross, s.res.Method); ok {
							eMX = append(eMX, analysis.ErrRate(float64(x.Incl.Wall), mb))
							res.Sample("err_m_"+s.crossCalib, "%", sdk.LowerIsBetter, maps.Clone(c.labels), 100*math.Abs(eMX[len(eMX)-1]))
						}
					}
				}
			}
			if !math.IsNaN(rb) {
				if s.cross != nil {
					ePX = append(ePX, analysis.ErrRate(float64(s.cross.ProcessTime.Wall), rb))
				}
				eP = append(eP, analysis.ErrRate(float64(s.prof.ProcessTime.Wall), rb))
				ePRaw = append(ePRaw, analysis.ErrRate(float64(s.prof.ProcessTimeRaw.Wall), rb))
				over = append(over, float64(s.res.RunNanos)/rb)
				runs = append(runs, rb)
				res.Sample("err_p", "%", sdk.LowerIsBetter, maps.Clone(c.labels), 100*math.Abs(eP[len(eP)-1]))
				res.Sample("overhead", "x", sdk.LowerIsBetter, maps.Clone(c.labels), over[len(over)-1])
			}
		}
		if len(eM) == 0 && len(eP) == 0 {
			continue
		}
		ded, _ := medianOf(c.dpa, func(s *step) (float64, bool) {
			m, ok := s.methodStats()
			return float64(m.Incl.Wall), ok
		})
		raw, _ := medianOf(c.dpa, func(s *step) (float64, bool) {
			m, ok := s.methodStats()
			return float64(m.InclRaw.Wall), ok
		})
		proc, _ := medianOf(c.dpa, func(s *step) (float64, bool) { return float64(s.prof.ProcessTime.Wall), true })
		errM := med(eM)
		if len(eM) > 0 {
			errCells = append(errCells, c.name)
			errDed = append(errDed, 100*errM)
			errRaw = append(errRaw, 100*med(eMRaw))
			worst = max(worst, math.Abs(errM))
		}
		// How much the untraced baseline itself varied between
		// repetitions: errors smaller than that are not resolved.
		spread := math.NaN()
		if m := med(bases); len(bases) > 1 && m > 0 {
			spread = (stats.Max(bases) - stats.Min(bases)) / m
			noisiest = max(noisiest, spread)
		}
		v := verdict(eM, eP, bar)
		verdicts[v] = append(verdicts[v], c.name)
		rows = append(rows, []string{
			c.name, strconv.Itoa(c.dpa[0].res.BufferRecords), fmtMS(med(bases)), pct(spread), fmtMS(ded), pct(errM), fmtMS(raw), pct(med(eMRaw)),
			fmtMS(med(runs)), fmtMS(proc), pct(med(eP)), pct(med(ePRaw)), fmt.Sprintf("%.2f×", med(over)),
			interval(eM), interval(eP), v,
			calib, fmtNs(med(events)), pct(med(eMX)), pct(med(ePX)), cmp.Or(crossCalib, "-"), fmtNs(med(crossEvents)),
		})
	}
	if len(rows) == 0 {
		return
	}
	res.Table("accuracy", "Accuracy against the baselines: Err_m = (t_DPA − t_base)/t_base per method, Err_p per process (medians over repetitions); raw = without overhead deduction; overhead = traced ÷ untraced run time; calibration = where the deducted cost per event (ns/event, median over repetitions) came from: program = pairs of runs of the program itself (Err_p is then a consistency check: its baseline is the same program untraced), paired = a calibration program; the cross-check columns deduct the other calibration from the same traces",
		[]string{"cell", "buffer", "t_base ms", "t_base spread", "DPA ms", "Err_m", "DPA raw ms", "Err_m raw", "run ms", "DPA process ms", "Err_p", "Err_p raw", "overhead", "Err_m 95 % CI", "Err_p 95 % CI", "verdict",
			"calibration", "ns/event", "Err_m cross-check", "Err_p cross-check", "cross-check calibration", "cross-check ns/event"}, rows)
	fmt.Fprintf(summary, "Against the %.3g %% bar (|Err_m| and |Err_p|, medians): %d cells within, %d outside, %d not resolved (a confidence interval wider than the bar: more repetitions, or a quieter machine, are needed to tell)%s. ",
		100*bar, len(verdicts[verdictWithin])+len(verdicts[verdictWithinFew]), len(verdicts[verdictOutside])+len(verdicts[verdictOutsideFew]), len(verdicts[verdictUnresolved]), listCells(verdicts[verdictUnresolved]))
	fmt.Fprintf(summary, "Method-level accuracy: largest |Err_m| with overhead deduction %.2f %% over %d cells (the paper's bar: 5 %%). ", 100*worst, len(errCells))
	if programCalibrated {
		summary.WriteString("The deduction was calibrated on each program itself (pairs of its untraced and traced runs): Err_m, against the self-timed variant, stays independent of it; Err_p, against the same program untraced, is then a consistency check of the deduction, not an independent measurement. ")
	}
	if virtual {
		summary.WriteString("Cells marked clock=virtual were timed by the instructions the VM executed, one nanosecond each (their \"ms\" are millions of instructions): deterministic, with nothing to deduct. ")
	}
	if noisiest > 0.05 {
		fmt.Fprintf(summary, "**The untraced baseline itself varied by up to %.0f %% between repetitions** (t_base spread: (max − min) / median), so errors below that are within this machine's noise; rerun on a quieter machine or with more repetitions and best_of. ", 100*noisiest)
	}
	if len(errCells) > 0 {
		bc := &chart.BarChart{Title: "Err_m per cell: with and without overhead deduction", Categories: errCells, YLabel: "Err_m (%)", XLabel: "cell"}
		bc.Series = append(bc.Series, chart.Series{Name: "deducted", Values: errDed}, chart.Series{Name: "raw", Values: errRaw})
		_ = res.Figure("err_m.svg", "Err_m per cell, with and without overhead deduction", bc.SVG())
	}
}

// A cell's verdict against the bar.
const (
	verdictWithin     = "within the bar"
	verdictOutside    = "outside the bar"
	verdictUnresolved = "not resolved: interval wider than the bar"
	// Fewer than 6 repetitions give no two-sided interval of a median.
	verdictWithinFew  = "within the bar (too few repetitions for an interval)"
	verdictOutsideFew = "outside the bar (too few repetitions for an interval)"
)

// verdict checks a cell's per-repetition errors against the bar: the
// medians decide, unless an interval wider than the bar reaches across
// it (one wholly inside or wholly outside ±bar decides however wide).
func verdict(eM, eP []float64, bar float64) string {
	finite := true
	for _, es := range [][]float64{eM, eP} {
		if len(es) == 0 {
			continue
		}
		lo, hi := stats.MedianInterval(es)
		inside := lo >= -bar && hi <= bar
		outside := lo > bar || hi < -bar
		switch {
		case math.IsInf(lo, 0) || math.IsInf(hi, 0):
			finite = false
		case hi-lo > bar && !inside && !outside:
			return verdictUnresolved
		}
	}
	within := !(len(eM) > 0 && math.Abs(med(eM)) > bar) && !(len(eP) > 0 && math.Abs(med(eP)) > bar)
	switch {
	case within && finite:
		return verdictWithin
	case within:
		return verdictWithinFew
	case finite:
		return verdictOutside
	}
	return verdictOutsideFew
}

// interval formats the 95 % confidence interval of the median of errors.
func interval(es []float64) string {
	lo, hi := stats.MedianInterval(es)
	if len(es) == 0 || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return "-"
	}
	return fmt.Sprintf("[%+.2f, %+.2f] %%", 100*lo, 100*hi)
}

func listCells(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, ", ")
}

// baseName is the self-timed variant's name for a workload method:
// "pkg.Cls.name".
func baseName(spec string) string {
	class, name, _, ok := methodName(spec)
	if !ok {
		return ""
	}
	return class + "." + name
}

// med is the median, NaN for no values.
func med(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return stats.Median(xs)
}

func fmtMS(ns float64) string {
	if math.IsNaN(ns) {
		return "-"
	}
	return fmt.Sprintf("%.2f", ns/1e6)
}

func fmtNs(ns float64) string {
	if math.IsNaN(ns) {
		return "-"
	}
	return fmt.Sprintf("%.2f", ns)
}

func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return fmt.Sprintf("%+.2f %%", 100*x)
}

// hotspots lists each cell's top methods (from its first repetition) in a
// table and a bar chart, and emits every repetition's exclusive time of
// those methods as metrics, so that compare shows per-method changes
// between runs.
func hotspots(res *sdk.Result, cells []*cellData, cfg AnalyzerConfig, summary *strings.Builder) error {
	for _, c := range cells {
		if len(c.dpa) == 0 {
			continue
		}
		first := c.dpa[0]
		prof := first.prof
		if !cfg.Deduct {
			prof = analysis.Analyze(first.tr, analysis.Options{})
		}
		top := prof.Top(cfg.Top, analysis.ExclWall)
		var rows [][]string
		for _, m := range top {
			share := 0.0
			if prof.ProcessTime.Wall > 0 {
				share = float64(m.Excl.Wall) / float64(prof.ProcessTime.Wall)
			}
			rows = append(rows, []string{
				m.Method.FullName(), m.Method.Signature,
				fmt.Sprintf("%d+%d", m.Calls-m.RecursiveCalls, m.RecursiveCalls),
				fmt.Sprintf("%.3f", ms(m.Incl.Wall)), fmt.Sprintf("%.3f", ms(m.Excl.Wall)), fmt.Sprintf("%.3f", ms(m.Excl.CPU)),
				fmt.Sprintf("%.1f %%", 100*share),
			})
		}
		kind := "deducted"
		if !cfg.Deduct {
			kind = "raw"
		}
		res.Table("hotspots-"+c.name, fmt.Sprintf("Hotspots of %s (repetition 1, %s, by exclusive wall time)", c.name, kind),
			[]string{"method", "signature", "calls+recursive", "incl ms", "excl ms", "excl cpu ms", "of process"}, rows)
		if len(top) > 0 {
			bc := &chart.BarChart{
				Title:  fmt.Sprintf("Hotspots of %s (repetition 1, %s)", c.name, kind),
				YLabel: "exclusive wall time", Unit: "ms", XLabel: "method",
				Categories: hotspotLabels(top),
				Series:     []chart.Series{{}},
			}
			for _, m := range top {
				bc.Series[0].Values = append(bc.Series[0].Values, ms(m.Excl.Wall))
			}
			if err := res.Figure("hotspots-"+fileSafe(c.name)+".svg", fmt.Sprintf("Top %d methods of %s by exclusive wall time", len(top), c.name), bc.SVG()); err != nil {
				return err
			}
		}
		for _, s := range c.dpa {
			for _, m := range top {
				if st, ok := s.prof.Method(m.Method.ID); ok {
					l := maps.Clone(c.labels)
					l["method"] = m.Method.FullName()
					res.Sample("method_excl", "ms", sdk.LowerIsBetter, l, ms(st.Excl.Wall))
				}
			}
		}
		if len(top) > 0 {
			fmt.Fprintf(summary, "%s: hottest method %s (%.1f ms exclusive). ", c.name, top[0].Method.FullName(), ms(top[0].Excl.Wall))
		}
	}
	return nil
}

// hotspotLabels names the bars of a hotspot chart: each method by its class
// and name ("Fib.fib"), short enough for a category label; when that would
// name two bars alike, every bar by its full name, and failing that (an
// overloaded method) by full name and signature.
func hotspotLabels(top []analysis.MethodStats) []string {
	labels := make([]string, len(top))
	for _, form := range []func(m analysis.MethodStats) string{
		func(m analysis.MethodStats) string {
			return m.Method.Class[strings.LastIndex(m.Method.Class, ".")+1:] + "." + m.Method.Name
		},
		func(m analysis.MethodStats) string { return m.Method.FullName() },
		func(m analysis.MethodStats) string { return m.Method.FullName() + m.Method.Signature },
	} {
		seen := map[string]int{}
		for i, m := range top {
			labels[i] = form(m)
			seen[labels[i]]++
		}
		unique := true
		for _, n := range seen {
			unique = unique && n == 1
		}
		if unique {
			break
		}
	}
	return labels
}

// exports writes each cell's first trace as Android .trace, pprof and
// Perfetto JSON into the analysis directory.
func exports(res *sdk.Result, cells []*cellData) error {
	for _, c := range cells {
		if len(c.dpa) == 0 {
			continue
		}
		tr := c.dpa[0].tr
		base := fileSafe(c.name)
		var b bytes.Buffer
		if err := trace.WriteDmtrace(&b, tr); err != nil {
			return fmt.Errorf("%s: .trace: %w", c.name, err)
		}
		if err := res.File(base+".trace", "application/octet-stream", "Android method trace of "+c.name+" (Traceview, dmtracedump, Android Studio)", b.Bytes()); err != nil {
			return err
		}
		b.Reset()
		if err := trace.WritePprof(&b, tr, trace.PprofOptions{EventOverhead: tr.EventOverhead}); err != nil {
			return fmt.Errorf("%s: pprof: %w", c.name, err)
		}
		if err := res.File(base+".pb.gz", "application/gzip", "pprof profile of "+c.name+" (go tool pprof)", b.Bytes()); err != nil {
			return err
		}
		b.Reset()
		if err := trace.WritePerfetto(&b, tr); err != nil {
			return fmt.Errorf("%s: perfetto: %w", c.name, err)
		}
		if err := res.File(base+".perfetto.json", "application/json", "trace-event JSON of "+c.name+" (Perfetto UI, chrome://tracing)", b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}
