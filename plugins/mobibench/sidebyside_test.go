package mobibench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/storage/fsinfo"
)

// sideBySideCases are the cells of configs/mobibench-vs-fio.hcl, with sizes
// that make every run last about a second or more on a virtio disk.
var sideBySideCases = []struct {
	preset   string
	fileSize sdk.Size
}{
	{"randwrite-fsync", 16 << 20},
	{"randwrite-osync", 16 << 20},
	{"seqwrite-buffered", 512 << 20},
	{"seqwrite-direct", 64 << 20},
	{"seqwrite-mmap", 512 << 20},
	{"randwrite-fsync-4t", 64 << 20},
}

// TestSideBySide measures Mobibench (our engine) against the real fio on the
// same directory, alternating the two tools, and prints a Markdown table of
// medians and ratios. It is a measurement, not a unit test: it runs only with
// DROIDPROF_SIDE_BY_SIDE=1 and takes minutes. DROIDPROF_SIDE_BY_SIDE_DIR picks
// the directory (default /var/tmp/droidprof-bench), DROIDPROF_SIDE_BY_SIDE_REPEAT
// the repetitions (default 5), DROIDPROF_SIDE_BY_SIDE_CASES a comma list of
// presets, DROIDPROF_SIDE_BY_SIDE_NODROP=1 keeps the page cache,
// DROIDPROF_SIDE_BY_SIDE_FRESH=1 deletes the data files after every run,
// DROIDPROF_SIDE_BY_SIDE_ORDER=a,b,... fixes the tool order of every round,
// DROIDPROF_SIDE_BY_SIDE_FIO_OPTIONS=k=v,... adds fio job lines and
// DROIDPROF_SIDE_BY_SIDE_IOSIZE=BYTES changes the 4 KiB I/O size and
// DROIDPROF_SIDE_BY_SIDE_OUT=FILE writes the table there.
func TestSideBySide(t *testing.T) {
	dir, fsName, repeat, only := sideBySideSetup(t)
	if _, err := exec.LookPath("fio"); err != nil {
		t.Fatalf("fio is not installed: %v", err)
	}
	out := t.TempDir()
	var table strings.Builder
	fmt.Fprintf(&table, "dir %s (%s), %d repetitions per tool after one warm-up round, ABBA order, %s, GOMAXPROCS %d, drop_caches=%v, data files kept between runs: %v\n\n", dir, fsName, repeat, time.Now().UTC().Format(time.RFC3339), runtime.GOMAXPROCS(0), os.Getenv("DROIDPROF_SIDE_BY_SIDE_NODROP") != "1", os.Getenv("DROIDPROF_SIDE_BY_SIDE_FRESH") != "1")
	table.WriteString("| case | file size | metric | Mobibench median | fio median | ratio | Mobibench samples | fio samples | load avg before → after |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range sideBySideCases {
		if len(only) > 0 && !only[c.preset] {
			continue
		}
		drop := os.Getenv("DROIDPROF_SIDE_BY_SIDE_NODROP") != "1"
		ioSize, _ := strconv.Atoi(envOr("DROIDPROF_SIDE_BY_SIDE_IOSIZE", "4096"))
		cfg := Config{Preset: c.preset, Threads: 1, FileSize: c.fileSize, IOSize: sdk.Size(ioSize), DropCaches: drop}
		if o := os.Getenv("DROIDPROF_SIDE_BY_SIDE_FIO_OPTIONS"); o != "" {
			cfg.FioOptions = strings.Split(o, ",")
		}
		// Keep: both tools overwrite the same files in place, run after run,
		// as Mobibench does when run repeatedly (see BENCHMARKS.md for why).
		keep := os.Getenv("DROIDPROF_SIDE_BY_SIDE_FRESH") != "1"
		e := env{ID: "sbs-" + c.preset, OutDir: out, StorageDir: dir, Keep: keep}
		t.Cleanup(func() { os.RemoveAll(filepath.Join(dir, DataDirName)) })
		metric := ""
		load0 := loadAvg()
		samples := abba(t, repeat, []string{"mobibench", "fio"}, func(tool string, round int) float64 {
			var r *Result
			var err error
			if tool == "mobibench" {
				r, _, err = runMobibench(context.Background(), cfg, e)
			} else {
				r, _, err = runFio(context.Background(), cfg, e)
			}
			if err != nil {
				t.Fatalf("%s %s: %v", c.preset, tool, err)
			}
			v := r.ThroughputKBps
			metric = "KB/s"
			if r.Access == 1 || r.Access == 3 {
				v, metric = r.IOPS, "IOPS"
			}
			syncP50 := int64(0)
			if r.SyncLatency != nil {
				syncP50 = r.SyncLatency.P50
			}
			t.Logf("%s round %d %s: %.0f %s, elapsed %.3f s, latency p50 %d ns p99 %d ns (fio sync p50 %d ns), cpu %.1f/%.1f/%.1f, warnings %v", c.preset, round, tool, v, metric, float64(r.ElapsedNS)/1e9, r.Latency.P50, r.Latency.P99, syncP50, r.CPUActive, r.CPUIdle, r.CPUIOWait, r.Warnings)
			return v
		})
		mb, fio := samples["mobibench"], samples["fio"]
		m1, m2 := stats.Median(mb), stats.Median(fio)
		fmt.Fprintf(&table, "| %s | %s | %s | %.0f | %.0f | %.3f | %s | %s | %s → %s |\n", c.preset, sizeString(int64(c.fileSize)), metric, m1, m2, m1/m2, list(mb), list(fio), load0, loadAvg())
	}
	t.Log("\n" + table.String())
	if p := os.Getenv("DROIDPROF_SIDE_BY_SIDE_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sideBySideSetup skips unless DROIDPROF_SIDE_BY_SIDE=1 and returns the
// measurement directory (on a disk filesystem), its filesystem, the
// repetitions and the cases asked for (empty: all).
func sideBySideSetup(t *testing.T) (dir, fsName string, repeat int, only map[string]bool) {
	t.Helper()
	if os.Getenv("DROIDPROF_SIDE_BY_SIDE") != "1" {
		t.Skip("a minutes-long measurement; set DROIDPROF_SIDE_BY_SIDE=1 to run it")
	}
	dir = envOr("DROIDPROF_SIDE_BY_SIDE_DIR", "/var/tmp/droidprof-bench")
	repeat, _ = strconv.Atoi(envOr("DROIDPROF_SIDE_BY_SIDE_REPEAT", "5"))
	only = map[string]bool{}
	for _, p := range strings.Split(os.Getenv("DROIDPROF_SIDE_BY_SIDE_CASES"), ",") {
		if p != "" {
			only[p] = true
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, fsName, err := fsinfo.Type(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fsName == "tmpfs" || fsName == "ramfs" {
		t.Fatalf("%s is on %s; measure on a disk filesystem", dir, fsName)
	}
	return dir, fsName, repeat, only
}

// sideBySideDBCases are the DB cells: Mobibench's default insert (TRUNCATE,
// FULL) and WAL, plus a two-database DELETE cell that commits through a
// master journal, with transaction counts that make a run last about a
// second on a loop-mounted ext4 on this VM's virtio disk.
var sideBySideDBCases = []struct {
	name string
	db   DBConfig
}{
	{"insert-truncate-full", DBConfig{Op: "insert", Transactions: 600, JournalMode: "TRUNCATE", Synchronous: "FULL"}},
	{"insert-wal-full", DBConfig{Op: "insert", Transactions: 1500, JournalMode: "WAL", Synchronous: "FULL"}},
	{"insert-delete-full-2db", DBConfig{Op: "insert", Transactions: 200, JournalMode: "DELETE", Synchronous: "FULL", Databases: 2}},
	// No syncs and no journal file: what is left is CPU (SQL parsing,
	// B-tree, page cache), which shows the cost of translated C.
	{"insert-memory-off", DBConfig{Op: "insert", Transactions: 20000, JournalMode: "MEMORY", Synchronous: "OFF"}},
}

// TestSideBySideDB measures Mobibench's SQLite insert (our engine on
// modernc.org/sqlite) against the real sqlite3 shell running the same SQL
// with the same pragmas on the same files, alternating the tools, and prints
// a Markdown table of medians and ratios. Same switches as TestSideBySide
// (DROIDPROF_SIDE_BY_SIDE=1, _DIR, _REPEAT, _CASES with the names above,
// _NODROP, _ORDER, _OUT), plus DROIDPROF_SIDE_BY_SIDE_TX_SCALE=F to scale
// the transaction counts, DROIDPROF_SIDE_BY_SIDE_SYNC_CALL=fsync to run
// the engine with its build's own sync call, and
// DROIDPROF_SIDE_BY_SIDE_SQLITE3=PATH to run another sqlite3 (BENCHMARKS.md
// uses a wrapper that preloads an fdatasync-to-fsync shim).
func TestSideBySideDB(t *testing.T) {
	dir, fsName, repeat, only := sideBySideSetup(t)
	if b := os.Getenv("DROIDPROF_SIDE_BY_SIDE_SQLITE3"); b != "" {
		old := SQLite3Binary
		SQLite3Binary = b
		t.Cleanup(func() { SQLite3Binary = old })
	}
	needSQLite3(t)
	drop := os.Getenv("DROIDPROF_SIDE_BY_SIDE_NODROP") != "1"
	scale, _ := strconv.ParseFloat(envOr("DROIDPROF_SIDE_BY_SIDE_TX_SCALE", "1"), 64)
	var table strings.Builder
	fmt.Fprintf(&table, "dir %s (%s), %s, %d repetitions per tool after one warm-up round, ABBA order, %s, GOMAXPROCS %d, drop_caches=%v\n\n", dir, fsName, SQLite3Binary, repeat, time.Now().UTC().Format(time.RFC3339), runtime.GOMAXPROCS(0), drop)
	table.WriteString("| case | transactions | Mobibench median tx/s | sqlite3 median tx/s | ratio | Mobibench samples | sqlite3 samples | load avg before → after |\n|---|---|---|---|---|---|---|---|\n")
	for _, c := range sideBySideDBCases {
		if len(only) > 0 && !only[c.name] {
			continue
		}
		db := c.db
		db.Transactions = max(1, int(float64(db.Transactions)*scale))
		db.Tables, db.PageSize = 3, 4096
		db.SyncCall = os.Getenv("DROIDPROF_SIDE_BY_SIDE_SYNC_CALL")
		if db.Databases == 0 {
			db.Databases = 1
		}
		cfg := Config{Threads: 1, DropCaches: drop, DB: db}
		e := env{ID: "sbs-" + c.name, OutDir: t.TempDir(), StorageDir: dir}
		load0 := loadAvg()
		samples := abba(t, repeat, []string{"mobibench", "sqlite3"}, func(tool string, round int) float64 {
			run := runMobibench
			if tool == "sqlite3" {
				run = runSQLite3
			}
			r, _, err := run(context.Background(), cfg, e)
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, tool, err)
			}
			vol := int64(-1)
			if r.CtxVoluntary != nil {
				vol = *r.CtxVoluntary
			}
			t.Logf("%s round %d %s: %.1f tx/s, elapsed %.3f s, tx latency p50 %d ns p99 %d ns, cpu %.1f/%.1f/%.1f, ctx %d (voluntary %d), SQLite %s, warnings %v", c.name, round, tool, r.DB.TPS, float64(r.ElapsedNS)/1e9, r.Latency.P50, r.Latency.P99, r.CPUActive, r.CPUIdle, r.CPUIOWait, r.CtxTotal, vol, r.DB.SQLiteVersion, r.Warnings)
			return r.DB.TPS
		})
		m1, m2 := stats.Median(samples["mobibench"]), stats.Median(samples["sqlite3"])
		fmt.Fprintf(&table, "| %s | %d | %.1f | %.1f | %.3f | %s | %s | %s → %s |\n", c.name, db.Transactions, m1, m2, m1/m2, list(samples["mobibench"]), list(samples["sqlite3"]), load0, loadAvg())
	}
	t.Log("\n" + table.String())
	if p := os.Getenv("DROIDPROF_SIDE_BY_SIDE_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// abba runs every tool repeat+1 times and returns each tool's values, the
// first round being a warm-up that is dropped. The order alternates ABBA
// (A, B / B, A / ...), which cancels drift and any effect of running first
// or second in a pair; DROIDPROF_SIDE_BY_SIDE_ORDER=a,b,... fixes it instead.
func abba(t *testing.T, repeat int, tools []string, run func(tool string, round int) float64) map[string][]float64 {
	t.Helper()
	out := map[string][]float64{}
	for i := 0; i < repeat+1; i++ {
		order := slices.Clone(tools)
		if i%2 == 1 {
			slices.Reverse(order)
		}
		if o := os.Getenv("DROIDPROF_SIDE_BY_SIDE_ORDER"); o != "" {
			order = strings.Split(o, ",")
		}
		for _, tool := range order {
			v := run(tool, i)
			if i > 0 {
				out[tool] = append(out[tool], v)
			}
		}
	}
	return out
}

// loadAvg is the 1-minute load average: other work on the machine (a
// parallel build) skews these measurements, so the table records it.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(data))[0]
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func list(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strings.Join(s, " ")
}

func sizeString(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }
