package runstore

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/results"
)

// helperEnv makes the test binary act as a second droidprof process writing
// to a shared store (see TestConcurrentProcesses).
const helperEnv = "DROIDPROF_RUNSTORE_HELPER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		if err := helper(spec); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var idRE = regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{6}$`)

func openStore(t *testing.T, root string) *Store {
	t.Helper()
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mustCreate(t *testing.T, s *Store, exp string, started time.Time) *Run {
	t.Helper()
	r, err := s.Create(exp, started)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// finish writes a finished results.json for run and updates the index, as
// the runner does.
func finish(t *testing.T, s *Store, run *Run, status string, metrics, failedSteps int) *results.Results {
	t.Helper()
	r := &results.Results{
		RunID:       run.ID(),
		Experiment:  run.Experiment(),
		ConfigFile:  "configs/" + run.Experiment() + ".hcl",
		Status:      status,
		Started:     run.Started(),
		Finished:    run.Started().Add(90 * time.Second),
		Fingerprint: results.Fingerprint{Hostname: "bench-1"},
	}
	for i := 0; i < metrics; i++ {
		r.Metrics = append(r.Metrics, results.Metric{Name: fmt.Sprintf("m%d", i), Unit: "s", Samples: []float64{1, 2, 3}})
	}
	r.Steps = []results.Step{{ID: "s0", Status: "ok"}}
	for i := 0; i < failedSteps; i++ {
		r.Steps = append(r.Steps, results.Step{ID: fmt.Sprintf("f%d", i), Status: "failed"})
	}
	if err := r.Write(run.ResultsPath()); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func ids(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func TestRoot(t *testing.T) {
	tests := []struct {
		name, flag, home, want string
	}{
		{"default", "", "", "runs"},
		{"home", "", "/srv/dp", filepath.Join("/srv/dp", "runs")},
		{"flag wins over home", "/data/out", "/srv/dp", "/data/out"},
		{"flag only", "out", "", "out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := func(k string) string {
				if k == "DROIDPROF_HOME" {
					return tt.home
				}
				return ""
			}
			if got := Root(tt.flag, env); got != tt.want {
				t.Errorf("Root(%q) = %q, want %q", tt.flag, got, tt.want)
			}
		})
	}
	t.Setenv("DROIDPROF_HOME", "/from/env")
	if got := Root("", nil); got != filepath.Join("/from/env", "runs") {
		t.Errorf("Root with nil env = %q", got)
	}
}

func TestCreate(t *testing.T) {
	root := filepath.Join(t.TempDir(), "nested", "runs")
	s := openStore(t, root)
	started := time.Date(2025, 3, 9, 14, 5, 7, 0, time.FixedZone("CET", 3600))
	run := mustCreate(t, s, "sqlite-journal-modes", started)

	if !idRE.MatchString(run.ID()) || !strings.HasPrefix(run.ID(), "20250309-130507-") {
		t.Errorf("ID = %q, want 20250309-130507-xxxxxx (UTC)", run.ID())
	}
	if want := filepath.Join(root, run.ID()); run.Dir() != want || !filepath.IsAbs(run.Dir()) {
		t.Errorf("Dir = %q, want %q", run.Dir(), want)
	}
	for _, sub := range []string{StepsDir, AnalysisDir, LogsDir} {
		if fi, err := os.Stat(filepath.Join(run.Dir(), sub)); err != nil || !fi.IsDir() {
			t.Errorf("%s/: %v", sub, err)
		}
	}
	r, err := results.Read(run.ResultsPath())
	if err != nil {
		t.Fatal(err)
	}
	if r.RunID != run.ID() || r.Status != results.StatusRunning || r.Experiment != "sqlite-journal-modes" || !r.Started.Equal(started) {
		t.Errorf("initial results.json = %+v", r)
	}
	if _, err := os.Stat(filepath.Join(root, IndexFile)); err != nil {
		t.Errorf("index: %v", err)
	}

	es, err := s.List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	want := Entry{ID: run.ID(), Experiment: "sqlite-journal-modes", Status: results.StatusRunning,
		Started: time.Unix(0, started.UnixNano()), Dir: run.Dir(), Hostname: host, Steps: 0}
	if len(es) != 1 || !reflect.DeepEqual(es[0], want) {
		t.Errorf("List = %+v\nwant [%+v]", es, want)
	}

	// IDs are unique within one second and sort by start time.
	seen := map[string]bool{run.ID(): true}
	for i := 0; i < 50; i++ {
		r := mustCreate(t, s, "x", started)
		if seen[r.ID()] {
			t.Fatalf("duplicate ID %s", r.ID())
		}
		seen[r.ID()] = true
	}
	later := mustCreate(t, s, "x", started.Add(time.Second))
	for id := range seen {
		if id >= later.ID() {
			t.Errorf("ID %s of an earlier run sorts after %s", id, later.ID())
		}
	}

	var mode string
	var version int
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != schemaVersion {
		t.Errorf("user_version = %d, %v; want %d", version, err, schemaVersion)
	}
}

// fixture builds a store with runs at known times:
//
//	a1, a2: 2024-01-01 10:00:00 "alpha" (same second: share a 15-char prefix)
//	b:      2024-01-02 08:00:00 "beta"
//	c:      2024-02-01 08:00:00 "alpha-big"
func fixture(t *testing.T) (*Store, map[string]*Run) {
	s := openStore(t, filepath.Join(t.TempDir(), "runs"))
	day1 := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	runs := map[string]*Run{
		"a1": mustCreate(t, s, "alpha", day1),
		"a2": mustCreate(t, s, "alpha", day1.Add(time.Millisecond)),
		"b":  mustCreate(t, s, "beta", time.Date(2024, 1, 2, 8, 0, 0, 0, time.UTC)),
		"c":  mustCreate(t, s, "alpha-big", time.Date(2024, 2, 1, 8, 0, 0, 0, time.UTC)),
	}
	finish(t, s, runs["a1"], results.StatusComplete, 3, 0)
	finish(t, s, runs["b"], results.StatusFailed, 1, 2)
	finish(t, s, runs["c"], results.StatusComplete, 7, 0)
	return s, runs // a2 stays running
}

func TestListAndUpdate(t *testing.T) {
	s, runs := fixture(t)
	id := func(k string) string { return runs[k].ID() }
	tests := []struct {
		name   string
		filter Filter
		want   []string
	}{
		{"all newest first", Filter{}, []string{id("c"), id("b"), id("a2"), id("a1")}},
		{"experiment exact", Filter{Experiment: "alpha"}, []string{id("a2"), id("a1")}},
		{"experiment glob", Filter{Experiment: "alpha*"}, []string{id("c"), id("a2"), id("a1")}},
		{"status", Filter{Status: results.StatusComplete}, []string{id("c"), id("a1")}},
		{"status running", Filter{Status: results.StatusRunning}, []string{id("a2")}},
		{"experiment and status", Filter{Experiment: "alpha", Status: results.StatusComplete}, []string{id("a1")}},
		{"limit", Filter{Limit: 2}, []string{id("c"), id("b")}},
		{"no match", Filter{Experiment: "gamma"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es, err := s.List(tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(es); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("List(%+v) = %v, want %v", tt.filter, got, tt.want)
			}
		})
	}

	es, err := s.List(Filter{Experiment: "beta"})
	if err != nil || len(es) != 1 {
		t.Fatalf("List(beta) = %v, %v", es, err)
	}
	b := es[0]
	wantFinished := runs["b"].Started().Add(90 * time.Second)
	if b.Status != results.StatusFailed || b.Metrics != 1 || b.Steps != 3 || b.FailedSteps != 2 ||
		b.ConfigFile != "configs/beta.hcl" || b.Hostname != "bench-1" || !b.Finished.Equal(wantFinished) {
		t.Errorf("updated entry = %+v", b)
	}
	if es, _ := s.List(Filter{Status: results.StatusRunning}); len(es) != 1 || !es[0].Finished.IsZero() {
		t.Errorf("running entry = %+v, want zero Finished", es)
	}
}

func TestUpdateErrors(t *testing.T) {
	s, _ := fixture(t)
	for _, id := range []string{"", ".", "..", "../escape", "a/b", "20990101-000000-abcdef"} {
		if err := s.Update(&results.Results{RunID: id, Status: results.StatusComplete}); err == nil {
			t.Errorf("Update(RunID %q): want error", id)
		}
	}
}

func TestResolve(t *testing.T) {
	s, runs := fixture(t)
	dir := func(k string) string { return runs[k].Dir() }

	// A run copied from another machine, outside the store.
	elsewhere := filepath.Join(t.TempDir(), "from-ci", "20230505-050505-abcdef")
	if err := os.MkdirAll(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (&results.Results{RunID: "20230505-050505-abcdef", Status: "complete"}).Write(filepath.Join(elsewhere, results.FileName)); err != nil {
		t.Fatal(err)
	}
	// A run copied into the root but not indexed yet.
	copied := filepath.Join(s.Root(), "20230101-000000-c0ffee")
	if err := os.Mkdir(copied, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (&results.Results{RunID: "20230101-000000-c0ffee", Status: "complete"}).Write(filepath.Join(copied, results.FileName)); err != nil {
		t.Fatal(err)
	}
	notRun := t.TempDir()

	tests := []struct {
		name, ref, want string
		ambiguous       []string
		notFound        bool
		errContains     string
	}{
		{name: "full ID", ref: runs["b"].ID(), want: dir("b")},
		{name: "unique prefix", ref: "20240102", want: dir("b")},
		{name: "shortest unique prefix in the same second", ref: shortestUnique(runs["a1"].ID(), runs["a2"].ID()), want: dir("a1")},
		{name: "ambiguous month", ref: "202401", ambiguous: []string{runs["b"].ID(), runs["a2"].ID(), runs["a1"].ID()}},
		{name: "ambiguous second", ref: "20240101-100000", ambiguous: []string{runs["a2"].ID(), runs["a1"].ID()}},
		{name: "unknown", ref: "1999", notFound: true, errContains: `no run "1999"`},
		{name: "not indexed, in root, by ID", ref: "20230101-000000-c0ffee", want: copied},
		{name: "not indexed, in root, by prefix", ref: "202301", want: copied},
		{name: "path to run dir", ref: dir("c"), want: dir("c")},
		{name: "path to results.json", ref: filepath.Join(dir("c"), results.FileName), want: dir("c")},
		{name: "path outside the store", ref: elsewhere, want: elsewhere},
		{name: "path, not a run", ref: notRun, errContains: "no results.json"},
		{name: "path, missing", ref: filepath.Join(notRun, "nope"), notFound: true, errContains: "does not exist"},
		{name: "empty", ref: "", errContains: "empty run reference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Resolve(tt.ref)
			var amb *AmbiguousError
			switch {
			case tt.ambiguous != nil:
				if !errors.As(err, &amb) {
					t.Fatalf("Resolve(%q) = %q, %v; want ambiguous", tt.ref, got, err)
				}
				want := append([]string(nil), tt.ambiguous...)
				if !reflect.DeepEqual(amb.Candidates, want) {
					t.Errorf("candidates = %v, want %v", amb.Candidates, want)
				}
				for _, c := range want {
					if !strings.Contains(err.Error(), c) {
						t.Errorf("error %q does not list %s", err, c)
					}
				}
			case tt.want != "":
				if err != nil || got != tt.want {
					t.Errorf("Resolve(%q) = %q, %v; want %q", tt.ref, got, err, tt.want)
				}
			default:
				if err == nil {
					t.Fatalf("Resolve(%q) = %q, want error", tt.ref, got)
				}
				if errors.Is(err, ErrNotFound) != tt.notFound {
					t.Errorf("Resolve(%q): errors.Is(ErrNotFound) = %v, want %v (%v)", tt.ref, !tt.notFound, tt.notFound, err)
				}
				if !strings.Contains(err.Error(), tt.errContains) {
					t.Errorf("Resolve(%q) error %q, want it to contain %q", tt.ref, err, tt.errContains)
				}
			}
		})
	}

	t.Run("relative paths", func(t *testing.T) {
		t.Chdir(filepath.Dir(elsewhere))
		for _, ref := range []string{"./20230505-050505-abcdef", "20230505-050505-abcdef", "../from-ci/20230505-050505-abcdef/"} {
			if got, err := s.Resolve(ref); err != nil || got != elsewhere {
				t.Errorf("Resolve(%q) in %s = %q, %v; want %q", ref, filepath.Dir(elsewhere), got, err, elsewhere)
			}
		}
	})

	t.Run("deleted run", func(t *testing.T) {
		if err := os.RemoveAll(dir("c")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Resolve(runs["c"].ID()); !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(deleted run) error = %v, want ErrNotFound", err)
		}
		// The prefix shared with the deleted run is no longer ambiguous.
		if got, err := s.Resolve("2024020"); err == nil {
			t.Errorf("Resolve(prefix of deleted run only) = %q, want error", got)
		}
	})
}

// shortestUnique returns the shortest prefix of a that is not a prefix of b.
func shortestUnique(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:min(i+1, len(a))]
}

func TestAmbiguousErrorTruncates(t *testing.T) {
	var c []string
	for i := 0; i < 25; i++ {
		c = append(c, fmt.Sprintf("20240101-0000%02d-aaaaaa", i))
	}
	msg := (&AmbiguousError{Ref: "2024", Candidates: c}).Error()
	if !strings.Contains(msg, "25 runs") || !strings.Contains(msg, "and 15 more") || strings.Contains(msg, c[10]) {
		t.Errorf("message = %q", msg)
	}
}

func TestReindexAfterDeletingIndex(t *testing.T) {
	s, runs := fixture(t)
	root := s.Root()
	before, err := s.List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{IndexFile, IndexFile + "-wal", IndexFile + "-shm"} {
		if err := os.Remove(filepath.Join(root, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
	s2 := openStore(t, root)
	after, err := s2.List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after, before) {
		t.Errorf("after reindex:\n%+v\nbefore:\n%+v", after, before)
	}
	if got, err := s2.Resolve(runs["b"].ID()[:10]); err != nil || got != runs["b"].Dir() {
		t.Errorf("Resolve after reindex = %q, %v", got, err)
	}
}

func TestReindex(t *testing.T) {
	s, runs := fixture(t)
	root := s.Root()
	// Changes made behind the index's back:
	// a copied-in run,
	copied := filepath.Join(root, "20230101-000000-c0ffee")
	if err := os.Mkdir(copied, 0o755); err != nil {
		t.Fatal(err)
	}
	cp := &results.Results{RunID: "20230101-000000-c0ffee", Experiment: "gamma", Status: results.StatusIncomplete,
		Started: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC), Metrics: make([]results.Metric, 4)}
	if err := cp.Write(filepath.Join(copied, results.FileName)); err != nil {
		t.Fatal(err)
	}
	// a deleted run,
	if err := os.RemoveAll(runs["b"].Dir()); err != nil {
		t.Fatal(err)
	}
	// a run whose results.json was damaged,
	if err := os.WriteFile(runs["c"].ResultsPath(), []byte(`{"run_id": "trunc`), 0o644); err != nil {
		t.Fatal(err)
	}
	// a finished run the runner never reported,
	done := &results.Results{RunID: runs["a2"].ID(), Experiment: "alpha", Status: results.StatusComplete,
		Started: runs["a2"].Started(), Finished: runs["a2"].Started().Add(time.Minute)}
	if err := done.Write(runs["a2"].ResultsPath()); err != nil {
		t.Fatal(err)
	}
	// and directories that are not runs.
	for _, d := range []string{"scratch", ".hidden"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	if err := s.Reindex(); err != nil {
		t.Fatal(err)
	}
	es, err := s.List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Entry{}
	for _, e := range es {
		got[e.ID] = e
	}
	wantIDs := []string{runs["a1"].ID(), runs["a2"].ID(), runs["c"].ID(), "20230101-000000-c0ffee"}
	sort.Strings(wantIDs)
	gotIDs := ids(es)
	sort.Strings(gotIDs)
	if !reflect.DeepEqual(gotIDs, wantIDs) {
		t.Fatalf("indexed %v, want %v", gotIDs, wantIDs)
	}
	if e := got["20230101-000000-c0ffee"]; e.Experiment != "gamma" || e.Status != results.StatusIncomplete || e.Metrics != 4 || e.Dir != copied {
		t.Errorf("copied run = %+v", e)
	}
	if e := got[runs["c"].ID()]; e.Status != StatusUnreadable || !e.Started.Equal(time.Date(2024, 2, 1, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("damaged run = %+v, want status %s and start time from its ID", e, StatusUnreadable)
	}
	if e := got[runs["a2"].ID()]; e.Status != results.StatusComplete || e.Finished.IsZero() {
		t.Errorf("run finished behind the index's back = %+v", e)
	}
	if e := got[runs["a1"].ID()]; e.Metrics != 3 || e.ConfigFile != "configs/alpha.hcl" || e.Hostname != "bench-1" {
		t.Errorf("untouched run lost fields: %+v", e)
	}
}

func TestCorruptIndexIsRebuilt(t *testing.T) {
	s, runs := fixture(t)
	root := s.Root()
	s.Close()
	for _, f := range []string{IndexFile + "-wal", IndexFile + "-shm"} {
		os.Remove(filepath.Join(root, f))
	}
	if err := os.WriteFile(filepath.Join(root, IndexFile), []byte(strings.Repeat("not a database ", 512)), 0o644); err != nil {
		t.Fatal(err)
	}
	s2 := openStore(t, root)
	es, err := s2.List(Filter{})
	if err != nil || len(es) != len(runs) {
		t.Fatalf("List after rebuild = %d runs, %v; want %d", len(es), err, len(runs))
	}
	aside, _ := filepath.Glob(filepath.Join(root, IndexFile+".corrupt-*"))
	if len(aside) != 1 {
		t.Errorf("damaged index kept as %v, want one %s.corrupt-* file", aside, IndexFile)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	s := openStore(t, t.TempDir())
	if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s2, err := Open(s.Root()); err == nil || !strings.Contains(err.Error(), "newer") {
		if s2 != nil {
			s2.Close()
		}
		t.Errorf("Open(index from the future) error = %v, want schema version error", err)
	}
}

// work creates n runs and finishes each through its own store, as one
// droidprof process running experiments does.
func work(s *Store, experiment string, n int) error {
	for i := 0; i < n; i++ {
		run, err := s.Create(experiment, time.Now())
		if err != nil {
			return err
		}
		r := &results.Results{RunID: run.ID(), Experiment: experiment, Status: results.StatusComplete,
			Started: run.Started(), Finished: time.Now(), Metrics: make([]results.Metric, i%3)}
		if err := r.Write(run.ResultsPath()); err != nil {
			return err
		}
		if err := s.Update(r); err != nil {
			return err
		}
		if i == n/2 {
			if err := s.Reindex(); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkShared(t *testing.T, s *Store, perWriter map[string]int) {
	t.Helper()
	es, err := s.List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, n := range perWriter {
		total += n
	}
	if len(es) != total {
		t.Fatalf("indexed %d runs, want %d", len(es), total)
	}
	count := map[string]int{}
	seen := map[string]bool{}
	for _, e := range es {
		if seen[e.ID] {
			t.Errorf("duplicate ID %s", e.ID)
		}
		seen[e.ID] = true
		count[e.Experiment]++
		if e.Status != results.StatusComplete {
			t.Errorf("run %s status %q, want complete", e.ID, e.Status)
		}
	}
	if !reflect.DeepEqual(count, perWriter) {
		t.Errorf("runs per experiment = %v, want %v", count, perWriter)
	}
}

func TestConcurrentStores(t *testing.T) {
	root := t.TempDir()
	const n = 25
	stores := []*Store{openStore(t, root), openStore(t, root)}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = work(stores[i%2], fmt.Sprintf("writer-%d", i), n)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	want := map[string]int{"writer-0": n, "writer-1": n, "writer-2": n, "writer-3": n}
	checkShared(t, stores[0], want)
	checkShared(t, stores[1], want)
}

// helper is the body of a helper process: spec is "root|experiment|n".
func helper(spec string) error {
	parts := strings.Split(spec, "|")
	if len(parts) != 3 {
		return fmt.Errorf("bad spec %q", spec)
	}
	var n int
	if _, err := fmt.Sscan(parts[2], &n); err != nil {
		return err
	}
	s, err := Open(parts[0])
	if err != nil {
		return err
	}
	defer s.Close()
	return work(s, parts[1], n)
}

// TestConcurrentProcesses runs three processes (this one and two copies of
// the test binary) that open the same fresh root at once and write to it.
func TestConcurrentProcesses(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot re-execute the test binary: %v", err)
	}
	root := t.TempDir()
	const n = 20
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i := 0; i < 2; i++ {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|proc-%d|%d", helperEnv, root, i, n))
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		outs = append(outs, out)
	}
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := work(s, "proc-parent", n); err != nil {
		t.Error(err)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v\n%s", i, err, outs[i])
		}
	}
	checkShared(t, s, map[string]int{"proc-0": n, "proc-1": n, "proc-parent": n})
}
