package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
)

// shippedConfigs are the configs in the repository's configs directory.
func shippedConfigs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../configs/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs found: %v", err)
	}
	for i, f := range files {
		if files[i], err = filepath.Abs(f); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestShippedConfigsValidate keeps every shipped config valid against the
// plugins' current schemas.
func TestShippedConfigsValidate(t *testing.T) {
	c := newCLI(t)
	for _, f := range shippedConfigs(t) {
		c.ok("validate", f)
	}
}

// ciCommand matches the "CI size" command a paper config documents in its
// header: "#   droidprof run configs/X.hcl --set a=b \" and its continuation
// lines.
var ciCommand = regexp.MustCompile(`(?m)^# CI size.*\n((?:#   .*\n)+)`)

// ciSetFlags returns the --set flags of a config's documented CI-size
// command, so the test runs exactly what the config tells users.
func ciSetFlags(t *testing.T, file string) []string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := ciCommand.FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s documents no CI-size command (a '# CI size' line followed by '#   droidprof run ...')", file)
	}
	var words []string
	for _, line := range strings.Split(strings.TrimSpace(string(m[1])), "\n") {
		line = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(line, "#")), `\`)
		words = append(words, strings.Fields(line)...)
	}
	if len(words) < 3 || words[0] != "droidprof" || words[1] != "run" || filepath.Base(words[2]) != filepath.Base(file) {
		t.Fatalf("%s: CI-size command %q does not run this config", file, words)
	}
	return words[3:]
}

// TestPaperConfigsCISized runs every paper config (configs/androstep-*.hcl)
// at the size its header documents for CI, on the loop volumes the configs
// ask for: each must complete, measure every cell, draw its chart, and leave
// no mount, loop device or image behind.
func TestPaperConfigsCISized(t *testing.T) {
	volumetest.NeedRoot(t, "ext4", "xfs", "btrfs") // the paper configs run on loop-mounted filesystems
	var paper []string
	for _, f := range shippedConfigs(t) {
		if strings.HasPrefix(filepath.Base(f), "androstep-") {
			paper = append(paper, f)
		}
	}
	if len(paper) < 6 {
		t.Fatalf("want the six AndroStep figure configs, found %d", len(paper))
	}
	for _, file := range paper {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".hcl"), func(t *testing.T) {
			c := newCLI(t)
			imageDir := t.TempDir()
			args := append([]string{"run", file}, ciSetFlags(t, file)...)
			args = append(args, "--set", "storage.image_dir="+imageDir)
			_, dir := runID(t, c.ok(args...))
			res, err := results.Read(filepath.Join(dir, results.FileName))
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != results.StatusComplete {
				t.Errorf("status %s, warnings %q", res.Status, res.Warnings)
			}
			cells := map[string]bool{}
			for _, s := range res.Steps {
				if s.Status != "ok" {
					t.Errorf("step %s: %s %s", s.ID, s.Status, s.Error)
				}
				cells[results.LabelString(s.Labels)] = true
			}
			measured := map[string]bool{}
			for _, m := range res.Metrics {
				labels := map[string]string{}
				for k, v := range m.Labels {
					if k != "collector" {
						labels[k] = v
					}
				}
				measured[results.LabelString(labels)] = true
			}
			for cell := range cells {
				if !measured[cell] {
					t.Errorf("cell %q has no metrics", cell)
				}
			}
			if len(res.Figures) == 0 {
				t.Error("the report has no chart")
			}
			if len(res.Fingerprint.Volumes) == 0 || res.Fingerprint.Volumes[0].Backend != "loop" {
				t.Errorf("volumes %+v, want loop volumes", res.Fingerprint.Volumes)
			}
			volumesReleased(t, res.Fingerprint.Volumes, imageDir)
		})
	}
}
