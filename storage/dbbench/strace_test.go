package dbbench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/straced"
)

const helperEnv = "DBBENCH_TEST_HELPER_CONFIG"

// TestMain doubles as the helper process the strace tests trace
// (internal/straced).
func TestMain(m *testing.M) {
	straced.Serve(helperEnv, func(job []byte) error {
		var c Config
		if err := json.Unmarshal(job, &c); err != nil {
			return err
		}
		_, err := Run(context.Background(), c)
		return err
	})
	os.Exit(m.Run())
}

// syscallCounts is what strace saw on the files of the run's directory.
type syscallCounts struct {
	syncs      int            // fsync + fdatasync on any file in the directory
	syncCalls  map[string]int // "fsync", "fdatasync" -> calls
	opened     map[string]int // base name -> openat calls
	unlinked   map[string]int // base name -> unlink calls
	masterJrnl int            // openat of a master journal (<db>-mjXXXXXXXX)
}

var (
	straceCall = regexp.MustCompile(`^\d+\s+([a-z0-9_]+)\((.*)`)
	fdPath     = regexp.MustCompile(`^\d+<([^>]*)>`)
	quotedPath = regexp.MustCompile(`"([^"]*)"`)
)

// straceRun runs the engine with c in a helper process under
// strace -f -y -e trace=open,openat,fsync,fdatasync,unlink and counts the
// calls on files in c.Dir (-y names the file behind each fd). open is there
// because the Go translation of SQLite's os_unix.c calls open(2) where glibc
// would call openat(2).
func straceRun(t *testing.T, c Config) syscallCounts {
	t.Helper()
	out := straced.Run(t, helperEnv, c, "-f", "-y", "-e", "trace=open,openat,fsync,fdatasync,unlink")
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	n := syscallCounts{opened: map[string]int{}, unlinked: map[string]int{}, syncCalls: map[string]int{}}
	for _, line := range strings.Split(string(data), "\n") {
		m := straceCall.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var path string
		switch m[1] {
		case "fsync", "fdatasync":
			if p := fdPath.FindStringSubmatch(m[2]); p != nil {
				path = p[1]
			}
		case "open", "openat", "unlink":
			if p := quotedPath.FindStringSubmatch(m[2]); p != nil {
				path = p[1]
			}
		}
		// Directory syncs (SQLite fsyncs the directory after creating a
		// journal) count too: they are part of what a commit costs.
		if path != c.Dir && filepath.Dir(path) != c.Dir {
			continue
		}
		base := filepath.Base(path)
		switch m[1] {
		case "fsync", "fdatasync":
			n.syncs++
			n.syncCalls[m[1]]++
		case "open", "openat":
			n.opened[base]++
			if strings.Contains(base, "-mj") {
				n.masterJrnl++
			}
		case "unlink":
			n.unlinked[base]++
		}
	}
	return n
}

// The master journal: with two databases in one transaction and a rollback
// journal, SQLite writes <db0>-mjXXXXXXXX once per commit and unlinks it. In
// WAL mode, and with one database, there is none.
func TestMasterJournalUnderStrace(t *testing.T) {
	const n = 8
	tests := []struct {
		journal string
		dbs     int
		want    bool
	}{
		{"DELETE", 2, true},
		{"TRUNCATE", 3, true},
		{"DELETE", 1, false},
		{"WAL", 2, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s_%ddb", tt.journal, tt.dbs), func(t *testing.T) {
			c := Config{Dir: t.TempDir(), Op: Insert, Transactions: n, DBs: tt.dbs, Journal: tt.journal}
			got := straceRun(t, c)
			if tt.want && got.masterJrnl != n {
				t.Errorf("master journal opened %d times, want once per transaction (%d); opens %v", got.masterJrnl, n, got.opened)
			}
			if !tt.want && got.masterJrnl != 0 {
				t.Errorf("master journal opened %d times, want none; opens %v", got.masterJrnl, got.opened)
			}
			mjUnlinks := 0
			for name, k := range got.unlinked {
				if strings.Contains(name, "-mj") {
					mjUnlinks += k
				}
			}
			if mjUnlinks != got.masterJrnl {
				t.Errorf("%d master journals unlinked, %d created", mjUnlinks, got.masterJrnl)
			}
		})
	}
}

// synchronous decides the syncs per commit: OFF none, FULL at least the
// journal and the database (TRUNCATE) or the WAL (WAL).
func TestSyncsPerTransactionUnderStrace(t *testing.T) {
	const n = 10
	for _, journal := range []string{"TRUNCATE", "WAL"} {
		t.Run(journal, func(t *testing.T) {
			syncs := map[string]int{}
			for _, sync := range []string{"OFF", "FULL"} {
				syncs[sync] = straceRun(t, Config{Dir: t.TempDir(), Op: Insert, Transactions: n, Journal: journal, Sync: sync}).syncs
			}
			t.Logf("%s: syncs with synchronous OFF %d, FULL %d over %d transactions", journal, syncs["OFF"], syncs["FULL"], n)
			if syncs["OFF"] >= n {
				t.Errorf("synchronous OFF: %d syncs for %d transactions, want fewer than one each", syncs["OFF"], n)
			}
			minPerTx := 2
			if journal == "WAL" {
				minPerTx = 1
			}
			if d := syncs["FULL"] - syncs["OFF"]; d < minPerTx*n {
				t.Errorf("synchronous FULL adds %d syncs over %d transactions, want at least %d each", d, n, minPerTx)
			}
		})
	}
}

// SyncCall decides the system call of every sync, the directory's
// included: fdatasync by default (as Android's SQLite and the sqlite3
// shell), fsync when asked (as Mobibench's static build).
func TestSyncCallUnderStrace(t *testing.T) {
	for _, call := range []string{"", "fsync", "fdatasync"} {
		t.Run("call="+call, func(t *testing.T) {
			want := call
			if want == "" {
				want = "fdatasync"
			}
			got := straceRun(t, Config{Dir: t.TempDir(), Op: Insert, Transactions: 5, DBs: 2, Journal: "DELETE", SyncCall: call})
			if got.syncs == 0 || got.syncCalls[want] != got.syncs {
				t.Errorf("syncs %v, want all %d of them %s", got.syncCalls, got.syncs, want)
			}
		})
	}
}
