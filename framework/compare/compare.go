// Package compare says, with benchstat's statistics, what changed between two
// runs: per metric the old and new median with a 95 % confidence interval,
// the change and its Mann–Whitney p-value (or "~" when it is not
// significant), whether the change is better or worse, a geometric-mean row
// per unit, and warnings about small samples, outliers, metrics in only one
// run and environments that differ.
package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/stats"
)

// Options tunes a comparison.
type Options struct {
	// Alpha is the significance level; a change with p > Alpha prints "~".
	// 0 means 0.05.
	Alpha float64
	// Confidence is the level of the medians' confidence intervals. 0 means
	// 0.95.
	Confidence float64
}

// Comparison is the result of comparing an old (baseline) run with a new one.
type Comparison struct {
	Old, New   RunInfo
	Alpha      float64
	Confidence float64
	// Groups holds the metrics present in both runs, one group per unit in
	// order of first appearance.
	Groups []Group
	// OnlyOld and OnlyNew are the keys of metrics present in one run only.
	OnlyOld, OnlyNew []string
	// Rankings compare the order of the metrics measured per many items
	// (at least MinRankItems rows differing in one label, e.g. a cost
	// per opcode): rank correlations, spreads, the rows that move most.
	Rankings []Ranking
	// EnvDiffs are the fingerprint fields that differ.
	EnvDiffs []EnvDiff
	// Warnings are about the runs as a whole: environments that differ,
	// metrics in one run only, runs that did not complete. Warnings about
	// a single metric are in its Row.
	Warnings []string
}

// RunInfo identifies a compared run.
type RunInfo struct {
	RunID      string
	Experiment string
	Status     string
	Started    time.Time
}

// Label is the run's short name for table headings.
func (r RunInfo) Label() string {
	if r.RunID != "" {
		return r.RunID
	}
	return r.Experiment
}

// Group is the rows of one unit, with their geometric mean.
type Group struct {
	Unit string
	Rows []Row
	// Geomean summarizes the group; nil with fewer than two rows or when
	// no row has positive medians in both runs.
	Geomean *Geomean
}

// Row compares one metric.
type Row struct {
	Key      string // Metric.Key(): name and labels
	Name     string
	Labels   map[string]string
	Unit     string
	Better   string // results.BetterLower, BetterHigher or ""
	Analyzer string
	Old, New Side
	// Test is the Mann–Whitney comparison (P = 1 if it could not run).
	Test stats.Comparison
	// Delta is the change of the median in percent, (new/old − 1)·100; NaN
	// when the old median is 0 or either is undefined.
	Delta float64
	// DeltaText is benchstat's rendering: "~" when not significant, else
	// "+20.00%", "0.00%", or "?" for a change from 0.
	DeltaText string
	// Change is +1 when the change is significant and better according to
	// Better, −1 when worse, 0 otherwise (not significant, or no direction).
	Change int
	// Warnings about this metric, without its name (several rows may share
	// one message).
	Warnings []string
}

// Note renders benchstat's "p=0.002 n=6" / "p=0.036 n=5+6".
func (r Row) Note() string { return r.Test.String() }

// Verdict is "better", "worse" or "".
func (r Row) Verdict() string {
	switch r.Change {
	case 1:
		return "better"
	case -1:
		return "worse"
	}
	return ""
}

// Side is one run's samples of a metric and their summary.
type Side struct {
	Samples []float64
	stats.Summary
}

// Geomean is the geometric mean of the medians of a group's rows.
type Geomean struct {
	Old, New float64
	Delta    float64 // percent
	Rows     int     // rows included
	Skipped  int     // rows left out for non-positive or undefined medians
}

// EnvDiff is a fingerprint field that differs between the runs.
type EnvDiff struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

func (d EnvDiff) String() string {
	return fmt.Sprintf("environments differ: %s %s vs %s", d.Field, d.Old, d.New)
}

// Compare compares the metrics of the new run b against the old run a.
func Compare(a, b *results.Results, opt Options) *Comparison {
	if opt.Alpha <= 0 {
		opt.Alpha = stats.DefaultAlpha
	}
	if opt.Confidence <= 0 || opt.Confidence >= 1 {
		opt.Confidence = stats.DefaultConfidence
	}
	if a == nil {
		a = &results.Results{}
	}
	if b == nil {
		b = &results.Results{}
	}
	c := &Comparison{
		Old:        runInfo(a),
		New:        runInfo(b),
		Alpha:      opt.Alpha,
		Confidence: opt.Confidence,
	}

	if a.Experiment != b.Experiment {
		c.Warnings = append(c.Warnings, fmt.Sprintf("runs are of different experiments: %s vs %s", orUnknown(a.Experiment), orUnknown(b.Experiment)))
	}
	for _, r := range []struct {
		which string
		res   *results.Results
	}{{"old", a}, {"new", b}} {
		if s := r.res.Status; s != "" && s != results.StatusComplete {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s run %s did not complete (status %s): its results may be partial", r.which, r.res.RunID, s))
		}
	}
	c.EnvDiffs = DiffFingerprints(a.Fingerprint, b.Fingerprint)
	for _, d := range c.EnvDiffs {
		c.Warnings = append(c.Warnings, d.String())
	}

	oldM, oldOrder, dupOld := index(a.Metrics)
	newM, newOrder, dupNew := index(b.Metrics)
	for _, k := range dupOld {
		c.Warnings = append(c.Warnings, fmt.Sprintf("metric %s appears more than once in the old run; comparing the first", k))
	}
	for _, k := range dupNew {
		c.Warnings = append(c.Warnings, fmt.Sprintf("metric %s appears more than once in the new run; comparing the first", k))
	}

	groupOf := map[string]int{}
	for _, k := range oldOrder {
		om := oldM[k]
		nm, ok := newM[k]
		if !ok {
			c.OnlyOld = append(c.OnlyOld, k)
			continue
		}
		if om.Unit != nm.Unit {
			c.Warnings = append(c.Warnings, fmt.Sprintf("metric %s has unit %q in the old run and %q in the new run; not compared", k, om.Unit, nm.Unit))
			continue
		}
		row := compareMetric(om, nm, opt)
		gi, ok := groupOf[om.Unit]
		if !ok {
			gi = len(c.Groups)
			groupOf[om.Unit] = gi
			c.Groups = append(c.Groups, Group{Unit: om.Unit})
		}
		c.Groups[gi].Rows = append(c.Groups[gi].Rows, row)
	}
	for _, k := range newOrder {
		if _, ok := oldM[k]; !ok {
			c.OnlyNew = append(c.OnlyNew, k)
		}
	}
	for _, k := range c.OnlyOld {
		c.Warnings = append(c.Warnings, fmt.Sprintf("metric %s is only in the old run", k))
	}
	for _, k := range c.OnlyNew {
		c.Warnings = append(c.Warnings, fmt.Sprintf("metric %s is only in the new run", k))
	}
	for i := range c.Groups {
		c.Groups[i].Geomean = geomean(c.Groups[i].Rows)
	}
	c.Rankings = rankings(c.Groups)
	return c
}

func runInfo(r *results.Results) RunInfo {
	return RunInfo{RunID: r.RunID, Experiment: r.Experiment, Status: r.Status, Started: r.Started}
}

// index maps metric keys to metrics, keeping the first of duplicates.
func index(ms []results.Metric) (byKey map[string]*results.Metric, order, dups []string) {
	byKey = make(map[string]*results.Metric, len(ms))
	for i := range ms {
		k := ms[i].Key()
		if _, ok := byKey[k]; ok {
			if !slices.Contains(dups, k) {
				dups = append(dups, k)
			}
			continue
		}
		byKey[k] = &ms[i]
		order = append(order, k)
	}
	return byKey, order, dups
}

func compareMetric(om, nm *results.Metric, opt Options) Row {
	row := Row{
		Key:      om.Key(),
		Name:     om.Name,
		Labels:   om.Labels,
		Unit:     om.Unit,
		Better:   om.Better,
		Analyzer: om.Analyzer,
		Old:      Side{Samples: om.Samples, Summary: stats.Summarize(om.Samples, opt.Confidence)},
		New:      Side{Samples: nm.Samples, Summary: stats.Summarize(nm.Samples, opt.Confidence)},
		Test:     stats.CompareSamples(om.Samples, nm.Samples, opt.Alpha),
	}
	if row.Better == "" {
		row.Better = nm.Better
	}
	if om.Better != "" && nm.Better != "" && om.Better != nm.Better {
		row.Warnings = append(row.Warnings, fmt.Sprintf("better direction differs between the runs (%s vs %s); using %s", om.Better, nm.Better, om.Better))
	}

	o, n := row.Old.Median, row.New.Median
	row.Delta = math.NaN()
	if o != 0 && !math.IsNaN(o) && !math.IsNaN(n) {
		row.Delta = (n/o - 1) * 100
	} else if o == n && o == 0 {
		row.Delta = 0
	}
	row.DeltaText = row.Test.FormatDelta(o, n)
	if row.Test.Significant() && row.Delta != 0 && !math.IsNaN(row.Delta) {
		switch row.Better {
		case results.BetterLower:
			row.Change = -cmp.Compare(row.Delta, 0)
		case results.BetterHigher:
			row.Change = cmp.Compare(row.Delta, 0)
		}
	}

	// Confidence intervals.
	oldCI, newCI := row.Old.HasCI(), row.New.HasCI()
	switch {
	case !oldCI && !newCI:
		row.Warnings = append(row.Warnings, "no confidence interval: "+firstOr(row.New.Warnings, row.Old.Warnings))
	case !oldCI:
		row.Warnings = append(row.Warnings, "no confidence interval in the old run: "+firstOr(row.Old.Warnings, nil))
	case !newCI:
		row.Warnings = append(row.Warnings, "no confidence interval in the new run: "+firstOr(row.New.Warnings, nil))
	}
	row.Warnings = append(row.Warnings, row.Test.Warnings...)

	// hyperfine's hygiene: a slow first run, outliers.
	dir := 0
	switch row.Better {
	case results.BetterLower:
		dir = 1
	case results.BetterHigher:
		dir = -1
	}
	for _, s := range []struct {
		which string
		side  Side
	}{{"old", row.Old}, {"new", row.New}} {
		outliers := s.side.Outliers
		if stats.SlowFirst(s.side.Samples, dir) {
			row.Warnings = append(row.Warnings, fmt.Sprintf(
				"%s run: the first sample (%s) is far off the others; a warm-up repetition may be missing", s.which, fmtNum(s.side.Samples[0])))
			outliers = slices.DeleteFunc(slices.Clone(outliers), func(i int) bool { return i == 0 })
		}
		if len(outliers) > 0 {
			parts := make([]string, len(outliers))
			for i, idx := range outliers {
				parts[i] = fmt.Sprintf("#%d = %s", idx+1, fmtNum(s.side.Samples[idx]))
			}
			row.Warnings = append(row.Warnings, fmt.Sprintf(
				"%s run: %s beyond 10 robust standard deviations of the median (%s); consider re-running on a quiet machine",
				s.which, plural(len(outliers), "outlier", "outliers"), strings.Join(parts, ", ")))
		}
	}
	return row
}

func geomean(rows []Row) *Geomean {
	if len(rows) < 2 {
		return nil
	}
	var olds, news []float64
	skipped := 0
	for _, r := range rows {
		if r.Old.Median > 0 && r.New.Median > 0 && !math.IsInf(r.Old.Median, 0) && !math.IsInf(r.New.Median, 0) {
			olds = append(olds, r.Old.Median)
			news = append(news, r.New.Median)
		} else {
			skipped++
		}
	}
	if len(olds) == 0 {
		return nil
	}
	g := &Geomean{Old: stats.GeoMean(olds), New: stats.GeoMean(news), Rows: len(olds), Skipped: skipped}
	g.Delta = (g.New/g.Old - 1) * 100
	return g
}

// DiffFingerprints lists the environment fields that matter for performance
// and differ between a and b. Paths (storage directory, plugin paths) are
// ignored; plugins are compared by version and sha256.
func DiffFingerprints(a, b results.Fingerprint) []EnvDiff {
	var d []EnvDiff
	add := func(field, x, y string) {
		if x != y {
			d = append(d, EnvDiff{Field: field, Old: orUnknown(x), New: orUnknown(y)})
		}
	}
	itoa := func(n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprint(n)
	}
	add("hostname", a.Hostname, b.Hostname)
	add("OS", a.OS, b.OS)
	add("arch", a.Arch, b.Arch)
	add("kernel", a.Kernel, b.Kernel)
	add("CPU model", a.CPUModel, b.CPUModel)
	add("CPUs", itoa(a.CPUs), itoa(b.CPUs))
	add("memory", fmtBytes(a.MemoryBytes), fmtBytes(b.MemoryBytes))
	add("Go version", a.GoVersion, b.GoVersion)
	add("droidprof version", a.DroidprofVersion, b.DroidprofVersion)
	add("droidprof commit", a.DroidprofCommit, b.DroidprofCommit)
	if len(a.Volumes) == 0 || len(b.Volumes) == 0 {
		add("storage backend", a.StorageBackend, b.StorageBackend)
		add("filesystem", a.FSType, b.FSType)
		add("mount options", a.MountOptions, b.MountOptions)
	} else {
		d = append(d, diffVolumes(a.Volumes, b.Volumes)...)
	}
	add("config sha256", short(a.ConfigSHA256), short(b.ConfigSHA256))

	names := make([]string, 0, len(a.Plugins)+len(b.Plugins))
	for n := range a.Plugins {
		names = append(names, n)
	}
	for n := range b.Plugins {
		if _, ok := a.Plugins[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		pa, okA := a.Plugins[n]
		pb, okB := b.Plugins[n]
		describe := func(p results.Plugin, ok bool) string {
			if !ok {
				return "(absent)"
			}
			s := orUnknown(p.Version)
			if p.SHA256 != "" {
				s += " sha256 " + short(p.SHA256)
			}
			return s
		}
		if okA != okB || pa.Version != pb.Version || pa.SHA256 != pb.SHA256 {
			d = append(d, EnvDiff{Field: "plugin " + n, Old: describe(pa, okA), New: describe(pb, okB)})
		}
	}
	return d
}

// diffVolumes compares the storage volumes of two runs, matched by the
// matrix cells they served (by position when those differ). Loop devices,
// images and mount points are paths that change from run to run and are
// ignored; a block device is not.
func diffVolumes(a, b []results.Volume) []EnvDiff {
	var d []EnvDiff
	if len(a) != len(b) {
		d = append(d, EnvDiff{Field: "storage volumes", Old: fmt.Sprint(len(a)), New: fmt.Sprint(len(b))})
	}
	key := func(v results.Volume) string { return strings.Join(v.Cells, "; ") }
	used := map[int]bool{}
	for i, va := range a {
		j := -1
		for k, vb := range b {
			if !used[k] && key(vb) == key(va) {
				j = k
				break
			}
		}
		if j < 0 && i < len(b) && !used[i] {
			j = i
		}
		if j < 0 {
			continue
		}
		used[j] = true
		vb := b[j]
		name := "storage"
		if len(a) > 1 || len(b) > 1 {
			name = fmt.Sprintf("storage %d", i+1)
			if k := key(va); k != "" {
				name += " (" + k + ")"
			}
		}
		add := func(field, x, y string) {
			if x != y {
				d = append(d, EnvDiff{Field: name + " " + field, Old: orUnknown(x), New: orUnknown(y)})
			}
		}
		add("backend", va.Backend, vb.Backend)
		add("filesystem", va.FSType, vb.FSType)
		add("mount options", va.MountOptions, vb.MountOptions)
		add("mkfs options", strings.Join(va.MkfsOptions, " "), strings.Join(vb.MkfsOptions, " "))
		if va.Backend == "device" || vb.Backend == "device" {
			add("device", va.Device, vb.Device)
		}
		add("size", fmtBytes(va.SizeBytes), fmtBytes(vb.SizeBytes))
	}
	return d
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

// short abbreviates a hex digest to 12 characters.
func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func fmtBytes(n int64) string {
	if n <= 0 {
		return ""
	}
	const gib = 1 << 30
	if n >= gib {
		return fmt.Sprintf("%.1f GiB", float64(n)/gib)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

func fmtNum(x float64) string {
	return fmt.Sprintf("%.6g", x)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func firstOr(a, b []string) string {
	if len(a) > 0 {
		return a[0]
	}
	if len(b) > 0 {
		return b[0]
	}
	return "too few samples"
}
