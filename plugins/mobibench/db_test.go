package mobibench

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/dbbench"
)

func needSQLite3(t *testing.T) {
	t.Helper()
	testenv.Tool(t, SQLite3Binary, "sqlite3")
}

// dbCell is insert, WAL, FULL, 2 databases, 2 threads: the config of the
// package documentation's example.
var dbCell = map[string]any{"threads": 2, "db": map[string]any{"op": "insert", "journal_mode": "WAL", "synchronous": "FULL", "databases": 2, "transactions": 40}}

// Both DB collectors through the real gRPC path: artifacts, Mobibench's DB
// text output, the DB information read back, and no files left behind.
func TestDBCollectors(t *testing.T) {
	needSQLite3(t)
	c := sdktest.Start(t, Plugin())
	for _, comp := range []string{"mobibench", "sqlite3"} {
		t.Run(comp, func(t *testing.T) {
			storage := t.TempDir()
			out, err := c.Collect(context.Background(), comp, dbCell, sdktest.CollectOptions{StorageDir: storage, StepID: "db-" + comp})
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]bool{}
			for _, a := range out.Artifacts {
				names[a.Name] = true
			}
			want := []string{"result.json", "mobibench.out"}
			if comp == "sqlite3" {
				want = []string{"result.json", "sqlite3-setup.0.sql", "sqlite3.0.sql", "sqlite3-setup.1.sql", "sqlite3.1.sql"}
			}
			for _, n := range want {
				if !names[n] {
					t.Errorf("no artifact %s (have %v)", n, names)
				}
			}
			var r Result
			readJSON(t, filepath.Join(out.StepDir, "result.json"), &r)
			d := r.DB
			if r.Collector != comp || d == nil || d.Transactions != 40 || d.TransactionsPerThread != 20 || d.TPS <= 0 || r.ElapsedNS <= 0 ||
				d.JournalMode != "WAL" || d.Databases != 2 || len(d.Info) != 2 || d.Info[1].JournalMode != "wal" || d.Info[0].Synchronous != 2 || d.Info[1].PageSize != 4096 ||
				!strings.HasPrefix(d.SQLiteVersion, "3.") || r.CtxTotal <= 0 || r.CPUSource == "" {
				t.Fatalf("result %+v, db %+v", r, d)
			}
			if comp == "mobibench" {
				if r.Latency.Count != 40 || r.Latency.P50 <= 0 || r.CtxVoluntary == nil {
					t.Errorf("latency %+v", r.Latency)
				}
				text, _ := os.ReadFile(filepath.Join(out.StepDir, "mobibench.out"))
				for _, re := range []string{
					`(?m)^DB teset mode enabled\.\nOperation : 0\nTransactions per thread: 20\n# of Tables : 3\n# of Databases : 2\n# of Threads : 2\n`,
					`(?m)^\[DB information of db .*/test\.db0_1\]\n-+\nsqlite_version=3\.\d+\.\d+\npage_size=4096\njournal_mode=wal\nsynchronous=2\n`,
					`(?m)^\[TIME\] :\s+\d+ sec \d{6}us\. \t\d+\.\d\d Transactions/sec$`,
					`(?m)^setState: 3\nErr string : No error\n\z`,
				} {
					if !regexp.MustCompile(re).Match(text) {
						t.Errorf("mobibench.out does not match %s:\n%s", re, text)
					}
				}
			} else {
				script, _ := os.ReadFile(filepath.Join(out.StepDir, "sqlite3.1.sql"))
				if n := strings.Count(string(script), "\nBEGIN;INSERT INTO tblMyList0"); n != 20 || !strings.Contains(string(script), "PRAGMA wal_checkpoint;") {
					t.Errorf("timed script has %d transactions:\n%s", n, script)
				}
			}
			if ents, _ := os.ReadDir(storage); len(ents) != 0 {
				t.Errorf("data left in the storage directory: %v", ents)
			}
		})
	}
}

// The shell runs the same SQL on the same files: with the files kept, the
// sqlite3 shell finds the rows each collector wrote.
func TestDBCollectorsLeaveTheSameRows(t *testing.T) {
	needSQLite3(t)
	for _, op := range []string{"insert", "update", "delete"} {
		rows := map[string]string{}
		for _, comp := range []string{"mobibench", "sqlite3"} {
			storage := t.TempDir()
			e := env{OutDir: t.TempDir(), StorageDir: storage, Keep: true}
			cfg := Config{Threads: 1, DB: DBConfig{Op: op, Transactions: 12, Tables: 2, Databases: 2, PageSize: 4096, JournalMode: "DELETE", Synchronous: "NORMAL", KeepFiles: true}}
			run := runMobibench
			if comp == "sqlite3" {
				run = runSQLite3
			}
			if _, _, err := run(context.Background(), cfg, e); err != nil {
				t.Fatalf("%s %s: %v", op, comp, err)
			}
			rows[comp] = strings.Join(sqlite3Rows(t, dbbench.FileName(filepath.Join(storage, DataDirName), 0, 1)), ",")
		}
		if rows["mobibench"] != rows["sqlite3"] || rows["mobibench"] == "" {
			t.Errorf("%s: db1 rows mobibench %q, sqlite3 %q", op, rows["mobibench"], rows["sqlite3"])
		}
	}
}

func sqlite3Rows(t *testing.T, file string) []string {
	t.Helper()
	out, err := toolCommand(context.Background(), SQLite3Binary, "-init", "/dev/null", "-batch", file, "SELECT group_concat(id) FROM (SELECT id FROM tblMyList1 ORDER BY id);").CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3 %s: %v: %s", file, err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func TestDBConfigErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		cfg     Config
		run     func(context.Context, Config, env) (*Result, []sdk.Artifact, error)
		wantErr string
	}{
		{"preset with db", Config{Preset: "randwrite-fsync", Threads: 1, DB: DBConfig{Op: "insert", Transactions: 1}}, runMobibench, `preset "randwrite-fsync" names a file workload`},
		{"bad journal", Config{Threads: 1, DB: DBConfig{Op: "insert", Transactions: 1, JournalMode: "WALL"}}, runMobibench, `journal_mode "WALL"`},
		{"bad sync call", Config{Threads: 1, DB: DBConfig{Op: "insert", Transactions: 1, SyncCall: "msync"}}, runMobibench, `sync call "msync"`},
		{"fewer transactions than threads", Config{Threads: 4, DB: DBConfig{Op: "update", Transactions: 2}}, runMobibench, "2 transactions for 4 threads"},
		{"fio on a DB config", Config{Threads: 1, DB: DBConfig{Op: "insert", Transactions: 1}}, runFio, "use the sqlite3 collector"},
		{"sqlite3 on a file config", Config{Threads: 1, FileSize: 1 << 20, IOSize: 4096, DB: DBConfig{Op: "off"}}, runSQLite3, "runs Mobibench's DB test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := tt.run(context.Background(), tt.cfg, env{OutDir: t.TempDir(), StorageDir: dir})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a rejected config touched the storage directory: %v", ents)
	}
}

func TestSQLite3Missing(t *testing.T) {
	old := SQLite3Binary
	SQLite3Binary = "droidprof-no-such-sqlite3"
	defer func() { SQLite3Binary = old }()
	_, _, err := runSQLite3(context.Background(), Config{Threads: 1, DB: DBConfig{Op: "insert", Transactions: 1}}, env{OutDir: t.TempDir(), StorageDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "needs the sqlite3 shell on PATH") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseSetup(t *testing.T) {
	c := dbbench.Config{Dir: "/d", Op: dbbench.Update, Transactions: 1, DBs: 2}
	tests := []struct {
		name, out, wantErr string
	}{
		{"ok", "truncate\n" + infoMarker + "\n3.40.1\n4096\ntruncate\n2\n4096\ntruncate\n2\n296\n", ""},
		{"no marker", "truncate\n", "no " + infoMarker},
		{"short", infoMarker + "\n3.40.1\n4096\n", "printed 2 values, want 8"},
		{"not a number", infoMarker + "\n3.40.1\nbig\ntruncate\n2\n4096\ntruncate\n2\n296\n", "pragmas of /d/test.db0_0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			si, err := parseSetup([]byte(tt.out), c, 0)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || si.rows != 296 || si.version != "3.40.1" || len(si.info) != 2 || si.info[1].File != "/d/test.db0_1" {
				t.Fatalf("%+v, %v", si, err)
			}
		})
	}
}

// Both DB collectors over a journal-mode matrix, then the analyzer: tx/s per
// cell, the Mobibench/sqlite3 ratio table and the transactions figure.
func TestAnalyzerOverDBCells(t *testing.T) {
	needSQLite3(t)
	c := sdktest.Start(t, Plugin())
	run, storage := t.TempDir(), t.TempDir()
	var steps []*sdk.StepArtifacts
	for _, journal := range []string{"TRUNCATE", "WAL"} {
		for rep := 0; rep < 2; rep++ {
			for _, comp := range []string{"mobibench", "sqlite3"} {
				labels := map[string]string{"journal": journal}
				cfg := map[string]any{"db": map[string]any{"op": "insert", "journal_mode": journal, "transactions": 10}}
				out, err := c.Collect(context.Background(), comp, cfg, sdktest.CollectOptions{RunDir: run, StorageDir: storage, StepID: journal + "-" + comp + "-" + string(rune('0'+rep)), Labels: labels, Repetition: rep})
				if err != nil {
					t.Fatalf("%s %s: %v", journal, comp, err)
				}
				steps = append(steps, out.Step("mobibench."+comp, labels, rep))
			}
		}
	}
	for _, baseline := range []string{"", "mobibench"} {
		cfg := map[string]any{}
		wantTable := "ratio_vs_sqlite3"
		if baseline != "" {
			cfg["baseline"], wantTable = baseline, "ratio_sqlite3_vs_mobibench"
		}
		resp, err := c.Analyze(context.Background(), "mobibench", cfg, run, steps)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, m := range resp.Metrics {
			got[m.Name+"/"+m.Labels["journal"]+"/"+m.Labels["collector"]] = len(m.Samples)
		}
		for _, k := range []string{"tps/WAL/mobibench", "tps/WAL/sqlite3", "tps/TRUNCATE/sqlite3", "cpu_active/WAL/sqlite3", "ctx_voluntary/TRUNCATE/mobibench", "latency_p50/WAL/mobibench"} {
			if got[k] != 2 {
				t.Errorf("metric %s has %d samples, want 2 (all: %v)", k, got[k], got)
			}
		}
		if got["iops/WAL/mobibench"] != 0 || got["throughput/WAL/mobibench"] != 0 || got["latency_p50/WAL/sqlite3"] != 0 {
			t.Errorf("file metrics or shell latency on DB cells: %v", got)
		}
		var ratios *sdk.Table
		for _, tb := range resp.Tables {
			if tb.Name == wantTable {
				ratios = tb
			}
		}
		if ratios == nil || len(ratios.Rows) == 0 || ratios.Rows[0][1] != "tps" && ratios.Rows[0][1] != "elapsed" {
			t.Fatalf("baseline %q: table %s: %v (tables %v)", baseline, wantTable, ratios, resp.Tables)
		}
		if !strings.Contains(resp.Summary, "journal=WAL tps") {
			t.Errorf("summary %q", resp.Summary)
		}
		hasFigure := false
		for _, f := range resp.Artifacts {
			hasFigure = hasFigure || f.Name == "transactions.svg"
		}
		if !hasFigure {
			t.Errorf("no transactions.svg figure in %v", resp.Artifacts)
		}
	}
}
