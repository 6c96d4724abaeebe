package fileio

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/droidprof/droidprof/internal/straced"
	"os"
	"regexp"
	"strings"
	"testing"
)

const helperEnv = "FILEIO_TEST_HELPER_CONFIG"

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

var straceLine = regexp.MustCompile(`^\d+\s+([a-z0-9_]+)\(`)

// TestSyscallsUnderStrace uses strace as an outside oracle: the number of
// write, lseek, fsync, fdatasync and msync calls on the data files must be
// what Mobibench issues for the mode, per file:
//
//   - prefill (modes 0–3): 1 lseek to the end, ceil(size/512 KiB) writes, 1 fsync
//   - per record: random modes 1 lseek; write modes 1 write (not mmap);
//     sync 2: 1 fsync, sync 8: 1 fdatasync, sync 6/7: 1 msync
//   - final sync (write modes): 1 fsync, or 1 msync in mmap modes
func TestSyscallsUnderStrace(t *testing.T) {
	const records, threads = 16, 2
	tests := []struct {
		a                                     Access
		s                                     Sync
		lseek, write, fsync, fdatasync, msync int
	}{
		{RandWrite, Fsync, 1 + records, 1 + records, 1 + records + 1, 0, 0},
		{Write, Buffered, 1, 1 + records, 2, 0, 0},
		{Write, OSync, 1, 1 + records, 2, 0, 0},
		{Append, Fdatasync, 0, records, 1, records, 0},
		{RandWrite, MmapSync, 1, 1, 1, 0, records + 1},
		{Write, MmapAsync, 1, 1, 1, 0, records + 1},
		{Append, Mmap, 0, 0, 0, 0, 1},
		{RandRead, Buffered, 1 + records, 1, 1, 0, 0},
		{Read, Mmap, 1, 1, 1, 0, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("a%d_y%d", tt.a, tt.s), func(t *testing.T) {
			dir := t.TempDir()
			c := Config{Dir: dir, Access: tt.a, Sync: tt.s, Threads: threads, FileSize: threads * records * 4096, IOSize: 4096}
			// -y prints the path behind every fd, so calls on the data files can
			// be told from the Go runtime's own writes; msync takes no fd, and
			// only the engine calls it.
			out := straced.Run(t, helperEnv, c, "-f", "-y", "-e", "trace=write,lseek,fsync,fdatasync,msync")
			got := countSyscalls(t, out, dir)
			want := map[string]int{"lseek": tt.lseek * threads, "write": tt.write * threads, "fsync": tt.fsync * threads, "fdatasync": tt.fdatasync * threads, "msync": tt.msync * threads}
			for name, n := range want {
				if got[name] != n {
					t.Errorf("%s: %d calls, want %d (all: %v)", name, got[name], n, got)
				}
			}
		})
	}
}

func countSyscalls(t *testing.T, path, dir string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		m := straceLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if m[1] == "msync" || strings.Contains(line, "<"+dir+"/test.dat") {
			got[m[1]]++
		}
	}
	return got
}
