package catalog

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestMigrations: a new catalog is migrated to the latest schema, reopening
// migrates nothing, and a catalog from a newer droidprof is refused.
func TestMigrations(t *testing.T) {
	ctx := context.Background()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "c.db")
	c, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := c.CreateToken(ctx, "x", ScopeRead)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.CheckToken(ctx, tok); err != nil || got.Name != "x" || got.Scope != ScopeRead {
		t.Errorf("token after reopening: %+v %v", got, err)
	}
	var v int
	if err := c.db.QueryRow(`SELECT version FROM schema_version`).Scan(&v); err != nil || v != len(migrations) {
		t.Errorf("schema version %d %v, want %d", v, err, len(migrations))
	}
	if _, err := c.db.Exec(`UPDATE schema_version SET version = 99`); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := Open(ctx, dsn); err == nil || !strings.Contains(err.Error(), "newer than this droidprof") {
		t.Errorf("open of a newer schema: %v", err)
	}
}

// TestOpenRefusesOtherDatabases: the --db forms that are not supported say
// so, without echoing a password.
func TestOpenRefusesOtherDatabases(t *testing.T) {
	tests := []struct{ dsn, want string }{
		{"postgres://u:secret@127.0.0.1:1/db", "schema"}, // nothing listens on port 1
		{"mysql://x", "unknown database"},
		{"sqlite:", "needs a file path"},
	}
	for _, tt := range tests {
		_, err := Open(context.Background(), tt.dsn)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q): %v, want %q", tt.dsn, err, tt.want)
		}
	}
}

// TestCheckToken: only the exact, unrevoked token passes.
func TestCheckToken(t *testing.T) {
	ctx := context.Background()
	c, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tok, _ := c.CreateToken(ctx, "ci", ScopePush)
	id := strings.SplitN(strings.TrimPrefix(tok, tokenPrefix), "_", 2)[0]
	tests := []struct {
		name, tok string
		ok        bool
	}{
		{"exact", tok, true},
		{"empty", "", false},
		{"prefix only", tokenPrefix, false},
		{"right id, wrong secret", tokenPrefix + id + "_00", false},
		{"trailing byte", tok + "0", false},
	}
	for _, tt := range tests {
		_, err := c.CheckToken(ctx, tt.tok)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrBadToken)) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if _, err := c.RevokeToken(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CheckToken(ctx, tok); !errors.Is(err, ErrBadToken) {
		t.Errorf("revoked token: %v", err)
	}
	if _, err := c.RevokeToken(ctx, id); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoking twice: %v", err)
	}
}
