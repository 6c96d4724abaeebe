package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Run is a pushed run's row: what lists and filters need, from its
// results.json.
type Run struct {
	ID         string    `json:"run_id"`
	Experiment string    `json:"experiment"`
	Status     string    `json:"status"`
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished,omitzero"`
	Hostname   string    `json:"hostname"`
	OS         string    `json:"os"`
	Arch       string    `json:"arch"`
	CPUModel   string    `json:"cpu_model"`
	// Device is what the run ran on, for ranking devices: the run's
	// "device" label, else its fingerprint's CPU model, else its host.
	Device           string `json:"device"`
	FSType           string `json:"fs_type"`
	StorageBackend   string `json:"storage_backend"`
	DroidprofVersion string `json:"droidprof_version"`
	// Plugins are the plugins the run used, sorted.
	Plugins []string `json:"plugins"`
	// ResultsSHA256 is the hash of the run's results.json: a push of the
	// same content is a no-op, another content replaces the run.
	ResultsSHA256 string    `json:"results_sha256"`
	Pushed        time.Time `json:"pushed"`
	PushedBy      string    `json:"pushed_by"`
}

// File is a file of a pushed run, stored by content.
type File struct {
	Path   string `json:"path"` // relative to the run directory, slash-separated
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// Metric is the summary of one of a run's metrics that ranking needs.
type Metric struct {
	Key    string  `json:"key"` // name and labels, as results.Metric.Key
	Name   string  `json:"name"`
	Unit   string  `json:"unit"`
	Better string  `json:"better"`
	Median float64 `json:"median"`
	N      int     `json:"n"`
}

// Outcome is what Put did.
type Outcome int

// Outcomes of Put.
const (
	Stored    Outcome = iota // a new run
	Unchanged                // the same content was stored already
	Replaced                 // the run was stored with other content (re-analysed)
)

// Put stores run with its files and metrics in one transaction, or does
// nothing when the run is stored already with the same results.json.
func (c *Catalog) Put(ctx context.Context, run Run, files []File, metrics []Metric) (Outcome, error) {
	for attempt := 0; ; attempt++ {
		out, err := c.put(ctx, run, files, metrics)
		if err != nil && c.d.IsFull(err) {
			return out, fmt.Errorf("%w: %w", ErrFull, err)
		}
		// A concurrent push of the same run won the insert: look again,
		// it is most likely the same content.
		if err == nil || !c.d.IsConflict(err) || attempt == 3 {
			return out, err
		}
	}
}

func (c *Catalog) put(ctx context.Context, run Run, files []File, metrics []Metric) (Outcome, error) {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store run %s: %w", run.ID, err)
	}
	defer tx.Rollback()
	var sum string
	err = tx.QueryRowContext(ctx, c.d.Rebind(`SELECT results_sha256 FROM runs WHERE id = ?`), run.ID).Scan(&sum)
	out := Stored
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return 0, fmt.Errorf("store run %s: %w", run.ID, err)
	case sum == run.ResultsSHA256:
		return Unchanged, nil
	default:
		out = Replaced
		// Children first: not every engine is asked to cascade.
		for _, q := range []string{`DELETE FROM run_files WHERE run_id = ?`, `DELETE FROM metrics WHERE run_id = ?`, `DELETE FROM runs WHERE id = ?`} {
			if _, err := tx.ExecContext(ctx, c.d.Rebind(q), run.ID); err != nil {
				return 0, fmt.Errorf("store run %s: replace: %w", run.ID, err)
			}
		}
	}
	var finished any
	if !run.Finished.IsZero() {
		finished = run.Finished.UnixNano()
	}
	if _, err := tx.ExecContext(ctx, c.d.Rebind(`INSERT INTO runs (id, experiment, status, started, finished, hostname, os, arch, cpu_model,
	fs_type, storage_backend, droidprof_version, plugins, results_sha256, pushed, pushed_by, device)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		run.ID, run.Experiment, run.Status, run.Started.UnixNano(), finished, run.Hostname, run.OS, run.Arch, run.CPUModel,
		run.FSType, run.StorageBackend, run.DroidprofVersion, joinPlugins(run.Plugins), run.ResultsSHA256, run.Pushed.UnixNano(), run.PushedBy, run.Device); err != nil {
		return 0, fmt.Errorf("store run %s: %w", run.ID, err)
	}
	for _, f := range files {
		if _, err := tx.ExecContext(ctx, c.d.Rebind(`INSERT INTO run_files (run_id, path, sha256, size) VALUES (?, ?, ?, ?)`),
			run.ID, f.Path, f.SHA256, f.Size); err != nil {
			return 0, fmt.Errorf("store run %s: file %s: %w", run.ID, f.Path, err)
		}
	}
	for _, m := range metrics {
		if _, err := tx.ExecContext(ctx, c.d.Rebind(`INSERT INTO metrics (run_id, metric_key, name, unit, better, median, n) VALUES (?, ?, ?, ?, ?, ?, ?)`),
			run.ID, m.Key, m.Name, m.Unit, m.Better, m.Median, m.N); err != nil {
			return 0, fmt.Errorf("store run %s: metric %s: %w", run.ID, m.Key, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store run %s: %w", run.ID, err)
	}
	return out, nil
}

// joinPlugins stores plugin names as ",a,b," so that a filter on one is a
// portable LIKE '%,name,%'.
func joinPlugins(p []string) string {
	if len(p) == 0 {
		return ""
	}
	return "," + strings.Join(p, ",") + ","
}

func splitPlugins(s string) []string {
	s = strings.Trim(s, ",")
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

// Filter selects runs; empty fields match everything.
type Filter struct {
	Experiment string
	Plugin     string
	Hostname   string
	Device     string
	FSType     string
	Since      time.Time // started at or after
	Until      time.Time // started before
	Limit      int       // <= 0: DefaultLimit
}

// DefaultLimit bounds a listing that names no limit.
const DefaultLimit = 200

const runColumns = `id, experiment, status, started, finished, hostname, os, arch, cpu_model, fs_type, storage_backend,
	droidprof_version, plugins, results_sha256, pushed, pushed_by, device`

// List returns the runs f selects, newest first.
func (c *Catalog) List(ctx context.Context, f Filter) ([]Run, error) {
	var where []string
	var args []any
	add := func(cond string, v any) { where = append(where, cond); args = append(args, v) }
	if f.Experiment != "" {
		add("experiment = ?", f.Experiment)
	}
	if f.Plugin != "" {
		add("plugins LIKE ?", "%,"+likeEscape(f.Plugin)+",%")
		where[len(where)-1] += ` ESCAPE '\'`
	}
	if f.Hostname != "" {
		add("hostname = ?", f.Hostname)
	}
	if f.Device != "" {
		add("device = ?", f.Device)
	}
	if f.FSType != "" {
		add("fs_type = ?", f.FSType)
	}
	if !f.Since.IsZero() {
		add("started >= ?", f.Since.UnixNano())
	}
	if !f.Until.IsZero() {
		add("started < ?", f.Until.UnixNano())
	}
	q := `SELECT ` + runColumns + ` FROM runs`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	q += " ORDER BY started DESC, id DESC LIMIT ?"
	args = append(args, limit)
	rows, err := c.db.QueryContext(ctx, c.d.Rebind(q), args...)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	out := []Run{}
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("list runs: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

type scanner interface{ Scan(dest ...any) error }

func scanRun(s scanner) (Run, error) {
	var r Run
	var started, pushed int64
	var finished sql.NullInt64
	var plugins string
	if err := s.Scan(&r.ID, &r.Experiment, &r.Status, &started, &finished, &r.Hostname, &r.OS, &r.Arch, &r.CPUModel,
		&r.FSType, &r.StorageBackend, &r.DroidprofVersion, &plugins, &r.ResultsSHA256, &pushed, &r.PushedBy, &r.Device); err != nil {
		return r, err
	}
	r.Started, r.Pushed = time.Unix(0, started).UTC(), time.Unix(0, pushed).UTC()
	if finished.Valid {
		r.Finished = time.Unix(0, finished.Int64).UTC()
	}
	r.Plugins = splitPlugins(plugins)
	return r, nil
}

// Get returns the run id and its files.
func (c *Catalog) Get(ctx context.Context, id string) (Run, []File, error) {
	r, err := scanRun(c.db.QueryRowContext(ctx, c.d.Rebind(`SELECT `+runColumns+` FROM runs WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, nil, fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return r, nil, fmt.Errorf("run %s: %w", id, err)
	}
	rows, err := c.db.QueryContext(ctx, c.d.Rebind(`SELECT path, sha256, size FROM run_files WHERE run_id = ? ORDER BY path`), id)
	if err != nil {
		return r, nil, fmt.Errorf("run %s: %w", id, err)
	}
	defer rows.Close()
	files := []File{}
	for rows.Next() {
		var f File
		if err := rows.Scan(&f.Path, &f.SHA256, &f.Size); err != nil {
			return r, nil, fmt.Errorf("run %s: %w", id, err)
		}
		files = append(files, f)
	}
	return r, files, rows.Err()
}

// Count returns how many runs are stored.
func (c *Catalog) Count(ctx context.Context) (int, error) {
	var n int
	err := c.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM runs`).Scan(&n)
	return n, err
}
