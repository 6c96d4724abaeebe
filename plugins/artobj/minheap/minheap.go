// Package minheap finds a program's minimum heap: the smallest heap limit
// (heap_max) it runs to completion in, as paper 003 ran each benchmark
// with its minimum heap so that it collects often. The search is a
// bisection over the limit between a size it fails in and one it runs
// in, to a granularity; a run that fails for another reason than running
// out of memory stops the search. Results are cached per program (its
// code, main class and arguments), engine and collector, in one JSON
// file, since a search takes a dozen runs.
package minheap

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Outcome is what one run at a heap limit did.
type Outcome int

// Outcomes.
const (
	// Ran: the program finished with exit status 0.
	Ran Outcome = iota
	// OutOfMemory: it ended with an OutOfMemoryError.
	OutOfMemory
)

// Runner runs the program once with heap limit max and says how it
// ended; an error for anything else than Ran or OutOfMemory (another
// exception, a non-zero exit status, a VM that would not start).
type Runner func(ctx context.Context, max uint32) (Outcome, error)

// Search bisects [lo, hi] for the smallest limit the program runs in, to
// a multiple of step: it runs at hi first (it must run there) and at lo
// (if it runs there, lo is the answer). It returns the limit and the
// number of runs it took.
func Search(ctx context.Context, run Runner, lo, hi, step uint32) (uint32, int, error) {
	if step == 0 || lo > hi {
		return 0, 0, fmt.Errorf("minheap: search over [%d, %d] by %d: not a range", lo, hi, step)
	}
	runs := 0
	try := func(m uint32) (bool, error) {
		runs++
		o, err := run(ctx, m)
		if err != nil {
			return false, fmt.Errorf("minheap: heap limit %d: %w", m, err)
		}
		return o == Ran, nil
	}
	ok, err := try(hi)
	if err != nil {
		return 0, runs, err
	}
	if !ok {
		return 0, runs, fmt.Errorf("minheap: the program runs out of memory with the largest heap tried, %d bytes", hi)
	}
	if ok, err = try(lo); err != nil || ok {
		return lo, runs, err
	}
	// Invariant: fails at lo, runs at hi.
	for hi-lo > step {
		mid := lo + (hi-lo)/2/step*step
		if mid == lo {
			mid = lo + step
		}
		ok, err := try(mid)
		if err != nil {
			return 0, runs, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, runs, nil
}

// Key identifies what a minimum heap depends on.
type Key struct {
	Code      [][]byte // the program's DEX files' contents
	Main      string
	Args      []string
	Engine    string
	Collector string
}

// String is the cache's key: the code's hash and the settings.
func (k Key) String() string {
	h := sha256.New()
	for _, c := range k.Code {
		s := sha256.Sum256(c)
		h.Write(s[:])
	}
	return fmt.Sprintf("%s %s [%s] engine=%s collector=%s", hex.EncodeToString(h.Sum(nil))[:16], k.Main, strings.Join(k.Args, " "), k.Engine, k.Collector)
}

// Entry is one cached result.
type Entry struct {
	MinHeap uint32 `json:"min_heap"`
	Step    uint32 `json:"step"`
	Runs    int    `json:"runs"`
}

// Cache is a JSON file of minimum heaps by key.
type Cache struct {
	Path string
}

// DefaultCache is the cache in the user's cache directory
// (~/.cache/droidprof/artobj-minheap.json).
func DefaultCache() (Cache, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return Cache{}, fmt.Errorf("minheap: %w", err)
	}
	return Cache{Path: filepath.Join(dir, "droidprof", "artobj-minheap.json")}, nil
}

func (c Cache) load() (map[string]Entry, error) {
	m := map[string]Entry{}
	data, err := os.ReadFile(c.Path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("minheap: cache: %w", err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("minheap: cache %s: %w", c.Path, err)
	}
	return m, nil
}

// Get returns the cached entry for k.
func (c Cache) Get(k Key) (Entry, bool, error) {
	m, err := c.load()
	if err != nil {
		return Entry{}, false, err
	}
	e, ok := m[k.String()]
	return e, ok, nil
}

// Put stores e for k, replacing the file whole (a crash leaves the old one).
func (c Cache) Put(k Key, e Entry) error {
	m, err := c.load()
	if err != nil {
		return err
	}
	m[k.String()] = e
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("minheap: cache: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
		return fmt.Errorf("minheap: cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.Path), ".minheap-*")
	if err != nil {
		return fmt.Errorf("minheap: cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("minheap: cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("minheap: cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.Path); err != nil {
		return fmt.Errorf("minheap: cache: %w", err)
	}
	return nil
}

// Find returns k's minimum heap from the cache, or searches for it with
// Search(ctx, run, lo, hi, step) and caches it; cached says which.
func (c Cache) Find(ctx context.Context, k Key, run Runner, lo, hi, step uint32) (e Entry, cached bool, err error) {
	if e, ok, err := c.Get(k); err != nil || ok && e.Step == step {
		return e, ok, err
	}
	m, runs, err := Search(ctx, run, lo, hi, step)
	if err != nil {
		return Entry{}, false, err
	}
	e = Entry{MinHeap: m, Step: step, Runs: runs}
	return e, false, c.Put(k, e)
}
