package push

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFiles: a push sends the run's results, configs, reports and analysis;
// the raw artifacts only when asked; never the logs, the lock, temporary
// files or the analyses droidprof analyze kept.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{
		"results.json", "config.resolved.json", "experiment.hcl", "report.md", "report.html", "run.lock", "results.json.tmp", ".hidden",
		"analysis/dpa.dpa/fig.svg", "analysis/dpa.dpa/deep/t.csv",
		"steps/s1/trace.bin", "logs/host.log", "previous-analyses/001/results.json",
	} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := []string{"analysis/dpa.dpa/deep/t.csv", "analysis/dpa.dpa/fig.svg", "config.resolved.json", "experiment.hcl", "report.html", "report.md", "results.json"}
	tests := []struct {
		artifacts bool
		want      []string
	}{
		{false, base},
		{true, append(slices.Clone(base), "steps/s1/trace.bin")},
	}
	for _, tt := range tests {
		files, err := Files(dir, tt.artifacts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			got = append(got, f.Path)
			if f.Size != int64(len(f.Path)) || len(f.SHA256) != 64 {
				t.Errorf("%s: size %d, sha256 %q", f.Path, f.Size, f.SHA256)
			}
		}
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("artifacts=%v: %v, want %v", tt.artifacts, got, tt.want)
		}
	}
}
