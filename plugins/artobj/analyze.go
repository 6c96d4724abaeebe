package artobj

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/chart"
	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/plugins/artobj/chain"
	"github.com/droidprof/droidprof/plugins/artobj/events"
	"github.com/droidprof/droidprof/plugins/artobj/heapprof"
	"github.com/droidprof/droidprof/plugins/artobj/leak"
	"github.com/droidprof/droidprof/plugins/artobj/replay"
)

// step is one collector step's data.
type step struct {
	id     string
	name   string // the program and its settings, for table rows and file names
	labels map[string]string
	res    Result
	f      *events.File
	h      *chain.Heap
	// incomplete says why the step did not finish ("" if it did): the
	// host's status for a collector that failed or was interrupted, or a
	// result.json the collector never got to rewrite.
	incomplete string
}

func analyze(ctx context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	var cfg AnalyzerConfig
	if err := a.Decode(&cfg); err != nil {
		return nil, err
	}
	var replayBase uint32
	if cfg.ReplayBase != "" {
		v, err := strconv.ParseUint(cfg.ReplayBase, 0, 32)
		if err != nil {
			return nil, fmt.Errorf("artobj: replay_base %q: want an address such as 0x12c00000", cfg.ReplayBase)
		}
		replayBase = uint32(v)
	}
	var steps []*step
	for _, st := range a.Steps {
		// A step that failed or was interrupted (its collector killed,
		// the run stopped) is analysed as far as its events go, marked
		// incomplete; the host hands over the files it left.
		ra, ea := sdk.Find(st, ResultFile), sdk.Find(st, EventsFile)
		if ea == nil || ra == nil && (st.Status == "" || st.Status == "ok") {
			continue
		}
		s := &step{id: st.ID, labels: st.Labels}
		if st.Status != "" && st.Status != "ok" {
			s.incomplete = "step " + st.Status
			if st.Error != "" {
				s.incomplete += ": " + st.Error
			}
		}
		if ra != nil {
			if err := a.ReadJSON(ra, &s.res); err != nil {
				return nil, fmt.Errorf("step %s: %w", st.ID, err)
			}
		}
		if s.res.Unfinished && s.incomplete == "" {
			s.incomplete = "the collector did not finish (its result.json is the one written before the program ran)"
		}
		f, err := events.ReadFile(a.Path(ea))
		if err != nil {
			return nil, fmt.Errorf("step %s: %w", st.ID, err)
		}
		if ra == nil { // killed before its result.json: the settings the file records
			s.res.Main, s.res.Collector, s.res.Engine, s.res.Barriers = "?", f.Run.Collector, f.Run.Engine, f.Run.Barriers
		}
		s.f, s.h = f, chain.Build(f)
		s.name = stepName(s)
		steps = append(steps, s)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	res := a.NewResult()
	if len(steps) == 0 {
		res.Summary("No artobj steps with results.")
		return res, nil
	}
	var summary strings.Builder
	programTable(res, steps, &summary)
	deathTimes(res, steps, &summary)
	spaceTable(res, steps)
	timeTable(res, steps, &summary)
	// The detail tables and figures of each program, once (its first
	// repetition): the metrics above hold every repetition.
	seen := map[string]bool{}
	for _, s := range steps {
		// An incomplete step's figures would pass for a whole run's in
		// comparisons: it gets tables, not metrics.
		if s.incomplete == "" {
			sampleMetrics(res, s)
		}
		if seen[s.name] {
			continue
		}
		seen[s.name] = true
		if err := detail(res, s, cfg.Top, &summary); err != nil {
			return nil, err
		}
		if err := replayFigure(res, s, replayBase, uint32(cfg.ReplaySize)); err != nil {
			return nil, err
		}
	}
	res.Summary(summary.String())
	return res, nil
}

// stepName names a step by its program and the settings its labels and
// result give.
func stepName(s *step) string {
	parts := []string{cmp.Or(s.res.Workload, s.res.Main), s.res.Collector, s.res.Engine}
	if s.res.Barriers != "off" {
		parts = append(parts, "barriers="+s.res.Barriers)
	}
	if s.res.StressAll {
		parts = append(parts, "gc_stress_all")
	}
	if s.incomplete != "" {
		parts = append(parts, "incomplete")
	}
	for _, k := range slices.Sorted(maps.Keys(s.labels)) {
		v := s.labels[k]
		if !slices.Contains(parts, v) && !slices.Contains(parts, k+"="+v) {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// fileName is a step name made safe for a file name.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		}
		return '_'
	}, name)
}

// group is the objects of one allocation site or class.
type group struct {
	key                uint32
	objects, alive     int
	bytes              uint64
	lifetime           uint64 // Σ lifetime in collections
	lifeBytes          uint64 // Σ lifetime in bytes allocated
	youngDead          int    // died at the first collection after birth
	hist               [nBuckets]int
	accessed, drag     int // objects with access information; Σ epochs from last use to death
	uses               int // Σ epochs accessed
	accessedLifeEpochs int // Σ lifetime + 1 of the accessed ones (for the access frequency)
}

// histBuckets are the lifetime classes of the survival histogram, in
// collections survived (the last is "alive at exit").
var histBuckets = [nBuckets]string{"0", "1", "2", "3–4", "5–8", "9–16", "17+", "alive at exit"}

const nBuckets = 8

func bucket(o *chain.Object, epochs uint32) int {
	if o.Death == chain.Alive {
		return len(histBuckets) - 1
	}
	switch l := o.Lifetime(epochs); {
	case l <= 2:
		return int(l)
	case l <= 4:
		return 3
	case l <= 8:
		return 4
	case l <= 16:
		return 5
	}
	return 6
}

// groups sums the objects of h by key, largest (in objects) first.
func groups(h *chain.Heap, key func(*chain.Object) uint32) []*group {
	byKey := map[uint32]*group{}
	accessInfo := h.AccessEpochs > 0
	for i := range h.Objects {
		o := &h.Objects[i]
		k := key(o)
		g := byKey[k]
		if g == nil {
			g = &group{key: k}
			byKey[k] = g
		}
		g.objects++
		g.bytes += uint64(o.Size)
		life := o.Lifetime(h.Epochs)
		g.lifetime += uint64(life)
		g.lifeBytes += o.DeathBytes - o.BirthBytes
		g.hist[bucket(o, h.Epochs)]++
		if o.Death == chain.Alive {
			g.alive++
		} else if life <= 1 {
			g.youngDead++
		}
		if accessInfo && o.Main {
			g.accessed++
			g.uses += o.Uses
			g.accessedLifeEpochs += int(life) + 1
			if o.Death != chain.Alive {
				last := max(o.LastUse, int64(o.Birth))
				g.drag += int(o.Death - last)
			}
		}
	}
	out := slices.Collect(maps.Values(byKey))
	slices.SortFunc(out, func(a, b *group) int {
		return cmp.Or(cmp.Compare(b.objects, a.objects), cmp.Compare(b.bytes, a.bytes), cmp.Compare(a.key, b.key))
	})
	return out
}

func siteName(f *events.File, id uint32) string {
	if id == 0 {
		return "(the VM)"
	}
	if s, ok := f.Sites[id]; ok {
		return s.String()
	}
	return fmt.Sprintf("site #%d", id)
}

func className(f *events.File, id uint32) string {
	if n, ok := f.Classes[id]; ok {
		return n
	}
	return fmt.Sprintf("class #%d", id)
}

func pct(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", 100*float64(n)/float64(of))
}

func mean(sum uint64, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(sum)/float64(n))
}

func partialNote(s *step) string {
	var notes []string
	if s.incomplete != "" {
		notes = append(notes, "incomplete: "+s.incomplete)
	}
	if s.f.Partial {
		notes = append(notes, "partial: "+s.f.Problem)
	}
	return strings.Join(notes, "; ")
}

// programTable is the paper's Table 2 in kind: per program, objects,
// allocation sites, collections and the top site.
func programTable(res *sdk.Result, steps []*step, summary *strings.Builder) {
	var rows [][]string
	for _, s := range steps {
		h := s.h
		sites := groups(h, func(o *chain.Object) uint32 { return o.Site })
		top, topShare := "–", "–"
		if len(sites) > 0 {
			top, topShare = siteName(s.f, sites[0].key), pct(sites[0].objects, len(h.Objects))
		}
		alive := 0
		for i := range h.Objects {
			if h.Objects[i].Death == chain.Alive {
				alive++
			}
		}
		exit := strconv.Itoa(s.res.ExitCode)
		if s.incomplete != "" {
			exit = "–" // the program did not get to exit
		}
		rows = append(rows, []string{s.name, exit, strconv.Itoa(len(h.Objects)), strconv.Itoa(len(sites)), strconv.Itoa(int(h.Epochs)),
			sdk.Size(h.AllocBytes).String(), strconv.Itoa(alive), top, topShare, partialNote(s)})
		switch {
		case s.incomplete != "" && s.f.Partial:
			fmt.Fprintf(summary, "**%s: the run is incomplete** (%s) and its event file partial (%s); what is complete is analysed. ", s.name, s.incomplete, s.f.Problem)
		case s.incomplete != "":
			fmt.Fprintf(summary, "**%s: the run is incomplete** (%s); its event file is whole and analysed. ", s.name, s.incomplete)
		case s.f.Partial:
			fmt.Fprintf(summary, "**%s: the event file is partial** (%s); what is complete is analysed. ", s.name, s.f.Problem)
		}
	}
	res.Table("programs", "Programs profiled (paper 003 Table 2 in kind)",
		[]string{"program", "exit", "objects", "allocation sites", "GCs", "allocated", "alive at exit", "top site", "top site % of objects", "note"}, rows)
}

// spaceTable is the paper's Table 1 in kind: the access bitmap is 1/64
// of the heap; the events go to a file, not to the heap.
func spaceTable(res *sdk.Result, steps []*step) {
	var rows [][]string
	for _, s := range steps {
		bm := s.res.BitmapBytes
		note := ""
		if bm == 0 {
			note = "no access bitmap (barriers off)"
		}
		perEvent := "–"
		if s.res.Records > 0 {
			perEvent = fmt.Sprintf("%.1f", float64(s.res.EventBytes)/float64(s.res.Records))
		}
		minHeap := "–"
		if s.res.MinHeap > 0 {
			minHeap = sdk.Size(s.res.MinHeap).String()
		}
		rows = append(rows, []string{s.name, sdk.Size(s.res.HeapMax).String(), minHeap, sdk.Size(bm).String(),
			fmt.Sprintf("%.3f", 100*float64(bm)/float64(max(s.res.HeapMax, 1))), sdk.Size(s.res.EventBytes).String(), strconv.FormatInt(s.res.Records, 10), perEvent, note})
	}
	res.Table("space", "Space overhead: the access bitmap in memory (heap/64, paper 003 Table 1) and the event file on disk",
		[]string{"program", "heap max", "min heap", "bitmap", "bitmap % of heap", "event file", "events", "bytes per event", "note"}, rows)
}

// overheads returns the time overhead split of a step measured with
// Config.Overhead, in % of the unprofiled run's median CPU time: the
// barriers (barriers-only run), the event output (profiled less
// barriers-only) and the total (profiled).
func overheads(r Result) (barriers, output, total float64, ok bool) {
	o := r.Overhead
	if o == nil || len(o.Base) == 0 || len(o.Profiled) == 0 {
		return 0, 0, 0, false
	}
	base := medianNS(o.Base)
	total = 100 * (medianNS(o.Profiled) - base) / base
	if len(o.Barriers) > 0 {
		barriers = 100 * (medianNS(o.Barriers) - base) / base
	}
	return barriers, total - barriers, total, true
}

func medianNS(xs []int64) float64 {
	fs := make([]float64, len(xs))
	for i, x := range xs {
		fs[i] = float64(x)
	}
	return stats.Median(fs)
}

// timeTable is Fig. 5 in kind: the time overhead split into barriers and
// event output, for the steps that measured it.
func timeTable(res *sdk.Result, steps []*step, summary *strings.Builder) {
	var rows [][]string
	var cats []string
	var bars, outs []float64
	for _, s := range steps {
		b, o, t, ok := overheads(s.res)
		if !ok {
			continue
		}
		ms := func(xs []int64) string {
			if len(xs) == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f", medianNS(xs)/1e6)
		}
		ov := s.res.Overhead
		rows = append(rows, []string{s.name, strconv.Itoa(len(ov.Base)), ms(ov.Base), ms(ov.Barriers), ms(ov.Profiled),
			fmt.Sprintf("%+.1f", b), fmt.Sprintf("%+.1f", o), fmt.Sprintf("%+.1f", t)})
		cats = append(cats, s.name+" #"+s.id)
		bars, outs = append(bars, b), append(outs, o)
	}
	if len(rows) == 0 {
		return
	}
	res.Table("time", "Time overhead against the unprofiled run (process CPU time during the run, medians of side-by-side rounds)",
		[]string{"program", "rounds", "unprofiled ms", "barriers only ms", "profiled ms", "barriers %", "event output %", "total %"}, rows)
	bc := &chart.BarChart{Title: "artobj time overhead (paper 003 Fig. 5 in kind)", Categories: cats, YLabel: "overhead", Unit: "%",
		Series: []chart.Series{{Name: "barriers", Values: bars}, {Name: "event output", Values: outs}}}
	if err := res.Figure("time-overhead.svg", "Time overhead: barriers and event output", bc.SVG()); err == nil {
		fmt.Fprintf(summary, "Time overhead measured for %d runs (table \"time\"). ", len(rows))
	}
}

// sampleMetrics adds one sample per repetition of the step's figures.
func sampleMetrics(res *sdk.Result, s *step) {
	labels := maps.Clone(s.labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels["program"] = cmp.Or(s.res.Workload, s.res.Main)
	labels["collector"], labels["engine"], labels["barriers"] = s.res.Collector, s.res.Engine, s.res.Barriers
	h := s.h
	res.Sample("objects", "count", 0, labels, float64(len(h.Objects)))
	res.Sample("gcs", "count", 0, labels, float64(h.Epochs))
	res.Sample("allocated", "bytes", 0, labels, float64(h.AllocBytes))
	res.Sample("event_bytes", "bytes", sdk.LowerIsBetter, labels, float64(s.res.EventBytes))
	res.Sample("bitmap_bytes", "bytes", sdk.LowerIsBetter, labels, float64(s.res.BitmapBytes))
	res.Sample("run_time", "ns", sdk.LowerIsBetter, labels, float64(s.res.RunNanos))
	var life uint64
	for i := range h.Objects {
		life += uint64(h.Objects[i].Lifetime(h.Epochs))
	}
	if len(h.Objects) > 0 {
		res.Sample("mean_lifetime", "GCs", 0, labels, float64(life)/float64(len(h.Objects)))
	}
	if b, o, t, ok := overheads(s.res); ok {
		res.Sample("overhead_total", "%", sdk.LowerIsBetter, labels, t)
		res.Sample("overhead_output", "%", sdk.LowerIsBetter, labels, o)
		if len(s.res.Overhead.Barriers) > 0 {
			res.Sample("overhead_barriers", "%", sdk.LowerIsBetter, labels, b)
		}
	}
}

// detail writes one program's tables and figures: top sites and
// classes (Tables 3–4 in kind), survival per class (Fig. 8 in kind) and
// the leak ranking.
func detail(res *sdk.Result, s *step, top int, summary *strings.Builder) error {
	h, f := s.h, s.f
	prefix := fileName(s.name) + "-"
	n := len(h.Objects)
	access := h.AccessEpochs > 0
	cols := []string{"objects", "% of objects", "bytes", "mean lifetime (GCs)", "mean lifetime (bytes allocated)", "dead at first GC %", "alive at exit"}
	if access {
		cols = append(cols, "mean GCs from last use to death", "access frequency (epochs used / lived)")
	}
	row := func(name string, g *group) []string {
		r := []string{name, strconv.Itoa(g.objects), pct(g.objects, n), sdk.Size(g.bytes).String(), mean(g.lifetime, g.objects),
			mean(g.lifeBytes, g.objects), pct(g.youngDead, g.objects), strconv.Itoa(g.alive)}
		if access {
			r = append(r, mean(uint64(g.drag), g.accessed-g.alive), mean(uint64(g.uses), g.accessedLifeEpochs))
		}
		return r
	}
	sites := groups(h, func(o *chain.Object) uint32 { return o.Site })
	var rows [][]string
	for _, g := range sites[:min(top, len(sites))] {
		rows = append(rows, row(siteName(f, g.key), g))
	}
	res.Table(prefix+"sites", "Top allocation sites of "+s.name+" (paper 003 Table 3 in kind)", append([]string{"site"}, cols...), rows)

	classes := groups(h, func(o *chain.Object) uint32 { return o.Class })
	rows = nil
	for _, g := range classes[:min(top, len(classes))] {
		rows = append(rows, row(className(f, g.key), g))
	}
	res.Table(prefix+"classes", "Top classes of "+s.name+" (paper 003 Table 4 in kind)", append([]string{"class"}, cols...), rows)

	// Survival histogram per class: % of its objects by collections survived.
	rows = nil
	bc := &chart.BarChart{Title: "Lifetime of the top classes of " + s.name, YLabel: "objects", Unit: "%", XLabel: "class"}
	series := make([]chart.Series, len(histBuckets))
	for i, b := range histBuckets {
		series[i].Name = b + " GCs"
		if i == len(histBuckets)-1 {
			series[i].Name = b
		}
	}
	for _, g := range classes[:min(top, len(classes))] {
		r := []string{className(f, g.key)}
		for i, c := range g.hist {
			r = append(r, strconv.Itoa(c))
			series[i].Values = append(series[i].Values, 100*float64(c)/float64(g.objects))
		}
		rows = append(rows, r)
		bc.Categories = append(bc.Categories, className(f, g.key))
	}
	bc.Series = series
	res.Table(prefix+"survival", "Objects of the top classes of "+s.name+" by collections survived", append([]string{"class"}, histBuckets[:]...), rows)
	if err := res.Figure(prefix+"survival.svg", "Lifetime (collections survived) of the top classes of "+s.name, bc.SVG()); err != nil {
		return err
	}
	if len(classes) > 0 && h.Epochs > 0 {
		if err := epochFigure(res, s, classes[0].key, prefix); err != nil {
			return err
		}
	}

	var prof bytes.Buffer
	if err := heapprof.Write(&prof, f, h); err != nil {
		return err
	}
	if err := res.File(prefix+"heap.pb.gz", "application/vnd.google.protobuf+gzip", "pprof heap profile of "+s.name+" (go tool pprof -sample_index=alloc_space)", prof.Bytes()); err != nil {
		return err
	}

	// The leak ranking.
	bySite := leak.Rank(h, func(o *chain.Object) uint32 { return o.Site })
	byClass := leak.Rank(h, func(o *chain.Object) uint32 { return o.Class })
	leakRows := func(ranked []leak.Score, name func(uint32) string) [][]string {
		var rows [][]string
		for i, sc := range ranked[:min(top, len(ranked))] {
			rows = append(rows, []string{strconv.Itoa(i + 1), name(sc.Key), fmt.Sprintf("%.0f", sc.Score), strconv.Itoa(int(sc.Epoch)),
				strconv.Itoa(sc.Objects), sdk.Size(sc.Bytes).String(), fmt.Sprintf("%.2f", sc.Stale)})
		}
		return rows
	}
	how := "staleness from the access bitmaps"
	if !access {
		how = "no access bitmap: staleness is age (run with barriers on the aot engine for last use)"
	}
	leakCols := []string{"rank", "", "score (bytes × GCs stale)", "at GC", "live objects", "live bytes", "mean staleness (GCs)"}
	leakCols[1] = "site"
	res.Table(prefix+"leak-sites", "Leak ranking of the allocation sites of "+s.name+" ("+how+")", slices.Clone(leakCols), leakRows(bySite, func(k uint32) string { return siteName(f, k) }))
	leakCols[1] = "class"
	res.Table(prefix+"leak-classes", "Leak ranking of the classes of "+s.name+" ("+how+")", leakCols, leakRows(byClass, func(k uint32) string { return className(f, k) }))

	fmt.Fprintf(summary, "\n\n**%s**: %d objects from %d allocation sites, %d GCs", s.name, n, len(sites), h.Epochs)
	if len(sites) > 0 {
		fmt.Fprintf(summary, "; top site %s (%s %% of objects)", siteName(f, sites[0].key), pct(sites[0].objects, n))
	}
	if len(bySite) > 0 && len(byClass) > 0 {
		fmt.Fprintf(summary, "; likeliest leak: %s at %s (%s live at GC %d, mean staleness %.1f GCs)", className(f, byClass[0].Key), siteName(f, bySite[0].Key),
			sdk.Size(bySite[0].Bytes), bySite[0].Epoch, bySite[0].Stale)
	}
	summary.WriteString(".")
	return nil
}

// epochFigure is Fig. 8 in kind: how many objects of a class are
// allocated in each epoch and how many each collection frees.
func epochFigure(res *sdk.Result, s *step, class uint32, prefix string) error {
	h := s.h
	n := int(h.Epochs) + 1
	alloc, freed := make([]float64, n), make([]float64, n)
	for i := range h.Objects {
		o := &h.Objects[i]
		if o.Class != class {
			continue
		}
		alloc[o.Birth]++
		if o.Death != chain.Alive {
			freed[o.Death]++
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)
	}
	name := className(s.f, class)
	lc := &chart.LineChart{Title: name + " in " + s.name + ": allocated per epoch, freed per GC", XLabel: "GC epoch", YLabel: "objects", YFromZero: true,
		Series: []chart.Series{{Name: "allocated", X: x, Values: alloc}, {Name: "freed", X: x, Values: freed}}}
	return res.Figure(prefix+"top-class-epochs.svg", "Allocations and collections of "+name+" per GC epoch (paper 003 Fig. 8 in kind)", lc.SVG())
}

// replayFigure is Fig. 7 in kind: allocation and collection in a heap
// window over the run.
func replayFigure(res *sdk.Result, s *step, base, size uint32) error {
	if base == 0 && len(s.f.Run.Main) > 0 {
		base = s.f.Run.Main[0][0]
	}
	title := fmt.Sprintf("Heap replay of %s: %#x–%#x", s.name, base, uint64(base)+uint64(size))
	svg, n := replay.SVG(s.h, replay.Window{Base: base, Size: size}, title, 960, 480)
	if n == 0 {
		return nil // nothing lived in the window
	}
	if err := res.Figure(fileName(s.name)+"-replay.svg", fmt.Sprintf("%s (%d objects; paper 003 Fig. 7 in kind)", title, n), svg); err != nil {
		return err
	}
	// The animated view: the report shows the page in a frame.
	page, _ := replay.HTML(s.h, replay.Window{Base: base, Size: size}, title)
	return res.Page(fileName(s.name)+"-replay.html", fmt.Sprintf("%s, animated: play, pause, scrub, speed (%d objects)", title, n), page)
}
