//go:build linux

package volume

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/storage/fsinfo"
)

// mountParent holds the mount points ("": os.TempDir()). Tests point it
// elsewhere.
var mountParent = ""

func needRoot(backend string) error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("storage backend %q needs root (it attaches loop devices and mounts filesystems); run droidprof as root, or use backend \"dir\" (e.g. --set storage.backend=dir)", backend)
	}
	return nil
}

func checkFS(fs string) error {
	for _, f := range Filesystems {
		if f == fs {
			return nil
		}
	}
	return fmt.Errorf("filesystem %q: not one of %s", fs, strings.Join(Filesystems, ", "))
}

// fail undoes a half-built volume and returns err with whatever the undo
// could not release.
func (v *Volume) fail(err error) (*Volume, error) {
	if terr := v.st.teardown(); terr != nil {
		err = fmt.Errorf("%w (and while undoing: %v)", err, terr)
	}
	return nil, err
}

func openLoop(ctx context.Context, spec Spec) (*Volume, error) {
	if err := needRoot("loop"); err != nil {
		return nil, err
	}
	fs := spec.FS
	if fs == "" {
		fs = DefaultFS
	}
	if err := checkFS(fs); err != nil {
		return nil, err
	}
	size := spec.Size
	if size == 0 {
		size = DefaultSize
	}
	if size < 0 {
		return nil, fmt.Errorf("loop image size %d: must be positive", size)
	}
	dir := spec.ImageDir
	if dir == "" {
		dir = DefaultImageDir
	}
	v := &Volume{Backend: "loop", Size: size, st: &state{Backend: "loop"}}

	img, err := os.CreateTemp(dir, "droidprof-*.img")
	if err != nil {
		return nil, fmt.Errorf("create loop image: %w", err)
	}
	// The kernel reports the backing file by its resolved path; record that
	// one so teardown can recognise the device as ours.
	v.Image = img.Name()
	if real, err := filepath.EvalSymlinks(v.Image); err == nil {
		v.Image = real
	}
	v.st.Image = v.Image
	if err := v.st.save(); err != nil {
		img.Close()
		return v.fail(err)
	}
	if err := img.Truncate(size); err != nil {
		img.Close()
		return v.fail(fmt.Errorf("size loop image %s: %w", v.Image, err))
	}
	dev, devFile, err := attach(img, v.Image)
	img.Close() // the loop device holds its own reference
	if err != nil {
		return v.fail(err)
	}
	v.Device, v.st.Loop = dev, dev
	// Our descriptor keeps the autoclearing device bound through mkfs (which
	// opens and closes it) until the mount holds it; from then on unmounting
	// detaches it by itself, even if we are killed.
	defer devFile.Close()
	if err := v.st.save(); err != nil {
		devFile.Close()
		return v.fail(err)
	}
	if v.MkfsOptions, err = mkfs(ctx, fs, dev, spec.MkfsOptions); err != nil {
		devFile.Close()
		return v.fail(err)
	}
	if err := v.mount(ctx, dev, fs, spec.MountOptions); err != nil {
		devFile.Close()
		return v.fail(err)
	}
	return v, nil
}

// mount mounts dev on a fresh mount point and records it.
func (v *Volume) mount(ctx context.Context, dev, fs, options string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	mp, err := os.MkdirTemp(mountParent, "droidprof-mnt-")
	if err != nil {
		return fmt.Errorf("create mount point: %w", err)
	}
	if real, err := filepath.EvalSymlinks(mp); err == nil {
		mp = real
	}
	v.st.MountPoint = mp
	if err := v.st.save(); err != nil {
		return err
	}
	flags, data := mountFlags(options)
	// Recorded before the call: if we die inside it, Reap still unmounts.
	v.st.Mounted = true
	if err := v.st.save(); err != nil {
		return err
	}
	if err := unix.Mount(dev, mp, fs, flags, data); err != nil {
		v.st.Mounted = false
		hint := ""
		if errors.Is(err, unix.EINVAL) {
			hint = " (the kernel log, dmesg, names the option it rejected)"
		}
		return fmt.Errorf("mount %s on %s (type %s, options %q): %w%s", dev, mp, fs, options, err, hint)
	}
	v.Dir = mp
	v.describe()
	return nil
}

// attach binds img to a free loop device with autoclear set and returns the
// device, open. Another process may grab the device GET_FREE offered before
// we bind it; then the kernel says EBUSY and we ask again.
func attach(img *os.File, name string) (string, *os.File, error) {
	ctl, err := os.OpenFile("/dev/loop-control", os.O_RDWR, 0)
	if err != nil {
		return "", nil, fmt.Errorf("attach loop device: %w", err)
	}
	defer ctl.Close()
	var last error
	for range 20 {
		n, err := unix.IoctlRetInt(int(ctl.Fd()), unix.LOOP_CTL_GET_FREE)
		if err != nil {
			return "", nil, fmt.Errorf("attach loop device: LOOP_CTL_GET_FREE: %w", err)
		}
		dev := "/dev/loop" + strconv.Itoa(n)
		f, err := os.OpenFile(dev, os.O_RDWR, 0)
		if err != nil {
			// devtmpfs may not have made the node yet, or it went away.
			last = err
			continue
		}
		err = bind(f, img, name)
		if errors.Is(err, unix.EBUSY) {
			f.Close()
			last = fmt.Errorf("%s: %w", dev, err)
			continue
		}
		if err != nil {
			f.Close()
			return "", nil, fmt.Errorf("attach loop device %s to %s: %w", dev, name, err)
		}
		return dev, f, nil
	}
	return "", nil, fmt.Errorf("attach loop device to %s: no free loop device after 20 tries: %w", name, last)
}

// bind configures the loop device dev to serve img, with LOOP_CONFIGURE, or
// on kernels before 5.8 with LOOP_SET_FD and LOOP_SET_STATUS64.
func bind(dev, img *os.File, name string) error {
	var info unix.LoopInfo64
	info.Flags = unix.LO_FLAGS_AUTOCLEAR
	copy(info.File_name[:len(info.File_name)-1], name)
	cfg := unix.LoopConfig{Fd: uint32(img.Fd()), Info: info}
	err := unix.IoctlLoopConfigure(int(dev.Fd()), &cfg)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOTTY) {
		return err
	}
	if err := unix.IoctlSetInt(int(dev.Fd()), unix.LOOP_SET_FD, int(img.Fd())); err != nil {
		return err
	}
	if err := unix.IoctlLoopSetStatus64(int(dev.Fd()), &info); err != nil {
		unix.IoctlSetInt(int(dev.Fd()), unix.LOOP_CLR_FD, 0)
		return fmt.Errorf("LOOP_SET_STATUS64: %w", err)
	}
	return nil
}

// backingFile returns what the loop device is bound to ("" when unbound).
func backingFile(dev string) string {
	data, err := os.ReadFile(filepath.Join("/sys/block", filepath.Base(dev), "loop", "backing_file"))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.TrimSpace(string(data)), " (deleted)")
}

// detach makes sure the loop device no longer serves image. Autoclear has
// normally done it when the last user closed the device; if the device is
// still bound to image, it is cleared explicitly. A device bound to anything
// else has been reused by someone else and is left alone.
func detach(dev, image string) error {
	bound := func() bool { b := backingFile(dev); return b != "" && (image == "" || b == image) }
	// Autoclear runs when the last opener closes the device; a udev probe
	// holding it open a moment longer delays that.
	for i := 0; i < 50 && bound(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if !bound() {
		return nil
	}
	f, err := os.OpenFile(dev, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("detach loop device %s: %w", dev, err)
	}
	defer f.Close()
	if err := unix.IoctlSetInt(int(f.Fd()), unix.LOOP_CLR_FD, 0); err != nil && !errors.Is(err, unix.ENXIO) {
		return fmt.Errorf("detach loop device %s: LOOP_CLR_FD: %w", dev, err)
	}
	return nil
}

// mkfs formats dev and returns the options it used.
func mkfs(ctx context.Context, fs, dev string, user []string) ([]string, error) {
	if err := checkFS(fs); err != nil {
		return nil, err
	}
	var opts []string
	if fs == "ext4" && !slices.Contains(user, "-E") {
		// Initialise inode tables and journal now: lazily, ext4lazyinit
		// would write them in the background during the measurements.
		// (mke2fs keeps only the last -E, so a user's own -E goes alone.)
		opts = []string{"-E", "lazy_itable_init=0,lazy_journal_init=0"}
	}
	opts = append(opts, user...)
	tool := "mkfs." + fs
	force := "-F" // mkfs.ext4 asks before formatting a whole device
	if fs != "ext4" {
		force = "-f" // mkfs.xfs/btrfs refuse a device with a filesystem on it
	}
	args := append(append([]string{force, "-q"}, opts...), dev)
	cmd := exec.CommandContext(ctx, tool, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s %s: interrupted: %w", tool, dev, ctx.Err())
		}
		msg := strings.TrimSpace(out.String())
		if msg != "" {
			msg = ": " + msg
		}
		return nil, fmt.Errorf("%s %s: %w%s", tool, dev, err, msg)
	}
	return opts, nil
}

// mountFlags splits mount(8)-style options into MS_* flags and the data
// string the filesystem parses.
func mountFlags(options string) (uintptr, string) {
	set := map[string]uintptr{
		"ro": unix.MS_RDONLY, "nosuid": unix.MS_NOSUID, "nodev": unix.MS_NODEV, "noexec": unix.MS_NOEXEC,
		"sync": unix.MS_SYNCHRONOUS, "dirsync": unix.MS_DIRSYNC, "noatime": unix.MS_NOATIME,
		"nodiratime": unix.MS_NODIRATIME, "relatime": unix.MS_RELATIME, "strictatime": unix.MS_STRICTATIME,
		"lazytime": unix.MS_LAZYTIME, "silent": unix.MS_SILENT, "mand": unix.MS_MANDLOCK,
	}
	clear := map[string]bool{"rw": true, "suid": true, "dev": true, "exec": true, "async": true,
		"atime": true, "diratime": true, "norelatime": true, "nostrictatime": true, "nolazytime": true, "loud": true, "nomand": true, "defaults": true}
	var flags uintptr
	var data []string
	for _, o := range strings.Split(options, ",") {
		o = strings.TrimSpace(o)
		switch {
		case o == "":
		case set[o] != 0:
			flags |= set[o]
		case clear[o]:
		default:
			data = append(data, o)
		}
	}
	return flags, strings.Join(data, ",")
}

// unmount unmounts mp, retrying while it is busy, and lazily as a last
// resort. A path that is not (or no longer) mounted is not an error.
func unmount(mp string) error {
	var err error
	for i := 0; i < 8; i++ {
		err = unix.Unmount(mp, 0)
		switch {
		case err == nil, errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOENT):
			return nil
		case !errors.Is(err, unix.EBUSY):
			return fmt.Errorf("unmount %s: %w", mp, err)
		}
		// A process killed a moment ago may still be closing its files.
		time.Sleep(time.Duration(5<<i) * time.Millisecond)
	}
	if derr := unix.Unmount(mp, unix.MNT_DETACH); derr != nil && !errors.Is(derr, unix.EINVAL) {
		return fmt.Errorf("unmount %s: %w; lazy unmount: %v", mp, err, derr)
	}
	return fmt.Errorf("unmount %s: still busy after 8 tries: %w", mp, ErrLazyUnmount)
}

func openDevice(ctx context.Context, spec Spec) (*Volume, error) {
	if err := needRoot("device"); err != nil {
		return nil, err
	}
	dev := spec.Device
	if dev == "" {
		return nil, errors.New("storage backend \"device\": no device given")
	}
	if spec.FS != "" {
		if err := checkFS(spec.FS); err != nil {
			return nil, err
		}
	}
	fi, err := os.Stat(dev)
	if err != nil {
		return nil, fmt.Errorf("storage device: %w", err)
	}
	if fi.Mode()&os.ModeDevice == 0 || fi.Mode()&os.ModeCharDevice != 0 {
		return nil, fmt.Errorf("storage device %s: not a block device", dev)
	}
	if mp := mountedAt(dev); mp != "" {
		return nil, fmt.Errorf("storage device %s is mounted on %s; droidprof mounts the device itself and never uses one in use", dev, mp)
	}
	// O_EXCL on a block device is the kernel's own test for "in use": it
	// fails while the device is mounted, swapped on or held by LVM/RAID.
	f, err := os.OpenFile(dev, os.O_RDONLY|unix.O_EXCL, 0)
	if err != nil {
		return nil, fmt.Errorf("storage device %s is in use (mounted, swap, LVM or RAID member, or held open exclusively): %w", dev, err)
	}
	size, _ := f.Seek(0, 2)
	found, perr := probe(f)
	f.Close()
	if perr != nil {
		return nil, fmt.Errorf("storage device %s: read superblock: %w", dev, perr)
	}
	v := &Volume{Backend: "device", Device: dev, Size: size, st: &state{Backend: "device"}}
	fs := spec.FS
	switch {
	case spec.Format:
		if fs == "" {
			fs = DefaultFS
		}
		if v.MkfsOptions, err = mkfs(ctx, fs, dev, spec.MkfsOptions); err != nil {
			return nil, err
		}
	case found == "":
		return nil, fmt.Errorf("storage device %s holds no filesystem droidprof recognises; set format = true to let droidprof make one (this erases the device)", dev)
	case fs == "ext4" && (found == "ext2" || found == "ext3"):
		// The ext4 driver mounts its predecessors.
	case fs != "" && fs != found:
		return nil, fmt.Errorf("storage device %s holds %s, not %s; set fs = %q, or format = true to erase it and make %s", dev, found, fs, found, fs)
	default:
		fs = found
	}
	if err := v.mount(ctx, dev, fs, spec.MountOptions); err != nil {
		return v.fail(err)
	}
	return v, nil
}

// mountedAt returns a mount point of the block device dev, or "".
func mountedAt(dev string) string {
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		return ""
	}
	real, _ := filepath.EvalSymlinks(dev)
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	mounts, err := fsinfo.ParseMountInfo(f)
	if err != nil {
		return ""
	}
	for _, m := range mounts {
		// btrfs reports an anonymous device number, so match the source too.
		if (m.Major == unix.Major(st.Rdev) && m.Minor == unix.Minor(st.Rdev)) || m.Source == dev || (real != "" && m.Source == real) {
			return m.MountPoint
		}
	}
	return ""
}

// probe names the filesystem on a device from its superblock magic: one of
// Filesystems, "ext2"/"ext3", another type blkid knows, or "" for none.
func probe(f *os.File) (string, error) {
	buf := make([]byte, 0x10048)
	n, err := f.ReadAt(buf, 0)
	if n == 0 && err != nil {
		return "", err
	}
	buf = buf[:n]
	if len(buf) >= 1024+0x68 && buf[1024+0x38] == 0x53 && buf[1024+0x39] == 0xEF {
		le := func(off int) uint32 {
			b := buf[1024+off:]
			return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
		}
		compat, incompat, roCompat := le(0x5C), le(0x60), le(0x64)
		switch {
		case incompat&(0x40|0x80|0x200) != 0 || roCompat&0x400 != 0: // extents, 64bit, flex_bg, metadata_csum
			return "ext4", nil
		case compat&0x4 != 0: // has_journal
			return "ext3", nil
		}
		return "ext2", nil
	}
	if len(buf) >= 4 && string(buf[:4]) == "XFSB" {
		return "xfs", nil
	}
	if len(buf) >= 0x10048 && string(buf[0x10040:0x10048]) == "_BHRfS_M" {
		return "btrfs", nil
	}
	if _, err := exec.LookPath("blkid"); err == nil {
		out, err := exec.Command("blkid", "-p", "-o", "value", "-s", "TYPE", f.Name()).Output()
		if err == nil {
			return strings.TrimSpace(string(out)), nil
		}
	}
	return "", nil
}
