package runstore

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/results"
)

// TestCrashedRun: a run whose writer ends without finishing it (here: the
// lock is dropped as the kernel drops it for a killed process) is listed and
// read as crashed, finished at its last write — also after a reindex.
func TestCrashedRun(t *testing.T) {
	if !canLock {
		t.Skip("no flock on this platform")
	}
	s := openStore(t, t.TempDir())
	run := mustCreate(t, s, "exp", time.Now())
	live := mustCreate(t, s, "exp", time.Now())
	defer live.Close()
	// The crashed run wrote a step artifact after results.json.
	stepFile := filepath.Join(run.Dir(), StepsDir, "a.bin")
	if err := os.WriteFile(stepFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	last := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(run.ResultsPath(), last.Add(-time.Minute), last.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(stepFile, last, last); err != nil {
		t.Fatal(err)
	}
	status := func() map[string]Entry {
		t.Helper()
		es, err := s.List(Filter{})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]Entry{}
		for _, e := range es {
			m[e.ID] = e
		}
		return m
	}
	if got := status(); got[run.ID()].Status != results.StatusRunning {
		t.Fatalf("while its lock is held: %+v", got[run.ID()])
	}
	if _, err := Lock(run.Dir()); !errors.Is(err, ErrBusy) {
		t.Errorf("Lock of a running run = %v, want ErrBusy", err)
	}
	run.Close() // as if killed: nothing else was written

	got := status()
	if e := got[run.ID()]; e.Status != results.StatusCrashed || !e.Finished.Equal(last) {
		t.Errorf("after its writer died: %+v; want crashed, finished %s", e, last)
	}
	if e := got[live.ID()]; e.Status != results.StatusRunning {
		t.Errorf("the live run: %+v", e)
	}
	res, err := Read(run.Dir())
	if err != nil || res.Status != results.StatusCrashed || !res.Finished.Equal(last) || len(res.Warnings) != 1 {
		t.Fatalf("Read = %+v, %v", res, err)
	}
	// Reindexing from the directories keeps it crashed.
	os.Remove(filepath.Join(s.Root(), IndexFile))
	s2 := openStore(t, s.Root())
	es, err := s2.List(Filter{Status: results.StatusCrashed})
	if err != nil || len(es) != 1 || es[0].ID != run.ID() {
		t.Errorf("after reindex: %v %+v", err, es)
	}
	l, err := Lock(run.Dir())
	if err != nil {
		t.Fatalf("Lock of a crashed run: %v", err)
	}
	l.Unlock()
}

// TestRunningWithoutLockFile: a run left running by a droidprof from before
// run locks is crashed too.
func TestRunningWithoutLockFile(t *testing.T) {
	if !canLock {
		t.Skip("no flock on this platform")
	}
	s := openStore(t, t.TempDir())
	run := mustCreate(t, s, "exp", time.Now())
	run.Close()
	os.Remove(filepath.Join(run.Dir(), LockFile))
	res, err := Read(run.Dir())
	if err != nil || res.Status != results.StatusCrashed {
		t.Fatalf("Read = %+v, %v", res, err)
	}
}

// TestEntryJSONKeys: runs --json and show --json spell keys alike.
func TestEntryJSONKeys(t *testing.T) {
	data, err := json.Marshal(Entry{ID: "x", Finished: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := []string{"config_file", "dir", "experiment", "failed_steps", "finished", "hostname", "metrics", "run_id", "started", "status", "steps"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("keys = %v, want %v", keys, want)
	}
	// The shared ones are results.json's.
	rdata, _ := json.Marshal(results.Results{RunID: "x", Finished: time.Now()})
	for _, k := range []string{"run_id", "experiment", "status", "started", "finished", "config_file"} {
		if !strings.Contains(string(rdata), `"`+k+`"`) {
			t.Errorf("results.json has no key %q", k)
		}
	}
}
