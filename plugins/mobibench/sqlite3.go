package mobibench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/storage/cpustat"
	"github.com/droidprof/droidprof/storage/dbbench"
	"github.com/droidprof/droidprof/storage/fsinfo"
	"github.com/droidprof/droidprof/storage/pagecache"
)

// SQLite3Binary is the sqlite3 shell the sqlite3 collector runs, looked up on
// PATH.
var SQLite3Binary = "sqlite3"

// infoMarker separates the setup script's own output from the values it
// reads back.
const infoMarker = "--droidprof-info--"

// setupScript is one thread's untimed setup: the session pragmas and
// attachments, the tables, the prefill, then the values Mobibench prints
// (sqlite_version and each database's pragmas) and the row count.
func setupScript(c dbbench.Config, thread int) []string {
	s := append(dbbench.SessionSQL(c, thread), dbbench.SchemaSQL(c)...)
	s = append(s, dbbench.PrefillSQL(c)...)
	s = append(s, "SELECT '"+infoMarker+"';", "select sqlite_version() AS sqlite_version;")
	for d := 0; d < c.DBs; d++ {
		s = append(s, dbbench.InfoSQL(d)...)
	}
	if c.Op != dbbench.Insert {
		s = append(s, dbbench.RowsSQL(c))
	}
	return s
}

// timedScript is one thread's timed run: the same session setup (pragmas do
// not persist across connections), one line per transaction, and the WAL
// checkpoint.
func timedScript(c dbbench.Config, thread, rows int) []string {
	s := append(dbbench.SessionSQL(c, thread), dbbench.Transactions(c, rows)...)
	return append(s, dbbench.FinishSQL(c)...)
}

// setupInfo is what the setup script read back.
type setupInfo struct {
	version string
	info    []dbbench.DBInfo
	rows    int
}

func parseSetup(out []byte, c dbbench.Config, thread int) (setupInfo, error) {
	var si setupInfo
	_, after, ok := strings.Cut(string(out), infoMarker+"\n")
	if !ok {
		return si, fmt.Errorf("sqlite3 setup output has no %s line: %q", infoMarker, out)
	}
	lines := strings.Split(strings.TrimSuffix(after, "\n"), "\n")
	want := 1 + 3*c.DBs
	if c.Op != dbbench.Insert {
		want++
	}
	if len(lines) != want {
		return si, fmt.Errorf("sqlite3 setup printed %d values, want %d: %q", len(lines), want, after)
	}
	si.version = lines[0]
	for d, f := range c.Files(thread) {
		v := lines[1+3*d : 4+3*d]
		ps, err1 := strconv.Atoi(v[0])
		sy, err2 := strconv.Atoi(v[2])
		if err := errors.Join(err1, err2); err != nil {
			return si, fmt.Errorf("sqlite3 setup: pragmas of %s: %w", f, err)
		}
		si.info = append(si.info, dbbench.DBInfo{File: f, PageSize: ps, JournalMode: v[1], Synchronous: sy})
	}
	if c.Op != dbbench.Insert {
		n, err := strconv.Atoi(lines[want-1])
		if err != nil {
			return si, fmt.Errorf("sqlite3 setup: row count: %w", err)
		}
		si.rows = n
	}
	return si, nil
}

// shell prepares one sqlite3 shell run of a script file on thread's first
// database; -bail stops it at the first error, so a failure is never
// measured as a fast run.
func shell(ctx context.Context, bin string, c dbbench.Config, thread int, script string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer, error) {
	in, err := os.Open(script)
	if err != nil {
		return nil, nil, nil, err
	}
	// -init /dev/null: a ~/.sqliterc must not change the workload.
	cmd := toolCommand(ctx, bin, "-init", "/dev/null", "-batch", "-bail", dbbench.FileName(c.Dir, thread, 0))
	var stdout, stderr bytes.Buffer
	// An *os.File goes to the child as its stdin directly: no copying
	// goroutine in the timed region.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, &stdout, &stderr
	return cmd, &stdout, &stderr, nil
}

// closeStdin closes the script a shell read; exec leaves a caller's *os.File
// open.
func closeStdin(cmd *exec.Cmd) {
	if f, ok := cmd.Stdin.(*os.File); ok {
		f.Close()
	}
}

func shellError(ctx context.Context, c dbbench.Config, thread int, script string, err error, stderr *bytes.Buffer) error {
	if ctx.Err() != nil {
		return fmt.Errorf("sqlite3 interrupted: %w", ctx.Err())
	}
	return fmt.Errorf("sqlite3 %s < %s: %v: %s", dbbench.FileName(c.Dir, thread, 0), filepath.Base(script), err, strings.TrimSpace(stderr.String()))
}

// runSQLite3 is the sqlite3 collector: the same SQL as the mobibench DB test,
// on the same per-thread files, run by the real sqlite3 shell. The setup
// (schema, prefill) runs untimed, one shell per thread; then one shell per
// thread runs its transaction script, all started together and timed from
// outside, from the first start to the last exit. It writes the scripts
// (sqlite3-setup.<T>.sql, sqlite3.<T>.sql) and result.json.
func runSQLite3(ctx context.Context, cfg Config, e env) (res *Result, arts []sdk.Artifact, err error) {
	bin, err := exec.LookPath(SQLite3Binary)
	if err != nil {
		return nil, nil, fmt.Errorf("the sqlite3 collector needs the sqlite3 shell on PATH (Debian/Ubuntu: apt-get install sqlite3): %w", err)
	}
	if !cfg.dbEnabled() {
		return nil, nil, fmt.Errorf("the sqlite3 collector runs Mobibench's DB test: set db.op to insert, update or delete")
	}
	c, warnings, err := cfg.dbConfig("-")
	if err != nil {
		return nil, nil, err
	}
	dir, cleanup, err := e.dataDir()
	if err != nil {
		return nil, nil, err
	}
	c.Dir = dir
	defer func() {
		// Mobibench's delete unlinks its files, and an interrupted run
		// leaves nothing behind.
		if err != nil || (c.Op == dbbench.Delete && !c.KeepFiles) {
			err = errors.Join(err, dbbench.RemoveFiles(c))
		}
		err = errors.Join(err, cleanup())
	}()
	a := &artifacts{dir: e.OutDir}
	script := func(name string, stmts []string) (string, error) {
		return filepath.Join(e.OutDir, name), a.add(name, sdk.KindRaw, "application/sql", "sqlite3 shell script", []byte(strings.Join(stmts, "\n")+"\n"))
	}

	var si setupInfo
	timed := make([]string, c.Threads)
	for t := range c.Threads {
		path, err := script(fmt.Sprintf("sqlite3-setup.%d.sql", t), setupScript(c, t))
		if err != nil {
			return nil, a.list, err
		}
		cmd, stdout, stderr, err := shell(ctx, bin, c, t, path)
		if err != nil {
			return nil, a.list, err
		}
		err = cmd.Run()
		closeStdin(cmd)
		if err != nil {
			return nil, a.list, shellError(ctx, c, t, path, err, stderr)
		}
		got, err := parseSetup(stdout.Bytes(), c, t)
		if err != nil {
			return nil, a.list, err
		}
		if t == 0 {
			si = got
		}
		if timed[t], err = script(fmt.Sprintf("sqlite3.%d.sql", t), timedScript(c, t, got.rows)); err != nil {
			return nil, a.list, err
		}
	}

	res = &Result{Collector: "sqlite3", Config: cfg, Threads: c.Threads, Dir: dir, Warnings: warnings}
	if c.SyncCall != "fdatasync" {
		res.Warnings = append(res.Warnings, fmt.Sprintf("db.sync_call = %q applies to mobibench only: the sqlite3 shell syncs as its build does (fdatasync on Debian), so the two tools differ in their sync call", c.SyncCall))
	}
	if c.DropCaches {
		if err := pagecache.Drop(); err != nil {
			res.Warnings = append(res.Warnings, "page cache NOT dropped, results include cached pages: "+err.Error())
		} else {
			res.CachesDropped = true
		}
	}
	cmds := make([]*exec.Cmd, c.Threads)
	errs := make([]*bytes.Buffer, c.Threads)
	for t := range cmds {
		if cmds[t], _, errs[t], err = shell(ctx, bin, c, t, timed[t]); err != nil {
			return nil, a.list, err
		}
	}
	if e.Progress != nil {
		e.Progress(0, 1, "runs", "sqlite3 running")
	}
	cpu0, cpuErr0 := cpustat.Read()
	start := time.Now()
	var runErrs []error
	for t, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			runErrs = append(runErrs, shellError(ctx, c, t, timed[t], err, errs[t]))
			closeStdin(cmd)
			cmds[t] = nil
		}
	}
	for t, cmd := range cmds {
		if cmd == nil {
			continue
		}
		err := cmd.Wait()
		closeStdin(cmd)
		if err != nil {
			runErrs = append(runErrs, shellError(ctx, c, t, timed[t], err, errs[t]))
			continue
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			v, i := ru.Nvcsw, ru.Nivcsw
			res.CtxVoluntary, res.CtxInvoluntary = addPtr(res.CtxVoluntary, v), addPtr(res.CtxInvoluntary, i)
			res.CtxTotal += v + i
			res.PageFaultsMinor += ru.Minflt
			res.PageFaultsMajor += ru.Majflt
		}
	}
	elapsed := time.Since(start)
	cpu1, cpuErr1 := cpustat.Read()
	if len(runErrs) > 0 {
		return nil, a.list, errors.Join(runErrs...)
	}
	if e.Progress != nil {
		e.Progress(1, 1, "runs", "sqlite3 done")
	}
	res.Started, res.ElapsedNS = start, elapsed.Nanoseconds()
	if err := errors.Join(cpuErr0, cpuErr1); err != nil {
		res.Warnings = append(res.Warnings, "no CPU accounting: "+err.Error())
	} else {
		u := cpustat.Between(cpu0, cpu1)
		res.CPUActive, res.CPUIdle, res.CPUIOWait = u.Active, u.Idle, u.IOWait
	}
	res.CPUSource = "/proc/stat around the sqlite3 processes (includes their start-up and exit)"
	res.Latency = Latency{Covers: "not measured: each shell runs all its transactions in one process, timed from outside"}
	if _, name, err := fsinfo.Type(dir); err == nil {
		res.FSType = name
	}
	db := newDBResult(c, "sqlite3 shell ("+bin+")")
	db.Transactions = int64(c.PerThread() * c.Threads)
	db.TPS = float64(db.Transactions) / elapsed.Seconds()
	db.Rows, db.SQLiteVersion, db.Info = si.rows, si.version, si.info
	res.DB = db
	e.warn(res.Warnings)
	if err := a.result(res, "sqlite3 shell measurements in Mobibench's terms"); err != nil {
		return nil, a.list, err
	}
	return res, a.list, nil
}

func addPtr(p *int64, v int64) *int64 {
	if p != nil {
		v += *p
	}
	return &v
}
