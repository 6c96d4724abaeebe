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

// Scope is what a token allows.
type Scope string

// Scopes: push implies read.
const (
	ScopeRead Scope = "read"
	ScopePush Scope = "push"
)

// ParseScope checks a scope's name.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case ScopeRead, ScopePush:
		return Scope(s), nil
	}
	return "", fmt.Errorf("scope %q: use read or push (push implies read)", s)
}

// Allows reports whether a token of scope s may do what need asks.
func (s Scope) Allows(need Scope) bool { return s == ScopePush || s == need }

// Token is a token's record; the secret itself is never stored.
type Token struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Scope    Scope     `json:"scope"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used,omitzero"`
	Revoked  time.Time `json:"revoked,omitzero"`
}

// tokenPrefix marks droidprof tokens, so that one pasted in the wrong place
// is recognisable.
const tokenPrefix = "dpt_"

// lastUsedGrain is how stale a token's last use may be before a check
// records it again: a write per request would serialise every read of a
// busy SQLite server behind the writer lock.
const lastUsedGrain = time.Minute

// CreateToken makes a token named name with scope and returns it. Only its
// hash is stored: a lost token is replaced, not recovered.
func (c *Catalog) CreateToken(ctx context.Context, name string, scope Scope) (string, error) {
	if _, err := ParseScope(string(scope)); err != nil {
		return "", fmt.Errorf("create token: %w", err)
	}
	var id [8]byte
	var sec [24]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", err
	}
	if _, err := rand.Read(sec[:]); err != nil {
		return "", err
	}
	tok := tokenPrefix + hex.EncodeToString(id[:]) + "_" + hex.EncodeToString(sec[:])
	_, err := c.db.ExecContext(ctx, c.d.Rebind(`INSERT INTO tokens (id, name, hash, created, scope) VALUES (?, ?, ?, ?, ?)`),
		hex.EncodeToString(id[:]), name, hashSecret(tok), time.Now().UnixNano(), string(scope))
	if err != nil {
		return "", fmt.Errorf("create token: %w", err)
	}
	return tok, nil
}

func hashSecret(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

const tokenColumns = `id, name, scope, created, last_used, revoked`

func scanToken(s scanner) (Token, error) {
	var t Token
	var scope string
	var created int64
	var used, revoked sql.NullInt64
	if err := s.Scan(&t.ID, &t.Name, &scope, &created, &used, &revoked); err != nil {
		return t, err
	}
	t.Scope, t.Created = Scope(scope), time.Unix(0, created).UTC()
	if used.Valid {
		t.LastUsed = time.Unix(0, used.Int64).UTC()
	}
	if revoked.Valid {
		t.Revoked = time.Unix(0, revoked.Int64).UTC()
	}
	return t, nil
}

// CheckToken returns the token tok, or an error wrapping ErrBadToken when it
// is missing, unknown, malformed or revoked. It records the use.
func (c *Catalog) CheckToken(ctx context.Context, tok string) (Token, error) {
	rest, ok := strings.CutPrefix(tok, tokenPrefix)
	id, _, ok2 := strings.Cut(rest, "_")
	if !ok || !ok2 || len(id) != 16 {
		return Token{}, ErrBadToken
	}
	var hash string
	t, err := scanToken(scanFunc(func(dest ...any) error {
		return c.db.QueryRowContext(ctx, c.d.Rebind(`SELECT `+tokenColumns+`, hash FROM tokens WHERE id = ?`), id).Scan(append(dest, &hash)...)
	}))
	if errors.Is(err, sql.ErrNoRows) {
		return Token{}, ErrBadToken
	}
	if err != nil {
		return Token{}, fmt.Errorf("check token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(hash), []byte(hashSecret(tok))) != 1 || !t.Revoked.IsZero() {
		return Token{}, ErrBadToken
	}
	c.used(ctx, t)
	return t, nil
}

// used records that t was just used, at lastUsedGrain. It is best effort:
// a database that cannot take the write (its disk full) must still let
// the token read, and a push fail on its own write with the real cause.
func (c *Catalog) used(ctx context.Context, t Token) {
	now := time.Now()
	if now.Sub(t.LastUsed) < lastUsedGrain {
		return
	}
	c.db.ExecContext(ctx, c.d.Rebind(`UPDATE tokens SET last_used = ? WHERE id = ?`), now.UnixNano(), t.ID)
}

// scanFunc makes a function a scanner.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// Tokens lists every token, revoked ones too, oldest first.
func (c *Catalog) Tokens(ctx context.Context) ([]Token, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT `+tokenColumns+` FROM tokens ORDER BY created, id`)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	defer rows.Close()
	out := []Token{}
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, fmt.Errorf("list tokens: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeToken revokes the token whose ID (the 16 hex digits after "dpt_")
// or name is which, and ends its browser sessions. A name that several
// unrevoked tokens share is refused: say which by ID.
func (c *Catalog) RevokeToken(ctx context.Context, which string) (Token, error) {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return Token{}, fmt.Errorf("revoke token: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, c.d.Rebind(`SELECT `+tokenColumns+` FROM tokens WHERE (id = ? OR name = ?) AND revoked IS NULL ORDER BY id`), which, which)
	if err != nil {
		return Token{}, fmt.Errorf("revoke token: %w", err)
	}
	var match []Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			rows.Close()
			return Token{}, fmt.Errorf("revoke token: %w", err)
		}
		match = append(match, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Token{}, fmt.Errorf("revoke token: %w", err)
	}
	switch len(match) {
	case 0:
		return Token{}, fmt.Errorf("revoke token %s: no unrevoked token has this ID or name: %w", which, ErrNotFound)
	case 1:
	default:
		ids := make([]string, len(match))
		for i, t := range match {
			ids[i] = t.ID
		}
		return Token{}, fmt.Errorf("revoke token %s: %d tokens have this name (IDs %s): give the ID", which, len(match), strings.Join(ids, ", "))
	}
	t := match[0]
	now := time.Now()
	if _, err := tx.ExecContext(ctx, c.d.Rebind(`UPDATE tokens SET revoked = ? WHERE id = ?`), now.UnixNano(), t.ID); err != nil {
		return Token{}, fmt.Errorf("revoke token %s: %w", t.ID, err)
	}
	if _, err := tx.ExecContext(ctx, c.d.Rebind(`DELETE FROM sessions WHERE token_id = ?`), t.ID); err != nil {
		return Token{}, fmt.Errorf("revoke token %s: end its sessions: %w", t.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return Token{}, fmt.Errorf("revoke token %s: %w", t.ID, err)
	}
	t.Revoked = now.UTC()
	return t, nil
}
