package revmap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"unsafe"

	"golang.org/x/sys/unix"
)

// btrfs puts file data at addresses of its own logical space; its chunk
// tree says where each chunk of that space lies on the devices. FIEMAP
// gives a file's extents as logical addresses, so mapping a block of the
// device back to a file goes device → chunk → logical → file. The chunk
// tree is read through the kernel's tree search ioctl on the mounted
// filesystem (Documentation: fs/btrfs/ioctl.h and the on-disk format of
// struct btrfs_chunk); btrfs-progs' dump-tree and btrfs-map-logical are
// the oracles the tests compare with.

// btrfs constants: the tree search ioctl and the chunk tree's keys and
// block group flags.
const (
	btrfsIocTreeSearch   = 0xD0009411 // _IOWR(0x94, 17, struct btrfs_ioctl_search_args), 4096 bytes
	btrfsSearchKeyLen    = 104
	btrfsSearchHeaderLen = 32
	btrfsChunkTree       = 3
	btrfsFirstChunkObj   = 256
	btrfsChunkItemKey    = 228
	btrfsChunkLen        = 48 // struct btrfs_chunk without its stripes
	btrfsStripeLen       = 32 // struct btrfs_stripe

	// ChunkData and the others are a chunk's block group flags.
	ChunkData     = 0x1
	ChunkSystem   = 0x2
	ChunkMetadata = 0x4
	// Profiles that stripe a chunk across devices rather than copy it.
	chunkStriped = 0x8 | 0x40 | 0x80 | 0x100 // RAID0, RAID10, RAID5, RAID6
)

// btrfs superblock copies: at 64 KiB, 64 MiB and 256 GiB of every device,
// outside any chunk.
var btrfsSuperblocks = []uint64{64 << 10, 64 << 20, 256 << 30}

// Chunk is one chunk of a btrfs filesystem's logical space and the places
// of its copies on the device.
type Chunk struct {
	Logical, Length uint64
	Flags           uint64   // block group flags: ChunkData, ChunkMetadata, ChunkSystem, profile
	DevID           []uint64 // per copy
	Physical        []uint64 // per copy: byte offset on its device
}

// Type is the block type of a chunk's blocks that no file owns.
func (c Chunk) Type() BlockType {
	switch {
	case c.Flags&ChunkSystem != 0:
		return SystemChunk
	case c.Flags&ChunkData != 0 && c.Flags&ChunkMetadata != 0:
		return MixedChunk
	case c.Flags&ChunkMetadata != 0:
		return MetadataChunk
	}
	return DataChunk
}

// BtrfsChunks reads the chunk tree of the btrfs filesystem mounted at
// mount, in logical order.
func BtrfsChunks(mount string) ([]Chunk, error) {
	fd, err := unix.Open(mount, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, fmt.Errorf("btrfs: %w", err)
	}
	defer unix.Close(fd)
	le := binary.LittleEndian
	var args [4096]byte
	var chunks []Chunk
	for minOffset := uint64(0); ; {
		clear(args[:])
		key := args[:btrfsSearchKeyLen]
		le.PutUint64(key[0:], btrfsChunkTree)
		le.PutUint64(key[8:], btrfsFirstChunkObj)  // min_objectid
		le.PutUint64(key[16:], btrfsFirstChunkObj) // max_objectid
		le.PutUint64(key[24:], minOffset)
		le.PutUint64(key[32:], ^uint64(0))
		le.PutUint64(key[48:], ^uint64(0)) // max_transid
		le.PutUint32(key[56:], btrfsChunkItemKey)
		le.PutUint32(key[60:], btrfsChunkItemKey)
		le.PutUint32(key[64:], 4096) // nr_items: as many as fit
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), btrfsIocTreeSearch, uintptr(unsafe.Pointer(&args[0]))); errno != 0 {
			return nil, fmt.Errorf("btrfs: tree search of the chunk tree of %s: %w", mount, errno)
		}
		n := int(le.Uint32(key[64:]))
		if n == 0 {
			return chunks, nil
		}
		buf := args[btrfsSearchKeyLen:]
		off := 0
		for i := 0; i < n; i++ {
			if off+btrfsSearchHeaderLen > len(buf) {
				return nil, fmt.Errorf("btrfs: tree search result %d overruns the buffer at %d", i, off)
			}
			h := buf[off:]
			logical, typ, ln := le.Uint64(h[16:]), le.Uint32(h[24:]), int(le.Uint32(h[28:]))
			item := buf[off+btrfsSearchHeaderLen:]
			off += btrfsSearchHeaderLen + ln
			if off > len(buf) {
				return nil, fmt.Errorf("btrfs: chunk item at logical %d: %d bytes overrun the buffer", logical, ln)
			}
			minOffset = logical + 1
			if typ != btrfsChunkItemKey {
				continue
			}
			c, err := parseChunk(logical, item[:ln])
			if err != nil {
				return nil, err
			}
			chunks = append(chunks, c)
		}
		if minOffset == 0 { // wrapped: the last key had the largest offset
			return chunks, nil
		}
	}
}

// parseChunk decodes a struct btrfs_chunk item found at logical.
func parseChunk(logical uint64, item []byte) (Chunk, error) {
	le := binary.LittleEndian
	if len(item) < btrfsChunkLen {
		return Chunk{}, fmt.Errorf("btrfs: chunk item at logical %d: %d bytes, want ≥ %d", logical, len(item), btrfsChunkLen)
	}
	c := Chunk{Logical: logical, Length: le.Uint64(item[0:]), Flags: le.Uint64(item[24:])}
	stripes := int(le.Uint16(item[44:]))
	if len(item) < btrfsChunkLen+stripes*btrfsStripeLen {
		return Chunk{}, fmt.Errorf("btrfs: chunk item at logical %d: %d stripes in %d bytes", logical, stripes, len(item))
	}
	for i := 0; i < stripes; i++ {
		s := item[btrfsChunkLen+i*btrfsStripeLen:]
		c.DevID = append(c.DevID, le.Uint64(s[0:]))
		c.Physical = append(c.Physical, le.Uint64(s[8:]))
	}
	return c, nil
}

// find returns the chunk holding logical address l.
func findChunk(chunks []Chunk, l uint64) (Chunk, bool) {
	i := sort.Search(len(chunks), func(i int) bool { return chunks[i].Logical+chunks[i].Length > l })
	if i < len(chunks) && chunks[i].Logical <= l {
		return chunks[i], true
	}
	return Chunk{}, false
}

// MapBtrfs maps the btrfs filesystem mounted at mount on its one device:
// every chunk's blocks with the chunk's class (data, metadata, system,
// mixed), the superblock copies, and the data blocks of the regular files
// under dir — every copy of them — with their inode and path (relative to
// mount). Blocks outside chunks are Unknown (unallocated). Profiles that
// stripe across devices are refused: the trace is of one device.
func MapBtrfs(mount, dir string) (*Map, error) {
	chunks, err := BtrfsChunks(mount)
	if err != nil {
		return nil, err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(mount, &st); err != nil {
		return nil, fmt.Errorf("btrfs: statfs %s: %w", mount, err)
	}
	bs := uint64(st.Bsize)
	devs := map[uint64]bool{}
	var end uint64
	for _, c := range chunks {
		if c.Flags&chunkStriped != 0 {
			return nil, fmt.Errorf("btrfs: chunk at logical %d has a striped profile (flags %#x): only single, DUP and mirrored chunks are mapped", c.Logical, c.Flags)
		}
		for i, p := range c.Physical {
			devs[c.DevID[i]] = true
			end = max(end, p+c.Length)
		}
	}
	if len(devs) > 1 {
		return nil, fmt.Errorf("btrfs: %s spans %d devices; only one-device filesystems are mapped", mount, len(devs))
	}
	var files []Extent
	paths, err := walkFiles(mount, dir, func(p string, ino uint32) error {
		return fileExtents(p, func(logical, length uint64) error {
			// An extent lies in one chunk (btrfs allocates it
			// from one block group).
			c, ok := findChunk(chunks, logical)
			if !ok || logical+length > c.Logical+c.Length {
				return fmt.Errorf("logical extent %d+%d is not inside one chunk", logical, length)
			}
			for _, ph := range c.Physical {
				start := ph + (logical - c.Logical)
				files = append(files, Extent{Start: start / bs, Len: (start+length+bs-1)/bs - start/bs, Type: Data, Ino: ino})
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	var layout []Extent
	for _, c := range chunks {
		for _, ph := range c.Physical {
			layout = append(layout, Extent{Start: ph / bs, Len: c.Length / bs, Type: c.Type()})
		}
	}
	// A superblock copy may lie inside a chunk's range on the device
	// (btrfs keeps those bytes out of the chunk's free space), so it is
	// laid over the layout as files are.
	for _, sb := range btrfsSuperblocks {
		if sb+4096 <= max(end, st.Blocks*bs) {
			files = append(files, Extent{Start: sb / bs, Len: (4096 + bs - 1) / bs, Type: Superblock})
		}
	}
	ext, err := overlay(layout, files)
	if err != nil {
		return nil, fmt.Errorf("btrfs: %s: %w", mount, err)
	}
	return NewMap(uint32(bs), max(end/bs, st.Blocks), ext, paths), nil
}

// overlay lays the file extents over the layout's (which do not overlap
// each other): a file's blocks take its type and owner, the rest of the
// layout extent keeps its class. Two files on one block — btrfs shares
// extents between reflinked files and snapshots — keep the first.
func overlay(layout, files []Extent) ([]Extent, error) {
	sort.Slice(layout, func(i, j int) bool { return layout[i].Start < layout[j].Start })
	for i := 1; i < len(layout); i++ {
		if layout[i].Start < layout[i-1].Start+layout[i-1].Len {
			return nil, errors.New("layout extents overlap")
		}
	}
	b := &builder{}
	for _, f := range files {
		b.add(f.Start, f.Len, f.Type, f.Ino)
	}
	fs := b.sorted() // merged, no overlaps
	out := &builder{}
	j := 0
	for _, l := range layout {
		pos, end := l.Start, l.Start+l.Len
		for ; j < len(fs) && fs[j].Start < end; j++ {
			f := fs[j]
			if f.Start+f.Len <= pos {
				continue
			}
			if f.Start > pos {
				out.add(pos, f.Start-pos, l.Type, 0)
			}
			if f.Start+f.Len > end {
				// Spills past this layout extent (not in a
				// consistent filesystem); keep what is inside.
				out.add(max(f.Start, pos), end-max(f.Start, pos), f.Type, f.Ino)
				pos = end
				break
			}
			out.add(max(f.Start, pos), f.Start+f.Len-max(f.Start, pos), f.Type, f.Ino)
			pos = f.Start + f.Len
		}
		if pos < end {
			out.add(pos, end-pos, l.Type, 0)
		}
	}
	// Files outside every layout extent (none in a consistent
	// filesystem) still count as theirs.
	for _, f := range fs {
		if !inside(layout, f) {
			out.add(f.Start, f.Len, f.Type, f.Ino)
		}
	}
	return out.sorted(), nil
}

// inside says whether e overlaps any of the sorted extents ls.
func inside(ls []Extent, e Extent) bool {
	i := sort.Search(len(ls), func(i int) bool { return ls[i].Start+ls[i].Len > e.Start })
	return i < len(ls) && ls[i].Start < e.Start+e.Len
}
