package mobigen

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/cleaner"
	"github.com/droidprof/droidprof/storage/strace"
)

const sampleLog = "../../configs/mobigen-sample.strace"

func TestConformance(t *testing.T) {
	sdktest.Conformance(t, sdktest.Start(t, Plugin()))
}

// collectStep runs the collector through the real gRPC path and reads
// back its result.json.
func collectStep(t *testing.T, c *sdktest.Conn, cfg map[string]any, o sdktest.CollectOptions) (*sdktest.Outcome, *Result) {
	t.Helper()
	out, err := c.Collect(context.Background(), "mobigen", cfg, o)
	if err != nil && notPermitted.MatchString(err.Error()) {
		// Capture and fidelity run strace; a container may forbid ptrace.
		testenv.SkipOrFail(t, "strace cannot trace here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile(filepath.Join(out.StepDir, ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := json.Unmarshal(js, &r); err != nil {
		t.Fatal(err)
	}
	return out, &r
}

// checkReplay asserts what a faithful replay must show whatever the
// machine's load: every call issued, none failing where the trace did not,
// fidelity 100 %.
func checkReplay(t *testing.T, r *Result) {
	t.Helper()
	if r.Replay == nil || r.Fidelity == nil {
		t.Fatalf("no replay or fidelity in the result")
	}
	if r.Replay.IOCount != r.Clean.ScriptLines || r.Replay.Errors != 0 {
		t.Errorf("replay issued %d of %d script lines, %d errors: %s", r.Replay.IOCount, r.Clean.ScriptLines, r.Replay.Errors, r.Replay.Text())
	}
	f := r.Fidelity
	if f.Expected != r.Clean.ScriptLines || f.Matched != f.Expected || f.Percent != 100 {
		t.Errorf("fidelity %d of %d (%.2f %%): %s", f.Matched, f.Expected, f.Percent, f.text())
	}
	t.Logf("timing error p50 %v p99 %v max %v over %d calls (on time: p50 %v p99 %v over %d); total I/O time %v",
		r.Replay.Lag.Median, r.Replay.Lag.P99, r.Replay.Lag.Max, r.Replay.IOCount,
		r.Replay.LagOnTime.Median, r.Replay.LagOnTime.P99, r.Replay.OnTime, r.Replay.IOTime)
}

// TestImportSample cleans and replays the shipped log (configs/
// mobigen-import.hcl) and analyses two repetitions: Table 3 as the cleaner
// computes it, fidelity 100 %, the I/O-time figure.
func TestImportSample(t *testing.T) {
	testenv.Tool(t, "strace", "strace")
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	var steps []*sdk.StepArtifacts
	var last *Result
	for rep := range 2 {
		out, r := collectStep(t, c, map[string]any{"source": "import", "log": sampleLog}, sdktest.CollectOptions{RunDir: run, Repetition: rep})
		checkReplay(t, r)
		steps = append(steps, out.Step("mobigen.mobigen", nil, rep))
		last = r
	}
	// mobigen.rb's path reduction replays the writable files as temp files,
	// with the same fidelity; but then the unlinks of the journal's real
	// path find no file (the journal was a temp file), as in Mobibench.
	_, rm := collectStep(t, c, map[string]any{"source": "import", "log": sampleLog, "paths": "mobigen"}, sdktest.CollectOptions{})
	if f := rm.Fidelity; f == nil || f.Percent != 100 {
		t.Errorf("paths = mobigen: fidelity %+v", f)
	}
	if rm.Replay == nil || rm.Replay.Errors == 0 {
		t.Errorf("paths = mobigen: the unlinks of reduced paths should fail as in Mobibench")
	}
	l, err := strace.ParseFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	want := cleaner.Clean(l, cleaner.Options{}).Stats
	if last.Clean.ScriptLines != want.ScriptLines || last.Clean.Threads != want.Threads || last.Clean.WriteBytes != want.WriteBytes {
		t.Errorf("result stats %+v, cleaner %+v", last.Clean, want)
	}
	// The sample has each thing the cleaner must handle.
	for what, n := range map[string]int{"merged": want.Merged, "inserted opens": want.Inserted, "signals": want.Dropped[cleaner.ReasonSignal], "platform": want.Dropped[cleaner.ReasonPlatform], "threads > 1": want.Threads - 1} {
		if n <= 0 {
			t.Errorf("the sample log has no %s", what)
		}
	}
	res, err := c.Analyze(context.Background(), "mobigen", nil, run, steps)
	if err != nil {
		t.Fatal(err)
	}
	var t3 *sdk.Table
	for _, tb := range res.Tables {
		if tb.Name == "table3" {
			t3 = tb
		}
	}
	if t3 == nil {
		t.Fatal("no table3")
	}
	rows := map[string]string{}
	for _, r := range t3.Rows {
		rows[r[0]] = r[1]
	}
	if rows["Lines (Mobigen out)"] != itoa(want.ScriptLines) || rows["Lines (strace out)"] != itoa(want.StraceLines) || rows["Number of threads"] != itoa(want.Threads) {
		t.Errorf("table 3 rows %v, cleaner %+v", rows, want)
	}
	var fid []float64
	for _, m := range res.Metrics {
		if m.Name == MetricFidelity {
			fid = append(fid, m.Samples...)
		}
	}
	if len(fid) != 2 || fid[0] != 100 || fid[1] != 100 {
		t.Errorf("fidelity samples %v, want two of 100", fid)
	}
	if !strings.Contains(res.Summary, "total I/O time") {
		t.Errorf("summary %q", res.Summary)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestCaptureSQLite captures the sqlite3 shell running the shipped inserts
// (configs/mobigen-sqlite.hcl, here on the default directory storage),
// and replays it faithfully; a second step of the same run reuses the
// capture.
func TestCaptureSQLite(t *testing.T) {
	testenv.Tool(t, "strace", "strace")
	testenv.Tool(t, "sqlite3", "sqlite3")
	sql, err := filepath.Abs("../../configs/mobigen-insert.sql")
	if err != nil {
		t.Fatal(err)
	}
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	cfg := map[string]any{"command": []string{"sqlite3", "feed.db"}, "stdin": sql}
	_, r := collectStep(t, c, cfg, sdktest.CollectOptions{RunDir: run, StepID: "a"})
	checkReplay(t, r)
	if r.Clean.Calls["pwrite"] == 0 || r.Clean.Calls["fsync"]+r.Clean.Calls["fdatasync"] == 0 || r.Clean.Calls["unlink"] == 0 {
		t.Errorf("no SQLite journal pattern in the script: %v", r.Clean.Calls)
	}
	_, r2 := collectStep(t, c, cfg, sdktest.CollectOptions{RunDir: run, StepID: "b", Repetition: 1})
	if !r2.Reused || r2.Clean.ScriptLines != r.Clean.ScriptLines {
		t.Errorf("second step did not reuse the capture: reused=%v, %d vs %d lines", r2.Reused, r2.Clean.ScriptLines, r.Clean.ScriptLines)
	}
}

// notPermitted is how strace says the kernel or a sandbox forbids ptrace.
var notPermitted = regexp.MustCompile(`PTRACE|ptrace|Operation not permitted`)

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
