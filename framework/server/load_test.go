package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/server"
	"github.com/droidprof/droidprof/framework/server/catalog"
	"github.com/droidprof/droidprof/framework/server/internal/pgtest"
	"github.com/droidprof/droidprof/framework/server/push"
)

// TestConcurrentPushers: 50 pushers × 20 runs each on loopback, plus every
// pusher pushing one shared run: every run is stored exactly once and none
// is lost. The latencies are logged (go test -v -run ConcurrentPushers)
// for BENCHMARKS.md; they are not asserted on.
func TestConcurrentPushers(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: 1000 pushes")
	}
	const pushers, runs = 50, 20
	e := newEnv(t, server.Config{})
	shared := makeRun(t, run{id: "shared", experiment: "load", host: "everyone"})
	dirs := make([][]string, pushers)
	for p := range pushers {
		for r := range runs {
			dirs[p] = append(dirs[p], makeRun(t, run{id: fmt.Sprintf("p%02d-r%02d", p, r), experiment: "load", host: fmt.Sprintf("host%02d", p%10),
				samples: []float64{float64(p), float64(r)}}))
		}
	}
	var mu sync.Mutex
	var latencies []time.Duration
	outcomes := map[string]int{}
	var wg sync.WaitGroup
	start := time.Now()
	for p := range pushers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &push.Client{Server: e.srv.URL, Token: e.token}
			for _, dir := range append(dirs[p], shared) {
				t0 := time.Now()
				res, err := c.Push(context.Background(), dir)
				d := time.Since(t0)
				mu.Lock()
				if err != nil {
					t.Errorf("push %s: %v", dir, err)
				} else {
					latencies = append(latencies, d)
					if res.RunID == "shared" {
						outcomes[res.Outcome]++
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	n, err := e.cat.Count(context.Background())
	if err != nil || n != pushers*runs+1 {
		t.Errorf("%d runs stored, want %d (%v)", n, pushers*runs+1, err)
	}
	stored := e.list("?limit=2000")
	seen := map[string]bool{}
	for _, r := range stored {
		if seen[r.ID] {
			t.Errorf("run %s listed twice", r.ID)
		}
		seen[r.ID] = true
	}
	if len(seen) != pushers*runs+1 {
		t.Errorf("%d distinct runs listed", len(seen))
	}
	if outcomes["stored"] != 1 || outcomes["unchanged"] != pushers-1 {
		t.Errorf("the shared run pushed by %d pushers: %v, want stored once", pushers, outcomes)
	}
	slices.Sort(latencies)
	q := func(f float64) time.Duration { return latencies[int(f*float64(len(latencies)-1))] }
	t.Logf("%d pushes by %d pushers in %v (%.0f pushes/s); push latency p50 %v, p90 %v, p99 %v, max %v",
		len(latencies), pushers, wall.Round(time.Millisecond), float64(len(latencies))/wall.Seconds(),
		q(0.5).Round(time.Microsecond), q(0.9).Round(time.Microsecond), q(0.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
}

// BenchmarkRankingPage10k is the server time of the ranking page over
// 10 000 runs of one experiment on 100 hosts and 30 devices, ranked by host
// and by device; over the target of 200 ms a page, it fails.
func BenchmarkRankingPage10k(b *testing.B) {
	ctx := context.Background()
	dsn := "sqlite:" + b.TempDir() + "/c.db"
	if admin := os.Getenv(dbEnv); admin != "" {
		var err error
		if dsn, err = pgtest.NewDatabase(ctx, admin); err != nil {
			b.Fatal(err)
		}
	}
	cat, err := catalog.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer cat.Close()
	for i := range 10_000 {
		r := catalog.Run{ID: fmt.Sprintf("run-%05d", i), Experiment: "big", Status: "complete", Hostname: fmt.Sprintf("host%03d", i%100), Device: fmt.Sprintf("device%02d", i%30),
			Started: time.Unix(int64(i), 0), Pushed: time.Now(), ResultsSHA256: fmt.Sprint(i)}
		ms := []catalog.Metric{{Key: "throughput", Name: "throughput", Unit: "KB/s", Better: "higher", Median: float64(i % 977), N: 6},
			{Key: "latency", Name: "latency", Unit: "ms", Better: "lower", Median: float64(i % 13), N: 6}}
		if _, err := cat.Put(ctx, r, nil, ms); err != nil {
			b.Fatal(err)
		}
	}
	h := server.New(server.Config{Catalog: cat, Blobs: nil})
	b.Logf("on %s", cat.Dialect().Name())
	for _, by := range []string{"host", "device"} {
		b.Run(by, func(b *testing.B) {
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/rank?experiment=big&metric=throughput&by="+by, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
			if per := b.Elapsed() / time.Duration(b.N); per > 200*time.Millisecond {
				b.Errorf("the ranking page by %s takes %v, over the target of 200 ms", by, per)
			}
		})
	}
}
