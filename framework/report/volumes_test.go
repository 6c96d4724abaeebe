package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
)

func TestStorageVolumes(t *testing.T) {
	tests := []struct {
		name string
		vols []results.Volume
		want []string
		not  []string
	}{
		{"one", []results.Volume{{Backend: "loop", FSType: "ext4", SizeBytes: 1 << 30, Device: "/dev/loop3", Dir: "/tmp/m",
			MountOptions: "rw,relatime,data=journal", MkfsOptions: []string{"-O", "^has_journal"}}},
			[]string{"| storage | loop ext4 1.0 GiB on /dev/loop3 at /tmp/m; mount rw,relatime,data=journal; mkfs -O ^has\\_journal |"},
			[]string{"storage backend"}},
		{"per cell", []results.Volume{
			{Backend: "loop", FSType: "ext4", Cells: []string{"fs=ext4"}},
			{Backend: "loop", FSType: "xfs", Cells: []string{"fs=xfs"}}},
			[]string{"| storage 1 (fs=ext4) | loop ext4 |", "| storage 2 (fs=xfs) | loop xfs |"}, nil},
		{"old run", nil, []string{"| storage backend | dir |", "| filesystem | ext4 |"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := &results.Results{RunID: "x", Fingerprint: results.Fingerprint{StorageBackend: "dir", FSType: "ext4", Volumes: tt.vols}}
			if err := Write(dir, r); err != nil {
				t.Fatal(err)
			}
			md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(md), w) {
					t.Errorf("report lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(string(md), w) {
					t.Errorf("report has %q", w)
				}
			}
		})
	}
}
