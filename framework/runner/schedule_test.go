package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/droidprof/droidprof/framework/internal/testplugin"
	"github.com/droidprof/droidprof/framework/results"
)

// TestScheduleRunsCollectorsPerOwnAxes: a collector runs once per distinct
// combination of the axes it refers to, not once per matrix cell; one that
// refers to none runs once per repetition, without matrix labels. The order
// stays repetition-major.
func TestScheduleRunsCollectorsPerOwnAxes(t *testing.T) {
	r, plan := setup(t, `
experiment "e" {
  repeat = 2
  warmup = 1
  matrix {
    v = [1, 2]
    w = ["a", "b"]
  }
  collect "testplug" "ok" {
    value = matrix.v * 10
  }
  collect "testplug" "storage" {}
  analyze "testplug" {}
}`)
	res, _, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range res.Steps {
		ids = append(ids, s.ID)
		if s.Collector == "testplug.storage" && len(s.Labels) != 0 {
			t.Errorf("step %s uses no axis but carries labels %v", s.ID, s.Labels)
		}
		if s.Collector == "testplug.ok" && (len(s.Labels) != 1 || s.Labels["v"] == "") {
			t.Errorf("step %s: labels %v, want only v", s.ID, s.Labels)
		}
	}
	want := []string{
		"testplug.ok_v=1_w0", "testplug.storage_w0", "testplug.ok_v=2_w0",
		"testplug.ok_v=1_r0", "testplug.storage_r0", "testplug.ok_v=2_r0",
		"testplug.ok_v=1_r1", "testplug.storage_r1", "testplug.ok_v=2_r1",
	}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("steps\n%q\nwant\n%q", ids, want)
	}
	if n := plan.CollectSteps(); n != len(want) {
		t.Errorf("plan.CollectSteps() = %d, ran %d", n, len(want))
	}
	// The analyzer pools by labels: one metric per value of v, one sample per
	// repetition.
	got := map[string]int{}
	for _, m := range res.Metrics {
		got[results.LabelString(m.Labels)] = len(m.Samples)
	}
	if !reflect.DeepEqual(got, map[string]int{"v=1": 2, "v=2": 2}) {
		t.Errorf("metrics (labels → samples) %v", got)
	}
}

// TestScheduleStorageAxes: when the storage follows an axis, every
// collector varies with it, also one whose block refers to no axis, and
// each step gets the volume of its cell.
func TestScheduleStorageAxes(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	r, plan := setup(t, `
experiment "e" {
  storage {
    dir = matrix.d
  }
  matrix {
    d = ["`+a+`", "`+b+`"]
    v = [1, 2]
  }
  collect "testplug" "storage" {}
  collect "testplug" "ok" {
    value = matrix.v
  }
}`)
	res, dir, err := r.Run(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	var storageSteps, okSteps int
	for _, s := range res.Steps {
		switch s.Collector {
		case "testplug.storage":
			storageSteps++
			if len(s.Labels) != 1 {
				t.Errorf("step %s: labels %v, want only d", s.ID, s.Labels)
			}
			var seen testplugin.StorageSeen
			data, err := os.ReadFile(filepath.Join(dir, s.Dir, "storage.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &seen); err != nil {
				t.Fatal(err)
			}
			if seen.Dir != s.Labels["d"] {
				t.Errorf("step %s ran in %s, want its cell's %s", s.ID, seen.Dir, s.Labels["d"])
			}
		case "testplug.ok":
			okSteps++
			if len(s.Labels) != 2 {
				t.Errorf("step %s: labels %v, want d and v", s.ID, s.Labels)
			}
		}
	}
	if storageSteps != 2 || okSteps != 4 {
		t.Errorf("%d storage steps and %d ok steps, want 2 (one per d) and 4 (d × v)", storageSteps, okSteps)
	}
	if vols := res.Fingerprint.Volumes; len(vols) != 2 {
		t.Errorf("volumes %+v, want one per d", vols)
	}
}
