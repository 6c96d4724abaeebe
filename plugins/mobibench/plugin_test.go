package mobibench

import (
	"context"
	"encoding/json"
	"github.com/droidprof/droidprof/internal/testenv"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/storage/fileio"
)

func TestConformance(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	sdktest.Conformance(t, c)
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "mobibench" || info.Version != "0.1.0" || len(info.Collectors) != 3 || len(info.Analyzers) != 1 {
		t.Fatalf("info %v", info)
	}
	needs := map[string]string{}
	for _, c := range info.Collectors {
		for _, tool := range c.Needs {
			needs[c.Name] += tool.Name + "/" + tool.Package
		}
	}
	if want := map[string]string{"fio": "fio/fio", "sqlite3": "sqlite3/sqlite3"}; !maps.Equal(needs, want) {
		t.Errorf("collectors need %v, want %v", needs, want)
	}
	defaults := map[string]string{}
	for _, f := range info.Collectors[0].Fields {
		defaults[f.Name] = f.Default
	}
	want := map[string]string{"access": "0", "sync": "0", "threads": "1", "file_size": "1048576", "io_size": "4096", "overlap": "0", "drop_caches": "false", "latency_log": "false", "iops_log": "false"}
	for k, v := range want {
		if defaults[k] != v {
			t.Errorf("default of %s = %q, want %q (Mobibench's)", k, defaults[k], v)
		}
	}
	dbDefaults := map[string]string{}
	for _, f := range info.Collectors[0].Fields {
		if f.Name == "db" {
			for _, b := range f.Block {
				dbDefaults[b.Name] = b.Default
			}
		}
	}
	// Mobibench's -n 10, -T 3, -D 1, -j 1 (TRUNCATE), -s 2 (FULL), and the
	// test off.
	for k, v := range map[string]string{"op": `"off"`, "transactions": "10", "tables": "3", "databases": "1", "interval_ms": "0", "page_size": "4096", "journal_mode": `"TRUNCATE"`, "synchronous": `"FULL"`, "mode2013": "false"} {
		if dbDefaults[k] != v {
			t.Errorf("default of db.%s = %q, want %q", k, dbDefaults[k], v)
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name    string
		in      Config
		want    [3]int // access, sync, threads
		wantErr string
	}{
		{"no preset", Config{Access: 3, Sync: 5, Threads: 2}, [3]int{3, 5, 2}, ""},
		{"preset over defaults", Config{Preset: "randwrite-fsync-4t", Threads: 1}, [3]int{1, 2, 4}, ""},
		{"preset agreeing with a key", Config{Preset: "seqwrite-direct", Sync: 3, Threads: 1}, [3]int{0, 3, 1}, ""},
		{"preset contradicted", Config{Preset: "seqwrite-direct", Sync: 5, Threads: 1}, [3]int{}, `preset "seqwrite-direct" sets sync = 3, but the config also says sync = 5`},
		{"unknown preset", Config{Preset: "nope", Threads: 1}, [3]int{}, `unknown preset "nope"`},
		{"preset with size", Config{Preset: "randwrite-fsync@16MiB", Threads: 1, FileSize: 1 << 20}, [3]int{1, 2, 1}, ""},
		{"preset size contradicted", Config{Preset: "randwrite-fsync@16MiB", Threads: 1, FileSize: 2 << 20}, [3]int{}, `preset "randwrite-fsync@16MiB" sets file_size = 16MiB, but the config also says file_size = 2MiB`},
		{"preset bad size", Config{Preset: "randwrite-fsync@lots", Threads: 1}, [3]int{}, `invalid size "lots"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ec, err := tt.in.resolve("/d")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := [3]int{int(ec.Access), int(ec.Sync), ec.Threads}
			if got != tt.want || c.Access != got[0] || c.Sync != got[1] || c.Threads != got[2] || ec.Dir != "/d" || (strings.Contains(tt.in.Preset, "@16MiB") && ec.FileSize != 16<<20) {
				t.Fatalf("resolved to %v / %+v, want %v", got, c, tt.want)
			}
		})
	}
}

// The mobibench collector through the real gRPC path: artifacts, logs, Mobibench's
// text output, cleanup of the data files, and the keep option.
func TestMobibenchCollector(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	storage := t.TempDir()
	out, err := c.Collect(context.Background(), "mobibench", map[string]any{
		"access": 1, "sync": 2, "file_size": 256 << 10, "io_size": 4096, "latency_log": true, "iops_log": true,
	}, sdktest.CollectOptions{StorageDir: storage, StepID: "rw-fsync"})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, a := range out.Artifacts {
		names[a.Name] = true
	}
	for _, n := range []string{"result.json", "mobibench.out", "latency.tsv", "iops.tsv"} {
		if !names[n] {
			t.Errorf("no artifact %s (have %v)", n, names)
		}
	}
	if len(out.Progress) == 0 {
		t.Error("no progress events")
	}
	var r Result
	readJSON(t, filepath.Join(out.StepDir, "result.json"), &r)
	if r.Collector != "mobibench" || r.IOs != 64 || r.Bytes != 256<<10 || r.IOCount != 64 || r.IOPS <= 0 || r.ThroughputKBps <= 0 ||
		r.Latency.Count != 64 || r.Latency.P50 <= 0 || r.Latency.Max < r.Latency.P99 || r.CtxVoluntary == nil || *r.CtxVoluntary < 64 {
		t.Fatalf("result %+v", r)
	}
	text, _ := os.ReadFile(filepath.Join(out.StepDir, "mobibench.out"))
	for _, re := range []string{
		`(?m)^File size per thread : 256 KB\nIO size : 4 KB\nIO count : 64 \nAccess Mode 1, Sync Mode 2\n# of Threads : 1\n`,
		`(?m)^\[CPU\] : Active,Idle,IoWait : \d+\.\d\d \d+\.\d\d \d+\.\d\d$`,
		`(?m)^\[TIME\] :\s+\d+ sec \d{6}us\. \t\d+ B/sec, \t\d+\.\d\d KB/sec, \t\d+\.\d\d MB/sec\. \d+\.\d\d IOPS\(4KB\) $`,
		`(?m)^\[CON SWITCHES\] : \d+ \d+$`,
		`(?m)^setState: 3\nErr string : No error\n\z`,
	} {
		if !regexp.MustCompile(re).Match(text) {
			t.Errorf("mobibench.out does not match %s:\n%s", re, text)
		}
	}
	lat, _ := os.ReadFile(filepath.Join(out.StepDir, "latency.tsv"))
	if n := strings.Count(string(lat), "\n"); n != 64+2 {
		t.Errorf("latency.tsv has %d lines, want 66", n)
	}
	if ents, _ := os.ReadDir(storage); len(ents) != 0 {
		t.Errorf("data left in the storage directory: %v", ents)
	}
}

func TestKeepLeavesTheDataFiles(t *testing.T) {
	storage := t.TempDir()
	e := env{ID: "k/1", OutDir: t.TempDir(), StorageDir: storage, Keep: true}
	if _, _, err := runMobibench(context.Background(), Config{Threads: 2, FileSize: 64 << 10, IOSize: 4096}, e); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if st, err := os.Stat(fileio.FileName(filepath.Join(storage, DataDirName), i)); err != nil || st.Size() != 32<<10 {
			t.Fatalf("kept file %d: %v", i, err)
		}
	}
}

func TestCollectorRejectsBeforeRunning(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	for _, comp := range []string{"mobibench", "fio"} {
		_, err := c.Collect(context.Background(), comp, map[string]any{"threads": 4, "file_size": 8192}, sdktest.CollectOptions{})
		if err == nil || !strings.Contains(err.Error(), "larger than the file size per thread") {
			t.Errorf("%s: err = %v", comp, err)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func needFio(t *testing.T) {
	t.Helper()
	testenv.Tool(t, FioBinary, "fio")
}

func TestFioJob(t *testing.T) {
	tests := []struct {
		name      string
		access    fileio.Access
		sync      fileio.Sync
		threads   int
		overlap   int
		want, not []string
		warn      string
		wantErr   string
	}{
		{"randwrite fsync", fileio.RandWrite, fileio.Fsync, 1, 0, []string{"ioengine=sync", "rw=randwrite", "fsync=1", "end_fsync=1", "overwrite=1", "bs=4096", "size=1048576", "numjobs=1", "filename_format=test.dat$jobnum", "thread=1", "group_reporting=1"}, []string{"direct=", "norandommap"}, "", ""},
		{"seq buffered, 4 threads", fileio.Write, fileio.Buffered, 4, 0, []string{"rw=write", "end_fsync=1", "numjobs=4", "size=262144"}, []string{"\nfsync=1", "\nsync=1"}, "", ""},
		{"O_SYNC", fileio.Write, fileio.OSync, 1, 0, []string{"sync=1"}, nil, "", ""},
		{"O_DIRECT", fileio.Write, fileio.Direct, 1, 0, []string{"direct=1"}, []string{"\nsync=1"}, "", ""},
		{"O_SYNC|O_DIRECT", fileio.Write, fileio.SyncDirect, 1, 0, []string{"direct=1", "sync=1"}, nil, "", ""},
		{"mmap", fileio.Write, fileio.Mmap, 1, 0, []string{"ioengine=mmap", "end_fsync=1"}, []string{"\nfsync=1"}, "", ""},
		{"mmap MS_ASYNC", fileio.Write, fileio.MmapAsync, 1, 0, []string{"ioengine=mmap"}, nil, "no msync(MS_ASYNC)", ""},
		{"mmap MS_SYNC", fileio.RandWrite, fileio.MmapSync, 1, 0, []string{"ioengine=mmap", "\nfsync=1"}, nil, "whole mapping", ""},
		{"fdatasync", fileio.Write, fileio.Fdatasync, 1, 0, []string{"fdatasync=1"}, nil, "", ""},
		{"append", fileio.Append, fileio.Buffered, 1, 0, []string{"rw=write", "overwrite=0", "fallocate=none"}, []string{"overwrite=1"}, "", ""},
		{"read", fileio.Read, fileio.Buffered, 1, 0, []string{"rw=read"}, []string{"end_fsync"}, "", ""},
		{"randread overlap", fileio.RandRead, fileio.Buffered, 1, 20, []string{"rw=randread", "norandommap=1"}, nil, "approximated", ""},
		{"fbarrier", fileio.Write, fileio.Fbarrier, 1, 0, nil, nil, "", "fio has no equivalent of sync mode 9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fileio.Config{Dir: "/data", Access: tt.access, Sync: tt.sync, Threads: tt.threads, FileSize: 1 << 20, IOSize: 4096, Overlap: tt.overlap}
			p, err := c.Validate()
			if err != nil {
				t.Fatal(err)
			}
			j, err := fioJobFor(c, p, []string{"ramp_time=0"})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range append(tt.want, "directory=/data", "ramp_time=0", "fadvise_hint=0", "invalidate=0", "\n[mobibench]\n") {
				if !strings.Contains(j.Text, w) {
					t.Errorf("job lacks %q:\n%s", w, j.Text)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(j.Text, w) {
					t.Errorf("job has %q:\n%s", w, j.Text)
				}
			}
			if got := strings.Join(j.Warnings, ";"); (tt.warn == "") != (got == "") || !strings.Contains(got, tt.warn) {
				t.Errorf("warnings %q, want %q", got, tt.warn)
			}
		})
	}
	if _, err := fioJobFor(fileio.Config{Threads: 1, IOSize: 1, FileSize: 1}, fileio.Plan{}, []string{"bogus"}); err == nil {
		t.Error("a fio option without = was accepted")
	}
}

// The fio collector against the real fio: the job must do exactly what the
// Mobibench engine does (one fsync per record, all records once) and the
// result must carry the same fields.
func TestFioCollector(t *testing.T) {
	needFio(t)
	c := sdktest.Start(t, Plugin())
	storage := t.TempDir()
	out, err := c.Collect(context.Background(), "fio", map[string]any{
		"preset": "randwrite-fsync", "file_size": 512 << 10, "latency_log": true, "iops_log": true,
	}, sdktest.CollectOptions{StorageDir: storage})
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	readJSON(t, filepath.Join(out.StepDir, "result.json"), &r)
	if r.Collector != "fio" || r.Access != 1 || r.Sync != 2 || r.IOs != 128 || r.Bytes != 512<<10 || r.IOPS <= 0 || r.ElapsedNS <= 0 ||
		r.Latency.P50 <= 0 || r.SyncLatency == nil || r.SyncLatency.Count < 127 || r.CtxTotal <= 0 || r.ToolSysCPU == nil || r.FSType == "" {
		t.Fatalf("result %+v, sync latency %+v", r, r.SyncLatency)
	}
	var raw fioOutput
	readJSON(t, filepath.Join(out.StepDir, "fio.json"), &raw)
	// fio folds its end_fsync into the last per-I/O fsync and leaves that
	// one out of its sync statistics (strace shows 128 fsync calls).
	if w, s := raw.Jobs[0].Write.TotalIOs, raw.Jobs[0].Sync.TotalIOs; w != 128 || s < 127 || s > 128 {
		t.Fatalf("fio did %d writes and %d syncs, want 128 and 127..128", w, s)
	}
	lat, _ := os.ReadFile(filepath.Join(out.StepDir, "latency.tsv"))
	if n := strings.Count(string(lat), "\n"); n != 128+2 {
		t.Errorf("latency.tsv has %d lines, want 130", n)
	}
	iops, _ := os.ReadFile(filepath.Join(out.StepDir, "iops.tsv"))
	if !strings.HasPrefix(string(iops), "second\tios\tkbps\n") {
		t.Errorf("iops.tsv: %q", iops)
	}
	if ents, _ := os.ReadDir(storage); len(ents) != 0 {
		t.Errorf("data left in the storage directory: %v", ents)
	}
}

func TestFioMissing(t *testing.T) {
	old := FioBinary
	FioBinary = "droidprof-no-such-fio"
	defer func() { FioBinary = old }()
	_, _, err := runFio(context.Background(), Config{Threads: 1, FileSize: 1 << 20, IOSize: 4096}, env{OutDir: t.TempDir(), StorageDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "needs the fio binary on PATH") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseFio(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
	}{
		{"warning before JSON", "fio: something odd\n{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"m\",\"error\":0}]}", ""},
		{"job error", `{"jobs":[{"jobname":"m","error":28}]}`, "error 28 (no space left on device)"},
		{"no jobs", `{"jobs":[]}`, "no jobs"},
		{"not JSON", `oops`, "not the expected JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFio([]byte(tt.in))
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// Both collectors over two cells, then the analyzer, all through gRPC.
func TestAnalyzerOverBothCollectors(t *testing.T) {
	needFio(t)
	c := sdktest.Start(t, Plugin())
	run, storage := t.TempDir(), t.TempDir()
	var steps []*sdk.StepArtifacts
	cells := map[string]map[string]any{
		"randwrite-fsync":   {"preset": "randwrite-fsync", "file_size": 256 << 10},
		"seqwrite-buffered": {"preset": "seqwrite-buffered", "file_size": 1 << 20},
	}
	for cell, cfg := range cells {
		for rep := 0; rep < 2; rep++ {
			for _, comp := range []string{"mobibench", "fio"} {
				labels := map[string]string{"case": cell}
				out, err := c.Collect(context.Background(), comp, cfg, sdktest.CollectOptions{RunDir: run, StorageDir: storage, StepID: cell + "-" + comp + "-" + string(rune('0'+rep)), Labels: labels, Repetition: rep})
				if err != nil {
					t.Fatalf("%s %s: %v", cell, comp, err)
				}
				steps = append(steps, out.Step("mobibench."+comp, labels, rep))
			}
		}
	}
	resp, err := c.Analyze(context.Background(), "mobibench", nil, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range resp.Metrics {
		got[m.Name+"/"+m.Labels["case"]+"/"+m.Labels["collector"]] = len(m.Samples)
	}
	for _, k := range []string{"iops/randwrite-fsync/mobibench", "iops/randwrite-fsync/fio", "throughput/seqwrite-buffered/mobibench", "throughput/seqwrite-buffered/fio",
		"elapsed/randwrite-fsync/fio", "cpu_active/randwrite-fsync/mobibench", "ctx_voluntary/randwrite-fsync/mobibench", "latency_p99/seqwrite-buffered/fio"} {
		if got[k] != 2 {
			t.Errorf("metric %s has %d samples, want 2 (all: %v)", k, got[k], got)
		}
	}
	if got["ctx_voluntary/randwrite-fsync/fio"] != 0 || got["throughput/randwrite-fsync/mobibench"] != 0 {
		t.Errorf("unexpected metrics: %v", got)
	}
	tables := map[string]*sdk.Table{}
	for _, tb := range resp.Tables {
		tables[tb.Name] = tb
	}
	if tb := tables["medians"]; tb == nil || len(tb.Rows) != 4 {
		t.Fatalf("medians table: %v", tb)
	}
	ratios := tables["ratio_vs_fio"]
	if ratios == nil {
		t.Fatal("no ratio table")
	}
	found := false
	for _, row := range ratios.Rows {
		if row[0] == "case=randwrite-fsync" && row[1] == "iops" {
			found = true
		}
	}
	if !found || !strings.Contains(resp.Summary, "case=randwrite-fsync iops") {
		t.Errorf("ratio rows %v, summary %q", ratios.Rows, resp.Summary)
	}
}

// The analyzer's arithmetic on hand-made results.
func TestBuildResult(t *testing.T) {
	a := &sdk.Analysis{RunDir: t.TempDir(), OutDir: t.TempDir()}
	res := a.NewResult()
	mk := func(col string, iops float64) sample {
		v := int64(1)
		return sample{labels: map[string]string{"case": "x", "collector": col}, cell: "case=x", res: &Result{Collector: col, Access: 1, IOPS: iops, ElapsedNS: 1e9, CPUSource: "t", CtxVoluntary: &v, CtxInvoluntary: &v}}
	}
	withLat := mk("fio", 125)
	withLat.res.Latency = Latency{Count: 10, P50: 7000, P99: 9000}
	withLat.res.SyncLatency = &Latency{Count: 10, P50: 200000, P99: 300000}
	for _, m := range withLat.values() {
		if m.name == MetricLatencyP50 && m.v != 207 || m.name == MetricLatencyP99 && m.v != 309 {
			t.Errorf("fio %s = %v µs, want write + sync", m.name, m.v)
		}
	}
	sum := buildResult(res, []sample{mk("mobibench", 90), mk("mobibench", 110), mk("mobibench", 100), mk("fio", 200), mk("fio", 50)}, "")
	if !strings.Contains(sum, "case=x iops 0.80×") {
		t.Fatalf("summary %q, want median 100 / median 125 = 0.80", sum)
	}
	r := res.Output()
	for _, tb := range r.Tables {
		if tb.Name == "ratio_vs_fio" && (tb.Rows[0][1] != "iops" || tb.Rows[0][4] != "0.800") {
			t.Fatalf("ratio row %v", tb.Rows[0])
		}
	}
}
