package catalog

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite" // the embedded engine the run index uses too
	sqlite3 "modernc.org/sqlite/lib"
)

// Dialect is what differs between the databases the catalog runs on. The
// catalog's SQL is otherwise portable (standard types, ON CONFLICT, no
// engine-specific functions), so PostgreSQL needs only another Dialect.
type Dialect interface {
	// Name is the dialect's name in messages ("sqlite").
	Name() string
	// Rebind rewrites the catalog's "?" parameters into the dialect's.
	Rebind(query string) string
	// IsConflict reports a unique-key violation (a concurrent insert of
	// the same run).
	IsConflict(err error) bool
	// IsFull reports a write refused because the database's disk is full.
	IsFull(err error) bool
}

// sqliteDialect is modernc's SQLite: "?" parameters as written.
type sqliteDialect struct{}

func (sqliteDialect) Name() string           { return "sqlite" }
func (sqliteDialect) Rebind(q string) string { return q }

// IsConflict is always false: SQLite's write transactions are serialised
// (immediate), so a second insert sees the first.
func (sqliteDialect) IsConflict(error) bool { return false }

// IsFull reports SQLITE_FULL, and an I/O error the kernel gave as ENOSPC
// (SQLite reports some failed writes, of the WAL index for one, as I/O
// errors with the errno beside them).
func (sqliteDialect) IsFull(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff // the primary code of an extended one
	return code == sqlite3.SQLITE_FULL || (code == sqlite3.SQLITE_IOERR && strings.Contains(se.Error(), "no space left"))
}

// busyTimeout is how long a write waits for a concurrent one (many pushers
// share one SQLite file).
const busyTimeout = 30 * time.Second

// openDSN opens the database a --db value names: sqlite:PATH, a bare PATH,
// or a postgres:// URL.
func openDSN(dsn string) (*sql.DB, Dialect, error) {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return openPostgres(dsn)
	case strings.HasPrefix(dsn, "sqlite:"):
		dsn = strings.TrimPrefix(dsn, "sqlite:")
	case strings.Contains(dsn, "://"):
		return nil, nil, fmt.Errorf("--db %s: unknown database; use sqlite:PATH or postgres://…", redact(dsn))
	}
	if dsn == "" {
		return nil, nil, fmt.Errorf("--db sqlite: needs a file path (sqlite:PATH)")
	}
	abs, err := filepath.Abs(dsn)
	if err != nil {
		return nil, nil, err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	u.RawQuery = q.Encode()
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, nil, err
	}
	db.SetMaxOpenConns(8)
	return db, sqliteDialect{}, nil
}

// redact hides a password in a database URL.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	return u.Redacted()
}
