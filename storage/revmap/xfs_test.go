package revmap

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
	"golang.org/x/sys/unix"
)

var bmapLine = regexp.MustCompile(`^\s*\d+: \[\d+\.\.\d+\]: (\d+)\.\.(\d+)`)

// checkXFSBmap checks, for every regular file under mount, that each
// block xfs_bmap gives (in 512-byte units) is in the map as that file's
// data, and that the map with Names' paths names the file.
func checkXFSBmap(t *testing.T, mount string, m *Map) {
	t.Helper()
	testenv.Tool(t, "xfs_bmap", "xfsprogs")
	names, err := Names(mount, mount)
	if err != nil {
		t.Fatal(err)
	}
	named := NewMap(m.BlockSize, m.Blocks, m.Extents(), names)
	files, blocks := 0, 0
	for ino, p := range names {
		full := filepath.Join(mount, p)
		if fi, err := os.Lstat(full); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out, err := exec.Command("xfs_bmap", full).Output()
		if err != nil {
			t.Fatalf("xfs_bmap %s: %v", full, err)
		}
		files++
		for _, line := range strings.Split(string(out), "\n") {
			f := bmapLine.FindStringSubmatch(line)
			if f == nil {
				continue
			}
			first, _ := strconv.ParseUint(f[1], 10, 64)
			last, _ := strconv.ParseUint(f[2], 10, 64)
			per := uint64(m.BlockSize) / 512
			for b := first / per; b <= last/per; b++ {
				blocks++
				e := named.Lookup(b)
				if e.Type != Data || e.Ino != ino || named.Path(e.Ino) != p {
					t.Errorf("%s (inode %d): block %d from xfs_bmap is ours %v inode %d %q", p, ino, b, e.Type, e.Ino, named.Path(e.Ino))
					return
				}
			}
		}
	}
	if blocks == 0 {
		t.Fatal("xfs_bmap gave no block")
	}
	t.Logf("xfs_bmap: %d blocks of %d files agree", blocks, files)
}

var blockuseLine = regexp.MustCompile(`^block \d+ \((\d+)/(\d+)\) type (\S+)(?: inode (\d+))?`)

// xfsDBType is our type for each of xfs_db's block use names.
var xfsDBType = map[string]BlockType{
	"sb": Superblock, "agf": AGF, "agi": AGI, "agfl": AGFL,
	"btbno": FreeSpaceBtree, "btcnt": FreeSpaceBtree, "btino": InodeBtree, "btfino": InodeBtree,
	"btrmap": RmapBtree, "btrefcnt": RefcountBtree, "freelist": FreeList,
	"inode": InodeTable, "log": Journal, "data": Data, "dir": Directory, "bmap": ExtentTree,
	"attr": Xattr, "symlink": Data, "rtbitmap": Data, "rtsum": Data,
	"free1": Unknown, "free2": Unknown,
}

// TestXFSAgainstXfsDb maps xfs loop volumes (512-byte and 4 KiB sectors,
// 2 and 4 KiB blocks, with and without the reverse-mapping and free
// inode btrees and sparse inode chunks)
// holding the tree populate writes and xfsExtras' — a file whose 400
// extents need a bmap btree, a directory of 300 entries, a remote
// attribute value, a symlink of its own block — and compares every block of
// the device with xfs_db's blockget/blockuse: its type, and its inode for
// file, directory, bmap btree and attribute blocks.
func TestXFSAgainstXfsDb(t *testing.T) {
	testenv.Tool(t, "xfs_db", "xfsprogs")
	for _, tc := range []struct {
		name string
		mkfs []string
	}{
		{"default", nil},
		{"4k-sectors", []string{"-s", "size=4096"}},
		{"rmapbt-2k-blocks", []string{"-m", "rmapbt=1", "-b", "size=2048"}},
		{"no-finobt-no-sparse", []string{"-m", "finobt=0", "-i", "sparse=0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			volumetest.NeedRoot(t, "xfs")
			vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "xfs", Size: 320 << 20, ImageDir: t.TempDir(), MkfsOptions: tc.mkfs})
			if err != nil {
				t.Fatal(err)
			}
			defer vol.Close()
			populate(t, vol.Dir)
			xfsExtras(t, vol.Dir)
			thaw, err := FreezeFS(vol.Dir)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := thaw(); err != nil {
					t.Error(err)
				}
			}()
			m, err := ReadXFSFile(vol.Device)
			if err != nil {
				t.Fatal(err)
			}
			// A frozen xfs has its metadata in place but its log
			// not clean, and xfs_db refuses such a log; mounted
			// read-only it is clean. The map must be the same.
			if err := thaw(); err != nil {
				t.Fatal(err)
			}
			thaw = func() error { return nil }
			if err := unix.Mount("", vol.Dir, "", unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
				t.Fatal(err)
			}
			ro, err := ReadXFSFile(vol.Device)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := fmt.Sprint(m.Extents()), fmt.Sprint(ro.Extents()); a != b {
				t.Errorf("the map of the frozen filesystem differs from the map read-only:\n%s\n%s", a, b)
			}
			sb, err := exec.Command("xfs_db", "-r", "-c", "sb", "-c", "print agblocks agcount agblklog", vol.Device).Output()
			if err != nil {
				t.Fatalf("xfs_db sb: %v", err)
			}
			var agblocks, agcount, agblklog uint64
			if _, err := fmt.Sscanf(string(sb), "agblocks = %d\nagcount = %d\nagblklog = %d", &agblocks, &agcount, &agblklog); err != nil {
				t.Fatalf("xfs_db sb: %v in %q", err, sb)
			}
			args := []string{"-r", "-c", "blockget"}
			for ag := uint64(0); ag < agcount; ag++ {
				n := min(agblocks, m.Blocks-ag*agblocks)
				args = append(args, "-c", fmt.Sprintf("fsblock %d", ag<<agblklog), "-c", fmt.Sprintf("blockuse -c %d", n))
			}
			out, err := exec.Command("xfs_db", append(args, vol.Device)...).Output()
			if err != nil {
				// blockget exits 1 when its check finds a
				// problem; what it found is in the output.
				t.Logf("xfs_db blockget: %v: %s", err, stderrOf(err))
			}
			checked, bad, bmbt := 0, 0, 0
			byType := map[string]int{}
			for _, line := range strings.Split(string(out), "\n") {
				f := blockuseLine.FindStringSubmatch(line)
				if f == nil {
					if line != "" {
						t.Logf("xfs_db: %s", line)
					}
					continue
				}
				ag, _ := strconv.ParseUint(f[1], 10, 64)
				agbno, _ := strconv.ParseUint(f[2], 10, 64)
				want, ok := xfsDBType[f[3]]
				if !ok {
					t.Fatalf("xfs_db block type %q not known to the test: %s", f[3], line)
				}
				var wantIno uint64
				if f[4] != "" {
					wantIno, _ = strconv.ParseUint(f[4], 10, 64)
				}
				got := m.Lookup(ag*agblocks + agbno)
				checked++
				byType[f[3]]++
				// xfs_db counts a bmap btree block as its
				// fork's (data, dir, attr); ours tells it
				// apart, with the same inode.
				if got.Type == ExtentTree && (want == Data || want == Directory || want == Xattr) && uint64(got.Ino) == wantIno {
					bmbt++
					continue
				}
				if got.Type != want || uint64(got.Ino) != wantIno {
					bad++
					if bad <= 20 {
						t.Errorf("block %d/%d: xfs_db says %s inode %d, ours %v inode %d", ag, agbno, f[3], wantIno, got.Type, got.Ino)
					}
				}
			}
			if checked != int(m.Blocks) {
				t.Errorf("xfs_db described %d blocks of %d", checked, m.Blocks)
			}
			if bad > 0 {
				t.Errorf("%d of %d blocks differ", bad, checked)
			}
			if bmbt == 0 {
				t.Error("no bmap btree block: the test's file of 400 extents did not make one")
			}
			t.Logf("%d blocks compared (%d of them bmap btree blocks): %v", checked, bmbt, byType)
			checkXFSBmap(t, vol.Dir, m)
		})
	}
}

// stderrOf returns what a failed command wrote to stderr.
func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// xfsExtras adds what populate's tree does not make on xfs: a file of 400
// separate extents (every other block written, the rest holes), an
// extended attribute too large for the inode, a symlink whose target
// needs a block.
func xfsExtras(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "holes.bin"))
	if err != nil {
		t.Fatal(err)
	}
	blk := bytes.Repeat([]byte{'h'}, 4096)
	for i := 0; i < 400; i++ {
		if _, err := f.WriteAt(blk, int64(i)*3*4096); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := unix.Setxattr(filepath.Join(dir, "data/app.db"), "user.big", bytes.Repeat([]byte{'a'}, 3000), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(strings.Repeat("long-target/", 60), filepath.Join(dir, "longlink")); err != nil {
		t.Fatal(err)
	}
}
