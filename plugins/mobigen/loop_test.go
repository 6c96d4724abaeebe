package mobigen

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
)

// TestFilesystemMatrix is configs/mobigen-sqlite.hcl at test size: the
// sqlite3 capture, made once, replayed faithfully on fresh ext4, xfs and
// btrfs loop volumes, and the analyzer's total I/O time per filesystem
// (Fig. 16 in kind). Needs root.
func TestFilesystemMatrix(t *testing.T) {
	fss := []string{"ext4", "xfs", "btrfs"}
	volumetest.NeedRoot(t, fss...)
	testenv.Tool(t, "strace", "strace")
	testenv.Tool(t, "sqlite3", "sqlite3")
	sql, err := filepath.Abs("../../configs/mobigen-insert.sql")
	if err != nil {
		t.Fatal(err)
	}
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	images := t.TempDir()
	var steps []*sdk.StepArtifacts
	for i, fs := range fss {
		v, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: fs, Size: 320 << 20, ImageDir: images})
		if err != nil {
			t.Fatal(err)
		}
		labels := map[string]string{"fs": fs}
		out, r := collectStep(t, c, map[string]any{"command": []string{"sqlite3", "feed.db"}, "stdin": sql},
			sdktest.CollectOptions{RunDir: run, StepID: fs, StorageDir: v.Dir, Labels: labels})
		mp, img, dev := v.Dir, v.Image, v.Device
		if err := v.Close(); err != nil {
			t.Fatal(err)
		}
		volumetest.Released(t, mp, img, dev)
		checkReplay(t, r)
		if r.Reused != (i > 0) {
			t.Errorf("%s: reused = %v", fs, r.Reused)
		}
		steps = append(steps, out.Step("mobigen.mobigen", labels, 0))
	}
	volumetest.EmptyDir(t, images)
	res, err := c.Analyze(context.Background(), "mobigen", nil, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]float64{}
	for _, m := range res.Metrics {
		if m.Name == MetricIOTime && len(m.Samples) == 1 && m.Samples[0] > 0 {
			seen[m.Labels["fs"]] = m.Samples[0]
		}
	}
	if len(seen) != len(fss) {
		t.Errorf("io_time per filesystem: %v", seen)
	}
	t.Logf("total I/O time per filesystem: %v", seen)
}
