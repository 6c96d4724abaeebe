package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/internal/testplugin"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
)

// assertReleased checks that nothing of the run's volumes survived: no
// mount, no loop device bound to the image, no image, no mount point.
func assertReleased(t *testing.T, vols []results.Volume, imageDir string) {
	t.Helper()
	for _, v := range vols {
		volumetest.Released(t, v.Dir, v.Image, v.Device)
	}
	volumetest.EmptyDir(t, imageDir)
}

// TestLoopStorageSurvivesPluginCrash: the collector dies in the middle of a
// step on a loop volume; the run reports it and releases the volume.
func TestLoopStorageSurvivesPluginCrash(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	imageDir := t.TempDir()
	r, plan := setup(t, `
experiment "e" {
  storage {
    backend       = "loop"
    size          = "64MiB"
    image_dir     = "`+imageDir+`"
    mount_options = "data=journal"
  }
  collect "testplug" "crash" {}
  collect "testplug" "ok" {}
}`)
	res, _, err := r.Run(context.Background(), plan)
	if err == nil || res.Status != results.StatusPartial || !strings.Contains(res.Steps[0].Error, "plugin testplug crashed") {
		t.Fatalf("err = %v, status %s, steps %+v; want the crash reported", err, res.Status, res.Steps)
	}
	if res.Steps[1].Status != "ok" {
		t.Errorf("step after the crash: %+v", res.Steps[1])
	}
	vols := res.Fingerprint.Volumes
	if len(vols) != 1 || vols[0].Backend != "loop" || vols[0].FSType != "ext4" || !strings.Contains(vols[0].MountOptions, "data=journal") ||
		vols[0].SizeBytes != 64<<20 || !strings.HasPrefix(vols[0].Device, "/dev/loop") {
		t.Errorf("fingerprint volumes %+v", vols)
	}
	if res.Fingerprint.FSType != "ext4" || res.Fingerprint.StorageBackend != "loop" {
		t.Errorf("fingerprint storage summary %+v", res.Fingerprint)
	}
	assertReleased(t, vols, imageDir)
}

// TestStoragePerMatrixCell: fs = matrix.fs gives every cell its own
// filesystem, one volume each, all recorded and all released.
func TestStoragePerMatrixCell(t *testing.T) {
	volumetest.NeedRoot(t, "ext4", "xfs", "btrfs")
	imageDir := t.TempDir()
	r, plan := setup(t, `
experiment "e" {
  repeat = 2
  storage {
    backend       = "loop"
    fs            = matrix.fs
    size          = "320MiB"
    image_dir     = "`+imageDir+`"
    mount_options = "noatime"
  }
  matrix {
    fs = ["ext4", "xfs", "btrfs"]
  }
  collect "testplug" "storage" {}
}`)
	res, dir, err := r.Run(context.Background(), plan)
	if err != nil || res.Status != results.StatusComplete || len(res.Steps) != 6 {
		t.Fatalf("err = %v, status %s, %d steps", err, res.Status, len(res.Steps))
	}
	vols := res.Fingerprint.Volumes
	if len(vols) != 3 {
		t.Fatalf("%d volumes in the fingerprint, want 3: %+v", len(vols), vols)
	}
	for i, fs := range []string{"ext4", "xfs", "btrfs"} {
		v := vols[i]
		if v.FSType != fs || len(v.Cells) != 1 || v.Cells[0] != "fs="+fs || !strings.Contains(v.MountOptions, "noatime") {
			t.Errorf("volume %d: %+v, want %s for cell fs=%s", i, v, fs, fs)
		}
	}
	if res.Fingerprint.FSType != "ext4, xfs, btrfs" {
		t.Errorf("fingerprint fs summary %q", res.Fingerprint.FSType)
	}
	assertReleased(t, vols, imageDir)
	// Each step ran on its cell's filesystem: the collector wrote there and
	// the runner told it which one it was.
	for _, s := range res.Steps {
		data, err := os.ReadFile(filepath.Join(dir, s.Dir, "storage.json"))
		if err != nil {
			t.Fatal(err)
		}
		var seen testplugin.StorageSeen
		if err := json.Unmarshal(data, &seen); err != nil {
			t.Fatal(err)
		}
		v := vols[map[string]int{"ext4": 0, "xfs": 1, "btrfs": 2}[s.Labels["fs"]]]
		if seen.Backend != "loop" || seen.FSType != s.Labels["fs"] || seen.Dir != v.Dir ||
			seen.Options["mount_options"] != v.MountOptions || seen.Options["device"] != v.Device {
			t.Errorf("step %s was given storage %+v; its volume is %+v", s.ID, seen, v)
		}
	}
}

// TestLoopStorageReleasedOnInterrupt: Ctrl-C in the middle of a step on a
// loop volume still releases it.
func TestLoopStorageReleasedOnInterrupt(t *testing.T) {
	volumetest.NeedRoot(t, "xfs")
	imageDir := t.TempDir()
	r, plan := setup(t, `
experiment "e" {
  repeat = 2
  storage {
    backend   = "loop"
    fs        = "xfs"
    size      = "320MiB"
    image_dir = "`+imageDir+`"
  }
  collect "testplug" "hang" {}
}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.Progress = cancelOnProgress{cancel}
	res, _, err := r.Run(ctx, plan)
	if err == nil || res.Status != results.StatusIncomplete || len(res.Fingerprint.Volumes) != 1 {
		t.Fatalf("err = %v, status %s, volumes %+v", err, res.Status, res.Fingerprint.Volumes)
	}
	assertReleased(t, res.Fingerprint.Volumes, imageDir)
}

// TestStorageSetupFailure: a volume that cannot be made fails the steps of
// its cells with the tool's own words, and leaves nothing behind.
func TestStorageSetupFailure(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	imageDir := t.TempDir()
	r, plan := setup(t, `
experiment "e" {
  repeat = 2
  storage {
    backend      = "loop"
    size         = "64MiB"
    image_dir    = "`+imageDir+`"
    mkfs_options = ["-O", "no_such_feature"]
  }
  collect "testplug" "ok" {}
}`)
	res, _, err := r.Run(context.Background(), plan)
	if err == nil || res.Status != results.StatusFailed || len(res.Steps) != 2 {
		t.Fatalf("err = %v, status %s, steps %+v", err, res.Status, res.Steps)
	}
	for _, s := range res.Steps {
		if s.Status != "failed" || !strings.Contains(s.Error, "storage: mkfs.ext4 /dev/loop") || !strings.Contains(s.Error, "no_such_feature") {
			t.Errorf("step %s: %s %q", s.ID, s.Status, s.Error)
		}
	}
	if ents, _ := os.ReadDir(imageDir); len(ents) > 0 {
		t.Errorf("image directory not empty: %v", ents)
	}
}

// TestDirStorageFingerprint: the default storage, a fresh directory, is
// recorded as the run's one volume and removed afterwards.
func TestDirStorageFingerprint(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  matrix {
    v = [1, 2]
  }
  collect "testplug" "storage" {
    value = matrix.v
  }
}`)
	res, _, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	vols := res.Fingerprint.Volumes
	if len(vols) != 1 || vols[0].Backend != "dir" || vols[0].FSType == "" || len(vols[0].Cells) != 2 {
		t.Fatalf("volumes %+v", vols)
	}
	if res.Fingerprint.StorageDir != vols[0].Dir || res.Fingerprint.FSType != vols[0].FSType {
		t.Errorf("fingerprint summary %+v", res.Fingerprint)
	}
	if _, err := os.Stat(vols[0].Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary storage directory %s left behind: %v", vols[0].Dir, err)
	}
}
