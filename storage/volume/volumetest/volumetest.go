// Package volumetest holds what tests of loop and device volumes share:
// the skip-or-fail rule for root and the mkfs tools, and the check that a
// volume left nothing behind.
package volumetest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/fsinfo"
)

// mkfsPackages are the Debian packages of the mkfs tools.
var mkfsPackages = map[string]string{"ext4": "e2fsprogs", "xfs": "xfsprogs", "btrfs": "btrfs-progs"}

// NeedRoot skips (or, in CI, fails) a test that makes volumes unless it
// runs as root and mkfs.FS is installed for every filesystem named.
func NeedRoot(t testing.TB, fs ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		testenv.SkipOrFail(t, "loop and device volumes need root")
	}
	for _, f := range fs {
		testenv.Tool(t, "mkfs."+f, mkfsPackages[f])
	}
}

// Released checks that a volume is gone: nothing mounted at mountPoint,
// neither it nor image on disk, and device (if any) no longer bound to
// image.
func Released(t testing.TB, mountPoint, image, device string) {
	t.Helper()
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	mounts, err := fsinfo.ParseMountInfo(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mounts {
		if mountPoint != "" && m.MountPoint == mountPoint {
			t.Errorf("%s still mounted", mountPoint)
		}
	}
	for _, p := range []string{mountPoint, image} {
		if _, err := os.Stat(p); p != "" && !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", p, err)
		}
	}
	if device == "" || image == "" {
		return
	}
	data, _ := os.ReadFile(filepath.Join("/sys/block", filepath.Base(device), "loop", "backing_file"))
	if b := strings.TrimSpace(string(data)); b != "" && strings.HasPrefix(b, image) {
		t.Errorf("%s still bound to %s", device, b)
	}
}

// EmptyDir checks that dir (an image directory) holds nothing.
func EmptyDir(t testing.TB, dir string) {
	t.Helper()
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("%s not empty: %v", dir, ents)
	}
}
