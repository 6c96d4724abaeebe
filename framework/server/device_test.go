package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/framework/server"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/server/internal/pgtest"
)

// TestDevice: a run's device is its device label, else its fingerprint's
// CPU model, else its host; the runs list filters on it and the ranking
// ranks devices across the hosts that ran them, as paper 002's Fig. 3.
func TestDevice(t *testing.T) {
	tests := []struct {
		name string
		res  results.Results
		want string
	}{
		{"label", results.Results{Fingerprint: results.Fingerprint{Hostname: "h", CPUModel: "c"}, Steps: []results.Step{{Labels: map[string]string{"device": "Pixel 6"}}, {}}}, "Pixel 6"},
		{"cpu", results.Results{Fingerprint: results.Fingerprint{Hostname: "h", CPUModel: "c"}}, "c"},
		{"host", results.Results{Fingerprint: results.Fingerprint{Hostname: "h"}}, "h"},
		{"two labels", results.Results{Fingerprint: results.Fingerprint{Hostname: "h", CPUModel: "c"}, Steps: []results.Step{{Labels: map[string]string{"device": "a"}}, {Labels: map[string]string{"device": "b"}}}}, "c"},
	}
	for _, tt := range tests {
		if got := server.Device(&tt.res); got != tt.want {
			t.Errorf("%s: device %q, want %q", tt.name, got, tt.want)
		}
	}

	e := newEnv(t, server.Config{})
	for _, r := range []run{
		{id: "p1", host: "lab1", device: "Pixel 6", samples: []float64{30}},
		{id: "p2", host: "lab2", device: "Pixel 6", samples: []float64{10}},
		{id: "g1", host: "lab1", device: "Galaxy S21", samples: []float64{15}},
		{id: "x1", host: "ci", cpu: "Xeon E5", samples: []float64{5}},
	} {
		r.experiment = "bench"
		if _, err := e.clientOf(e.token).Push(context.Background(), makeRun(t, r)); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.list("?device=Pixel+6"); len(got) != 2 || got[0].Device != "Pixel 6" {
		t.Errorf("runs of device Pixel 6: %+v", got)
	}
	if got := e.list("?device=Xeon+E5&host=ci"); len(got) != 1 || got[0].ID != "x1" {
		t.Errorf("runs of device Xeon E5 on ci: %+v", got)
	}
	for _, tt := range []struct {
		by   string
		want string
	}{
		{"device", "[Pixel 6/20/2 Galaxy S21/15/1 Xeon E5/5/1]"}, // Pixel 6: median of 30 and 10 over lab1 and lab2
		{"host", "[lab1/22.5/2 lab2/10/1 ci/5/1]"},               // lab1: median of 30 and 15
	} {
		code, body := e.get("/api/v1/rank?experiment=bench&metric=throughput&by="+tt.by, "")
		var rk catalog.Ranking
		if code != 200 || json.Unmarshal([]byte(body), &rk) != nil {
			t.Fatalf("rank by %s: %d %s", tt.by, code, body)
		}
		var got []string
		for _, en := range rk.Entries {
			got = append(got, fmt.Sprintf("%s/%g/%d", en.Name, en.Median, en.Runs))
		}
		if fmt.Sprint(got) != tt.want || string(rk.By) != tt.by {
			t.Errorf("ranking by %s: %v, want %s", tt.by, got, tt.want)
		}
	}
	code, body := e.get("/rank?experiment=bench&metric=throughput&by=device", "")
	if code != 200 || !strings.Contains(body, `<a href="/?experiment=bench&amp;device=Pixel%206">Pixel 6</a>`) || strings.Index(body, ">Pixel 6<") > strings.Index(body, ">Galaxy S21<") {
		t.Errorf("ranking page by device: %d\n%s", code, body)
	}
	if code, body := e.get("/?device=Galaxy+S21", ""); code != 200 || !strings.Contains(body, "g1") || strings.Contains(body, `href="/runs/p1"`) {
		t.Errorf("runs page filtered on a device: %d\n%s", code, body)
	}
	if code, body := e.get("/api/v1/rank?experiment=bench&metric=throughput&by=moon", ""); code != http.StatusBadRequest || !strings.Contains(body, "host or device") {
		t.Errorf("rank by moon: %d %s", code, body)
	}
}

// schemaV1 is the catalog as the first droidprof serve made it (its
// migration 1), with a token and a run, to check that an existing
// database is migrated.
const schemaV1 = `CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version (version) VALUES (1);
CREATE TABLE tokens (id TEXT PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL, created BIGINT NOT NULL, revoked BIGINT);
CREATE TABLE runs (id TEXT PRIMARY KEY, experiment TEXT NOT NULL, status TEXT NOT NULL, started BIGINT NOT NULL, finished BIGINT,
	hostname TEXT NOT NULL, os TEXT NOT NULL, arch TEXT NOT NULL, cpu_model TEXT NOT NULL, fs_type TEXT NOT NULL,
	storage_backend TEXT NOT NULL, droidprof_version TEXT NOT NULL, plugins TEXT NOT NULL, results_sha256 TEXT NOT NULL,
	pushed BIGINT NOT NULL, pushed_by TEXT NOT NULL);
CREATE INDEX runs_started ON runs (started);
CREATE INDEX runs_experiment ON runs (experiment, started);
CREATE TABLE run_files (run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, path TEXT NOT NULL, sha256 TEXT NOT NULL,
	size BIGINT NOT NULL, PRIMARY KEY (run_id, path));
CREATE TABLE metrics (run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, metric_key TEXT NOT NULL, name TEXT NOT NULL,
	unit TEXT NOT NULL, better TEXT NOT NULL, median DOUBLE PRECISION NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (run_id, metric_key));
CREATE INDEX metrics_key ON metrics (metric_key);
-- the token dpt_00112233445566aa_secret, pushing since before scopes
INSERT INTO tokens (id, name, hash, created) VALUES ('00112233445566aa', 'old', '%s', 1);
INSERT INTO runs VALUES ('old1', 'bench', 'complete', 1, 2, 'lab1', 'linux', 'amd64', 'Cortex-A78', 'ext4', 'dir', '0.1', ',mobibench,', '%s', 3, 'old');
INSERT INTO runs VALUES ('old2', 'bench', 'complete', 1, 2, 'lab2', 'linux', 'amd64', '', 'ext4', 'dir', '0.1', ',mobibench,', '%s', 3, 'old');
INSERT INTO metrics VALUES ('old1', 'throughput', 'throughput', 'KB/s', 'higher', 7, 1);`

// TestMigratesOldCatalog: a catalog of schema version 1 gets the device of
// its runs from their fingerprints, its tokens as push tokens, and works.
func TestMigratesOldCatalog(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "old.db")
	driver, source := "sqlite", strings.TrimPrefix(dsn, "sqlite:")
	if admin := os.Getenv(dbEnv); admin != "" {
		var err error
		if dsn, err = pgtest.NewDatabase(context.Background(), admin); err != nil {
			t.Fatal(err)
		}
		driver, source = "pgx", dsn
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		t.Fatal(err)
	}
	const token = "dpt_00112233445566aa_secret"
	if _, err := db.Exec(fmt.Sprintf(schemaV1, sum([]byte(token)), strings.Repeat("a", 64), strings.Repeat("b", 64))); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cat, err := catalog.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("migrate a version 1 catalog: %v", err)
	}
	defer cat.Close()
	tok, err := cat.CheckToken(context.Background(), token)
	if err != nil || tok.Scope != catalog.ScopePush || tok.Name != "old" {
		t.Errorf("the old token: %+v %v", tok, err)
	}
	runs, err := cat.List(context.Background(), catalog.Filter{})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs: %+v %v", runs, err)
	}
	devices := map[string]string{}
	for _, r := range runs {
		devices[r.ID] = r.Device
	}
	if devices["old1"] != "Cortex-A78" || devices["old2"] != "lab2" {
		t.Errorf("devices after the migration: %v (want the CPU model, else the host)", devices)
	}
	rk, err := cat.Rank(context.Background(), "bench", "throughput", catalog.ByDevice)
	if err != nil || len(rk.Entries) != 1 || rk.Entries[0].Name != "Cortex-A78" {
		t.Errorf("ranking by device after the migration: %+v %v", rk, err)
	}
}
