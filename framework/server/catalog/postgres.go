package catalog

import (
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// postgresDialect is PostgreSQL through pgx: $1, $2, … parameters.
type postgresDialect struct{}

func (postgresDialect) Name() string { return "postgres" }

// Rebind numbers the "?" parameters; the catalog's SQL has no "?" inside
// string literals.
func (postgresDialect) Rebind(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// IsConflict reports a unique-key violation: two pushes of a run racing
// under READ COMMITTED.
func (postgresDialect) IsConflict(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

func openPostgres(dsn string) (*sql.DB, Dialect, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, nil, err
	}
	db.SetMaxOpenConns(16)
	return db, postgresDialect{}, nil
}

// IsFull reports disk_full (53100): PostgreSQL could not extend a file.
func (postgresDialect) IsFull(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "53100"
}
