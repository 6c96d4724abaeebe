package fileio

import (
	"errors"
	"github.com/droidprof/droidprof/internal/testenv"
	"os"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/storage/fsinfo"
	"golang.org/x/sys/unix"
)

func TestValidate(t *testing.T) {
	ok := Config{Dir: "/x", Access: RandWrite, Sync: Fsync, Threads: 1, FileSize: 1 << 20, IOSize: 4096}
	tests := []struct {
		name    string
		mod     func(*Config)
		wantErr string
		want    Plan
	}{
		{"defaults", func(*Config) {}, "", Plan{PerThread: 1 << 20, Records: 256, FileBytes: 1 << 20}},
		{"threads divide, rounding down", func(c *Config) { c.Threads = 3; c.FileSize = 100 << 10 }, "", Plan{PerThread: 34133, Records: 8, FileBytes: 32 << 10}},
		{"100 threads", func(c *Config) { c.Threads = 100; c.FileSize = 100 << 12 }, "", Plan{PerThread: 4096, Records: 1, FileBytes: 4096}},
		{"zero threads", func(c *Config) { c.Threads = 0 }, "threads = 0 is out of range 1..100", Plan{}},
		{"101 threads", func(c *Config) { c.Threads = 101 }, "threads = 101 is out of range 1..100", Plan{}},
		{"access 5", func(c *Config) { c.Access = 5 }, "access mode 5 does not exist", Plan{}},
		{"sync 11", func(c *Config) { c.Sync = 11 }, "sync mode 11 does not exist", Plan{}},
		{"io size 0", func(c *Config) { c.IOSize = 0 }, "io size must be positive", Plan{}},
		{"file size 0", func(c *Config) { c.FileSize = 0 }, "file size must be positive", Plan{}},
		{"io larger than per-thread file", func(c *Config) { c.Threads = 4; c.FileSize = 8192 }, "io size 4096 B is larger than the file size per thread 2048 B (file size 8192 B / 4 threads)", Plan{}},
		{"overlap 100", func(c *Config) { c.Overlap = 100 }, "overlap = 100% is out of range 0..99", Plan{}},
		{"no dir", func(c *Config) { c.Dir = "" }, "no directory", Plan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.mod(&c)
			p, err := c.Validate()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrUnsupported) {
					t.Fatalf("err = %v, want ErrUnsupported with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || p != tt.want {
				t.Fatalf("Validate = %+v, %v; want %+v", p, err, tt.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/plain"
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	base := Config{Dir: dir, Access: Write, Sync: Direct, Threads: 1, FileSize: 1 << 20, IOSize: 4096}
	tests := []struct {
		name    string
		mod     func(*Config)
		wantErr string
	}{
		{"missing dir", func(c *Config) { c.Dir = dir + "/nope" }, "no such file"},
		{"not a dir", func(c *Config) { c.Dir = file; c.Sync = Buffered }, "is not a directory"},
		{"fbarrier on a stock kernel", func(c *Config) { c.Sync = Fbarrier }, "needs a BarrierFS kernel with system call 548"},
		{"fdatabarrier on a stock kernel", func(c *Config) { c.Sync = Fdatabarrier }, "system call 549"},
	}
	if _, err := fsinfo.DirectIO(dir); err == nil {
		tests = append(tests, struct {
			name    string
			mod     func(*Config)
			wantErr string
		}{"O_DIRECT with an unaligned io size", func(c *Config) { c.IOSize = 1000; c.FileSize = 100000 }, "sync mode 3 (O_DIRECT) needs an io size that is a multiple of"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.mod(&c)
			if c.Sync == Fbarrier || c.Sync == Fdatabarrier {
				if _, _, e := unix.Syscall(548, ^uintptr(0), 0, 0); e != unix.ENOSYS {
					t.Skip("this kernel has the BarrierFS system calls")
				}
			}
			_, err := Check(c)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Check = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// On a filesystem that refuses O_DIRECT (ramfs; tmpfs before Linux 6.6) the
// direct modes fail before any file is created, with a message that names the
// mode, the filesystem and the directory.
func TestDirectRejectedBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("none", dir, "ramfs", 0, ""); err != nil {
		testenv.SkipOrFail(t, "cannot mount a ramfs here (needs root): %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	for _, s := range []Sync{Direct, SyncDirect} {
		c := Config{Dir: dir, Access: Write, Sync: s, Threads: 2, FileSize: 1 << 20, IOSize: 4096}
		_, err := Run(t.Context(), c)
		want := "sync mode " + string(rune('0'+int(s))) + " (" + s.String() + ") is not supported on ramfs at " + dir + ": the filesystem rejects O_DIRECT"
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Fatalf("Run = %v, want an error ending in %q", err, want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Fatalf("a rejected run left %d files", len(ents))
		}
	}
}
