package server_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/compare"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/server"
	"github.com/droidprof/droidprof/framework/server/blobs"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/server/internal/pgtest"
	"github.com/droidprof/droidprof/framework/server/push"
	"github.com/droidprof/droidprof/internal/testenv"
)

// dbEnv, when set, is the maintenance database URL of a PostgreSQL cluster:
// the suite then runs on PostgreSQL, a fresh database per test.
const dbEnv = "DROIDPROF_TEST_POSTGRES"

// TestMain runs the suite on SQLite, then once more on a throw-away
// PostgreSQL cluster (the test binary re-run with dbEnv set).
func TestMain(m *testing.M) {
	if os.Getenv(childDSN) != "" {
		serveChild() // TestServerKilledMidPush's server
	}
	code := m.Run()
	if code != 0 || os.Getenv(dbEnv) != "" {
		os.Exit(code)
	}
	c, err := pgtest.Start()
	if errors.Is(err, pgtest.ErrNotInstalled) && !testenv.Required() {
		fmt.Println("not run on PostgreSQL:", err)
		os.Exit(0)
	}
	if err != nil {
		fmt.Println("start PostgreSQL:", err)
		os.Exit(1)
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), dbEnv+"="+c.Admin())
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	fmt.Println("the suite again on PostgreSQL:")
	err = cmd.Run()
	if serr := c.Stop(); serr != nil {
		fmt.Println("stop PostgreSQL:", serr)
	}
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// env is a server on a loopback port with its storage in a temp dir.
type env struct {
	t        *testing.T
	srv      *httptest.Server
	cat      *catalog.Catalog
	dsn      string
	blobDir  string
	token    string
	clientOf func(token string) *push.Client
}

func newEnv(t *testing.T, cfg server.Config) *env {
	t.Helper()
	return newEnvIn(t, cfg, t.TempDir())
}

// newEnvIn is newEnv with the server's data (the blobs, and the catalog on
// SQLite) in dir.
func newEnvIn(t *testing.T, cfg server.Config, dir string) *env {
	t.Helper()
	dsn := "sqlite:" + filepath.Join(dir, "catalog.db")
	if admin := os.Getenv(dbEnv); admin != "" {
		var err error
		if dsn, err = pgtest.NewDatabase(context.Background(), admin); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := catalog.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	bs, err := blobs.Open(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Catalog, cfg.Blobs = cat, bs
	srv := httptest.NewServer(server.New(cfg))
	t.Cleanup(srv.Close)
	tok, err := cat.CreateToken(context.Background(), "ci", catalog.ScopePush)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, srv: srv, cat: cat, dsn: dsn, blobDir: filepath.Join(dir, "blobs"), token: tok}
	e.clientOf = func(token string) *push.Client {
		return &push.Client{Server: srv.URL, Token: token, Attempts: 1}
	}
	return e
}

// run describes a run directory for makeRun.
type run struct {
	id, experiment, host, fs string
	metric                   string
	better                   string
	labels                   map[string]string
	samples                  []float64
	// cpu is the fingerprint's CPU model ("cpu of HOST" when empty); device
	// is the device label of the run's steps (none when empty).
	cpu, device string
}

// makeRun writes a run directory as the runner leaves one: results.json,
// a figure in analysis/, a report and a raw artifact in steps/.
func makeRun(t *testing.T, r run) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), r.id)
	for _, d := range []string{"analysis/x.x", "steps/s1", "logs"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if r.metric == "" {
		r.metric = "throughput"
	}
	if r.samples == nil {
		r.samples = []float64{10, 11, 12, 10, 11, 12}
	}
	if r.cpu == "" {
		r.cpu = "cpu of " + r.host
	}
	var stepLabels map[string]string
	if r.device != "" {
		stepLabels = map[string]string{"device": r.device}
	}
	res := results.Results{
		RunID: r.id, Experiment: r.experiment, Status: results.StatusComplete,
		Started:     time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC),
		Finished:    time.Date(2026, 11, 27, 12, 1, 0, 0, time.UTC),
		Fingerprint: results.Fingerprint{Hostname: r.host, FSType: r.fs, OS: "linux", Arch: "amd64", CPUModel: r.cpu, Plugins: map[string]results.Plugin{"mobibench": {Version: "1"}}},
		Steps:       []results.Step{{ID: "s1", Collector: "mobibench.mobibench", Status: "ok", Dir: "steps/s1", Labels: stepLabels}},
		Metrics:     []results.Metric{{Name: r.metric, Unit: "KB/s", Better: r.better, Labels: r.labels, Samples: r.samples, Analyzer: "x.x"}},
		Tables:      []results.Table{{Name: "t", Title: "table of " + r.experiment, Columns: []string{"k", "v"}, Rows: [][]string{{r.host, "1"}}}},
		Figures:     []results.Artifact{{Name: "fig.svg", Path: "analysis/x.x/fig.svg", Kind: "figure", Title: "figure of " + r.experiment}},
	}
	if err := res.Write(filepath.Join(dir, results.FileName)); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"analysis/x.x/fig.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`,
		"report.html":          "<html>report</html>",
		"steps/s1/trace.bin":   "raw " + r.id,
		"logs/host.log":        "log",
		"run.lock":             "",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func (e *env) get(path string, token string) (int, string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// noRedirects answers a redirect as it is, so that tests see where it
// leads.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func (e *env) list(query string) []catalog.Run {
	e.t.Helper()
	code, body := e.get("/api/v1/runs"+query, e.token)
	var runs []catalog.Run
	if code != http.StatusOK || json.Unmarshal([]byte(body), &runs) != nil {
		e.t.Fatalf("list: %d %s", code, body)
	}
	return runs
}

// TestPushIsIdempotent: a pushed run is listed with its files; pushing it
// again uploads nothing and stores nothing new; its raw artifacts go only
// when asked, and the same content is stored once.
func TestPushIsIdempotent(t *testing.T) {
	e := newEnv(t, server.Config{})
	if want := map[bool]string{true: "postgres", false: "sqlite"}[os.Getenv(dbEnv) != ""]; e.cat.Dialect().Name() != want {
		t.Fatalf("the suite runs on %s, want %s", e.cat.Dialect().Name(), want)
	}
	dir := makeRun(t, run{id: "20261127-120000-aaaaaa", experiment: "exp", host: "lab1", fs: "ext4"})
	c := e.clientOf(e.token)
	first, err := c.Push(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if first.Outcome != "stored" || first.Uploaded != first.Files || first.Files != 3 {
		t.Errorf("first push: %+v (want stored, 3 files: results.json, report.html, the figure)", first)
	}
	again, err := c.Push(context.Background(), dir)
	if err != nil || again.Outcome != "unchanged" || again.Uploaded != 0 {
		t.Errorf("second push: %+v %v", again, err)
	}
	c.Artifacts = true
	withRaw, err := c.Push(context.Background(), dir)
	if err != nil || withRaw.Outcome != "unchanged" || withRaw.Uploaded != 1 || withRaw.Files != 4 {
		t.Errorf("push with artifacts: %+v %v", withRaw, err)
	}
	runs := e.list("")
	if len(runs) != 1 || runs[0].ID != "20261127-120000-aaaaaa" || runs[0].Hostname != "lab1" || runs[0].PushedBy != "ci" {
		t.Fatalf("runs: %+v", runs)
	}
	code, body := e.get("/api/v1/runs/20261127-120000-aaaaaa/files/analysis/x.x/fig.svg", "")
	if code != http.StatusOK || !strings.Contains(body, "<svg") {
		t.Errorf("figure: %d %s", code, body)
	}
	// The same figure in another run is stored once.
	dir2 := makeRun(t, run{id: "20261127-130000-bbbbbb", experiment: "exp", host: "lab2", fs: "xfs"})
	second, err := e.clientOf(e.token).Push(context.Background(), dir2)
	if err != nil || second.Outcome != "stored" || second.Uploaded != 1 {
		t.Errorf("push of a run sharing files: %+v %v (want only its results.json uploaded)", second, err)
	}
	if n := countBlobs(t, e.blobDir); n != 5 {
		t.Errorf("%d blobs stored, want 5 (2 results, report, figure, 1 raw)", n)
	}
}

func countBlobs(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// TestFilters: the list filters by experiment, plugin, host, fs and date.
func TestFilters(t *testing.T) {
	e := newEnv(t, server.Config{})
	for _, r := range []run{
		{id: "r1", experiment: "a", host: "h1", fs: "ext4"},
		{id: "r2", experiment: "a", host: "h2", fs: "xfs"},
		{id: "r3", experiment: "b", host: "h1", fs: "xfs"},
	} {
		if _, err := e.clientOf(e.token).Push(context.Background(), makeRun(t, r)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		query string
		want  int
	}{
		{"", 3},
		{"?experiment=a", 2},
		{"?host=h1", 2},
		{"?fs=xfs&experiment=a", 1},
		{"?plugin=mobibench", 3},
		{"?plugin=mobi", 0},
		{"?plugin=%25", 0},
		{"?since=2026-11-27", 3},
		{"?since=2026-11-28", 0},
		{"?limit=1", 1},
	}
	for _, tt := range tests {
		if got := len(e.list(tt.query)); got != tt.want {
			t.Errorf("runs%s: %d runs, want %d", tt.query, got, tt.want)
		}
	}
	if code, body := e.get("/api/v1/runs?since=yesterday", ""); code != http.StatusBadRequest || !strings.Contains(body, "RFC 3339") {
		t.Errorf("bad since: %d %s", code, body)
	}
}

// TestWritesNeedAValidToken: every write is refused without a valid token;
// reads are public unless the server is private.
func TestWritesNeedAValidToken(t *testing.T) {
	e := newEnv(t, server.Config{})
	revoked, err := e.cat.CreateToken(context.Background(), "old", catalog.ScopePush)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.SplitN(strings.TrimPrefix(revoked, "dpt_"), "_", 2)[0]
	if _, err := e.cat.RevokeToken(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	forged := e.token[:len(e.token)-4] + "0000"
	dir := makeRun(t, run{id: "r1", experiment: "a", host: "h"})
	for _, tok := range []struct{ name, token string }{
		{"none", ""}, {"garbage", "hello"}, {"forged", forged}, {"revoked", revoked}, {"other scheme", "Basic x"},
	} {
		t.Run(tok.name, func(t *testing.T) {
			_, err := e.clientOf(tok.token).Push(context.Background(), dir)
			if err == nil || !strings.Contains(err.Error(), "401") {
				t.Errorf("push with %s token: %v", tok.name, err)
			}
			for _, m := range []string{http.MethodPut, http.MethodHead} {
				req, _ := http.NewRequest(m, e.srv.URL+"/api/v1/blobs/"+strings.Repeat("a", 64), strings.NewReader("x"))
				if tok.token != "" {
					req.Header.Set("Authorization", "Bearer "+tok.token)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusUnauthorized {
					t.Errorf("%s blob with %s token: %d", m, tok.name, resp.StatusCode)
				}
			}
		})
	}
	if runs := e.list(""); len(runs) != 0 || countBlobs(t, e.blobDir) != 0 {
		t.Errorf("refused writes stored something: %+v", runs)
	}
	if code, _ := e.get("/api/v1/runs", ""); code != http.StatusOK {
		t.Errorf("public read: %d", code)
	}

	private := newEnv(t, server.Config{Private: true})
	for _, p := range []string{"/api/v1/runs", "/", "/rank"} {
		want := http.StatusSeeOther // a page: to the sign-in form
		if strings.HasPrefix(p, "/api/") {
			want = http.StatusUnauthorized
		}
		if code, _ := private.get(p, ""); code != want {
			t.Errorf("private server, %s without a token: %d, want %d", p, code, want)
		}
		if code, _ := private.get(p, private.token); code != http.StatusOK {
			t.Errorf("private server, %s with a token: %d", p, code)
		}
	}
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// TestRejectsHostileUploads: malformed or hostile uploads get a clear error
// and leave nothing behind — no run, no blob, no temporary file.
func TestRejectsHostileUploads(t *testing.T) {
	good, _ := json.Marshal(results.Results{RunID: "r1", Experiment: "e", Status: "complete"})
	other, _ := json.Marshal(results.Results{RunID: "someone-else", Status: "complete"})
	notJSON := []byte("{not json")
	manifest := func(files ...catalog.File) string {
		data, _ := json.Marshal(map[string]any{"files": files})
		return string(data)
	}
	resultsFile := func(data []byte) catalog.File {
		return catalog.File{Path: "results.json", SHA256: sum(data), Size: int64(len(data))}
	}
	tests := []struct {
		name     string
		blobs    [][]byte // uploaded first, must succeed
		method   string
		path     string
		body     string
		wantCode int
		wantMsg  string
	}{
		{"bad JSON", [][]byte{good}, "PUT", "/api/v1/runs/r1", `{"files": [`, 400, "not valid JSON"},
		{"unknown field", [][]byte{good}, "PUT", "/api/v1/runs/r1", `{"files": [], "evil": 1}`, 400, "unknown field"},
		{"traversal", [][]byte{good}, "PUT", "/api/v1/runs/r1", manifest(resultsFile(good), catalog.File{Path: "../../etc/passwd", SHA256: sum(good)}), 400, "inside the run directory"},
		{"traversal inside", [][]byte{good}, "PUT", "/api/v1/runs/r1", manifest(resultsFile(good), catalog.File{Path: "a/../../b", SHA256: sum(good)}), 400, "inside the run directory"},
		{"absolute", [][]byte{good}, "PUT", "/api/v1/runs/r1", manifest(resultsFile(good), catalog.File{Path: "/etc/passwd", SHA256: sum(good)}), 400, "relative to the run directory"},
		{"backslash", [][]byte{good}, "PUT", "/api/v1/runs/r1", manifest(resultsFile(good), catalog.File{Path: `..\..\x`, SHA256: sum(good)}), 400, "relative to the run directory"},
		{"duplicate path", [][]byte{good}, "PUT", "/api/v1/runs/r1", manifest(resultsFile(good), resultsFile(good)), 400, "listed twice"},
		{"bad hash", nil, "PUT", "/api/v1/runs/r1", manifest(catalog.File{Path: "results.json", SHA256: "../../x"}), 400, "SHA-256"},
		{"no results", [][]byte{good}, "PUT", "/api/v1/runs/r1", manifest(catalog.File{Path: "x.json", SHA256: sum(good)}), 400, "no results.json"},
		{"missing blob", nil, "PUT", "/api/v1/runs/r1", manifest(resultsFile(good)), 409, "not on the server yet"},
		{"results not JSON", [][]byte{notJSON}, "PUT", "/api/v1/runs/r1", manifest(resultsFile(notJSON)), 400, "results.json is not valid"},
		{"results of another run", [][]byte{other}, "PUT", "/api/v1/runs/r1", manifest(resultsFile(other)), 400, `is of run "someone-else"`},
		{"run ID with markup", [][]byte{good}, "PUT", "/api/v1/runs/%3Cb%3E", manifest(resultsFile(good)), 400, "invalid run ID"},
		{"run ID dot-dot", [][]byte{good}, "PUT", "/api/v1/runs/..", manifest(resultsFile(good)), 404, "no API endpoint"},
		{"oversized blob", nil, "PUT", "/api/v1/blobs/" + sum(bytes.Repeat([]byte("x"), 2000)), strings.Repeat("x", 2000), 413, "limit"},
		{"blob not its hash", nil, "PUT", "/api/v1/blobs/" + sum([]byte("a")), "b", 400, "does not match"},
		{"resumable without offsets", nil, "PATCH", "/api/v1/blobs/" + sum([]byte("x")), "x", 400, "Upload-Offset"},
		{"blob name traversal", nil, "PUT", "/api/v1/blobs/..%2F..%2Fx", "x", 400, "SHA-256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, server.Config{MaxBlob: 1024})
			for _, b := range tt.blobs {
				req, _ := http.NewRequest("PUT", e.srv.URL+"/api/v1/blobs/"+sum(b), bytes.NewReader(b))
				req.Header.Set("Authorization", "Bearer "+e.token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil || resp.StatusCode != http.StatusCreated {
					t.Fatalf("upload: %v %v", err, resp)
				}
				resp.Body.Close()
			}
			before := countBlobs(t, e.blobDir)
			req, _ := http.NewRequest(tt.method, e.srv.URL+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Authorization", "Bearer "+e.token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var answer struct{ Error string }
			json.Unmarshal(data, &answer)
			if resp.StatusCode != tt.wantCode || !strings.Contains(answer.Error, tt.wantMsg) {
				t.Errorf("%s %s: %d %s; want %d with %q", tt.method, tt.path, resp.StatusCode, data, tt.wantCode, tt.wantMsg)
			}
			if runs := e.list(""); len(runs) != 0 {
				t.Errorf("a run was stored: %+v", runs)
			}
			if n := countBlobs(t, e.blobDir); n != before {
				t.Errorf("%d files in the blob store, %d before: something was left behind", n, before)
			}
		})
	}
}

// TestHalfPushIsInvisible: blobs uploaded without the run (a push cut short)
// show no run; pushing again completes it.
func TestHalfPushIsInvisible(t *testing.T) {
	e := newEnv(t, server.Config{})
	dir := makeRun(t, run{id: "r1", experiment: "a", host: "h"})
	files, err := push.Files(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, files[0].Path))
	req, _ := http.NewRequest("PUT", e.srv.URL+"/api/v1/blobs/"+files[0].SHA256, bytes.NewReader(data))
	req.Header.Set("Authorization", "Bearer "+e.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("blob: %v %v", err, resp)
	}
	resp.Body.Close()
	if runs := e.list(""); len(runs) != 0 {
		t.Fatalf("a half-pushed run is visible: %+v", runs)
	}
	res, err := e.clientOf(e.token).Push(context.Background(), dir)
	if err != nil || res.Outcome != "stored" || res.Uploaded != res.Files-1 {
		t.Fatalf("the retry: %+v %v", res, err)
	}
	if runs := e.list(""); len(runs) != 1 {
		t.Errorf("after the retry: %+v", runs)
	}
}

// TestReanalysedRunReplaces: a run pushed again after droidprof analyze
// changed its results replaces the stored one.
func TestReanalysedRunReplaces(t *testing.T) {
	e := newEnv(t, server.Config{})
	dir := makeRun(t, run{id: "r1", experiment: "a", host: "h"})
	if _, err := e.clientOf(e.token).Push(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	res, _ := results.Read(filepath.Join(dir, results.FileName))
	res.Metrics[0].Samples = []float64{99}
	res.Write(filepath.Join(dir, results.FileName))
	got, err := e.clientOf(e.token).Push(context.Background(), dir)
	if err != nil || got.Outcome != "replaced" {
		t.Fatalf("push after re-analysis: %+v %v", got, err)
	}
	rk, err := e.cat.Rank(context.Background(), "a", "throughput", catalog.ByHost)
	if err != nil || len(rk.Entries) != 1 || rk.Entries[0].Median != 99 {
		t.Errorf("ranking after the replacement: %+v %v", rk, err)
	}
}

// TestRanking: hosts ranked best first in the metric's direction, each by
// the median of its runs' medians.
func TestRanking(t *testing.T) {
	e := newEnv(t, server.Config{})
	for i, r := range []run{
		{id: "r1", host: "slow", samples: []float64{1, 2, 3}},
		{id: "r2", host: "fast", samples: []float64{30, 30}},
		{id: "r3", host: "fast", samples: []float64{10}},
		{id: "r4", host: "mid", samples: []float64{5}},
		{id: "l1", host: "slow", metric: "latency", better: "lower", samples: []float64{9}},
		{id: "l2", host: "fast", metric: "latency", better: "lower", samples: []float64{1}},
	} {
		r.experiment = "bench"
		if _, err := e.clientOf(e.token).Push(context.Background(), makeRun(t, r)); err != nil {
			t.Fatalf("push %d: %v", i, err)
		}
	}
	tests := []struct {
		metric string
		want   []string
	}{
		{"throughput", []string{"fast", "mid", "slow"}},
		{"latency", []string{"fast", "slow"}},
	}
	for _, tt := range tests {
		code, body := e.get("/api/v1/rank?experiment=bench&metric="+tt.metric, "")
		var rk catalog.Ranking
		if code != 200 || json.Unmarshal([]byte(body), &rk) != nil {
			t.Fatalf("rank: %d %s", code, body)
		}
		var got []string
		for _, h := range rk.Entries {
			got = append(got, h.Name)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s ranking: %v, want %v", tt.metric, got, tt.want)
		}
		if tt.metric == "throughput" && (rk.Entries[0].Median != 20 || rk.Entries[0].Runs != 2 || rk.Entries[0].Best != "r2") {
			t.Errorf("fast host: %+v (want median of 30 and 10 = 20 over 2 runs, best r2)", rk.Entries[0])
		}
	}
	code, body := e.get("/rank?experiment=bench&metric=throughput", "")
	if code != 200 || strings.Index(body, ">fast<") > strings.Index(body, ">slow<") || !strings.Contains(body, "<meter") {
		t.Errorf("ranking page: %d\n%s", code, body)
	}
}

// TestCompareIsDroidprofCompare: the API's comparison is what
// framework/compare makes of the same two runs, and the page shows it.
func TestCompareIsDroidprofCompare(t *testing.T) {
	e := newEnv(t, server.Config{})
	da := makeRun(t, run{id: "a1", experiment: "x", host: "h", samples: []float64{10, 11, 12, 10, 11, 12}})
	db := makeRun(t, run{id: "b1", experiment: "x", host: "h", samples: []float64{20, 21, 22, 20, 21, 22}})
	for _, d := range []string{da, db} {
		if _, err := e.clientOf(e.token).Push(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	ra, _ := results.Read(filepath.Join(da, results.FileName))
	rb, _ := results.Read(filepath.Join(db, results.FileName))
	var want bytes.Buffer
	compare.WriteJSON(&want, compare.Compare(ra, rb, compare.Options{}))
	code, body := e.get("/api/v1/compare?a=a1&b=b1", "")
	if code != 200 || body != want.String() {
		t.Errorf("compare API: %d\n%s\nwant\n%s", code, body, want.String())
	}
	code, body = e.get("/compare?a=a1&b=b1", "")
	if code != 200 || !strings.Contains(body, "throughput") || !strings.Contains(body, "90.91%") {
		t.Errorf("compare page: %d\n%s", code, body)
	}
	if code, _ := e.get("/compare?a=a1&b=nosuch", ""); code != http.StatusNotFound {
		t.Errorf("compare with an unknown run: %d", code)
	}
}

// TestPagesEscapeRunContent: names, labels, hosts, devices and table cells with
// markup come out escaped on every page.
func TestPagesEscapeRunContent(t *testing.T) {
	e := newEnv(t, server.Config{})
	const evil = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`
	for _, id := range []string{"e1", "e2"} {
		r := run{id: id, experiment: evil, host: evil, fs: evil, metric: evil, labels: map[string]string{evil: evil}, device: evil}
		if _, err := e.clientOf(e.token).Push(context.Background(), makeRun(t, r)); err != nil {
			t.Fatal(err)
		}
	}
	q := url.QueryEscape(evil)
	key := url.QueryEscape(evil + " " + evil + "=" + evil)
	for _, p := range []string{"/", "/?experiment=" + q + "&host=" + q, "/runs/e1", "/compare?a=e1&b=e2", "/compare", "/rank?experiment=" + q + "&metric=" + key, "/rank?by=device&experiment=" + q + "&metric=" + key, "/?device=" + q} {
		code, body := e.get(p, "")
		if code != http.StatusOK {
			t.Errorf("%s: %d\n%s", p, code, body)
			continue
		}
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
			t.Errorf("%s: markup from the run is not escaped:\n%s", p, body)
		}
		if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("%s: the run's name is not shown (escaped):\n%s", p, body)
		}
	}
}

// cutTransport cuts the body of the first PATCH after cut bytes, as a
// dropped connection, and records the Upload-Offset of every PATCH.
type cutTransport struct {
	cut     int
	mu      sync.Mutex
	offsets []string
}

func (c *cutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPatch {
		c.mu.Lock()
		c.offsets = append(c.offsets, req.Header.Get("Upload-Offset"))
		first := len(c.offsets) == 1
		c.mu.Unlock()
		if first {
			req.Body = io.NopCloser(io.MultiReader(io.LimitReader(req.Body, int64(c.cut)), errReader{}))
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection dropped") }

// TestLargeUploadResumes: a large artifact whose upload is cut short is
// resumed from what the server kept, not sent again from its start.
func TestLargeUploadResumes(t *testing.T) {
	e := newEnv(t, server.Config{})
	dir := makeRun(t, run{id: "big", experiment: "a", host: "h"})
	big := bytes.Repeat([]byte("droidprof"), 1<<17) // 1.1 MiB
	if err := os.WriteFile(filepath.Join(dir, "analysis", "a.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	tr := &cutTransport{cut: 256 << 10}
	c := e.clientOf(e.token)
	c.HTTP, c.Attempts = &http.Client{Transport: tr}, 3
	res, err := c.Push(context.Background(), dir)
	if err != nil || res.Outcome != "stored" {
		t.Fatalf("push: %+v %v", res, err)
	}
	// analysis/a.bin is the first file: its first PATCH starts at 0 and is
	// cut; the second resumes where the server stopped reading.
	if len(tr.offsets) < 2 || tr.offsets[0] != "0" || tr.offsets[1] == "0" {
		t.Errorf("PATCH offsets %v: the upload was not resumed", tr.offsets)
	}
	code, body := e.get("/api/v1/runs/big/files/analysis/a.bin", "")
	if code != http.StatusOK || body != string(big) {
		t.Errorf("the resumed file: %d, %d bytes, want %d", code, len(body), len(big))
	}
}
