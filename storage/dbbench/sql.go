package dbbench

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// schema is how the attaching connection names database d: the main one
// unqualified, the others as Mobibench attaches them ('db1', 'db2', ...).
func schema(d int) string {
	if d == 0 {
		return ""
	}
	return fmt.Sprintf("db%d.", d)
}

func table(c Config, d, k int) string {
	if c.Mode2013 {
		return "tblMyList"
	}
	return fmt.Sprintf("%stblMyList%d", schema(d), k)
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// SessionSQL is what every connection of thread runs right after opening
// database 0: Mobibench's three pragmas, then the other databases attached
// with the page size and journal mode set on each. Mobibench sets them on a
// second connection to each extra file before attaching it; page_size and
// journal_mode are properties of the file, so setting them through the
// attaching connection does the same. synchronous is a property of the
// connection's schema and Mobibench sets it on the main one only, so an
// attached database runs at SQLite's default (FULL) whatever -s says; this
// keeps that, and the DB information read back shows it.
func SessionSQL(c Config, thread int) []string {
	s := []string{
		fmt.Sprintf("PRAGMA page_size = %d;", c.PageSize),
		fmt.Sprintf("PRAGMA journal_mode=%s;", c.Journal),
		fmt.Sprintf("PRAGMA synchronous=%d;", c.SyncLevel()),
	}
	for d := 1; d < c.DBs; d++ {
		s = append(s,
			fmt.Sprintf("ATTACH DATABASE %s AS 'db%d';", quote(FileName(c.Dir, thread, d)), d),
			fmt.Sprintf("PRAGMA db%d.page_size = %d;", d, c.PageSize),
			fmt.Sprintf("PRAGMA db%d.journal_mode=%s;", d, c.Journal),
		)
	}
	return s
}

// SchemaSQL creates the tables; insert drops them first, so every insert run
// starts from empty tables.
func SchemaSQL(c Config) []string {
	var s []string
	if c.Mode2013 {
		if c.Op == Insert {
			s = append(s, "DROP TABLE IF EXISTS tblMyList;")
		}
		return append(s, "CREATE TABLE IF NOT EXISTS tblMyList (id INTEGER PRIMARY KEY autoincrement, Value TEXT not null, creation_date long);")
	}
	for d := 0; d < c.DBs; d++ {
		if c.Op == Insert {
			for k := 0; k < c.Tables; k++ {
				s = append(s, fmt.Sprintf("DROP TABLE IF EXISTS %s;", table(c, d, k)))
			}
		}
		var b strings.Builder
		b.WriteString("BEGIN;")
		for k := 0; k < c.Tables; k++ {
			fmt.Fprintf(&b, " CREATE TABLE IF NOT EXISTS %s (id INTEGER PRIMARY KEY, Value TEXT not null, creation_date long);", table(c, d, k))
		}
		b.WriteString("COMMIT;")
		s = append(s, b.String())
	}
	return s
}

// PrefillRows is how many rows update and delete fill every table to before
// the clock starts: Mobibench's MIN_CHECK, or the transactions per thread if
// more (2013: the transactions per thread).
func (c Config) PrefillRows() int {
	if c.Mode2013 {
		return c.PerThread()
	}
	return max(MinRows, c.PerThread())
}

// PrefillSQL fills the tables of update and delete runs, untimed. Mobibench
// inserts the missing rows one autocommit transaction each; one transaction
// of INSERT ... SELECT writes the same rows (ids 0..n-1, the same value)
// without hundreds of fsyncs nobody measures.
func PrefillSQL(c Config) []string {
	if c.Op == Insert {
		return nil
	}
	n := c.PrefillRows()
	if c.Mode2013 {
		return []string{fmt.Sprintf("WITH RECURSIVE c(i) AS (SELECT (SELECT count(*) FROM tblMyList) UNION ALL SELECT i+1 FROM c WHERE i+1 < %d) INSERT INTO tblMyList(Value) SELECT %s FROM c WHERE i < %d;", n, quote(Value), n)}
	}
	var b strings.Builder
	b.WriteString("BEGIN;")
	for d := 0; d < c.DBs; d++ {
		for k := 0; k < c.Tables; k++ {
			fmt.Fprintf(&b, " WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM c WHERE i+1 < %d) INSERT OR IGNORE INTO %s(id,Value) SELECT i, %s FROM c;", n, table(c, d, k), quote(Value))
		}
	}
	b.WriteString("COMMIT;")
	return []string{b.String()}
}

// RowsSQL counts the rows update draws ids from and delete deletes from
// (Mobibench's column_count, read from the first table).
func RowsSQL(c Config) string { return fmt.Sprintf("SELECT count(*) FROM %s;", table(c, 0, 0)) }

// Transactions returns the SQL text of every transaction one thread runs,
// one string per sqlite3_exec call, given the rows per table after prefill.
// All threads run the same text on their own files, as in Mobibench, whose
// random ids depend only on the transaction index (srand(tx) per
// transaction). The generator is PCG seeded with the index, so the ids are
// as deterministic as Mobibench's, though not glibc rand()'s numbers.
func Transactions(c Config, rows int) []string {
	n := c.PerThread()
	out := make([]string, n)
	if c.Mode2013 {
		for i := range out {
			switch c.Op {
			case Insert:
				out[i] = fmt.Sprintf("INSERT INTO tblMyList(Value) VALUES(%s);", quote(Value))
			case Update:
				r := rand.New(rand.NewPCG(uint64(i), 0))
				out[i] = fmt.Sprintf("UPDATE tblMyList SET Value = %s WHERE id = %d;", quote(UpdateValue), r.IntN(n)+1)
			case Delete:
				// The 2013 code deletes id i from 0, and AUTOINCREMENT
				// starts at 1, so its first delete finds nothing; this
				// deletes ids 1..n, one row each.
				out[i] = fmt.Sprintf("DELETE FROM tblMyList WHERE id=%d;", i+1)
			}
		}
		return out
	}
	// Sampling without replacement, per database, as get_random_id: redraw
	// until an unused id comes up.
	pool := rows
	if c.Op == Insert {
		pool = n
	}
	used := make([][]bool, c.DBs)
	for d := range used {
		used[d] = make([]bool, max(pool, 1))
	}
	draw := func(r *rand.Rand, d int) int {
		for {
			id := r.IntN(pool)
			if !used[d][id] {
				used[d][id] = true
				return id
			}
		}
	}
	var b strings.Builder
	for i := range out {
		r := rand.New(rand.NewPCG(uint64(i), 0))
		b.Reset()
		b.WriteString("BEGIN;")
		for d := 0; d < c.DBs; d++ {
			key := i
			if c.Op == Delete || (c.Op == Insert && c.RandomKeys) {
				key = draw(r, d)
			}
			for k := 0; k < c.Tables; k++ {
				switch c.Op {
				case Insert:
					fmt.Fprintf(&b, "INSERT INTO %s(id,Value) VALUES(%d,%s);", table(c, d, k), key, quote(Value))
				case Update:
					fmt.Fprintf(&b, "UPDATE %s SET Value = %s WHERE id = %d;", table(c, d, k), quote(UpdateValue), r.IntN(max(rows, 1))+1)
				case Delete:
					fmt.Fprintf(&b, "DELETE FROM %s WHERE id=%d;", table(c, d, k), key)
				}
			}
		}
		b.WriteString("COMMIT;")
		out[i] = b.String()
	}
	return out
}

// FinishSQL ends the timed region: in WAL mode Mobibench forces a
// checkpoint of every database (sqlite3_wal_checkpoint, PASSIVE); the pragma
// without a schema checkpoints all attached databases the same way.
func FinishSQL(c Config) []string {
	if c.Journal == "WAL" {
		return []string{"PRAGMA wal_checkpoint;"}
	}
	return nil
}

// CleanupSQL is what a delete run does after the clock stops, before it
// unlinks the files: drop every table.
func CleanupSQL(c Config) []string {
	if c.Op != Delete {
		return nil
	}
	var s []string
	for d := 0; d < c.DBs; d++ {
		for k := 0; k < c.Tables; k++ {
			s = append(s, fmt.Sprintf("DROP TABLE IF EXISTS %s;", table(c, d, k)))
		}
		if c.Mode2013 {
			break
		}
	}
	return s
}

// InfoSQL reads back what Mobibench prints in its "[DB information of db
// FILE]" block for database d: page_size, journal_mode and synchronous, each
// statement returning one value.
func InfoSQL(d int) []string {
	p := schema(d)
	return []string{"PRAGMA " + p + "page_size;", "PRAGMA " + p + "journal_mode;", "PRAGMA " + p + "synchronous;"}
}
