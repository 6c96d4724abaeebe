package mobibench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/storage/replay"
)

// TestReplayCollector replays a script that names a real file outside the
// sandbox through the plugin's RPC path: the file stays untouched, the step
// announces replay.out and replay.json, and the analyzer turns them into the
// replay metrics.
func TestReplayCollector(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "app.db")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "app.mg")
	src := strings.ReplaceAll(`0 0 open "DB" O_RDWR|O_LARGEFILE 7
0 1000 pwrite 7 0 4096
0 2000 fdatasync 7 0
0 3000 close 7 0
1 500 open data/data O_RDWR|O_CREAT|O_TRUNC|O_LARGEFILE 8
1 1500 write 8 512
1 2500 fsync 8 0
1 3500 close 8 0
1 4000 unlink "DB" 0
`, "DB", outside)
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := sdktest.Start(t, Plugin())
	run, storage := t.TempDir(), t.TempDir()
	var steps []*sdk.StepArtifacts
	for rep := 0; rep < 2; rep++ {
		labels := map[string]string{"app": "sample"}
		out, err := c.Collect(context.Background(), "mobibench", map[string]any{"replay": script}, sdktest.CollectOptions{RunDir: run, StorageDir: storage, StepID: "replay-" + string(rune('0'+rep)), Labels: labels, Repetition: rep})
		if err != nil {
			t.Fatal(err)
		}
		announced := map[string]bool{}
		for _, a := range out.Artifacts {
			announced[a.Name] = true
		}
		if !announced["replay.out"] || !announced["replay.json"] {
			t.Errorf("step %d announced %v, want replay.out and replay.json", rep, announced)
		}
		steps = append(steps, out.Step("mobibench.mobibench", labels, rep))
	}
	if data, err := os.ReadFile(outside); err != nil || string(data) != "precious" {
		t.Fatalf("the real file named by the script was touched: %q, %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(storage, replay.SandboxName)); !os.IsNotExist(err) {
		t.Errorf("sandbox left behind: %v", err)
	}
	resp, err := c.Analyze(context.Background(), "mobibench", nil, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]float64{}
	for _, m := range resp.Metrics {
		if m.Labels["app"] == "sample" {
			got[m.Name] = m.Samples
		}
	}
	for _, name := range replayMetricNames {
		if len(got[name]) != 2 {
			t.Errorf("metric %s: samples %v, want 2", name, got[name])
		}
	}
	if e := got[MetricReplayErrors]; len(e) == 2 && (e[0] != 0 || e[1] != 0) {
		t.Errorf("replay errors %v, want none", e)
	}
	if w := got[MetricReplayWall]; len(w) == 2 && w[0] < 0.004 {
		t.Errorf("replay took %v s, less than the script's 4 ms", w[0])
	}
}

func TestReplayAndDBExclusive(t *testing.T) {
	_, _, err := runMobibench(context.Background(), Config{Replay: "x.mg", DB: DBConfig{Op: "insert"}}, env{StorageDir: t.TempDir(), OutDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("err = %v", err)
	}
}
