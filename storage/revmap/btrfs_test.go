package revmap

import (
	"context"
	"fmt"
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

var (
	dumpChunkKey    = regexp.MustCompile(`key \(FIRST_CHUNK_TREE CHUNK_ITEM (\d+)\)`)
	dumpChunkLength = regexp.MustCompile(`^\s*length (\d+) owner \d+ stripe_len \d+ type (\S+)`)
	dumpChunkStripe = regexp.MustCompile(`^\s*stripe \d+ devid (\d+) offset (\d+)`)
	mapLogicalLine  = regexp.MustCompile(`mirror (\d+) logical (\d+) physical (\d+) device`)
)

// dumpChunks reads the chunk tree as btrfs-progs prints it.
func dumpChunks(t *testing.T, dev string) []Chunk {
	t.Helper()
	out, err := exec.Command("btrfs", "inspect-internal", "dump-tree", "-t", "chunk", dev).Output()
	if err != nil {
		t.Fatalf("dump-tree: %v", err)
	}
	var chunks []Chunk
	for _, line := range strings.Split(string(out), "\n") {
		if m := dumpChunkKey.FindStringSubmatch(line); m != nil {
			l, _ := strconv.ParseUint(m[1], 10, 64)
			chunks = append(chunks, Chunk{Logical: l})
			continue
		}
		if len(chunks) == 0 {
			continue
		}
		c := &chunks[len(chunks)-1]
		if m := dumpChunkLength.FindStringSubmatch(line); m != nil {
			c.Length, _ = strconv.ParseUint(m[1], 10, 64)
			for _, f := range strings.Split(m[2], "|") {
				c.Flags |= map[string]uint64{"DATA": ChunkData, "METADATA": ChunkMetadata, "SYSTEM": ChunkSystem}[f]
			}
		} else if m := dumpChunkStripe.FindStringSubmatch(line); m != nil {
			d, _ := strconv.ParseUint(m[1], 10, 64)
			p, _ := strconv.ParseUint(m[2], 10, 64)
			c.DevID, c.Physical = append(c.DevID, d), append(c.Physical, p)
		}
	}
	return chunks
}

// TestBtrfsAgainstBtrfsProgs maps a btrfs loop volume (single and DUP
// metadata; data single, and mixed block groups) and checks it with
// btrfs-progs: the chunks with dump-tree's chunk tree, every block of
// every chunk copy against the chunk's class, and every data extent of
// every file — its logical address through btrfs-map-logical to the device
// and through logical-resolve to the file's path.
func TestBtrfsAgainstBtrfsProgs(t *testing.T) {
	testenv.Tool(t, "btrfs", "btrfs-progs")
	testenv.Tool(t, "btrfs-map-logical", "btrfs-progs")
	for _, tc := range []struct {
		name string
		mkfs []string
	}{
		{"dup-metadata", []string{"-m", "dup", "-d", "single"}},
		{"single", []string{"-m", "single", "-d", "single"}},
		{"mixed", []string{"--mixed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			volumetest.NeedRoot(t, "btrfs")
			vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "btrfs", Size: 320 << 20, ImageDir: t.TempDir(), MkfsOptions: tc.mkfs})
			if err != nil {
				t.Fatal(err)
			}
			defer vol.Close()
			populate(t, vol.Dir)
			fd, err := unix.Open(vol.Dir, unix.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			// The chunk tree and the extents on the device, for
			// the tools that read it.
			unix.Syncfs(fd)
			unix.Close(fd)
			m, err := MapBtrfs(vol.Dir, vol.Dir)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := BtrfsChunks(vol.Dir)
			if err != nil {
				t.Fatal(err)
			}
			theirs := dumpChunks(t, vol.Device)
			if fmt.Sprint(stripProfile(ours)) != fmt.Sprint(theirs) {
				t.Fatalf("chunks:\nours   %v\ndump-tree %v", ours, theirs)
			}
			bs := uint64(m.BlockSize)
			classed := map[BlockType]int{}
			for _, c := range theirs {
				want := c.Type()
				for _, ph := range c.Physical {
					for b := ph / bs; b < (ph+c.Length)/bs; b++ {
						got := m.Lookup(b)
						switch {
						case got.Type == want, got.Type == Superblock:
						case got.Type == Data && c.Flags&ChunkData != 0 && got.Ino != 0:
						default:
							t.Fatalf("block %d (chunk at logical %d, %s): ours %v ino %d", b, c.Logical, want, got.Type, got.Ino)
						}
						classed[got.Type]++
					}
				}
			}
			t.Logf("chunk blocks by type: %v", classed)

			checked := 0
			for ino, p := range m.Inodes() {
				var extents [][2]uint64
				if err := fileExtents(filepath.Join(vol.Dir, p), func(l, n uint64) error {
					extents = append(extents, [2]uint64{l, n})
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				for _, e := range extents {
					out, err := exec.Command("btrfs-map-logical", "-l", strconv.FormatUint(e[0], 10), vol.Device).Output()
					if err != nil {
						t.Fatalf("btrfs-map-logical %d: %v", e[0], err)
					}
					// It goes on to the extents that follow;
					// the lines of the address asked are the
					// extent's copies.
					var mirrors [][]string
					for _, mr := range mapLogicalLine.FindAllStringSubmatch(string(out), -1) {
						if mr[2] == strconv.FormatUint(e[0], 10) {
							mirrors = append(mirrors, mr)
						}
					}
					if len(mirrors) == 0 {
						t.Fatalf("btrfs-map-logical %d: %q", e[0], out)
					}
					for _, mr := range mirrors {
						ph, _ := strconv.ParseUint(mr[3], 10, 64)
						for b := ph / bs; b < (ph+e[1]+bs-1)/bs; b++ {
							if got := m.Lookup(b); got.Type != Data || got.Ino != ino {
								t.Errorf("%s: logical %d → physical %d (btrfs-map-logical): block %d is ours %v ino %d", p, e[0], ph, b, got.Type, got.Ino)
							}
							checked++
						}
					}
					res, err := exec.Command("btrfs", "inspect-internal", "logical-resolve", strconv.FormatUint(e[0], 10), vol.Dir).Output()
					if err != nil {
						t.Fatalf("logical-resolve %d: %v", e[0], err)
					}
					if !strings.Contains(string(res), filepath.Join(vol.Dir, p)+"\n") {
						t.Errorf("%s: logical-resolve %d says %q", p, e[0], res)
					}
				}
			}
			if checked == 0 {
				t.Fatal("no data block checked")
			}
			t.Logf("%d data blocks of %d files checked", checked, len(m.Inodes()))
		})
	}
}

// stripProfile drops the profile bits, leaving the class, for comparing
// with dump-tree's flags, of which the test reads only the classes.
func stripProfile(cs []Chunk) []Chunk {
	out := append([]Chunk(nil), cs...)
	for i := range out {
		out[i].Flags &= ChunkData | ChunkMetadata | ChunkSystem
	}
	return out
}

// overlay cuts the layout's extents around the files' blocks.
func TestOverlay(t *testing.T) {
	for _, tc := range []struct {
		name          string
		layout, files []Extent
		want          string
	}{
		{"file inside", []Extent{{0, 10, DataChunk, 0}}, []Extent{{3, 2, Data, 7}},
			"[{0 3 data_chunk 0} {3 2 data 7} {5 5 data_chunk 0}]"},
		{"file at both ends", []Extent{{0, 4, DataChunk, 0}}, []Extent{{0, 1, Data, 7}, {3, 1, Data, 8}},
			"[{0 1 data 7} {1 2 data_chunk 0} {3 1 data 8}]"},
		{"two layout extents, files across the gap", []Extent{{0, 4, MetadataChunk, 0}, {10, 4, DataChunk, 0}}, []Extent{{5, 2, Superblock, 0}, {11, 1, Data, 9}},
			"[{0 4 metadata_chunk 0} {5 2 superblock 0} {10 1 data_chunk 0} {11 1 data 9} {12 2 data_chunk 0}]"},
		{"no files", []Extent{{2, 2, SystemChunk, 0}}, nil, "[{2 2 system_chunk 0}]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := overlay(tc.layout, tc.files)
			if err != nil {
				t.Fatal(err)
			}
			if s := fmt.Sprint(got); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
	if _, err := overlay([]Extent{{0, 4, DataChunk, 0}, {2, 4, DataChunk, 0}}, nil); err == nil {
		t.Error("overlapping layout extents accepted")
	}
}
