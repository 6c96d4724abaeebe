// Package revmap maps the blocks of a filesystem back to what they hold:
// the block type from the on-disk layout (superblock, group descriptors,
// bitmaps, inode table, directory, extent tree, journal, data), the inode
// that owns a block and that inode's path, and the file-type class of the
// path (SQLite database, journal, WAL, ...). Files created and deleted while
// a trace ran are mapped retrospectively from the trace's own allocation
// events and the names a watcher saw (History).
//
// The ext4 reader is our own; e2fsprogs' debugfs (icheck, ncheck) and
// dumpe2fs are the oracles its tests compare it with.
package revmap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
)

// BlockType is what a filesystem block holds.
type BlockType uint8

// Block types: ext4's first, then btrfs's and xfs's.
const (
	Unknown        BlockType = iota // not allocated to anything at the time of the map
	Superblock                      // primary or backup superblock
	GroupDesc                       // group descriptor table (primary or backup)
	ReservedGDT                     // blocks reserved for growing the descriptor table
	BlockBitmap                     // a group's block bitmap
	InodeBitmap                     // a group's inode bitmap
	InodeTable                      // a group's inode table
	Directory                       // a directory's entries
	ExtentTree                      // an extent tree node (index or leaf) below the inode
	IndirectMap                     // an indirect block of a block-mapped inode
	Xattr                           // an extended-attribute block
	Journal                         // the jbd2 journal
	Data                            // a file's data
	Metadata                        // metadata of a kind the source did not say (MOST's M tag)
	DataChunk                       // btrfs: in a data chunk, no file's at the time of the map
	MetadataChunk                   // btrfs: in a metadata chunk (its trees, the log tree)
	SystemChunk                     // btrfs: in a system chunk (the chunk tree)
	MixedChunk                      // btrfs: in a mixed data+metadata chunk, no file's
	AGF                             // xfs: an allocation group's free-space header, in a block of its own
	AGI                             // xfs: an allocation group's inode header, in a block of its own
	AGFL                            // xfs: an allocation group's free list header, in a block of its own
	FreeSpaceBtree                  // xfs: a block of the free-space btrees (by block and by size)
	InodeBtree                      // xfs: a block of the inode btrees (all and free inodes)
	RmapBtree                       // xfs: a block of the reverse-mapping btree
	RefcountBtree                   // xfs: a block of the reference-count btree
	FreeList                        // xfs: a block on an allocation group's free list

	// NumBlockTypes counts the types. The numbers are stored in map files
	// (plugins/most's fsmap.json): new types go at the end.
	NumBlockTypes
)

var typeNames = [...]string{"unknown", "superblock", "group_desc", "reserved_gdt", "block_bitmap", "inode_bitmap", "inode_table", "directory", "extent_tree", "indirect", "xattr", "journal", "data", "metadata", "data_chunk", "metadata_chunk", "system_chunk", "mixed_chunk", "agf", "agi", "agfl", "free_space_btree", "inode_btree", "rmap_btree", "refcount_btree", "free_list"}

// String returns the type's name as the tables print it.
func (t BlockType) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("type%d", t)
}

// Category is the paper's three-way split: metadata, journal or data (file
// data and directory entries), or "unknown".
func (t BlockType) Category() string {
	switch t {
	case Journal:
		return "journal"
	case Directory, Data, DataChunk:
		return "data"
	case Unknown:
		return "unknown"
	}
	return "metadata"
}

// Extent is a run of blocks of one type and owner.
type Extent struct {
	Start, Len uint64
	Type       BlockType
	Ino        uint32 // owning inode; 0 for layout metadata
}

// Map is a filesystem's block map at one moment: every allocated block with
// its type and owner, and the path of every inode reachable from the root.
type Map struct {
	BlockSize  uint32
	Blocks     uint64 // blocks in the filesystem
	JournalIno uint32
	extents    []Extent // sorted by Start, not overlapping
	parent     map[uint32]dirent
	paths      map[uint32]string // set by NewMap instead of parent
	Layout     []GroupLayout
	// AGBlocks and AGBlkLog are an xfs filesystem's AG geometry (0 on
	// others), for turning the filesystem block numbers of xfs's
	// tracepoints into device blocks (XFSDevBlock).
	AGBlocks uint32
	AGBlkLog uint8
}

// XFSDevBlock turns an xfs filesystem block number (the AG in the bits
// above AGBlkLog) into the device block it is.
func (m *Map) XFSDevBlock(fsb uint64) uint64 {
	return fsb>>m.AGBlkLog*uint64(m.AGBlocks) + fsb&(1<<m.AGBlkLog-1)
}

// NewMap rebuilds a map from what an earlier one reported (Extents and
// Inodes), e.g. after a round trip through a file.
func NewMap(blockSize uint32, blocks uint64, extents []Extent, paths map[uint32]string) *Map {
	ext := append([]Extent(nil), extents...)
	sort.Slice(ext, func(i, j int) bool { return ext[i].Start < ext[j].Start })
	return &Map{BlockSize: blockSize, Blocks: blocks, extents: ext, paths: paths}
}

// GroupLayout is where a block group's metadata lives, as dumpe2fs prints
// it.
type GroupLayout struct {
	Group                   uint32
	Superblock              int64 // -1 when the group has no superblock copy
	GDTStart, GDTEnd        int64 // inclusive; -1 when none
	ReservedStart, Reserved int64 // first reserved GDT block and count
	BlockBitmap             uint64
	InodeBitmap             uint64
	InodeTable              uint64
	InodeTableLen           uint64
}

type dirent struct {
	parent uint32
	name   string
}

// ext4 on-disk constants (Documentation/filesystems/ext4 in the kernel).
const (
	sbOffset        = 1024
	sbMagic         = 0xEF53
	compatResize    = 0x10
	compatSparse2   = 0x200
	incompatMetaBG  = 0x10
	incompat64bit   = 0x80
	roSparseSuper   = 0x1
	bgInodeUninit   = 0x1
	inodeFlagExtent = 0x80000
	inodeFlagInline = 0x10000000
	extentMagic     = 0xF30A
	modeTypeMask    = 0xF000
	modeDir         = 0x4000
	modeReg         = 0x8000
	modeLink        = 0xA000
)

// reader reads filesystem blocks.
type reader struct {
	r  io.ReaderAt
	bs uint32
}

func (rd reader) block(n uint64) ([]byte, error) {
	buf := make([]byte, rd.bs)
	if _, err := rd.r.ReadAt(buf, int64(n)*int64(rd.bs)); err != nil {
		return nil, fmt.Errorf("read block %d (offset %d): %w", n, int64(n)*int64(rd.bs), err)
	}
	return buf, nil
}

// superblock holds the fields the map needs.
type superblock struct {
	inodes, inodesPerGroup, blocksPerGroup, firstDataBlock uint32
	blocks                                                 uint64
	blockSize                                              uint32
	inodeSize, descSize, reservedGDT                       uint32
	compat, incompat, roCompat                             uint32
	journalIno                                             uint32
	backupBGs                                              [2]uint32
}

func readSuperblock(r io.ReaderAt) (*superblock, error) {
	b := make([]byte, 1024)
	if _, err := r.ReadAt(b, sbOffset); err != nil {
		return nil, fmt.Errorf("ext4: read superblock at offset %d: %w", sbOffset, err)
	}
	le := binary.LittleEndian
	if m := le.Uint16(b[0x38:]); m != sbMagic {
		return nil, fmt.Errorf("ext4: superblock at offset %d: magic %#x, not %#x: not ext2/3/4", sbOffset, m, sbMagic)
	}
	sb := &superblock{
		inodes: le.Uint32(b[0x0:]), firstDataBlock: le.Uint32(b[0x14:]),
		blockSize: 1024 << le.Uint32(b[0x18:]), blocksPerGroup: le.Uint32(b[0x20:]), inodesPerGroup: le.Uint32(b[0x28:]),
		inodeSize: 128, compat: le.Uint32(b[0x5C:]), incompat: le.Uint32(b[0x60:]), roCompat: le.Uint32(b[0x64:]),
		reservedGDT: uint32(le.Uint16(b[0xCE:])), journalIno: le.Uint32(b[0xE0:]), descSize: 32,
		backupBGs: [2]uint32{le.Uint32(b[0x24C:]), le.Uint32(b[0x250:])},
	}
	sb.blocks = uint64(le.Uint32(b[0x4:]))
	if le.Uint32(b[0x4C:]) >= 1 { // dynamic revision
		sb.inodeSize = uint32(le.Uint16(b[0x58:]))
	}
	if sb.incompat&incompat64bit != 0 {
		sb.blocks |= uint64(le.Uint32(b[0x150:])) << 32
		if ds := uint32(le.Uint16(b[0xFE:])); ds >= 64 {
			sb.descSize = ds
		}
	}
	switch {
	case sb.blockSize > 65536 || sb.blocksPerGroup == 0 || sb.inodesPerGroup == 0 || sb.inodeSize < 128:
		return nil, fmt.Errorf("ext4: superblock at offset %d: implausible geometry (block size %d, %d blocks and %d inodes per group, inode size %d)",
			sbOffset, sb.blockSize, sb.blocksPerGroup, sb.inodesPerGroup, sb.inodeSize)
	case sb.incompat&incompatMetaBG != 0:
		return nil, errors.New("ext4: meta_bg filesystems are not supported")
	}
	if sb.compat&compatResize == 0 {
		sb.reservedGDT = 0
	}
	return sb, nil
}

func (sb *superblock) groups() uint32 {
	return uint32((sb.blocks - uint64(sb.firstDataBlock) + uint64(sb.blocksPerGroup) - 1) / uint64(sb.blocksPerGroup))
}

// hasSuper reports whether group g holds a superblock and descriptor copy.
func (sb *superblock) hasSuper(g uint32) bool {
	if g == 0 {
		return true
	}
	if sb.compat&compatSparse2 != 0 {
		return g == sb.backupBGs[0] || g == sb.backupBGs[1]
	}
	if sb.roCompat&roSparseSuper == 0 || g == 1 {
		return true
	}
	for _, base := range []uint32{3, 5, 7} {
		n := base
		for n < g {
			n *= base
		}
		if n == g {
			return true
		}
	}
	return false
}

// ReadExt4File maps the ext4 filesystem in an image file or block device.
// A mounted filesystem should be synced first (syncfs), or recent changes
// are not on disk yet.
func ReadExt4File(name string) (*Map, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("ext4: %w", err)
	}
	defer f.Close()
	m, err := ReadExt4(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// ReadExt4 maps the ext4 filesystem r holds.
func ReadExt4(r io.ReaderAt) (*Map, error) {
	sb, err := readSuperblock(r)
	if err != nil {
		return nil, err
	}
	rd := reader{r: r, bs: sb.blockSize}
	m := &Map{BlockSize: sb.blockSize, Blocks: sb.blocks, JournalIno: sb.journalIno, parent: map[uint32]dirent{}}
	b := &builder{}
	ngroups := sb.groups()
	gdtBlocks := (uint64(ngroups)*uint64(sb.descSize) + uint64(sb.blockSize) - 1) / uint64(sb.blockSize)
	gdt := make([]byte, gdtBlocks*uint64(sb.blockSize))
	gdtStart := uint64(sb.firstDataBlock) + 1
	if _, err := r.ReadAt(gdt, int64(gdtStart)*int64(sb.blockSize)); err != nil {
		return nil, fmt.Errorf("ext4: read group descriptors at block %d: %w", gdtStart, err)
	}
	itLen := (uint64(sb.inodesPerGroup)*uint64(sb.inodeSize) + uint64(sb.blockSize) - 1) / uint64(sb.blockSize)
	type groupDesc struct {
		flags  uint16
		ibm    uint64
		itable uint64
	}
	descs := make([]groupDesc, ngroups)
	le := binary.LittleEndian
	for g := uint32(0); g < ngroups; g++ {
		d := gdt[uint64(g)*uint64(sb.descSize):]
		bbm, ibm, it := uint64(le.Uint32(d[0:])), uint64(le.Uint32(d[4:])), uint64(le.Uint32(d[8:]))
		if sb.descSize >= 64 {
			bbm |= uint64(le.Uint32(d[0x20:])) << 32
			ibm |= uint64(le.Uint32(d[0x24:])) << 32
			it |= uint64(le.Uint32(d[0x28:])) << 32
		}
		descs[g] = groupDesc{flags: le.Uint16(d[0x12:]), ibm: ibm, itable: it}
		gl := GroupLayout{Group: g, Superblock: -1, GDTStart: -1, GDTEnd: -1, ReservedStart: -1,
			BlockBitmap: bbm, InodeBitmap: ibm, InodeTable: it, InodeTableLen: itLen}
		if sb.hasSuper(g) {
			start := uint64(g)*uint64(sb.blocksPerGroup) + uint64(sb.firstDataBlock)
			if sb.blockSize == 1024 || g != 0 {
				gl.Superblock = int64(start)
			} else {
				gl.Superblock = 0 // block 0 holds the boot sector and the superblock
			}
			b.add(start, 1, Superblock, 0)
			gl.GDTStart, gl.GDTEnd = int64(start+1), int64(start+gdtBlocks)
			b.add(start+1, gdtBlocks, GroupDesc, 0)
			if sb.reservedGDT > 0 {
				gl.ReservedStart, gl.Reserved = int64(start+1+gdtBlocks), int64(sb.reservedGDT)
				b.add(start+1+gdtBlocks, uint64(sb.reservedGDT), ReservedGDT, 0)
			}
		}
		b.add(bbm, 1, BlockBitmap, 0)
		b.add(ibm, 1, InodeBitmap, 0)
		b.add(it, itLen, InodeTable, 0)
		m.Layout = append(m.Layout, gl)
	}
	// Every inode in use, from the inode bitmaps.
	var dirs []uint32
	for g := uint32(0); g < ngroups; g++ {
		if descs[g].flags&bgInodeUninit != 0 {
			continue
		}
		bm, err := rd.block(descs[g].ibm)
		if err != nil {
			return nil, fmt.Errorf("ext4: inode bitmap of group %d: %w", g, err)
		}
		var table []byte
		for i := uint32(0); i < sb.inodesPerGroup; i++ {
			if bm[i/8]&(1<<(i%8)) == 0 {
				continue
			}
			if table == nil {
				table = make([]byte, itLen*uint64(sb.blockSize))
				if _, err := r.ReadAt(table, int64(descs[g].itable)*int64(sb.blockSize)); err != nil {
					return nil, fmt.Errorf("ext4: inode table of group %d at block %d: %w", g, descs[g].itable, err)
				}
			}
			ino := g*sb.inodesPerGroup + i + 1
			raw := table[uint64(i)*uint64(sb.inodeSize):][:sb.inodeSize]
			isDir, err := m.addInode(rd, b, sb, ino, raw)
			if err != nil {
				return nil, fmt.Errorf("ext4: inode %d (group %d, block %d, offset %d): %w", ino, g,
					descs[g].itable+uint64(i)*uint64(sb.inodeSize)/uint64(sb.blockSize), uint64(i)*uint64(sb.inodeSize)%uint64(sb.blockSize), err)
			}
			if isDir {
				dirs = append(dirs, ino)
			}
		}
	}
	m.extents = b.sorted()
	byIno := map[uint32][]Extent{}
	for _, e := range m.extents {
		if e.Type == Directory {
			byIno[e.Ino] = append(byIno[e.Ino], e)
		}
	}
	for _, d := range dirs {
		if err := m.readDir(rd, d, byIno[d]); err != nil {
			return nil, fmt.Errorf("ext4: directory inode %d: %w", d, err)
		}
	}
	return m, nil
}

// addInode records the blocks of one inode and reports whether it is a
// directory.
func (m *Map) addInode(rd reader, b *builder, sb *superblock, ino uint32, raw []byte) (bool, error) {
	le := binary.LittleEndian
	mode := le.Uint16(raw[0:])
	if mode == 0 || le.Uint16(raw[0x1A:]) == 0 && ino >= 11 {
		return false, nil // freed but its bit still set, or never used
	}
	flags := le.Uint32(raw[0x20:])
	typ := Data
	switch {
	case ino == sb.journalIno:
		typ = Journal
	case mode&modeTypeMask == modeDir:
		typ = Directory
	case mode&modeTypeMask != modeReg && mode&modeTypeMask != modeLink && ino >= 11:
		return false, nil // devices, fifos, sockets own no blocks
	}
	if acl := uint64(le.Uint32(raw[0x68:])) | uint64(le.Uint16(raw[0x76:]))<<32; acl != 0 {
		b.add(acl, 1, Xattr, ino)
	}
	iblock := raw[0x28 : 0x28+60]
	switch {
	case flags&inodeFlagInline != 0:
		// Data in the inode itself: no blocks.
	case flags&inodeFlagExtent != 0:
		if err := m.walkExtents(rd, b, iblock, ino, typ, 0); err != nil {
			return false, err
		}
	case mode&modeTypeMask == modeLink && le.Uint32(raw[0x4:]) < 60:
		// A fast symlink: the target is in i_block.
	default:
		if err := walkIndirect(rd, b, iblock, ino, typ); err != nil {
			return false, err
		}
	}
	return typ == Directory, nil
}

// walkExtents records the extents below an extent-tree node and the tree's
// own blocks.
func (m *Map) walkExtents(rd reader, b *builder, node []byte, ino uint32, typ BlockType, level int) error {
	le := binary.LittleEndian
	if le.Uint16(node[0:]) != extentMagic {
		return fmt.Errorf("extent node: magic %#x, not %#x", le.Uint16(node[0:]), extentMagic)
	}
	entries, depth := int(le.Uint16(node[2:])), le.Uint16(node[6:])
	if level > 5 || 12+12*entries > len(node) {
		return fmt.Errorf("extent node: %d entries at depth %d do not fit %d bytes", entries, depth, len(node))
	}
	for i := 0; i < entries; i++ {
		e := node[12+12*i:]
		if depth == 0 {
			n := uint64(le.Uint16(e[4:]))
			if n > 32768 {
				n -= 32768 // an unwritten (preallocated) extent
			}
			start := uint64(le.Uint32(e[8:])) | uint64(le.Uint16(e[6:]))<<32
			b.add(start, n, typ, ino)
			continue
		}
		child := uint64(le.Uint32(e[4:])) | uint64(le.Uint16(e[8:]))<<32
		b.add(child, 1, ExtentTree, ino)
		blk, err := rd.block(child)
		if err != nil {
			return err
		}
		if err := m.walkExtents(rd, b, blk, ino, typ, level+1); err != nil {
			return fmt.Errorf("extent block %d: %w", child, err)
		}
	}
	return nil
}

// walkIndirect records the blocks of a block-mapped (ext2/ext3-style)
// inode and its indirect blocks.
func walkIndirect(rd reader, b *builder, iblock []byte, ino uint32, typ BlockType) error {
	le := binary.LittleEndian
	for i := 0; i < 12; i++ {
		if p := uint64(le.Uint32(iblock[4*i:])); p != 0 {
			b.add(p, 1, typ, ino)
		}
	}
	var walk func(p uint64, level int) error
	walk = func(p uint64, level int) error {
		b.add(p, 1, IndirectMap, ino)
		blk, err := rd.block(p)
		if err != nil {
			return err
		}
		for i := 0; i+4 <= len(blk); i += 4 {
			q := uint64(le.Uint32(blk[i:]))
			if q == 0 {
				continue
			}
			if level == 0 {
				b.add(q, 1, typ, ino)
			} else if err := walk(q, level-1); err != nil {
				return err
			}
		}
		return nil
	}
	for level := 0; level < 3; level++ {
		if p := uint64(le.Uint32(iblock[48+4*level:])); p != 0 {
			if err := walk(p, level); err != nil {
				return fmt.Errorf("indirect block %d: %w", p, err)
			}
		}
	}
	return nil
}

// readDir reads a directory's entries into the parent map. Hashed (htree)
// directories read the same way: their index blocks look like empty entries.
func (m *Map) readDir(rd reader, dir uint32, blocks []Extent) error {
	le := binary.LittleEndian
	for _, e := range blocks {
		for n := e.Start; n < e.Start+e.Len; n++ {
			blk, err := rd.block(n)
			if err != nil {
				return err
			}
			for off := 0; off+8 <= len(blk); {
				ino, rec, nlen := le.Uint32(blk[off:]), int(le.Uint16(blk[off+4:])), int(blk[off+6])
				if rec < 8 || off+rec > len(blk) || 8+nlen > rec {
					return fmt.Errorf("block %d offset %d: bad entry (rec_len %d, name_len %d)", n, off, rec, nlen)
				}
				name := string(blk[off+8 : off+8+nlen])
				if ino != 0 && name != "." && name != ".." {
					if _, seen := m.parent[ino]; !seen {
						m.parent[ino] = dirent{parent: dir, name: name}
					}
				}
				off += rec
			}
		}
	}
	return nil
}

// RootIno is the inode of the root directory.
const RootIno = 2

// Path returns the path of an inode from the filesystem root ("/a/b"), or
// "" when no directory names it.
func (m *Map) Path(ino uint32) string {
	if m.paths != nil {
		return m.paths[ino]
	}
	if ino == RootIno {
		return "/"
	}
	var parts []string
	for i := 0; ino != RootIno; i++ {
		d, ok := m.parent[ino]
		if !ok || i > 4096 {
			return ""
		}
		parts = append(parts, d.name)
		ino = d.parent
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return "/" + path.Join(parts...)
}

// Lookup returns the extent that holds block n, or one of Type Unknown.
func (m *Map) Lookup(n uint64) Extent {
	i := sort.Search(len(m.extents), func(i int) bool { return m.extents[i].Start+m.extents[i].Len > n })
	if i < len(m.extents) && m.extents[i].Start <= n {
		return m.extents[i]
	}
	return Extent{Start: n, Len: 1}
}

// Extents returns the map's extents in block order.
func (m *Map) Extents() []Extent { return m.extents }

// OwnedBy returns the extents an inode owns.
func (m *Map) OwnedBy(ino uint32) []Extent {
	var out []Extent
	for _, e := range m.extents {
		if e.Ino == ino {
			out = append(out, e)
		}
	}
	return out
}

// Inodes returns every inode that owns blocks, with its path ("" for one no
// directory names, like the journal).
func (m *Map) Inodes() map[uint32]string {
	out := map[uint32]string{}
	if m.paths != nil {
		for ino, p := range m.paths {
			out[ino] = p
		}
		return out
	}
	for _, e := range m.extents {
		if e.Ino != 0 {
			if _, ok := out[e.Ino]; !ok {
				out[e.Ino] = m.Path(e.Ino)
			}
		}
	}
	return out
}

// builder collects extents in any order.
type builder struct{ ext []Extent }

func (b *builder) add(start, n uint64, t BlockType, ino uint32) {
	if n == 0 {
		return
	}
	b.ext = append(b.ext, Extent{Start: start, Len: n, Type: t, Ino: ino})
}

// sorted returns the extents in block order with neighbours of the same
// type and owner merged. Where two overlap (inode 7 maps the reserved
// descriptor blocks), the layout's type wins and the owner is kept.
func (b *builder) sorted() []Extent {
	sort.Slice(b.ext, func(i, j int) bool {
		if b.ext[i].Start != b.ext[j].Start {
			return b.ext[i].Start < b.ext[j].Start
		}
		return b.ext[i].Ino < b.ext[j].Ino
	})
	var out []Extent
	for _, e := range b.ext {
		if n := len(out); n > 0 {
			last := &out[n-1]
			end := last.Start + last.Len
			if e.Start < end {
				// Overlap: only the resize inode's map of reserved GDT
				// blocks does this in a consistent filesystem.
				if last.Ino == 0 {
					last.Ino = e.Ino
				}
				if e.Start+e.Len > end {
					e.Len = e.Start + e.Len - end
					e.Start = end
				} else {
					continue
				}
			} else if e.Start == end && e.Type == last.Type && e.Ino == last.Ino {
				last.Len += e.Len
				continue
			}
		}
		out = append(out, e)
	}
	return out
}
