package revmap

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// FIEMAP (Documentation/filesystems/fiemap.rst): the ioctl and its flags.
const (
	fsIocFiemap      = 0xC020660B // _IOWR('f', 11, struct fiemap)
	fiemapFlagSync   = 0x1
	fiemapExtentLast = 0x1
	fiemapHeader     = 32
	fiemapExtentSize = 56
	fiemapBatch      = 256
	// Extents whose physical place is not a plain device offset.
	fiemapNotPhysical = 0x2 | 0x4 | 0x8 | 0x80 | 0x200 // unknown, delalloc, encoded, encrypted, inline
)

// MapFiles maps the regular files under dir, on the filesystem mounted at
// mount, with FIEMAP: their data blocks with inode and path (relative to
// mount, "/a/b"). It serves filesystems droidprof has no on-disk reader
// for. It is right only where FIEMAP's physical offsets are device offsets
// — ext4 and xfs; on btrfs they are addresses in its own logical space.
// Metadata, directories and free blocks are left Unknown.
func MapFiles(mount, dir string) (*Map, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(mount, &st); err != nil {
		return nil, fmt.Errorf("fiemap: statfs %s: %w", mount, err)
	}
	bs := uint64(st.Bsize)
	b := &builder{}
	paths, err := walkFiles(mount, dir, func(p string, ino uint32) error {
		return fileExtents(p, func(physical, length uint64) error {
			b.add(physical/bs, (length+bs-1)/bs, Data, ino)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return NewMap(uint32(bs), st.Blocks*uint64(st.Bsize)/bs, b.sorted(), paths), nil
}

// walkFiles calls each for every regular file under dir with its inode
// number, and returns the files' paths by inode (relative to mount, "/a/b").
func walkFiles(mount, dir string, each func(p string, ino uint32) error) (map[uint32]string, error) {
	paths := map[uint32]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		ino := uint32(info.Sys().(*syscall.Stat_t).Ino)
		rel, err := filepath.Rel(mount, p)
		if err != nil {
			return err
		}
		paths[ino] = "/" + filepath.ToSlash(rel)
		return each(p, ino)
	})
	return paths, err
}

// fileExtents calls emit with the place and length in bytes of each data
// extent of one file, as FIEMAP gives them: device offsets on ext4 and
// xfs, logical addresses on btrfs.
func fileExtents(p string, emit func(physical, length uint64) error) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("fiemap: %w", err)
	}
	defer f.Close()
	le := binary.LittleEndian
	buf := make([]byte, fiemapHeader+fiemapBatch*fiemapExtentSize)
	for start := uint64(0); ; {
		clear(buf)
		le.PutUint64(buf[0:], start)
		le.PutUint64(buf[8:], ^uint64(0)-start)
		le.PutUint32(buf[16:], fiemapFlagSync)
		le.PutUint32(buf[24:], fiemapBatch)
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, f.Fd(), fsIocFiemap, uintptr(unsafe.Pointer(&buf[0]))); errno != 0 {
			return fmt.Errorf("fiemap: %s: %w", p, errno)
		}
		n := int(le.Uint32(buf[20:]))
		if n == 0 {
			return nil
		}
		for i := 0; i < n; i++ {
			e := buf[fiemapHeader+i*fiemapExtentSize:]
			logical, physical, length, flags := le.Uint64(e[0:]), le.Uint64(e[8:]), le.Uint64(e[16:]), le.Uint32(e[40:])
			if flags&fiemapNotPhysical == 0 {
				if err := emit(physical, length); err != nil {
					return fmt.Errorf("fiemap: %s: %w", p, err)
				}
			}
			start = logical + length
			if flags&fiemapExtentLast != 0 {
				return nil
			}
		}
	}
}
