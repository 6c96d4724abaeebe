package mobibench

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	framechart "github.com/droidprof/droidprof/framework/sdk/chart"
	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/storage/replay"
)

// Metric names the analyzer produces.
const (
	MetricThroughput     = "throughput"      // KB/s, sequential modes
	MetricIOPS           = "iops"            // random modes
	MetricTPS            = "tps"             // transactions/s, DB test
	MetricElapsed        = "elapsed"         // s
	MetricCPUActive      = "cpu_active"      // %
	MetricCPUIOWait      = "cpu_iowait"      // %
	MetricCtxVoluntary   = "ctx_voluntary"   // count
	MetricCtxInvoluntary = "ctx_involuntary" // count
	MetricLatencyP50     = "latency_p50"     // µs
	MetricLatencyP99     = "latency_p99"     // µs
)

// sample is one step's result with its labels.
type sample struct {
	labels map[string]string // step labels + collector
	cell   string            // the labels without collector, as k=v,...
	res    *Result
}

func analyze(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	var cfg AnalyzerConfig
	if err := a.Decode(&cfg); err != nil {
		return nil, err
	}
	res := a.NewResult()
	var samples []sample
	var skipped []string
	replays := 0
	for _, st := range a.Steps {
		if st.Status != "" && st.Status != "ok" {
			continue
		}
		if art := sdk.Find(st, "replay.json"); art != nil {
			var r replay.Result
			if err := a.ReadJSON(art, &r); err != nil {
				return nil, fmt.Errorf("step %s: %w", st.ID, err)
			}
			addReplayMetrics(res, st, &r)
			replays++
			continue
		}
		art := sdk.Find(st, "result.json")
		if art == nil {
			if strings.HasPrefix(st.Collector, "mobibench.") {
				skipped = append(skipped, st.ID)
			}
			continue
		}
		var r Result
		if err := a.ReadJSON(art, &r); err != nil {
			return nil, fmt.Errorf("step %s: %w", st.ID, err)
		}
		samples = append(samples, newSample(st, &r))
	}
	summary := buildResult(res, samples, cfg.Baseline)
	if replays > 0 {
		summary += fmt.Sprintf("\n\n%d Mobigen script replay(s): metrics %s.", replays, strings.Join(replayMetricNames, ", "))
	}
	if len(skipped) > 0 {
		summary += fmt.Sprintf("\n\n%d mobibench step(s) left no result.json and were skipped: %s.", len(skipped), strings.Join(skipped, ", "))
	}
	res.Summary(summary)
	if err := drawThroughputFigure(res, samples); err != nil {
		return nil, err
	}
	return res, nil
}

func newSample(st *sdk.StepArtifacts, r *Result) sample {
	collector := r.Collector
	if collector == "" {
		collector = st.Collector[strings.LastIndex(st.Collector, ".")+1:]
	}
	labels := maps.Clone(st.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	cell := sdk.LabelString(labels)
	if cell == "" {
		cell = fmt.Sprintf("a%d y%d t%d", r.Access, r.Sync, r.Threads)
		if d := r.DB; d != nil {
			cell = fmt.Sprintf("db %s j%s s%s D%d t%d", d.Op, d.JournalMode, d.Synchronous, d.Databases, r.Threads)
		}
	}
	labels["collector"] = collector
	return sample{labels: labels, cell: cell, res: r}
}

// The kinds of sample, which decide the headline metric: KB/s for
// sequential file modes, IOPS for random ones, transactions/s for the DB test.
const (
	kindSeq = iota
	kindRandom
	kindDB
)

func (s sample) kind() int {
	switch {
	case s.res.DB != nil:
		return kindDB
	case s.res.Access == 1 || s.res.Access == 3:
		return kindRandom
	}
	return kindSeq
}

// values lists the metrics of a sample in table order.
func (s sample) values() []metricValue {
	r := s.res
	var v []metricValue
	switch s.kind() {
	case kindDB:
		v = append(v, metricValue{MetricTPS, "tx/s", sdk.HigherIsBetter, r.DB.TPS, true})
	case kindRandom:
		v = append(v, metricValue{MetricIOPS, "IOPS", sdk.HigherIsBetter, r.IOPS, true})
	default:
		v = append(v, metricValue{MetricThroughput, "KB/s", sdk.HigherIsBetter, r.ThroughputKBps, true})
	}
	v = append(v,
		metricValue{MetricElapsed, "s", sdk.LowerIsBetter, float64(r.ElapsedNS) / 1e9, true},
		metricValue{MetricCPUActive, "%", sdk.LowerIsBetter, r.CPUActive, r.CPUSource != ""},
		metricValue{MetricCPUIOWait, "%", sdk.LowerIsBetter, r.CPUIOWait, r.CPUSource != ""},
	)
	if r.CtxVoluntary != nil {
		v = append(v, metricValue{MetricCtxVoluntary, "count", sdk.LowerIsBetter, float64(*r.CtxVoluntary), true})
	}
	if r.CtxInvoluntary != nil {
		v = append(v, metricValue{MetricCtxInvoluntary, "count", sdk.LowerIsBetter, float64(*r.CtxInvoluntary), true})
	}
	if r.Latency.Count > 0 {
		// Per-I/O latency includes the per-I/O sync. fio measures the write
		// and the sync separately; their percentiles are added, which bounds
		// the percentile of the sum from above (and is close when both are
		// tight, as fsync-bound distributions are).
		p50, p99 := r.Latency.P50, r.Latency.P99
		if r.SyncLatency != nil && r.SyncLatency.Count > 0 {
			p50 += r.SyncLatency.P50
			p99 += r.SyncLatency.P99
		}
		v = append(v,
			metricValue{MetricLatencyP50, "µs", sdk.LowerIsBetter, float64(p50) / 1e3, true},
			metricValue{MetricLatencyP99, "µs", sdk.LowerIsBetter, float64(p99) / 1e3, true},
		)
	}
	return v
}

type metricValue struct {
	name, unit string
	better     sdk.Better
	v          float64
	ok         bool
}

// tableMetrics are the table's metric columns.
var tableMetrics = []string{MetricThroughput, MetricIOPS, MetricTPS, MetricElapsed, MetricCPUActive, MetricCPUIOWait, MetricCtxVoluntary, MetricCtxInvoluntary, MetricLatencyP50, MetricLatencyP99}

// buildResult adds the metrics and tables to res and returns the summary.
func buildResult(res *sdk.Result, samples []sample, baseline string) string {
	if baseline == "" {
		baseline = "fio"
	}
	// cell -> collector -> metric -> samples
	groups := map[string]map[string]map[string][]float64{}
	for _, s := range samples {
		col := s.labels["collector"]
		if groups[s.cell] == nil {
			groups[s.cell] = map[string]map[string][]float64{}
		}
		if groups[s.cell][col] == nil {
			groups[s.cell][col] = map[string][]float64{}
		}
		for _, m := range s.values() {
			if !m.ok {
				continue
			}
			res.Sample(m.name, m.unit, m.better, s.labels, m.v)
			groups[s.cell][col][m.name] = append(groups[s.cell][col][m.name], m.v)
		}
	}
	cells := slices.Sorted(maps.Keys(groups))

	cols := append([]string{"cell", "collector", "n"}, tableMetrics...)
	var rows [][]string
	for _, cell := range cells {
		for _, col := range slices.Sorted(maps.Keys(groups[cell])) {
			g := groups[cell][col]
			n := 0
			for _, v := range g {
				n = max(n, len(v))
			}
			row := []string{cell, col, strconv.Itoa(n)}
			for _, m := range tableMetrics {
				row = append(row, formatMedian(g[m]))
			}
			rows = append(rows, row)
		}
	}
	res.Table("medians", "Median per cell and collector (throughput KB/s, IOPS, transactions/s, elapsed s, CPU %, context switches, latency µs)", cols, rows)

	var summary []string
	for _, peer := range peers {
		other, base, name := "mobibench", peer, "ratio_vs_"+peer
		if baseline == "mobibench" {
			other, base, name = peer, "mobibench", "ratio_vs_mobibench"
			if peer != "fio" { // the fio table keeps its historical name
				name = "ratio_" + peer + "_vs_mobibench"
			}
		}
		summary = append(summary, ratioTable(res, groups, cells, other, base, name)...)
	}
	text := fmt.Sprintf("%d step(s) in %d cell(s).", len(samples), len(cells))
	if len(summary) > 0 {
		text += " Headline ratios (medians): " + strings.Join(summary, "; ") + "."
	}
	return text
}

// peers are the real tools measured side by side with Mobibench: fio on
// file cells, the sqlite3 shell on DB cells.
var peers = []string{"fio", "sqlite3"}

// ratioTable adds the table of median other / median baseline per cell and
// metric, when any cell has both, and returns the headline ratios for the
// summary.
func ratioTable(res *sdk.Result, groups map[string]map[string]map[string][]float64, cells []string, other, baseline, name string) []string {
	var ratioRows [][]string
	var summary []string
	for _, cell := range cells {
		a, b := groups[cell][other], groups[cell][baseline]
		if a == nil || b == nil {
			continue
		}
		for _, m := range tableMetrics {
			if len(a[m]) == 0 || len(b[m]) == 0 {
				continue
			}
			ma, mb := stats.Median(a[m]), stats.Median(b[m])
			ratio := "n/a"
			if mb != 0 {
				ratio = fmt.Sprintf("%.3f", ma/mb)
				if m == MetricThroughput || m == MetricIOPS || m == MetricTPS {
					summary = append(summary, fmt.Sprintf("%s %s %.2f× (%s/%s)", cell, m, ma/mb, other, baseline))
				}
			}
			ratioRows = append(ratioRows, []string{cell, m, formatFloat(ma), formatFloat(mb), ratio})
		}
	}
	if len(ratioRows) > 0 {
		res.Table(name, fmt.Sprintf("Median %s / median %s per cell", other, baseline),
			[]string{"cell", "metric", other, baseline, "ratio"}, ratioRows)
	}
	return summary
}

// drawThroughputFigure draws one grouped bar chart per headline metric: KB/s
// for sequential cells, IOPS for random ones and transactions/s for DB
// cells, one group per matrix cell,
// one bar per collector at the median, whiskers from the fastest to the
// slowest repetition.
func drawThroughputFigure(res *sdk.Result, samples []sample) error {
	for _, panel := range []struct {
		kind        int
		file, title string
		unit        string
		value       func(*Result) float64
	}{
		{kindSeq, "throughput.svg", "Sequential throughput per cell", "KB/s", func(r *Result) float64 { return r.ThroughputKBps }},
		{kindRandom, "iops.svg", "Random IOPS per cell", "IOPS", func(r *Result) float64 { return r.IOPS }},
		{kindDB, "transactions.svg", "SQLite transactions per second per cell", "transactions/s", func(r *Result) float64 { return r.DB.TPS }},
	} {
		var cells, collectors []string
		values := map[[2]string][]float64{}
		for _, s := range samples {
			if s.kind() != panel.kind {
				continue
			}
			col := s.labels["collector"]
			if !slices.Contains(cells, s.cell) {
				cells = append(cells, s.cell)
			}
			if !slices.Contains(collectors, col) {
				collectors = append(collectors, col)
			}
			k := [2]string{s.cell, col}
			values[k] = append(values[k], panel.value(s.res))
		}
		if len(cells) == 0 {
			continue
		}
		chart := &framechart.BarChart{Title: panel.title, Categories: cells, YLabel: panel.unit, XLabel: "matrix cell"}
		for _, col := range collectors {
			ser := framechart.Series{Name: col}
			for _, cell := range cells {
				v := values[[2]string{cell, col}]
				if len(v) == 0 {
					ser.Values, ser.Lo, ser.Hi = append(ser.Values, math.NaN()), append(ser.Lo, math.NaN()), append(ser.Hi, math.NaN())
					continue
				}
				ser.Values = append(ser.Values, stats.Median(v))
				ser.Lo = append(ser.Lo, stats.Min(v))
				ser.Hi = append(ser.Hi, stats.Max(v))
			}
			chart.Series = append(chart.Series, ser)
		}
		if err := res.Figure(panel.file, panel.title, chart.SVG()); err != nil {
			return err
		}
	}
	return nil
}

func formatMedian(v []float64) string {
	if len(v) == 0 {
		return ""
	}
	return formatFloat(stats.Median(v))
}

func formatFloat(f float64) string {
	switch {
	case f >= 1000 || f == float64(int64(f)):
		return strconv.FormatFloat(f, 'f', 0, 64)
	case f >= 10:
		return strconv.FormatFloat(f, 'f', 1, 64)
	default:
		return strconv.FormatFloat(f, 'f', 3, 64)
	}
}
