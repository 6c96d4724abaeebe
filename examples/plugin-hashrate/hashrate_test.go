package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
)

func TestInProcess(t *testing.T) {
	c := sdktest.Start(t, plugin())
	sdktest.Conformance(t, c)
	exercise(t, c)
}

// TestBinary runs the conformance kit against the built binary, launched the
// way the droidprof host launches it.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "droidprof-plugin-hashrate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	c := sdktest.Exec(t, bin)
	sdktest.Conformance(t, c)
	exercise(t, c)
}

func exercise(t *testing.T, c *sdktest.Conn) {
	ctx := context.Background()
	var steps []*sdk.StepArtifacts
	runDir := t.TempDir()
	for i, alg := range []string{"sha256", "md5"} {
		out, err := c.Collect(ctx, "hashrate", map[string]any{"algorithm": alg, "size": 1 << 20}, sdktest.CollectOptions{RunDir: runDir, Repetition: i})
		if err != nil {
			t.Fatalf("collect %s: %v", alg, err)
		}
		if len(out.Artifacts) != 1 || out.Artifacts[0].Name != "result.json" {
			t.Fatalf("artifacts = %v", out.Artifacts)
		}
		steps = append(steps, out.Step("hashrate.hashrate", map[string]string{"alg": alg}, i))
	}
	resp, err := c.Analyze(ctx, "hashrate", nil, runDir, steps)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Metrics) != 2 || len(resp.Tables) != 1 || len(resp.Artifacts) != 1 {
		t.Fatalf("analysis = %v", resp)
	}
	for _, m := range resp.Metrics {
		if m.Name != "throughput" || m.Unit != "MB/s" || m.Samples[0] <= 0 {
			t.Errorf("metric = %v", m)
		}
	}
}
