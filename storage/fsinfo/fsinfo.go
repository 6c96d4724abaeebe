// Package fsinfo answers what a benchmark needs to know about the filesystem
// under a directory before it runs: its type and mount options (from the
// kernel's mount table), and whether and with which alignment it accepts
// O_DIRECT.
package fsinfo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// TypeName returns the name for a statfs magic number, or "0x<hex>" when it
// is not one this package knows.
func TypeName(magic int64) string {
	if n, ok := names[uint32(magic)]; ok {
		return n
	}
	return fmt.Sprintf("0x%x", magic)
}

// Type returns the statfs magic and name of the filesystem holding dir.
func Type(dir string) (magic int64, name string, err error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, "", fmt.Errorf("statfs %s: %w", dir, err)
	}
	return int64(st.Type), TypeName(int64(st.Type)), nil
}

// ErrNoDirectIO is returned (wrapped) by DirectIO when the filesystem refuses
// to open files with O_DIRECT.
var ErrNoDirectIO = errors.New("the filesystem rejects O_DIRECT")

// DirectIOAlign is the alignment O_DIRECT transfers need on a filesystem.
type DirectIOAlign struct {
	Memory int64 // buffer address alignment in bytes
	Offset int64 // file offset and length alignment in bytes (logical block size)
	// FromKernel is true when the kernel reported the values (statx
	// STATX_DIOALIGN, Linux 6.1+); otherwise they are the safe page size.
	FromKernel bool
}

// DirectIO finds out whether the filesystem under dir accepts O_DIRECT by
// creating, opening and removing a probe file there, and which alignment it
// needs. Probing is the only reliable answer: the same filesystem type may
// or may not support O_DIRECT depending on the kernel (tmpfs accepts it since
// Linux 6.6, ramfs never does).
func DirectIO(dir string) (DirectIOAlign, error) {
	page := int64(os.Getpagesize())
	f, err := os.CreateTemp(dir, ".droidprof-dio-probe-*")
	if err != nil {
		return DirectIOAlign{}, fmt.Errorf("probe O_DIRECT in %s: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	fd, err := unix.Open(name, unix.O_RDWR|unix.O_DIRECT|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
			return DirectIOAlign{}, fmt.Errorf("%w (open %s: %v)", ErrNoDirectIO, filepath.Base(name), err)
		}
		return DirectIOAlign{}, fmt.Errorf("probe O_DIRECT in %s: %w", dir, err)
	}
	defer unix.Close(fd)
	var stx unix.Statx_t
	if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_DIOALIGN, &stx); err == nil &&
		stx.Mask&unix.STATX_DIOALIGN != 0 {
		if stx.Dio_offset_align == 0 {
			// The kernel says: no direct I/O on this file.
			return DirectIOAlign{}, fmt.Errorf("%w (statx reports no direct I/O support)", ErrNoDirectIO)
		}
		return DirectIOAlign{Memory: int64(stx.Dio_mem_align), Offset: int64(stx.Dio_offset_align), FromKernel: true}, nil
	}
	return DirectIOAlign{Memory: page, Offset: page}, nil
}
