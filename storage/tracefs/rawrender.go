package tracefs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
)

// record reads the fields of one binary event record by its format. The
// first error sticks, so that a renderer reads its fields without checking
// each one.
type record struct {
	f   *eventFormat
	b   []byte
	err error
}

func (r *record) field(name string) (fieldFormat, []byte, bool) {
	k, ok := r.f.byName[name]
	if !ok {
		if r.err == nil {
			r.err = fmt.Errorf("format of %s has no field %q", r.f.Name, name)
		}
		return fieldFormat{}, nil, false
	}
	ff := r.f.Fields[k]
	if ff.Offset+ff.Size > len(r.b) {
		if r.err == nil {
			r.err = fmt.Errorf("field %s at %d+%d past the %d-byte record", name, ff.Offset, ff.Size, len(r.b))
		}
		return ff, nil, false
	}
	return ff, r.b[ff.Offset : ff.Offset+ff.Size], true
}

// u returns an integer field, zero-extended.
func (r *record) u(name string) uint64 {
	ff, b, ok := r.field(name)
	if !ok {
		return 0
	}
	return loadUint(b, ff.Size)
}

// i returns an integer field, sign-extended when the format says signed.
func (r *record) i(name string) int64 {
	ff, b, ok := r.field(name)
	if !ok {
		return 0
	}
	v := loadUint(b, ff.Size)
	if ff.Signed && ff.Size < 8 {
		shift := 64 - 8*uint(ff.Size)
		return int64(v<<shift) >> shift
	}
	return int64(v)
}

func loadUint(b []byte, size int) uint64 {
	le := binary.LittleEndian
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(le.Uint16(b))
	case 4:
		return uint64(le.Uint32(b))
	default:
		return le.Uint64(b)
	}
}

// str returns a char array or a __data_loc/__rel_loc string, up to its NUL.
func (r *record) str(name string) []byte {
	ff, b, ok := r.field(name)
	if !ok {
		return nil
	}
	if ff.DataLoc || ff.RelLoc {
		v := binary.LittleEndian.Uint32(b)
		off, n := int(v&0xffff), int(v>>16)
		if ff.RelLoc {
			off += ff.Offset + ff.Size
		}
		if off+n > len(r.b) {
			if r.err == nil {
				r.err = fmt.Errorf("string %s at %d+%d past the %d-byte record", name, off, n, len(r.b))
			}
			return nil
		}
		b = r.b[off : off+n]
	}
	if z := bytes.IndexByte(b, 0); z >= 0 {
		b = b[:z]
	}
	return b
}

// renderFunc appends an event's body as the kernel's print format prints it.
type renderFunc func(r *record, b []byte) []byte

// renderers hold the print formats of the events droidprof captures,
// written after the kernel's "print fmt" lines (events/<sys>/<name>/format)
// so that a decoded event reads as the kernel's own text of it
// (TestRawDecodeMatchesKernelText compares them line by line).
var renderers = map[string]renderFunc{
	"block_bio_queue": func(r *record, b []byte) []byte {
		b = appendDev(b, r.u("dev"))
		b = append(append(b, ' '), r.str("rwbs")...)
		b = appendU(append(b, ' '), r.u("sector"))
		b = appendU(append(b, " + "...), r.u("nr_sector"))
		return append(append(append(b, " ["...), r.str("comm")...), ']')
	},
	// A request's first bio: the same print format as block_bio_queue.
	"block_getrq": func(r *record, b []byte) []byte {
		b = appendDev(b, r.u("dev"))
		b = append(append(b, ' '), r.str("rwbs")...)
		b = appendU(append(b, ' '), r.u("sector"))
		b = appendU(append(b, " + "...), r.u("nr_sector"))
		return append(append(append(b, " ["...), r.str("comm")...), ']')
	},
	"writeback_dirty_folio": func(r *record, b []byte) []byte {
		b = append(append(append(b, "bdi "...), r.str("name")...), ": ino="...)
		b = appendU(b, r.u("ino"))
		return appendU(append(b, " index="...), r.u("index"))
	},
	// An inode going from clean to dirty, in the dirtier's context.
	"writeback_dirty_inode_enqueue": func(r *record, b []byte) []byte {
		b = appendDev(append(b, "dev "...), r.u("dev"))
		b = appendU(append(b, " ino "...), r.u("ino"))
		b = appendU(append(b, " dirtied "...), r.u("dirtied_when"))
		b = appendFlags(append(b, " state "...), r.u("state"), "|", inodeStateFlags)
		return strconv.AppendUint(append(b, " mode 0"...), r.u("mode"), 8)
	},
	"block_rq_issue": func(r *record, b []byte) []byte {
		b = appendDev(b, r.u("dev"))
		b = append(append(b, ' '), r.str("rwbs")...)
		b = appendU(append(b, ' '), r.u("bytes"))
		b = append(append(append(b, " ("...), r.str("cmd")...), ") "...)
		b = appendU(b, r.u("sector"))
		b = appendU(append(b, " + "...), r.u("nr_sector"))
		b = appendIOPrio(append(b, ' '), r.u("ioprio"))
		return append(append(append(b, " ["...), r.str("comm")...), ']')
	},
	"block_rq_complete": func(r *record, b []byte) []byte {
		b = appendDev(b, r.u("dev"))
		b = append(append(b, ' '), r.str("rwbs")...)
		b = append(append(append(b, " ("...), r.str("cmd")...), ") "...)
		b = appendU(b, r.u("sector"))
		b = appendU(append(b, " + "...), r.u("nr_sector"))
		b = appendIOPrio(append(b, ' '), r.u("ioprio"))
		b = strconv.AppendInt(append(b, " ["...), r.i("error"), 10)
		return append(b, ']')
	},
	"xfs_iext_insert":      renderXFSExtent,
	"xfs_bmap_post_update": renderXFSExtent,
	"xfs_free_extent": func(r *record, b []byte) []byte {
		b = appendXFSDev(append(b, "dev "...), r.u("dev"))
		b = strconv.AppendUint(append(b, " agno 0x"...), r.u("agno"), 16)
		b = strconv.AppendUint(append(b, " agbno 0x"...), r.u("agbno"), 16)
		b = strconv.AppendUint(append(b, " fsbcount 0x"...), r.u("len"), 16)
		b = strconv.AppendInt(append(b, " resv "...), r.i("resv"), 10)
		left, right := r.i("haveleft") != 0, r.i("haveright") != 0
		switch {
		case left && right:
			return append(b, " both"...)
		case left:
			return append(b, " left"...)
		case right:
			return append(b, " right"...)
		}
		return append(b, " none"...)
	},
	"ext4_ext_map_blocks_exit": renderMapBlocksExit,
	"ext4_ind_map_blocks_exit": renderMapBlocksExit,
	"ext4_free_blocks": func(r *record, b []byte) []byte {
		b = appendDev(append(b, "dev "...), r.u("dev"))
		b = appendU(append(b, " ino "...), r.u("ino"))
		b = strconv.AppendUint(append(b, " mode 0"...), r.u("mode"), 8)
		b = appendU(append(b, " block "...), r.u("block"))
		b = appendU(append(b, " count "...), r.u("count"))
		return appendFlags(append(b, " flags "...), uint64(r.i("flags")), "|", freeBlocksFlags)
	},
	"ext4_unlink_enter": func(r *record, b []byte) []byte {
		b = appendDev(append(b, "dev "...), r.u("dev"))
		b = appendU(append(b, " ino "...), r.u("ino"))
		b = strconv.AppendInt(append(b, " size "...), r.i("size"), 10)
		return appendU(append(b, " parent "...), r.u("parent"))
	},
	"ext4_sync_file_enter": func(r *record, b []byte) []byte {
		b = appendDev(append(b, "dev "...), r.u("dev"))
		b = appendU(append(b, " ino "...), r.u("ino"))
		b = appendU(append(b, " parent "...), r.u("parent"))
		// The kernel's format ends in a space.
		return append(strconv.AppendInt(append(b, " datasync "...), r.i("datasync"), 10), ' ')
	},
	"ext4_da_write_begin": renderWriteBegin,
	"ext4_write_begin":    renderWriteBegin,
	"jbd2_handle_start": func(r *record, b []byte) []byte {
		b = appendDev(append(b, "dev "...), r.u("dev"))
		b = appendU(append(b, " tid "...), r.u("tid"))
		b = appendU(append(b, " type "...), r.u("type"))
		b = appendU(append(b, " line_no "...), r.u("line_no"))
		return strconv.AppendInt(append(b, " requested_blocks "...), r.i("requested_blocks"), 10)
	},
	"jbd2_start_commit": func(r *record, b []byte) []byte {
		b = appendDev(append(b, "dev "...), r.u("dev"))
		b = appendU(append(b, " transaction "...), r.u("transaction"))
		return strconv.AppendInt(append(b, " sync "...), r.i("sync_commit"), 10)
	},
	"jbd2_end_commit": func(r *record, b []byte) []byte {
		b = appendDev(append(b, "dev "...), r.u("dev"))
		b = appendU(append(b, " transaction "...), r.u("transaction"))
		b = strconv.AppendInt(append(b, " sync "...), r.i("sync_commit"), 10)
		return appendU(append(b, " head "...), r.u("head"))
	},
}

// flagName is one entry of a __print_flags table.
type flagName struct {
	mask uint64
	name string
}

var (
	mapFlags = []flagName{{0x0001, "CREATE"}, {0x0002, "UNWRIT"}, {0x0004, "DELALLOC"}, {0x0008, "PRE_IO"},
		{0x0010, "CONVERT"}, {0x0020, "METADATA_NOFAIL"}, {0x0040, "NO_NORMALIZE"}, {0x0100, "CONVERT_UNWRITTEN"},
		{0x0200, "ZERO"}, {0x0400, "IO_SUBMIT"}, {0x40000000, "EX_NOCACHE"}}
	mapMFlags = []flagName{{1 << 5, "N"}, {1 << 4, "M"}, {1 << 11, "U"}, {1 << 9, "B"}}
	// inodeStateFlags are i_state's bits as Linux 6.18 numbers them, in
	// the order of writeback's show_inode_state(). The format file names
	// them without values (they are an enum) and kernels renumber them
	// (6.12, 6.19): another kernel's capture may name its bits wrongly
	// here; the attribution reads only dev and ino of the event.
	inodeStateFlags = []flagName{{1 << 4, "I_DIRTY_SYNC"}, {1 << 5, "I_DIRTY_DATASYNC"}, {1 << 6, "I_DIRTY_PAGES"},
		{1 << 0, "I_NEW"}, {1 << 7, "I_WILL_FREE"}, {1 << 8, "I_FREEING"}, {1 << 9, "I_CLEAR"}, {1 << 1, "I_SYNC"},
		{1 << 12, "I_DIRTY_TIME"}, {1 << 10, "I_REFERENCED"}, {1 << 11, "I_LINKABLE"}, {1 << 13, "I_WB_SWITCH"},
		{1 << 14, "I_OVL_INUSE"}, {1 << 15, "I_CREATING"}, {1 << 16, "I_DONTCACHE"}, {1 << 17, "I_SYNC_QUEUED"},
		{1 << 18, "I_PINNING_NETFS_WB"}, {1 << 2, "I_LRU_ISOLATING"}}
	freeBlocksFlags = []flagName{{0x0001, "METADATA"}, {0x0002, "FORGET"}, {0x0004, "VALIDATED"}, {0x0008, "NO_QUOTA"},
		{0x0010, "1ST_CLUSTER"}, {0x0020, "LAST_CLUSTER"}}
)

func renderMapBlocksExit(r *record, b []byte) []byte {
	b = appendDev(append(b, "dev "...), r.u("dev"))
	b = appendU(append(b, " ino "...), r.u("ino"))
	b = appendFlags(append(b, " flags "...), r.u("flags"), "|", mapFlags)
	b = appendU(append(b, " lblk "...), r.u("lblk"))
	b = appendU(append(b, " pblk "...), r.u("pblk"))
	b = appendU(append(b, " len "...), r.u("len"))
	b = appendFlags(append(b, " mflags "...), r.u("mflags"), "", mapMFlags)
	return strconv.AppendInt(append(b, " ret "...), r.i("ret"), 10)
}

var xfsBmapState = []flagName{{1 << 0, "LC"}, {1 << 1, "RC"}, {1 << 2, "LF"}, {1 << 3, "RF"}, {1 << 8, "ATTR"}, {1 << 9, "COW"}}

// renderXFSExtent prints xfs's extent events. The kernel prints the leaf
// pointer hashed (%p) and the caller as a symbol (%pS); neither can be
// had from the record without the kernel, and raw kernel addresses do not
// belong in a trace file, so both print as "?".
func renderXFSExtent(r *record, b []byte) []byte {
	b = appendXFSDev(append(b, "dev "...), r.u("dev"))
	b = strconv.AppendUint(append(b, " ino 0x"...), r.u("ino"), 16)
	b = appendFlags(append(b, " state "...), uint64(r.i("bmap_state")), "|", xfsBmapState)
	b = strconv.AppendInt(append(b, " cur ?/"...), r.i("pos"), 10)
	b = strconv.AppendUint(append(b, " fileoff 0x"...), r.u("startoff"), 16)
	b = strconv.AppendUint(append(b, " startblock 0x"...), r.u("startblock"), 16)
	b = strconv.AppendUint(append(b, " fsbcount 0x"...), r.u("blockcount"), 16)
	b = strconv.AppendUint(append(b, " flag "...), r.u("state"), 10)
	return append(b, " caller ?"...)
}

// appendXFSDev prints a dev_t as xfs's events do, MAJOR:MINOR.
func appendXFSDev(b []byte, dev uint64) []byte {
	b = strconv.AppendUint(b, uint64(uint32(dev)>>20), 10)
	return strconv.AppendUint(append(b, ':'), dev&(1<<20-1), 10)
}

func renderWriteBegin(r *record, b []byte) []byte {
	b = appendDev(append(b, "dev "...), r.u("dev"))
	b = appendU(append(b, " ino "...), r.u("ino"))
	b = strconv.AppendInt(append(b, " pos "...), r.i("pos"), 10)
	return appendU(append(b, " len "...), r.u("len"))
}

// renderFields prints an event without a renderer as its fields,
// "name=value" separated by spaces (numbers in decimal, strings as they
// are), which is enough for Field-style readers of other events.
func renderFields(r *record, b []byte) []byte {
	first := true
	for _, ff := range r.f.Fields {
		if len(ff.Name) > 7 && ff.Name[:7] == "common_" {
			continue
		}
		if !first {
			b = append(b, ' ')
		}
		first = false
		b = append(append(b, ff.Name...), '=')
		switch {
		case ff.DataLoc || ff.RelLoc || (ff.Type == "char" && ff.Size > 1):
			b = append(b, r.str(ff.Name)...)
		case ff.Size == 1 || ff.Size == 2 || ff.Size == 4 || ff.Size == 8:
			if ff.Signed {
				b = strconv.AppendInt(b, r.i(ff.Name), 10)
			} else {
				b = appendU(b, r.u(ff.Name))
			}
		default:
			b = append(b, "ARRAY["...)
			b = strconv.AppendInt(b, int64(ff.Size), 10)
			b = append(b, ']')
		}
	}
	return b
}

func appendU(b []byte, v uint64) []byte { return strconv.AppendUint(b, v, 10) }

// appendDev prints a dev_t as the kernel's MAJOR,MINOR (20 minor bits).
func appendDev(b []byte, dev uint64) []byte {
	b = strconv.AppendUint(b, uint64(uint32(dev)>>20), 10)
	return strconv.AppendUint(append(b, ','), dev&(1<<20-1), 10)
}

// appendIOPrio prints the block events' "class,hint,level" of an I/O
// priority, the class by the kernel's names.
func appendIOPrio(b []byte, p uint64) []byte {
	switch c := (p >> 13) & 7; c {
	case 0:
		b = append(b, "none"...)
	case 1:
		b = append(b, "rt"...)
	case 2:
		b = append(b, "be"...)
	case 3:
		b = append(b, "idle"...)
	case 7:
		b = append(b, "invalid"...)
	default:
		b = strconv.AppendUint(append(b, "0x"...), c, 16)
	}
	b = appendU(append(b, ','), (p>>3)&(1<<10-1))
	return appendU(append(b, ','), p&7)
}

// appendFlags prints flags as the kernel's __print_flags does: the names
// of the table's masks that are set, in table order, joined by delim, and
// what no name covers as 0x… at the end.
func appendFlags(b []byte, flags uint64, delim string, table []flagName) []byte {
	start := len(b)
	for _, f := range table {
		if flags == 0 {
			break
		}
		if f.mask == 0 || flags&f.mask != f.mask {
			continue
		}
		flags &^= f.mask
		if len(b) != start {
			b = append(b, delim...)
		}
		b = append(b, f.name...)
	}
	if flags != 0 {
		if len(b) != start {
			b = append(b, delim...)
		}
		b = strconv.AppendUint(append(b, "0x"...), flags, 16)
	}
	return b
}
