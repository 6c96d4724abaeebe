package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/stats"
)

// MinRankItems is how many rows a metric needs, differing in one label,
// for the comparison to rank them: a table of that many costs (opcost's
// cost per opcode, 218 rows per engine) is compared by its order as well
// as row by row, where a handful of rows would give a meaningless rank
// correlation.
const MinRankItems = 20

// Ranking compares the order of one metric's rows in the two runs: the
// rows share the metric's name, unit, analyzer and every label but Item.
type Ranking struct {
	Name, Unit, Analyzer string
	// Labels are the labels the rows share (Item left out).
	Labels map[string]string
	// Item is the label that tells the rows apart (e.g. "opcode").
	Item string
	// Items is how many rows both runs have.
	Items int
	// Spearman and Kendall are the rank correlations of the rows'
	// medians in the two runs (Kendall's τ-b).
	Spearman, Kendall float64
	// OldRatio and NewRatio are each run's largest median over its
	// smallest positive one; NaN when no median is positive.
	OldRatio, NewRatio float64
	// Moves are the rows whose rank moves most, largest move first (at
	// most five); rank 1 is the largest median.
	Moves []RankMove
}

// RankMove is one row's rank in each run (1 = largest median).
type RankMove struct {
	Item string `json:"item"`
	Old  int    `json:"old"`
	New  int    `json:"new"`
}

// rankings ranks the rows of every metric with at least MinRankItems rows
// that differ in one label, per combination of its other labels.
func rankings(groups []Group) []Ranking {
	type metricKey struct{ name, unit, analyzer string }
	byMetric := map[metricKey][]Row{}
	var order []metricKey
	for _, g := range groups {
		for _, r := range g.Rows {
			k := metricKey{r.Name, r.Unit, r.Analyzer}
			if _, ok := byMetric[k]; !ok {
				order = append(order, k)
			}
			byMetric[k] = append(byMetric[k], r)
		}
	}
	var out []Ranking
	for _, k := range order {
		rows := byMetric[k]
		item := itemLabel(rows)
		if item == "" {
			continue
		}
		// The rows per combination of the other labels, in first-seen order.
		sets := map[string][]Row{}
		var setOrder []string
		for _, r := range rows {
			rest := maps.Clone(r.Labels)
			delete(rest, item)
			s := results.LabelString(rest)
			if _, ok := sets[s]; !ok {
				setOrder = append(setOrder, s)
			}
			sets[s] = append(sets[s], r)
		}
		for _, s := range setOrder {
			if rk, ok := rank(k.name, k.unit, k.analyzer, item, sets[s]); ok {
				out = append(out, rk)
			}
		}
	}
	return out
}

// itemLabel is the label with the most distinct values among rows, if it
// has at least MinRankItems of them.
func itemLabel(rows []Row) string {
	values := map[string]map[string]bool{}
	for _, r := range rows {
		for l, v := range r.Labels {
			if values[l] == nil {
				values[l] = map[string]bool{}
			}
			values[l][v] = true
		}
	}
	best := ""
	for _, l := range slices.Sorted(maps.Keys(values)) {
		if len(values[l]) >= MinRankItems && (best == "" || len(values[l]) > len(values[best])) {
			best = l
		}
	}
	return best
}

// rank compares one set of rows; ok is false when it has too few rows
// with a median in both runs.
func rank(name, unit, analyzer, item string, rows []Row) (Ranking, bool) {
	var items []string
	var xs, ys []float64
	for _, r := range rows {
		if math.IsNaN(r.Old.Median) || math.IsNaN(r.New.Median) || r.Old.N == 0 || r.New.N == 0 {
			continue
		}
		items = append(items, r.Labels[item])
		xs = append(xs, r.Old.Median)
		ys = append(ys, r.New.Median)
	}
	if len(items) < MinRankItems {
		return Ranking{}, false
	}
	labels := maps.Clone(rows[0].Labels)
	delete(labels, item)
	rk := Ranking{Name: name, Unit: unit, Analyzer: analyzer, Labels: labels, Item: item, Items: len(items),
		Spearman: stats.Spearman(xs, ys), Kendall: stats.KendallTau(xs, ys), OldRatio: spread(xs), NewRatio: spread(ys)}
	// Ranks counted from the largest, the way a cost table is read.
	rx, ry := stats.Ranks(xs), stats.Ranks(ys)
	n := float64(len(items)) + 1
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return math.Abs(rx[idx[a]]-ry[idx[a]]) > math.Abs(rx[idx[b]]-ry[idx[b]])
	})
	for _, i := range idx[:min(5, len(idx))] {
		if rx[i] == ry[i] {
			break
		}
		rk.Moves = append(rk.Moves, RankMove{Item: items[i], Old: int(math.Round(n - rx[i])), New: int(math.Round(n - ry[i]))})
	}
	return rk, true
}

// spread is the largest of xs over the smallest positive one.
func spread(xs []float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if x > 0 {
			lo = min(lo, x)
		}
		hi = max(hi, x)
	}
	if math.IsInf(lo, 1) {
		return math.NaN()
	}
	return hi / lo
}

// Title names the ranked metric and the labels its rows share.
func (r Ranking) Title() string {
	s := r.Name + " by " + r.Item
	if len(r.Labels) > 0 {
		s += " (" + results.LabelString(r.Labels) + ")"
	}
	return s
}

// Summary is the ranking in one line: the correlations, the spreads and
// the largest moves.
func (r Ranking) Summary() string {
	var moves []string
	for _, m := range r.Moves {
		moves = append(moves, fmt.Sprintf("%s %d → %d", m.Item, m.Old, m.New))
	}
	s := fmt.Sprintf("%d rows: Spearman ρ %.3f, Kendall τ %.3f; max/min %s old, %s new", r.Items, r.Spearman, r.Kendall, fmtRatio(r.OldRatio), fmtRatio(r.NewRatio))
	if len(moves) > 0 {
		s += "; rank moves most (1 = largest): " + strings.Join(moves, ", ")
	}
	return s
}

func fmtRatio(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.3g×", x)
}
