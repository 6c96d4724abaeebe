package fsinfo

import (
	"errors"
	"github.com/droidprof/droidprof/internal/testenv"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

func TestTypeName(t *testing.T) {
	tests := []struct {
		magic int64
		want  string
	}{
		{0xef53, "ext2/ext3/ext4"}, {0x01021994, "tmpfs"}, {0x58465342, "xfs"}, {0x858458f6, "ramfs"}, {0x1234, "0x1234"},
	}
	for _, tt := range tests {
		if got := TypeName(tt.magic); got != tt.want {
			t.Errorf("TypeName(%#x) = %q, want %q", tt.magic, got, tt.want)
		}
	}
}

func TestTypeOfTempDir(t *testing.T) {
	_, name, err := Type(t.TempDir())
	if err != nil || name == "" {
		t.Fatalf("Type = %q, %v", name, err)
	}
	if _, _, err := Type("/nonexistent/dir"); err == nil {
		t.Fatal("Type of a missing dir succeeded")
	}
}

func TestDirectIOLeavesNoProbe(t *testing.T) {
	dir := t.TempDir()
	a, err := DirectIO(dir)
	if err != nil && !errors.Is(err, ErrNoDirectIO) {
		t.Fatal(err)
	}
	if err == nil && (a.Offset <= 0 || a.Memory <= 0 || a.Offset&(a.Offset-1) != 0) {
		t.Fatalf("implausible alignment %+v", a)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Fatalf("probe left %d files", len(ents))
	}
}

// ramfs has never accepted O_DIRECT; mounting one needs root.
func TestDirectIORejectedOnRamfs(t *testing.T) {
	dir := mountScratch(t, "ramfs")
	if _, err := DirectIO(dir); !errors.Is(err, ErrNoDirectIO) {
		t.Fatalf("DirectIO on ramfs = %v, want ErrNoDirectIO", err)
	}
	if _, name, _ := Type(dir); name != "ramfs" {
		t.Fatalf("Type = %q, want ramfs", name)
	}
}

// mountScratch mounts a fresh in-memory filesystem of type fstype on a
// temporary directory for the test, or skips when that is not possible.
func mountScratch(t *testing.T, fstype string) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("none", dir, fstype, 0, ""); err != nil {
		testenv.SkipOrFail(t, "cannot mount %s here (needs root): %v", fstype, err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}
