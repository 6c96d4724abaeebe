package mobigen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
	"golang.org/x/sys/unix"
)

// flagsAndSeeks is a two-thread script with every carried open flag and
// plain reads and writes whose positions only lseek explains.
const flagsAndSeeks = `0 0 open "/d/sync" O_WRONLY|O_CREAT|O_SYNC 3
0 10 write 3 100
0 20 lseek 3 0 SEEK_SET 0
0 30 write 3 50
0 40 close 3 0
0 50 open "/d/direct" O_RDWR|O_CREAT|O_DIRECT 4
0 60 write 4 8192
0 70 lseek 4 4096 SEEK_SET 4096
0 80 read 4 4096
0 90 close 4 0
1 5 open "/d/dsync" O_RDWR|O_CREAT|O_DSYNC 5
1 15 pwrite 5 0 512
1 25 lseek 5 -12 SEEK_END 500
1 35 read 5 12
1 45 close 5 0
1 55 open "/d/log" O_WRONLY|O_CREAT|O_APPEND 6
1 65 write 6 10
1 75 write 6 10
1 85 close 6 0
`

func runFidelity(t *testing.T, script, dir string) *FidelityResult {
	t.Helper()
	testenv.Tool(t, "strace", "strace")
	s, err := replay.Parse(strings.NewReader(script), "flags.mg")
	if err != nil {
		t.Fatal(err)
	}
	f, err := checkFidelity(context.Background(), s, filepath.Join(dir, "fidelity"), filepath.Join(t.TempDir(), "fidelity.strace"))
	if err != nil && notPermitted.MatchString(err.Error()) {
		testenv.SkipOrFail(t, "strace cannot trace here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFidelityFlagsAndSeeks: the replay under strace issues the opens with
// the script's flags and the reads and writes at the script's positions.
func TestFidelityFlagsAndSeeks(t *testing.T) {
	f := runFidelity(t, flagsAndSeeks, t.TempDir())
	if f.Matched != f.Expected || f.Expected != 19 {
		t.Errorf("fidelity %d of %d, want 19 of 19:\n%s", f.Matched, f.Expected, f.text())
	}
}

// TestFidelityDirectRefused replays on ramfs, which refuses O_DIRECT: the
// open goes without it, and the comparison must count that open as not
// replayed as written.
func TestFidelityDirectRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.SkipOrFail(t, "mounting ramfs needs root")
	}
	dir := t.TempDir()
	if err := unix.Mount("ramfs", dir, "ramfs", 0, ""); err != nil {
		testenv.SkipOrFail(t, "mount ramfs: %v", err)
	}
	t.Cleanup(func() {
		if err := unix.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	f := runFidelity(t, flagsAndSeeks, dir)
	if f.Matched != f.Expected-1 || !strings.Contains(f.text(), `script "open w|O_DIRECT", replay "open w"`) {
		t.Errorf("fidelity %d of %d, want all but the O_DIRECT open:\n%s", f.Matched, f.Expected, f.text())
	}
}

// TestFidelityPositions compares a script with a log of its replay in
// which the lseek is missing: the write after it lands elsewhere, and the
// comparison must see both.
func TestFidelityPositions(t *testing.T) {
	script := `0 0 open "/d/a" O_RDWR|O_CREAT 3
0 10 write 3 100
0 20 lseek 3 0 SEEK_SET 0
0 30 write 3 10
0 40 read 3 10
`
	const box = "/sb/mobigen_temp/"
	tests := []struct {
		name    string
		log     string
		matched int
	}{
		{"as written", `7 openat(AT_FDCWD, "/sb/mobigen_temp/root/d/a", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 9</sb/mobigen_temp/root/d/a>
7 write(9</sb/mobigen_temp/root/d/a>, ""..., 100) = 100
7 lseek(9</sb/mobigen_temp/root/d/a>, 0, SEEK_SET) = 0
7 write(9</sb/mobigen_temp/root/d/a>, ""..., 10) = 10
7 read(9</sb/mobigen_temp/root/d/a>, ""..., 10) = 10
`, 5},
		{"lseek missing", `7 openat(AT_FDCWD, "/sb/mobigen_temp/root/d/a", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 9</sb/mobigen_temp/root/d/a>
7 write(9</sb/mobigen_temp/root/d/a>, ""..., 100) = 100
7 write(9</sb/mobigen_temp/root/d/a>, ""..., 10) = 10
7 read(9</sb/mobigen_temp/root/d/a>, ""..., 10) = 10
`, 2},
		{"lseek elsewhere", `7 openat(AT_FDCWD, "/sb/mobigen_temp/root/d/a", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 9</sb/mobigen_temp/root/d/a>
7 write(9</sb/mobigen_temp/root/d/a>, ""..., 100) = 100
7 lseek(9</sb/mobigen_temp/root/d/a>, 0, SEEK_END) = 100
7 write(9</sb/mobigen_temp/root/d/a>, ""..., 10) = 10
7 read(9</sb/mobigen_temp/root/d/a>, ""..., 10) = 0
`, 2},
	}
	s, err := replay.Parse(strings.NewReader(script), "pos.mg")
	if err != nil {
		t.Fatal(err)
	}
	rr := &replay.Result{Trace: []replay.Issued{{TID: 0, OSThread: 7}}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := strace.Parse(strings.NewReader(tt.log), "replay.strace")
			if err != nil {
				t.Fatal(err)
			}
			f, err := compare(s, rr, l, box)
			if err != nil {
				t.Fatal(err)
			}
			if f.Matched != tt.matched || f.Expected != 5 {
				t.Errorf("matched %d of %d, want %d of 5:\n%s", f.Matched, f.Expected, tt.matched, f.text())
			}
		})
	}
}
