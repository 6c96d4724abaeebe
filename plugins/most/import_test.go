package most

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/revmap"
	"github.com/droidprof/droidprof/storage/tracefs"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
	"golang.org/x/sys/unix"
)

// MOST's own TSV: the retrospective class in the pid, result.po's tags.
func TestAttributeMostTSV(t *testing.T) {
	trace := strings.Join([]string{
		"0.097000000\tD\tWS\t23901648\t8\t103336\tGCMReader",
		"0.097858699\tC\tWS\t23901648\t8\t103336\tGCMReader\tD\t/data/com.google.android.gms/databases/rmq.db-journal",
		"0.100000000\tC\tWS\t23901700\t16\t503336\tGCMReader\tD\tfile-NONE", // tagged .db, path lost
		"0.200000000\tC\tWSM\t100\t8\t150\tjbd2/mmcblk0p12\tJ",
		"0.300000000\tC\tWM\t8\t8\t150\tkworker/u8:2\tM",
		"",
	}, "\n")
	att, err := Attribute(strings.NewReader(trace), Meta{Format: "auto"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(att.IOs) != 4 {
		t.Fatalf("%d requests: %+v", len(att.IOs), att.IOs)
	}
	want := []struct {
		pid   int
		comm  string
		class revmap.Class
		typ   revmap.BlockType
		file  string
	}{
		{3336, "GCMReader", revmap.ClassJournal, revmap.Data, "/data/com.google.android.gms/databases/rmq.db-journal"},
		{3336, "GCMReader", revmap.ClassDB, revmap.Data, ""},
		{150, "jbd2/mmcblk0p12", revmap.ClassNone, revmap.Journal, ""},
		{150, "kworker/u8:2", revmap.ClassNone, revmap.Metadata, ""},
	}
	for i, w := range want {
		o := att.IOs[i]
		if o.Pid != w.pid || o.Comm != w.comm || o.Class != w.class || o.Type != w.typ || o.File != w.file {
			t.Errorf("request %d: %+v, want %+v", i, o, w)
		}
	}
	if att.IOs[0].Latency() != 858699 {
		t.Errorf("latency %d", att.IOs[0].Latency())
	}
	_, err = Attribute(strings.NewReader("0.1\tC\tW\t8\t8\t1\tx\n0.2\tC\tW\tbad\t8\t1\tx\n"), Meta{Format: "most"}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("malformed line 2: err = %v", err)
	}
}

// Oracle for the capture: blktrace and blkparse, run on the same device
// during the same workload, see the same requests (sector, size,
// direction); and our reader of blkparse's text reads them all.
func TestLiveCaptureAgainstBlktrace(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	testenv.Tool(t, "blktrace", "blktrace")
	testenv.Tool(t, "blkparse", "blktrace")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 128 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer vol.Close()
	// blktrace's relay files live in debugfs: mount it privately.
	dbg := t.TempDir()
	if err := unix.Mount("debugfs", dbg, "debugfs", 0, ""); err != nil {
		t.Fatalf("mount debugfs: %v", err)
	}
	defer unix.Unmount(dbg, 0)
	btDir := t.TempDir()
	bt := exec.Command("blktrace", "-r", dbg, "-d", vol.Device, "-a", "queue", "-a", "issue", "-a", "complete", "-D", btDir, "-o", "trace")
	bt.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	logf, err := os.Create(filepath.Join(t.TempDir(), "blktrace.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	bt.Stdout, bt.Stderr = logf, logf
	btOut := func() string { b, _ := os.ReadFile(logf.Name()); return string(b) }
	if err := bt.Start(); err != nil {
		t.Fatal(err)
	}
	// A blktrace that is killed rather than interrupted leaves its kernel
	// side set up on the device, and the next blktrace there fails with
	// EBUSY: interrupt it, and tear down whatever is left.
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			bt.Process.Signal(os.Interrupt)
			bt.Wait()
		}
	}
	defer func() {
		stop()
		exec.Command("blktrace", "-r", dbg, "-k", "-d", vol.Device).Run()
	}()
	// blktrace says nothing when it is ready; its per-CPU files appear
	// when it has set up the kernel side.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m, _ := filepath.Glob(filepath.Join(btDir, "trace.blktrace.*")); len(m) > 0 {
			break
		}
		if time.Now().After(deadline) || strings.Contains(btOut(), "failed") {
			stop()
			if strings.Contains(btOut(), "Operation not permitted") {
				// Kernel lockdown (integrity mode, e.g.
				// CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY) refuses to
				// open debugfs files that can be mmapped, blktrace's
				// relay buffers among them, with EPERM ("Lockdown:
				// blktrace: debugfs access is restricted" in the
				// kernel log): no userspace blktrace here, root or not.
				// TestLiveCaptureAgainstBlkTracer is the oracle then.
				t.Skipf("kernel limitation: lockdown refuses blktrace's debugfs relay files (EPERM); the blk tracer oracle covers this kernel: %s", strings.TrimSpace(btOut()))
			}
			t.Fatalf("blktrace did not start: %s", btOut())
		}
		time.Sleep(10 * time.Millisecond)
	}
	out := t.TempDir()
	cfg := defaultConfig()
	cfg.Workload = "file"
	cfg.File = FileConfig{Access: 1, Sync: 2, FileSize: 1 << 20, IOSize: 4096}
	_, err = runLive(context.Background(), cfg, env{OutDir: out, StorageDir: vol.Dir, Device: vol.Device, FSType: vol.FSType})
	stop()
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := exec.Command("blkparse", "-D", btDir, "-i", "trace").Output()
	if err != nil {
		t.Fatalf("blkparse: %v", err)
	}
	theirs, err := Attribute(strings.NewReader(string(parsed)), Meta{Format: "blkparse"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(out, TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ours, err := Attribute(f, Meta{Format: "ftrace"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	key := func(o IO) string { return fmt.Sprintf("%d+%d %s", o.Sector, o.Sectors, o.Dir()) }
	count := func(ios []IO) map[string]int {
		m := map[string]int{}
		for _, o := range ios {
			m[key(o)]++
		}
		return m
	}
	a, b := count(ours.IOs), count(theirs.IOs)
	matched := 0
	for k, n := range a {
		matched += min(n, b[k])
	}
	t.Logf("ours %d requests, blktrace %d, %d matched", len(ours.IOs), len(theirs.IOs), matched)
	if len(ours.IOs) < 256 {
		t.Fatalf("only %d requests traced for 256 synced writes", len(ours.IOs))
	}
	for _, side := range []struct {
		name string
		n    int
	}{{"ours", len(ours.IOs)}, {"blktrace's", len(theirs.IOs)}} {
		if float64(matched) < 0.99*float64(side.n) {
			t.Errorf("%d of %s %d requests matched: under 99 %%", matched, side.name, side.n)
		}
	}
	// Both see the submitter of the workload's own writes.
	subm := 0
	for _, o := range theirs.IOs {
		if o.Comm != "" && o.Pid > 0 {
			subm++
		}
	}
	if subm == 0 {
		t.Error("no request with a submitter in blkparse's text")
	}
}

// Oracle for the capture where the userspace blktrace cannot run: the
// kernel's blk tracer (blktrace's own code, printing into the top-level
// trace buffer) records the same device during the same workload, and the
// two traces hold the same requests (sector, size, direction), ≥ 99 %
// matched both ways, as the collector's oracle = "blk" reports it.
func TestLiveCaptureAgainstBlkTracer(t *testing.T) {
	volumetest.NeedRoot(t, "ext4")
	if err := tracefs.BlkTracerAvailable(); err != nil {
		t.Skipf("kernel limitation: %v", err)
	}
	fileCfg := defaultConfig()
	fileCfg.Workload = "file"
	fileCfg.File = FileConfig{Access: 1, Sync: 2, FileSize: 1 << 20, IOSize: 4096}
	readCfg := defaultConfig()
	readCfg.Workload = "command"
	// Writes, then buffered reads (readahead) of the same file once its
	// pages are dropped from the cache (fadvise DONTNEED, this file only):
	// both directions, through writeback and readahead.
	readCfg.Command = []string{"sh", "-c", "dd if=/dev/urandom of=r.dat bs=64k count=64 status=none && sync r.dat && dd if=r.dat iflag=nocache count=0 status=none && cat r.dat > /dev/null"}
	for _, tt := range []struct {
		name    string
		cfg     Config
		minReqs int
		reads   bool
	}{
		{"file random write fsync", fileCfg, 256, false},
		{"sqlite delete journal", defaultConfig(), 30, false},
		{"write, uncache, read", readCfg, 8, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 128 << 20, ImageDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer vol.Close()
			out := t.TempDir()
			cfg := tt.cfg
			cfg.Oracle = "blk"
			_, err = runLive(context.Background(), cfg, env{OutDir: out, StorageDir: vol.Dir, Device: vol.Device, FSType: vol.FSType})
			if errors.Is(err, tracefs.ErrTracerBusy) {
				testenv.SkipOrFail(t, "%v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			var meta Meta
			if err := readJSON(filepath.Join(out, MetaFile), &meta); err != nil {
				t.Fatal(err)
			}
			m := meta.Oracle
			if m == nil {
				t.Fatal("no oracle result in meta.json")
			}
			// Recounted from the two files the step keeps, independently
			// of the collector's bookkeeping.
			ours, theirs := readIOs(t, filepath.Join(out, TraceFile)), readIOs(t, filepath.Join(out, BlkFile))
			again := MatchRequests(ours, theirs, m.WindowStart, m.WindowEnd)
			if again.Matched != m.Matched || again.Ours != m.Ours || again.Theirs != m.Theirs {
				t.Errorf("meta.json says %d/%d/%d, the files %d/%d/%d (matched/ours/theirs)", m.Matched, m.Ours, m.Theirs, again.Matched, again.Ours, again.Theirs)
			}
			t.Logf("window %.3f s: ours %d (%d outside), blktrace %d (%d outside), %d matched: %.2f %% / %.2f %%",
				float64(m.WindowEnd-m.WindowStart)/1e9, m.Ours, m.OursOutside, m.Theirs, m.TheirsOutside, m.Matched, m.OursPct, m.TheirsPct)
			for _, o := range m.OursUnmatched {
				t.Logf("only ours: %d + %d %s %s at %+.6f s", o.Sector, o.Sectors, o.RWBS, o.Comm, float64(o.Complete-m.WindowStart)/1e9)
			}
			for _, o := range m.TheirsUnmatched {
				t.Logf("only blktrace's: %d + %d %s %s at %+.6f s", o.Sector, o.Sectors, o.RWBS, o.Comm, float64(o.Complete-m.WindowStart)/1e9)
			}
			if m.Ours < tt.minReqs {
				t.Fatalf("only %d requests in the window, want at least %d", m.Ours, tt.minReqs)
			}
			reads := 0
			for _, o := range ours {
				if o.Dir() == "R" {
					reads++
				}
			}
			if tt.reads && reads == 0 {
				t.Error("no read request in the trace")
			}
			if m.OursPct < 99 || m.TheirsPct < 99 {
				t.Errorf("matched %.2f %% of ours and %.2f %% of blktrace's: under 99 %%", m.OursPct, m.TheirsPct)
			}
		})
	}
}

func readIOs(t *testing.T, p string) []IO {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	att, err := Attribute(f, Meta{Format: "ftrace"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return att.IOs
}

// MatchRequests: a multiset match within the window, both ways.
func TestMatchRequests(t *testing.T) {
	io := func(sec uint64, n uint32, rwbs string, done int64) IO {
		return IO{Sector: sec, Sectors: n, RWBS: rwbs, Complete: done}
	}
	for _, tt := range []struct {
		name                          string
		ours, theirs                  []IO
		wantOurs, wantTheirs, matched int
		oursOut, theirsOut            int
	}{
		{"same", []IO{io(8, 8, "W", 10), io(16, 8, "R", 11)}, []IO{io(16, 8, "R", 12), io(8, 8, "WS", 13)}, 2, 2, 2, 0, 0},
		{"size differs", []IO{io(8, 8, "W", 10)}, []IO{io(8, 16, "W", 10)}, 1, 1, 0, 0, 0},
		{"direction differs", []IO{io(8, 8, "W", 10)}, []IO{io(8, 8, "R", 10)}, 1, 1, 0, 0, 0},
		{"repeats counted", []IO{io(8, 8, "W", 10), io(8, 8, "W", 20)}, []IO{io(8, 8, "W", 15)}, 2, 1, 1, 0, 0},
		{"outside the window", []IO{io(8, 8, "W", 1), io(16, 8, "W", 50)}, []IO{io(8, 8, "W", 2), io(16, 8, "W", 50), io(24, 8, "W", 101)}, 1, 1, 1, 1, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := MatchRequests(tt.ours, tt.theirs, 5, 100)
			if m.Ours != tt.wantOurs || m.Theirs != tt.wantTheirs || m.Matched != tt.matched || m.OursOutside != tt.oursOut || m.TheirsOutside != tt.theirsOut {
				t.Errorf("%+v", m)
			}
			if len(m.OursUnmatched) != m.Ours-m.Matched || len(m.TheirsUnmatched) != m.Theirs-m.Matched {
				t.Errorf("unmatched lists %d, %d for %d, %d unmatched", len(m.OursUnmatched), len(m.TheirsUnmatched), m.Ours-m.Matched, m.Theirs-m.Matched)
			}
		})
	}
}
