// Package dbbench is Mobibench's SQLite workload (shell/mobibench.c,
// thread_main_db; shared/reference/androstep-tools.md §1.3) on a real SQLite
// engine: per thread its own database files and connection, transactions of
// one INSERT, UPDATE or DELETE per table per database between BEGIN and
// COMMIT, run as SQL text exactly as Mobibench hands it to sqlite3_exec, with
// Mobibench's page_size, journal_mode and synchronous pragmas, timing and CPU
// and context-switch accounting.
//
// The engine is modernc.org/sqlite: the SQLite C amalgamation translated to
// pure Go. It was chosen over the two other Go bindings because it is the
// real SQLite code (same pager, journal, master-journal and os_unix.c VFS
// logic, so the same system calls as the sqlite3 shell, file by file) and
// needs nothing on the machine: mattn/go-sqlite3 needs cgo and a C compiler
// on every machine that builds droidprof, and ncruces/go-sqlite3 runs SQLite
// as WebAssembly with a VFS reimplemented in Go rather than os_unix.c.
// plugins/mobibench/BENCHMARKS.md measures the choice against the sqlite3
// shell: the CPU cost of translated C did not show (a no-sync cell measured
// 0.99–1.01). The one difference in system calls is the sync: this build,
// like Mobibench's own static one (shell/Makefile defines no
// HAVE_FDATASYNC), calls fsync(2) where Android's platform SQLite and a
// distribution's libsqlite3 call fdatasync(2). By default the engine runs on
// storage/sqlitevfs's VFS, which syncs with fdatasync as Android does;
// SyncCall "fsync" keeps the build's own behaviour.
//
// The SQL text (SessionSQL, SchemaSQL, PrefillSQL, Transactions, FinishSQL)
// is exported so a peer tool, the sqlite3 shell, can run the very same
// statements.
package dbbench

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Op is Mobibench's DB operation (-d).
type Op int

// The operations, numbered as Mobibench's -d.
const (
	Insert Op = iota
	Update
	Delete
)

var opNames = []string{"insert", "update", "delete"}

func (o Op) String() string {
	if o >= 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// ParseOp parses "insert", "update" or "delete".
func ParseOp(s string) (Op, error) {
	for i, n := range opNames {
		if strings.EqualFold(s, n) {
			return Op(i), nil
		}
	}
	return 0, fmt.Errorf("unknown DB operation %q (want insert, update or delete)", s)
}

// JournalModes are SQLite's journal modes, numbered as Mobibench's -j.
var JournalModes = []string{"DELETE", "TRUNCATE", "PERSIST", "WAL", "MEMORY", "OFF"}

// SyncModes are SQLite's synchronous settings, numbered as Mobibench's -s.
var SyncModes = []string{"OFF", "NORMAL", "FULL"}

// SyncCalls are the system calls SQLite can sync with (Config.SyncCall).
var SyncCalls = []string{"fdatasync", "fsync"}

// MaxThreads, MaxTables and MaxDBs are Mobibench's limits.
const (
	MaxThreads = 100
	MaxTables  = 20
	MaxDBs     = 20
	// MaxInterval is Mobibench's cap on the pause between transactions.
	MaxInterval = 10 * time.Second
)

// MinRows is Mobibench's MIN_CHECK: update and delete first fill every table
// to at least this many rows (about 40 KB of 4 KiB pages per table).
const MinRows = (40*1024/4096 - 2) * 37

// Value is the 100-character string every INSERT writes (INSERT_STR), and
// UpdateValue the one every UPDATE writes (UPDATE_STR).
const (
	Value       = "aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeeeffffffffffgggggggggghhhhhhhhhhiiiiiiiiiijjjjjjjjjj"
	UpdateValue = "ffffffffffgggggggggghhhhhhhhhhiiiiiiiiiijjjjjjjjjjaaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeee"
)

// Config describes one DB benchmark. The zero values of Tables, DBs,
// PageSize, Journal and Sync mean Mobibench's defaults (see Normalize).
type Config struct {
	Dir          string // existing directory; thread T uses Dir/test.db<T>_<D>
	Op           Op
	Transactions int           // in total, divided among the threads (-n)
	Tables       int           // tables per database, 1..20 (-T), default 3
	DBs          int           // databases per transaction, 1..20 (-D), default 1
	Interval     time.Duration // pause after every transaction (-i), capped at 10 s
	RandomKeys   bool          // insert random keys without replacement (-R)
	PageSize     int           // PRAGMA page_size, default 4096
	Journal      string        // PRAGMA journal_mode (JournalModes), default TRUNCATE
	Sync         string        // PRAGMA synchronous (SyncModes), default FULL
	Threads      int           // 1..100 (-t), default 1
	// SyncCall is the system call SQLite syncs its files with: "fdatasync"
	// (the default: Android's platform SQLite and the sqlite3 shell) or
	// "fsync" (Mobibench's static build).
	SyncCall string
	// Mode2013 runs the paper's version of the workload (Mobibench as of
	// 2013-07): one table tblMyList with an AUTOINCREMENT key, one database,
	// and every statement its own autocommit transaction.
	Mode2013 bool
	// DropCaches syncs and drops the page cache (as root) after preparation
	// and before the clock starts, as Mobibench does; when not permitted the
	// run goes on and Result.Warnings says so.
	DropCaches bool
	// KeepFiles leaves the database files of a delete run in place (Mobibench
	// drops the tables and unlinks them), so tests can inspect them.
	KeepFiles bool
	// Progress, when set, is called about every 100 ms with the transactions
	// done over all threads and the total, and once more at the end.
	Progress func(done, total int64) `json:"-"`
}

// ErrUnsupported is wrapped by every error that rejects a configuration.
var ErrUnsupported = errors.New("unsupported DB configuration")

func reject(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, a...))
}

// Normalize fills in Mobibench's defaults, upper-cases the pragma values and
// checks the ranges. Out-of-range counts are errors rather than clamped as
// Mobibench clamps them: a config that asks for 30 tables should not silently
// measure 20. The interval is capped as Mobibench caps it, with a warning.
func (c Config) Normalize() (Config, []string, error) {
	var warn []string
	if c.Tables == 0 {
		c.Tables = 3
	}
	if c.DBs == 0 {
		c.DBs = 1
	}
	if c.Threads == 0 {
		c.Threads = 1
	}
	if c.PageSize == 0 {
		c.PageSize = 4096
	}
	if c.Journal == "" {
		c.Journal = "TRUNCATE"
	}
	if c.Sync == "" {
		c.Sync = "FULL"
	}
	if c.SyncCall == "" {
		c.SyncCall = "fdatasync"
	}
	c.Journal, c.Sync = strings.ToUpper(c.Journal), strings.ToUpper(c.Sync)
	switch {
	case c.Dir == "":
		return c, nil, reject("no directory")
	case c.Op < Insert || c.Op > Delete:
		return c, nil, reject("operation %d is not insert (0), update (1) or delete (2)", int(c.Op))
	case c.Threads < 1 || c.Threads > MaxThreads:
		return c, nil, reject("threads = %d, want 1..%d", c.Threads, MaxThreads)
	case c.Tables < 1 || c.Tables > MaxTables:
		return c, nil, reject("tables = %d, want 1..%d", c.Tables, MaxTables)
	case c.DBs < 1 || c.DBs > MaxDBs:
		return c, nil, reject("databases = %d, want 1..%d", c.DBs, MaxDBs)
	case c.Transactions < c.Threads:
		return c, nil, reject("%d transactions for %d threads: every thread needs at least one (the total is divided among them)", c.Transactions, c.Threads)
	case c.PageSize < 512 || c.PageSize > 65536 || c.PageSize&(c.PageSize-1) != 0:
		return c, nil, reject("page_size = %d, want a power of two in 512..65536", c.PageSize)
	case indexOf(JournalModes, c.Journal) < 0:
		return c, nil, reject("journal_mode %q, want one of %v", c.Journal, JournalModes)
	case indexOf(SyncModes, c.Sync) < 0:
		return c, nil, reject("synchronous %q, want one of %v", c.Sync, SyncModes)
	case indexOf(SyncCalls, c.SyncCall) < 0:
		return c, nil, reject("sync call %q, want one of %v", c.SyncCall, SyncCalls)
	case c.Interval < 0:
		return c, nil, reject("negative interval %v", c.Interval)
	}
	if c.Mode2013 && (c.Tables != 1 || c.DBs != 1 || c.RandomKeys) {
		warn = append(warn, fmt.Sprintf("mode2013 uses one table in one database with sequential AUTOINCREMENT keys; ignoring tables = %d, databases = %d, random keys = %v", c.Tables, c.DBs, c.RandomKeys))
		c.Tables, c.DBs, c.RandomKeys = 1, 1, false
	}
	if c.Interval > MaxInterval {
		warn = append(warn, fmt.Sprintf("interval %v capped at %v, as Mobibench caps -i", c.Interval, MaxInterval))
		c.Interval = MaxInterval
	}
	if c.Transactions%c.Threads != 0 {
		warn = append(warn, fmt.Sprintf("%d transactions do not divide among %d threads; each runs %d (Mobibench divides the same way)", c.Transactions, c.Threads, c.Transactions/c.Threads))
	}
	return c, warn, nil
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// PerThread is the number of transactions each thread runs.
func (c Config) PerThread() int { return c.Transactions / c.Threads }

// SyncLevel is synchronous as the number Mobibench passes (0, 1, 2).
func (c Config) SyncLevel() int { return indexOf(SyncModes, c.Sync) }

// FileName is the database file db of thread thread, as Mobibench names it.
func FileName(dir string, thread, db int) string {
	return filepath.Join(dir, fmt.Sprintf("test.db%d_%d", thread, db))
}

// Files lists the database files of thread thread.
func (c Config) Files(thread int) []string {
	f := make([]string, c.DBs)
	for d := range f {
		f[d] = FileName(c.Dir, thread, d)
	}
	return f
}
