package catalog

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are applied in order, each once, each in a transaction; the
// number applied is kept in schema_version. Never edit one that has shipped:
// append another. Types are the standard ones both SQLite and PostgreSQL
// accept.
var migrations = []string{
	`CREATE TABLE tokens (
	id      TEXT PRIMARY KEY,
	name    TEXT NOT NULL,
	hash    TEXT NOT NULL,
	created BIGINT NOT NULL,
	revoked BIGINT
);
CREATE TABLE runs (
	id                TEXT PRIMARY KEY,
	experiment        TEXT NOT NULL,
	status            TEXT NOT NULL,
	started           BIGINT NOT NULL,
	finished          BIGINT,
	hostname          TEXT NOT NULL,
	os                TEXT NOT NULL,
	arch              TEXT NOT NULL,
	cpu_model         TEXT NOT NULL,
	fs_type           TEXT NOT NULL,
	storage_backend   TEXT NOT NULL,
	droidprof_version TEXT NOT NULL,
	plugins           TEXT NOT NULL,
	results_sha256    TEXT NOT NULL,
	pushed            BIGINT NOT NULL,
	pushed_by         TEXT NOT NULL
);
CREATE INDEX runs_started ON runs (started);
CREATE INDEX runs_experiment ON runs (experiment, started);
CREATE TABLE run_files (
	run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	path       TEXT NOT NULL,
	sha256     TEXT NOT NULL,
	size       BIGINT NOT NULL,
	PRIMARY KEY (run_id, path)
);
CREATE TABLE metrics (
	run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric_key TEXT NOT NULL,
	name       TEXT NOT NULL,
	unit       TEXT NOT NULL,
	better     TEXT NOT NULL,
	median     DOUBLE PRECISION NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (run_id, metric_key)
);
CREATE INDEX metrics_key ON metrics (metric_key);`,
	// 2: token scopes (the tokens before were all push tokens) and last
	// use; browser sessions; a run's device, for ranking devices. Runs
	// stored before get the device their fingerprint names (the CPU model,
	// else the host): a device label is in results.json, which SQL cannot
	// read, and such a run gets it when it is pushed again changed.
	`ALTER TABLE tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'push';
ALTER TABLE tokens ADD COLUMN last_used BIGINT;
CREATE TABLE sessions (
	hash     TEXT PRIMARY KEY,
	token_id TEXT NOT NULL REFERENCES tokens (id),
	created  BIGINT NOT NULL,
	expires  BIGINT NOT NULL
);
ALTER TABLE runs ADD COLUMN device TEXT NOT NULL DEFAULT '';
UPDATE runs SET device = CASE WHEN cpu_model <> '' THEN cpu_model ELSE hostname END;
CREATE INDEX runs_device ON runs (device, started);
CREATE INDEX runs_hostname ON runs (hostname, started);`,
}

// migrate brings the schema up to date.
func migrate(ctx context.Context, db *sql.DB, d Dialect) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	for {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("schema: %w", err)
		}
		var v int
		err = tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
		first := err == sql.ErrNoRows
		if err != nil && !first {
			tx.Rollback()
			return fmt.Errorf("schema: %w", err)
		}
		switch {
		case v == len(migrations):
			return tx.Rollback()
		case v > len(migrations):
			tx.Rollback()
			return fmt.Errorf("schema: the database has schema version %d, newer than this droidprof understands (%d): use a newer droidprof", v, len(migrations))
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("schema: migration %d: %w", v+1, err)
		}
		q := `UPDATE schema_version SET version = ?`
		if first {
			q = `INSERT INTO schema_version (version) VALUES (?)`
		}
		if _, err := tx.ExecContext(ctx, d.Rebind(q), v+1); err != nil {
			tx.Rollback()
			return fmt.Errorf("schema: migration %d: %w", v+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("schema: migration %d: %w", v+1, err)
		}
	}
}
