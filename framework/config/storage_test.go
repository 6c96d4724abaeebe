package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestStorageLoop(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"e.hcl", `experiment "e" {
  storage {
    backend       = "loop"
    fs            = "xfs"
    size          = "512MiB"
    mkfs_options  = ["-m", "crc=1"]
    mount_options = "noatime,nodiratime"
    image_dir     = "images"
  }
}`},
		{"e.yaml", `experiment:
  e:
    storage:
      backend: loop
      fs: xfs
      size: 512MiB
      mkfs_options: ["-m", "crc=1"]
      mount_options: noatime,nodiratime
      image_dir: images
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPlan(t, tc.name, tc.src, Options{})
			e := p.Experiment
			want := Storage{Backend: "loop", FS: "xfs", Size: 512 << 20, MkfsOptions: []string{"-m", "crc=1"},
				MountOptions: "noatime,nodiratime", ImageDir: filepath.Join(filepath.Dir(e.File), "images"), Options: map[string]string{}}
			if !reflect.DeepEqual(e.Storage, want) || !reflect.DeepEqual(e.StorageFor(p.Cells[0]), want) {
				t.Errorf("storage %+v\nwant    %+v", e.Storage, want)
			}
		})
	}
}

func TestStorageDefaults(t *testing.T) {
	tests := []struct {
		name, storage string
		want          Storage
	}{
		{"dir", `backend = "dir"`, Storage{Backend: "dir", Options: map[string]string{}}},
		{"loop", `backend = "loop"`, Storage{Backend: "loop", FS: "ext4", Size: 1 << 30, ImageDir: "/var/tmp", Options: map[string]string{}}},
		{"device", `backend = "device"
    device = "/dev/sdz"`, Storage{Backend: "device", Device: "/dev/sdz", Options: map[string]string{}}},
		{"device format", `backend = "device"
    device = "/dev/sdz"
    format = true`, Storage{Backend: "device", Device: "/dev/sdz", Format: true, FS: "ext4", Options: map[string]string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPlan(t, "e.hcl", "experiment \"e\" {\n  storage {\n    "+tt.storage+"\n  }\n}\n", Options{})
			if !reflect.DeepEqual(p.Experiment.Storage, tt.want) {
				t.Errorf("storage %+v, want %+v", p.Experiment.Storage, tt.want)
			}
		})
	}
}

// TestStorageMatrix: storage follows the matrix (one filesystem per cell),
// in HCL and YAML, and overrides replace matrix references.
func TestStorageMatrix(t *testing.T) {
	hcl := `experiment "fs" {
  storage {
    backend       = "loop"
    fs            = matrix.fs
    mount_options = matrix.mo
  }
  matrix {
    fs = ["ext4", "xfs", "btrfs"]
    mo = ["noatime"]
  }
}`
	yaml := `experiment:
  fs:
    storage: {backend: loop, fs: "${matrix.fs}", mount_options: "${matrix.mo}"}
    matrix: {fs: [ext4, xfs, btrfs], mo: [noatime]}
`
	tests := []struct {
		name, file, src string
		opt             Options
		wantFS          []string
	}{
		{"hcl", "e.hcl", hcl, Options{}, []string{"ext4", "xfs", "btrfs"}},
		{"yaml", "e.yaml", yaml, Options{}, []string{"ext4", "xfs", "btrfs"}},
		{"set replaces the reference", "e.hcl", hcl, Options{Set: []string{"storage.fs=xfs"}}, []string{"xfs", "xfs", "xfs"}},
		{"env replaces the reference", "e.yaml", yaml, Options{Env: []string{"DROIDPROF_STORAGE__FS=btrfs"}}, []string{"btrfs", "btrfs", "btrfs"}},
		{"set the matrix axis", "e.hcl", hcl, Options{Set: []string{"matrix.fs=xfs,ext4"}}, []string{"xfs", "ext4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPlan(t, tt.file, tt.src, tt.opt)
			if len(p.Cells) != len(tt.wantFS) {
				t.Fatalf("%d cells, want %d", len(p.Cells), len(tt.wantFS))
			}
			for i, c := range p.Cells {
				st := p.Experiment.StorageFor(c)
				if st.FS != tt.wantFS[i] || st.MountOptions != "noatime" || st.Backend != "loop" || st.Size != 1<<30 {
					t.Errorf("cell %s: storage %+v, want fs %s", c.Name(), st, tt.wantFS[i])
				}
			}
			cells := p.Resolved()["cells"].([]any)
			if st := cells[len(cells)-1].(map[string]any)["storage"].(map[string]any); st["fs"] != tt.wantFS[len(cells)-1] {
				t.Errorf("resolved storage of the last cell: %v", st)
			}
		})
	}
}

func TestStorageOverrides(t *testing.T) {
	p := mustPlan(t, "e.hcl", `experiment "e" {
  storage { backend = "loop" }
}`, Options{Set: []string{"storage.fs=btrfs", "storage.size=2GiB", "storage.mkfs_options=-O,^has_journal", "storage.mount_options=data=journal"}})
	st := p.Experiment.Storage
	if st.FS != "btrfs" || st.Size != 2<<30 || !reflect.DeepEqual(st.MkfsOptions, []string{"-O", "^has_journal"}) || st.MountOptions != "data=journal" {
		t.Errorf("storage %+v", st)
	}
}

// TestStorageBackendOverride: choosing another backend with an override
// drops the file's settings for the old one (a loop config tried without
// root), but a setting the override itself gives must still fit.
func TestStorageBackendOverride(t *testing.T) {
	src := `experiment "e" {
  storage {
    backend = "loop"
    fs = matrix.fs
    size = "1GiB"
    mount_options = "noatime"
  }
  matrix {
    fs = ["ext4", "xfs"]
  }
}`
	p := mustPlan(t, "e.hcl", src, Options{Set: []string{"storage.backend=dir"}})
	for _, c := range p.Cells {
		st := p.Experiment.StorageFor(c)
		if st.Backend != "dir" || st.FS != "" || st.Size != 0 || st.MountOptions != "" {
			t.Errorf("cell %s: storage %+v, want a plain dir backend", c.Name(), st)
		}
	}
	_, err := plan(t, "e.hcl", src, Options{Set: []string{"storage.backend=dir", "storage.size=2GiB"}})
	if err == nil || !strings.Contains(err.Error(), `"size" applies to backend "loop" only`) {
		t.Errorf("size given with the dir override: err = %v", err)
	}
}

func TestStorageErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		opt             Options
		want            []string
	}{
		{"unknown fs", "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    fs = "ext5"
  }
}`, Options{}, []string{`e.hcl:4:10: Invalid value for "fs": value "ext5" is not one of ext4,xfs,btrfs. Did you mean "ext4"?`}},
		{"bad size", "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    size = "lots"
  }
}`, Options{}, []string{`e.hcl:4:12: Unsuitable value for "size"`}},
		{"zero size", "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    size = 0
  }
}`, Options{}, []string{`e.hcl:4:12: Invalid value for "size": value 0 is less than the minimum 1`}},
		{"device with loop", "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    device = "/dev/sdb"
  }
}`, Options{}, []string{`e.hcl:4:14: Argument "device" does not apply here: "device" applies to backend "device" only; this storage uses backend "loop".`}},
		{"fs with dir", "e.hcl", `experiment "e" {
  storage {
    fs = "xfs"
  }
}`, Options{}, []string{`e.hcl:3:10: Argument "fs" does not apply here: "fs" applies to backends "loop" and "device" only; this storage uses backend "dir".`}},
		{"dir with loop", "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    dir = "/x"
  }
}`, Options{}, []string{`e.hcl:4:11: Argument "dir" does not apply here`}},
		{"device without device", "e.hcl", `experiment "e" {
  storage {
    backend = "device"
  }
}`, Options{}, []string{`e.hcl:3:15: Missing device: backend "device" needs the block device to use`}},
		{"relative device", "e.hcl", `experiment "e" {
  storage {
    backend = "device"
    device = "sdb"
  }
}`, Options{}, []string{`e.hcl:4:14: Invalid value for "device": "sdb" is not an absolute path`}},
		{"mkfs options without format", "e.hcl", `experiment "e" {
  storage {
    backend = "device"
    device = "/dev/sdb"
    mkfs_options = ["-F"]
  }
}`, Options{}, []string{`e.hcl:5:20: Argument "mkfs_options" needs format = true`}},
		{"size with device", "e.hcl", `experiment "e" {
  storage {
    backend = "device"
    device = "/dev/sdb"
    size = "1GiB"
  }
}`, Options{}, []string{`e.hcl:5:12: Argument "size" does not apply here`}},
		{"unknown axis", "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    fs = matrix.fss
  }
  matrix { fs = ["xfs"] }
}`, Options{}, []string{`e.hcl:4:10: Unknown matrix axis: There is no matrix axis named "fss". Did you mean "fs"?`}},
		{"no matrix", "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    fs = matrix.fs
  }
}`, Options{}, []string{`e.hcl:4:10: Unknown matrix axis: There is no matrix axis named "fs". The experiment has no matrix.`}},
		{"bad value in one cell", "e.hcl", `experiment "e" {
  storage {
    backend = "loop"
    fs = matrix.fs
  }
  matrix { fs = ["xfs", "zfs"] }
}`, Options{}, []string{`e.hcl:4:10: Invalid value for "fs": value "zfs" is not one of ext4,xfs,btrfs.`}},
		{"backend from the matrix", "e.hcl", `experiment "e" {
  storage {
    backend = matrix.b
    fs = "xfs"
  }
  matrix { b = ["loop", "dir"] }
}`, Options{}, []string{`e.hcl:4:10: Argument "fs" does not apply here: "fs" applies to backends "loop" and "device" only; this storage uses backend "dir".`}},
		{"bad backend alone", "e.hcl", `experiment "e" {
  storage {
    backend = "lop"
    fs = "xfs"
  }
}`, Options{}, []string{`e.hcl:3:15: Invalid value for "backend": value "lop" is not one of dir,loop,device. Did you mean "loop"?`}},
		{"yaml", "e.yaml", `experiment:
  e:
    storage: {backend: loop, fs: "${matrix.fs}", format: true}
    matrix: {fs: [xfs, nilfs]}
`, Options{}, []string{
			`e.yaml:3:34: Invalid value for "fs": value "nilfs" is not one of ext4,xfs,btrfs.`,
			`e.yaml:3:58: Argument "format" does not apply here: "format" applies to backend "device" only; this storage uses backend "loop".`}},
		{"yaml partial reference", "e.yaml", `experiment:
  e:
    storage: {backend: loop, fs: "x${matrix.fs}"}
    matrix: {fs: [xfs]}
`, Options{}, []string{`e.yaml:3:34: Invalid matrix reference`}},
		{"override", "e.hcl", `experiment "e" {
  storage { backend = "loop" }
}`, Options{Set: []string{"storage.fs=zfs"}}, []string{`--set storage.fs=zfs: Invalid value for "fs": value "zfs" is not one of ext4,xfs,btrfs.`}},
		{"unknown override", "e.hcl", `experiment "e" {
  storage { backend = "loop" }
}`, Options{Set: []string{"storage.mount_option=noatime"}}, []string{`--set storage.mount_option=noatime: unknown setting "storage.mount_option"; did you mean "storage.mount_options"?`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := plan(t, tc.file, tc.src+"\n", tc.opt)
			checkErr(t, err, tc.want...)
			if n := len(err.(Diagnostics)); n != len(tc.want) {
				t.Errorf("%d diagnostics, want %d:\n%v", n, len(tc.want), err)
			}
		})
	}
}
