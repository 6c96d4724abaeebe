package fileio

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/storage/fsinfo"
	"github.com/droidprof/droidprof/storage/pagecache"
)

// directDir returns a directory whose filesystem accepts O_DIRECT: the test's
// temporary directory when it does, else one under /var/tmp; it skips the
// test when neither does.
func directDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := fsinfo.DirectIO(dir); err == nil {
		return dir
	}
	alt, err := os.MkdirTemp("/var/tmp", "fileio-direct-")
	if err == nil {
		t.Cleanup(func() { os.RemoveAll(alt) })
		if _, err = fsinfo.DirectIO(alt); err == nil {
			return alt
		}
	}
	_, name, _ := fsinfo.Type(dir)
	t.Skipf("neither %s (%s) nor /var/tmp accepts O_DIRECT: %v", dir, name, err)
	return ""
}

// checkFile verifies a thread's file after a run with Stamp: its size, that
// every written record carries its own number, that the sequence numbers
// are exactly 0..n-1 and in the order the mode prescribes, and that the rest
// of every record is FillByte.
func checkFile(t *testing.T, c Config, p Plan, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != p.FileBytes {
		t.Fatalf("%s: size %d, want %d", path, len(data), p.FileBytes)
	}
	var order []int64
	if c.Access.Random() {
		order = RecordOrder(p.Records, c.Overlap)
	}
	seen := make([]bool, p.Records)
	for r := int64(0); r < p.Records; r++ {
		rec := data[r*c.IOSize : (r+1)*c.IOSize]
		body := rec
		if c.Access.Writes() {
			gotRec := int64(binary.LittleEndian.Uint64(rec[0:8]))
			seq := int64(binary.LittleEndian.Uint64(rec[8:16]))
			if gotRec != r {
				t.Fatalf("%s record %d: stamped with record %d", path, r, gotRec)
			}
			if seq < 0 || seq >= p.Records || seen[seq] {
				t.Fatalf("%s record %d: sequence number %d out of range or written twice", path, r, seq)
			}
			seen[seq] = true
			wantRec := seq
			if order != nil {
				wantRec = order[seq]
			}
			if wantRec != r {
				t.Fatalf("%s: I/O %d wrote record %d, want record %d", path, seq, r, wantRec)
			}
			body = rec[16:]
		}
		if bytes.Count(body, []byte{FillByte}) != len(body) {
			t.Fatalf("%s record %d: body is not all %#x", path, r, FillByte)
		}
	}
}

func TestEveryAccessAndSyncMode(t *testing.T) {
	plain := t.TempDir()
	var direct string
	for a := Write; a <= Append; a++ {
		for s := Buffered; s <= Fdatasync; s++ {
			t.Run(fmt.Sprintf("a%d_%s/y%d_%s", a, a, s, s), func(t *testing.T) {
				dir := filepath.Join(plain, fmt.Sprintf("a%dy%d", a, s))
				if s.DirectIO() {
					if direct == "" {
						direct = directDir(t)
					}
					dir = filepath.Join(direct, fmt.Sprintf("a%dy%d", a, s))
				}
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				c := Config{Dir: dir, Access: a, Sync: s, Threads: 2, FileSize: 64 << 10, IOSize: 4096, Stamp: true}
				var calls int
				c.Progress = func(done, total int64) { calls++ }
				r, err := Run(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				p := r.Plan
				if p.Records != 8 || r.IOs != 16 || r.Bytes != 64<<10 || len(r.Threads) != 2 {
					t.Fatalf("plan %+v, %d I/Os, %d bytes, %d threads", p, r.IOs, r.Bytes, len(r.Threads))
				}
				if r.Elapsed <= 0 || r.KBps() <= 0 || r.IOPS() <= 0 {
					t.Fatalf("elapsed %v, %f KB/s, %f IOPS", r.Elapsed, r.KBps(), r.IOPS())
				}
				if lat := r.Latencies(); len(lat) != 16 || slicesMin(lat) < 0 {
					t.Fatalf("latencies %v", lat)
				}
				if calls == 0 {
					t.Error("Progress never called")
				}
				// Every thread's first touch of its fresh mapping faults; the
				// per-thread getrusage must see it.
				if s.Mapped() && r.Faults.Minor+r.Faults.Major < int64(len(r.Threads)) {
					t.Errorf("mapped mode recorded %+v page faults for %d threads", r.Faults, len(r.Threads))
				}
				for i, th := range r.Threads {
					if th.File != FileName(dir, i) || th.IOs != 8 || th.Elapsed <= 0 || th.Elapsed > r.Elapsed {
						t.Fatalf("thread %d: %+v (run elapsed %v)", i, th, r.Elapsed)
					}
					if (th.FinalSync > 0) != a.Writes() {
						t.Fatalf("thread %d: final sync %v for access %s", i, th.FinalSync, a)
					}
					checkFile(t, c, p, th.File)
				}
			})
		}
	}
}

func slicesMin(v []int64) int64 {
	m := v[0]
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

func TestAppendReplacesTheFile(t *testing.T) {
	for _, s := range []Sync{Buffered, Mmap, Fdatasync} {
		t.Run(s.String(), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(FileName(dir, 0), make([]byte, 1<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			c := Config{Dir: dir, Access: Append, Sync: s, Threads: 1, FileSize: 40 << 10, IOSize: 8192, Stamp: true}
			r, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			checkFile(t, c, r.Plan, FileName(dir, 0)) // exactly 40 KiB: the old 1 MiB file is gone
		})
	}
}

func TestOverwriteKeepsALargerFile(t *testing.T) {
	dir := t.TempDir()
	if err := Prefill(FileName(dir, 0), 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Dir: dir, Access: RandWrite, Sync: Buffered, Threads: 1, FileSize: 64 << 10, IOSize: 4096}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(FileName(dir, 0)); st.Size() != 1<<20 {
		t.Fatalf("size %d, want the pre-existing 1 MiB", st.Size())
	}
}

func TestPrefill(t *testing.T) {
	tests := []struct {
		name     string
		existing []byte
		size     int64
		wantLen  int64
	}{
		{"new file", nil, 3*prefillChunk + 100, 3*prefillChunk + 100},
		{"extends, keeps the old bytes", []byte("hello"), 4096, 4096},
		{"larger file untouched", bytes.Repeat([]byte{1}, 8192), 4096, 8192},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			if tt.existing != nil {
				if err := os.WriteFile(p, tt.existing, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := Prefill(p, tt.size); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(p)
			if int64(len(data)) != tt.wantLen || !bytes.HasPrefix(data, tt.existing) {
				t.Fatalf("len %d (want %d), prefix kept: %v", len(data), tt.wantLen, bytes.HasPrefix(data, tt.existing))
			}
			if tt.wantLen > int64(len(tt.existing)) && bytes.Count(data[len(tt.existing):], []byte{FillByte}) != len(data)-len(tt.existing) {
				t.Fatal("new bytes are not FillByte")
			}
		})
	}
}

func TestCancelStopsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Thousands of fsyncs take seconds; cancel at the first progress report.
	c := Config{Dir: t.TempDir(), Access: RandWrite, Sync: Fsync, Threads: 2, FileSize: 64 << 20, IOSize: 4096,
		Progress: func(done, total int64) { cancel() }}
	r, err := Run(ctx, c)
	if !errors.Is(err, context.Canceled) || r != nil {
		t.Fatalf("Run = %v, %v; want context.Canceled", r, err)
	}
}

func TestDropCaches(t *testing.T) {
	dir := t.TempDir()
	r, err := Run(context.Background(), Config{Dir: dir, Access: Read, Sync: Buffered, Threads: 1, FileSize: 1 << 20, IOSize: 4096, DropCaches: true})
	if err != nil {
		t.Fatal(err)
	}
	probe := pagecache.Drop()
	switch {
	case probe == nil && !r.CachesDropped:
		t.Fatalf("caches can be dropped here but the run did not: %v", r.Warnings)
	case probe != nil && (r.CachesDropped || len(r.Warnings) == 0):
		t.Fatalf("caches cannot be dropped (%v) but the run says dropped=%v, warnings %v", probe, r.CachesDropped, r.Warnings)
	}
}

func TestPercentiles(t *testing.T) {
	tests := []struct {
		in   []int64
		ps   []float64
		want []int64
	}{
		{nil, []float64{50}, []int64{0}},
		{[]int64{5}, []float64{0, 50, 100}, []int64{5, 5, 5}},
		{[]int64{4, 1, 3, 2}, []float64{25, 50, 75, 100}, []int64{1, 2, 3, 4}},
		{[]int64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, []float64{50, 90, 99, 99.9}, []int64{50, 90, 100, 100}},
	}
	for _, tt := range tests {
		got := Percentiles(tt.in, tt.ps...)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("Percentiles(%v, %v) = %v, want %v", tt.in, tt.ps, got, tt.want)
		}
	}
}

func TestPerSecondAndLatencies(t *testing.T) {
	r := &Result{Threads: []ThreadResult{
		{Begin: 10, Ends: []int64{100, 1_000_000_100, 1_500_000_000, -1}},
		{Begin: 0, Ends: []int64{2_100_000_000}},
	}}
	if got := fmt.Sprint(r.PerSecond()); got != "[1 2 1]" {
		t.Errorf("PerSecond = %s", got)
	}
	if got := fmt.Sprint(r.Latencies()); got != "[90 1000000000 499999900 2100000000]" {
		t.Errorf("Latencies = %s", got)
	}
}

func TestModeNames(t *testing.T) {
	if Access(7).String() != "access(7)" || Sync(3).String() != "O_DIRECT" || Sync(12).String() != "sync(12)" {
		t.Fatal("names")
	}
	js, _ := json.Marshal(ThreadResult{File: "x"})
	if !bytes.Contains(js, []byte(`"ctx_switches"`)) {
		t.Fatalf("ThreadResult JSON %s", js)
	}
}
