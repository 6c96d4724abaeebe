package catalog

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// ErrNoSession is returned (wrapped) for a browser session that is unknown,
// expired, signed out, or whose token was revoked.
var ErrNoSession = errors.New("no such session")

// CreateSession starts a browser session for token t, valid for ttl, and
// returns its secret ID for a cookie. Only the ID's hash is stored, and the
// session is bound to the token: revoking the token ends it.
func (c *Catalog) CreateSession(ctx context.Context, t Token, ttl time.Duration) (string, error) {
	var sec [32]byte
	if _, err := rand.Read(sec[:]); err != nil {
		return "", err
	}
	sid := hex.EncodeToString(sec[:])
	now := time.Now()
	// Expired sessions go here rather than in a background sweeper: a
	// sign-in is rare, and no goroutine outlives the server.
	if _, err := c.db.ExecContext(ctx, c.d.Rebind(`DELETE FROM sessions WHERE expires < ?`), now.UnixNano()); err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	if _, err := c.db.ExecContext(ctx, c.d.Rebind(`INSERT INTO sessions (hash, token_id, created, expires) VALUES (?, ?, ?, ?)`),
		hashSecret(sid), t.ID, now.UnixNano(), now.Add(ttl).UnixNano()); err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return sid, nil
}

// CheckSession returns the token of session sid, or an error wrapping
// ErrNoSession.
func (c *Catalog) CheckSession(ctx context.Context, sid string) (Token, error) {
	if len(sid) != 64 {
		return Token{}, ErrNoSession
	}
	var expires int64
	t, err := scanToken(scanFunc(func(dest ...any) error {
		return c.db.QueryRowContext(ctx, c.d.Rebind(`SELECT t.id, t.name, t.scope, t.created, t.last_used, t.revoked, s.expires
FROM sessions s JOIN tokens t ON t.id = s.token_id WHERE s.hash = ?`), hashSecret(sid)).Scan(append(dest, &expires)...)
	}))
	if errors.Is(err, sql.ErrNoRows) {
		return Token{}, ErrNoSession
	}
	if err != nil {
		return Token{}, fmt.Errorf("check session: %w", err)
	}
	if !t.Revoked.IsZero() || time.Now().UnixNano() > expires {
		return Token{}, ErrNoSession
	}
	c.used(ctx, t)
	return t, nil
}

// DeleteSession ends session sid (signing out); an unknown one is no error.
func (c *Catalog) DeleteSession(ctx context.Context, sid string) error {
	if _, err := c.db.ExecContext(ctx, c.d.Rebind(`DELETE FROM sessions WHERE hash = ?`), hashSecret(sid)); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return nil
}
