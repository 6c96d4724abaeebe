package mobigen

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	framechart "github.com/droidprof/droidprof/framework/sdk/chart"
	"github.com/droidprof/droidprof/framework/sdk/stats"
)

// Metric names the analyzer produces.
const (
	MetricIOTime = "io_time"          // s: total I/O time of the replay (the paper's Fig. 16)
	MetricWall   = "replay_wall"      // s
	MetricLagP50 = "timing_error_p50" // µs: issue − scheduled
	MetricLagP99 = "timing_error_p99" // µs
	MetricLagMax = "timing_error_max" // µs
	// The timing error over the calls whose thread was ready before their
	// time: the replay's own issue error (replay.Result.LagOnTime).
	MetricOnTimeP50 = "timing_error_on_time_p50" // µs
	MetricOnTimeP99 = "timing_error_on_time_p99" // µs
	// The calls that could not be on time, their thread still inside an
	// earlier call (replay.Result.Held), and how late they were.
	MetricHeld     = "held_calls"    // count
	MetricHeldP99  = "held_late_p99" // µs
	MetricFidelity = "fidelity"      // %
	MetricErrors   = "replay_errors" // calls that failed only in the replay
)

type cellResult struct {
	cell   string
	labels map[string]string
	res    *Result
}

func analyze(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	out := a.NewResult()
	var cells []cellResult
	for _, st := range a.Steps {
		if st.Status != "" && st.Status != "ok" {
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
		labels := maps.Clone(st.Labels)
		if labels == nil {
			labels = map[string]string{}
		}
		cell := sdk.LabelString(labels)
		if cell == "" {
			cell = r.FSType
		}
		cells = append(cells, cellResult{cell: cell, labels: labels, res: &r})
	}
	if len(cells) == 0 {
		out.Summary("No mobigen step left a result.")
		return out, nil
	}
	table3(out, cells)
	if err := timing(out, cells); err != nil {
		return nil, err
	}
	return out, nil
}

// table3 is the paper's Table 3, one column per distinct trace, and what
// the cleaner dropped.
func table3(out *sdk.Result, cells []cellResult) {
	var logs []string
	byLog := map[string]*Result{}
	for _, c := range cells {
		if _, ok := byLog[c.res.Log]; !ok {
			logs = append(logs, c.res.Log)
			byLog[c.res.Log] = c.res
		}
	}
	mb := func(b int64) string { return strconv.FormatFloat(float64(b)/1e6, 'f', 3, 64) }
	rows := [][]string{}
	addRow := func(name string, f func(*Result) string) {
		row := []string{name}
		for _, l := range logs {
			row = append(row, f(byLog[l]))
		}
		rows = append(rows, row)
	}
	addRow("Runtime (s)", func(r *Result) string { return strconv.FormatFloat(float64(r.Clean.DurationUS)/1e6, 'f', 3, 64) })
	addRow("Lines (strace out)", func(r *Result) string { return strconv.Itoa(r.Clean.StraceLines) })
	addRow("Lines (Mobigen out)", func(r *Result) string { return strconv.Itoa(r.Clean.ScriptLines) })
	addRow("Number of threads", func(r *Result) string { return strconv.Itoa(r.Clean.Threads) })
	addRow("Files", func(r *Result) string { return strconv.Itoa(r.Clean.Files) })
	addRow("Write size (MB)", func(r *Result) string { return mb(r.Clean.WriteBytes) })
	addRow("Read size (MB)", func(r *Result) string { return mb(r.Clean.ReadBytes) })
	addRow("Opens inserted", func(r *Result) string { return strconv.Itoa(r.Clean.Inserted) })
	addRow("Unfinished/resumed merged", func(r *Result) string { return strconv.Itoa(r.Clean.Merged) })
	kinds := map[string]bool{}
	reasons := map[string]bool{}
	for _, r := range byLog {
		for k := range r.Clean.Calls {
			kinds[k] = true
		}
		for k := range r.Clean.Dropped {
			reasons[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		addRow("Calls: "+k, func(r *Result) string { return strconv.Itoa(r.Clean.Calls[k]) })
	}
	for _, k := range slices.Sorted(maps.Keys(reasons)) {
		addRow("Dropped: "+k, func(r *Result) string { return strconv.Itoa(r.Clean.Dropped[k]) })
	}
	out.Table("table3", "Characteristics of the captured trace (paper 002 Table 3) and what the cleaner dropped", append([]string{"Attribute"}, logs...), rows)
}

// timing reports per matrix cell the total I/O time (the paper's Fig. 16),
// the timing error, per-call latency and the fidelity.
func timing(out *sdk.Result, cells []cellResult) error {
	var order []string
	iot := map[string][]float64{}
	rows := [][]string{}
	var fid []string
	for _, c := range cells {
		r := c.res
		labels := maps.Clone(c.labels)
		labels["collector"] = "mobigen"
		if f := r.Fidelity; f != nil {
			out.Sample(MetricFidelity, "%", sdk.HigherIsBetter, labels, f.Percent)
			fid = append(fid, fmt.Sprintf("%s: %.2f %% (%d of %d)", c.cell, f.Percent, f.Matched, f.Expected))
		}
		rr := r.Replay
		if rr == nil {
			continue
		}
		if !slices.Contains(order, c.cell) {
			order = append(order, c.cell)
		}
		iot[c.cell] = append(iot[c.cell], rr.IOTime.Seconds())
		out.Sample(MetricIOTime, "s", sdk.LowerIsBetter, labels, rr.IOTime.Seconds())
		out.Sample(MetricWall, "s", sdk.LowerIsBetter, labels, rr.Wall.Seconds())
		out.Sample(MetricLagP50, "µs", sdk.LowerIsBetter, labels, float64(rr.Lag.Median)/1e3)
		out.Sample(MetricLagP99, "µs", sdk.LowerIsBetter, labels, float64(rr.Lag.P99)/1e3)
		out.Sample(MetricLagMax, "µs", sdk.LowerIsBetter, labels, float64(rr.Lag.Max)/1e3)
		out.Sample(MetricOnTimeP50, "µs", sdk.LowerIsBetter, labels, float64(rr.LagOnTime.Median)/1e3)
		out.Sample(MetricOnTimeP99, "µs", sdk.LowerIsBetter, labels, float64(rr.LagOnTime.P99)/1e3)
		out.Sample(MetricHeld, "count", sdk.LowerIsBetter, labels, float64(rr.Held))
		out.Sample(MetricHeldP99, "µs", sdk.LowerIsBetter, labels, float64(rr.LagHeld.P99)/1e3)
		out.Sample(MetricErrors, "count", sdk.LowerIsBetter, labels, float64(rr.Errors))
		us := func(d interface{ Microseconds() int64 }) string { return strconv.FormatInt(d.Microseconds(), 10) }
		for _, cr := range rr.Calls {
			rows = append(rows, []string{c.cell, cr.Call.String(), strconv.Itoa(cr.Count), us(cr.Total), us(cr.P50), us(cr.P99), us(cr.Max), us(cr.Lag.Median), us(cr.Lag.P99), us(cr.Lag.Max)})
		}
	}
	out.Table("calls", "Replay per call kind: latency and timing error (issue − scheduled), µs", []string{"cell", "call", "issued", "total", "latency p50", "latency p99", "latency max", "error p50", "error p99", "error max"}, rows)
	var sum strings.Builder
	if len(order) > 0 {
		chart := &framechart.BarChart{Title: "Total I/O time of the replay (paper 002 Fig. 16 in kind)", Categories: order, YLabel: "total I/O time", Unit: "s", XLabel: "matrix cell"}
		ser := framechart.Series{Name: "mobigen"}
		for _, c := range order {
			v := iot[c]
			ser.Values = append(ser.Values, stats.Median(v))
			ser.Lo = append(ser.Lo, stats.Min(v))
			ser.Hi = append(ser.Hi, stats.Max(v))
			fmt.Fprintf(&sum, "%s: total I/O time %.4f s (median of %d). ", c, stats.Median(v), len(v))
		}
		chart.Series = append(chart.Series, ser)
		if err := out.Figure("io-time.svg", "Total I/O time per filesystem", chart.SVG()); err != nil {
			return err
		}
	}
	if len(fid) > 0 {
		sum.WriteString("\n\nFidelity (calls replayed with the script's kind, size, offset and flags): " + strings.Join(fid, "; ") + ".")
	}
	out.Summary(sum.String())
	return nil
}
