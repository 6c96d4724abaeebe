package most

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/storage/tracefs"
)

// xfs's tracepoints give block ownership over time as ext4's do, in xfs's
// own terms: an inode's extent (file offset, filesystem block number with
// the AG in its high bits, length) when it enters the inode's extent list
// or changes there — a delayed allocation gets its real blocks through an
// update — and (AG, AG block, length) when an extent is freed. With the
// map's AG geometry these become device blocks for the History.

// xfsNullStartBlock marks a delayed allocation's start block (the high
// bits above xfs's 52-bit block numbers).
const xfsNullStartBlock uint64 = 0xfff << 52

// hexField reads a field the kernel prints as 0x%llx.
func hexField(body, key string) (uint64, error) {
	v, ok := tracefs.Field(body, key)
	if !ok {
		return 0, fmt.Errorf("no field %q", key)
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(v, "0x"), 16, 64)
	if err != nil {
		return 0, fmt.Errorf("field %s: %w", key, err)
	}
	return n, nil
}

// xfsExtent follows xfs_iext_insert and xfs_bmap_post_update: the data
// fork's extents with real blocks map them to the inode.
func (a *attributor) xfsExtent(ev tracefs.Event) error {
	if a.fs == nil || a.fs.AGBlocks == 0 {
		return nil // no geometry: the map is not an xfs map
	}
	// The attribute and copy-on-write forks' extents are not the
	// file's data; state is printed between "state " and " cur".
	if i := strings.Index(ev.Body, "state "); i >= 0 {
		if j := strings.Index(ev.Body[i:], " cur "); j >= 0 {
			if st := ev.Body[i+len("state ") : i+j]; strings.Contains(st, "ATTR") || strings.Contains(st, "COW") {
				return nil
			}
		}
	}
	ino, err1 := hexField(ev.Body, "ino")
	fsb, err2 := hexField(ev.Body, "startblock")
	n, err3 := hexField(ev.Body, "fsbcount")
	if err := errors.Join(err1, err2, err3); err != nil {
		return err
	}
	if fsb&xfsNullStartBlock != 0 || n == 0 {
		return nil // delayed allocation: no blocks yet
	}
	if ino > 1<<32-1 {
		return fmt.Errorf("inode %d does not fit 32 bits", ino)
	}
	a.hist.MapBlocks(ev.Time, uint32(ino), a.fs.XFSDevBlock(fsb), n)
	return nil
}

// xfsFree follows xfs_free_extent: the blocks have no owner from then on.
func (a *attributor) xfsFree(ev tracefs.Event) error {
	if a.fs == nil || a.fs.AGBlocks == 0 {
		return nil
	}
	ag, err1 := hexField(ev.Body, "agno")
	agbno, err2 := hexField(ev.Body, "agbno")
	n, err3 := hexField(ev.Body, "fsbcount")
	if err := errors.Join(err1, err2, err3); err != nil {
		return err
	}
	a.hist.FreeBlocks(ev.Time, ag*uint64(a.fs.AGBlocks)+agbno, n)
	return nil
}
