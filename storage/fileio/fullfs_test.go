package fileio

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
	"golang.org/x/sys/unix"
)

// fullFSChild names the environment variable that makes
// TestFullFilesystemChild run one benchmark (its value, a JSON fullFSCase)
// and print the error it returns.
const fullFSChild = "DROIDPROF_FILEIO_FULLFS_CONFIG"

type fullFSCase struct {
	Config Config
	// Unreserved maps the file without reserving its blocks, as on a
	// filesystem without fallocate, so that the fault handling is what
	// keeps the process alive.
	Unreserved bool
}

// TestFullFilesystem runs every mapped mode, and a plain one for comparison,
// on a 2 MiB tmpfs with a 4 MiB file. A store into a mapped page the
// filesystem cannot back raises SIGBUS, which kills a Go program with a
// runtime dump; so each benchmark runs in a child process (this test binary),
// and the test wants the child alive, reporting "no space left on device".
// The sparse cases start from a sparse file of full length, as an earlier
// append+mmap step that died on the full disk left behind: Prefill keeps it.
// The unreserved cases skip the fallocate, so the SIGBUS does happen.
func TestFullFilesystem(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=2m"); err != nil {
		testenv.SkipOrFail(t, "cannot mount a 2 MiB tmpfs here (needs root): %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	tests := []struct {
		access             Access
		sync               Sync
		sparse, unreserved bool
	}{
		{Append, Mmap, false, false},
		{Append, MmapAsync, false, false},
		{Append, MmapSync, false, false},
		{Append, Buffered, false, false},
		{RandWrite, MmapSync, true, false},
		{RandWrite, Mmap, true, false},
		{Write, Mmap, false, false},
		{Write, Buffered, false, false},
		{Append, Mmap, false, true},
		{RandWrite, MmapSync, true, true},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("access%d-sync%d", int(tt.access), int(tt.sync))
		if tt.sparse {
			name += "-sparse"
		}
		if tt.unreserved {
			name += "-unreserved"
		}
		t.Run(name, func(t *testing.T) {
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
			c := Config{Dir: dir, Access: tt.access, Sync: tt.sync, Threads: 1, FileSize: 4 << 20, IOSize: 4096}
			if tt.sparse {
				if err := os.WriteFile(FileName(dir, 0), nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(FileName(dir, 0), c.FileSize); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := json.Marshal(fullFSCase{Config: c, Unreserved: tt.unreserved})
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestFullFilesystemChild$", "-test.v")
			cmd.Env = append(os.Environ(), fullFSChild+"="+string(cfg))
			out, err := cmd.CombinedOutput()
			text := string(out)
			if err != nil || strings.Contains(text, "SIGBUS") || strings.Contains(text, "goroutine ") {
				t.Fatalf("the benchmark process died (%v); first lines:\n%s", err, firstLines(text, 8))
			}
			_, msg, _ := strings.Cut(text, "run error: ")
			msg, _, _ = strings.Cut(msg, "\n")
			if !strings.HasSuffix(msg, "no space left on device") {
				t.Fatalf("want a run error ending in \"no space left on device\", got:\n%s", text)
			}
			t.Log(msg)
		})
	}
}

// TestFullFilesystemChild is the child process of TestFullFilesystem.
func TestFullFilesystemChild(t *testing.T) {
	cfg := os.Getenv(fullFSChild)
	if cfg == "" {
		t.Skip("runs only as the child of TestFullFilesystem")
	}
	var c fullFSCase
	if err := json.Unmarshal([]byte(cfg), &c); err != nil {
		t.Fatal(err)
	}
	if c.Unreserved {
		reserveFile = extendFile
	}
	_, err := Run(t.Context(), c.Config)
	fmt.Printf("run error: %v\n", err)
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
