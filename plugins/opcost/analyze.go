package opcost

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/chart"
	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/plugins/opcost/microbench"
)

// Cost is one opcode's row of the cost table.
type Cost struct {
	Opcode string  `json:"opcode"`
	Class  string  `json:"class"`
	NS     float64 `json:"ns"`     // per executed instruction
	CV     float64 `json:"cv_pct"` // of the measurements it is derived from, %
	// How says how the cost was derived: "unit" (the loop of copies less
	// the empty loop), "unit − BASE", "unit ÷ N" (a shared unit), or where
	// an opcode without a unit of its own is counted.
	How   string `json:"how"`
	Noisy bool   `json:"noisy,omitempty"`
}

// counted reports an opcode without a unit of its own, counted in others'.
func (k Cost) counted() bool { return strings.HasPrefix(k.How, "counted in") }

// Table is a cost table with the figures it was measured with.
type Table struct {
	Engine    string  `json:"engine"`
	LoopSize  int     `json:"loop_size"`
	LoopCount int     `json:"loop_count"`
	LoopNS    float64 `json:"loop_ns"` // one iteration of the empty loop
	Costs     []Cost  `json:"costs"`
	// ArgWordNS and RecursiveNS are what a call costs beyond the table's
	// invoke per argument word passed and when it is recursive, from the
	// call shapes (0 without them).
	ArgWordNS   float64 `json:"arg_word_ns,omitempty"`
	RecursiveNS float64 `json:"recursive_call_ns,omitempty"`
	// SwitchNS is what a call costs beyond the table's invoke when its
	// target differs from its call site's last one (the call shapes
	// mono- and poly-virtual).
	SwitchNS float64 `json:"target_switch_ns,omitempty"`
	// Alloc are the allocation terms, from the allocation shapes (nil
	// without them).
	Alloc *AllocTerms `json:"alloc,omitempty"`
}

// Costs derives the cost table of a result: every benchmark's time less
// the empty loop's, per instruction executed, less its base's.
func Costs(r Result, maxCV float64) (*Table, error) {
	byName := map[string]BenchResult{}
	for _, b := range r.Benches {
		byName[b.Name] = b
	}
	empty, ok := byName[microbench.EmptyLoop]
	if !ok || len(empty.Samples) == 0 {
		return nil, fmt.Errorf("opcost: no measurements of %s", microbench.EmptyLoop)
	}
	instrs := float64(r.LoopCount) * float64(r.LoopSize)
	loop := median(empty.Samples)
	unit := func(name string) (ns, cv float64, err error) {
		b, ok := byName[name]
		if !ok || len(b.Samples) == 0 {
			return 0, 0, fmt.Errorf("opcost: no measurements of %s", name)
		}
		// The empty loop's own noise is left out of the CV: its time is
		// a small part of a benchmark's (a loop of one instruction
		// against one of loop_size).
		return (median(b.Samples) - loop) / instrs, cvOf(b.Samples), nil
	}
	t := &Table{Engine: r.Engine, LoopSize: r.LoopSize, LoopCount: r.LoopCount, LoopNS: loop / float64(r.LoopCount)}
	for _, b := range r.Benches {
		if b.Class == "helper" || b.Class == "loop" || b.Class == "linearity" || b.Class == "usecase" {
			continue
		}
		c := Cost{Opcode: b.Name, Class: b.Class}
		var err error
		switch {
		case b.Included != "":
			c.How = "counted in " + b.Included
		case b.Same != "":
			same := byName[b.Same]
			c.NS, c.CV, err = unit(b.Same)
			c.NS /= float64(max(len(same.Split), 1))
			c.How = fmt.Sprintf("%s's unit ÷ %d", b.Same, max(len(same.Split), 1))
		case len(b.Split) > 0:
			c.NS, c.CV, err = unit(b.Name)
			c.NS /= float64(len(b.Split))
			c.How = fmt.Sprintf("unit (%s) ÷ %d", strings.Join(b.Split, " + "), len(b.Split))
		case b.Base != "":
			var base, baseCV float64
			if c.NS, c.CV, err = unit(b.Name); err == nil {
				base, baseCV, err = unit(b.Base)
			}
			c.NS -= base
			c.CV = max(c.CV, baseCV)
			c.How = "unit − " + b.Base
		default:
			c.NS, c.CV, err = unit(b.Name)
			c.How = "unit"
		}
		if err != nil {
			return nil, err
		}
		c.Noisy = c.CV > maxCV
		t.Costs = append(t.Costs, c)
	}
	if cs := r.CallShapes; cs != nil && cs.Calls > 0 {
		t.callTerms(cs)
	}
	if as := r.AllocShapes; as != nil {
		at, err := allocTerms(as)
		if err != nil {
			return nil, err
		}
		t.Alloc = &at
	}
	return t, nil
}

// callTerms derives the call terms from the call shapes: an argument
// word is what three more of them cost ((IIII)I against (I)I); a
// recursive call is what the recursion shape's run costs beyond its
// instructions priced by the table, less the same for static-(I)I's run
// (as many calls, none recursive: the VM's start-up and what the table
// misprices in any call cancel), per recursive call; a change of target
// is what poly-virtual costs beyond mono-virtual (the same instructions
// but for the targets' bodies, each priced by the table), per switch
// counted in poly-virtual's counting run. Noise can make any of them
// negative on a loaded host; the model then adds nothing.
func (t *Table) callTerms(cs *CallShapes) {
	calls := float64(cs.Calls)
	one, four := cs.Samples["static-(I)I"], cs.Samples["static-(IIII)I"]
	if len(one) > 0 && len(four) > 0 {
		t.ArgWordNS = max(0, (median(four)-median(one))/3/calls)
	}
	rec := cs.Samples["recursion"]
	if len(rec) == 0 || cs.Trees == 0 {
		return
	}
	cost := costsByOpcode(t)
	priced := func(counts map[string]uint64) float64 {
		var ns float64
		for op, n := range counts {
			ns += float64(n) * cost[op].NS
		}
		return ns
	}
	mono, poly := cs.Samples["mono-virtual"], cs.Samples["poly-virtual"]
	if len(mono) > 0 && len(poly) > 0 && cs.PolySwitches > 0 {
		extra := (median(poly) - priced(cs.PolyCounts)) - (median(mono) - priced(cs.MonoCounts))
		t.SwitchNS = max(0, extra/float64(cs.PolySwitches))
	}
	if len(one) == 0 || len(cs.LeafCounts) == 0 {
		return
	}
	recRest := median(rec) - priced(cs.RecursionCounts)
	leafRest := median(one) - priced(cs.LeafCounts)
	perCall := recRest/float64(cs.Trees*treeCalls) - leafRest/calls
	t.RecursiveNS = max(0, perCall*treeCalls/(treeCalls-1))
}

func median(xs []int64) float64 {
	fs := make([]float64, len(xs))
	for i, x := range xs {
		fs[i] = float64(x)
	}
	return stats.Median(fs)
}

// cvOf is the coefficient of variation of xs, in %.
func cvOf(xs []int64) float64 {
	if len(xs) < 2 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += float64(x)
	}
	mean := sum / float64(len(xs))
	var ss float64
	for _, x := range xs {
		d := float64(x) - mean
		ss += d * d
	}
	if mean == 0 {
		return 0
	}
	return 100 * math.Sqrt(ss/float64(len(xs)-1)) / mean
}

// cell is the steps of one matrix cell.
type cell struct {
	name    string
	labels  map[string]string
	results []Result
}

func analyze(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	var cfg AnalyzerConfig
	if err := a.Decode(&cfg); err != nil {
		return nil, err
	}
	var cells []*cell
	var progs []WorkloadsResult
	byName := map[string]*cell{}
	for _, st := range a.Steps {
		if st.Status != "" && st.Status != "ok" {
			continue
		}
		if art := sdk.Find(st, WorkloadsFile); art != nil {
			var w WorkloadsResult
			if err := a.ReadJSON(art, &w); err != nil {
				return nil, fmt.Errorf("step %s: %w", st.ID, err)
			}
			progs = append(progs, w)
			continue
		}
		art := sdk.Find(st, ResultFile)
		if art == nil {
			continue
		}
		var r Result
		if err := a.ReadJSON(art, &r); err != nil {
			return nil, fmt.Errorf("step %s: %w", st.ID, err)
		}
		name := cellName(st.Labels, r.Engine)
		c := byName[name]
		if c == nil {
			c = &cell{name: name, labels: maps.Clone(st.Labels)}
			if c.labels == nil {
				c.labels = map[string]string{}
			}
			c.labels["engine"] = r.Engine
			byName[name] = c
			cells = append(cells, c)
		}
		c.results = append(c.results, r)
	}
	res := a.NewResult()
	if len(cells) == 0 && len(progs) == 0 {
		res.Summary("No opcost steps with results.")
		return res, nil
	}
	var summary strings.Builder
	tables := map[string]*Table{} // by engine: the first cell's
	var all []*Table
	for _, c := range cells {
		t, err := c.report(res, cfg, len(cells) > 1, &summary)
		if err != nil {
			return nil, err
		}
		if tables[t.Engine] == nil {
			tables[t.Engine] = t
		}
		all = append(all, t)
	}
	if len(cells) > 1 {
		compareTables(res, cells, all, &summary)
	}
	for _, w := range progs {
		predict(res, w, tables[w.Engine], &summary)
		floatUseCase(res, w, tables[w.Engine], &summary)
	}
	res.Summary(summary.String())
	return res, nil
}

// cellName names a cell by its labels and engine.
func cellName(labels map[string]string, engine string) string {
	parts := []string{"engine=" + engine}
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if k != "engine" {
			parts = append(parts, k+"="+labels[k])
		}
	}
	return strings.Join(parts, " ")
}

// pooled merges the repetitions' measurements (same loop figures).
func (c *cell) pooled() (Result, error) {
	out := c.results[0]
	out.Benches = slices.Clone(out.Benches)
	for _, r := range c.results[1:] {
		if r.LoopSize != out.LoopSize || r.LoopCount != out.LoopCount || len(r.Benches) != len(out.Benches) {
			return out, fmt.Errorf("opcost: cell %s: repetitions measured different loops or opcodes", c.name)
		}
		for i, b := range r.Benches {
			out.Benches[i].Samples = append(slices.Clone(out.Benches[i].Samples), b.Samples...)
		}
	}
	return out, nil
}

func (c *cell) report(res *sdk.Result, cfg AnalyzerConfig, several bool, summary *strings.Builder) (*Table, error) {
	// Per repetition: the metrics compare sees.
	for _, r := range c.results {
		t, err := Costs(r, cfg.MaxCV)
		if err != nil {
			return nil, err
		}
		for _, k := range t.Costs {
			if !k.counted() {
				l := maps.Clone(c.labels)
				l["opcode"] = k.Opcode
				res.Sample("cost", "ns", sdk.LowerIsBetter, l, k.NS)
			}
		}
	}
	r, err := c.pooled()
	if err != nil {
		return nil, err
	}
	t, err := Costs(r, cfg.MaxCV)
	if err != nil {
		return nil, err
	}
	prefix, titleSuffix := "", ""
	if several {
		prefix, titleSuffix = fileName(c.name)+"-", " ("+c.name+")"
	}
	var ranked []Cost // most expensive first, the opcodes with a unit
	for _, k := range t.Costs {
		if !k.counted() {
			ranked = append(ranked, k)
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].NS > ranked[j].NS })
	rank := map[string]int{}
	for i, k := range ranked {
		rank[k.Opcode] = i + 1
	}
	var rows [][]string
	var noisy []string
	for _, k := range t.Costs {
		flag := ""
		if k.Noisy {
			flag = "noisy"
			noisy = append(noisy, k.Opcode)
		}
		r := "-"
		if n, ok := rank[k.Opcode]; ok {
			r = strconv.Itoa(n)
		}
		rows = append(rows, []string{k.Opcode, k.Class, fmt.Sprintf("%.3f", k.NS), fmt.Sprintf("%.1f", k.CV), r, k.How, flag})
	}
	res.Table(prefix+"costs", "CPU cost per executed instruction"+titleSuffix+" (ns; CV: coefficient of variation of the measurements; rank 1 = most expensive)",
		[]string{"opcode", "class", "ns", "CV %", "rank", "derived as", "flag"}, rows)
	if err := linearity(res, prefix, titleSuffix, r, summary); err != nil {
		return nil, err
	}
	if err := sweepReport(res, prefix, titleSuffix, r, summary); err != nil {
		return nil, err
	}
	if err := gridReport(res, prefix, titleSuffix, r, summary); err != nil {
		return nil, err
	}
	useCases(res, prefix, titleSuffix, r, t, summary)
	if err := files(res, prefix, t); err != nil {
		return nil, err
	}
	if err := charts(res, prefix, titleSuffix, t); err != nil {
		return nil, err
	}

	fmt.Fprintf(summary, "**%s**: %d opcodes, loop of %d × %d, %d measurements each; the empty loop costs %.1f ns per iteration. ",
		c.name, len(t.Costs), t.LoopSize, t.LoopCount, r.Measurements*len(c.results), t.LoopNS)
	if len(ranked) > 0 {
		hi, lo := ranked[0], ranked[len(ranked)-1]
		fmt.Fprintf(summary, "Most expensive: %s (%.2f ns); cheapest: %s (%.3f ns)", hi.Opcode, hi.NS, lo.Opcode, lo.NS)
		if lo.NS > 0 {
			fmt.Fprintf(summary, "; max/min %.0f×", hi.NS/lo.NS)
		}
		summary.WriteString(". ")
	}
	if r.CallShapes != nil {
		fmt.Fprintf(summary, "Call shapes: an argument word costs %.2f ns, a recursive call %.2f ns and a call whose target differs from its call site's last %.2f ns beyond the table's invoke. ", t.ArgWordNS, t.RecursiveNS, t.SwitchNS)
	}
	if a := t.Alloc; a != nil {
		fmt.Fprintf(summary, "Allocation shapes: a byte beyond a %d-byte array costs %.4f ns in the main space and %.4f ns in the large-object space, a large object %.0f ns of its own. ",
			a.BaseSize, a.MainByteNS, a.LargeByteNS, a.LargeObjectNS)
	}
	if len(noisy) > 0 {
		fmt.Fprintf(summary, "**%d opcodes measured with a coefficient of variation above %.3g %%** (%s): the host was too noisy for them; rerun on a quieter machine or with more measurements. ",
			len(noisy), cfg.MaxCV, strings.Join(noisy, ", "))
	}
	return t, nil
}

// fileName makes a cell name usable in a file name.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// files writes the table as CSV and JSON.
func files(res *sdk.Result, prefix string, t *Table) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"opcode", "class", "ns", "cv_pct", "derived_as"})
	for _, k := range t.Costs {
		w.Write([]string{k.Opcode, k.Class, strconv.FormatFloat(k.NS, 'g', 6, 64), strconv.FormatFloat(k.CV, 'f', 2, 64), k.How})
	}
	w.Flush()
	if err := res.File(prefix+"costs.csv", "text/csv", "the cost table (CSV)", buf.Bytes()); err != nil {
		return err
	}
	js, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	return res.File(prefix+"costs.json", "application/json", "the cost table (JSON)", js)
}

// charts draws one bar chart of costs per opcode class.
func charts(res *sdk.Result, prefix, titleSuffix string, t *Table) error {
	for _, class := range microbench.Classes {
		var names []string
		var ns []float64
		for _, k := range t.Costs {
			if k.Class == class && !k.counted() {
				names = append(names, k.Opcode)
				ns = append(ns, k.NS)
			}
		}
		if len(names) == 0 {
			continue
		}
		bc := &chart.BarChart{Title: "CPU cost per instruction: " + class + titleSuffix, YLabel: "cost", Unit: "ns", XLabel: "opcode", Categories: names}
		bc.Series = append(bc.Series, chart.Series{Name: t.Engine, Values: ns})
		if err := res.Figure(prefix+"class-"+class+".svg", "Cost per instruction of the "+class+" opcodes"+titleSuffix, bc.SVG()); err != nil {
			return err
		}
	}
	return nil
}

// predict compares each program's CPU time with the cost model's
// estimate: Σ executed count × cost per opcode.
func predict(res *sdk.Result, w WorkloadsResult, t *Table, summary *strings.Builder) {
	if t == nil {
		fmt.Fprintf(summary, "The workloads on %s have no cost table of that engine in this run to predict them with (add an opcost collector with vm.engine = %q). ", w.Engine, w.Engine)
		return
	}
	cost := costsByOpcode(t)
	var rows [][]string
	worst := 0.0
	missing := map[string]bool{}
	for _, m := range w.Workloads {
		var bytecode, uncosted float64
		var total uint64
		for op, n := range m.Counts {
			total += n
			k, ok := cost[op]
			if !ok {
				missing[op] = true
				uncosted += float64(n)
				continue
			}
			bytecode += float64(n) * k.NS
		}
		// Natives: every call at the mean time of the timed ones.
		var natives float64
		var nativeCalls uint64
		for _, n := range m.Natives {
			natives += float64(n.Calls) * n.PerCall()
			nativeCalls += n.Calls
		}
		// Calls: their argument words and recursion, beyond the invokes.
		callTerms := float64(m.ArgWords)*t.ArgWordNS + float64(m.Recursive)*t.RecursiveNS + float64(m.TargetSwitches)*t.SwitchNS
		// Allocation: the bytes beyond the table's small array, at the
		// allocation shapes' costs.
		var alloc float64
		if t.Alloc != nil {
			alloc = t.Alloc.term(m.Alloc)
		}
		predicted := bytecode + natives + callTerms + alloc
		cpu := make([]float64, len(m.CPU))
		for i, ns := range m.CPU {
			cpu[i] = float64(ns)
		}
		measured := stats.Median(cpu)
		e := (predicted - measured) / measured
		worst = max(worst, math.Abs(e))
		labels := map[string]string{"engine": w.Engine, "workload": m.Name}
		res.Sample("prediction_error", "%", sdk.LowerIsBetter, labels, 100*math.Abs(e))
		for _, c := range cpu {
			res.Sample("workload_cpu", "ms", sdk.LowerIsBetter, labels, c/1e6)
		}
		rows = append(rows, []string{m.Name, strings.Join(m.Args, " "), strconv.FormatUint(total, 10), fmt.Sprintf("%.1f", bytecode/1e6),
			strconv.FormatUint(nativeCalls, 10), fmt.Sprintf("%.1f", natives/1e6), fmt.Sprintf("%d / %d / %d", m.ArgWords, m.Recursive, m.TargetSwitches), fmt.Sprintf("%.1f", callTerms/1e6),
			allocColumn(m.Alloc), fmt.Sprintf("%.1f", alloc/1e6), fmt.Sprintf("%.1f", predicted/1e6),
			fmt.Sprintf("%.1f", measured/1e6), fmt.Sprintf("%+.1f %%", 100*e), fmt.Sprintf("%+.1f %%", 100*(predicted-alloc-measured)/measured), fmt.Sprintf("%+.1f %%", 100*(bytecode+natives-measured)/measured), fmt.Sprintf("%+.1f %%", 100*(bytecode-measured)/measured),
			fmt.Sprintf("%.2f %%", 100*uncosted/float64(max(total, 1)))})
	}
	res.Table("prediction-"+w.Engine, "Cost model on "+w.Engine+": predicted CPU time (Σ executed count × cost, plus each native call at its mean time in the counting run, plus each call's argument words, recursion and change of target at the call shapes' costs, plus the bytes allocated beyond the table's small array at the allocation shapes' costs; the collections' CPU is shown, not added: the shapes' costs per byte hold it) against the program's measured thread CPU time (median)",
		[]string{"workload", "args", "instructions", "bytecode ms", "native calls", "natives ms", "argument words / recursive calls / target switches", "call terms ms", "MB allocated (large) / GCs, their CPU ms", "allocation ms", "predicted ms", "measured ms", "error", "error without allocation", "error without call terms or allocation", "error of bytecode alone", "uncosted instructions"}, rows)
	fmt.Fprintf(summary, "Cost model on %s: largest prediction error %.1f %% over %d workloads. ", w.Engine, 100*worst, len(w.Workloads))
	if len(missing) > 0 {
		fmt.Fprintf(summary, "Executed opcodes without a cost in the table (not measured in this run): %s. ", strings.Join(slices.Sorted(maps.Keys(missing)), ", "))
	}
}

// allocColumn shows a program's allocations in the prediction table.
func allocColumn(c *AllocCounts) string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f (%.1f) / %d, %.1f", float64(c.Bytes+c.LargeBytes+c.NativeBytes)/1e6, float64(c.LargeBytes)/1e6, c.GCs, float64(c.GCNS)/1e6)
}

// compareTables compares every cell's cost table with the first one's
// (two engines, two hosts, two repetitions of a study): the rank
// correlations of their costs over the opcodes both measured, each one's
// max/min cost ratio, and the opcodes whose rank moves most.
func compareTables(res *sdk.Result, cells []*cell, tables []*Table, summary *strings.Builder) {
	ref := costsByOpcode(tables[0])
	var rows [][]string
	for i := 1; i < len(tables); i++ {
		other := costsByOpcode(tables[i])
		var ops []string
		var xs, ys []float64
		for _, k := range tables[0].Costs {
			if o, ok := other[k.Opcode]; ok && !k.counted() {
				ops = append(ops, k.Opcode)
				xs = append(xs, ref[k.Opcode].NS)
				ys = append(ys, o.NS)
			}
		}
		if len(ops) < 2 {
			continue
		}
		rho, tau := stats.Spearman(xs, ys), stats.KendallTau(xs, ys)
		rx, ry := stats.Ranks(xs), stats.Ranks(ys)
		idx := make([]int, len(ops))
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return math.Abs(rx[idx[a]]-ry[idx[a]]) > math.Abs(rx[idx[b]]-ry[idx[b]]) })
		var moved []string
		for _, j := range idx[:min(5, len(idx))] {
			moved = append(moved, fmt.Sprintf("%s (%.0f → %.0f)", ops[j], float64(len(ops))+1-rx[j], float64(len(ops))+1-ry[j]))
		}
		rows = append(rows, []string{cells[0].name, cells[i].name, strconv.Itoa(len(ops)), fmt.Sprintf("%.3f", rho), fmt.Sprintf("%.3f", tau),
			ratio(xs), ratio(ys), strings.Join(moved, ", ")})
		fmt.Fprintf(summary, "Cost tables of %s and %s: Spearman ρ %.3f, Kendall τ %.3f over %d opcodes (the paper's devices agreed at ρ ≥ .937). ",
			cells[0].name, cells[i].name, rho, tau, len(ops))
	}
	res.Table("comparison", "Cost tables compared with the first cell's: rank correlations, max/min cost ratio of each, the opcodes whose rank (1 = most expensive) moves most",
		[]string{"cell", "against", "opcodes", "Spearman ρ", "Kendall τ", "max/min (cell)", "max/min (against)", "largest rank moves"}, rows)
}

func costsByOpcode(t *Table) map[string]Cost {
	m := map[string]Cost{}
	for _, k := range t.Costs {
		m[k.Opcode] = k
	}
	return m
}

// ratio is the max/min of the positive costs.
func ratio(xs []float64) string {
	lo, hi := math.Inf(1), 0.0
	for _, x := range xs {
		if x > 0 {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if hi == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f×", hi/lo)
}

// LinearityRow is one pair of the linearity study: the per-instruction
// cost of div-int and of the opcode alone, their mean, and the pair's
// measured cost alternating and in halves with its error from the mean.
type LinearityRow struct {
	Opcode                    string
	Partner, Alone, Mean      float64
	Alternating, Halves       float64
	AlternatingErr, HalvesErr float64
}

// Linearity computes the study's rows from a result holding its
// benchmarks (none if it has not).
func Linearity(r Result) ([]LinearityRow, error) {
	byName := map[string]BenchResult{}
	for _, b := range r.Benches {
		byName[b.Name] = b
	}
	if _, ok := byName[microbench.PartnerName]; !ok {
		return nil, nil
	}
	emptyRuns := byName[microbench.EmptyLoop].Samples
	if len(r.LinearityEmpty) > 0 {
		emptyRuns = r.LinearityEmpty // the study's own, measured in its rounds
	}
	if len(emptyRuns) == 0 {
		return nil, fmt.Errorf("opcost: linearity: no measurements of %s", microbench.EmptyLoop)
	}
	empty := median(emptyRuns)
	instrs := float64(r.LoopCount) * float64(r.LoopSize)
	per := func(name string) (float64, error) {
		b, ok := byName[name]
		if !ok || len(b.Samples) == 0 {
			return 0, fmt.Errorf("opcost: linearity: no measurements of %s", name)
		}
		return (median(b.Samples) - empty) / instrs, nil
	}
	p, err := per(microbench.PartnerName)
	if err != nil {
		return nil, err
	}
	var rows []LinearityRow
	for _, op := range microbench.LinearityOps {
		if _, ok := byName[microbench.PairName(op, microbench.Alternating)]; !ok {
			continue
		}
		row := LinearityRow{Opcode: op, Partner: p}
		if row.Alone, err = per(op); err != nil {
			return nil, err
		}
		if row.Alternating, err = per(microbench.PairName(op, microbench.Alternating)); err != nil {
			return nil, err
		}
		if row.Halves, err = per(microbench.PairName(op, microbench.Halves)); err != nil {
			return nil, err
		}
		row.Mean = (row.Partner + row.Alone) / 2
		row.AlternatingErr = (row.Alternating - row.Mean) / row.Mean
		row.HalvesErr = (row.Halves - row.Mean) / row.Mean
		rows = append(rows, row)
	}
	return rows, nil
}

func linearity(res *sdk.Result, prefix, titleSuffix string, r Result, summary *strings.Builder) error {
	rows, err := Linearity(r)
	if err != nil || len(rows) == 0 {
		return err
	}
	var table [][]string
	worst := 0.0
	for _, l := range rows {
		worst = max(worst, math.Abs(l.AlternatingErr), math.Abs(l.HalvesErr))
		table = append(table, []string{"div-int + " + l.Opcode, fmt.Sprintf("%.3f", l.Partner), fmt.Sprintf("%.3f", l.Alone), fmt.Sprintf("%.3f", l.Mean),
			fmt.Sprintf("%.3f", l.Alternating), fmt.Sprintf("%+.1f %%", 100*l.AlternatingErr), fmt.Sprintf("%.3f", l.Halves), fmt.Sprintf("%+.1f %%", 100*l.HalvesErr)})
		labels := map[string]string{"pair": "div-int+" + l.Opcode}
		res.Sample("linearity_error", "%", sdk.LowerIsBetter, labels, 100*max(math.Abs(l.AlternatingErr), math.Abs(l.HalvesErr)))
	}
	res.Table(prefix+"linearity", "Linearity"+titleSuffix+" (the paper's Table 3): ns per instruction of div-int and of each opcode alone, their mean, and the pair run alternating and in halves, with the error from the mean",
		[]string{"pair", "div-int ns", "alone ns", "mean ns", "alternating ns", "error", "halves ns", "error"}, table)
	fmt.Fprintf(summary, "Linearity: the largest error of a pair from the mean of its two opcodes is %.1f %% over %d pairs (the paper: within 5 %%)", 100*worst, len(rows))
	if r.InterpPlacement != "" {
		fmt.Fprintf(summary, ", measured with %s (which pairs deviate changes with it)", r.InterpPlacement)
	}
	summary.WriteString(". ")
	return nil
}

// sweepReport shows the calibration sweep: the opcode's cost per
// instruction and its coefficient of variation at each loop size and
// count (the paper's Fig. 1).
func sweepReport(res *sdk.Result, prefix, titleSuffix string, r Result, summary *strings.Builder) error {
	if len(r.Sweep) == 0 {
		return nil
	}
	var rows [][]string
	var bySize, byCount chart.Series
	bySize.Name, byCount.Name = "loop size (count "+strconv.Itoa(r.LoopCount)+")", "loop count (size "+strconv.Itoa(r.LoopSize)+")"
	for _, p := range r.Sweep {
		ns := (median(p.Bench) - median(p.Empty)) / (float64(p.Size) * float64(p.Count))
		rows = append(rows, []string{p.Opcode, strconv.Itoa(p.Size), strconv.Itoa(p.Count), fmt.Sprintf("%.3f", ns), fmt.Sprintf("%.1f", cvOf(p.Bench))})
		if p.Axis == "size" {
			bySize.X, bySize.Values = append(bySize.X, float64(p.Size)), append(bySize.Values, ns)
		} else {
			byCount.X, byCount.Values = append(byCount.X, float64(p.Count)), append(byCount.Values, ns)
		}
	}
	op := r.Sweep[0].Opcode
	res.Table(prefix+"sweep", "Calibration"+titleSuffix+" (the paper's Fig. 1): "+op+"'s cost per instruction, empty loop subtracted, by loop size and loop count, with the coefficient of variation of its measurements",
		[]string{"opcode", "loop size", "loop count", "ns", "CV %"}, rows)
	for _, c := range []struct {
		name, x string
		s       chart.Series
	}{{"sweep-size.svg", "loop size (copies of the instruction)", bySize}, {"sweep-count.svg", "loop count (iterations)", byCount}} {
		lc := &chart.LineChart{Title: "Cost per instruction of " + op + " by " + c.x + titleSuffix, XLabel: c.x, YLabel: "cost", Unit: "ns", YFromZero: true, Series: []chart.Series{c.s}}
		if err := res.Figure(prefix+c.name, op+"'s cost per instruction by "+c.x+titleSuffix, lc.SVG()); err != nil {
			return err
		}
	}
	fmt.Fprintf(summary, "Calibration sweep of %s: %d points (table and figures). ", op, len(r.Sweep))
	return nil
}

// gridReport shows each operand grid as a heat map and a table, and says
// how much the opcode's cost depends on its operands.
func gridReport(res *sdk.Result, prefix, titleSuffix string, r Result, summary *strings.Builder) error {
	var notes []string
	for _, g := range r.Grids {
		instrs := float64(r.LoopCount) * float64(r.LoopSize)
		if g.LoopSize > 0 {
			instrs = float64(g.LoopCount) * float64(g.LoopSize)
		}
		empty := median(g.Empty)
		values := make([][]float64, len(g.Samples))
		lo, hi := math.Inf(1), math.Inf(-1)
		var rows [][]string
		for row, line := range g.Samples {
			cells := []string{g.B[row]}
			for _, samples := range line {
				ns := (median(samples) - empty) / instrs
				values[row] = append(values[row], ns)
				lo, hi = min(lo, ns), max(hi, ns)
				cells = append(cells, fmt.Sprintf("%.3f", ns))
			}
			rows = append(rows, cells)
		}
		name := fileName(g.Opcode)
		unary := len(g.B) == 1 && g.B[0] == "-"
		yLabel, rowLabels := "second operand", g.B
		if unary {
			yLabel, rowLabels = "", []string{g.Opcode}
		}
		hm := &chart.HeatMap{Title: g.Opcode + ": cost per instruction by operand value" + titleSuffix, Columns: g.A, Rows: rowLabels,
			Values: values, XLabel: "first operand", YLabel: yLabel, Unit: "ns"}
		if err := res.Figure(prefix+"grid-"+name+".svg", g.Opcode+"'s cost by operand value"+titleSuffix, hm.SVG()); err != nil {
			return err
		}
		first := "second operand ↓ / first →"
		if unary {
			first = "operand →"
		}
		res.Table(prefix+"grid-"+name, g.Opcode+"'s cost per instruction (ns) over operand values"+titleSuffix, append([]string{first}, g.A...), rows)
		var all []float64
		for _, row := range values {
			all = append(all, row...)
		}
		notes = append(notes, fmt.Sprintf("%s median %.2f ns, 80 %% of points in %.2f–%.2f ns, all in %.2f–%.2f",
			g.Opcode, stats.Median(all), stats.Quantile(all, 0.1), stats.Quantile(all, 0.9), lo, hi))
	}
	if len(notes) > 0 {
		fmt.Fprintf(summary, "Operand-value dependence: %s. ", strings.Join(notes, "; "))
	}
	return nil
}

// useCases compares each use case's two ways of writing an expression:
// the cost table's estimate (the sum of the instructions' costs) against
// the measured cost of each, and the ratio of the two ways by each.
func useCases(res *sdk.Result, prefix, titleSuffix string, r Result, t *Table, summary *strings.Builder) {
	byName := map[string]BenchResult{}
	for _, b := range r.Benches {
		byName[b.Name] = b
	}
	empty, ok := byName[microbench.EmptyLoop]
	if !ok {
		return
	}
	cost := costsByOpcode(t)
	instrs := float64(r.LoopCount) * float64(r.LoopSize)
	var rows [][]string
	for _, uc := range microbench.UseCases {
		var est, meas [2]float64
		complete := true
		for i, v := range uc.Variants {
			b, ok := byName[v.Bench]
			if !ok {
				complete = false
				break
			}
			meas[i] = (median(b.Samples) - median(empty.Samples)) / instrs
			for _, op := range v.Opcodes {
				k, ok := cost[op]
				if !ok {
					complete = false
				}
				est[i] += k.NS
			}
		}
		if !complete {
			continue
		}
		for i, v := range uc.Variants {
			rows = append(rows, []string{uc.Name, v.Expr, strings.Join(v.Opcodes, " + "), fmt.Sprintf("%.3f", est[i]), fmt.Sprintf("%.3f", meas[i])})
		}
		fmt.Fprintf(summary, "Use case %q: %s costs %.2f× %s by the cost table's estimate and %.2f× measured (%s). ",
			uc.Name, uc.Variants[0].Expr, est[0]/est[1], uc.Variants[1].Expr, meas[0]/meas[1], uc.PaperNote)
		res.Sample("usecase_ratio_measured", "x", sdk.HigherIsBetter, map[string]string{"usecase": uc.Name}, meas[0]/meas[1])
		res.Sample("usecase_ratio_estimated", "x", sdk.HigherIsBetter, map[string]string{"usecase": uc.Name}, est[0]/est[1])
	}
	if len(rows) > 0 {
		res.Table(prefix+"usecases", "The paper's use cases"+titleSuffix+": each way of writing an expression, its cost estimated from the table (sum of its instructions') and measured, ns per expression",
			[]string{"use case", "expression", "instructions", "estimated ns", "measured ns"}, rows)
	}
}

// floatEquivalent is the single-precision opcode a double (or, for moves,
// loads and stores, any wide) opcode becomes when a program's doubles
// become floats; "" for one that stays.
func floatEquivalent(op string) string {
	for _, r := range [][2]string{
		{"-double/2addr", "-float/2addr"}, {"-double", "-float"},
		{"aget-wide", "aget"}, {"aput-wide", "aput"}, {"iget-wide", "iget"}, {"iput-wide", "iput"},
		{"sget-wide", "sget"}, {"sput-wide", "sput"}, {"move-wide", "move"}, {"move-result-wide", "move-result"},
		{"return-wide", "return"}, {"const-wide/high16", "const/high16"}, {"const-wide/16", "const/16"},
		{"const-wide/32", "const"}, {"const-wide", "const"},
	} {
		if strings.HasPrefix(op, r[0]) || strings.HasSuffix(op, r[0]) {
			return strings.Replace(op, r[0], r[1], 1)
		}
	}
	switch op {
	case "int-to-double":
		return "int-to-float"
	case "long-to-double":
		return "long-to-float"
	case "double-to-int":
		return "float-to-int"
	case "double-to-long":
		return "float-to-long"
	}
	return ""
}

// floatUseCase is the paper's first use case: how much CPU a program
// saves when its doubles become floats, estimated from its double
// version's instruction counts and the cost table (each double
// instruction costed as its float equivalent) against the two versions'
// measured CPU times, for each SciMark kernel measured in both.
func floatUseCase(res *sdk.Result, w WorkloadsResult, t *Table, summary *strings.Builder) {
	if t == nil {
		return
	}
	cost := costsByOpcode(t)
	byName := map[string]WorkloadMeasure{}
	for _, m := range w.Workloads {
		byName[m.Name] = m
	}
	var rows [][]string
	var est, meas []float64
	for _, m := range w.Workloads {
		f, ok := byName[m.Name+"-float"]
		if !ok || !strings.HasPrefix(m.Name, "scimark-") {
			continue
		}
		var total, saved float64
		for op, n := range m.Counts {
			k := cost[op]
			total += float64(n) * k.NS
			if fe := floatEquivalent(op); fe != "" {
				if kf, ok := cost[fe]; ok {
					saved += float64(n) * (k.NS - kf.NS)
				}
			}
		}
		cpu := func(m WorkloadMeasure) float64 {
			xs := make([]float64, len(m.CPU))
			for i, ns := range m.CPU {
				xs[i] = float64(ns)
			}
			return stats.Median(xs)
		}
		d, fl := cpu(m), cpu(f)
		if total <= 0 || d <= 0 {
			continue
		}
		e, ms := saved/total, (d-fl)/d
		est, meas = append(est, e), append(meas, ms)
		rows = append(rows, []string{m.Name, fmt.Sprintf("%.1f", d/1e6), fmt.Sprintf("%.1f", fl/1e6), fmt.Sprintf("%+.1f %%", 100*e), fmt.Sprintf("%+.1f %%", 100*ms)})
		res.Sample("float_saving_estimated", "%", sdk.HigherIsBetter, map[string]string{"engine": w.Engine, "workload": m.Name}, 100*e)
		res.Sample("float_saving_measured", "%", sdk.HigherIsBetter, map[string]string{"engine": w.Engine, "workload": m.Name}, 100*ms)
	}
	if len(rows) == 0 {
		return
	}
	res.Table("usecase-floats-"+w.Engine, "The paper's use case on "+w.Engine+": the CPU a SciMark kernel saves when its doubles become floats, estimated from the cost table (the double version's counts, each double instruction costed as its float equivalent) and measured (the two versions' thread CPU time)",
		[]string{"kernel", "double ms", "float ms", "estimated saving", "measured saving"}, rows)
	fmt.Fprintf(summary, "Doubles to floats on %s: estimated saving %.0f…%.0f %%, measured %.0f…%.0f %% over %d SciMark kernels (the paper: estimated 8–25 %%, measured 15 %%). ",
		w.Engine, 100*stats.Min(est), 100*stats.Max(est), 100*stats.Min(meas), 100*stats.Max(meas), len(rows))
}
