package revmap

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
)

// populate writes a tree with what the mapper must handle: files of
// several sizes, a sparse file with many extents (an extent tree deeper
// than the inode), a directory large enough to be hashed, a symlink.
func populate(t *testing.T, dir string) {
	t.Helper()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fill := func(n int, b byte) []byte { return bytes.Repeat([]byte{b}, n) }
	write("data/app.db", fill(100<<10, 'd'))
	write("data/app.db-journal", fill(9<<10, 'j'))
	write("data/app.db-wal", fill(33<<10, 'w'))
	write("lib/libx.so", fill(300<<10, 'x'))
	write("media/pic.jpg", fill(1<<20, 'p'))
	// Every other 4 KiB block non-zero: mke2fs -d keeps the zero blocks as
	// holes, so each data block becomes an extent of its own.
	var sparse []byte
	for i := 0; i < 64; i++ {
		sparse = append(sparse, fill(4096, 's')...)
		sparse = append(sparse, make([]byte, 4096)...)
	}
	write("sparse.bin", sparse)
	for i := 0; i < 300; i++ {
		write(fmt.Sprintf("many/file-with-a-long-name-%04d.tmp", i), fill(100+i, 'm'))
	}
	if err := os.Symlink("data/app.db", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
}

// debugfsRun runs debugfs commands from a file on img and returns stdout.
func debugfsRun(t *testing.T, img string, cmds []string) string {
	t.Helper()
	cf := filepath.Join(t.TempDir(), "cmds")
	if err := os.WriteFile(cf, []byte(strings.Join(cmds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("debugfs", "-f", cf, img).Output()
	if err != nil {
		t.Fatalf("debugfs: %v", err)
	}
	return string(out)
}

var tabLine = regexp.MustCompile(`^(\d+)\t(.*)$`)

// TestExt4AgainstE2fsprogs maps images made by mke2fs -d and compares every
// block's owner with debugfs icheck, every owner's path with debugfs
// ncheck, and the group layout with dumpe2fs.
func TestExt4AgainstE2fsprogs(t *testing.T) {
	testenv.Tool(t, "mke2fs", "e2fsprogs")
	testenv.Tool(t, "debugfs", "e2fsprogs")
	testenv.Tool(t, "dumpe2fs", "e2fsprogs")
	src := t.TempDir()
	populate(t, src)
	for _, tt := range []struct{ name, fsType, size string }{
		{"ext4 4k", "ext4 -b 4096", "64M"},
		{"ext4 1k", "ext4 -b 1024", "32M"},
		{"ext4 no flex_bg, 4 groups", "ext4 -b 4096 -g 4096 -O ^flex_bg", "64M"},
		{"ext4 64bit, flex groups of 4", "ext4 -b 4096 -g 4096 -G 4 -O 64bit", "64M"},
		{"ext2 block maps", "ext2 -b 1024", "32M"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			img := filepath.Join(t.TempDir(), "img")
			args := append([]string{"-q", "-F", "-t"}, strings.Fields(tt.fsType)...)
			args = append(args, "-d", src, img, tt.size)
			if out, err := exec.Command("mke2fs", args...).CombinedOutput(); err != nil {
				t.Fatalf("mke2fs %v: %v\n%s", args, err, out)
			}
			m, err := ReadExt4File(img)
			if err != nil {
				t.Fatal(err)
			}
			compareIcheck(t, img, m)
			compareNcheck(t, img, m)
			compareLayout(t, img, m)
		})
	}
}

func compareIcheck(t *testing.T, img string, m *Map) {
	var cmds []string
	const batch = 500 // debugfs reads command lines into a fixed buffer
	for b := uint64(0); b < m.Blocks; b += batch {
		var nums []string
		for n := b; n < min(b+batch, m.Blocks); n++ {
			nums = append(nums, strconv.FormatUint(n, 10))
		}
		cmds = append(cmds, "icheck "+strings.Join(nums, " "))
	}
	out := debugfsRun(t, img, cmds)
	seen, bad := 0, 0
	types := map[BlockType]int{}
	for _, line := range strings.Split(out, "\n") {
		g := tabLine.FindStringSubmatch(line)
		if g == nil {
			continue
		}
		blk, _ := strconv.ParseUint(g[1], 10, 64)
		want := uint32(0)
		if g[2] != "<block not found>" {
			n, err := strconv.ParseUint(g[2], 10, 32)
			if err != nil {
				t.Fatalf("debugfs icheck line %q", line)
			}
			want = uint32(n)
		}
		seen++
		e := m.Lookup(blk)
		types[e.Type]++
		got := e.Ino
		// icheck names the resize inode only for the reserved blocks it
		// maps; we type all reserved blocks from the layout.
		if got != want && !(e.Type == ReservedGDT && want == 0) {
			if bad++; bad <= 10 {
				t.Errorf("block %d: ours inode %d (%v), debugfs icheck inode %d", blk, got, e.Type, want)
			}
		}
	}
	if uint64(seen) != m.Blocks {
		t.Fatalf("debugfs answered for %d blocks of %d", seen, m.Blocks)
	}
	if bad > 0 {
		t.Errorf("%d of %d blocks disagree with debugfs icheck", bad, seen)
	}
	for _, want := range []BlockType{Superblock, GroupDesc, BlockBitmap, InodeBitmap, InodeTable, Directory, Data} {
		if types[want] == 0 {
			t.Errorf("no %v block mapped", want)
		}
	}
	t.Logf("%d blocks, by type %v", seen, types)
}

func compareNcheck(t *testing.T, img string, m *Map) {
	inodes := m.Inodes()
	var nums []string
	for ino := range inodes {
		if ino >= 11 {
			nums = append(nums, strconv.FormatUint(uint64(ino), 10))
		}
	}
	var cmds []string
	for len(nums) > 0 {
		n := min(len(nums), 500)
		cmds = append(cmds, "ncheck "+strings.Join(nums[:n], " "))
		nums = nums[n:]
	}
	asked := 0
	for ino := range inodes {
		if ino >= 11 {
			asked++
		}
	}
	out := debugfsRun(t, img, cmds)
	got := 0
	for _, line := range strings.Split(out, "\n") {
		g := tabLine.FindStringSubmatch(line)
		if g == nil {
			continue
		}
		ino, _ := strconv.ParseUint(g[1], 10, 32)
		want := path.Clean(g[2]) // this debugfs prints root entries as //name
		if p := inodes[uint32(ino)]; p != want {
			t.Errorf("inode %d: ours %q, debugfs ncheck %q", ino, p, want)
		}
		got++
	}
	if got != asked || got < 300 {
		t.Errorf("ncheck named %d inodes of the %d we asked for", got, asked)
	}
}

var (
	groupRe   = regexp.MustCompile(`^Group (\d+): \(Blocks (\d+)-(\d+)\)`)
	superRe   = regexp.MustCompile(`^\s+(Primary|Backup) superblock at (\d+), Group descriptors at (\d+)-(\d+)`)
	reservRe  = regexp.MustCompile(`^\s+Reserved GDT blocks at (\d+)-(\d+)`)
	bbitmapRe = regexp.MustCompile(`^\s+Block bitmap at (\d+)`)
	ibitmapRe = regexp.MustCompile(`^\s+Inode bitmap at (\d+)`)
	itableRe  = regexp.MustCompile(`^\s+Inode table at (\d+)-(\d+)`)
)

func compareLayout(t *testing.T, img string, m *Map) {
	out, err := exec.Command("dumpe2fs", img).Output()
	if err != nil {
		t.Fatalf("dumpe2fs: %v", err)
	}
	var want []GroupLayout
	num := func(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		if g := groupRe.FindStringSubmatch(l); g != nil {
			want = append(want, GroupLayout{Group: uint32(num(g[1])), Superblock: -1, GDTStart: -1, GDTEnd: -1, ReservedStart: -1})
			continue
		}
		if len(want) == 0 {
			continue
		}
		w := &want[len(want)-1]
		if g := superRe.FindStringSubmatch(l); g != nil {
			w.Superblock, w.GDTStart, w.GDTEnd = num(g[2]), num(g[3]), num(g[4])
		} else if g := reservRe.FindStringSubmatch(l); g != nil {
			w.ReservedStart, w.Reserved = num(g[1]), num(g[2])-num(g[1])+1
		} else if g := bbitmapRe.FindStringSubmatch(l); g != nil {
			w.BlockBitmap = uint64(num(g[1]))
		} else if g := ibitmapRe.FindStringSubmatch(l); g != nil {
			w.InodeBitmap = uint64(num(g[1]))
		} else if g := itableRe.FindStringSubmatch(l); g != nil {
			w.InodeTable, w.InodeTableLen = uint64(num(g[1])), uint64(num(g[2])-num(g[1])+1)
		}
	}
	if len(want) != len(m.Layout) || len(want) == 0 {
		t.Fatalf("dumpe2fs lists %d groups, we %d", len(want), len(m.Layout))
	}
	for i := range want {
		if want[i] != m.Layout[i] {
			t.Errorf("group %d: ours %+v, dumpe2fs %+v", i, m.Layout[i], want[i])
		}
	}
}
