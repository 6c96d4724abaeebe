package dpa

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/plugins/dpa/trace"
)

func TestConformance(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	sdktest.Conformance(t, c)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

// The collector traces a recursive workload: every activation of fib is
// recorded with balanced enter/exit events, the trace loads back, and the
// calibration is plausible.
func TestDPACollector(t *testing.T) {
	for _, buffer := range []int{65536, 0} {
		c := sdktest.Start(t, Plugin())
		out, err := c.Collect(context.Background(), "dpa", map[string]any{"workload": "dpa-fib", "args": []string{"12"}, "buffer_records": buffer},
			sdktest.CollectOptions{StepID: "fib"})
		if err != nil {
			t.Fatal(err)
		}
		var r Result
		readJSON(t, filepath.Join(out.StepDir, ResultFile), &r)
		if r.ExitCode != 0 || r.Method != "Ldpa/Fib;.fib:(I)I" || r.Records == 0 {
			t.Fatalf("result %+v", r)
		}
		tr, err := trace.Load(filepath.Join(out.StepDir, trace.RecordsFile), filepath.Join(out.StepDir, trace.MetaFile))
		if err != nil {
			t.Fatal(err)
		}
		byID := tr.MethodByID()
		fibEnters, depth := 0, map[uint32]int{}
		for i, e := range tr.Events {
			switch e.Action {
			case trace.Enter:
				depth[e.Thread]++
				if m := byID[e.Method]; m != nil && m.Class == "dpa.Fib" && m.Name == "fib" {
					fibEnters++
				}
			default:
				depth[e.Thread]--
			}
			if e.Action == trace.Enter && int(e.Depth) != depth[e.Thread] || e.Action != trace.Enter && int(e.Depth) != depth[e.Thread]+1 {
				t.Fatalf("event %d: depth %d, stack %d", i, e.Depth, depth[e.Thread])
			}
		}
		// fib(12) makes 2*fib(13)-1 = 465 calls.
		if fibEnters != 465 {
			t.Errorf("buffer %d: %d fib activations, want 465", buffer, fibEnters)
		}
		if tr.ClockOverhead <= 0 || tr.EventOverhead < tr.ClockOverhead || len(tr.Threads) == 0 || tr.Threads[0].Name != "main" {
			t.Errorf("calibration %v / %v, threads %+v", tr.ClockOverhead, tr.EventOverhead, tr.Threads)
		}
		t.Logf("buffer %d: clock read %v, event %v, %d events", buffer, tr.ClockOverhead, tr.EventOverhead, len(tr.Events))
	}
}

func TestBaselineCollector(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	out, err := c.Collect(context.Background(), "baseline", map[string]any{"workload": "dpa-fib", "args": []string{"15"}}, sdktest.CollectOptions{StepID: "fib"})
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	readJSON(t, filepath.Join(out.StepDir, ResultFile), &r)
	if r.ExitCode != 0 || r.RunNanos <= 0 || r.MethodNanos["dpa.Fib.fib"] <= 0 || r.MethodNanos["dpa.Fib.fib"] > r.RunNanos {
		t.Fatalf("result %+v", r)
	}
}
