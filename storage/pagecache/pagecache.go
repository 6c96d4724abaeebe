// Package pagecache controls the kernel's page cache for benchmarks: dropping
// it system-wide (what Mobibench does before every run) and evicting the
// cached pages of one file (what fio's invalidate=1 does).
package pagecache

import (
	"errors"
	"fmt"
	"os"

	"unsafe"

	"golang.org/x/sys/unix"
)

// DropCachesPath is the kernel knob Drop writes to.
const DropCachesPath = "/proc/sys/vm/drop_caches"

// ErrNotPermitted is returned (wrapped) by Drop when the process may not drop
// caches: it is not root, /proc/sys is read-only (containers), or the knob is
// missing.
var ErrNotPermitted = errors.New("dropping the page cache is not permitted")

// Drop writes back all dirty data (sync(2)) and then frees the page cache,
// dentries and inodes, like `sync; echo 3 > /proc/sys/vm/drop_caches`.
func Drop() error {
	unix.Sync()
	f, err := os.OpenFile(DropCachesPath, os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, os.ErrPermission) || errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.EROFS) {
			return fmt.Errorf("%w (%v); run as root with a writable /proc/sys to drop caches", ErrNotPermitted, err)
		}
		return fmt.Errorf("drop caches: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteString("3\n"); err != nil {
		if errors.Is(err, os.ErrPermission) || errors.Is(err, unix.EROFS) || errors.Is(err, unix.EPERM) {
			return fmt.Errorf("%w (%v)", ErrNotPermitted, err)
		}
		return fmt.Errorf("drop caches: %w", err)
	}
	return nil
}

// Evict writes back the dirty pages of the file at path and asks the kernel to
// drop its clean cached pages (fdatasync + posix_fadvise(POSIX_FADV_DONTNEED)),
// as fio does for invalidate=1. It needs no privilege. Pages mapped by a
// process stay cached.
func Evict(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("evict %s: %w", path, err)
	}
	defer f.Close()
	fd := int(f.Fd())
	if err := unix.Fdatasync(fd); err != nil {
		return fmt.Errorf("evict %s: fdatasync: %w", path, err)
	}
	if err := unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("evict %s: fadvise: %w", path, err)
	}
	return nil
}

// Resident returns how many bytes of the file at path are in the page cache
// and the file's size, from mincore(2) over a read-only mapping.
func Resident(path string) (cached, size int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	size = st.Size()
	if size == 0 {
		return 0, 0, nil
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, size, fmt.Errorf("resident %s: mmap: %w", path, err)
	}
	defer unix.Munmap(m)
	page := int64(os.Getpagesize())
	vec := make([]byte, (size+page-1)/page)
	if err := mincore(m, vec); err != nil {
		return 0, size, fmt.Errorf("resident %s: mincore: %w", path, err)
	}
	for i, v := range vec {
		if v&1 != 0 {
			cached += min(page, size-int64(i)*page)
		}
	}
	return cached, size, nil
}

func mincore(b, vec []byte) error {
	_, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0])))
	if e != 0 {
		return e
	}
	return nil
}
