package replay

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/droidprof/droidprof/internal/straced"
	"github.com/droidprof/droidprof/internal/testenv"
	"golang.org/x/sys/unix"
)

// flagged opens one file per carried flag (and one with none); the O_DIRECT
// file is written and read in whole pages at page offsets, as a program
// using O_DIRECT must.
const flagged = `0 0 open "/d/sync" O_WRONLY|O_CREAT|O_SYNC 3
0 10 write 3 100
0 20 close 3 0
0 30 open "/d/dsync" O_RDWR|O_CREAT|O_DSYNC 4
0 40 pwrite 4 0 512
0 50 close 4 0
0 60 open "/d/direct" O_RDWR|O_CREAT|O_DIRECT 5
0 70 pwrite 5 0 8192
0 80 write 5 4096
0 90 pread 5 4096 4096
0 100 close 5 0
0 110 open "/d/append" O_WRONLY|O_CREAT|O_APPEND 6
0 120 write 6 10
0 130 close 6 0
0 140 open "/d/plain" O_RDWR|O_CREAT 7
0 150 write 7 10
0 160 close 7 0
0 170 open "/d/direct" O_RDONLY|O_DIRECT 8
0 180 pread 8 0 4096
0 190 close 8 0
`

// TestFlagsUnderStrace checks with strace that every replayed open carries
// the trace's O_SYNC, O_DSYNC, O_DIRECT and O_APPEND, and no other of them.
func TestFlagsUnderStrace(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(t.TempDir(), "flags.mg")
	if err := os.WriteFile(script, []byte(flagged), 0o644); err != nil {
		t.Fatal(err)
	}
	out := straced.Run(t, helperEnv, helperJob{Script: script, Dir: dir}, "-f", "-s", "256", "-e", "trace=openat,open")
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	mirror := filepath.Join(dir, SandboxName, mirrorDir, "d") + "/"
	var got []string
	for line := range strings.Lines(string(data)) {
		i := strings.Index(line, `"`+mirror)
		if i < 0 || strings.Contains(line, "= -1") {
			continue
		}
		rest := line[i+1+len(mirror):]
		name, flags, _ := strings.Cut(rest, `", `)
		flags, _, _ = strings.Cut(flags, ")")
		flags, _, _ = strings.Cut(flags, ", ")
		if hasFlag(flags, "O_EXCL") {
			continue // the set-up pre-creating the file, not a script open
		}
		var kept []string
		for _, c := range carried {
			if hasFlag(flags, c.name) {
				kept = append(kept, c.name)
			}
		}
		got = append(got, name+" "+strings.Join(kept, "|"))
	}
	want := []string{"sync O_SYNC", "dsync O_DSYNC", "direct O_DIRECT", "append O_APPEND", "plain ", "direct O_DIRECT"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replayed opens (file, carried flags):\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDirectRefused replays the O_DIRECT opens on ramfs, which refuses the
// flag: the replay must say so at each such line and still do the I/O.
func TestDirectRefused(t *testing.T) {
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
	s := parse(t, flagged)
	res, err := Replay(context.Background(), s, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		s.Name + ":7: the filesystem under " + filepath.Join(dir, SandboxName) + " refuses O_DIRECT",
		s.Name + ":18: the filesystem under",
	}
	if len(res.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %d starting %q", res.Warnings, len(want), want)
	}
	for i, w := range want {
		if !strings.HasPrefix(res.Warnings[i], w) {
			t.Errorf("warning %d: %q, want it to start %q", i, res.Warnings[i], w)
		}
	}
	if res.Errors != 0 || res.IOCount != len(s.Entries) {
		t.Errorf("issued %d of %d calls with %d errors (%+v), want all without errors", res.IOCount, len(s.Entries), res.Errors, res.Calls)
	}
}

// TestPageAligned checks the buffers O_DIRECT needs, for sizes around a page.
func TestPageAligned(t *testing.T) {
	for _, n := range []int64{0, 1, 4095, 4096, 4097, 1 << 20} {
		b := pageAligned(n)
		if int64(len(b)) != n || (n > 0 && uintptr(unsafePointer(b))%pageSize != 0) {
			t.Errorf("pageAligned(%d): len %d, address %#x", n, len(b), uintptr(unsafePointer(b)))
		}
	}
}

func unsafePointer(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }
