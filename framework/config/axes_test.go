package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestStepAxes: a collect step varies only with the matrix axes its own
// block refers to and those the storage block refers to; its cells are the
// distinct combinations of those axes, each pointing at the first matrix
// cell with its values.
func TestStepAxes(t *testing.T) {
	const src = `experiment "a" {
  repeat = 2
  warmup = 1
  storage {
    backend = "loop"
    fs      = STORAGE_FS
  }
  matrix {
    fs   = ["ext4", "xfs"]
    mode = [0, 1]
    sync = [0, 2]
  }
  collect "mobibench" {
    access    = matrix.mode
    sync      = matrix.sync
    file_size = "1MiB"
  }
  collect "mobibench" "fio" {
    threads = matrix.sync + 1
  }
  collect "dpa" {
    engine = "x"
  }
}
`
	type step struct {
		axes    []string
		cells   []string
		indices []int
	}
	tests := []struct {
		name      string
		storageFS string
		opt       Options
		want      []step
		steps     int
	}{
		{"storage constant", `"ext4"`, Options{}, []step{
			{[]string{"mode", "sync"}, []string{"mode=0,sync=0", "mode=0,sync=2", "mode=1,sync=0", "mode=1,sync=2"}, []int{0, 1, 2, 3}},
			{[]string{"sync"}, []string{"sync=0", "sync=2"}, []int{0, 1}},
			{[]string{}, []string{""}, []int{0}},
		}, 3 * (4 + 2 + 1)},
		{"storage follows fs", `matrix.fs`, Options{}, []step{
			{[]string{"fs", "mode", "sync"}, []string{
				"fs=ext4,mode=0,sync=0", "fs=ext4,mode=0,sync=2", "fs=ext4,mode=1,sync=0", "fs=ext4,mode=1,sync=2",
				"fs=xfs,mode=0,sync=0", "fs=xfs,mode=0,sync=2", "fs=xfs,mode=1,sync=0", "fs=xfs,mode=1,sync=2"}, []int{0, 1, 2, 3, 4, 5, 6, 7}},
			{[]string{"fs", "sync"}, []string{"fs=ext4,sync=0", "fs=ext4,sync=2", "fs=xfs,sync=0", "fs=xfs,sync=2"}, []int{0, 1, 4, 5}},
			{[]string{"fs"}, []string{"fs=ext4", "fs=xfs"}, []int{0, 4}},
		}, 3 * (8 + 4 + 2)},
		{"an override replaces the reference", `"ext4"`, Options{Set: []string{"collect.mobibench.fio.threads=2", "collect.mobibench.access=1"}}, []step{
			{[]string{"sync"}, []string{"sync=0", "sync=2"}, []int{0, 1}},
			{[]string{}, []string{""}, []int{0}},
			{[]string{}, []string{""}, []int{0}},
		}, 3 * (2 + 1 + 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPlan(t, "a.hcl", strings.ReplaceAll(src, "STORAGE_FS", tt.storageFS), tt.opt)
			if len(p.Collect) != len(tt.want) {
				t.Fatalf("%d collect steps", len(p.Collect))
			}
			for i, s := range p.Collect {
				var got step
				got.axes = append([]string{}, s.Axes...)
				for _, c := range s.Cells {
					got.cells = append(got.cells, c.Name())
					got.indices = append(got.indices, c.Index)
					if len(c.Keys) != len(s.Axes) || len(c.Labels) != len(s.Axes) || len(c.Values) != len(s.Axes) {
						t.Errorf("step %d cell %q carries more than its axes: %+v", i, c.Name(), c)
					}
					// The cell's config and storage are those of the matrix
					// cell it stands for.
					full := p.Cells[c.Index]
					for _, k := range c.Keys {
						if full.Labels[k] != c.Labels[k] {
							t.Errorf("step %d cell %q points at matrix cell %q", i, c.Name(), full.Name())
						}
					}
				}
				if !reflect.DeepEqual(got, tt.want[i]) {
					t.Errorf("step %s: axes %q cells %q indices %v, want %q %q %v", s.Block, got.axes, got.cells, got.indices,
						tt.want[i].axes, tt.want[i].cells, tt.want[i].indices)
				}
			}
			if n := p.CollectSteps(); n != tt.steps {
				t.Errorf("CollectSteps() = %d, want %d", n, tt.steps)
			}
			// config.resolved.json shows what each collector varies with.
			for i, c := range p.Resolved()["collect"].([]any) {
				m := c.(map[string]any)
				if axes := m["axes"].([]string); !reflect.DeepEqual(axes, tt.want[i].axes) {
					t.Errorf("resolved collect[%d] axes %q, want %q", i, axes, tt.want[i].axes)
				}
				if cells, configs := m["cells"].([]any), m["configs"].([]any); len(cells) != len(tt.want[i].cells) || len(configs) != len(cells) {
					t.Errorf("resolved collect[%d]: %d cells, %d configs, want %d of each", i, len(cells), len(configs), len(tt.want[i].cells))
				}
			}
		})
	}
}

// TestUnusedAxisWarns: an axis nothing refers to multiplies nothing, which
// is worth a warning, not an error.
func TestUnusedAxisWarns(t *testing.T) {
	p := mustPlan(t, "u.hcl", `experiment "u" {
  matrix {
    mode = [0, 1]
    rep  = [1, 2, 3]
  }
  collect "mobibench" {
    access    = matrix.mode
    file_size = "1MiB"
  }
}
`, Options{Set: []string{"matrix.extra=a,b"}})
	var got []string
	for _, w := range p.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		`u.hcl:4:12: Unused matrix axis: no collect block or storage setting refers to matrix.rep, so it changes nothing; use repeat for more samples`,
		`--set matrix.extra=a,b: Unused matrix axis: no collect block or storage setting refers to matrix.extra, so it changes nothing; use repeat for more samples`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings\n%q\nwant\n%q", got, want)
	}
}

// TestUnknownAxisBesideBadAxis: a misspelled axis next to a matrix whose
// only axis is invalid is not reported as "the experiment has no matrix".
func TestUnknownAxisBesideBadAxis(t *testing.T) {
	_, err := validate(t, "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    fs      = matrix.fz
  }
  matrix {
    fs = ["ext4", "ext4"]
  }
  collect "mobibench" {
    label     = matrix.fz
    file_size = "1MiB"
  }
}
`, Options{})
	checkErr(t, err, `e.hcl:7:10: Invalid matrix axis: axis "fs" lists ext4 twice`,
		`e.hcl:4:15: Unknown matrix axis: There is no matrix axis named "fz". Did you mean "fs"?`,
		`e.hcl:10:17: Unknown matrix axis: There is no matrix axis named "fz". Did you mean "fs"?`)
	if strings.Contains(err.Error(), "has no matrix") {
		t.Errorf("error claims there is no matrix:\n%v", err)
	}
}
