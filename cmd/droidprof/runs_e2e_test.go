package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/droidprof/droidprof/framework/results"
)

// TestKilledRunIsCrashed: droidprof killed with SIGKILL in the middle of a
// run leaves a run that runs and show call crashed, with the time of its
// last write — not "running" forever.
func TestKilledRunIsCrashed(t *testing.T) {
	c := newCLI(t)
	cmd, sc, _ := startHangingRun(t, c)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	go func() {
		for sc.Scan() {
		}
	}()
	cmd.Wait()

	var list []map[string]any
	if err := json.Unmarshal([]byte(c.ok("runs", "--json")), &list); err != nil || len(list) != 1 {
		t.Fatalf("runs --json: %v %v", err, list)
	}
	if list[0]["status"] != results.StatusCrashed || list[0]["finished"] == nil {
		t.Errorf("killed run listed as %v", list[0])
	}
	home := strings.TrimPrefix(c.env[0], "DROIDPROF_HOME=")
	id, _ := list[0]["run_id"].(string)
	if id == "" {
		t.Fatalf("runs --json has no run_id: %v", list[0])
	}
	out := c.ok("show", id)
	if !strings.Contains(out, "crashed: last written ") || strings.Contains(out, "finished 00:00:00") {
		t.Errorf("show of a killed run:\n%s", out)
	}
	var res results.Results
	if err := json.Unmarshal([]byte(c.ok("show", "--json", id)), &res); err != nil || res.Status != results.StatusCrashed || res.Finished.IsZero() {
		t.Errorf("show --json: %v status %s finished %v", err, res.Status, res.Finished)
	}
	// The step droidprof was killed in is named, with the files it wrote.
	if n := len(res.Steps); n != 1 || res.Steps[0].Status != results.StepCrashed {
		t.Fatalf("the killed step: %+v", res.Steps)
	}
	// (Killed before the step made its directory, it has none.)
	entries, err := os.ReadDir(filepath.Join(home, "runs", id, filepath.FromSlash(res.Steps[0].Dir)))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var files, listed []string
	for _, en := range entries {
		files = append(files, en.Name())
	}
	for _, a := range res.Steps[0].Artifacts {
		listed = append(listed, a.Name)
	}
	if fmt.Sprint(files) != fmt.Sprint(listed) {
		t.Errorf("the killed step lists %v; its directory holds %v", listed, files)
	}
	// Reindexing from the run directories keeps it crashed.
	os.Remove(filepath.Join(home, "runs", "index.db"))
	if out := c.ok("runs"); !strings.Contains(out, "crashed") {
		t.Errorf("after reindex:\n%s", out)
	}
	if pids := pluginProcesses(t); len(pids) > 0 {
		t.Errorf("plugin processes outlived the killed droidprof: %v", pids)
	}
}

// TestOutStore: runs stored with run --out DIR are found by every command
// given the same --out; an empty store lists as [] in JSON.
func TestOutStore(t *testing.T) {
	c := newCLI(t)
	c.linkTestPlugin()
	if out := strings.TrimSpace(c.ok("runs", "--json")); out != "[]" {
		t.Errorf("runs --json of an empty store = %q, want []", out)
	}
	cfg := c.write("ok.hcl", `
experiment "ok" {
  collect "testplug" "ok" {}
  analyze "testplug" {}
}`)
	store := filepath.Join(c.dir, "elsewhere")
	out := c.ok("run", cfg, "--out", store)
	id, _ := runID(t, out)
	if !strings.Contains(out, "--out "+store) {
		t.Errorf("run --out does not say how to find the run again:\n%s", out)
	}
	if out := c.ok("runs"); !strings.Contains(out, "no runs in ") || !strings.Contains(out, "--out DIR") {
		t.Errorf("runs of the default store:\n%s", out)
	}
	if _, errOut, code := c.run("show", id); code == 0 || !strings.Contains(errOut, "found with --out DIR") {
		t.Errorf("show of a run in another store: exit %d\n%s", code, errOut)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(c.ok("runs", "--out", store, "--json")), &list); err != nil || len(list) != 1 || list[0]["run_id"] != id {
		t.Fatalf("runs --out: %v %v", err, list)
	}
	if out := c.ok("show", id, "--out", store); !strings.Contains(out, "experiment ok: complete") {
		t.Errorf("show --out:\n%s", out)
	}
	c.ok("compare", id, id, "--out", store)
	c.ok("report", id, "--out", store)
	if out := c.ok("analyze", id, "--out", store); !strings.Contains(out, "1 metrics") {
		t.Errorf("analyze --out:\n%s", out)
	}
	help := c.ok("help")
	for _, cmd := range []string{"runs", "show", "compare", "analyze", "report"} {
		for _, line := range strings.Split(help, "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "droidprof" && f[1] == cmd && !strings.Contains(line, "--out DIR") {
				t.Errorf("usage of %s does not offer --out DIR: %s", cmd, line)
			}
		}
	}
}

// TestPartialRunAnalyzeAndReport: a run with failed steps keeps the metrics
// of the others and names what is missing; analyze re-runs the analyzers of
// a stored run, and report analyses a run that has no analysis.
func TestPartialRunAnalyzeAndReport(t *testing.T) {
	c := newCLI(t)
	c.linkTestPlugin()
	cfg := c.write("half.hcl", `
experiment "half" {
  matrix {
    v = [1, 2]
  }
  collect "testplug" "ok" {
    value = matrix.v
  }
  collect "testplug" "crash" {
    value = matrix.v # one crash per cell: the README example's fio half
  }
  analyze "testplug" {}
}`)
	out, errOut, code := c.run("run", cfg)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"experiment half: partial, 2/4 steps ok, 2 metrics", "cells missing repetitions", "testplug.crash v=1 (0 of 1 repetitions)", "value "} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out+errOut, "rpc error") {
		t.Errorf("gRPC wrapping in user-facing output:\n%s\n%s", out, errOut)
	}
	id, dir := runID(t, out)

	// As if the analysis had never run.
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	res.Analyses, res.Metrics = nil, nil
	if err := res.Write(filepath.Join(dir, results.FileName)); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = c.run("report", id)
	if code != 0 || !strings.Contains(errOut, "has no analysis; analysing it first") {
		t.Errorf("report of an unanalysed run: exit %d\n%s", code, errOut)
	}
	if res, err = results.Read(filepath.Join(dir, results.FileName)); err != nil || len(res.Metrics) != 2 || res.Status != results.StatusPartial {
		t.Fatalf("after report: %v %+v", err, res)
	}
	if out := c.ok("analyze", id, "--plugin", "testplug"); !strings.Contains(out, "2 metrics") {
		t.Errorf("analyze --plugin:\n%s", out)
	}
	if _, errOut, code := c.run("analyze", id, "--plugin", "nosuch"); code == 0 || !strings.Contains(errOut, `no analyzer of plugin "nosuch"`) {
		t.Errorf("analyze --plugin nosuch: exit %d\n%s", code, errOut)
	}
	if res, err = results.Read(filepath.Join(dir, results.FileName)); err != nil || len(res.Metrics) != 2 || len(res.Analyses) != 1 {
		t.Fatalf("after analyze: %v %+v", err, res)
	}
}
