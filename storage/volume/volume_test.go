//go:build linux

package volume

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/fsinfo"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
)

const childEnv = "DROIDPROF_VOLUME_TEST_CHILD"

// TestMain doubles as the child of TestReapAfterKill: it opens the volume
// described in childEnv, reports it on stdout and waits to be killed.
func TestMain(m *testing.M) {
	volumetest.ReapOnSignal(Reap)
	if spec := os.Getenv(childEnv); spec != "" {
		var c struct {
			Spec     Spec
			StateDir string
			MountDir string
		}
		if err := json.Unmarshal([]byte(spec), &c); err != nil {
			panic(err)
		}
		stateDir, mountParent = c.StateDir, c.MountDir
		v, err := Open(context.Background(), c.Spec)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		out, _ := json.Marshal(v)
		fmt.Printf("ready %s\n", out)
		select {}
	}
	os.Exit(m.Run())
}

// isolate keeps the state files and mount points of a test in its own
// directories, so tests running at the same time cannot confuse each other.
func isolate(t *testing.T) {
	t.Helper()
	oldState, oldMount := stateDir, mountParent
	stateDir, mountParent = filepath.Join(t.TempDir(), "state"), t.TempDir()
	t.Cleanup(func() { stateDir, mountParent = oldState, oldMount })
}

func mounts(t *testing.T) []fsinfo.Mount {
	t.Helper()
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ms, err := fsinfo.ParseMountInfo(f)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func mountOf(t *testing.T, mp string) (fsinfo.Mount, bool) {
	for _, m := range mounts(t) {
		if m.MountPoint == mp {
			return m, true
		}
	}
	return fsinfo.Mount{}, false
}

// loopsBackedUnder lists the loop devices whose backing file is under dir.
func loopsBackedUnder(dir string) []string {
	paths, _ := filepath.Glob("/sys/block/loop*/loop/backing_file")
	var out []string
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		if strings.HasPrefix(strings.TrimSpace(string(data)), dir+"/") {
			out = append(out, p)
		}
	}
	return out
}

// assertNothingLeft checks that no image, loop device, mount or mount point
// of the test's directories survived.
func assertNothingLeft(t *testing.T, imageDir string) {
	t.Helper()
	if real, err := filepath.EvalSymlinks(imageDir); err == nil {
		imageDir = real
	}
	if l := loopsBackedUnder(imageDir); len(l) > 0 {
		t.Errorf("loop devices still bound: %v", l)
	}
	for _, m := range mounts(t) {
		if strings.HasPrefix(m.MountPoint, mountParent+"/") {
			t.Errorf("still mounted: %s (%s)", m.MountPoint, m.FSType)
		}
	}
	for _, d := range []string{imageDir, mountParent} {
		if ents, _ := os.ReadDir(d); len(ents) > 0 {
			t.Errorf("%s not empty: %v", d, ents)
		}
	}
	if ents, _ := os.ReadDir(stateDir); len(ents) > 0 {
		t.Errorf("state files left: %v", ents)
	}
}

// writeSynced writes random data to a new file in dir, fsyncs it and
// returns the data.
func writeSynced(t *testing.T, dir string) []byte {
	t.Helper()
	data := make([]byte, 64<<10)
	rand.Read(data)
	f, err := os.Create(filepath.Join(dir, "probe.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return data
}

// imageContains reports whether the image holds the first 4 KiB of data at
// a 1 KiB boundary (small ext4 filesystems use 1 KiB blocks).
func imageContains(t *testing.T, image string, data []byte) bool {
	t.Helper()
	f, err := os.Open(image)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := data[:4096]
	const chunk = 1 << 20
	buf := make([]byte, chunk+4096)
	for pos := int64(0); ; pos += chunk {
		n, err := f.ReadAt(buf, pos)
		for off := 0; off+4096 <= n && off < chunk; off += 1024 {
			if bytes.Equal(buf[off:off+4096], want) {
				return true
			}
		}
		if err != nil {
			return false
		}
	}
}

func TestLoopFilesystems(t *testing.T) {
	tests := []struct {
		name      string
		fs        string
		size      int64
		mkfs      []string
		mount     string
		wantOpts  []string // must appear in the kernel's mount options
		checkMkfs func(t *testing.T, dev string)
	}{
		{name: "ext4-data-journal", fs: "ext4", size: 256 << 20, mount: "data=journal", wantOpts: []string{"data=journal"}},
		{name: "ext4-no-journal", fs: "ext4", size: 256 << 20, mkfs: []string{"-O", "^has_journal"}, mount: "noatime",
			wantOpts: []string{"noatime"}, checkMkfs: func(t *testing.T, dev string) {
				out, err := exec.Command(testenv.Tool(t, "dumpe2fs", "e2fsprogs"), "-h", dev).CombinedOutput()
				if err != nil {
					t.Fatalf("dumpe2fs: %v\n%s", err, out)
				}
				for _, line := range strings.Split(string(out), "\n") {
					if strings.HasPrefix(line, "Filesystem features:") && strings.Contains(line, "has_journal") {
						t.Errorf("mkfs option -O ^has_journal ignored: %s", line)
					}
				}
			}},
		{name: "ext4-journal-size", fs: "ext4", size: 256 << 20, mkfs: []string{"-J", "size=16"}, checkMkfs: func(t *testing.T, dev string) {
			out, err := exec.Command(testenv.Tool(t, "dumpe2fs", "e2fsprogs"), "-h", dev).CombinedOutput()
			if err != nil {
				t.Fatalf("dumpe2fs: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), "Total journal size:       16M") {
				t.Errorf("mkfs option -J size=16 ignored:\n%s", out)
			}
		}},
		{name: "xfs", fs: "xfs", size: 512 << 20, mkfs: []string{"-L", "dpxfs"}, mount: "noatime,nodiratime", wantOpts: []string{"noatime", "nodiratime"},
			checkMkfs: func(t *testing.T, dev string) {
				out, _ := exec.Command("blkid", "-p", "-o", "value", "-s", "LABEL", dev).Output()
				if strings.TrimSpace(string(out)) != "dpxfs" {
					t.Errorf("mkfs option -L dpxfs ignored: label %q", out)
				}
			}},
		{name: "btrfs", fs: "btrfs", size: 512 << 20, mount: "noatime,compress=lzo", wantOpts: []string{"noatime", "compress=lzo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			volumetest.NeedRoot(t, tt.fs)
			isolate(t)
			imageDir := t.TempDir()
			v, err := Open(context.Background(), Spec{Backend: "loop", FS: tt.fs, Size: tt.size, MkfsOptions: tt.mkfs, MountOptions: tt.mount, ImageDir: imageDir})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			m, ok := mountOf(t, v.Dir)
			if !ok {
				t.Fatalf("%s is not in /proc/self/mountinfo", v.Dir)
			}
			if m.FSType != tt.fs || v.FSType != tt.fs || m.Source != v.Device {
				t.Errorf("mount %+v, volume fs %s device %s; want %s on %s", m, v.FSType, v.Device, tt.fs, v.Device)
			}
			have := strings.Split(m.AllOptions(), ",")
			for _, o := range tt.wantOpts {
				if !containsStr(have, o) {
					t.Errorf("mount options %s lack %s", m.AllOptions(), o)
				}
			}
			if v.MountOptions != m.AllOptions() {
				t.Errorf("Volume.MountOptions = %q, kernel says %q", v.MountOptions, m.AllOptions())
			}
			if b := backingFile(v.Device); b != v.Image {
				t.Errorf("%s backed by %q, want %s", v.Device, b, v.Image)
			}
			if fi, err := os.Stat(v.Image); err != nil || fi.Size() != tt.size || v.Size != tt.size {
				t.Errorf("image %s: %v %v, Size %d; want %d bytes", v.Image, fi, err, v.Size, tt.size)
			}
			data := writeSynced(t, v.Dir)
			if !imageContains(t, v.Image, data) {
				t.Errorf("data written and fsynced in %s is not in the image %s", v.Dir, v.Image)
			}
			if tt.checkMkfs != nil {
				tt.checkMkfs(t, v.Device)
			}
			for _, o := range tt.mkfs {
				if !containsStr(v.MkfsOptions, o) {
					t.Errorf("MkfsOptions %q lack %q", v.MkfsOptions, o)
				}
			}
			if err := v.Close(); err != nil {
				t.Fatal(err)
			}
			if err2 := v.Close(); err2 != nil {
				t.Errorf("second Close: %v", err2)
			}
			if _, ok := mountOf(t, v.Dir); ok {
				t.Errorf("%s still mounted", v.Dir)
			}
			if b := backingFile(v.Device); b == v.Image {
				t.Errorf("%s still bound to %s", v.Device, v.Image)
			}
			assertNothingLeft(t, imageDir)
		})
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// cancelAfter is a context that reports cancellation from its n-th check on,
// so a test can interrupt Open at each of its steps without timing.
type cancelAfter struct {
	context.Context
	n    int64
	seen atomic.Int64
	done chan struct{}
}

func newCancelAfter(n int64) *cancelAfter {
	return &cancelAfter{Context: context.Background(), n: n, done: make(chan struct{})}
}

func (c *cancelAfter) Err() error {
	if c.seen.Add(1) >= c.n {
		return context.Canceled
	}
	return nil
}

func TestLoopFailuresLeaveNothing(t *testing.T) {
	tests := []struct {
		name    string
		ctx     context.Context
		spec    Spec
		wantErr []string
	}{
		{name: "bad mkfs option", spec: Spec{FS: "ext4", MkfsOptions: []string{"-O", "no_such_feature"}},
			wantErr: []string{"mkfs.ext4 /dev/loop", "exit status", "no_such_feature"}},
		{name: "bad xfs mkfs option", spec: Spec{FS: "xfs", MkfsOptions: []string{"-b", "size=3"}},
			wantErr: []string{"mkfs.xfs /dev/loop", "exit status"}},
		{name: "bad mount option", spec: Spec{FS: "ext4", MountOptions: "data=nonsense"},
			wantErr: []string{"mount /dev/loop", "data=nonsense", "invalid argument"}},
		{name: "xfs too small", spec: Spec{FS: "xfs", Size: 16 << 20}, wantErr: []string{"mkfs.xfs", "exit status"}},
		{name: "cancelled before", ctx: newCancelAfter(1), spec: Spec{FS: "ext4"}, wantErr: []string{"context canceled"}},
		{name: "cancelled after mkfs", ctx: newCancelAfter(2), spec: Spec{FS: "ext4"}, wantErr: []string{"context canceled"}},
		{name: "unknown fs", spec: Spec{FS: "zfs"}, wantErr: []string{`filesystem "zfs"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			volumetest.NeedRoot(t, "ext4", "xfs")
			isolate(t)
			imageDir := t.TempDir()
			tt.spec.Backend, tt.spec.ImageDir = "loop", imageDir
			if tt.spec.Size == 0 {
				tt.spec.Size = 64 << 20
			}
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			v, err := Open(ctx, tt.spec)
			if err == nil {
				v.Close()
				t.Fatal("Open succeeded")
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			assertNothingLeft(t, imageDir)
		})
	}
}

// losetup attaches a fresh image to a loop device the way a user's disk
// would be there before droidprof: by someone else.
func losetup(t *testing.T, size int64, head []byte) (dev, image string) {
	t.Helper()
	tool := testenv.Tool(t, "losetup", "mount")
	image = filepath.Join(t.TempDir(), "disk.img")
	f, err := os.Create(image)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(head); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, err := exec.Command(tool, "--find", "--show", image).CombinedOutput()
	if err != nil {
		t.Fatalf("losetup: %v\n%s", err, out)
	}
	dev = strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command(tool, "-d", dev).Run() })
	return dev, image
}

func TestDevice(t *testing.T) {
	volumetest.NeedRoot(t, "ext4", "xfs")
	isolate(t)
	head := bytes.Repeat([]byte("droidprof device test, not a filesystem. "), 2000)
	dev, image := losetup(t, 512<<20, head)
	ctx := context.Background()

	// An unformatted device is refused, and not touched.
	_, err := Open(ctx, Spec{Backend: "device", Device: dev})
	if err == nil || !strings.Contains(err.Error(), "holds no filesystem") || !strings.Contains(err.Error(), "format = true") {
		t.Fatalf("unformatted device: err = %v", err)
	}
	got := make([]byte, len(head))
	if f, err := os.Open(image); err == nil {
		io.ReadFull(f, got)
		f.Close()
	}
	if !bytes.Equal(got, head) {
		t.Fatal("Open wrote to an unformatted device without format = true")
	}

	// format = true makes the filesystem asked for.
	v, err := Open(ctx, Spec{Backend: "device", Device: dev, Format: true, FS: "xfs", MountOptions: "noatime"})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := mountOf(t, v.Dir); !ok || m.FSType != "xfs" || v.FSType != "xfs" || v.Size != 512<<20 {
		t.Errorf("formatted device: mount %+v (found %v), volume %+v", m, ok, v)
	}
	if err := os.WriteFile(filepath.Join(v.Dir, "keep.txt"), []byte("still here"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}

	// Without format the filesystem on it is mounted as it is.
	for _, fs := range []string{"", "xfs"} {
		v, err = Open(ctx, Spec{Backend: "device", Device: dev, FS: fs})
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(v.Dir, "keep.txt"))
		if string(data) != "still here" || v.FSType != "xfs" || v.MkfsOptions != nil {
			t.Errorf("fs %q: existing data %q %v, fs %s, mkfs %q", fs, data, err, v.FSType, v.MkfsOptions)
		}
		if err := v.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(ctx, Spec{Backend: "device", Device: dev, FS: "ext4"}); err == nil || !strings.Contains(err.Error(), "holds xfs, not ext4") {
		t.Errorf("fs mismatch: err = %v", err)
	}

	// A device that is in use is refused.
	mp := t.TempDir()
	if err := unix.Mount(dev, mp, "xfs", 0, ""); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, Spec{Backend: "device", Device: dev})
	unix.Unmount(mp, 0)
	if err == nil || !strings.Contains(err.Error(), "is mounted on "+mp) {
		t.Errorf("mounted device: err = %v", err)
	}
	// The device itself is never detached: it is not ours.
	if b := backingFile(dev); b != image {
		t.Errorf("%s backed by %q after the test; droidprof must leave it attached", dev, b)
	}
	for _, m := range mounts(t) {
		if strings.HasPrefix(m.MountPoint, mountParent+"/") {
			t.Errorf("still mounted: %s", m.MountPoint)
		}
	}
}

// TestReapAfterKill: a process that opened a loop volume is killed with
// SIGKILL; Reap, as the next run calls it, releases everything it left.
func TestReapAfterKill(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	isolate(t)
	imageDir := t.TempDir()
	spec, _ := json.Marshal(map[string]any{
		"Spec":     Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: imageDir, MountOptions: "noatime"},
		"StateDir": stateDir, "MountDir": mountParent,
	})
	// A live owner's volume is left alone.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(spec))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "ready ") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child: %q %v", line, err)
	}
	var v Volume
	json.Unmarshal([]byte(strings.TrimPrefix(line, "ready ")), &v)
	if err := Reap(); err != nil {
		t.Error(err)
	}
	if _, ok := mountOf(t, v.Dir); !ok {
		t.Fatalf("Reap tore down the volume of a live process")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, ok := mountOf(t, v.Dir); !ok {
		t.Fatalf("volume %s vanished with its owner; nothing left to reap", v.Dir)
	}
	if err := Reap(); err != nil {
		t.Fatal(err)
	}
	assertNothingLeft(t, imageDir)
}

func TestDirBackend(t *testing.T) {
	isolate(t)
	given := filepath.Join(t.TempDir(), "a", "b")
	tests := []struct {
		name     string
		spec     Spec
		wantGone bool
	}{
		{name: "given", spec: Spec{Dir: given}},
		{name: "temp", spec: Spec{Backend: "dir"}, wantGone: true},
		{name: "temp kept", spec: Spec{Keep: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Open(context.Background(), tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if v.Backend != "dir" || v.FSType == "" || !filepath.IsAbs(v.Dir) {
				t.Errorf("volume %+v", v)
			}
			if err := os.WriteFile(filepath.Join(v.Dir, "x"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := v.Close(); err != nil {
				t.Fatal(err)
			}
			_, err = os.Stat(v.Dir)
			if gone := errors.Is(err, os.ErrNotExist); gone != tt.wantGone {
				t.Errorf("after Close: %s gone = %v, want %v", v.Dir, gone, tt.wantGone)
			}
			if !tt.wantGone && tt.spec.Dir == "" {
				os.RemoveAll(v.Dir)
			}
		})
	}
	if ents, _ := os.ReadDir(stateDir); len(ents) > 0 {
		t.Errorf("state files left: %v", ents)
	}
}

func TestMountFlags(t *testing.T) {
	tests := []struct {
		in        string
		wantFlags uintptr
		wantData  string
	}{
		{"", 0, ""},
		{"data=journal", 0, "data=journal"},
		{"noatime,nobarrier", unix.MS_NOATIME, "nobarrier"},
		{"rw, ro ,nodev,commit=30,defaults", unix.MS_RDONLY | unix.MS_NODEV, "commit=30"},
		{"lazytime,sync,compress=zstd:3", unix.MS_LAZYTIME | unix.MS_SYNCHRONOUS, "compress=zstd:3"},
	}
	for _, tt := range tests {
		f, d := mountFlags(tt.in)
		if f != tt.wantFlags || d != tt.wantData {
			t.Errorf("mountFlags(%q) = %#x %q, want %#x %q", tt.in, f, d, tt.wantFlags, tt.wantData)
		}
	}
}

// TestProbe formats plain files (no root needed) and checks that probe
// names each filesystem; the formatting tools are the oracle.
func TestProbe(t *testing.T) {
	tests := []struct {
		want string
		pkg  string
		args []string
	}{
		{"ext4", "e2fsprogs", []string{"mkfs.ext4", "-F", "-q"}},
		{"ext3", "e2fsprogs", []string{"mkfs.ext3", "-F", "-q"}},
		{"ext2", "e2fsprogs", []string{"mkfs.ext2", "-F", "-q"}},
		{"xfs", "xfsprogs", []string{"mkfs.xfs", "-f", "-q"}},
		{"btrfs", "btrfs-progs", []string{"mkfs.btrfs", "-f", "-q"}},
		{"", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			img := filepath.Join(t.TempDir(), "img")
			f, err := os.Create(img)
			if err != nil {
				t.Fatal(err)
			}
			f.Truncate(400 << 20)
			f.Close()
			if tt.args != nil {
				tool := testenv.Tool(t, tt.args[0], tt.pkg)
				if out, err := exec.Command(tool, append(tt.args[1:], img)...).CombinedOutput(); err != nil {
					t.Fatalf("%v: %v\n%s", tt.args, err, out)
				}
			}
			f, err = os.Open(img)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := probe(f)
			if err != nil || got != tt.want {
				t.Errorf("probe = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestUntrustedStateDir: state another user could write is never acted on.
func TestUntrustedStateDir(t *testing.T) {
	isolate(t)
	if err := os.Mkdir(stateDir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(stateDir, 0o777)
	victim := t.TempDir()
	planted, _ := json.Marshal(state{Pid: 1, Backend: "dir", TempDir: victim})
	if err := os.WriteFile(filepath.Join(stateDir, "1-1.json"), planted, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Reap(); err == nil || !strings.Contains(err.Error(), "not a private directory") {
		t.Errorf("Reap over a world-writable state directory: %v", err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("Reap acted on planted state: %v", err)
	}
	// A temporary directory works without its state, only not after a crash.
	v, err := Open(context.Background(), Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Close(); err != nil {
		t.Error(err)
	}
	if os.Geteuid() == 0 {
		_, err := Open(context.Background(), Spec{Backend: "loop", ImageDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), "not a private directory") {
			t.Errorf("loop volume with a world-writable state directory: %v", err)
		}
	}
}

func TestNeedsRoot(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("runs as root: the refusal cannot be observed")
	}
	for _, b := range []string{"loop", "device"} {
		if _, err := Open(context.Background(), Spec{Backend: b, Device: "/dev/null"}); err == nil || !strings.Contains(err.Error(), "needs root") {
			t.Errorf("%s as non-root: err = %v", b, err)
		}
	}
}
