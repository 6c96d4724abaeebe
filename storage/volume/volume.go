// Package volume provides the directory collectors do their I/O in, and
// everything it takes to tear it down again.
//
// Three backends:
//
//   - "dir": a given directory, or a fresh temporary one that is removed on
//     Close unless Spec.Keep is set. Needs no privileges.
//   - "loop" (root): a sparse image file attached to a loop device, formatted
//     with mkfs.ext4, mkfs.xfs or mkfs.btrfs and mounted on a fresh mount
//     point. Close unmounts, detaches and deletes it all.
//   - "device" (root): an existing block device, mounted on a fresh mount
//     point and unmounted on Close. It is formatted only when Spec.Format
//     is set, and refused when it is in use or holds no filesystem.
//
// Setup undoes its own steps when one fails. Beyond that, every live loop or
// device volume is recorded in a state file held locked by its owner, so that
// Reap, run at the next start, releases what a killed process left behind.
package volume

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/droidprof/droidprof/storage/fsinfo"
)

// Backends and filesystems Open accepts.
var (
	Backends    = []string{"dir", "loop", "device"}
	Filesystems = []string{"ext4", "xfs", "btrfs"}
)

// Defaults for a loop volume.
const (
	DefaultFS       = "ext4"
	DefaultSize     = 1 << 30
	DefaultImageDir = "/var/tmp" // not /tmp: it may be tmpfs, i.e. RAM
)

// ErrLazyUnmount is wrapped by the error Close returns when a filesystem
// stayed busy and was detached lazily: it disappears from the namespace at
// once, but the kernel releases it only when its last user lets go.
var ErrLazyUnmount = errors.New("filesystem busy: detached lazily (MNT_DETACH)")

// Spec says which volume to open.
type Spec struct {
	// Backend is "dir" (the default when empty), "loop" or "device".
	Backend string
	// Dir is the directory of the dir backend; empty for a fresh temporary
	// one.
	Dir string
	// Keep keeps a fresh temporary directory of the dir backend.
	Keep bool
	// FS is "ext4", "xfs" or "btrfs": the filesystem a loop volume, or a
	// device with Format, is made with (default ext4). For a device without
	// Format it must match what is on the device, or be empty.
	FS string
	// Size of a loop image in bytes (default DefaultSize).
	Size int64
	// MkfsOptions are passed to mkfs before the device, e.g.
	// ["-O", "^has_journal"].
	MkfsOptions []string
	// MountOptions are mount(8)-style options, e.g. "noatime,data=journal".
	MountOptions string
	// Device is the block device of the device backend.
	Device string
	// Format lets the device backend run mkfs on Device, erasing it.
	Format bool
	// ImageDir holds loop images (default DefaultImageDir).
	ImageDir string
}

// Volume is an open volume. Its fields describe it for the run fingerprint.
type Volume struct {
	// Dir is where collectors do their I/O: the directory, or the mount point.
	Dir     string
	Backend string
	// FSType and MountOptions are what the kernel reports for Dir in
	// /proc/self/mountinfo, e.g. "ext4" and "rw,relatime,data=journal".
	FSType       string
	MountOptions string
	// MkfsOptions are the options mkfs ran with (the device excluded); nil
	// when droidprof did not format anything.
	MkfsOptions []string
	// Device is the loop device or the block device; empty for dir.
	Device string
	// Size is the size of the loop image or block device in bytes.
	Size int64
	// Image is the loop image file.
	Image string

	mu     sync.Mutex
	closed bool
	err    error
	st     *state
}

// Open sets up the volume spec describes. When it fails, everything it had
// set up is undone. Cancelling ctx interrupts it (a running mkfs is killed).
func Open(ctx context.Context, spec Spec) (*Volume, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch spec.Backend {
	case "", "dir":
		return openDir(spec)
	case "loop":
		return openLoop(ctx, spec)
	case "device":
		return openDevice(ctx, spec)
	}
	return nil, fmt.Errorf("storage backend %q: not one of dir, loop, device", spec.Backend)
}

func openDir(spec Spec) (*Volume, error) {
	v := &Volume{Backend: "dir", st: &state{Backend: "dir"}}
	if spec.Dir != "" {
		if err := os.MkdirAll(spec.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("storage directory: %w", err)
		}
		v.Dir = spec.Dir
	} else {
		d, err := os.MkdirTemp("", "droidprof-storage-")
		if err != nil {
			return nil, fmt.Errorf("storage directory: %w", err)
		}
		v.Dir = d
		if !spec.Keep {
			v.st.TempDir = d
			// Recording it only lets Reap remove it after a crash; a
			// directory is not worth failing the run for.
			_ = v.st.save()
		}
	}
	if abs, err := filepath.Abs(v.Dir); err == nil {
		v.Dir = abs
	}
	v.describe()
	return v, nil
}

// describe fills FSType and MountOptions from the kernel's view of Dir.
func (v *Volume) describe() {
	v.FSType, v.MountOptions, _ = fsinfo.Describe(v.Dir)
}

// Close tears the volume down: unmount, detach the loop device, remove the
// image and the mount point (or the temporary directory). It runs every step
// even when one fails and returns the errors joined; calling it again returns
// the same result. An error wrapping ErrLazyUnmount means the volume is gone
// from view but was still in use.
func (v *Volume) Close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return v.err
	}
	v.closed = true
	v.err = v.st.teardown()
	return v.err
}
