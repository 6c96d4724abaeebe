package replay

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// multi is a three-thread script: temp files written at the current
// position and at offsets, a read-only real path whose reads need
// pre-created data, the path calls, and a read on an fd never opened.
const multi = `0 0 open data/data O_RDWR|O_CREAT|O_TRUNC|O_LARGEFILE 10
0 1000 write 10 4096
0 2000 write 10 100
0 3000 pwrite 10 8192 512
0 4000 fsync 10 0
0 5000 close 10 0
1 500 open data/data O_RDWR|O_CREAT|O_LARGEFILE 11
1 1500 pwrite 11 0 1000
1 2500 pread 11 0 1000
1 3500 fdatasync 11 0
1 4500 close 11 0
2 0 open "/system/fonts/x.ttf" O_RDONLY|O_LARGEFILE 12
2 100 read 12 2000
2 200 pread 12 5000 1000
2 300 fstat64 12 0
2 400 close 12 0
2 500 access "/data/a" 0
2 600 stat64 "/data/missing" -1
2 700 unlink "/data/data/k/cache/index" 0
2 800 read 55 100
2 900 lstat64 "/data/data/k/cache/index" -1
`

func parse(t *testing.T, script string) *Script {
	t.Helper()
	s, err := Parse(strings.NewReader(script), t.Name())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestReplayFiles(t *testing.T) {
	dir := t.TempDir()
	s := parse(t, multi)
	res, err := Replay(context.Background(), s, Options{Dir: dir, Keep: true, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	sb := filepath.Join(dir, SandboxName)
	sizes := []struct {
		path string
		size int64 // -1: must not exist
	}{
		{"temp_0_0.dat", 8192 + 512},
		{"temp_1_1.dat", 1000},
		{"root/system/fonts/x.ttf", 6000}, // pre-created for the pread at 5000
		{"root/data/a", 0},
		{"root/data/missing", -1},            // only ever failed: left absent
		{"root/data/data/k/cache/index", -1}, // unlinked
	}
	for _, f := range sizes {
		fi, err := os.Stat(filepath.Join(sb, f.path))
		switch {
		case f.size < 0 && !errors.Is(err, os.ErrNotExist):
			t.Errorf("%s exists (%v)", f.path, err)
		case f.size >= 0 && err != nil:
			t.Errorf("%s: %v", f.path, err)
		case f.size >= 0 && fi.Size() != f.size:
			t.Errorf("%s: %d bytes, want %d", f.path, fi.Size(), f.size)
		}
	}
	if res.WriteBytes != 4096+100+512+1000 || res.ReadBytes != 2000+1000+1000 {
		t.Errorf("wrote %d, read %d bytes", res.WriteBytes, res.ReadBytes)
	}
	if res.IOCount != 20 || res.Errors != 0 {
		t.Errorf("io count %d, errors %d, want 20, 0", res.IOCount, res.Errors)
	}
	want := map[Call][4]int{ // lines, issued, skipped, failed as traced
		Read: {2, 1, 1, 0}, Stat64: {1, 1, 0, 1}, Lstat64: {1, 1, 0, 1}, Write: {2, 2, 0, 0}, Open: {3, 3, 0, 0},
	}
	for _, c := range res.Calls {
		w, ok := want[c.Call]
		if !ok {
			continue
		}
		if got := [4]int{c.Lines, c.Count, c.Skipped, c.FailedAsTraced}; got != w {
			t.Errorf("%s: lines/issued/skipped/failed %v, want %v", c.Call, got, w)
		}
		if c.Short != 0 || c.Errors != 0 {
			t.Errorf("%s: %d short, %d errors (%s)", c.Call, c.Short, c.Errors, c.FirstError)
		}
		if c.Count > 0 && (c.P50 > c.P99 || c.P99 > c.Max || c.Total < c.Max) {
			t.Errorf("%s: inconsistent latencies %+v", c.Call, c)
		}
	}
	checkTiming(t, s, res)
	text := string(res.Text())
	for _, w := range []string{"line count : 21\n", "script_thread_num: 3\n", "open count : 3\n",
		"max size : W 4096, R 2000\n", "original execution time : 0.005 sec\n", "Total IO count : 20 \n",
		"Total Write: 5708 bytes, Read: 4000 bytes\n", "timing error"} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
}

// checkTiming asserts what a noisy machine still guarantees: every call of a
// thread in script order, none before its time, the replay no shorter than
// the script; the size of the error is only reported.
func checkTiming(t *testing.T, s *Script, res *Result) {
	t.Helper()
	last := map[int]Issued{}
	for _, is := range res.Trace {
		if is.Issued < is.Scheduled {
			t.Errorf("line %d issued at %v, before its time %v", is.Line, is.Issued, is.Scheduled)
		}
		if p, ok := last[is.TID]; ok && (p.Line > is.Line || p.Issued > is.Issued) {
			t.Errorf("thread %d: line %d issued after line %d", is.TID, p.Line, is.Line)
		}
		last[is.TID] = is
	}
	if len(res.Trace) != res.IOCount {
		t.Errorf("trace has %d calls, io count %d", len(res.Trace), res.IOCount)
	}
	if d := s.Stats().Duration(); res.Wall < d {
		t.Errorf("replay took %v, less than the script's %v", res.Wall, d)
	}
	if res.Lag.Median < 0 || res.Lag.Median > res.Lag.P99 || res.Lag.P99 > res.Lag.Max {
		t.Errorf("inconsistent lag %+v", res.Lag)
	}
	t.Logf("wall %v; timing error median %v, p99 %v, max %v", res.Wall, res.Lag.Median, res.Lag.P99, res.Lag.Max)
}

func TestReplayNegativeTimes(t *testing.T) {
	// Thread 1 started 20 ms before the first thread's first line; the
	// replay clock starts there, so its calls keep their spacing.
	s := parse(t, `0 0 open data/data O_RDWR|O_CREAT 3
0 10000 write 3 10
1 -20000 open data/data O_RDWR|O_CREAT 4
1 -10000 write 4 10
`)
	res, err := Replay(context.Background(), s, Options{Dir: t.TempDir(), Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	checkTiming(t, s, res)
	for _, is := range res.Trace {
		if is.Line == 2 && is.Scheduled != 30*time.Millisecond {
			t.Errorf("line 2 scheduled at %v, want 30ms", is.Scheduled)
		}
	}
}

func TestReplayRemovesSandbox(t *testing.T) {
	dir := t.TempDir()
	if _, err := Replay(context.Background(), parse(t, multi), Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

func TestReplayCancel(t *testing.T) {
	// The second thread's first call and the first thread's second call are
	// an hour away: only cancellation can end this replay in time.
	s := parse(t, `0 0 open data/data O_RDWR|O_CREAT 3
0 0 write 3 10
0 3600000000 write 3 10
1 3600000000 access "/x" 0
`)
	for _, keep := range []bool{false, true} {
		dir := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		t0 := time.Now()
		res, err := Replay(ctx, s, Options{Dir: dir, Keep: keep})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("keep %v: err %v", keep, err)
		}
		if d := time.Since(t0); d > time.Minute {
			t.Errorf("took %v to stop", d)
		}
		if res == nil || res.IOCount != 2 {
			t.Errorf("keep %v: partial result %+v", keep, res)
		}
		_, serr := os.Stat(filepath.Join(dir, SandboxName))
		if keep == errors.Is(serr, os.ErrNotExist) {
			t.Errorf("keep %v: sandbox stat %v", keep, serr)
		}
		if err := os.RemoveAll(filepath.Join(dir, SandboxName)); err != nil {
			t.Error(err)
		}
	}
}

func TestMirrorStaysInside(t *testing.T) {
	sb := "/sand/mobigen_temp"
	for _, p := range []string{"/etc/passwd", "../../etc/passwd", "/../../../x", "a/../../../../b", "..", "/", "", "./.././../c/../d"} {
		m := mirror(sb, p)
		if m != sb+"/root" && !strings.HasPrefix(m, sb+"/root/") {
			t.Errorf("%q mirrored to %q", p, m)
		}
	}
}

// TestSafety replays a script that names a real file outside the sandbox,
// absolutely and through ../, with every call that could harm it; the file
// must come out untouched and nothing may appear outside the sandbox.
func TestSafety(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	content := []byte("precious")
	if err := os.WriteFile(victim, content, 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(victim)
	if err != nil {
		t.Fatal(err)
	}
	rel := strings.Repeat("../", 12) + strings.TrimPrefix(victim, "/")
	dir := t.TempDir()
	script := strings.NewReplacer("VICTIM", victim, "REL", rel).Replace(`0 0 access "VICTIM" 0
0 10 stat64 "VICTIM" 0
0 20 lstat64 "VICTIM" 0
0 30 open "VICTIM" O_RDONLY|O_LARGEFILE 5
0 40 read 5 8
0 50 close 5 0
0 60 open "REL" O_RDWR|O_CREAT|O_TRUNC 6
0 70 write 6 100
0 80 close 6 0
0 90 open REL O_RDWR|O_CREAT|O_TRUNC 7
0 100 write 7 100
0 110 close 7 0
0 120 unlink "REL" 0
0 130 unlink "VICTIM" -1
0 140 unlink ../../escape 0
0 150 access "/../../../x" 0
`)
	res, err := Replay(context.Background(), parse(t, script), Options{Dir: dir, Keep: true})
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(victim)
	if err != nil {
		t.Fatalf("victim gone: %v", err)
	}
	if got, _ := os.ReadFile(victim); !bytes.Equal(got, content) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("victim changed: %q, mtime %v → %v", got, before.ModTime(), after.ModTime())
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("outside dir now holds %v", ents)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != SandboxName {
		t.Errorf("the sandbox's parent holds %v", ents)
	}
	if res.Errors != 0 {
		t.Errorf("%d errors: %+v", res.Errors, res.Calls)
	}
	sb := filepath.Join(dir, SandboxName)
	if _, err := os.Stat(filepath.Join(sb, "root", "x")); err != nil {
		t.Errorf("the ../ path was not mirrored inside: %v", err)
	}
	err = filepath.Walk(sb, func(path string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode()&os.ModeSymlink != 0 {
			t.Errorf("symlink in the sandbox: %s", path)
		}
		return err
	})
	if err != nil {
		t.Error(err)
	}
}

func TestReplayBadDir(t *testing.T) {
	s := parse(t, "0 0 write 3 4\n")
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"", filepath.Join(t.TempDir(), "missing"), f} {
		if _, err := Replay(context.Background(), s, Options{Dir: d}); err == nil {
			t.Errorf("dir %q accepted", d)
		}
	}
	huge := parse(t, "0 0 write 3 999999999999\n")
	if _, err := Replay(context.Background(), huge, Options{Dir: t.TempDir()}); err == nil {
		t.Error("a 1 TB write was accepted")
	}
}

// TestReplaySpin checks the spin-before-issue mode keeps the guarantees of
// the sleeping one (nothing early, order kept), reports the timing error
// per kind of call, and names the OS thread of each script thread: one
// kernel thread per script thread, none shared.
func TestReplaySpin(t *testing.T) {
	for _, spin := range []time.Duration{0, 200 * time.Microsecond} {
		t.Run(spin.String(), func(t *testing.T) {
			s := parse(t, oracle)
			res, err := Replay(context.Background(), s, Options{Dir: t.TempDir(), Trace: true, Spin: spin})
			if err != nil {
				t.Fatal(err)
			}
			checkTiming(t, s, res)
			n := 0
			for _, c := range res.Calls {
				if c.Count > 0 && (c.Lag.Median < 0 || c.Lag.Median > c.Lag.P99 || c.Lag.P99 > c.Lag.Max || c.Lag.Max > res.Lag.Max) {
					t.Errorf("%s: inconsistent lag %+v (overall %+v)", c.Call, c.Lag, res.Lag)
				}
				n += c.Count
			}
			if n != res.IOCount {
				t.Errorf("per-call counts sum to %d, io count %d", n, res.IOCount)
			}
			if res.OnTime > res.IOCount || res.OnTime > 0 && (res.LagOnTime.Median < 0 || res.LagOnTime.Max > res.Lag.Max) {
				t.Errorf("on-time lag %+v over %d calls, overall %+v", res.LagOnTime, res.OnTime, res.Lag)
			}
			osOf, tidOf := map[int]int{}, map[int]int{}
			for _, is := range res.Trace {
				if is.OSThread <= 0 {
					t.Fatalf("line %d: no OS thread", is.Line)
				}
				if o, ok := osOf[is.TID]; ok && o != is.OSThread {
					t.Errorf("thread %d ran on OS threads %d and %d", is.TID, o, is.OSThread)
				}
				if x, ok := tidOf[is.OSThread]; ok && x != is.TID {
					t.Errorf("OS thread %d ran script threads %d and %d", is.OSThread, x, is.TID)
				}
				osOf[is.TID], tidOf[is.OSThread] = is.OSThread, is.TID
			}
		})
	}
}

// TestCrossThreadOpen replays a file opened by one thread and written by
// another 10 µs later, with the opening thread held up first by a 64 MiB
// write: the other thread's write must wait for the open (held), not fail
// on an fd that is not there yet.
func TestCrossThreadOpen(t *testing.T) {
	s := parse(t, `0 0 open data/big O_RDWR|O_CREAT|O_TRUNC 3
0 1 write 3 67108864
0 2 open data/shared O_RDWR|O_CREAT|O_TRUNC 4
1 12 write 4 100
1 13 close 4 0
0 20000 close 3 0
`)
	res, err := Replay(context.Background(), s, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Calls {
		if c.Errors != 0 || c.Skipped != 0 {
			t.Errorf("%s: %d errors (%s), %d skipped", c.Call, c.Errors, c.FirstError, c.Skipped)
		}
	}
	if res.Held == 0 {
		t.Errorf("no call held: the second thread's write did not wait for the open")
	}
}

func TestPlanFDs(t *testing.T) {
	tests := []struct {
		name, script string
		opener       []int32
		wait         bool
	}{
		{"another thread's earlier open", "0 0 open data/a O_RDWR 3\n1 5 write 3 1\n1 6 close 3 0\n", []int32{-1, 0, 0}, true},
		{"reused number: each call its own open", "0 0 open data/a O_RDWR 3\n0 10 close 3 0\n1 15 open data/b O_RDWR 3\n1 20 write 3 1\n0 30 open data/c O_RDWR 3\n0 31 write 3 1\n", []int32{-1, 0, -1, 2, -1, 4}, true},
		{"after the close", "0 0 open data/a O_RDWR 3\n0 1 close 3 0\n1 5 write 3 1\n", []int32{-1, 0, -1}, true},
		{"never opened", "0 0 write 7 1\n", []int32{-1}, true},
		{"thread out of time order: no waits", "0 0 open data/a O_RDWR 3\n1 5 write 3 1\n1 2 read 3 1\n", []int32{-1, 0, 0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := planFDs(parse(t, tt.script))
			if !slices.Equal(p.opener, tt.opener) || p.wait != tt.wait {
				t.Errorf("got %v wait %v, want %v wait %v", p.opener, p.wait, tt.opener, tt.wait)
			}
		})
	}
}
