package artobj

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
)

// pluginEnv makes the test binary, re-executed, serve the artobj plugin
// as the host launches it, after writing its pid to the file the
// variable names: the test kills that process mid-run.
const pluginEnv = "DROIDPROF_ARTOBJ_PLUGIN_PIDFILE"

func TestMain(m *testing.M) {
	if path := os.Getenv(pluginEnv); path != "" {
		if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			os.Exit(3)
		}
		sdk.Serve(Plugin())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// kill -9 of the collector's process mid-run: its result.json (written
// before the program ran) and its event file stay; handed to the
// analyzer as the host hands a failed step's files, they are analysed as
// far as the events go, marked incomplete, with where the events end,
// and give no metrics.
func TestKilledCollectorIsAnalysedIncomplete(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv(pluginEnv, pidFile)
	killed := sdktest.Exec(t, exe, "-test.run=^$")
	run := t.TempDir()
	stepDir := filepath.Join(run, "steps", "killed")
	events := filepath.Join(stepDir, EventsFile)
	cfg := map[string]any{"workload": "leak-list 100000000", "buffer_records": 1024,
		"vm": map[string]any{"heap_start": 1 << 20, "heap_max": 64 << 20, "min_free": 64 << 10, "max_free": 256 << 10}}
	done := make(chan error, 1)
	go func() {
		_, err := killed.Collect(context.Background(), "artobj", cfg, sdktest.CollectOptions{RunDir: run, StepID: "killed"})
		done <- err
	}()
	// Kill once the file holds a few collections' events. Another
	// process writes it and nothing notifies us: poll.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if fi, err := os.Stat(events); err == nil && fi.Size() > 2<<20 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the collector ended before it was killed: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the event file never grew past 2 MiB")
		}
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cerr := <-done
	if cerr == nil {
		t.Fatal("Collect of a killed collector returned no error")
	}
	// The files it left, listed as the host lists unannounced files.
	st := &sdk.StepArtifacts{ID: "killed", Collector: "artobj.artobj", Status: "failed", Error: cerr.Error()}
	ents, err := os.ReadDir(stepDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range ents {
		fi, err := en.Info()
		if err != nil {
			t.Fatal(err)
		}
		st.Artifacts = append(st.Artifacts, &sdk.Artifact{Name: en.Name(), Path: "steps/killed/" + en.Name(), Size: fi.Size(), Kind: sdk.KindRaw})
	}
	if sdk.Find(st, ResultFile) == nil || sdk.Find(st, EventsFile) == nil {
		t.Fatalf("the killed step left %v: want %s and %s", ents, ResultFile, EventsFile)
	}
	c := sdktest.Start(t, Plugin())
	out, err := c.Analyze(context.Background(), "artobj", nil, run, []*sdk.StepArtifacts{st})
	if err != nil {
		t.Fatal(err)
	}
	progs := tableOf(t, out, "programs")
	if len(progs.Rows) != 1 {
		t.Fatalf("programs table %v", progs.Rows)
	}
	row := progs.Rows[0]
	note := row[len(row)-1]
	if !strings.HasPrefix(row[0], "leak-list") || !strings.Contains(row[0], "incomplete") {
		t.Errorf("program %q: want leak-list, named incomplete", row[0])
	}
	if !strings.Contains(note, "incomplete: step failed") || !strings.Contains(note, "partial: ") || !strings.Contains(note, "offset") {
		t.Errorf("note %q: want the step's failure and where the events end", note)
	}
	if row[1] != "–" {
		t.Errorf("exit status %q of a killed program, want –", row[1])
	}
	if n, _ := strconv.Atoi(row[2]); n == 0 {
		t.Errorf("no objects analysed: %v", row)
	}
	if g, _ := strconv.Atoi(row[4]); g < 2 {
		t.Errorf("%d collections analysed of a 2 MiB event file: %v", g, row)
	}
	if !strings.Contains(out.Summary, "the run is incomplete") {
		t.Errorf("summary does not say the run is incomplete:\n%s", out.Summary)
	}
	if len(out.Metrics) != 0 {
		t.Errorf("%d metrics from an incomplete step", len(out.Metrics))
	}
	t.Logf("collect: %v; note: %s", errors.Unwrap(cerr), note)
}

func tableOf(t *testing.T, out *sdk.Output, name string) *sdk.Table {
	t.Helper()
	for _, tb := range out.Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %s", name)
	return nil
}
