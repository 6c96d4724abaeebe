//go:build linux

package volume

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// stateDir holds one state file per live volume, per user: Reap acts on
// what the files say (unmount, remove), so only the user's own private
// directory is trusted. Tests point it elsewhere.
var stateDir = filepath.Join(os.TempDir(), fmt.Sprintf("droidprof-volumes-%d", os.Geteuid()))

// trustStateDir checks that stateDir is a real directory only this user can
// write to; another user could otherwise plant state that makes Reap
// unmount or delete what they choose.
func trustStateDir() error {
	fi, err := os.Lstat(stateDir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Geteuid() || fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("volume state directory %s is not a private directory of uid %d (mode %v); not using it", stateDir, os.Geteuid(), fi.Mode())
	}
	return nil
}

var stateSeq atomic.Int64

// state is what it takes to tear a volume down, kept in a state file so that
// Reap can do it when the owner could not. The owner holds an exclusive
// flock on the file for the volume's lifetime; the kernel drops it when the
// owner dies, however it dies, which is how Reap tells live volumes from
// abandoned ones without trusting pids that may have been reused.
type state struct {
	Pid        int    `json:"pid"`
	Backend    string `json:"backend"`
	Image      string `json:"image,omitempty"`
	Loop       string `json:"loop,omitempty"`
	MountPoint string `json:"mount_point,omitempty"`
	Mounted    bool   `json:"mounted,omitempty"`
	// TempDir is a dir-backend directory to remove entirely.
	TempDir string `json:"temp_dir,omitempty"`

	file *os.File // locked; nil until the first save
}

// save records s in its state file, creating and locking the file first.
// It is rewritten in place (not renamed over) so the lock stays on it.
func (s *state) save() error {
	if s.file == nil {
		if err := os.Mkdir(stateDir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("volume state: %w", err)
		}
		if err := trustStateDir(); err != nil {
			return err
		}
		name := filepath.Join(stateDir, fmt.Sprintf("%d-%d.json", os.Getpid(), stateSeq.Add(1)))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return fmt.Errorf("volume state: %w", err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			os.Remove(name)
			return fmt.Errorf("volume state: lock %s: %w", name, err)
		}
		s.file = f
		s.Pid = os.Getpid()
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := s.file.Truncate(0); err != nil {
		return fmt.Errorf("volume state: %w", err)
	}
	if _, err := s.file.WriteAt(append(data, '\n'), 0); err != nil {
		return fmt.Errorf("volume state: %w", err)
	}
	return nil
}

// teardown releases everything s records, in reverse order of setup, and
// then the state file. Every step runs even if an earlier one failed.
func (s *state) teardown() error {
	var errs []error
	if s.MountPoint != "" && s.Mounted {
		if err := unmount(s.MountPoint); err != nil {
			errs = append(errs, err)
		}
	}
	if s.Loop != "" {
		if err := detach(s.Loop, s.Image); err != nil {
			errs = append(errs, err)
		}
	}
	if s.Image != "" {
		if err := os.Remove(s.Image); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove image: %w", err))
		}
	}
	if s.MountPoint != "" {
		if err := os.Remove(s.MountPoint); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove mount point: %w", err))
		}
	}
	if s.TempDir != "" {
		if err := os.RemoveAll(s.TempDir); err != nil {
			errs = append(errs, fmt.Errorf("remove storage directory: %w", err))
		}
	}
	if s.file != nil {
		name := s.file.Name()
		// Only forget the volume once it is gone: if something is left, the
		// next Reap tries again.
		if len(errs) == 0 || onlyLazy(errs) {
			os.Remove(name)
		}
		s.file.Close()
		s.file = nil
	}
	return errors.Join(errs...)
}

func onlyLazy(errs []error) bool {
	for _, err := range errs {
		if !errors.Is(err, ErrLazyUnmount) {
			return false
		}
	}
	return true
}

// Reap tears down the volumes whose owner process has died without closing
// them (SIGKILL, a crash, a power cut before a reboot cleared the mounts):
// their mounts, loop devices, images and mount points. Volumes of live
// processes are left alone. It returns what it could not release.
func Reap() error {
	if err := trustStateDir(); errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("reap volumes: %w", err)
	}
	entries, err := os.ReadDir(stateDir)
	if err != nil {
		return fmt.Errorf("reap volumes: %w", err)
	}
	var errs []error
	for _, en := range entries {
		if !strings.HasSuffix(en.Name(), ".json") {
			continue
		}
		if err := reapOne(filepath.Join(stateDir, en.Name())); err != nil {
			errs = append(errs, fmt.Errorf("reap volume %s: %w", en.Name(), err))
		}
	}
	return errors.Join(errs...)
}

func reapOne(name string) error {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil // its owner is alive, or another Reap is at it
		}
		return err
	}
	// Another Reap may have finished and removed the file between our open
	// and our lock.
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil || st.Nlink == 0 {
		f.Close()
		return err
	}
	data, err := os.ReadFile(name)
	if err != nil {
		f.Close()
		return err
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil {
		// The owner died while writing it: nothing we can act on.
		f.Close()
		os.Remove(name)
		return nil
	}
	s.file = f
	// The owner may have died before it could record the mount.
	if s.MountPoint != "" {
		s.Mounted = true
	}
	return s.teardown()
}
