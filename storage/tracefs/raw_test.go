package tracefs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
	"golang.org/x/sys/unix"
)

// rawEvents are the events the most collector records on ext4.
var rawEvents = []string{
	"block/block_bio_queue", "block/block_getrq", "block/block_rq_issue", "block/block_rq_complete",
	"ext4/ext4_ext_map_blocks_exit", "ext4/ext4_ind_map_blocks_exit", "ext4/ext4_free_blocks",
	"ext4/ext4_unlink_enter", "ext4/ext4_sync_file_enter", "ext4/ext4_da_write_begin", "ext4/ext4_write_begin",
	"writeback/writeback_dirty_folio", "writeback/writeback_dirty_inode_enqueue",
	"jbd2/jbd2_handle_start", "jbd2/jbd2_start_commit", "jbd2/jbd2_end_commit",
}

// rawXFSEvents are those the most collector records on xfs.
var rawXFSEvents = []string{
	"block/block_bio_queue", "block/block_rq_issue", "block/block_rq_complete",
	"xfs/xfs_iext_insert", "xfs/xfs_bmap_post_update", "xfs/xfs_free_extent",
}

// openRawVolume makes a loop volume of filesystem fs and an instance
// recording events of its device (recording off), with bufKB per CPU.
func openRawVolume(t testing.TB, fs string, events []string, bufKB int) (*volume.Volume, *Instance) {
	needRoot(t)
	volumetest.NeedRoot(t, fs)
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: fs, Size: 320 << 20, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { vol.Close() })
	var st unix.Stat_t
	if err := unix.Stat(vol.Device, &st); err != nil {
		t.Fatal(err)
	}
	major, minor := unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev))
	opts := Options{Events: events, Filters: map[string]string{}, BufferKB: bufKB, Clock: "mono", RecordTGID: true}
	for _, ev := range events {
		opts.Filters[ev] = fmt.Sprintf("dev == %d", KernelDev(major, minor))
		if ev == "writeback/writeback_dirty_folio" {
			// No dev field: the backing device's name.
			opts.Filters[ev] = fmt.Sprintf(`name == "%d:%d"`, major, minor)
		}
	}
	in, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := in.Close(); err != nil {
			t.Error(err)
		}
	})
	return vol, in
}

// rawWorkload creates, writes, fsyncs and deletes files on the volume, as
// SQLite's rollback journal does, then syncs the filesystem: block, ext4
// (allocation, unlink, free) and jbd2 events.
func rawWorkload(t testing.TB, dir string, rounds int) {
	buf := bytes.Repeat([]byte("droidprof"), 4096/9+1)[:4096]
	for i := 0; i < rounds; i++ {
		p := filepath.Join(dir, fmt.Sprintf("f%d", i%7))
		f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 1+i%5; k++ {
			if _, err := f.WriteAt(buf, int64(k*3*4096)); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if i%3 == 2 {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Syncfs(fd); err != nil {
		t.Fatal(err)
	}
}

// parseAll parses ftrace text into events and sums its LOST markers.
func parseAll(t *testing.T, what string, text []byte) ([]Event, int64) {
	t.Helper()
	r := NewReader(bytes.NewReader(text))
	var evs []Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return evs, r.Lost
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		evs = append(evs, ev)
	}
}

// TestRawDecodeMatchesKernelText records a workload into an instance's
// buffers, reads the kernel's own text of them from the non-consuming
// "trace" file, then drains the same buffers as binary pages
// (trace_pipe_raw, splice and read) and decodes them: every event must be
// the kernel's, field for field and in the same order — the kernel is the
// oracle of the page, event-header and field decoding and of the print
// formats.
func TestRawDecodeMatchesKernelText(t *testing.T) {
	for _, tc := range []struct {
		fs     string
		events []string
		want   []string // event names that must be among those compared
	}{
		{"ext4", rawEvents, []string{"block_bio_queue", "block_getrq", "block_rq_issue", "block_rq_complete", "ext4_ext_map_blocks_exit",
			"writeback_dirty_folio", "writeback_dirty_inode_enqueue", "ext4_free_blocks", "ext4_unlink_enter", "ext4_sync_file_enter", "ext4_da_write_begin", "jbd2_handle_start", "jbd2_start_commit", "jbd2_end_commit"}},
		{"xfs", rawXFSEvents, []string{"block_bio_queue", "block_rq_issue", "block_rq_complete", "xfs_iext_insert",
			"xfs_bmap_post_update", "xfs_free_extent"}},
	} {
		t.Run(tc.fs, func(t *testing.T) { rawMatchesKernel(t, tc.fs, tc.events, tc.want) })
	}
}

// traceRawWorkload traces rounds of rawWorkload in dir with in, tracing
// on only while it runs.
func traceRawWorkload(t *testing.T, in *Instance, dir string, rounds int) {
	if err := in.SetTracing(true); err != nil {
		t.Fatal(err)
	}
	rawWorkload(t, dir, rounds)
	if err := in.SetTracing(false); err != nil {
		t.Fatal(err)
	}
}

// drainRaw reads what in's buffers hold through the raw capture and
// decodes it to text.
func drainRaw(t *testing.T, in *Instance) (*RawCapture, RawStats, DecodeStats, *bytes.Buffer) {
	dir := t.TempDir()
	c, err := in.startRaw(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	rst, err := c.Stop()
	if err != nil {
		t.Fatal(err)
	}
	var decoded bytes.Buffer
	dst, err := DecodeRaw(dir, &decoded)
	if err != nil {
		t.Fatal(err)
	}
	return c, rst, dst, &decoded
}

func rawMatchesKernel(t *testing.T, fs string, events, wantNames []string) {
	vol, in := openRawVolume(t, fs, events, 4096)
	traceRawWorkload(t, in, vol.Dir, 120)
	kernelText, err := os.ReadFile(filepath.Join(in.Dir, "trace"))
	if err != nil {
		t.Fatal(err)
	}
	c, rst, dst, decoded := drainRaw(t, in)
	want, wantLost := parseAll(t, "kernel text", kernelText)
	got, gotLost := parseAll(t, "decoded text", decoded.Bytes())
	t.Logf("%d events; raw: %d bytes, %d pages decoded, %d unknown", len(want), rst.Bytes, dst.Pages, dst.Unknown)
	if wantLost != 0 || gotLost != 0 || dst.Lost != 0 || rst.Overrun != 0 {
		t.Fatalf("events lost (kernel text %d, decoded %d/%d, overrun %d): the buffer is too small for the test", wantLost, gotLost, dst.Lost, rst.Overrun)
	}
	// More pages than CPUs: full pages went by splice, not only the last
	// partly written one by read.
	if len(want) < 300 || dst.Pages <= int64(len(c.cpus)) {
		t.Fatalf("too little traced to test with: %d events in %d pages", len(want), dst.Pages)
	}
	names := map[string]int{}
	for i := 0; i < len(want) && i < len(got); i++ {
		w, g := want[i], got[i]
		names[g.Name]++
		// The kernel prints microseconds, rounded; xfs's hashed
		// pointer and caller symbol are not in the record.
		w.Body = maskKernelAddrs(w.Body)
		if w.Name != g.Name || w.Body != g.Body || w.Pid != g.Pid || w.TGID != g.TGID || w.CPU != g.CPU ||
			w.Comm != g.Comm || w.Time != (g.Time+500)/1000*1000 {
			t.Fatalf("event %d differs:\nkernel:  %+v\ndecoded: %+v", i, w, g)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("decoded %d events, the kernel's text has %d", len(got), len(want))
	}
	t.Logf("compared by event: %v", names)
	for _, n := range wantNames {
		if names[n] == 0 {
			t.Errorf("no %s event compared: %v", n, names)
		}
	}
}

// maskKernelAddrs replaces what xfs's events print of kernel addresses
// (" cur <hashed pointer>/" and " caller <symbol>") by the decoder's "?".
func maskKernelAddrs(body string) string {
	if i := strings.Index(body, " cur "); i >= 0 {
		if j := strings.IndexByte(body[i+5:], '/'); j >= 0 {
			body = body[:i+5] + "?" + body[i+5+j:]
		}
	}
	if i := strings.Index(body, " caller "); i >= 0 {
		body = body[:i+8] + "?"
	}
	return body
}

// TestRawLostEvents overruns a one-page-per-CPU buffer in overwrite mode:
// the pages read afterwards carry the kernel's missed-events flag and
// count, which the decoder must report (and print as LOST lines), never
// drop silently.
func TestRawLostEvents(t *testing.T) {
	vol, in := openRawVolume(t, "ext4", rawEvents, 4)
	traceRawWorkload(t, in, vol.Dir, 60)
	_, rst, dst, decoded := drainRaw(t, in)
	_, textLost := parseAll(t, "decoded text", decoded.Bytes())
	t.Logf("overrun %d; decoded: %d events, %d lost (%d pages without a count)", rst.Overrun, dst.Events, dst.Lost, dst.LostUncounted)
	if rst.Overrun == 0 {
		t.Fatal("the one-page buffer did not overrun: nothing to test")
	}
	if dst.Lost == 0 || textLost == 0 {
		t.Fatalf("the kernel overwrote %d events, the decoded pages report %d lost and the text %d", rst.Overrun, dst.Lost, textLost)
	}
	if dst.Lost > rst.Overrun+dst.LostUncounted {
		t.Errorf("more lost (%d) than the kernel overwrote (%d)", dst.Lost, rst.Overrun)
	}
}

// TestDecodeRawBadInput: malformed capture files give errors naming the
// file and the line or offset.
func TestDecodeRawBadInput(t *testing.T) {
	const headerPage = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n"
	const headerEvent = "\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n\ttime_stamp : type == 31\n"
	const format = "name: e\nID: 7\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\tfield:u32 x;\toffset:8;\tsize:4;\tsigned:0;\n"
	page := func(commit uint64, data ...byte) []byte {
		p := make([]byte, 4096)
		p[8], p[9], p[10], p[11] = byte(commit), byte(commit>>8), byte(commit>>16), byte(commit>>24)
		copy(p[16:], data)
		return p
	}
	// One 12-byte record (type_len 3): common_type 7, pid 1, x 5.
	good := []byte{3, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0}
	cases := []struct {
		name   string
		files  map[string]string
		want   string // in the error; "" for success
		events int64
	}{
		{"good", map[string]string{"cpu0.raw": string(page(16, good...))}, "", 1},
		{"partial page", map[string]string{"cpu0.raw": string(page(16, good...)[:1000])}, "cpu0.raw: 1000 bytes, not a whole number of 4096-byte pages (offset 0)", 0},
		{"commit too large", map[string]string{"cpu0.raw": string(page(5000))}, "page at offset 0: commit 5000", 0},
		{"event past the data", map[string]string{"cpu0.raw": string(page(16, 8, 0, 0, 0))}, "offset 16: event length 32 runs past", 0},
		{"bad format", map[string]string{"cpu0.raw": string(page(0)), "formats/s/e/format": "name: e\nID: x\n"}, "formats/s/e/format:2: bad ID", 0},
		{"bad cmdlines", map[string]string{"cpu0.raw": string(page(0)), "saved_cmdlines": "1 init\nfoo\n"}, "saved_cmdlines:2: not \"pid value\"", 0},
		{"no pages", map[string]string{}, "no cpuN.raw page files", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"formats/header_page": headerPage, "formats/header_event": headerEvent, "formats/s/e/format": format}
			for k, v := range tc.files {
				files[k] = v
			}
			for name, data := range files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var out bytes.Buffer
			st, err := DecodeRaw(dir, &out)
			if tc.want == "" {
				if err != nil || st.Events != tc.events {
					t.Fatalf("got %d events, %v", st.Events, err)
				}
				if !strings.Contains(out.String(), "e: x=5") {
					t.Fatalf("decoded %q", out.String())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// BenchmarkDecodeRaw decodes a raw capture of rawWorkload on ext4 (about
// 5,000 block, ext4 and jbd2 events) to text, in events per second.
func BenchmarkDecodeRaw(b *testing.B) {
	dir := b.TempDir()
	func() {
		vol, in := openRawVolume(b, "ext4", rawEvents, 4096)
		c, err := in.StartRaw(dir)
		if err != nil {
			b.Fatal(err)
		}
		rawWorkload(b, vol.Dir, 120)
		if _, err := c.Stop(); err != nil {
			b.Fatal(err)
		}
	}()
	var events int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := DecodeRaw(dir, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		events += st.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
