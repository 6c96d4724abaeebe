//go:build unix

package runstore

import (
	"errors"
	"os"
	"syscall"
)

// canLock says that lockFile really locks.
const canLock = true

// lockFile takes an exclusive flock on f; with wait false it fails with
// errLocked instead of waiting. The kernel drops the lock when the process
// dies, however it dies, which is what tells a crashed run from a live one.
func lockFile(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLocked
		}
		return err
	}
}
