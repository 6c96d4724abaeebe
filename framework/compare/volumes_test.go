package compare

import (
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
)

func TestDiffVolumes(t *testing.T) {
	ext4 := results.Volume{Backend: "loop", FSType: "ext4", MountOptions: "rw,relatime,data=journal", Device: "/dev/loop3",
		Image: "/var/tmp/droidprof-1.img", Dir: "/tmp/droidprof-mnt-1", SizeBytes: 1 << 30, Cells: []string{"fs=ext4"}}
	xfs := results.Volume{Backend: "loop", FSType: "xfs", MountOptions: "rw,relatime", Device: "/dev/loop4", SizeBytes: 1 << 30, Cells: []string{"fs=xfs"}}
	with := func(vs ...results.Volume) results.Fingerprint {
		var f results.Fingerprint
		f.Volumes = vs
		return f
	}
	tests := []struct {
		name string
		a, b results.Fingerprint
		want []string
	}{
		{"same but for paths", with(ext4, xfs), with(func() results.Volume {
			v := ext4
			v.Device, v.Image, v.Dir = "/dev/loop7", "/var/tmp/droidprof-2.img", "/tmp/droidprof-mnt-2"
			return v
		}(), xfs), nil},
		{"mount and mkfs options", with(ext4), with(func() results.Volume {
			v := ext4
			v.MountOptions, v.MkfsOptions, v.SizeBytes = "rw,relatime", []string{"-O", "^has_journal"}, 2<<30
			return v
		}()), []string{
			"storage mount options: rw,relatime,data=journal vs rw,relatime",
			"storage mkfs options: (unknown) vs -O ^has_journal",
			"storage size: 1.0 GiB vs 2.0 GiB",
		}},
		{"matched by cell", with(ext4, xfs), with(func() results.Volume { v := xfs; v.MountOptions = "rw,noatime"; return v }(), ext4), []string{
			"storage 2 (fs=xfs) mount options: rw,relatime vs rw,noatime",
		}},
		{"fewer volumes", with(ext4, xfs), with(ext4), []string{"storage volumes: 2 vs 1"}},
		{"device", with(results.Volume{Backend: "device", FSType: "ext4", Device: "/dev/sdb"}),
			with(results.Volume{Backend: "device", FSType: "ext4", Device: "/dev/sdc"}), []string{"storage device: /dev/sdb vs /dev/sdc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range DiffFingerprints(tt.a, tt.b) {
				got = append(got, d.Field+": "+d.Old+" vs "+d.New)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("diffs\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
