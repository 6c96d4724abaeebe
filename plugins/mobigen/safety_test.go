package mobigen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/internal/testenv"
)

// fileState is what the test compares before and after a replay.
type fileState struct {
	exists bool
	mode   os.FileMode
	size   int64
	mtime  time.Time
	data   []byte // regular files only
}

func stateOf(t *testing.T, p string) fileState {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		return fileState{}
	}
	st := fileState{exists: true, mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime()}
	if fi.Mode().IsRegular() {
		st.data = mustRead(t, p)
	}
	return st
}

func (a fileState) equal(b fileState) bool {
	return a.exists == b.exists && a.mode == b.mode && a.size == b.size && a.mtime.Equal(b.mtime) && bytes.Equal(a.data, b.data)
}

// TestReplayStaysInSandbox imports a log whose calls write, truncate and
// unlink /etc/passwd, write to /dev/sda and reach a directory beside the
// storage through ../ and an absolute path; with the platform files kept,
// every call is replayed (twice: timed, then under strace for fidelity)
// and nothing outside the storage directory changes. A symlink left in an
// old sandbox pointing outside is not followed: the sandbox is made anew.
func TestReplayStaysInSandbox(t *testing.T) {
	testenv.Tool(t, "strace", "strace")
	base := t.TempDir()
	storage := filepath.Join(base, "storage")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{storage, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An old sandbox whose mirror of /etc is a symlink out of it.
	old := filepath.Join(storage, DataDirName, "mobigen_temp", "root")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(old, "etc")); err != nil {
		t.Fatal(err)
	}
	// ../ as deep as the traced program's working directory might have been.
	rel := strings.Repeat("../", 8) + strings.TrimLeft(victim, "/")
	log := `10 1.000000 openat(AT_FDCWD, "/etc/passwd", O_WRONLY|O_TRUNC|O_CLOEXEC) = 3 <0.000010>
10 1.000100 write(3, "root::0:0::/:/bin/sh\n", 21) = 21 <0.000010>
10 1.000200 close(3) = 0 <0.000003>
10 1.000300 unlink("/etc/passwd") = 0 <0.000010>
11 1.000400 openat(AT_FDCWD, "/dev/sda", O_RDWR) = 4 <0.000010>
11 1.000500 pwrite64(4, "", 4096, 0) = 4096 <0.000010>
11 1.000600 fsync(4) = 0 <0.000010>
11 1.000700 close(4) = 0 <0.000010>
12 1.000800 openat(AT_FDCWD, "` + rel + `", O_RDWR|O_TRUNC) = 5 <0.000010>
12 1.000900 write(5, "overwritten", 11) = 11 <0.000010>
12 1.001000 close(5) = 0 <0.000010>
12 1.001100 unlink("` + victim + `") = 0 <0.000010>
12 1.001200 unlinkat(AT_FDCWD, "../outside/victim", 0) = 0 <0.000010>
12 1.001300 openat(AT_FDCWD, "/etc/shadow-mobigen-test", O_WRONLY|O_CREAT|O_EXCL, 0600) = 6 <0.000010>
12 1.001400 close(6) = 0 <0.000010>
`
	logPath := filepath.Join(base, "evil.strace")
	if err := os.WriteFile(logPath, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	watch := []string{"/etc/passwd", "/etc/shadow-mobigen-test", "/dev/sda", victim, outside}
	before := map[string]fileState{}
	for _, p := range watch {
		before[p] = stateOf(t, p)
	}
	c := sdktest.Start(t, Plugin())
	_, r := collectStep(t, c, map[string]any{"source": "import", "log": logPath, "platform": true}, sdktest.CollectOptions{StorageDir: storage})
	checkReplay(t, r)
	if r.Clean.ScriptLines != 15 {
		t.Errorf("cleaned %d lines, want all 15 replayed", r.Clean.ScriptLines)
	}
	for _, p := range watch {
		if after := stateOf(t, p); !after.equal(before[p]) {
			t.Errorf("%s changed: %+v → %+v", p, before[p], after)
		}
	}
	if _, err := os.Lstat(filepath.Join(storage, DataDirName)); !os.IsNotExist(err) {
		t.Errorf("work directory left behind (%v)", err)
	}
}
