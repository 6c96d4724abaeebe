package dbbench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/droidprof/droidprof/storage/cpustat"
	"github.com/droidprof/droidprof/storage/harness"
	"github.com/droidprof/droidprof/storage/pagecache"
	"github.com/droidprof/droidprof/storage/sqlitevfs"

	// The engine: SQLite compiled from its C amalgamation to Go (see the
	// package documentation for why this binding).
	_ "modernc.org/sqlite"
)

// DriverName is the database/sql driver the engine uses.
const DriverName = "sqlite"

// Run prepares the databases, runs the transactions and returns the
// measurements.
//
// Timing follows Mobibench: every thread opens its databases, sets the
// pragmas, creates (insert: drops and recreates) the tables and, for update
// and delete, fills them, then waits at a barrier; when all are ready the page
// cache is dropped if asked, the clock starts, /proc/stat is read and all
// threads start together. Each thread runs its transactions and, in WAL
// mode, the checkpoint; the clock stops when the slowest thread is done.
// Afterwards a delete run drops its tables and unlinks its files (unless
// KeepFiles); insert and update leave them, as Mobibench does (RemoveFiles
// deletes them). When ctx ends the threads stop after their current
// transaction, and every file is closed and removed.
//
// Each worker runs on its own locked OS thread (the Go SQLite engine runs on
// the calling goroutine, so the thread's context switches are the
// engine's), and GOMAXPROCS is raised to at least Threads+1 while Run is
// active, so a thread returning from fsync never waits for a scheduler slot
// as a pthread would not.
func Run(ctx context.Context, c Config) (*Result, error) {
	c, warnings, err := c.Normalize()
	if err != nil {
		return nil, err
	}
	if c.SyncCall == "fdatasync" {
		if err := sqlitevfs.Register(); err != nil {
			return nil, err
		}
	}
	res := &Result{Config: c, Warnings: warnings}
	res.Config.Progress = nil
	defer harness.RaiseProcs(c.Threads + 1)()

	var (
		// ready: prepared; end: the timed part is over (a delete then
		// drops its tables untimed, as Mobibench does after signalling
		// END); done: the goroutine has closed its connection.
		ready, end, done sync.WaitGroup
		start            = make(chan struct{})
		abort            atomic.Bool
	)
	workers := make([]*worker, c.Threads)
	for i := range workers {
		workers[i] = &worker{id: i, c: &c, abort: &abort, ctx: ctx}
	}
	ready.Add(len(workers))
	end.Add(len(workers))
	done.Add(len(workers))
	for _, w := range workers {
		go func() {
			defer done.Done()
			w.main(&ready, &end, start)
		}()
	}
	ready.Wait()
	fail := func(errs []error) (*Result, error) {
		abort.Store(true)
		close(start)
		done.Wait()
		return nil, errors.Join(append(errs, removeAll(c))...)
	}
	var prepErrs []error
	for _, w := range workers {
		if w.err != nil {
			prepErrs = append(prepErrs, w.err)
		}
	}
	if len(prepErrs) > 0 {
		return fail(prepErrs)
	}
	if err := ctx.Err(); err != nil {
		return fail([]error{fmt.Errorf("DB benchmark interrupted before the clock started: %w", err)})
	}
	if c.DropCaches {
		if err := pagecache.Drop(); err != nil {
			res.Warnings = append(res.Warnings, "page cache NOT dropped, results include cached pages: "+err.Error())
		} else {
			res.CachesDropped = true
		}
	}

	stopWatch := harness.Watch(ctx, &abort, func() (n int64) {
		for _, w := range workers {
			n += w.done.Load()
		}
		return n
	}, int64(c.PerThread()*c.Threads), c.Progress)
	base := time.Now()
	for _, w := range workers {
		w.base = base
	}
	cpu0, cpuErr0 := cpustat.Read()
	close(start)
	end.Wait()
	cpu1, cpuErr1 := cpustat.Read()
	res.Elapsed = time.Since(base)
	stopWatch()
	done.Wait()
	res.Start = base

	var runErrs []error
	for _, w := range workers {
		// A failing thread stops the others; report the failure, not the
		// stops it caused.
		if w.err != nil && !errors.Is(w.err, context.Canceled) && !errors.Is(w.err, errStopped) {
			runErrs = append(runErrs, w.err)
		}
		res.Threads = append(res.Threads, w.result)
	}
	if err := ctx.Err(); err != nil {
		return nil, errors.Join(fmt.Errorf("DB benchmark interrupted: %w", err), removeAll(c))
	}
	if len(runErrs) > 0 {
		return nil, errors.Join(append(runErrs, removeAll(c))...)
	}
	if err := errors.Join(cpuErr0, cpuErr1); err != nil {
		res.Warnings = append(res.Warnings, "no CPU accounting: "+err.Error())
	} else {
		res.CPU = cpustat.Between(cpu0, cpu1)
	}
	for _, t := range res.Threads {
		res.Switches = res.Switches.Add(t.Switches)
		res.Faults = res.Faults.Add(t.Faults)
		res.Transactions += int64(t.Transactions)
	}
	w0 := workers[0]
	res.SQLiteVersion, res.Info, res.Rows = w0.version, w0.info, w0.rows
	if c.Op == Delete && !c.KeepFiles {
		if err := removeAll(c); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// errStopped ends a thread that another thread's failure stopped.
var errStopped = errors.New("stopped")

type worker struct {
	id    int
	c     *Config
	ctx   context.Context
	abort *atomic.Bool
	base  time.Time // the clock start; written before start is closed

	db      *sql.DB
	conn    *sql.Conn
	txs     []string
	rows    int
	version string
	info    []DBInfo
	err     error
	result  ThreadResult

	_    [64]byte // keep done on its own cache line
	done atomic.Int64
	_    [56]byte
}

func (w *worker) main(ready, end *sync.WaitGroup, start <-chan struct{}) {
	// Never unlocked: when the goroutine ends, its thread ends with it, and
	// no later goroutine inherits its accounting.
	runtime.LockOSThread()
	defer w.close()
	if err := w.prepare(); err != nil {
		w.err = w.wrap(err)
	}
	ready.Done()
	<-start
	if w.err != nil || w.abort.Load() {
		end.Done()
		return
	}
	err := w.loop()
	end.Done()
	if err == nil && w.c.Op == Delete && !w.c.KeepFiles {
		err = w.exec(w.ctx, CleanupSQL(*w.c))
	}
	if err != nil {
		w.err = w.wrap(err)
		w.abort.Store(true)
	}
}

// wrap names the thread and its first database in an error.
func (w *worker) wrap(err error) error {
	return fmt.Errorf("thread %d (%s): %w", w.id, FileName(w.c.Dir, w.id, 0), err)
}

// exec runs statements in order, naming the failing one.
func (w *worker) exec(ctx context.Context, stmts []string) error {
	for _, s := range stmts {
		if _, err := w.conn.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", abbrev(s), err)
		}
	}
	return nil
}

func abbrev(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

func (w *worker) prepare() error {
	c := w.c
	w.result.Files = c.Files(w.id)
	dsn := w.result.Files[0]
	if c.SyncCall == "fdatasync" {
		dsn += "?vfs=" + sqlitevfs.Fdatasync
	}
	db, err := sql.Open(DriverName, dsn)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	w.db = db
	// One connection per thread, as Mobibench's sqlite3_open: the pool must
	// never open a second one behind our back.
	db.SetMaxOpenConns(1)
	if w.conn, err = db.Conn(w.ctx); err != nil {
		return fmt.Errorf("open: %w", err)
	}
	if err := w.exec(w.ctx, SessionSQL(*c, w.id)); err != nil {
		return err
	}
	if err := w.exec(w.ctx, SchemaSQL(*c)); err != nil {
		return err
	}
	if err := w.exec(w.ctx, PrefillSQL(*c)); err != nil {
		return fmt.Errorf("prefill: %w", err)
	}
	if c.Op != Insert {
		if err := w.conn.QueryRowContext(w.ctx, RowsSQL(*c)).Scan(&w.rows); err != nil {
			return fmt.Errorf("count rows: %w", err)
		}
	}
	if w.id == 0 {
		if err := w.readInfo(); err != nil {
			return err
		}
	}
	w.txs = Transactions(*c, w.rows)
	return nil
}

// DBInfo is Mobibench's "[DB information of db FILE]" block, read back
// through the connection that runs the transactions.
type DBInfo struct {
	File        string `json:"file"`
	PageSize    int    `json:"page_size"`
	JournalMode string `json:"journal_mode"`
	Synchronous int    `json:"synchronous"`
}

func (w *worker) readInfo() error {
	if err := w.conn.QueryRowContext(w.ctx, "select sqlite_version() AS sqlite_version;").Scan(&w.version); err != nil {
		return fmt.Errorf("sqlite_version: %w", err)
	}
	for d, f := range w.result.Files {
		q := InfoSQL(d)
		in := DBInfo{File: f}
		for i, dst := range []any{&in.PageSize, &in.JournalMode, &in.Synchronous} {
			if err := w.conn.QueryRowContext(w.ctx, q[i]).Scan(dst); err != nil {
				return fmt.Errorf("%s: %w", q[i], err)
			}
		}
		w.info = append(w.info, in)
	}
	return nil
}

func (w *worker) loop() error {
	sw0, f0, err := cpustat.ThreadUsage()
	if err != nil {
		return err
	}
	lat := make([]int64, 0, len(w.txs))
	w.result.Begin = time.Since(w.base).Nanoseconds()
	// The statements get a context that never ends: with a cancellable one
	// the driver starts a watcher goroutine per call, work Mobibench does
	// not do. Cancellation is checked between transactions instead.
	bg := context.Background()
	var timer *time.Timer
	for _, q := range w.txs {
		if w.abort.Load() {
			return errStopped
		}
		t0 := time.Now()
		if _, err := w.conn.ExecContext(bg, q); err != nil {
			return fmt.Errorf("transaction %d: %s: %w", len(lat), abbrev(q), err)
		}
		lat = append(lat, time.Since(t0).Nanoseconds())
		w.done.Add(1)
		w.result.Transactions++
		if w.c.Interval > 0 {
			if timer == nil {
				timer = time.NewTimer(w.c.Interval)
			} else {
				timer.Reset(w.c.Interval)
			}
			select {
			case <-timer.C:
			case <-w.ctx.Done():
				return w.ctx.Err()
			}
		}
	}
	t0 := time.Now()
	if err := w.exec(bg, FinishSQL(*w.c)); err != nil {
		return err
	}
	w.result.Checkpoint = time.Since(t0)
	sw1, f1, err := cpustat.ThreadUsage()
	if err != nil {
		return err
	}
	w.result.Elapsed = time.Since(w.base)
	w.result.Switches, w.result.Faults = sw1.Sub(sw0), f1.Sub(f0)
	w.result.Latencies = lat
	return nil
}

func (w *worker) close() {
	if w.conn != nil {
		if err := w.conn.Close(); err != nil && w.err == nil {
			w.err = w.wrap(fmt.Errorf("close: %w", err))
		}
	}
	if w.db != nil {
		if err := w.db.Close(); err != nil && w.err == nil {
			w.err = w.wrap(fmt.Errorf("close: %w", err))
		}
	}
}

// RemoveFiles deletes every file a run with c leaves in c.Dir: the
// databases and their journals, WAL and shared-memory files, and any master
// journal left by an interrupted multi-database commit.
func RemoveFiles(c Config) error {
	c, _, err := c.Normalize()
	if err != nil {
		return err
	}
	return removeAll(c)
}

func removeAll(c Config) error {
	var errs []error
	for t := 0; t < c.Threads; t++ {
		var names []string
		for _, f := range c.Files(t) {
			names = append(names, f, f+"-journal", f+"-wal", f+"-shm")
		}
		mj, _ := filepath.Glob(FileName(c.Dir, t, 0) + "-mj*")
		for _, n := range append(names, mj...) {
			if err := os.Remove(n); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, fmt.Errorf("remove %s: %w", n, err))
			}
		}
	}
	return errors.Join(errs...)
}
