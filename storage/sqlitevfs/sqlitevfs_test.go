package sqlitevfs_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/straced"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/sqlitevfs"

	_ "modernc.org/sqlite"
)

const helperEnv = "SQLITEVFS_TEST_HELPER"

// job is what the traced helper runs: Script on Dir/db0 through the Go
// engine, with the Fdatasync VFS or the engine's own.
type job struct {
	Dir, Script string
	Stock       bool
}

func TestMain(m *testing.M) {
	straced.Serve(helperEnv, func(b []byte) error {
		var j job
		if err := json.Unmarshal(b, &j); err != nil {
			return err
		}
		return runGo(j)
	})
	os.Exit(m.Run())
}

func runGo(j job) error {
	dsn := filepath.Join(j.Dir, "db0")
	if !j.Stock {
		if err := sqlitevfs.Register(); err != nil {
			return err
		}
		dsn += "?vfs=" + sqlitevfs.Fdatasync
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(j.Script); err != nil {
		return fmt.Errorf("%s: %w", dsn, err)
	}
	return db.Close()
}

// script creates a table in each of dbs databases (the extra ones
// ATTACHed, so a commit writes a master journal) and commits three
// transactions that insert into all of them.
func script(dir, journal string, dbs int) string {
	var b strings.Builder
	for d := 1; d < dbs; d++ {
		fmt.Fprintf(&b, "ATTACH DATABASE '%s' AS d%d;\n", filepath.Join(dir, fmt.Sprintf("db%d", d)), d)
	}
	for d := 0; d < dbs; d++ {
		fmt.Fprintf(&b, "PRAGMA %s.journal_mode=%s;\nPRAGMA %s.synchronous=FULL;\nCREATE TABLE %s.t(a);\n", schema(d), journal, schema(d), schema(d))
	}
	for range 3 {
		b.WriteString("BEGIN;\n")
		for d := 0; d < dbs; d++ {
			fmt.Fprintf(&b, "INSERT INTO %s.t VALUES(randomblob(300));\n", schema(d))
		}
		b.WriteString("COMMIT;\n")
	}
	return b.String()
}

func schema(d int) string {
	if d == 0 {
		return "main"
	}
	return fmt.Sprintf("d%d", d)
}

var (
	syncLine   = regexp.MustCompile(`^\d+\s+(fsync|fdatasync)\((\d+)<([^>]*)>`)
	masterName = regexp.MustCompile(`-mj[0-9A-F]+$`)
)

// syncs reads an strace -f -y log and returns the syncs of files in dir
// and of dir itself, in order, as "call file" with master journal names
// stripped of their random suffix.
func syncs(t *testing.T, log, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		m := syncLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch {
		case m[3] == dir:
			out = append(out, m[1]+" DIR")
		case filepath.Dir(m[3]) == dir:
			out = append(out, m[1]+" "+masterName.ReplaceAllString(filepath.Base(m[3]), "-mj"))
		}
	}
	return out
}

// The oracle is the sqlite3 shell, built with fdatasync as distributions
// and Android build SQLite: on the same SQL, the Go engine on the Fdatasync
// VFS must sync the same files with the same calls in the same order —
// journal, database, master journal and the directory after a journal is
// created. The engine's own VFS must not (it calls fsync), which shows the
// comparison can fail.
func TestSyncsMatchTheSQLiteShell(t *testing.T) {
	shell := testenv.Tool(t, "sqlite3", "sqlite3")
	strace := testenv.Tool(t, "strace", "strace")
	tests := []struct {
		journal string
		dbs     int
	}{
		{"DELETE", 1},
		{"TRUNCATE", 1},
		{"PERSIST", 1},
		{"WAL", 1},
		{"DELETE", 2},
		{"TRUNCATE", 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s_%ddb", tt.journal, tt.dbs), func(t *testing.T) {
			traceArgs := []string{"-f", "-y", "-e", "trace=fsync,fdatasync"}

			shellDir := t.TempDir()
			shellLog := filepath.Join(t.TempDir(), "shell.strace")
			cmd := exec.Command(strace, append([]string{"-qq", "-o", shellLog}, append(traceArgs, shell, "-bail", filepath.Join(shellDir, "db0"))...)...)
			cmd.Stdin = strings.NewReader(script(shellDir, tt.journal, tt.dbs))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("sqlite3 shell under strace: %v\n%s", err, out)
			}
			want := syncs(t, shellLog, shellDir)

			for _, stock := range []bool{false, true} {
				dir := t.TempDir()
				got := syncs(t, straced.Run(t, helperEnv, job{Dir: dir, Script: script(dir, tt.journal, tt.dbs), Stock: stock}, traceArgs...), dir)
				switch {
				case !stock && !slices.Equal(got, want):
					t.Errorf("Fdatasync VFS synced\n  %s\nthe sqlite3 shell synced\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				case stock && slices.Equal(got, want):
					t.Errorf("the engine's own VFS synced as the shell does (%d syncs); the comparison cannot tell them apart", len(got))
				}
			}
			if len(want) == 0 {
				t.Fatal("the shell synced nothing: the trace did not see it")
			}
			t.Logf("%d syncs: %v", len(want), want)
		})
	}
}
