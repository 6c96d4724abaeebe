package most

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/storage/revmap"
)

func TestConformance(t *testing.T) {
	sdktest.Conformance(t, sdktest.Start(t, Plugin()))
}

const fixture = "testdata/sqlite-delete"

// importFixture runs the import collector on the recorded trace through
// the real gRPC path and returns the run directory and its step.
func importFixture(t *testing.T, c *sdktest.Conn, cfg map[string]any, labels map[string]string, rep int) (string, *sdk.StepArtifacts) {
	t.Helper()
	run := t.TempDir()
	out, err := c.Collect(context.Background(), "import", cfg, sdktest.CollectOptions{RunDir: run, StepID: "import-" + strconv.Itoa(rep), Labels: labels, Repetition: rep})
	if err != nil {
		t.Fatal(err)
	}
	return run, out.Step("most.import", labels, rep)
}

// The analyzer on a trace captured elsewhere, without root: the recorded
// SQLite DELETE-journal run gives the paper's tables in kind.
func TestAnalyzeImportedTrace(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run, step := importFixture(t, c, map[string]any{
		"trace": filepath.Join(fixture, TraceFile), "fsmap": filepath.Join(fixture, FSMapFile), "names": filepath.Join(fixture, NamesFile),
	}, nil, 0)
	out, err := c.Analyze(context.Background(), "most", nil, run, []*sdk.StepArtifacts{step})
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*sdk.Table{}
	for _, tb := range out.Tables {
		tables[tb.Name] = tb
	}
	ft := tables["file-types"]
	if ft == nil {
		t.Fatalf("no file-types table (have %v)", slices.Collect(func(yield func(string) bool) {
			for k := range tables {
				if !yield(k) {
					return
				}
			}
		}))
	}
	writes := map[string]int{}
	for _, r := range ft.Rows {
		n, _ := strconv.Atoi(r[4])
		writes[r[0]] = n
	}
	if writes[string(revmap.ClassDB)] == 0 || writes[string(revmap.ClassJournal)] == 0 || writes[string(revmap.ClassNone)] == 0 {
		t.Errorf("writes by file type %v: want the database, its journal and the filesystem's own", writes)
	}
	bt := tables["block-types"]
	types := map[string]bool{}
	for _, r := range bt.Rows {
		types[r[0]] = true
	}
	for _, want := range []string{"journal", "data", "inode_table"} {
		if !types[want] {
			t.Errorf("block-types table has no %s row: %v", want, bt.Rows)
		}
	}
	for _, name := range []string{"processes", "sizes", "pattern", "latency", "io"} {
		if tables[name] == nil || len(tables[name].Rows) == 0 {
			t.Errorf("table %s missing or empty", name)
		}
	}
	figs := 0
	for _, a := range out.Artifacts {
		if a.Kind == sdk.KindFigure {
			figs++
			if data, err := os.ReadFile(filepath.Join(run, a.Path)); err != nil || !strings.Contains(string(data), "<svg") {
				t.Errorf("figure %s: %v", a.Path, err)
			}
		}
	}
	if figs != 2 {
		t.Errorf("%d figures, want Fig. 14a and 14b", figs)
	}
	metrics := map[string]float64{}
	for _, m := range out.Metrics {
		metrics[m.Name] = m.Samples[0]
	}
	if metrics["requests"] == 0 || metrics["written_journal_share"] <= 0 || metrics["write_requests_sqlite_journal_share"] <= 0 {
		t.Errorf("metrics %v", metrics)
	}
	if !strings.Contains(out.Summary, "named retrospectively") {
		t.Errorf("summary %q", out.Summary)
	}
}

// MOST's TSV through the import collector and the analyzer.
func TestAnalyzeImportedMostTSV(t *testing.T) {
	tsv := "0.1\tD\tWS\t2048\t8\t103336\tGCMReader\n" +
		"0.2\tC\tWS\t2048\t8\t103336\tGCMReader\tD\t/data/x/rmq.db-journal\n" +
		"0.3\tC\tWSM\t4096\t8\t150\tjbd2/mmcblk0p12\tJ\n"
	p := filepath.Join(t.TempDir(), "result.po")
	if err := os.WriteFile(p, []byte(tsv), 0o644); err != nil {
		t.Fatal(err)
	}
	c := sdktest.Start(t, Plugin())
	run, step := importFixture(t, c, map[string]any{"trace": p}, nil, 0)
	out, err := c.Analyze(context.Background(), "most", nil, run, []*sdk.StepArtifacts{step})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range out.Tables {
		if tb.Name != "file-types" {
			continue
		}
		got := map[string]string{}
		for _, r := range tb.Rows {
			got[r[0]] = r[4]
		}
		if got[string(revmap.ClassJournal)] != "1" || got[string(revmap.ClassNone)] != "1" {
			t.Errorf("writes by file type %v", got)
		}
		return
	}
	t.Fatal("no file-types table")
}

// An imported trace with a malformed line fails the analysis with the line
// named.
func TestAnalyzeMalformedTrace(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixture, TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[4] = "     this is not an ftrace line\n"
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	c := sdktest.Start(t, Plugin())
	run, step := importFixture(t, c, map[string]any{"trace": bad}, nil, 0)
	_, err = c.Analyze(context.Background(), "most", nil, run, []*sdk.StepArtifacts{step})
	if err == nil || !strings.Contains(err.Error(), "line 5") {
		t.Fatalf("err = %v, want it to name line 5", err)
	}
}

func TestAttributeRequests(t *testing.T) {
	trace := strings.Join([]string{
		"  app-10 [000] .... 1.000000: block_bio_queue: 8,0 W 100 + 8 [app]",
		"  app-10 [000] .... 1.000001: block_bio_queue: 8,0 W 108 + 8 [app]", // merged behind the first
		"  kworker/0:1-5 [000] .... 1.000010: block_rq_issue: 8,0 W 8192 () 100 + 16 none,0,0 [kworker/0:1]",
		"  <idle>-0 [001] .... 1.000100: block_rq_complete: 8,0 W () 100 + 8 none,0,0 [0]", // partial
		"  <idle>-0 [001] .... 1.000200: block_rq_complete: 8,0 W () 108 + 8 none,0,0 [0]",
		"  jbd2/sda-8 [000] .... 1.000300: block_rq_issue: 8,0 FF 0 () 0 + 0 none,0,0 [jbd2/sda-8]",
		// A flush completes at sector -1; a write's flush sequence
		// ends with a completion of no sectors.
		"  <idle>-0 [001] .... 1.000400: block_rq_complete: 8,0 FF () 18446744073709551615 + 0 none,0,0 [0]",
		"  <idle>-0 [001] .... 1.000410: block_rq_complete: 8,0 WSM () 100 + 0 none,0,0 [0]",
		// The superblock at sector 0, behind the flush issued there.
		"  sb-12 [000] .... 1.000420: block_getrq: 8,0 WS 0 + 8 [sb]",
		"  sb-12 [000] .... 1.000430: block_rq_issue: 8,0 WS 4096 () 0 + 8 none,0,0 [sb]",
		"  <idle>-0 [001] .... 1.000440: block_rq_complete: 8,0 WS () 0 + 8 none,0,0 [0]",
		"  <idle>-0 [001] .... 1.000500: block_rq_complete: 8,0 R () 500 + 8 none,0,0 [0]", // issued before the trace
		"  cat-11 [000] .... 1.000600: block_rq_issue: 9,0 R 4096 () 1 + 8 none,0,0 [cat]", // another device
		"  <idle>-0 [001] .... 1.000700: block_rq_complete: 9,0 R () 1 + 8 none,0,0 [0]",
		"",
	}, "\n")
	att, err := Attribute(strings.NewReader(trace), Meta{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(att.IOs) != 4 || att.Flushes != 1 || att.Unissued != 1 {
		t.Fatalf("ios %d flushes %d unissued %d: %+v", len(att.IOs), att.Flushes, att.Unissued, att.IOs)
	}
	a, b, sb, c := att.IOs[0], att.IOs[1], att.IOs[2], att.IOs[3]
	if sb.Sector != 0 || sb.Comm != "sb" || sb.Latency() != 10_000 {
		t.Errorf("the superblock's write %+v: want sb's, issued at 1.000430", sb)
	}
	if a.Sector != 100 || a.Sectors != 8 || b.Sector != 108 || b.Sectors != 8 || a.Pid != 10 || a.Comm != "app" || b.Comm != "app" {
		t.Errorf("partial completions %+v %+v", a, b)
	}
	if a.Latency() != 90_000 || c.Latency() != -1 || c.Pid != -1 {
		t.Errorf("latencies %d %d, unissued pid %d", a.Latency(), c.Latency(), c.Pid)
	}
	if a.Class != revmap.ClassNone || a.Major != 8 {
		t.Errorf("without a map: class %v, device %d", a.Class, a.Major)
	}
	if _, err := Attribute(strings.NewReader("  a-1 [000] .... 1.0: block_rq_issue: 8,0 W x () 1 + y [a]\n"), Meta{}, nil, nil); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("malformed block event: err = %v", err)
	}
}

// A flusher's write of a file names the process that dirtied it, from
// either dirtier event; a flusher's own dirtying is not taken.
func TestAttributeWritebackDirtier(t *testing.T) {
	m := revmap.NewMap(4096, 1000, []revmap.Extent{{Start: 100, Len: 10, Type: revmap.Data, Ino: 12}}, map[uint32]string{12: "/f"})
	for _, tc := range []struct {
		name  string
		dirty []string // the dirtier events, in time order before the writeback
		want  string   // DirtyComm of the flusher's write
	}{
		{"inode", []string{
			"  app-10 [000] .... 1.000000: writeback_dirty_inode_enqueue: dev 8,0 ino 12 dirtied 4295 state I_DIRTY_SYNC mode 0100644",
			"  kworker/u8:1-5 [000] .... 1.000100: writeback_dirty_inode_enqueue: dev 8,0 ino 12 dirtied 4296 state I_DIRTY_PAGES mode 0100644",
			"  other-11 [000] .... 1.000200: writeback_dirty_inode_enqueue: dev 8,0 ino 13 dirtied 4296 state I_DIRTY_PAGES mode 0100644",
			"  other-11 [000] .... 1.000300: writeback_dirty_inode_enqueue: dev 9,0 ino 12 dirtied 4296 state I_DIRTY_PAGES mode 0100644",
		}, "app"},
		{"page", []string{
			"  other-11 [000] .... 1.000000: writeback_dirty_folio: bdi 8:0: ino=12 index=0",
			"  app-10 [000] .... 1.000100: writeback_dirty_folio: bdi 8:0: ino=12 index=1",
			"  kworker/u8:1-5 [000] .... 1.000200: writeback_dirty_folio: bdi 8:0: ino=12 index=1",
		}, "app"},
		{"none", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace := strings.Join(append(tc.dirty,
				"  kworker/u8:1-5 [000] .... 1.001000: block_getrq: 8,0 W 800 + 8 [kworker/u8:1]",
				"  kworker/u8:1-5 [000] .... 1.001001: block_rq_issue: 8,0 W 4096 () 800 + 8 none,0,0 [kworker/u8:1]",
				"  <idle>-0 [001] .... 1.001100: block_rq_complete: 8,0 W () 800 + 8 none,0,0 [0]",
				""), "\n")
			att, err := Attribute(strings.NewReader(trace), Meta{Major: 8, Minor: 0}, m, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(att.IOs) != 1 || att.IOs[0].File != "/f" || att.IOs[0].DirtyComm != tc.want {
				t.Fatalf("%+v: want the write of /f dirtied by %q", att.IOs, tc.want)
			}
		})
	}
}

// The journal thread's commit names the process behind the committed
// transaction: the one that started the most of its handles, else the one
// whose fsync forced it, else the one that dirtied the most inodes since
// the previous commit began.
func TestAttributeJournalCommit(t *testing.T) {
	m := revmap.NewMap(4096, 1000, []revmap.Extent{{Start: 500, Len: 100, Type: revmap.Journal}}, nil)
	const (
		appSync   = "  app-10 [000] .... 1.000000: ext4_sync_file_enter: dev 8,0 ino 12 parent 2 datasync 1 "
		otherSync = "  other-11 [000] .... 1.000000: ext4_sync_file_enter: dev 8,0 ino 13 parent 2 datasync 1 "
		appDirty  = "  app-10 [000] .... 1.000000: writeback_dirty_inode_enqueue: dev 8,0 ino 12 dirtied 4295 state I_DIRTY_SYNC mode 0100644"
		// Two inodes of other's, one of a flusher's (not a dirtier).
		otherDirty = "  other-11 [000] .... 1.000000: writeback_dirty_inode_enqueue: dev 8,0 ino 13 dirtied 4295 state I_DIRTY_SYNC mode 0100644\n" +
			"  other-11 [000] .... 1.000000: writeback_dirty_inode_enqueue: dev 8,0 ino 14 dirtied 4295 state I_DIRTY_SYNC mode 0100644\n" +
			"  kworker/u8:1-5 [000] .... 1.000000: writeback_dirty_inode_enqueue: dev 8,0 ino 12 dirtied 4296 state I_DIRTY_PAGES mode 0100644\n" +
			"  kworker/u8:1-5 [000] .... 1.000000: writeback_dirty_inode_enqueue: dev 8,0 ino 15 dirtied 4296 state I_DIRTY_PAGES mode 0100644\n" +
			"  kworker/u8:1-5 [000] .... 1.000000: writeback_dirty_inode_enqueue: dev 8,0 ino 16 dirtied 4296 state I_DIRTY_PAGES mode 0100644"
		appHandle   = "  app-10 [000] .... 1.000000: jbd2_handle_start: dev 8,0 tid 5 type 1 line_no 6095 requested_blocks 1"
		otherHandle = "  other-11 [000] .... 1.000000: jbd2_handle_start: dev 8,0 tid 5 type 1 line_no 6095 requested_blocks 1"
		elsewhere   = "  app-10 [000] .... 1.000000: ext4_sync_file_enter: dev 9,0 ino 12 parent 2 datasync 1 "
	)
	// commit writes the journal thread's commit of transaction tid at
	// sector 4000+tid*8 (blocks 500…).
	commit := func(tid int) string {
		s := fmt.Sprint(4000 + tid*8)
		return strings.Join([]string{
			fmt.Sprintf("  jbd2/sda-8 [000] .... 1.000000: jbd2_start_commit: dev 8,0 transaction %d sync 0", tid),
			"  jbd2/sda-8 [000] .... 1.000000: block_getrq: 8,0 WS " + s + " + 8 [jbd2/sda-8]",
			"  jbd2/sda-8 [000] .... 1.000000: block_rq_issue: 8,0 WS 4096 () " + s + " + 8 none,0,0 [jbd2/sda-8]",
			"  <idle>-0 [001] .... 1.000000: block_rq_complete: 8,0 WS () " + s + " + 8 none,0,0 [0]",
			fmt.Sprintf("  jbd2/sda-8 [000] .... 1.000000: jbd2_end_commit: dev 8,0 transaction %d sync 0 head 4", tid),
		}, "\n")
	}
	for _, tc := range []struct {
		name  string
		trace []string
		want  []string // DirtyComm of each commit's write
	}{
		{"handles", []string{otherHandle, appHandle, appHandle, otherSync, commit(5)}, []string{"app"}},
		{"fsync over dirtiers", []string{otherDirty, appSync, commit(5)}, []string{"app"}},
		{"dirtiers without fsync", []string{appDirty, otherDirty, elsewhere, commit(5)}, []string{"other"}},
		// An fsync during commit 5 forces the next one.
		{"fsync during a commit", []string{otherDirty, commit(5), appSync, commit(6)}, []string{"other", "app"}},
		{"nothing known", []string{elsewhere, commit(5)}, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace := strings.Join(tc.trace, "\n") + "\n"
			att, err := Attribute(strings.NewReader(trace), Meta{Major: 8, Minor: 0}, m, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range att.IOs {
				if o.Type != revmap.Journal {
					t.Errorf("%+v: not a journal write", o)
				}
				got = append(got, o.DirtyComm)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("commits attributed to %q, want %q", got, tc.want)
			}
		})
	}
}
