package revmap

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// ioctls of include/uapi/linux/fs.h.
const (
	fiFreeze = 0xC0045877 // _IOWR('X', 119, int)
	fiThaw   = 0xC0045878 // _IOWR('X', 120, int)
)

// FreezeFS freezes the filesystem mounted at mount — writes blocked, the
// log checkpointed and every metadata block written in place — so that a
// reader of its device sees it whole; thaw lets it go on. xfs needs this
// before ReadXFS: a sync only forces its log.
func FreezeFS(mount string) (thaw func() error, err error) {
	fd, err := unix.Open(mount, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, fmt.Errorf("freeze: %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), fiFreeze, 0); errno != 0 {
		unix.Close(fd)
		return nil, fmt.Errorf("freeze %s: %w", mount, errno)
	}
	return func() error {
		defer unix.Close(fd)
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), fiThaw, 0); errno != 0 {
			return fmt.Errorf("thaw %s: %w", mount, errno)
		}
		return nil
	}, nil
}

// Names returns the path (relative to mount, "/a/b") of every file and
// directory under dir by inode number, for a map read from the device
// without its directories (ReadXFS). Inodes above 32 bits are left out.
func Names(mount, dir string) (map[uint32]string, error) {
	paths := map[uint32]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		ino := info.Sys().(*syscall.Stat_t).Ino
		if ino > 1<<32-1 {
			return nil
		}
		rel, err := filepath.Rel(mount, p)
		if err != nil {
			return err
		}
		paths[uint32(ino)] = filepath.Clean("/" + filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("names under %s: %w", dir, err)
	}
	return paths, nil
}
