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
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned (wrapped) when a run or token does not exist.
var ErrNotFound = errors.New("not found")

// ErrBadToken is returned by CheckToken for a missing, unknown, malformed or
// revoked token.
var ErrBadToken = errors.New("invalid or revoked token")

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

// tokenPrefix marks droidprof push tokens, so that one pasted in the wrong
// place is recognisable.
const tokenPrefix = "dpt_"

// CreateToken makes a push token named name and returns it. Only its hash
// is stored: a lost token is replaced, not recovered.
func (c *Catalog) CreateToken(ctx context.Context, name string) (string, error) {
	var id [8]byte
	var sec [24]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", err
	}
	if _, err := rand.Read(sec[:]); err != nil {
		return "", err
	}
	tok := tokenPrefix + hex.EncodeToString(id[:]) + "_" + hex.EncodeToString(sec[:])
	_, err := c.db.ExecContext(ctx, c.d.Rebind(`INSERT INTO tokens (id, name, hash, created) VALUES (?, ?, ?, ?)`),
		hex.EncodeToString(id[:]), name, hashToken(tok), time.Now().UnixNano())
	if err != nil {
		return "", fmt.Errorf("create token: %w", err)
	}
	return tok, nil
}

func hashToken(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// CheckToken returns the name of the token tok, or an error wrapping
// ErrBadToken.
func (c *Catalog) CheckToken(ctx context.Context, tok string) (string, error) {
	rest, ok := strings.CutPrefix(tok, tokenPrefix)
	id, _, ok2 := strings.Cut(rest, "_")
	if !ok || !ok2 || len(id) != 16 {
		return "", ErrBadToken
	}
	var name, hash string
	var revoked sql.NullInt64
	err := c.db.QueryRowContext(ctx, c.d.Rebind(`SELECT name, hash, revoked FROM tokens WHERE id = ?`), id).Scan(&name, &hash, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrBadToken
	}
	if err != nil {
		return "", fmt.Errorf("check token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(hash), []byte(hashToken(tok))) != 1 || revoked.Valid {
		return "", ErrBadToken
	}
	return name, nil
}

// RevokeToken revokes the token whose ID (the 16 hex digits after "dpt_")
// is id.
func (c *Catalog) RevokeToken(ctx context.Context, id string) error {
	r, err := c.db.ExecContext(ctx, c.d.Rebind(`UPDATE tokens SET revoked = ? WHERE id = ? AND revoked IS NULL`), time.Now().UnixNano(), id)
	if err != nil {
		return fmt.Errorf("revoke token: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return fmt.Errorf("revoke token %s: %w", id, ErrNotFound)
	}
	return nil
}
