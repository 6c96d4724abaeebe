package revmap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// The xfs reader follows the on-disk format of the kernel's
// fs/xfs/libxfs/xfs_format.h (and the XFS Algorithms & Data Structures
// book): allocation groups (AGs), each starting with the superblock copy,
// AGF, AGI and AGFL sectors; the AG's free-space, inode, reverse-mapping
// and reference-count btrees from the roots in the AGF and AGI; the inode
// chunks the inode btree lists; and every in-use inode's data and
// attribute forks (extent lists or bmap btrees). xfs_db's blockget and
// blockuse are the oracle its tests compare with, block by block.
//
// Device blocks are counted as the trace sees the device: AG a's block b
// is block a·agblocks + b (xfs's own filesystem block numbers put the AG
// at a power of two instead).

// xfs on-disk constants.
const (
	xfsMagic        = 0x58465342 // "XFSB"
	xfsDinodeMagic  = 0x494e     // "IN"
	xfsIncompatSpin = 0x2        // sparse inode chunks
	xfsIncompatNrx  = 0x20       // 64-bit extent counters (NREXT64)
	xfsFlag2Nrext64 = 0x10
	xfsFmtExtents   = 2
	xfsFmtBtree     = 3
	xfsInodesChunk  = 64
	xfsROCompatRmap = 0x2
	xfsROCompatRefc = 0x4
)

// xfsSB is what the reader needs of the superblock.
type xfsSB struct {
	bs, agblocks, agcount, logblocks uint32
	dblocks, logstart                uint64
	sectsize, inodesize, inopblock   uint32
	agblklog, inopblog               uint8
	v5, sparse, nrext64, rmap, refc  bool
}

// xfsReader reads an xfs filesystem into a builder.
type xfsReader struct {
	r   io.ReaderAt
	sb  xfsSB
	b   *builder
	buf []byte
	// seen guards the btree walks against loops in a damaged
	// filesystem.
	seen map[uint64]bool
}

// ReadXFSFile maps the xfs filesystem in an image file or block device. A
// mounted filesystem must be quiet and its metadata written back in place
// (FreezeFS does both), or the map reads what the log still holds back.
func ReadXFSFile(name string) (*Map, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("xfs: %w", err)
	}
	defer f.Close()
	m, err := ReadXFS(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// ReadXFS maps the xfs filesystem r holds: every allocated block's type,
// and its inode for file data, directories, bmap btree and attribute
// blocks. The map has no paths (xfs directories are not read): the caller
// adds them (Names, NewMap). Inode numbers above 32 bits are refused.
func ReadXFS(r io.ReaderAt) (*Map, error) {
	x := &xfsReader{r: r, b: &builder{}, seen: map[uint64]bool{}}
	if err := x.superblock(); err != nil {
		return nil, err
	}
	sb := &x.sb
	x.buf = make([]byte, sb.bs)
	for ag := uint32(0); ag < sb.agcount; ag++ {
		if err := x.ag(ag); err != nil {
			return nil, fmt.Errorf("xfs: AG %d: %w", ag, err)
		}
	}
	if sb.logstart != 0 {
		x.b.add(x.dev(sb.logstart), uint64(sb.logblocks), Journal, 0)
	}
	return &Map{BlockSize: sb.bs, Blocks: uint64(sb.agcount-1)*uint64(sb.agblocks) + lastAG(sb), extents: x.b.sorted(), AGBlocks: sb.agblocks, AGBlkLog: sb.agblklog}, nil
}

// lastAG is the length of the last AG, which may be short.
func lastAG(sb *xfsSB) uint64 {
	return sb.dblocks - uint64(sb.agcount-1)*uint64(sb.agblocks)
}

func (x *xfsReader) superblock() error {
	var raw [512]byte
	if _, err := x.r.ReadAt(raw[:], 0); err != nil {
		return fmt.Errorf("xfs: read superblock: %w", err)
	}
	be := binary.BigEndian
	if m := be.Uint32(raw[0:]); m != xfsMagic {
		return fmt.Errorf("xfs: superblock at offset 0: magic %#x, want %#x", m, xfsMagic)
	}
	sb := &x.sb
	sb.bs, sb.dblocks, sb.logstart = be.Uint32(raw[4:]), be.Uint64(raw[8:]), be.Uint64(raw[48:])
	sb.agblocks, sb.agcount, sb.logblocks = be.Uint32(raw[84:]), be.Uint32(raw[88:]), be.Uint32(raw[96:])
	sb.v5 = be.Uint16(raw[100:])&0xf == 5
	sb.sectsize, sb.inodesize, sb.inopblock = uint32(be.Uint16(raw[102:])), uint32(be.Uint16(raw[104:])), uint32(be.Uint16(raw[106:]))
	sb.inopblog, sb.agblklog = raw[123], raw[124]
	if sb.v5 {
		ro, in := be.Uint32(raw[212:]), be.Uint32(raw[216:])
		sb.sparse, sb.nrext64 = in&xfsIncompatSpin != 0, in&xfsIncompatNrx != 0
		sb.rmap, sb.refc = ro&xfsROCompatRmap != 0, ro&xfsROCompatRefc != 0
	}
	switch {
	case sb.bs < 512 || sb.bs > 65536 || sb.bs&(sb.bs-1) != 0:
		return fmt.Errorf("xfs: superblock: block size %d", sb.bs)
	case sb.agcount == 0 || sb.agblocks == 0 || sb.agblocks > 1<<sb.agblklog:
		return fmt.Errorf("xfs: superblock: %d AGs of %d blocks (agblklog %d)", sb.agcount, sb.agblocks, sb.agblklog)
	case sb.sectsize < 512 || sb.inodesize < 256 || sb.inopblock == 0 || sb.inopblock*sb.inodesize != sb.bs:
		return fmt.Errorf("xfs: superblock: sector %d, inode %d bytes, %d per block", sb.sectsize, sb.inodesize, sb.inopblock)
	}
	return nil
}

// dev converts a filesystem block number (AG in the high bits) to a
// device block.
func (x *xfsReader) dev(fsb uint64) uint64 {
	ag, agbno := fsb>>x.sb.agblklog, fsb&(1<<x.sb.agblklog-1)
	return ag*uint64(x.sb.agblocks) + agbno
}

// read reads device block n into x.buf.
func (x *xfsReader) read(n uint64) ([]byte, error) {
	if _, err := x.r.ReadAt(x.buf, int64(n)*int64(x.sb.bs)); err != nil {
		return nil, fmt.Errorf("read block %d: %w", n, err)
	}
	return x.buf, nil
}

// sector reads the sector at byte offset off.
func (x *xfsReader) sector(off uint64) ([]byte, error) {
	s := make([]byte, x.sb.sectsize)
	if _, err := x.r.ReadAt(s, int64(off)); err != nil {
		return nil, fmt.Errorf("read sector at byte %d: %w", off, err)
	}
	return s, nil
}

// shortBtree is one of an AG's btrees.
type shortBtree struct {
	name   string
	magic  uint32 // v5 magic
	keyLen int    // a node's key (rmap: low and high key)
	recLen int
	typ    BlockType
}

var (
	btBno  = shortBtree{"bnobt", 0x41423342, 8, 8, FreeSpaceBtree}
	btCnt  = shortBtree{"cntbt", 0x41423343, 8, 8, FreeSpaceBtree}
	btIno  = shortBtree{"inobt", 0x49414233, 4, 16, InodeBtree}
	btFino = shortBtree{"finobt", 0x46494233, 4, 16, InodeBtree}
	btRmap = shortBtree{"rmapbt", 0x524d4233, 40, 24, RmapBtree}
	btRefc = shortBtree{"refcountbt", 0x52334643, 4, 12, RefcountBtree}
)

// ag maps one allocation group.
func (x *xfsReader) ag(ag uint32) error {
	sb := &x.sb
	be := binary.BigEndian
	start := uint64(ag) * uint64(sb.agblocks)
	base := start * uint64(sb.bs)
	// The four header sectors; a block holding the superblock is the
	// superblock's, as xfs_db counts it.
	sbBlock := start
	x.b.add(sbBlock, 1, Superblock, 0)
	for i, t := range []BlockType{AGF, AGI, AGFL} {
		if blk := start + uint64(i+1)*uint64(sb.sectsize)/uint64(sb.bs); blk != sbBlock {
			x.b.add(blk, 1, t, 0)
		}
	}
	agf, err := x.sector(base + uint64(sb.sectsize))
	if err != nil {
		return err
	}
	agi, err := x.sector(base + 2*uint64(sb.sectsize))
	if err != nil {
		return err
	}
	if m := be.Uint32(agf); m != 0x58414746 { // "XAGF"
		return fmt.Errorf("AGF at byte %d: magic %#x", base+uint64(sb.sectsize), m)
	}
	if m := be.Uint32(agi); m != 0x58414749 { // "XAGI"
		return fmt.Errorf("AGI at byte %d: magic %#x", base+2*uint64(sb.sectsize), m)
	}
	if err := x.freeList(ag, base, agf); err != nil {
		return err
	}
	type root struct {
		bt   shortBtree
		root uint32
		leaf func([]byte) error
	}
	roots := []root{{btBno, be.Uint32(agf[16:]), nil}, {btCnt, be.Uint32(agf[20:]), nil}, {btIno, be.Uint32(agi[20:]), func(rec []byte) error { return x.inodeChunk(ag, rec) }}}
	if sb.rmap {
		roots = append(roots, root{btRmap, be.Uint32(agf[24:]), nil})
	}
	if sb.refc {
		roots = append(roots, root{btRefc, be.Uint32(agf[88:]), nil})
	}
	if sb.v5 {
		// The free inode btree, when the filesystem has one (its
		// root is 0 otherwise).
		if r := be.Uint32(agi[328:]); r != 0 {
			roots = append(roots, root{btFino, r, nil})
		}
	}
	for _, r := range roots {
		if err := x.walkShort(ag, r.bt, r.root, r.leaf, 0); err != nil {
			return fmt.Errorf("%s: %w", r.bt.name, err)
		}
	}
	return nil
}

// freeList marks the blocks the AGFL lists.
func (x *xfsReader) freeList(ag uint32, base uint64, agf []byte) error {
	be := binary.BigEndian
	first, last, count := be.Uint32(agf[40:]), be.Uint32(agf[44:]), be.Uint32(agf[48:])
	if count == 0 {
		return nil
	}
	fl, err := x.sector(base + 3*uint64(x.sb.sectsize))
	if err != nil {
		return err
	}
	hdr := 0
	if x.sb.v5 {
		hdr = 36
	}
	size := uint32(len(fl)-hdr) / 4
	if first >= size || last >= size {
		return fmt.Errorf("AGFL: first %d, last %d of %d slots", first, last, size)
	}
	for i, n := first, uint32(0); n < count; i, n = (i+1)%size, n+1 {
		x.b.add(uint64(ag)*uint64(x.sb.agblocks)+uint64(be.Uint32(fl[hdr+4*int(i):])), 1, FreeList, 0)
		if i == last {
			break
		}
	}
	return nil
}

// walkShort walks an AG btree from block agbno, marking its blocks and
// giving each leaf record to leaf (nil: none wanted).
func (x *xfsReader) walkShort(ag uint32, bt shortBtree, agbno uint32, leaf func([]byte) error, depth int) error {
	if agbno == 0 || agbno >= x.sb.agblocks || depth > 16 {
		return fmt.Errorf("block %d at depth %d is outside the AG", agbno, depth)
	}
	n := uint64(ag)*uint64(x.sb.agblocks) + uint64(agbno)
	if x.seen[n] {
		return fmt.Errorf("block %d reached twice", n)
	}
	x.seen[n] = true
	x.b.add(n, 1, bt.typ, 0)
	blk, err := x.read(n)
	if err != nil {
		return err
	}
	be := binary.BigEndian
	hdr := 16
	if x.sb.v5 {
		hdr = 56
		if m := be.Uint32(blk); m != bt.magic {
			return fmt.Errorf("block %d: magic %#x, want %#x", n, m, bt.magic)
		}
	}
	level, recs := be.Uint16(blk[4:]), int(be.Uint16(blk[6:]))
	if level == 0 {
		if leaf == nil {
			return nil
		}
		if hdr+recs*bt.recLen > len(blk) {
			return fmt.Errorf("block %d: %d records overrun it", n, recs)
		}
		// Copied: the leaf function reads inodes through x.buf.
		body := append([]byte(nil), blk[hdr:hdr+recs*bt.recLen]...)
		for i := 0; i < recs; i++ {
			if err := leaf(body[i*bt.recLen : (i+1)*bt.recLen]); err != nil {
				return err
			}
		}
		return nil
	}
	maxrecs := (len(blk) - hdr) / (bt.keyLen + 4)
	if recs > maxrecs {
		return fmt.Errorf("block %d: %d pointers, at most %d fit", n, recs, maxrecs)
	}
	ptrs := make([]uint32, recs)
	for i := range ptrs {
		ptrs[i] = be.Uint32(blk[hdr+maxrecs*bt.keyLen+4*i:])
	}
	for _, p := range ptrs {
		if err := x.walkShort(ag, bt, p, leaf, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// inodeChunk marks the blocks of one inode btree record's chunk and maps
// each inode in use.
func (x *xfsReader) inodeChunk(ag uint32, rec []byte) error {
	be := binary.BigEndian
	sb := &x.sb
	start := be.Uint32(rec)
	var holes uint16
	if sb.sparse {
		holes = be.Uint16(rec[4:])
	}
	free := be.Uint64(rec[8:])
	for i := uint32(0); i < xfsInodesChunk; i++ {
		if holes&(1<<(i/(xfsInodesChunk/16))) != 0 {
			continue
		}
		agino := start + i
		agbno := agino >> sb.inopblog
		if i%sb.inopblock == 0 || i == 0 {
			x.b.add(uint64(ag)*uint64(sb.agblocks)+uint64(agbno), 1, InodeTable, 0)
		}
		if free&(1<<i) != 0 {
			continue
		}
		ino := uint64(ag)<<(sb.agblklog+sb.inopblog) | uint64(agino)
		if ino > 1<<32-1 {
			return fmt.Errorf("inode %d does not fit 32 bits (mount with inode32 to map it)", ino)
		}
		off := (uint64(ag)*uint64(sb.agblocks)+uint64(agbno))*uint64(sb.bs) + uint64(agino&(sb.inopblock-1))*uint64(sb.inodesize)
		raw := make([]byte, sb.inodesize)
		if _, err := x.r.ReadAt(raw, int64(off)); err != nil {
			return fmt.Errorf("inode %d: %w", ino, err)
		}
		if err := x.inode(uint32(ino), raw); err != nil {
			return fmt.Errorf("inode %d (byte %d): %w", ino, off, err)
		}
	}
	return nil
}

// inode maps the blocks of one inode's data and attribute forks.
func (x *xfsReader) inode(ino uint32, raw []byte) error {
	be := binary.BigEndian
	if m := be.Uint16(raw); m != xfsDinodeMagic {
		return fmt.Errorf("magic %#x, want %#x", m, xfsDinodeMagic)
	}
	mode, version, format := be.Uint16(raw[2:]), raw[4], raw[5]
	if mode == 0 {
		return nil // free, the inode btree not yet told
	}
	core := 100
	if version >= 3 {
		core = 176
	}
	nextents, anextents := uint64(be.Uint32(raw[76:])), uint64(be.Uint16(raw[80:]))
	if x.sb.nrext64 && version >= 3 && be.Uint64(raw[120:])&xfsFlag2Nrext64 != 0 {
		nextents, anextents = be.Uint64(raw[24:]), uint64(be.Uint32(raw[76:]))
	}
	forkoff, aformat := int(raw[82])*8, raw[83]
	dsize := len(raw) - core
	if forkoff != 0 {
		dsize = forkoff
	}
	typ := Data
	switch mode & modeTypeMask {
	case modeDir:
		typ = Directory
	case modeReg, modeLink:
	default:
		// Devices, fifos, sockets: no data blocks.
		format = 0
	}
	if core+dsize > len(raw) {
		return fmt.Errorf("fork offset %d past the inode", forkoff)
	}
	if err := x.fork(ino, raw[core:core+dsize], format, nextents, typ); err != nil {
		return fmt.Errorf("data fork: %w", err)
	}
	if forkoff != 0 {
		if err := x.fork(ino, raw[core+forkoff:], aformat, anextents, Xattr); err != nil {
			return fmt.Errorf("attribute fork: %w", err)
		}
	}
	return nil
}

// fork maps one inode fork in extent or btree format.
func (x *xfsReader) fork(ino uint32, f []byte, format uint8, n uint64, typ BlockType) error {
	switch format {
	case xfsFmtExtents:
		if n*16 > uint64(len(f)) {
			return fmt.Errorf("%d extents do not fit a fork of %d bytes", n, len(f))
		}
		x.extents(ino, f[:n*16], typ)
	case xfsFmtBtree:
		be := binary.BigEndian
		level, recs := be.Uint16(f), int(be.Uint16(f[2:]))
		maxrecs := (len(f) - 4) / 16
		if level == 0 || recs > maxrecs {
			return fmt.Errorf("bmap root: level %d, %d of %d records", level, recs, maxrecs)
		}
		for i := 0; i < recs; i++ {
			if err := x.walkBmap(ino, be.Uint64(f[4+maxrecs*8+8*i:]), typ, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// extents maps packed extent records (128 bits each: unwritten flag,
// 54-bit file offset, 52-bit start block, 21-bit length).
func (x *xfsReader) extents(ino uint32, recs []byte, typ BlockType) {
	be := binary.BigEndian
	for i := 0; i+16 <= len(recs); i += 16 {
		l0, l1 := be.Uint64(recs[i:]), be.Uint64(recs[i+8:])
		start := (l0&0x1ff)<<43 | l1>>21
		count := l1 & (1<<21 - 1)
		// An extent does not cross an AG, so its device blocks are
		// contiguous too.
		x.b.add(x.dev(start), count, typ, ino)
	}
}

// walkBmap walks a bmap btree block (long-form) at filesystem block fsb.
func (x *xfsReader) walkBmap(ino uint32, fsb uint64, typ BlockType, depth int) error {
	n := x.dev(fsb)
	if n >= x.sb.dblocks || depth > 16 {
		return fmt.Errorf("bmap block %d at depth %d is outside the filesystem", fsb, depth)
	}
	if x.seen[n] {
		return fmt.Errorf("bmap block %d reached twice", n)
	}
	x.seen[n] = true
	x.b.add(n, 1, ExtentTree, ino)
	blk, err := x.read(n)
	if err != nil {
		return err
	}
	be := binary.BigEndian
	hdr := 24
	if x.sb.v5 {
		hdr = 72
	}
	if m := be.Uint32(blk); m != 0x424d4133 && m != 0x424d4150 { // "BMA3", "BMAP"
		return fmt.Errorf("bmap block %d: magic %#x", n, m)
	}
	level, recs := be.Uint16(blk[4:]), int(be.Uint16(blk[6:]))
	if level == 0 {
		if hdr+recs*16 > len(blk) {
			return fmt.Errorf("bmap block %d: %d records overrun it", n, recs)
		}
		x.extents(ino, blk[hdr:hdr+recs*16], typ)
		return nil
	}
	maxrecs := (len(blk) - hdr) / 16
	if recs > maxrecs {
		return errors.New("bmap node overfull")
	}
	ptrs := make([]uint64, recs)
	for i := range ptrs {
		ptrs[i] = be.Uint64(blk[hdr+maxrecs*8+8*i:])
	}
	for _, p := range ptrs {
		if err := x.walkBmap(ino, p, typ, depth+1); err != nil {
			return err
		}
	}
	return nil
}
