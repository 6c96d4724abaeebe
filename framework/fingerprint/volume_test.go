package fingerprint

import (
	"testing"

	"github.com/droidprof/droidprof/framework/results"
)

func TestAddVolume(t *testing.T) {
	var fp results.Fingerprint
	steps := []struct {
		v                  results.Volume
		backend, fs, mopts string
	}{
		{results.Volume{Backend: "loop", FSType: "ext4", MountOptions: "rw,noatime", Dir: "/m1"}, "loop", "ext4", "rw,noatime"},
		{results.Volume{Backend: "loop", FSType: "xfs", MountOptions: "rw,noatime", Dir: "/m2"}, "loop", "ext4, xfs", "rw,noatime"},
		{results.Volume{Backend: "loop", FSType: "btrfs", MountOptions: "rw,relatime", Dir: "/m3"}, "loop", "ext4, xfs, btrfs", "rw,noatime, rw,relatime"},
	}
	for i, s := range steps {
		AddVolume(&fp, s.v)
		if len(fp.Volumes) != i+1 || fp.StorageBackend != s.backend || fp.FSType != s.fs || fp.MountOptions != s.mopts {
			t.Errorf("after volume %d: %d volumes, backend %q fs %q mount %q", i+1, len(fp.Volumes), fp.StorageBackend, fp.FSType, fp.MountOptions)
		}
	}
	if fp.StorageDir != "/m1, /m2, /m3" {
		t.Errorf("storage dir %q", fp.StorageDir)
	}
}
