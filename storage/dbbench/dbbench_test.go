package dbbench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/internal/testenv"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name     string
		in       Config
		wantErr  string
		wantWarn string
		check    func(Config) bool
	}{
		{"defaults are Mobibench's", Config{Dir: "/d", Transactions: 10}, "", "", func(c Config) bool {
			return c.Tables == 3 && c.DBs == 1 && c.Threads == 1 && c.PageSize == 4096 && c.Journal == "TRUNCATE" && c.Sync == "FULL" && c.SyncLevel() == 2
		}},
		{"lower case pragmas", Config{Dir: "/d", Transactions: 10, Journal: "wal", Sync: "normal"}, "", "", func(c Config) bool { return c.Journal == "WAL" && c.SyncLevel() == 1 }},
		{"divided among threads", Config{Dir: "/d", Transactions: 10, Threads: 3}, "", "do not divide", func(c Config) bool { return c.PerThread() == 3 }},
		{"interval capped", Config{Dir: "/d", Transactions: 1, Interval: time.Minute}, "", "capped at 10s", func(c Config) bool { return c.Interval == MaxInterval }},
		{"2013 forces one table", Config{Dir: "/d", Transactions: 1, Mode2013: true, DBs: 2}, "", "mode2013", func(c Config) bool { return c.Tables == 1 && c.DBs == 1 }},
		{"no dir", Config{Transactions: 1}, "no directory", "", nil},
		{"too many tables", Config{Dir: "/d", Transactions: 1, Tables: 21}, "tables = 21, want 1..20", "", nil},
		{"too many dbs", Config{Dir: "/d", Transactions: 1, DBs: 21}, "databases = 21", "", nil},
		{"too many threads", Config{Dir: "/d", Transactions: 200, Threads: 101}, "threads = 101", "", nil},
		{"fewer transactions than threads", Config{Dir: "/d", Transactions: 1, Threads: 2}, "1 transactions for 2 threads", "", nil},
		{"bad journal", Config{Dir: "/d", Transactions: 1, Journal: "WALL"}, `journal_mode "WALL"`, "", nil},
		{"bad sync", Config{Dir: "/d", Transactions: 1, Sync: "EXTRA"}, `synchronous "EXTRA"`, "", nil},
		{"bad page size", Config{Dir: "/d", Transactions: 1, PageSize: 3000}, "page_size = 3000", "", nil},
		{"bad op", Config{Dir: "/d", Transactions: 1, Op: 3}, "operation 3", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, warn, err := tt.in.Normalize()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrUnsupported) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w := strings.Join(warn, ";"); (tt.wantWarn == "") != (w == "") || !strings.Contains(w, tt.wantWarn) {
				t.Errorf("warnings %q, want %q", w, tt.wantWarn)
			}
			if !tt.check(c) {
				t.Errorf("normalized to %+v", c)
			}
		})
	}
}

var stmtRe = regexp.MustCompile(`(INSERT|UPDATE|DELETE)[^;]*;`)

// The SQL text of one thread's transactions, against what thread_main_db
// builds.
func TestTransactions(t *testing.T) {
	ids := func(s, pat string) []int {
		var out []int
		for _, m := range regexp.MustCompile(pat).FindAllStringSubmatch(s, -1) {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
		return out
	}
	base := Config{Dir: "/d", Transactions: 40, Tables: 3, DBs: 2}
	tests := []struct {
		name  string
		op    Op
		mod   func(*Config)
		rows  int
		check func(t *testing.T, txs []string)
	}{
		{"insert: key = transaction index", Insert, nil, 0, func(t *testing.T, txs []string) {
			for i, q := range txs {
				want := fmt.Sprintf("BEGIN;INSERT INTO tblMyList0(id,Value) VALUES(%d,'%s');", i, Value)
				if !strings.HasPrefix(q, want) || !strings.Contains(q, fmt.Sprintf("INSERT INTO db1.tblMyList2(id,Value) VALUES(%d,", i)) || !strings.HasSuffix(q, "COMMIT;") {
					t.Fatalf("transaction %d: %s", i, q)
				}
			}
		}},
		{"insert -R: keys without replacement per DB", Insert, func(c *Config) { c.RandomKeys = true }, 0, func(t *testing.T, txs []string) {
			seen := map[int]bool{}
			for _, q := range txs {
				k := ids(q, `INSERT INTO tblMyList0\(id,Value\) VALUES\((\d+),`)
				if len(k) != 1 || seen[k[0]] || k[0] < 0 || k[0] >= 40 {
					t.Fatalf("key %v repeated or out of 0..39: %s", k, q)
				}
				seen[k[0]] = true
				if all := ids(q, `tblMyList\d\(id,Value\) VALUES\((\d+),`); all[0] != all[1] || all[1] != all[2] {
					t.Fatalf("tables of one DB got different keys: %s", q)
				}
			}
		}},
		{"update: ids in 1..rows, same text every run", Update, nil, 296, func(t *testing.T, txs []string) {
			for _, q := range txs {
				for _, id := range ids(q, `WHERE id = (\d+);`) {
					if id < 1 || id > 296 {
						t.Fatalf("id %d out of 1..296: %s", id, q)
					}
				}
				if !strings.Contains(q, "SET Value = '"+UpdateValue+"'") {
					t.Fatal(q)
				}
			}
			if again := Transactions(Config{Dir: "/d", Op: Update, Transactions: 40, Tables: 3, DBs: 2, Threads: 1}, 296); again[7] != txs[7] {
				t.Error("update ids are not deterministic")
			}
		}},
		{"delete: ids without replacement", Delete, nil, 296, func(t *testing.T, txs []string) {
			seen := map[int]bool{}
			for _, q := range txs {
				k := ids(q, `DELETE FROM tblMyList1 WHERE id=(\d+);`)
				if len(k) != 1 || seen[k[0]] || k[0] >= 296 {
					t.Fatalf("id %v repeated or out of range: %s", k, q)
				}
				seen[k[0]] = true
			}
		}},
		{"2013: one autocommit statement", Insert, func(c *Config) { c.Mode2013 = true; c.Tables, c.DBs = 1, 1 }, 0, func(t *testing.T, txs []string) {
			for _, q := range txs {
				if q != "INSERT INTO tblMyList(Value) VALUES('"+Value+"');" {
					t.Fatal(q)
				}
			}
		}},
		{"2013 delete: ids 1..n", Delete, func(c *Config) { c.Mode2013 = true; c.Tables, c.DBs = 1, 1 }, 40, func(t *testing.T, txs []string) {
			if txs[0] != "DELETE FROM tblMyList WHERE id=1;" || txs[39] != "DELETE FROM tblMyList WHERE id=40;" {
				t.Fatal(txs[0], txs[39])
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			c.Op = tt.op
			if tt.mod != nil {
				tt.mod(&c)
			}
			c, _, err := c.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			txs := Transactions(c, tt.rows)
			if len(txs) != 40 {
				t.Fatalf("%d transactions", len(txs))
			}
			perTx := c.Tables * c.DBs
			for _, q := range txs {
				if n := len(stmtRe.FindAllString(q, -1)); n != perTx {
					t.Fatalf("%d statements, want one per table per DB (%d): %s", n, perTx, q)
				}
				if c.Mode2013 == strings.HasPrefix(q, "BEGIN;") {
					t.Fatalf("BEGIN in 2013 mode or missing otherwise: %s", q)
				}
			}
			tt.check(t, txs)
		})
	}
}

// sqlite3Query asks the real sqlite3 shell, the external oracle.
func sqlite3Query(t *testing.T, file, sql string) []string {
	t.Helper()
	bin := testenv.Tool(t, "sqlite3", "sqlite3")
	out, err := exec.Command(bin, "-init", "/dev/null", "-batch", file, sql).CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3 %s %q: %v: %s", file, sql, err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// The files the engine leaves, read by the sqlite3 shell: rows per table,
// page size, and the journal mode that persists in the file (WAL).
func TestFilesSeenBySQLite3(t *testing.T) {
	const n = 30
	tests := []struct {
		name     string
		c        Config
		wantRows int
		table    string
	}{
		{"insert", Config{Op: Insert}, n, "tblMyList2"},
		{"insert WAL, 2 DBs", Config{Op: Insert, Journal: "WAL", DBs: 2}, n, "tblMyList2"},
		{"insert 8 KiB pages", Config{Op: Insert, PageSize: 8192, Journal: "PERSIST"}, n, "tblMyList0"},
		{"update prefills to MIN_CHECK", Config{Op: Update, Journal: "DELETE"}, MinRows, "tblMyList1"},
		{"delete removes one row per transaction", Config{Op: Delete, KeepFiles: true, DBs: 2}, MinRows - n, "tblMyList2"},
		{"2013 insert", Config{Op: Insert, Mode2013: true}, n, "tblMyList"},
		{"2013 update prefills to n", Config{Op: Update, Mode2013: true, Journal: "MEMORY", Sync: "OFF"}, n, "tblMyList"},
		{"2013 delete empties the table", Config{Op: Delete, Mode2013: true, KeepFiles: true}, 0, "tblMyList"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			c.Dir, c.Transactions, c.Threads = t.TempDir(), 2*n, 2
			r, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			c = r.Config
			if r.Transactions != 2*n || len(r.Latencies()) != 2*n || r.TPS() <= 0 || r.SQLiteVersion == "" {
				t.Fatalf("result: %d transactions, %d latencies, tps %v, version %q", r.Transactions, len(r.Latencies()), r.TPS(), r.SQLiteVersion)
			}
			if len(r.Info) != c.DBs || r.Info[0].PageSize != c.PageSize || !strings.EqualFold(r.Info[0].JournalMode, c.Journal) || r.Info[0].Synchronous != c.SyncLevel() {
				t.Errorf("DB info %+v for %+v", r.Info, c)
			}
			for th := 0; th < c.Threads; th++ {
				for d, f := range c.Files(th) {
					got := sqlite3Query(t, f, fmt.Sprintf("SELECT count(*) FROM %s; PRAGMA page_size; PRAGMA journal_mode;", tt.table))
					wantJournal := "delete" // a rollback journal mode is the connection's, not the file's
					if c.Journal == "WAL" {
						wantJournal = "wal"
					}
					want := []string{strconv.Itoa(tt.wantRows), strconv.Itoa(c.PageSize), wantJournal}
					if strings.Join(got, ",") != strings.Join(want, ",") {
						t.Errorf("thread %d db %d: sqlite3 sees rows, page_size, journal_mode = %v, want %v", th, d, got, want)
					}
				}
			}
			if c.Mode2013 && c.Op == Insert {
				if got := sqlite3Query(t, c.Files(0)[0], "SELECT min(id), max(id), (SELECT seq FROM sqlite_sequence) FROM tblMyList;"); got[0] != fmt.Sprintf("1|%d|%d", n, n) {
					t.Errorf("2013 keys: min|max|sqlite_sequence = %v", got)
				}
			}
		})
	}
}

func TestDeleteUnlinksItsFiles(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(context.Background(), Config{Dir: dir, Op: Delete, Transactions: 4, DBs: 2, Journal: "WAL"}); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("delete left %v", ents)
	}
}

// Cancelling stops the run between transactions, well before its end, and
// removes the files.
func TestCancel(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := Config{Dir: dir, Op: Insert, Transactions: 1000, Interval: 50 * time.Millisecond, Journal: "WAL"}
	// Progress reports about every 100 ms; the first report with work done
	// cancels a run that would take 50 s.
	c.Progress = func(done, total int64) {
		if done > 0 {
			cancel()
		}
	}
	start := time.Now()
	_, err := Run(ctx, c)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("cancelled run left %v", ents)
	}
}

func TestErrorNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	// A directory where the database file should be: SQLite cannot open it.
	if err := os.Mkdir(FileName(dir, 1, 0), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Config{Dir: dir, Op: Insert, Transactions: 4, Threads: 2})
	if err == nil || !strings.Contains(err.Error(), "test.db1_0") {
		t.Fatalf("err = %v, want it to name test.db1_0", err)
	}
	if _, err := os.Stat(FileName(dir, 0, 0)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the other thread's file was left after the failure: %v", err)
	}
}

func TestContextSwitchesAndCPU(t *testing.T) {
	r, err := Run(context.Background(), Config{Dir: t.TempDir(), Op: Insert, Transactions: 20})
	if err != nil {
		t.Fatal(err)
	}
	// synchronous FULL: every commit waits for its syncs, so the worker
	// thread blocks at least once per transaction.
	if r.Switches.Voluntary < 20 || r.Threads[0].Switches != r.Switches || r.CPU.Ticks == 0 && r.Elapsed > 100*time.Millisecond {
		t.Errorf("switches %+v, thread %+v, cpu %+v over %v", r.Switches, r.Threads[0].Switches, r.CPU, r.Elapsed)
	}
}

func TestDropCaches(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.SkipOrFail(t, "dropping the page cache needs root")
	}
	r, err := Run(context.Background(), Config{Dir: t.TempDir(), Op: Update, Transactions: 5, DropCaches: true})
	if err != nil {
		t.Fatal(err)
	}
	if !r.CachesDropped {
		t.Errorf("caches not dropped: %v", r.Warnings)
	}
}
