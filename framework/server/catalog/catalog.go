// Package catalog is the results server's database: the runs pushed to it,
// their files (by content hash), their metrics' medians for ranking, and the
// push tokens. It runs on the embedded SQLite engine (modernc) by default,
// or on PostgreSQL (pgx); the SQL is kept portable and what differs between
// the engines sits behind Dialect.
//
// A run becomes visible in one transaction that writes its row, its files
// and its metrics together: a push cut short (a killed client or server)
// leaves no half-stored run.
package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrNotFound is returned (wrapped) when a run or token does not exist.
var ErrNotFound = errors.New("not found")

// ErrBadToken is returned by CheckToken for a missing, unknown, malformed or
// revoked token.
var ErrBadToken = errors.New("invalid or revoked token")

// ErrFull is returned (wrapped) when the database's disk is full.
var ErrFull = errors.New("the catalog database's disk is full")

// Catalog is an open catalog database; safe for concurrent use.
type Catalog struct {
	db *sql.DB
	d  Dialect
}

// Open opens (creating and migrating if needed) the catalog that dsn names:
// "sqlite:PATH", a bare PATH, or a "postgres://" URL.
func Open(ctx context.Context, dsn string) (*Catalog, error) {
	db, d, err := openDSN(dsn)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, db, d); err != nil {
		db.Close()
		return nil, fmt.Errorf("catalog %s: %w", redact(dsn), err)
	}
	return &Catalog{db: db, d: d}, nil
}

// Close closes the database.
func (c *Catalog) Close() error { return c.db.Close() }

// Dialect is the catalog's database dialect.
func (c *Catalog) Dialect() Dialect { return c.d }
