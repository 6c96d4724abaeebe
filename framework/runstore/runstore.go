// Package runstore keeps runs: one directory per run under a root (./runs by
// default), and an index of them in an embedded SQLite database
// (root/index.db) so that listing and filtering is quick.
//
// The run directories are the truth; the index is derived from them. A
// deleted or corrupt index.db is rebuilt from the directories, and a run
// directory copied in from elsewhere is found by Resolve and picked up by
// Reindex. Several droidprof processes may share one root: the index is in
// WAL mode with a busy timeout and every write is an immediate transaction.
package runstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/droidprof/droidprof/framework/results"
)

// Names inside the store root and inside a run directory.
const (
	DefaultDir  = "runs"     // the root when neither --out nor DROIDPROF_HOME is set
	IndexFile   = "index.db" // the index database in the root
	StepsDir    = "steps"    // raw artifacts, one subdirectory per step
	AnalysisDir = "analysis" // analyzer outputs: tables, figures
	LogsDir     = "logs"     // host and plugin logs
)

// StatusUnreadable is the index status of a run directory whose results.json
// exists but cannot be parsed; the run is listed so that it is not lost.
const StatusUnreadable = "unreadable"

// schemaVersion is PRAGMA user_version of the index. The index only holds
// data derived from run directories, so an older schema is migrated by
// dropping it and reindexing.
const schemaVersion = 1

// busyTimeout is how long a write waits for another process's write.
const busyTimeout = 30 * time.Second

// ErrNotFound is returned (wrapped) by Resolve when no run matches.
var ErrNotFound = errors.New("run not found")

// Root returns the store root: flagOut (the CLI's --out) if set, else
// $DROIDPROF_HOME/runs if DROIDPROF_HOME is set, else ./runs. env looks up
// environment variables; nil means os.Getenv.
func Root(flagOut string, env func(string) string) string {
	if flagOut != "" {
		return flagOut
	}
	if env == nil {
		env = os.Getenv
	}
	if home := env("DROIDPROF_HOME"); home != "" {
		return filepath.Join(home, DefaultDir)
	}
	return DefaultDir
}

// Store is a run store. Its methods are safe for concurrent use, and several
// Stores (in one or several processes) may share a root.
type Store struct {
	root string // absolute
	db   *sql.DB
}

// Run is a run directory created by Store.Create.
type Run struct {
	id, dir, experiment string
	started             time.Time
	lock                *RunLock
}

// Close releases the run's lock: call it when the run is finished. A run
// whose writer ends without Close (killed) is reported as crashed.
func (r *Run) Close() error { return r.lock.Unlock() }

// ID is the run's identifier, YYYYMMDD-HHMMSS-xxxxxx (UTC start time and
// 24 random bits), which sorts chronologically.
func (r *Run) ID() string { return r.id }

// Dir is the absolute path of the run directory.
func (r *Run) Dir() string { return r.dir }

// Experiment is the experiment name the run was created for.
func (r *Run) Experiment() string { return r.experiment }

// Started is the start time the run was created with.
func (r *Run) Started() time.Time { return r.started }

// ResultsPath is the path of the run's results.json.
func (r *Run) ResultsPath() string { return filepath.Join(r.dir, results.FileName) }

// Entry is one run in the index. Its JSON keys are those of results.json.
type Entry struct {
	ID          string    `json:"run_id"`
	Experiment  string    `json:"experiment"`
	Status      string    `json:"status"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished,omitzero"` // zero while running; the last write of a crashed run
	Dir         string    `json:"dir"`               // absolute
	ConfigFile  string    `json:"config_file"`
	Metrics     int       `json:"metrics"`
	Steps       int       `json:"steps"`
	FailedSteps int       `json:"failed_steps"`
	Hostname    string    `json:"hostname"`
}

// Filter selects runs for List. Empty fields match everything.
type Filter struct {
	// Experiment matches the experiment name exactly, or as a glob pattern
	// (*, ?, [...]) when it contains one of those characters.
	Experiment string
	Status     string
	Limit      int // <= 0: no limit
}

// AmbiguousError is returned by Resolve when a prefix matches several runs.
type AmbiguousError struct {
	Ref        string
	Candidates []string // run IDs, newest first
}

func (e *AmbiguousError) Error() string {
	const show = 10
	c := e.Candidates
	more := ""
	if len(c) > show {
		more = fmt.Sprintf(", and %d more", len(c)-show)
		c = c[:show]
	}
	return fmt.Sprintf("run %q is ambiguous: it matches %d runs: %s%s; give more of the ID",
		e.Ref, len(e.Candidates), strings.Join(c, ", "), more)
}

// Open opens the store rooted at root, creating root and its index if needed.
// A new or unreadable index is rebuilt from the run directories under root.
func Open(root string) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	s := &Store{root: abs}
	fresh, err := s.openIndex()
	if isNotADatabase(err) {
		// The index is derived data: move the damaged file aside (kept for
		// inspection) and rebuild it.
		aside := filepath.Join(abs, fmt.Sprintf("%s.corrupt-%s", IndexFile, time.Now().UTC().Format("20060102-150405")))
		if rerr := os.Rename(filepath.Join(abs, IndexFile), aside); rerr != nil {
			return nil, fmt.Errorf("run store %s: index is damaged (%v) and cannot be moved aside: %w", abs, err, rerr)
		}
		os.Remove(filepath.Join(abs, IndexFile+"-wal"))
		os.Remove(filepath.Join(abs, IndexFile+"-shm"))
		fresh, err = s.openIndex()
	}
	if err != nil {
		return nil, fmt.Errorf("run store %s: %w", abs, err)
	}
	if fresh {
		if err := s.Reindex(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

func isNotADatabase(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff
	return code == sqlite3.SQLITE_NOTADB || code == sqlite3.SQLITE_CORRUPT
}

// openIndex opens index.db and brings its schema to schemaVersion. fresh
// reports that the schema was (re)created, so the index must be rebuilt.
func (s *Store) openIndex() (fresh bool, err error) {
	p := filepath.ToSlash(filepath.Join(s.root, IndexFile))
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x on Windows
	}
	u := url.URL{Scheme: "file", Path: p}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	u.RawQuery = q.Encode()
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return false, err
	}
	db.SetMaxOpenConns(4)
	fresh, err = migrate(db)
	if err != nil {
		db.Close()
		return false, err
	}
	s.db = db
	return fresh, nil
}

const schema = `
CREATE TABLE runs (
	id           TEXT PRIMARY KEY,
	experiment   TEXT NOT NULL DEFAULT '',
	status       TEXT NOT NULL DEFAULT '',
	started      INTEGER NOT NULL,          -- Unix nanoseconds
	finished     INTEGER,                   -- Unix nanoseconds; NULL if not finished
	dir          TEXT NOT NULL,             -- relative to the store root
	config_file  TEXT NOT NULL DEFAULT '',
	metrics      INTEGER NOT NULL DEFAULT 0,
	steps        INTEGER NOT NULL DEFAULT 0,
	failed_steps INTEGER NOT NULL DEFAULT 0,
	hostname     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_started ON runs (started DESC, id DESC);
CREATE INDEX runs_experiment ON runs (experiment, started DESC);
`

func migrate(db *sql.DB) (fresh bool, err error) {
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return false, err
	}
	if v == schemaVersion {
		return false, nil // the common case needs no write lock
	}
	// Check again under the write lock: another process may be creating the
	// schema right now.
	tx, err := db.Begin()
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if err := tx.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return false, err
	}
	switch {
	case v == schemaVersion:
		return false, nil
	case v > schemaVersion:
		return false, fmt.Errorf("%s has schema version %d, newer than this droidprof understands (%d): use a newer droidprof, or delete %s to rebuild it",
			IndexFile, v, schemaVersion, IndexFile)
	}
	if _, err := tx.Exec("DROP TABLE IF EXISTS runs"); err != nil {
		return false, err
	}
	if _, err := tx.Exec(schema); err != nil {
		return false, err
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// Root is the absolute path of the store's root directory.
func (s *Store) Root() string { return s.root }

// Close closes the index.
func (s *Store) Close() error {
	if s.db == nil {
		return nil
	}
	return s.db.Close()
}

// Create makes a new run directory with its steps/, analysis/ and logs/
// subdirectories and an initial results.json (status running), and adds it to
// the index. A zero started means now.
func (s *Store) Create(experiment string, started time.Time) (*Run, error) {
	if started.IsZero() {
		started = time.Now()
	}
	var id, dir string
	for attempt := 0; ; attempt++ {
		id = newID(started)
		dir = filepath.Join(s.root, id)
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || attempt == 100 {
			return nil, fmt.Errorf("create run: %w", err)
		}
	}
	run := &Run{id: id, dir: dir, experiment: experiment, started: started}
	// The lock is taken before results.json exists, so that nobody sees a
	// "running" run without its writer holding the lock.
	lock, err := openLock(dir, true)
	if err == nil {
		run.lock = lock
		err = s.initRun(run)
	}
	if err != nil {
		run.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("create run %s: %w", id, err)
	}
	return run, nil
}

func (s *Store) initRun(run *Run) error {
	for _, sub := range []string{StepsDir, AnalysisDir, LogsDir} {
		if err := os.Mkdir(filepath.Join(run.dir, sub), 0o755); err != nil {
			return err
		}
	}
	host, _ := os.Hostname()
	res := &results.Results{
		RunID:       run.id,
		Experiment:  run.experiment,
		Status:      results.StatusRunning,
		Started:     run.started,
		Fingerprint: results.Fingerprint{Hostname: host},
	}
	if err := res.Write(run.ResultsPath()); err != nil {
		return err
	}
	return s.upsert(context.Background(), s.db, rowFrom(res, run.id))
}

func newID(started time.Time) string {
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand.Read does not fail on supported platforms
	}
	return started.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// Update writes the index row of r's run (matched by r.RunID) from r: status,
// times, counts, config file and host name.
func (s *Store) Update(r *results.Results) error {
	if err := validID(r.RunID); err != nil {
		return fmt.Errorf("update run index: %w", err)
	}
	if _, err := os.Stat(filepath.Join(s.root, r.RunID)); err != nil {
		return fmt.Errorf("update run index: run %s: %w", r.RunID, err)
	}
	if err := s.upsert(context.Background(), s.db, rowFrom(r, r.RunID)); err != nil {
		return fmt.Errorf("update run index: run %s: %w", r.RunID, err)
	}
	return nil
}

func validID(id string) error {
	if id == "" || id == "." || id == ".." || strings.ContainsAny(id, `/\`) {
		return fmt.Errorf("invalid run ID %q", id)
	}
	return nil
}

// row is an index row; dir is relative to the root.
type row struct {
	id, experiment, status, dir, configFile, hostname string
	started, finished                                 time.Time
	metrics, steps, failedSteps                       int
}

func rowFrom(r *results.Results, id string) row {
	w := row{
		id: id, experiment: r.Experiment, status: r.Status, dir: id,
		configFile: r.ConfigFile, hostname: r.Fingerprint.Hostname,
		started: r.Started, finished: r.Finished,
		metrics: len(r.Metrics), steps: len(r.Steps),
	}
	for _, st := range r.Steps {
		if st.Status == "failed" {
			w.failedSteps++
		}
	}
	return w
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *Store) upsert(ctx context.Context, db execer, w row) error {
	var finished any
	if !w.finished.IsZero() {
		finished = w.finished.UnixNano()
	}
	_, err := db.ExecContext(ctx, `
INSERT INTO runs (id, experiment, status, started, finished, dir, config_file, metrics, steps, failed_steps, hostname)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
	experiment = excluded.experiment, status = excluded.status, started = excluded.started,
	finished = excluded.finished, dir = excluded.dir, config_file = excluded.config_file,
	metrics = excluded.metrics, steps = excluded.steps, failed_steps = excluded.failed_steps,
	hostname = excluded.hostname`,
		w.id, w.experiment, w.status, w.started.UnixNano(), finished, w.dir, w.configFile,
		w.metrics, w.steps, w.failedSteps, w.hostname)
	return err
}

const selectEntries = `SELECT id, experiment, status, started, finished, dir, config_file, metrics, steps, failed_steps, hostname FROM runs`

// List returns the indexed runs that match f, newest first. Runs indexed
// as running whose writer is gone are marked crashed first (see Read).
func (s *Store) List(f Filter) ([]Entry, error) {
	if err := s.settle(); err != nil {
		return nil, err
	}
	q := selectEntries
	var where []string
	var args []any
	if f.Experiment != "" {
		if strings.ContainsAny(f.Experiment, "*?[") {
			where = append(where, "experiment GLOB ?")
		} else {
			where = append(where, "experiment = ?")
		}
		args = append(args, f.Experiment)
	}
	if f.Status != "" {
		where = append(where, "status = ?")
		args = append(args, f.Status)
	}
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY started DESC, id DESC"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	return s.query(q, args...)
}

// settle updates the index rows of running runs that crashed.
func (s *Store) settle() error {
	running, err := s.query(selectEntries+" WHERE status = ?", results.StatusRunning)
	if err != nil {
		return err
	}
	for _, e := range running {
		res, err := Read(e.Dir)
		if err != nil || res.Status == results.StatusRunning {
			continue // a vanished or unreadable run is Reindex's business
		}
		if err := s.upsert(context.Background(), s.db, rowFrom(res, e.ID)); err != nil {
			return fmt.Errorf("update run index: run %s: %w", e.ID, err)
		}
	}
	return nil
}

func (s *Store) query(q string, args ...any) ([]Entry, error) {
	rows, err := s.db.Query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("run index: %w", err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var started int64
		var finished sql.NullInt64
		if err := rows.Scan(&e.ID, &e.Experiment, &e.Status, &started, &finished, &e.Dir,
			&e.ConfigFile, &e.Metrics, &e.Steps, &e.FailedSteps, &e.Hostname); err != nil {
			return nil, fmt.Errorf("run index: %w", err)
		}
		e.Started = time.Unix(0, started)
		if finished.Valid {
			e.Finished = time.Unix(0, finished.Int64)
		}
		if !filepath.IsAbs(e.Dir) {
			e.Dir = filepath.Join(s.root, filepath.FromSlash(e.Dir))
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("run index: %w", err)
	}
	return out, nil
}

// Resolve turns a user's run reference into a run directory. ref may be
//   - a path to a run directory (a directory holding results.json) or to its
//     results.json, wherever it is: runs copied from elsewhere work;
//   - a run ID in this store;
//   - a unique prefix of a run ID in this store.
//
// ref is taken as a path when it contains a path separator or starts with a
// dot; otherwise as an ID or prefix, and, failing that, as a directory
// relative to the working directory. A prefix that matches several runs is an
// *AmbiguousError listing them; no match wraps ErrNotFound.
func (s *Store) Resolve(ref string) (dir string, err error) {
	if ref == "" {
		return "", errors.New("empty run reference: give a run ID, an ID prefix or a run directory")
	}
	if looksLikePath(ref) {
		return runDir(ref)
	}
	ids, err := s.candidates(ref)
	if err != nil {
		return "", err
	}
	for _, id := range ids {
		if id == ref {
			return filepath.Join(s.root, id), nil
		}
	}
	switch len(ids) {
	case 1:
		return filepath.Join(s.root, ids[0]), nil
	case 0:
		if fi, err := os.Stat(ref); err == nil && fi.IsDir() {
			return runDir(ref)
		}
		return "", fmt.Errorf("%w: no run %q in %s (list them with \"droidprof runs\"; a run stored with run --out DIR is found with --out DIR; a path to a run directory works too)",
			ErrNotFound, ref, s.root)
	}
	return "", &AmbiguousError{Ref: ref, Candidates: ids}
}

func looksLikePath(ref string) bool {
	return strings.ContainsRune(ref, '/') || strings.ContainsRune(ref, filepath.Separator) ||
		strings.HasPrefix(ref, ".") || filepath.IsAbs(ref)
}

// runDir checks that path is a run directory, or a results.json in one, and
// returns the directory's absolute path.
func runDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%w: %s does not exist", ErrNotFound, path)
		}
		return "", err
	}
	if !fi.IsDir() {
		if filepath.Base(abs) == results.FileName {
			return filepath.Dir(abs), nil
		}
		return "", fmt.Errorf("%s is not a run directory", path)
	}
	if _, err := os.Stat(filepath.Join(abs, results.FileName)); err != nil {
		return "", fmt.Errorf("%s is not a run directory: no %s in it", path, results.FileName)
	}
	return abs, nil
}

// candidates returns the IDs of runs in this store whose ID starts with
// prefix, newest first: runs in the index and run directories under the root
// that are not indexed yet, provided their directory still holds a
// results.json.
func (s *Store) candidates(prefix string) ([]string, error) {
	rows, err := s.db.Query(`SELECT id FROM runs WHERE substr(id, 1, length(?1)) = ?1 ORDER BY started DESC, id DESC`, prefix)
	if err != nil {
		return nil, fmt.Errorf("run index: %w", err)
	}
	var indexed []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("run index: %w", err)
		}
		indexed = append(indexed, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("run index: %w", err)
	}
	seen := map[string]bool{}
	var ids []string
	for _, id := range indexed {
		if !seen[id] && isRunDir(filepath.Join(s.root, id)) {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	ents, err := os.ReadDir(s.root)
	if err != nil {
		return nil, err
	}
	var extra []string
	for _, e := range ents {
		if e.IsDir() && strings.HasPrefix(e.Name(), prefix) && !seen[e.Name()] && isRunDir(filepath.Join(s.root, e.Name())) {
			extra = append(extra, e.Name())
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(extra)))
	return append(ids, extra...), nil
}

func isRunDir(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, results.FileName))
	return err == nil && fi.Mode().IsRegular()
}

// indexFields is the part of results.json the index needs; decoding into it
// skips the raw samples.
type indexFields struct {
	RunID       string    `json:"run_id"`
	Experiment  string    `json:"experiment"`
	ConfigFile  string    `json:"config_file"`
	Status      string    `json:"status"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished"`
	Fingerprint struct {
		Hostname string `json:"hostname"`
	} `json:"fingerprint"`
	Steps []struct {
		Status string `json:"status"`
	} `json:"steps"`
	Metrics []struct{} `json:"metrics"`
}

// scanned is one run directory read by Reindex.
type scanned struct {
	row  row
	info fs.FileInfo // of results.json when read
}

// readRow builds the index row of the run directory root/name.
func (s *Store) readRow(name string) (scanned, bool) {
	dir := filepath.Join(s.root, name)
	path := filepath.Join(dir, results.FileName)
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return scanned{}, false
	}
	w := row{id: name, dir: name}
	data, err := os.ReadFile(path)
	var f indexFields
	if err == nil {
		err = json.Unmarshal(data, &f)
	}
	if err != nil {
		w.status = StatusUnreadable
		w.started = startedFromID(name, info.ModTime())
		return scanned{row: w, info: info}, true
	}
	w.experiment, w.status, w.configFile = f.Experiment, f.Status, f.ConfigFile
	w.hostname = f.Fingerprint.Hostname
	w.started, w.finished = f.Started, f.Finished
	if w.started.IsZero() {
		w.started = startedFromID(name, info.ModTime())
	}
	w.metrics, w.steps = len(f.Metrics), len(f.Steps)
	for _, st := range f.Steps {
		if st.Status == "failed" {
			w.failedSteps++
		}
	}
	return scanned{row: w, info: info}, true
}

func startedFromID(id string, fallback time.Time) time.Time {
	if len(id) >= 15 {
		if t, err := time.Parse("20060102-150405", id[:15]); err == nil {
			return t
		}
	}
	return fallback
}

// Reindex rebuilds the index from the run directories under the root (every
// subdirectory holding a results.json). Runs whose results.json cannot be
// parsed are indexed with status StatusUnreadable. It is safe while other
// processes create and update runs: directories are read first, then, inside
// one write transaction, any results.json replaced in the meantime is read
// again and rows of vanished directories are dropped.
func (s *Store) Reindex() error {
	ents, err := os.ReadDir(s.root)
	if err != nil {
		return fmt.Errorf("reindex %s: %w", s.root, err)
	}
	var found []scanned
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if sc, ok := s.readRow(e.Name()); ok {
			found = append(found, sc)
		}
	}

	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("reindex %s: %w", s.root, err)
	}
	defer tx.Rollback()
	keep := map[string]bool{}
	for _, sc := range found {
		fi, err := os.Stat(filepath.Join(s.root, sc.row.id, results.FileName))
		if err != nil {
			continue // removed since the scan
		}
		if !os.SameFile(fi, sc.info) || !fi.ModTime().Equal(sc.info.ModTime()) || fi.Size() != sc.info.Size() {
			// Replaced since the scan; under the write lock it can be
			// replaced again, but its index row cannot be written
			// until we commit, and that write will win.
			var ok bool
			if sc, ok = s.readRow(sc.row.id); !ok {
				continue
			}
		}
		if err := s.upsert(ctx, tx, sc.row); err != nil {
			return fmt.Errorf("reindex %s: %w", s.root, err)
		}
		keep[sc.row.id] = true
	}
	// Drop rows whose run directory is gone, except runs created since the
	// scan (their directory holds a results.json).
	rows, err := tx.QueryContext(ctx, `SELECT id FROM runs`)
	if err != nil {
		return fmt.Errorf("reindex %s: %w", s.root, err)
	}
	var drop []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("reindex %s: %w", s.root, err)
		}
		if !keep[id] && !isRunDir(filepath.Join(s.root, id)) {
			drop = append(drop, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reindex %s: %w", s.root, err)
	}
	for _, id := range drop {
		if _, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE id = ?`, id); err != nil {
			return fmt.Errorf("reindex %s: %w", s.root, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("reindex %s: %w", s.root, err)
	}
	return nil
}
