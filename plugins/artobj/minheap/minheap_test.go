package minheap

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// needs is a program that runs in a heap of at least n bytes.
func needs(n uint32, calls *int) Runner {
	return func(_ context.Context, max uint32) (Outcome, error) {
		*calls++
		if max >= n {
			return Ran, nil
		}
		return OutOfMemory, nil
	}
}

func TestSearch(t *testing.T) {
	const k = 64 << 10
	for _, tc := range []struct {
		name      string
		need      uint32
		lo, hi    uint32
		want      uint32
		maxRuns   int
		wantError string
	}{
		{"between", 5<<20 + 1, 1 << 20, 256 << 20, 5<<20 + k, 14, ""},
		{"on a step", 3 << 20, 1 << 20, 256 << 20, 3 << 20, 14, ""},
		{"runs at lo", 1000, 1 << 20, 256 << 20, 1 << 20, 2, ""},
		{"needs hi", 256 << 20, 1 << 20, 256 << 20, 256 << 20, 14, ""},
		{"more than hi", 300 << 20, 1 << 20, 256 << 20, 0, 1, "runs out of memory with the largest heap"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			got, runs, err := Search(context.Background(), needs(tc.need, &calls), tc.lo, tc.hi, k)
			if tc.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantError) {
					t.Errorf("error %v, want %q", err, tc.wantError)
				}
				return
			}
			if err != nil || got != tc.want || runs != calls || runs > tc.maxRuns {
				t.Errorf("got %d in %d runs (%d calls), %v; want %d in at most %d", got, runs, calls, err, tc.want, tc.maxRuns)
			}
		})
	}
}

// A run that fails for another reason stops the search with its error.
func TestSearchOtherFailure(t *testing.T) {
	boom := errors.New("exited with 3")
	_, _, err := Search(context.Background(), func(_ context.Context, max uint32) (Outcome, error) {
		if max < 4<<20 {
			return 0, boom
		}
		return Ran, nil
	}, 1<<20, 16<<20, 64<<10)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "heap limit 1048576") {
		t.Errorf("error %v", err)
	}
}

// The cache keeps results per program, engine and collector; a second
// Find runs nothing.
func TestCache(t *testing.T) {
	c := Cache{Path: filepath.Join(t.TempDir(), "sub", "minheap.json")}
	k := Key{Code: [][]byte{[]byte("dex")}, Main: "M", Args: []string{"1"}, Engine: "aot", Collector: "cms"}
	calls := 0
	e, cached, err := c.Find(context.Background(), k, needs(2<<20, &calls), 1<<20, 8<<20, 64<<10)
	if err != nil || cached || e.MinHeap != 2<<20 || e.Runs != calls {
		t.Fatalf("first find: %+v cached %v, %v (%d calls)", e, cached, err, calls)
	}
	calls = 0
	e2, cached, err := c.Find(context.Background(), k, needs(2<<20, &calls), 1<<20, 8<<20, 64<<10)
	if err != nil || !cached || e2 != e || calls != 0 {
		t.Errorf("second find: %+v cached %v, %v, %d runs", e2, cached, err, calls)
	}
	for _, other := range []Key{
		{Code: [][]byte{[]byte("dex2")}, Main: "M", Args: []string{"1"}, Engine: "aot", Collector: "cms"},
		{Code: k.Code, Main: "M", Args: []string{"2"}, Engine: "aot", Collector: "cms"},
		{Code: k.Code, Main: "M", Args: []string{"1"}, Engine: "interp", Collector: "cms"},
		{Code: k.Code, Main: "M", Args: []string{"1"}, Engine: "aot", Collector: "ss"},
	} {
		if _, ok, err := c.Get(other); ok || err != nil {
			t.Errorf("%s found under %s's entry (%v)", other, k, err)
		}
	}
}
