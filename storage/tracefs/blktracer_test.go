package tracefs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
	"golang.org/x/sys/unix"
)

// blkHelperEnv makes the test binary, re-executed, run the blk tracer on
// the device it names and wait to be killed.
const blkHelperEnv = "DROIDPROF_TRACEFS_BLK_HELPER"

func TestParseBlkTracer(t *testing.T) {
	for _, tt := range []struct {
		line    string
		ok      bool
		wantErr bool
		act     byte
		rwbs    string
		sector  uint64
		sectors uint32
		comm    string
		errno   int
	}{
		{line: "           mount-11153   [001] d..1.  5062.741656:   7,1    Q  RA 130944 + 8 [mount]", ok: true, act: 'Q', rwbs: "RA", sector: 130944, sectors: 8, comm: "mount"},
		{line: "     ksoftirqd/1-22      [001] d.s1.  5062.741709:   7,1    C  RA 130944 + 8 [0]", ok: true, act: 'C', rwbs: "RA", sector: 130944, sectors: 8},
		{line: "     ksoftirqd/1-22      [001] d.s1.  5062.741709:   7,1    C  WS 8 + 16 [-5]", ok: true, act: 'C', rwbs: "WS", sector: 8, sectors: 16, errno: -5},
		{line: "  kworker/u8:2-99        [000] ..... 5062.000001: 259,3  D  FWS [kworker/u8:2]", ok: true, act: 'D', rwbs: "FWS", comm: "kworker/u8:2"},
		{line: "           mount-11153   [001] d..1.  5062.741661:   7,1    P   N [mount]"},
		{line: "           mount-11153   [001] d..1.  5062.741662:   7,1    U   N [mount] 1"},
		{line: "           mount-11153   [001] d..1.  5062.741662:   7,1    D  R x + 8 [mount]", wantErr: true},
		{line: "           mount-11153   [001] d..1.  5062.741662:   7,1    C  R 8 + 8 [oops]", wantErr: true},
	} {
		ev, ok, err := ParseLine(tt.line)
		if err != nil || !ok || ev.Name != "blk" {
			t.Errorf("ParseLine(%q) = %+v, %v, %v; want a blk event", tt.line, ev, ok, err)
			continue
		}
		be, ok, err := ParseBlkTracer(ev)
		if (err != nil) != tt.wantErr || ok != tt.ok {
			t.Errorf("%q: ok %v err %v; want ok %v, error %v", tt.line, ok, err, tt.ok, tt.wantErr)
			continue
		}
		if !ok {
			continue
		}
		b := be.Block
		if be.Action != tt.act || b.RWBS != tt.rwbs || b.Sector != tt.sector || b.Sectors != tt.sectors || be.Comm != tt.comm || b.Error != tt.errno || be.Pid != ev.Pid || be.Time != ev.Time {
			t.Errorf("%q: %+v", tt.line, be)
		}
	}
	// An ordinary event is not taken for a blk one.
	if ev, ok, err := ParseLine("dd-5 [000] ..... 1.000000: block_rq_issue: 7,0 W 4096 () 8 + 8 none,0,0 [dd]"); !ok || err != nil || ev.Name != "block_rq_issue" {
		t.Errorf("block_rq_issue line parsed as %+v %v %v", ev, ok, err)
	}
}

// needBlkTracer skips where the kernel has no blk tracer (a kernel
// limitation, named); a top-level tracer in use by something else is not
// one and fails under DROIDPROF_REQUIRE_PRIVILEGED.
func needBlkTracer(t *testing.T) {
	t.Helper()
	needRoot(t)
	if err := BlkTracerAvailable(); err != nil {
		t.Skipf("kernel limitation: %v", err)
	}
}

// openBlk opens the blk tracer on dev, failing or skipping as needBlkTracer
// says.
func openBlk(t *testing.T, dev string, opts BlkOptions) *Instance {
	t.Helper()
	in, err := OpenBlkTracer(dev, opts)
	if errors.Is(err, ErrTracerBusy) {
		testenv.SkipOrFail(t, "%v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// checkRestored checks, under the top-level lock (so no other session is
// in the middle of its own), that the top level holds again what s found
// and that dev's trace is off.
func checkRestored(t *testing.T, s *blkState) {
	t.Helper()
	root, mounted, err := mountTracefs()
	if err != nil {
		t.Fatal(err)
	}
	if mounted != "" {
		defer unmountPrivate(mounted)
	}
	lock, err := lockBlk(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	read := func(p string) string {
		v, err := readControl(p)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct{ file, want string }{
		{"current_tracer", s.Tracer}, {"tracing_on", s.TracingOn}, {"buffer_size_kb", s.BufferKB}, {"options/bin", s.Bin},
	} {
		got := read(filepath.Join(root, c.file))
		if _, exp, ok := strings.Cut(got, "(expanded: "); ok {
			got = strings.TrimSuffix(exp, ")")
		}
		if got != c.want {
			t.Errorf("%s is %q after the session, was %q", c.file, got, c.want)
		}
	}
	if got := selectedClock(read(filepath.Join(root, "trace_clock"))); got != s.Clock {
		t.Errorf("trace_clock is %q after the session, was %q", got, s.Clock)
	}
	if got := read(filepath.Join(s.DevTrace, "enable")); got != "0" {
		t.Errorf("%s/enable is %q after the session", s.DevTrace, got)
	}
	if _, err := os.Stat(BlkStateFile); err == nil {
		t.Errorf("state file %s left behind", BlkStateFile)
	}
}

// The blk tracer sees direct reads of known sectors of a loop device, with
// blktrace's queue, issue and complete records; everything it borrowed is
// back afterwards, and while it runs a second session cannot start.
func TestBlkTracerLoopDevice(t *testing.T) {
	needBlkTracer(t)
	volumetest.NeedRoot(t, "ext4")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer vol.Close()
	in := openBlk(t, vol.Device, BlkOptions{BufferKB: 2048, Clock: "mono"})
	saved := *in.blk
	closed := false
	defer func() {
		if !closed {
			in.Close()
		}
	}()
	if l, err := lockBlk(-1); err != nil || l != nil {
		if l != nil {
			l.Close()
		}
		t.Fatalf("the top-level lock was free while a session held it (%v)", err)
	}
	var out bytes.Buffer
	c, err := in.Start(&out)
	if err != nil {
		t.Fatal(err)
	}
	// Direct reads of the raw device: each is one request of a known
	// place and size.
	fd, err := unix.Open(vol.Device, unix.O_RDONLY|unix.O_DIRECT, 0)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := unix.Mmap(-1, 0, 64<<10, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(buf)
	type req struct {
		sector  uint64
		sectors uint32
	}
	var want []req
	for i := 0; i < 32; i++ {
		size := 4096 << (i % 3)
		off := int64(i+1) << 20
		if _, err := unix.Pread(fd, buf[:size], off); err != nil {
			t.Fatal(err)
		}
		want = append(want, req{uint64(off / 512), uint32(size / 512)})
	}
	unix.Close(fd)
	st, err := c.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true
	checkRestored(t, &saved)
	if st.Lost > 0 || st.Overrun > 0 {
		t.Fatalf("lost events: %+v", st)
	}
	seen := map[req]map[byte]bool{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		ev, ok, err := ParseLine(sc.Text())
		if err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		if !ok || ev.Name != "blk" {
			continue
		}
		be, ok, err := ParseBlkTracer(ev)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || !be.Block.Read() {
			continue
		}
		k := req{be.Block.Sector, be.Block.Sectors}
		if seen[k] == nil {
			seen[k] = map[byte]bool{}
		}
		seen[k][be.Action] = true
	}
	for _, w := range want {
		if a := seen[w]; !a['Q'] || !a['D'] || !a['C'] {
			t.Errorf("read %d + %d: actions %v, want Q, D and C", w.sector, w.sectors, a)
		}
	}
}

// A session killed with SIGKILL leaves the tracer and the device's trace
// on; the next Reap (or OpenBlkTracer) puts them back.
func TestBlkTracerReapAfterKill(t *testing.T) {
	needBlkTracer(t)
	volumetest.NeedRoot(t, "ext4")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer vol.Close()
	cmd, line, err := startHelper(t, blkHelperEnv+"="+vol.Device)
	if err != nil {
		if strings.Contains(line, ErrTracerBusy.Error()) {
			testenv.SkipOrFail(t, "helper: %s", line)
		}
		t.Fatalf("helper: %q %v", line, err)
	}
	data, err := os.ReadFile(BlkStateFile)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no state file while the helper traces: %v", err)
	}
	var s blkState
	if err := json.Unmarshal(data, &s); err != nil || s.Pid != cmd.Process.Pid {
		t.Errorf("state file %s: %+v %v; want the helper's (pid %d)", data, s, err, cmd.Process.Pid)
	}
	// Alive: Reap leaves its session alone.
	if err := Reap(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(BlkStateFile); err != nil {
		t.Errorf("Reap restored a live session: %v", err)
	}
	// Killed, the helper leaves the device's trace and the tracer on
	// (another package's session may restore them first: that is the
	// same code path).
	cmd.Process.Kill()
	cmd.Wait()
	if err := Reap(); err != nil {
		t.Fatal(err)
	}
	checkRestored(t, &s)
}

// The blk tracer's binary records, written as blktrace's per-CPU files,
// are a trace blkparse reads; and blkparse's text of it, read by
// ParseBlkparse, holds the same events as the records themselves.
func TestBlkBinaryThroughBlkparse(t *testing.T) {
	needBlkTracer(t)
	volumetest.NeedRoot(t, "ext4")
	blkparse := testenv.Tool(t, "blkparse", "blktrace")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer vol.Close()
	in := openBlk(t, vol.Device, BlkOptions{BufferKB: 4096, Binary: true})
	saved := *in.blk
	dir := t.TempDir()
	bin, err := os.Create(filepath.Join(dir, "blk.bin"))
	if err != nil {
		in.Close()
		t.Fatal(err)
	}
	c, err := in.Start(bin)
	if err != nil {
		in.Close()
		t.Fatal(err)
	}
	// Synced writes and direct reads through the filesystem.
	data := bytes.Repeat([]byte("droidprof"), 4096)
	for i := 0; i < 16; i++ {
		p := filepath.Join(vol.Dir, "f"+string(rune('a'+i)))
		if err := os.WriteFile(p, data[:4096*(1+i%4)], 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	st, err := c.Stop()
	cerr := in.Close()
	bin.Close()
	if err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	checkRestored(t, &saved)
	if st.Overrun > 0 {
		t.Fatalf("lost events: %+v", st)
	}
	type ev struct {
		act     byte
		sector  uint64
		sectors uint32
		write   bool
		pid     int
	}
	want := map[ev]int{}
	f, err := os.Open(bin.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = ReadBlkBinary(f, func(r BlkRecord) error {
		switch l := r.Letter(); l {
		case 'Q', 'D', 'C':
			want[ev{l, r.Sector, r.Bytes / 512, r.Write(), int(r.Pid)}]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	n, err := WriteBlktraceFiles(f, dir, "trace")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(blkparse, "-q", "-D", dir, "-i", "trace")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("blkparse: %v\n%s(%d records from %+v)", err, stderr.Bytes(), n, st)
	}
	got := map[ev]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for line := 1; sc.Scan(); line++ {
		e, ok, err := ParseBlkparse(sc.Text())
		if err != nil {
			t.Fatalf("blkparse line %d %q: %v", line, sc.Text(), err)
		}
		if !ok {
			continue
		}
		switch e.Action {
		case 'Q', 'D', 'C':
			got[ev{e.Action, e.Block.Sector, e.Block.Sectors, e.Block.Write(), e.Pid}]++
		}
	}
	total := 0
	for k, w := range want {
		total += w
		if got[k] != w {
			t.Errorf("%c %d + %d write=%v pid %d: %d in the records, %d in blkparse's text", k.act, k.sector, k.sectors, k.write, k.pid, w, got[k])
		}
	}
	for k, g := range got {
		if want[k] == 0 {
			t.Errorf("%c %d + %d write=%v pid %d: %d in blkparse's text, none in the records", k.act, k.sector, k.sectors, k.write, k.pid, g)
		}
	}
	t.Logf("%d records, %d queue/issue/complete events, %d bytes of blkparse text", n, total, len(out))
	if total < 3*16 {
		t.Errorf("only %d queue/issue/complete events for 16 synced files", total)
	}
}

// blkBinRecord is one record as the blk tracer prints it with options/bin.
func blkBinRecord(cpu uint32, letter int, sector uint64, bytes uint32, magic uint32, payload []byte) []byte {
	b := make([]byte, 16+blkRecordSize, 16+blkRecordSize+len(payload))
	ne := binary.NativeEndian
	ne.PutUint32(b[0:], 42)
	ne.PutUint32(b[4:], cpu)
	ne.PutUint64(b[8:], 1000)
	t := b[16:]
	ne.PutUint32(t[0:], magic)
	ne.PutUint64(t[8:], 1000)
	ne.PutUint64(t[16:], sector)
	ne.PutUint32(t[24:], bytes)
	ne.PutUint32(t[28:], uint32(letter)|blkTCWrite<<blkTCShift)
	ne.PutUint32(t[32:], 42)
	ne.PutUint32(t[40:], cpu)
	ne.PutUint16(t[46:], uint16(len(payload)))
	return append(b, payload...)
}

func TestWriteBlktraceFiles(t *testing.T) {
	const good = blkMagic | blkVersion
	for _, tt := range []struct {
		name    string
		in      [][]byte
		records int
		files   []string // with their sizes, "name:size"
		wantErr string
	}{
		{"records on CPU 2 only: empty files for 0 and 1", [][]byte{blkBinRecord(2, 1, 8, 4096, good, nil), blkBinRecord(2, 8, 8, 4096, good, nil)}, 2,
			[]string{"t.blktrace.0:0", "t.blktrace.1:0", "t.blktrace.2:96"}, ""},
		{"payload kept", [][]byte{blkBinRecord(0, 10, 0, 0, good, []byte{0, 0, 0, 0, 0, 0, 0, 1})}, 1, []string{"t.blktrace.0:56"}, ""},
		{"not blktrace's magic", [][]byte{blkBinRecord(0, 1, 8, 4096, good, nil), blkBinRecord(0, 1, 8, 4096, 0x12345678, nil)}, 1, nil, "record at 64: magic"},
		{"another version", [][]byte{blkBinRecord(0, 1, 8, 4096, blkMagic|8, nil)}, 0, nil, "version 8"},
		{"cut short", [][]byte{blkBinRecord(0, 1, 8, 4096, good, nil)[:40]}, 0, nil, "record at 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			n, err := WriteBlktraceFiles(bytes.NewReader(bytes.Join(tt.in, nil)), dir, "t")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || n != tt.records {
				t.Fatalf("%d records, %v; want %d", n, err, tt.records)
			}
			ents, _ := os.ReadDir(dir)
			var got []string
			for _, e := range ents {
				fi, _ := e.Info()
				got = append(got, fmt.Sprintf("%s:%d", e.Name(), fi.Size()))
			}
			if strings.Join(got, " ") != strings.Join(tt.files, " ") {
				t.Errorf("files %v, want %v", got, tt.files)
			}
		})
	}
	// The letters blkparse prints for the actions.
	for a, want := range map[int]byte{1: 'Q', 2: 'M', 3: 'F', 4: 'G', 7: 'D', 8: 'C', 9: 'P', 10: 'U', 12: 'I', 13: 'X', 15: 'A'} {
		if got := (BlkRecord{Action: uint32(a)}).Letter(); got != want {
			t.Errorf("action %d: letter %q, want %q", a, got, want)
		}
	}
	if got := (BlkRecord{Action: blkTCNotify << blkTCShift}).Letter(); got != 0 {
		t.Errorf("a notify record has letter %q", got)
	}
}

// Two processes want the blk tracer: while the helper holds it, a second
// OpenBlkTracer waits its Wait and fails with ErrTracerBusy naming the
// helper; one waiting when the helper is killed gets the tracer, the
// helper's leftovers restored first.
func TestBlkTracerTwoProcesses(t *testing.T) {
	needBlkTracer(t)
	volumetest.NeedRoot(t, "ext4")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer vol.Close()
	cmd, line, err := startHelper(t, blkHelperEnv+"="+vol.Device)
	if err != nil {
		if strings.Contains(line, ErrTracerBusy.Error()) {
			testenv.SkipOrFail(t, "helper: %s", line)
		}
		t.Fatalf("helper: %q %v", line, err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	in, err := OpenBlkTracer(vol.Device, BlkOptions{Wait: 300 * time.Millisecond})
	if err == nil {
		in.Close()
		t.Fatal("opened the blk tracer the helper holds")
	}
	if !errors.Is(err, ErrTracerBusy) || !strings.Contains(err.Error(), fmt.Sprintf("process %d ", cmd.Process.Pid)) {
		t.Fatalf("got %v, want ErrTracerBusy naming the helper %d", err, cmd.Process.Pid)
	}
	got := make(chan error, 1)
	go func() {
		in, err := OpenBlkTracer(vol.Device, BlkOptions{Wait: time.Minute})
		if err == nil {
			err = in.Close()
		}
		got <- err
	}()
	cmd.Process.Kill()
	if err := <-got; err != nil {
		t.Fatalf("waiting for the killed helper's tracer: %v", err)
	}
}
