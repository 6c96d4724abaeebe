package server_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/framework/server"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/internal/testenv"
)

// smallDisk mounts a tmpfs of size bytes on a temp dir, unmounted at the
// end of the test.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		testenv.SkipOrFail(t, "cannot mount a %s tmpfs for the server's data (needs root): %v", size, err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fill writes to path until the disk is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	if err != nil {
		return
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// integrityCheck runs sqlite3's PRAGMA integrity_check on db.
func integrityCheck(t *testing.T, db string) {
	t.Helper()
	sqlite3 := testenv.Tool(t, "sqlite3", "sqlite3")
	out, err := exec.Command(sqlite3, "-readonly", db, "PRAGMA integrity_check").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("sqlite3 %s 'PRAGMA integrity_check': %v\n%s", db, err, out)
	}
}

// TestFullDisk: the server's data directory on a 3 MiB filesystem. Runs
// are pushed until the disk is full: the failing push gets an error that
// names the full disk, the server goes on serving every run it stored,
// whole, shows nothing of the failed one, and its catalog passes sqlite3's
// integrity check; once space is freed the same push completes. Then the
// catalog itself on a full disk (SQLite: its write-ahead log cannot grow)
// refuses a run with ErrFull and stays intact.
func TestFullDisk(t *testing.T) {
	disk := smallDisk(t, "3m")
	// Space to free later, as an operator would.
	reserve := filepath.Join(disk, "reserve")
	if err := os.WriteFile(reserve, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(disk, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnvIn(t, server.Config{}, data)
	var stored []string
	dirs := map[string]string{}
	var failedDir, failedID string
	for i := 0; i < 40 && failedDir == ""; i++ {
		id := "run-" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		dir := makeRun(t, run{id: id, experiment: "full", host: "h"})
		big := make([]byte, 256<<10)
		rand.Read(big)
		if err := os.WriteFile(filepath.Join(dir, "analysis", "big.bin"), big, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := e.clientOf(e.token).Push(context.Background(), dir)
		switch {
		case err == nil:
			stored = append(stored, id)
			dirs[id] = dir
		case strings.Contains(err.Error(), disk):
			t.Fatalf("push %s: the error shows the server's paths: %v", id, err)
		case strings.Contains(err.Error(), "HTTP 507") && (strings.Contains(err.Error(), "no space left") || strings.Contains(err.Error(), "disk is full")):
			failedDir, failedID = dir, id
			t.Logf("push %s: %v", id, err)
		default:
			t.Fatalf("push %s on a full disk: %v, want a 507 naming the full disk", id, err)
		}
	}
	if failedDir == "" || len(stored) == 0 {
		t.Fatalf("%d runs pushed and the disk never filled", len(stored))
	}
	t.Logf("%d runs stored before the disk was full", len(stored))

	// Still serving: every stored run, whole; nothing of the failed one.
	runs := e.list("?limit=1000")
	if len(runs) != len(stored) {
		t.Errorf("%d runs listed, %d stored", len(runs), len(stored))
	}
	for _, id := range stored {
		if code, body := e.get("/runs/"+id, ""); code != 200 || !strings.Contains(body, id) {
			t.Errorf("run page %s on the full disk: %d", id, code)
		}
		want, _ := os.ReadFile(filepath.Join(dirs[id], "analysis", "big.bin"))
		if code, body := e.get("/api/v1/runs/"+id+"/files/analysis/big.bin", ""); code != 200 || !bytes.Equal([]byte(body), want) {
			t.Errorf("run %s's artifact on the full disk: %d, %d bytes, want %d", id, code, len(body), len(want))
		}
	}
	if code, _ := e.get("/runs/"+failedID, ""); code != http.StatusNotFound {
		t.Errorf("the failed run %s: %d, want 404", failedID, code)
	}
	if ents, _ := os.ReadDir(filepath.Join(data, "blobs", "tmp")); len(ents) != 0 {
		t.Errorf("temporary files left on the full disk: %v", ents)
	}
	sqlite := e.cat.Dialect().Name() == "sqlite"
	if sqlite {
		integrityCheck(t, filepath.Join(data, "catalog.db"))
	}

	// Space freed: the same push completes.
	if err := os.Remove(reserve); err != nil {
		t.Fatal(err)
	}
	res, err := e.clientOf(e.token).Push(context.Background(), failedDir)
	if err != nil || res.Outcome != "stored" {
		t.Fatalf("the push again with space: %+v %v", res, err)
	}
	code, body := e.get("/api/v1/runs/"+failedID+"/files/analysis/big.bin", "")
	want, _ := os.ReadFile(filepath.Join(failedDir, "analysis", "big.bin"))
	if code != 200 || !bytes.Equal([]byte(body), want) {
		t.Errorf("the completed run's artifact: %d, %d bytes, want %d", code, len(body), len(want))
	}

	if !sqlite {
		return // PostgreSQL's own disk is not this one
	}
	// The catalog on a full disk: a run with many metrics needs the WAL to
	// grow, which it cannot.
	fresh, err := e.cat.CreateToken(context.Background(), "fresh", catalog.ScopeRead)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, filepath.Join(disk, "filler"))
	// Its first use cannot be recorded; it is still a valid token.
	if _, err := e.cat.CheckToken(context.Background(), fresh); err != nil {
		t.Errorf("a token checked on a full disk: %v", err)
	}
	var metrics []catalog.Metric
	for i := 0; i < 2000; i++ {
		metrics = append(metrics, catalog.Metric{Key: strings.Repeat("m", 40) + string(rune('a'+i%26)) + time.Duration(i).String(), Name: "m", Median: float64(i), N: 1})
	}
	r := catalog.Run{ID: "many-metrics", Experiment: "full", Status: "complete", Started: time.Now(), Pushed: time.Now(), ResultsSHA256: strings.Repeat("c", 64)}
	if _, err := e.cat.Put(context.Background(), r, nil, metrics); !errors.Is(err, catalog.ErrFull) {
		t.Fatalf("a run stored in a catalog on a full disk: %v, want ErrFull", err)
	}
	if got := e.list("?limit=1000"); len(got) != len(stored)+1 {
		t.Errorf("after the catalog's failed write: %d runs, want %d", len(got), len(stored)+1)
	}
	integrityCheck(t, filepath.Join(data, "catalog.db"))
	if err := os.Remove(filepath.Join(disk, "filler")); err != nil {
		t.Fatal(err)
	}
	if out, err := e.cat.Put(context.Background(), r, nil, metrics); err != nil || out != catalog.Stored {
		t.Errorf("the same run with space again: %v %v", out, err)
	}
}
