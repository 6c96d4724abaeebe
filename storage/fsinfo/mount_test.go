package fsinfo

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// findmnt asks util-linux's findmnt, an independent reader of the mount
// table, for the fstype and options of the filesystem holding dir. When dir
// is over-mounted findmnt prints every layer; the last is the top.
func findmnt(t *testing.T, dir string) (fstype, options string) {
	t.Helper()
	out, err := exec.Command("findmnt", "-n", "-o", "FSTYPE,OPTIONS", "--target", dir).Output()
	if err != nil {
		t.Fatalf("findmnt --target %s: %v", dir, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 2 {
		t.Fatalf("findmnt --target %s: unexpected output %q", dir, out)
	}
	return f[0], f[1]
}

func needFindmnt(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("findmnt"); err != nil {
		t.Skip("findmnt (util-linux) not installed: cannot cross-check Describe")
	}
}

// TestDescribeAgainstFindmnt checks FSType against findmnt on the test's
// temporary directory, on a tmpfs when /dev/shm is one, and on every mount
// point of this machine that can be examined.
func TestDescribeAgainstFindmnt(t *testing.T) {
	needFindmnt(t)
	dirs := []string{t.TempDir()}
	if shm, err := os.MkdirTemp("/dev/shm", "droidprof-fstype-"); err == nil {
		t.Cleanup(func() { os.RemoveAll(shm) })
		dirs = append(dirs, shm)
	} else {
		t.Logf("no writable /dev/shm (%v): tmpfs checked only where mounted", err)
	}
	if data, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		mounts, err := ParseMountInfo(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("parse this machine's mountinfo: %v", err)
		}
		for _, m := range mounts {
			if strings.ContainsAny(m.MountPoint, " \t\n\\") {
				continue // findmnt's column output would need -P parsing
			}
			if _, err := os.Stat(m.MountPoint); err == nil {
				dirs = append(dirs, m.MountPoint)
			}
		}
	}
	for _, dir := range dirs {
		wantType, wantOpts := findmnt(t, dir)
		gotType, gotOpts, err := Describe(dir)
		if err != nil {
			t.Errorf("Describe(%s): %v", dir, err)
			continue
		}
		if gotType != wantType || gotOpts != wantOpts {
			t.Errorf("Describe(%s) = %s %q; findmnt says %s %q", dir, gotType, gotOpts, wantType, wantOpts)
		}
	}
}

// TestDescribeMissingDir: a storage directory that does not exist yet reports
// the filesystem it will be created on.
func TestDescribeMissingDir(t *testing.T) {
	needFindmnt(t)
	dir := t.TempDir()
	wantType, wantOpts := findmnt(t, dir)
	gotType, gotOpts, err := Describe(filepath.Join(dir, "not", "yet"))
	if err != nil || gotType != wantType || gotOpts != wantOpts {
		t.Errorf("Describe(missing) = %s %q %v; want %s %q", gotType, gotOpts, err, wantType, wantOpts)
	}
	// A symbolic link reports the filesystem of its target.
	link := filepath.Join(dir, "proc-link")
	if err := os.Symlink("/proc/self", link); err != nil {
		t.Fatal(err)
	}
	if typ, _, err := Describe(link); err != nil || typ != "proc" {
		t.Errorf("Describe(symlink to /proc/self) = %s, %v; want proc", typ, err)
	}
}

// coreutilsNames maps GNU stat -f %T names to the mount names in names
// where they differ.
var coreutilsNames = map[string]string{
	"ext2/ext3": "ext2/ext3/ext4",
	"overlayfs": "overlay",
	"cgroupfs":  "cgroup",
	"cgroup2fs": "cgroup2",
	"fuseblk":   "fuse",
	"isofs":     "iso9660",
	"v9fs":      "9p",
	"msdos":     "vfat",
	"bpf_fs":    "bpf",
	"devpts":    "devpts",
}

// TestMagicAgainstStat checks the statfs magic table against GNU stat -f,
// which has its own table of filesystem magics.
func TestMagicAgainstStat(t *testing.T) {
	if _, err := exec.LookPath("stat"); err != nil {
		t.Skip("stat (coreutils) not installed: cannot cross-check the magic table")
	}
	dirs := []string{t.TempDir(), "/proc", "/sys", "/dev", "/dev/shm", "/dev/pts", "/sys/fs/cgroup", "/run", "/boot"}
	for _, dir := range dirs {
		var st unix.Statfs_t
		if err := unix.Statfs(dir, &st); err != nil {
			continue
		}
		out, err := exec.Command("stat", "-f", "-c", "%t %T", dir).Output()
		if err != nil {
			t.Errorf("stat -f %s: %v", dir, err)
			continue
		}
		f := strings.Fields(string(out))
		if len(f) != 2 {
			t.Fatalf("stat -f %s: unexpected output %q", dir, out)
		}
		magic, err := strconv.ParseUint(f[0], 16, 32)
		if err != nil {
			t.Fatalf("stat -f %s: magic %q: %v", dir, f[0], err)
		}
		if uint32(st.Type) != uint32(magic) {
			t.Errorf("%s: statfs magic %#x, stat says %#x", dir, uint32(st.Type), magic)
		}
		name, ok := names[uint32(magic)]
		if !ok {
			t.Logf("%s: magic %#x (%s) not in our table", dir, magic, f[1])
			continue
		}
		want := f[1]
		if n, ok := coreutilsNames[want]; ok {
			want = n
		}
		if name != want {
			t.Errorf("%s: magic %#x named %q, stat -f says %q", dir, magic, name, f[1])
		}
	}
}

func TestMagicAgrees(t *testing.T) {
	tests := []struct {
		magic  uint32
		fstype string
		want   bool
	}{
		{0xEF53, "ext4", true},
		{0xEF53, "ext3", true},
		{0xEF53, "xfs", false},
		{0x01021994, "tmpfs", true},
		{0x01021994, "devtmpfs", true},
		{0x01021994, "ext4", false},
		{0x65735546, "fuse.sshfs", true},
		{0x58465342, "xfs", true},
		{0x9123683E, "btrfs", true},
		{0x794c7630, "overlay", true},
		{0x12345678, "anything", true}, // unknown magic
	}
	for _, tt := range tests {
		if got := magicAgrees(tt.magic, tt.fstype); got != tt.want {
			t.Errorf("magicAgrees(%#x, %s) = %v, want %v", tt.magic, tt.fstype, got, tt.want)
		}
	}
}

func TestDescribeErrors(t *testing.T) {
	// A path under a regular file cannot exist: ENOTDIR is an error, not a
	// reason to climb.
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Describe(filepath.Join(f, "sub")); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Errorf("Describe(file/sub) error = %v, want ENOTDIR", err)
	}
}
