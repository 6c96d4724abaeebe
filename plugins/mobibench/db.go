package mobibench

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/storage/dbbench"
	"github.com/droidprof/droidprof/storage/fsinfo"
)

// DBResult is the DB-test part of result.json, written by the mobibench and
// sqlite3 collectors.
type DBResult struct {
	Op                    string           `json:"op"`
	Mode2013              bool             `json:"mode2013,omitempty"`
	TransactionsPerThread int              `json:"transactions_per_thread"`
	Transactions          int64            `json:"transactions"` // done, all threads
	Tables                int              `json:"tables"`
	Databases             int              `json:"databases"`
	JournalMode           string           `json:"journal_mode"`
	Synchronous           string           `json:"synchronous"`
	PageSize              int              `json:"page_size"`
	RandomKeys            bool             `json:"random_keys,omitempty"`
	IntervalMS            int64            `json:"interval_ms,omitempty"`
	Rows                  int              `json:"rows,omitempty"` // per table after prefill (update, delete)
	TPS                   float64          `json:"tps"`            // Mobibench's Transactions/sec
	Engine                string           `json:"engine"`
	SQLiteVersion         string           `json:"sqlite_version"`
	Info                  []dbbench.DBInfo `json:"db_info"` // read back from thread 0's databases
}

func newDBResult(c dbbench.Config, engine string) *DBResult {
	return &DBResult{
		Op: c.Op.String(), Mode2013: c.Mode2013, TransactionsPerThread: c.PerThread(), Tables: c.Tables, Databases: c.DBs,
		JournalMode: c.Journal, Synchronous: c.Sync, PageSize: c.PageSize, RandomKeys: c.RandomKeys, IntervalMS: c.Interval.Milliseconds(),
		Engine: engine,
	}
}

// EngineName describes the SQLite binding of the mobibench collector.
const EngineName = "modernc.org/sqlite (SQLite C amalgamation translated to Go)"

// runMobibenchDB is the mobibench collector with the DB test on: it runs
// storage/dbbench and writes result.json and mobibench.out.
func runMobibenchDB(ctx context.Context, cfg Config, e env) (*Result, []sdk.Artifact, error) {
	// Checked before the data directory is made: a bad config touches
	// nothing.
	dc, _, err := cfg.dbConfig("-")
	if err != nil {
		return nil, nil, err
	}
	dir, cleanup, err := e.dataDir()
	if err != nil {
		return nil, nil, err
	}
	dc.Dir = dir
	if e.Progress != nil {
		dc.Progress = func(done, total int64) {
			e.Progress(float64(done), float64(total), "transactions", fmt.Sprintf("%s, journal %s, synchronous %s", dc.Op, dc.Journal, dc.Sync))
		}
	}
	r, err := dbbench.Run(ctx, dc)
	if cerr := cleanup(); err == nil && cerr != nil {
		err = fmt.Errorf("remove data files: %w", cerr)
	}
	if err != nil {
		return nil, nil, err
	}
	e.warn(r.Warnings)
	res := dbEngineResult(cfg, r)
	a := &artifacts{dir: e.OutDir}
	errs := []error{
		a.result(res, "Mobibench DB measurements"),
		a.add("mobibench.out", sdk.KindLog, "text/plain", "Mobibench text output (DB mode)", mobibenchDBOut(r)),
	}
	return res, a.list, errors.Join(errs...)
}

func dbEngineResult(cfg Config, r *dbbench.Result) *Result {
	c := r.Config
	db := newDBResult(c, EngineName)
	db.Transactions, db.Rows, db.TPS, db.SQLiteVersion, db.Info = r.Transactions, r.Rows, r.TPS(), r.SQLiteVersion, r.Info
	vol, invol := r.Switches.Voluntary, r.Switches.Involuntary
	res := &Result{
		Collector: "mobibench", Started: r.Start, Config: cfg, Threads: c.Threads, Dir: c.Dir,
		ElapsedNS: r.Elapsed.Nanoseconds(),
		CPUActive: r.CPU.Active, CPUIdle: r.CPU.Idle, CPUIOWait: r.CPU.IOWait, CPUSource: "/proc/stat over the timed region",
		CtxVoluntary: &vol, CtxInvoluntary: &invol, CtxTotal: r.Switches.Total(),
		PageFaultsMinor: r.Faults.Minor, PageFaultsMajor: r.Faults.Major,
		Latency:       summarize(r.Latencies(), "one transaction: the sqlite3_exec of BEGIN; its statements; COMMIT; (2013 mode: one autocommit statement); the WAL checkpoint is in none"),
		CachesDropped: r.CachesDropped, Warnings: r.Warnings, DB: db,
	}
	if _, name, err := fsinfo.Type(c.Dir); err == nil {
		res.FSType = name
	}
	return res
}

// mobibenchDBOut renders Mobibench's text output for a DB run (shell version
// 1.0.8, quiet), with the DB information block of thread 0's databases.
func mobibenchDBOut(r *dbbench.Result) []byte {
	c := r.Config
	var b bytes.Buffer
	line := "-----------------------------------------\n"
	b.WriteString(line + "[mobibench measurement setup]\n" + line)
	b.WriteString("DB teset mode enabled.\n")
	if ms := c.Interval.Milliseconds(); ms > 0 {
		fmt.Fprintf(&b, "DB time interval : %d ms\n", ms)
	}
	fmt.Fprintf(&b, "Operation : %d\n", int(c.Op))
	fmt.Fprintf(&b, "Transactions per thread: %d\n", c.PerThread())
	fmt.Fprintf(&b, "# of Tables : %d\n", c.Tables)
	fmt.Fprintf(&b, "# of Databases : %d\n", c.DBs)
	fmt.Fprintf(&b, "# of Threads : %d\n", c.Threads)
	for _, in := range r.Info {
		b.WriteString(line)
		fmt.Fprintf(&b, "[DB information of db %s]\n", in.File)
		b.WriteString(line)
		fmt.Fprintf(&b, "sqlite_version=%s\npage_size=%d\njournal_mode=%s\nsynchronous=%d\n", r.SQLiteVersion, in.PageSize, in.JournalMode, in.Synchronous)
	}
	b.WriteString("setState: 1\nsetState: 2\n")
	b.WriteString(line + "[Messurement Result]\n" + line)
	fmt.Fprintf(&b, "[CPU] : Active,Idle,IoWait : %1.2f %1.2f %1.2f\n", r.CPU.Active, r.CPU.Idle, r.CPU.IOWait)
	us := r.Elapsed.Microseconds()
	fmt.Fprintf(&b, "[TIME] :%8d sec %06dus. \t%.2f Transactions/sec\n", us/1e6, us%1e6, r.TPS())
	if c.Threads == 1 {
		fmt.Fprintf(&b, "[CON SWITCHES] : %d %d\n", r.Switches.Total(), r.Switches.Voluntary)
	}
	b.WriteString("setState: 3\nErr string : No error\n")
	return b.Bytes()
}
