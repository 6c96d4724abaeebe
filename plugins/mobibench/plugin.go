// Package mobibench is droidprof's Mobibench plugin: a collector that runs
// Mobibench's shell version, its file I/O test on the storage/fileio engine
// or, when the db block names an operation, its SQLite test on the
// storage/dbbench engine; peer collectors that run the real tools on the
// same workload (fio for file I/O, the sqlite3 shell for the DB test); and an
// analyzer that turns them all into metrics and Mobibench-vs-peer ratios.
//
// All collectors take the same Config, so one experiment matrix can drive
// them side by side on the same storage directory.
package mobibench

import (
	"fmt"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/storage/dbbench"
	"github.com/droidprof/droidprof/storage/fileio"
)

// Version is the plugin version.
const Version = "0.1.0"

// Plugin returns the mobibench plugin.
func Plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name:        "mobibench",
		Version:     Version,
		Description: "Mobibench file I/O and SQLite benchmarks, side by side with the equivalent fio job and sqlite3 shell script",
		Collectors: []sdk.Collector{
			{Name: "mobibench", Description: "Mobibench shell-version file or SQLite benchmark on the step's storage directory", Config: Config{}, Run: collector(runMobibench)},
			{Name: "fio", Description: "the real fio binary running the job equivalent to the Mobibench file config", Config: Config{}, Needs: []sdk.Tool{{Name: FioBinary, Package: "fio"}}, Run: collector(runFio)},
			{Name: "sqlite3", Description: "the real sqlite3 shell running the SQL of the Mobibench DB config, one process per thread", Config: Config{}, Needs: []sdk.Tool{{Name: SQLite3Binary, Package: "sqlite3"}}, Run: collector(runSQLite3)},
		},
		Analyzers: []sdk.Analyzer{
			{Name: "mobibench", Description: "throughput, IOPS, transactions/s, CPU, context switches and latency per cell, and Mobibench/fio and Mobibench/sqlite3 ratios", Config: AnalyzerConfig{}, Run: analyze},
		},
	}
}

// Config is the configuration of both collectors. The defaults are
// Mobibench's.
type Config struct {
	Preset     string   `json:"preset" doc:"named workload NAME[@SIZE] that decides access, sync and threads (and file_size when @SIZE is given), e.g. randwrite-fsync@16MiB; names: randwrite-fsync, seqwrite-buffered, seqwrite-direct, seqwrite-mmap, randwrite-fsync-4t, ...; empty: use those keys"`
	Access     int      `json:"access" doc:"access mode: 0 write (overwrite), 1 random write, 2 read, 3 random read, 4 append" default:"0" min:"0" max:"4"`
	Sync       int      `json:"sync" doc:"sync mode: 0 buffered, 1 O_SYNC, 2 fsync, 3 O_DIRECT, 4 O_SYNC|O_DIRECT, 5 mmap, 6 mmap+MS_ASYNC, 7 mmap+MS_SYNC, 8 fdatasync, 9 fbarrier, 10 fdatabarrier" default:"0" min:"0" max:"10"`
	Threads    int      `json:"threads" doc:"threads, each with its own file test.datN; the file size is divided among them" default:"1" min:"1" max:"100"`
	FileSize   sdk.Size `json:"file_size" doc:"total file size over all threads" default:"1MiB"`
	IOSize     sdk.Size `json:"io_size" doc:"size of one I/O (Mobibench's record)" default:"4KiB"`
	Overlap    int      `json:"overlap" doc:"percentage of random I/Os that revisit a record (Mobibench -v); fio: approximated by norandommap" default:"0" min:"0" max:"99"`
	DropCaches bool     `json:"drop_caches" doc:"sync and drop the page cache before the clock starts (needs root; fio also gets invalidate=1)" default:"false"`
	LatencyLog bool     `json:"latency_log" doc:"write latency.tsv with every I/O's latency (Mobibench -L)" default:"false"`
	IOPSLog    bool     `json:"iops_log" doc:"write iops.tsv with I/Os per second (Mobibench -k)" default:"false"`
	FioOptions []string `json:"fio_options" doc:"extra key=value lines for the fio job (fio collector only)"`
	Replay     string   `json:"replay" doc:"a Mobigen script to replay (Mobibench -g) instead of the file or DB test, in a sandbox under the storage directory (original paths are never touched); a relative path is taken from droidprof's working directory"`
	DB         DBConfig `json:"db" doc:"Mobibench's SQLite test (-d): when op is not off, mobibench and sqlite3 run it and the file keys other than threads and drop_caches are unused"`
}

// DBConfig is the db block: Mobibench's DB test options. threads and
// drop_caches come from the enclosing Config.
type DBConfig struct {
	Op           string `json:"op" doc:"operation (Mobibench -d): off (file test), insert, update or delete" default:"off" enum:"off,insert,update,delete"`
	Transactions int    `json:"transactions" doc:"transactions in total, divided among the threads (-n)" default:"10" min:"1"`
	Tables       int    `json:"tables" doc:"tables per database (-T)" default:"3" min:"1" max:"20"`
	Databases    int    `json:"databases" doc:"databases per transaction (-D); the extra ones are ATTACHed, so a commit uses a master journal" default:"1" min:"1" max:"20"`
	IntervalMS   int    `json:"interval_ms" doc:"pause after every transaction in ms (-i), capped at 10000" default:"0" min:"0"`
	RandomKeys   bool   `json:"random_keys" doc:"insert random keys, sampled without replacement (-R)" default:"false"`
	PageSize     int    `json:"page_size" doc:"PRAGMA page_size for new database files" default:"4096" min:"512" max:"65536"`
	JournalMode  string `json:"journal_mode" doc:"PRAGMA journal_mode (-j)" default:"TRUNCATE" enum:"DELETE,TRUNCATE,PERSIST,WAL,MEMORY,OFF"`
	Synchronous  string `json:"synchronous" doc:"PRAGMA synchronous of the main database (-s)" default:"FULL" enum:"OFF,NORMAL,FULL"`
	SyncCall     string `json:"sync_call" doc:"system call SQLite syncs with: fdatasync, as Android's platform SQLite and the sqlite3 shell are built, or fsync, as Mobibench's static build is" default:"fdatasync" enum:"fdatasync,fsync"`
	Mode2013     bool   `json:"mode2013" doc:"the paper's 2013 workload: one table, AUTOINCREMENT key, one statement per autocommit transaction" default:"false"`
	KeepFiles    bool   `json:"keep_files" doc:"delete: leave the database files instead of dropping the tables and unlinking them" default:"false"`
}

// dbEnabled reports whether the config asks for the DB test.
func (c Config) dbEnabled() bool { return c.DB.Op != "" && c.DB.Op != "off" }

// dbConfig is the dbbench configuration of a DB-test config, checked.
func (c Config) dbConfig(dir string) (dbbench.Config, []string, error) {
	if c.Preset != "" {
		return dbbench.Config{}, nil, fmt.Errorf("preset %q names a file workload, but db.op = %q asks for the DB test", c.Preset, c.DB.Op)
	}
	op, err := dbbench.ParseOp(c.DB.Op)
	if err != nil {
		return dbbench.Config{}, nil, err
	}
	return dbbench.Config{
		Dir: dir, Op: op, Transactions: c.DB.Transactions, Tables: c.DB.Tables, DBs: c.DB.Databases,
		Interval: time.Duration(c.DB.IntervalMS) * time.Millisecond, RandomKeys: c.DB.RandomKeys, PageSize: c.DB.PageSize,
		Journal: c.DB.JournalMode, Sync: c.DB.Synchronous, Threads: c.Threads, Mode2013: c.DB.Mode2013,
		DropCaches: c.DropCaches, KeepFiles: c.DB.KeepFiles, SyncCall: c.DB.SyncCall,
	}.Normalize()
}

// defaultFileSize is Mobibench's default -f (1024 KB).
const defaultFileSize = sdk.Size(1 << 20)

// Preset is a named Mobibench workload.
type Preset struct {
	Name                  string
	Access, Sync, Threads int
	Description           string
}

// Presets are the workloads a preset key may name: the ones the paper and
// the side-by-side experiment use.
var Presets = []Preset{
	{"randwrite-fsync", 1, 2, 1, "random write + fsync per I/O (the paper's Fig. 10 workload)"},
	{"randwrite-fdatasync", 1, 8, 1, "random write + fdatasync per I/O"},
	{"randwrite-osync", 1, 1, 1, "random write, O_SYNC"},
	{"seqwrite-buffered", 0, 0, 1, "sequential overwrite, buffered, final fsync"},
	{"seqwrite-osync", 0, 1, 1, "sequential overwrite, O_SYNC"},
	{"seqwrite-direct", 0, 3, 1, "sequential overwrite, O_DIRECT"},
	{"seqwrite-mmap", 0, 5, 1, "sequential write through a shared mapping, final msync"},
	{"append-buffered", 4, 0, 1, "append into a new file, buffered, final fsync"},
	{"seqread-buffered", 2, 0, 1, "sequential read, buffered"},
	{"randread-buffered", 3, 0, 1, "random read, buffered"},
	{"randwrite-fsync-4t", 1, 2, 4, "random write + fsync per I/O, 4 threads"},
}

func presetByName(name string) (Preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// resolve applies the preset and returns the engine configuration. A key
// that disagrees with the preset and is not at its default is an error: the
// user asked for two different things.
func (c Config) resolve(dir string) (Config, fileio.Config, error) {
	if c.Preset != "" {
		name, size, hasSize := strings.Cut(c.Preset, "@")
		p, ok := presetByName(name)
		if !ok {
			names := make([]string, len(Presets))
			for i, p := range Presets {
				names[i] = p.Name
			}
			return c, fileio.Config{}, fmt.Errorf("unknown preset %q (have %v)", name, names)
		}
		if hasSize {
			n, err := sdk.ParseSize(size)
			if err != nil {
				return c, fileio.Config{}, fmt.Errorf("preset %q: %w", c.Preset, err)
			}
			if c.FileSize != defaultFileSize && c.FileSize != n {
				return c, fileio.Config{}, fmt.Errorf("preset %q sets file_size = %s, but the config also says file_size = %s", c.Preset, n, c.FileSize)
			}
			c.FileSize = n
		}
		for _, f := range []struct {
			key          string
			v, def, want int
		}{{"access", c.Access, 0, p.Access}, {"sync", c.Sync, 0, p.Sync}, {"threads", c.Threads, 1, p.Threads}} {
			if f.v != f.def && f.v != f.want {
				return c, fileio.Config{}, fmt.Errorf("preset %q sets %s = %d, but the config also says %s = %d", name, f.key, f.want, f.key, f.v)
			}
		}
		c.Access, c.Sync, c.Threads = p.Access, p.Sync, p.Threads
	}
	return c, fileio.Config{
		Dir: dir, Access: fileio.Access(c.Access), Sync: fileio.Sync(c.Sync), Threads: c.Threads,
		FileSize: int64(c.FileSize), IOSize: int64(c.IOSize), Overlap: c.Overlap, DropCaches: c.DropCaches,
	}, nil
}

// AnalyzerConfig configures the analyzer.
type AnalyzerConfig struct {
	Baseline string `json:"baseline" doc:"collector the ratio tables divide by: fio or sqlite3 (Mobibench / each peer tool present; the two are the same), or mobibench (each peer / Mobibench)" default:"fio" enum:"fio,sqlite3,mobibench"`
}
