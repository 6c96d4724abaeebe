package most

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/chart"
	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/storage/revmap"
)

// stepData is one step's attributed trace.
type stepData struct {
	step *sdk.StepArtifacts
	meta Meta
	att  *Attribution
	bs   int64
}

// loadStep attributes one step's trace from its artifacts.
func loadStep(a *sdk.Analysis, st *sdk.StepArtifacts) (*stepData, error) {
	tr := sdk.Find(st, TraceFile)
	if tr == nil {
		return nil, fmt.Errorf("step %s: no %s", st.ID, TraceFile)
	}
	d := &stepData{step: st, bs: 4096}
	if m := sdk.Find(st, MetaFile); m != nil {
		if err := a.ReadJSON(m, &d.meta); err != nil {
			return nil, err
		}
	}
	var fs *revmap.Map
	if m := sdk.Find(st, FSMapFile); m != nil {
		var f FSMap
		if err := a.ReadJSON(m, &f); err != nil {
			return nil, err
		}
		fs = f.Map()
		d.bs = int64(f.BlockSize)
	}
	var names []revmap.NameEvent
	if m := sdk.Find(st, NamesFile); m != nil {
		if err := a.ReadJSON(m, &names); err != nil {
			return nil, err
		}
	}
	f, err := os.Open(a.Path(tr))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d.att, err = Attribute(f, d.meta, fs, names)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Path, err)
	}
	return d, nil
}

func analyze(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	var cfg AnalyzerConfig
	if err := a.Decode(&cfg); err != nil {
		return nil, err
	}
	res := a.NewResult()
	cells := map[string][]*stepData{}
	cellLabels := map[string]map[string]string{}
	var errs []error
	for _, st := range a.Steps {
		if st.Status != "ok" || sdk.Find(st, TraceFile) == nil {
			continue
		}
		d, err := loadStep(a, st)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		key := cellKey(st.Labels)
		cells[key] = append(cells[key], d)
		cellLabels[key] = st.Labels
		sampleMetrics(res, d)
		if err := res.File(st.ID+"-io.tsv", "text/tab-separated-values", "per-I/O table of step "+st.ID, ioTSV(d.att.IOs)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(cells) == 0 {
		return res, errors.Join(append(errs, errors.New("most: no step with a trace to analyse"))...)
	}
	keys := slices.Sorted(maps.Keys(cells))
	var summary []string
	for _, key := range keys {
		ds := cells[key]
		var ios []IO
		var lost, flushes int64
		for _, d := range ds {
			ios = append(ios, d.att.IOs...)
			lost += d.att.Lost + d.meta.Overrun
			flushes += int64(d.att.Flushes)
		}
		suffix, title := "", ""
		if key != "" {
			suffix, title = "-"+sanitize(key), " ("+key+")"
		}
		bs := ds[0].bs
		t := tabulate(ios, bs)
		res.Table("file-types"+suffix, "I/O by file type"+title+" (the paper's Fig. 14a)", t.fileCols, t.fileRows)
		res.Table("block-types"+suffix, "I/O by block type"+title+" (Fig. 14b), counted in filesystem blocks", t.blockCols, t.blockRows)
		res.Table("processes"+suffix, "I/O by submitting process"+title, t.procCols, t.procRows)
		res.Table("sizes"+suffix, "request sizes"+title, t.sizeCols, t.sizeRows)
		res.Table("pattern"+suffix, "random vs sequential, synchronous vs buffered"+title, t.patCols, t.patRows)
		res.Table("latency"+suffix, "latency (issue → complete) per file type"+title, t.latCols, t.latRows)
		if cfg.TableRows > 0 {
			res.Table("io"+suffix, fmt.Sprintf("the first %d I/Os%s (all in the step's -io.tsv)", cfg.TableRows, title), ioColumns, ioRows(ios, cfg.TableRows))
		}
		if err := figures(res, suffix, title, ios, bs); err != nil {
			errs = append(errs, err)
		}
		summary = append(summary, summarize(key, ios, bs, lost, flushes))
	}
	res.Summary(strings.Join(summary, "\n\n"))
	return res, errors.Join(errs...)
}

func cellKey(labels map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		parts = append(parts, k+"="+labels[k])
	}
	return strings.Join(parts, ",")
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// sampleMetrics adds one sample per metric for a step.
func sampleMetrics(res *sdk.Result, d *stepData) {
	labels := d.step.Labels
	var rKB, wKB, wBlocks float64
	var wReq, wRandom, wSync float64
	catBlocks := map[string]float64{}
	classReq := map[revmap.Class]float64{}
	var rLat, wLat []float64
	for i := range d.att.IOs {
		o := &d.att.IOs[i]
		kb := float64(o.Bytes()) / 1024
		if !o.Write() {
			if o.Dir() == "R" {
				rKB += kb
				if l := o.Latency(); l >= 0 {
					rLat = append(rLat, float64(l)/1e3)
				}
			}
			continue
		}
		wKB += kb
		wReq++
		classReq[o.Class]++
		if !o.Sequential {
			wRandom++
		}
		if o.Sync() {
			wSync++
		}
		if l := o.Latency(); l >= 0 {
			wLat = append(wLat, float64(l)/1e3)
		}
		for typ, n := range o.TypeBlocks {
			catBlocks[revmap.BlockType(typ).Category()] += float64(n)
			wBlocks += float64(n)
		}
	}
	pct := func(x, of float64) float64 {
		if of == 0 {
			return 0
		}
		return 100 * x / of
	}
	res.Sample("requests", "requests", sdk.LowerIsBetter, labels, float64(len(d.att.IOs)))
	res.Sample("read", "KiB", sdk.LowerIsBetter, labels, rKB)
	res.Sample("written", "KiB", sdk.LowerIsBetter, labels, wKB)
	for _, c := range []string{"metadata", "journal", "data"} {
		res.Sample("written_"+c+"_share", "%", sdk.LowerIsBetter, labels, pct(catBlocks[c], wBlocks))
	}
	for _, c := range revmap.Classes {
		if classReq[c] > 0 {
			res.Sample("write_requests_"+strings.ReplaceAll(string(c), "-", "_")+"_share", "%", sdk.LowerIsBetter, labels, pct(classReq[c], wReq))
		}
	}
	res.Sample("random_write_share", "%", sdk.LowerIsBetter, labels, pct(wRandom, wReq))
	res.Sample("sync_write_share", "%", sdk.LowerIsBetter, labels, pct(wSync, wReq))
	if len(wLat) > 0 {
		res.Sample("write_latency_p50", "µs", sdk.LowerIsBetter, labels, stats.Median(wLat))
	}
	if len(rLat) > 0 {
		res.Sample("read_latency_p50", "µs", sdk.LowerIsBetter, labels, stats.Median(rLat))
	}
	res.Sample("lost_events", "events", sdk.LowerIsBetter, labels, float64(d.att.Lost+d.meta.Overrun))
	if m := d.meta.Oracle; m != nil {
		res.Sample("oracle_ours_matched", "%", sdk.HigherIsBetter, labels, m.OursPct)
		res.Sample("oracle_blktrace_matched", "%", sdk.HigherIsBetter, labels, m.TheirsPct)
	}
}

// tables holds a cell's tables.
type tables struct {
	fileCols, blockCols, procCols, sizeCols, patCols, latCols []string
	fileRows, blockRows, procRows, sizeRows, patRows, latRows [][]string
}

type rw struct {
	n  [2]int64 // reads, writes
	kb [2]float64
}

func dirIndex(o *IO) int {
	if o.Write() {
		return 1
	}
	return 0
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

func share(x, of float64) string {
	if of == 0 {
		return "0.0"
	}
	return f1(100 * x / of)
}

func tabulate(ios []IO, bs int64) *tables {
	t := &tables{}
	var total [2]float64
	var totalKB [2]float64
	byClass := map[revmap.Class]*rw{}
	byType := map[revmap.BlockType]*rw{}
	byProc := map[string]*rw{}
	onBehalf := map[string]map[string]int64{}
	sizes := map[int64]*rw{}
	lat := map[[2]string][]float64{}
	var seq, sync [2][2]int64
	for i := range ios {
		o := &ios[i]
		d := dirIndex(o)
		if o.Dir() != "R" && o.Dir() != "W" {
			continue
		}
		kb := float64(o.Bytes()) / 1024
		total[d]++
		totalKB[d] += kb
		get := func(m map[revmap.Class]*rw, k revmap.Class) *rw {
			if m[k] == nil {
				m[k] = &rw{}
			}
			return m[k]
		}
		c := get(byClass, o.Class)
		c.n[d]++
		c.kb[d] += kb
		for typ, n := range o.TypeBlocks {
			if n == 0 {
				continue
			}
			bt := revmap.BlockType(typ)
			if byType[bt] == nil {
				byType[bt] = &rw{}
			}
			byType[bt].n[d] += int64(n)
			byType[bt].kb[d] += float64(int64(n)*bs) / 1024
		}
		proc := o.Comm
		if proc == "" {
			proc = "(unknown)"
		}
		if byProc[proc] == nil {
			byProc[proc] = &rw{}
		}
		byProc[proc].n[d]++
		byProc[proc].kb[d] += kb
		if o.DirtyComm != "" {
			if onBehalf[proc] == nil {
				onBehalf[proc] = map[string]int64{}
			}
			onBehalf[proc][fmt.Sprintf("%s (%d)", o.DirtyComm, o.DirtyPid)]++
		}
		sz := int64(1)
		for sz*1024 < o.Bytes() {
			sz *= 2
		}
		if sizes[sz] == nil {
			sizes[sz] = &rw{}
		}
		sizes[sz].n[d]++
		if o.Sequential {
			seq[d][1]++
		} else {
			seq[d][0]++
		}
		if o.Sync() {
			sync[d][1]++
		} else {
			sync[d][0]++
		}
		if l := o.Latency(); l >= 0 {
			k := [2]string{string(o.Class), o.Dir()}
			lat[k] = append(lat[k], float64(l)/1e3)
		}
	}
	t.fileCols = []string{"file type", "reads", "read KiB", "% of reads", "writes", "written KiB", "% of writes"}
	for _, c := range revmap.Classes {
		r := byClass[c]
		if r == nil {
			continue
		}
		t.fileRows = append(t.fileRows, []string{string(c), strconv.FormatInt(r.n[0], 10), f1(r.kb[0]), share(float64(r.n[0]), total[0]),
			strconv.FormatInt(r.n[1], 10), f1(r.kb[1]), share(float64(r.n[1]), total[1])})
	}
	t.blockCols = []string{"block type", "category", "blocks read", "read KiB", "blocks written", "written KiB", "% of written"}
	var wBlocks float64
	for _, r := range byType {
		wBlocks += float64(r.n[1])
	}
	for typ := revmap.Unknown; typ < revmap.NumBlockTypes; typ++ {
		r := byType[typ]
		if r == nil {
			continue
		}
		t.blockRows = append(t.blockRows, []string{typ.String(), typ.Category(), strconv.FormatInt(r.n[0], 10), f1(r.kb[0]),
			strconv.FormatInt(r.n[1], 10), f1(r.kb[1]), share(float64(r.n[1]), wBlocks)})
	}
	t.procCols = []string{"process", "reads", "read KiB", "writes", "written KiB", "% of writes", "writing for (top)"}
	procs := slices.Collect(maps.Keys(byProc))
	sort.Slice(procs, func(i, j int) bool {
		a, b := byProc[procs[i]], byProc[procs[j]]
		if a.n[0]+a.n[1] != b.n[0]+b.n[1] {
			return a.n[0]+a.n[1] > b.n[0]+b.n[1]
		}
		return procs[i] < procs[j]
	})
	for _, p := range procs {
		r := byProc[p]
		top, topN := "", int64(0)
		for who, n := range onBehalf[p] {
			if n > topN || n == topN && who < top {
				top, topN = who, n
			}
		}
		t.procRows = append(t.procRows, []string{p, strconv.FormatInt(r.n[0], 10), f1(r.kb[0]), strconv.FormatInt(r.n[1], 10), f1(r.kb[1]), share(float64(r.n[1]), total[1]), top})
	}
	t.sizeCols = []string{"size ≤ KiB", "reads", "writes"}
	for _, sz := range slices.Sorted(maps.Keys(sizes)) {
		t.sizeRows = append(t.sizeRows, []string{strconv.FormatInt(sz, 10), strconv.FormatInt(sizes[sz].n[0], 10), strconv.FormatInt(sizes[sz].n[1], 10)})
	}
	t.patCols = []string{"direction", "requests", "random", "% random", "sequential", "synchronous", "% synchronous", "buffered"}
	for d, name := range []string{"read", "write"} {
		n := float64(seq[d][0] + seq[d][1])
		t.patRows = append(t.patRows, []string{name, strconv.FormatFloat(n, 'f', 0, 64), strconv.FormatInt(seq[d][0], 10), share(float64(seq[d][0]), n),
			strconv.FormatInt(seq[d][1], 10), strconv.FormatInt(sync[d][1], 10), share(float64(sync[d][1]), n), strconv.FormatInt(sync[d][0], 10)})
	}
	t.latCols = []string{"file type", "direction", "requests", "p50 µs", "p95 µs", "max µs"}
	latKeys := slices.Collect(maps.Keys(lat))
	sort.Slice(latKeys, func(i, j int) bool {
		ci, cj := slices.Index(revmap.Classes, revmap.Class(latKeys[i][0])), slices.Index(revmap.Classes, revmap.Class(latKeys[j][0]))
		if ci != cj {
			return ci < cj
		}
		return latKeys[i][1] < latKeys[j][1]
	})
	for _, k := range latKeys {
		v := lat[k]
		t.latRows = append(t.latRows, []string{k[0], k[1], strconv.Itoa(len(v)), f1(stats.Median(v)), f1(stats.Quantile(v, 0.95)), f1(stats.Max(v))})
	}
	return t
}

// figures draws Fig. 14 in kind for a cell.
func figures(res *sdk.Result, suffix, title string, ios []IO, bs int64) error {
	var total [2]float64
	byClass := map[revmap.Class]*[2]float64{}
	byCat := map[string]*[2]float64{}
	var totalBlocks [2]float64
	for i := range ios {
		o := &ios[i]
		if o.Dir() != "R" && o.Dir() != "W" {
			continue
		}
		d := dirIndex(o)
		total[d]++
		if byClass[o.Class] == nil {
			byClass[o.Class] = &[2]float64{}
		}
		byClass[o.Class][d]++
		for typ, n := range o.TypeBlocks {
			c := revmap.BlockType(typ).Category()
			if byCat[c] == nil {
				byCat[c] = &[2]float64{}
			}
			byCat[c][d] += float64(n)
			totalBlocks[d] += float64(n)
		}
	}
	pct := func(x, of float64) float64 {
		if of == 0 {
			return 0
		}
		return 100 * x / of
	}
	var classes []string
	r, w := chart.Series{Name: "read"}, chart.Series{Name: "write"}
	for _, c := range revmap.Classes {
		if v := byClass[c]; v != nil {
			classes = append(classes, string(c))
			r.Values = append(r.Values, pct(v[0], total[0]))
			w.Values = append(w.Values, pct(v[1], total[1]))
		}
	}
	fa := &chart.BarChart{Title: "I/O by file type" + title, Categories: classes, Series: []chart.Series{r, w}, YLabel: "share of requests", Unit: "%", XLabel: "file type"}
	if err := res.Figure("fig14a-file-types"+suffix+".svg", "Fig. 14a in kind: requests by file type"+title, fa.SVG()); err != nil {
		return err
	}
	var cats []string
	r, w = chart.Series{Name: "read"}, chart.Series{Name: "write"}
	for _, c := range []string{"metadata", "journal", "data", "unknown"} {
		if v := byCat[c]; v != nil {
			cats = append(cats, c)
			r.Values = append(r.Values, pct(v[0], totalBlocks[0]))
			w.Values = append(w.Values, pct(v[1], totalBlocks[1]))
		}
	}
	fb := &chart.BarChart{Title: "I/O by block type" + title, Categories: cats, Series: []chart.Series{r, w}, YLabel: "share of blocks", Unit: "%", XLabel: "block type"}
	return res.Figure("fig14b-block-types"+suffix+".svg", "Fig. 14b in kind: blocks by block type"+title, fb.SVG())
}

func summarize(key string, ios []IO, bs int64, lost, flushes int64) string {
	var wReq, sqliteW float64
	var wBlocks float64
	cat := map[string]float64{}
	deleted := map[string]bool{}
	for i := range ios {
		o := &ios[i]
		if o.Deleted && o.File != "" {
			deleted[o.File] = true
		}
		if !o.Write() {
			continue
		}
		wReq++
		switch o.Class {
		case revmap.ClassDB, revmap.ClassJournal, revmap.ClassWAL, revmap.ClassSHM:
			sqliteW++
		}
		for typ, n := range o.TypeBlocks {
			cat[revmap.BlockType(typ).Category()] += float64(n)
			wBlocks += float64(n)
		}
	}
	head := "**most**"
	if key != "" {
		head += " (" + key + ")"
	}
	s := fmt.Sprintf("%s: %d requests (%d writes, %d flushes). SQLite files took %s %% of the write requests; of the written blocks %s %% were filesystem metadata, %s %% the ext4 journal and %s %% data; %d files deleted during the trace were named retrospectively.",
		head, len(ios), int(wReq), flushes, share(sqliteW, wReq), share(cat["metadata"], wBlocks), share(cat["journal"], wBlocks), share(cat["data"], wBlocks), len(deleted))
	if lost > 0 {
		s += fmt.Sprintf(" **The trace lost %d events**: raise buffer_kb.", lost)
	}
	return s
}

var ioColumns = []string{"complete s", "R/W", "sector", "KiB", "pid", "process", "for", "block type", "file", "file type", "deleted", "latency µs"}

func ioRow(o *IO) []string {
	forWho := ""
	if o.DirtyComm != "" {
		forWho = fmt.Sprintf("%s (%d)", o.DirtyComm, o.DirtyPid)
	}
	lat := ""
	if l := o.Latency(); l >= 0 {
		lat = f1(float64(l) / 1e3)
	}
	del := ""
	if o.Deleted {
		del = "yes"
	}
	return []string{strconv.FormatFloat(float64(o.Complete)/1e9, 'f', 6, 64), o.RWBS, strconv.FormatUint(o.Sector, 10), f1(float64(o.Bytes()) / 1024),
		strconv.Itoa(o.Pid), o.Comm, forWho, o.Type.String(), o.File, string(o.Class), del, lat}
}

func ioRows(ios []IO, n int) [][]string {
	var rows [][]string
	for i := 0; i < len(ios) && i < n; i++ {
		rows = append(rows, ioRow(&ios[i]))
	}
	return rows
}

// ioTSV is the per-I/O table, MOST's result.po in kind.
func ioTSV(ios []IO) []byte {
	var b bytes.Buffer
	b.WriteString(strings.Join(ioColumns, "\t") + "\n")
	for i := range ios {
		b.WriteString(strings.Join(ioRow(&ios[i]), "\t") + "\n")
	}
	return b.Bytes()
}
