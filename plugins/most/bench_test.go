package most

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/sdk/stats"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/dbbench"
	"github.com/droidprof/droidprof/storage/fileio"
	"github.com/droidprof/droidprof/storage/revmap"
	"github.com/droidprof/droidprof/storage/tracefs"
	"github.com/droidprof/droidprof/storage/volume"
	"github.com/droidprof/droidprof/storage/volume/volumetest"
	"golang.org/x/sys/unix"
)

// BenchmarkAttribute measures import + attribution of the recorded SQLite
// trace, repeated to 100 times its length, in events per second.
func BenchmarkAttribute(b *testing.B) {
	one, err := os.ReadFile(filepath.Join(fixture, TraceFile))
	if err != nil {
		b.Fatal(err)
	}
	trace := bytes.Repeat(one, 100)
	var fsm FSMap
	var names []revmap.NameEvent
	var meta Meta
	for name, v := range map[string]any{FSMapFile: &fsm, NamesFile: &names, MetaFile: &meta} {
		if err := readJSON(filepath.Join(fixture, name), v); err != nil {
			b.Fatal(err)
		}
	}
	m := fsm.Map()
	b.SetBytes(int64(len(trace)))
	b.ResetTimer()
	// The process's CPU time as well as the wall time: on a shared
	// machine the wall time says how much CPU the benchmark was given,
	// the CPU time what the work costs (the garbage collector's threads
	// included).
	cpu0 := cpuTime(b)
	var events int64
	for i := 0; i < b.N; i++ {
		att, err := Attribute(bytes.NewReader(trace), meta, m, names)
		if err != nil {
			b.Fatal(err)
		}
		events += att.Events
	}
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events)/cpu.Seconds(), "events/CPU-s")
}

// cpuTime is the process's user and system time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCaptureOverhead runs a random write + fsync workload (4 KiB
// records, 4 MiB file) on one ext4 loop volume in pairs of short runs, one
// untraced and one under the live capture (block, ext4 and jbd2 events of
// the device, the collector's options and capture), alternating which goes
// first so drift in the machine's load falls on both sides. It reports the
// median IOPS of each side and the median of the pairs' traced/untraced
// ratios with its 95 % interval: on a shared machine single runs scatter
// far more than the capture costs, and only the paired ratio shows the
// cost. b.N is the number of pairs.
//
// The sub-benchmarks name the capture: raw (the collector's default: the
// binary ring-buffer pages spliced to files, decoded after the run), with
// the reader woken at wake % of a buffer, or text (the kernel's trace_pipe
// text read and written during the run, the fallback). Workloads:
// Mobibench's file test and SQLite insert in this process, as the
// collector runs them (the capture's readers share the process), and fio
// in a process of its own.
func BenchmarkCaptureOverhead(b *testing.B) {
	volumetest.NeedRoot(b, "ext4")
	// The collector's defaults, from its configuration schema.
	def := Config{WakePercent: configDefault(b, "WakePercent"), BufferKB: configDefault(b, "BufferKB")}
	file := func(b *testing.B) func(dir string) float64 {
		return func(dir string) float64 {
			// 16 MiB, 4,096 synced writes (~0.8 s idle): runs long
			// enough that a pair's ratio is not one scheduler hiccup.
			fc := fileio.Config{Dir: dir, Access: fileio.Access(1), Sync: fileio.Sync(2), Threads: 1, FileSize: 16 << 20, IOSize: 4096}
			r, err := fileio.Run(context.Background(), fc)
			if err != nil {
				b.Fatal(err)
			}
			return r.IOPS()
		}
	}
	// The other choices of events, side by side with the defaults: the
	// dirtier from each page going from clean to dirty (dirtier =
	// "page"), the journal commits' processes from every handle
	// (journal = "handles").
	pageDirtier := ext4Capture("page", "fsync")
	handles := ext4Capture("inode", "handles")
	modes := []captureMode{
		{name: "raw", raw: true, wake: def.WakePercent, bufKB: def.BufferKB},
		{name: "raw/dirtier=page", raw: true, wake: def.WakePercent, bufKB: def.BufferKB, events: pageDirtier},
		{name: "raw/journal=handles", raw: true, wake: def.WakePercent, bufKB: def.BufferKB, events: handles},
		{name: "raw/block-events-only", raw: true, wake: def.WakePercent, bufKB: def.BufferKB, events: blockEvents},
		{name: "text", wake: 0, bufKB: def.BufferKB},
	}
	for _, m := range modes {
		b.Run("mobibench-in-process/"+m.name, func(b *testing.B) { captureOverhead(b, m, file(b)) })
	}
	// Mobibench's SQLite insert (DELETE journal, synchronous FULL),
	// the workload of configs/most-sqlite.hcl: transactions per second
	// stand in for IOPS.
	for _, m := range modes {
		b.Run("mobibench-sqlite-in-process/"+m.name, func(b *testing.B) {
			captureOverhead(b, m, func(dir string) float64 {
				r, err := dbbench.Run(context.Background(), dbbench.Config{Dir: dir, Op: dbbench.Insert, Transactions: 300, Threads: 1, Journal: "DELETE"})
				if err != nil {
					b.Fatal(err)
				}
				return r.TPS()
			})
		})
	}
	fio := func(b *testing.B, m captureMode) {
		fio := testenv.Tool(b, "fio", "fio")
		captureOverhead(b, m, func(dir string) float64 {
			out, err := exec.Command(fio, "--name=w", "--directory="+dir, "--rw=randwrite", "--bs=4k", "--size=4m",
				"--fsync=1", "--ioengine=psync", "--output-format=json").Output()
			if err != nil {
				b.Fatalf("fio: %v", err)
			}
			var r struct {
				Jobs []struct {
					Write struct {
						IOPS float64 `json:"iops"`
					} `json:"write"`
				} `json:"jobs"`
			}
			if err := json.Unmarshal(out, &r); err != nil || len(r.Jobs) != 1 {
				b.Fatalf("fio's report: %v", err)
			}
			return r.Jobs[0].Write.IOPS
		})
	}
	for _, m := range []captureMode{modes[0], modes[len(modes)-1]} {
		b.Run("fio-own-process/"+m.name, func(b *testing.B) { fio(b, m) })
	}
}

// captureMode is how a benchmark run captures.
type captureMode struct {
	name   string
	raw    bool // the binary pages (else the text)
	wake   int  // WakePercent
	bufKB  int
	events []string // nil: the collector's ext4 events
	// filters replaces the device filters (nil: the collector's); a
	// filter no event passes runs the tracepoints without recording.
	filters func(events []string, major, minor uint32) map[string]string
	noTGID  bool // record-tgid off
	off     bool // the instance and its events, recording never turned on
}

// captureOverhead measures b.N pairs of workload runs on a fresh volume.
func captureOverhead(b *testing.B, m captureMode, workload func(dir string) float64) {
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 256 << 20, ImageDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer vol.Close()
	events := m.events
	if events == nil {
		events = ext4Capture("inode", "fsync")
	}
	major, minor := devOf(b, vol.Device)
	filters := deviceFilters
	if m.filters != nil {
		filters = m.filters
	}
	opts := tracefs.Options{Events: events, Filters: filters(events, major, minor), BufferKB: m.bufKB, Clock: "mono", RecordTGID: !m.noTGID, WakePercent: m.wake}
	// kinds counts the last traced run's events by name, per operation.
	kinds := map[string]float64{}
	// cpuPerOp is each run's CPU time of this process (the in-process
	// workload, the capture's readers, and the tracepoints' recording
	// charged to the workload's threads) per operation; decodePerOp the
	// CPU time of decoding a raw capture after the run, per operation.
	// sysPerOp is the whole machine's busy CPU time per operation
	// (/proc/stat): the kernel threads that serve the workload — loop
	// worker, block completions, jbd2, writeback — record events too,
	// and their CPU is not this process's.
	// Ticks of 10 ms are coarse beside a run's few hundred ms: the
	// whole runs' sums are compared, not each pair.
	var cpuPerOp, decodePerOp float64
	var sysBusy, sysOps [2]float64 // untraced, traced
	var events0, wakeups0 int64
	run := func(traced bool) float64 {
		var in *tracefs.Instance
		var c *liveCapture
		var f *os.File
		if traced {
			if in, err = tracefs.Open(opts); err != nil {
				b.Fatal(err)
			}
			defer in.Close()
			// The trace goes to files as the collector's does, not to
			// io.Discard: writing it is part of the cost.
			dir := b.TempDir()
			if f, err = os.Create(filepath.Join(dir, TraceFile)); err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			kind := "text"
			if m.raw {
				kind = "raw"
			}
			// off: the tracepoints fire, the buffer refuses them.
			if !m.off {
				if c, err = startCapture(in, kind, filepath.Join(dir, RawDir), f); err != nil {
					b.Fatal(err)
				}
			}
		}
		cpu0, sys0, t0 := cpuTime(b), busyTime(b), time.Now()
		iops := workload(vol.Dir)
		ops := iops * time.Since(t0).Seconds()
		if ops > 0 {
			cpuPerOp = (cpuTime(b) - cpu0).Seconds() / ops
			k := 0
			if traced {
				k = 1
			}
			sysBusy[k] += (busyTime(b) - sys0).Seconds()
			sysOps[k] += ops
		}
		if c != nil {
			cpu1 := cpuTime(b)
			st, err := c.stop(f)
			if err != nil {
				b.Fatal(err)
			}
			if ops > 0 {
				decodePerOp = (cpuTime(b) - cpu1).Seconds() / ops
			}
			if st.Lost > 0 || st.Overrun > 0 {
				b.Fatalf("the capture lost events: %+v", st)
			}
			events0, wakeups0 = st.Lines, st.Wakeups
			clear(kinds)
			if _, err := f.Seek(0, 0); err != nil {
				b.Fatal(err)
			}
			tr := tracefs.NewReader(f)
			for {
				ev, err := tr.Next()
				if err != nil {
					if err != io.EOF {
						b.Fatal(err)
					}
					break
				}
				kinds[ev.Name] += 1 / ops
			}
		}
		return iops
	}
	var plain, traced, ratio, cpuCost, cpuPlain, decode []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var u, t float64
		var cu, ct float64
		if i%2 == 0 {
			u = run(false)
			cu = cpuPerOp
			t = run(true)
			ct = cpuPerOp
		} else {
			t = run(true)
			ct = cpuPerOp
			u = run(false)
			cu = cpuPerOp
		}
		cpuCost, cpuPlain, decode = append(cpuCost, (ct-cu)*1e6), append(cpuPlain, cu*1e6), append(decode, decodePerOp*1e6)
		plain, traced, ratio = append(plain, u), append(traced, t), append(ratio, t/u)
	}
	lo, hi := stats.MedianInterval(ratio)
	b.ReportMetric(stats.Median(plain), "IOPS-untraced")
	b.ReportMetric(stats.Median(traced), "IOPS-traced")
	b.ReportMetric(stats.Median(ratio), "traced/untraced")
	b.ReportMetric(lo, "ratio-lo95")
	b.ReportMetric(hi, "ratio-hi95")
	// The capture's CPU per operation, traced minus untraced: unlike
	// the IOPS ratio it does not depend on how busy the machine keeps
	// the vCPUs (only meaningful for a workload in this process).
	b.ReportMetric(stats.Median(cpuCost), "capture-CPU-µs/op")
	b.ReportMetric(stats.Median(cpuPlain), "untraced-CPU-µs/op")
	// The same difference for the whole machine: meaningful on an idle
	// host only (anyone else's CPU counts too).
	b.ReportMetric((sysBusy[1]/sysOps[1]-sysBusy[0]/sysOps[0])*1e6, "machine-capture-CPU-µs/op")
	// A raw capture's decoding to text, after the workload (the text
	// capture's stop only drains).
	b.ReportMetric(stats.Median(decode), "after-CPU-µs/op")
	b.ReportMetric(float64(events0), "events/run")
	b.ReportMetric(float64(wakeups0), "reader-wakeups/run")
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return kinds[names[i]] > kinds[names[j]] })
	var per strings.Builder
	var total float64
	for _, k := range names {
		fmt.Fprintf(&per, " %s %.1f", k, kinds[k])
		total += kinds[k]
	}
	b.ReportMetric(total, "events/op")
	b.Logf("events per operation (the last traced run):%s", per.String())
	if testing.Verbose() {
		b.Logf("pairs (untraced, traced IOPS): %.0f %.0f", plain, traced)
	}
}

// busyTime is the machine's CPU time so far that was not idle or
// waiting for I/O, summed over the CPUs (/proc/stat's first line).
func busyTime(b *testing.B) time.Duration {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		b.Fatal(err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		b.Fatalf("/proc/stat: first line %q", line)
	}
	var ticks int64
	for i, v := range f[1:8] { // user nice system idle iowait irq softirq
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			b.Fatalf("/proc/stat: %q: %v", line, err)
		}
		if i != 3 && i != 4 {
			ticks += n
		}
	}
	// USER_HZ is 100 on every Linux architecture Go supports.
	return time.Duration(ticks) * 10 * time.Millisecond
}

// configDefault is the default:"…" of an integer field of Config.
func configDefault(b *testing.B, field string) int {
	f, ok := reflect.TypeOf(Config{}).FieldByName(field)
	if !ok {
		b.Fatalf("Config has no field %s", field)
	}
	n, err := strconv.Atoi(f.Tag.Get("default"))
	if err != nil {
		b.Fatalf("Config.%s: default %q: %v", field, f.Tag.Get("default"), err)
	}
	return n
}

func devOf(b *testing.B, dev string) (major, minor uint32) {
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		b.Fatal(err)
	}
	return unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev))
}

// BenchmarkBlkparseSideBySide traces Mobibench's random write + fsync on
// an ext4 loop volume with the kernel's blk tracer in binary, writes the
// records as blktrace's per-CPU files, and times on that same binary trace
// blkparse itself (binary → its default text) and droidprof's reading of
// blkparse's text (import + attribution), in events per second of wall
// and of CPU time. Root; the blk tracer's top level is borrowed for the
// capture only.
func BenchmarkBlkparseSideBySide(b *testing.B) {
	volumetest.NeedRoot(b, "ext4")
	if err := tracefs.BlkTracerAvailable(); err != nil {
		b.Skipf("kernel limitation: %v", err)
	}
	blkparse := testenv.Tool(b, "blkparse", "blktrace")
	dir := b.TempDir()
	func() {
		vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 256 << 20, ImageDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		defer vol.Close()
		in, err := tracefs.OpenBlkTracer(vol.Device, tracefs.BlkOptions{BufferKB: 16384, Binary: true})
		if err != nil {
			b.Fatal(err)
		}
		defer in.Close()
		var bin bytes.Buffer
		c, err := in.Start(&bin)
		if err != nil {
			b.Fatal(err)
		}
		fc := fileio.Config{Dir: vol.Dir, Access: fileio.Access(1), Sync: fileio.Sync(2), Threads: 1, FileSize: 8 << 20, IOSize: 4096}
		if _, err := fileio.Run(context.Background(), fc); err != nil {
			b.Fatal(err)
		}
		st, err := c.Stop()
		if err != nil {
			b.Fatal(err)
		}
		if st.Overrun > 0 {
			b.Fatalf("the blk tracer lost %d events", st.Overrun)
		}
		if _, err := tracefs.WriteBlktraceFiles(&bin, dir, "trace"); err != nil {
			b.Fatal(err)
		}
	}()
	text, err := exec.Command(blkparse, "-q", "-D", dir, "-i", "trace").Output()
	if err != nil {
		b.Fatalf("blkparse: %v", err)
	}
	att, err := Attribute(bytes.NewReader(text), Meta{Format: "blkparse"}, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	events := float64(att.Events)
	b.Logf("%d events (%d requests), %d bytes of blkparse text", att.Events, len(att.IOs), len(text))
	b.Run("blkparse", func(b *testing.B) {
		var cpu time.Duration
		for i := 0; i < b.N; i++ {
			cmd := exec.Command(blkparse, "-q", "-D", dir, "-i", "trace", "-o", "/dev/null")
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		b.ReportMetric(events*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		b.ReportMetric(events*float64(b.N)/cpu.Seconds(), "events/CPU-s")
	})
	b.Run("droidprof-reader", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		cpu0 := cpuTime(b)
		for i := 0; i < b.N; i++ {
			if _, err := Attribute(bytes.NewReader(text), Meta{Format: "blkparse"}, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
		cpu := cpuTime(b) - cpu0
		b.ReportMetric(events*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		b.ReportMetric(events*float64(b.N)/cpu.Seconds(), "events/CPU-s")
	})
}

// BenchmarkEventCost takes the capture's cost on Mobibench's SQLite
// insert apart, in alternating pairs as BenchmarkCaptureOverhead: the
// collector's capture; its events enabled but recording never turned on
// (the tracepoints and filters run, the ring buffer refuses every event);
// its events with filters no event passes (recording on, nothing
// recorded); no filters (every device's events recorded); no record-tgid;
// and the block events only.
func BenchmarkEventCost(b *testing.B) {
	volumetest.NeedRoot(b, "ext4")
	def := Config{WakePercent: configDefault(b, "WakePercent"), BufferKB: configDefault(b, "BufferKB")}
	none := func(events []string, _, _ uint32) map[string]string {
		f := deviceFilters(events, 0, 0)
		for ev := range f {
			f[ev] = strings.ReplaceAll(strings.ReplaceAll(f[ev], `"0:0"`, `"no device"`), "dev == 0", "dev == 4294967295")
		}
		return f
	}
	all := func([]string, uint32, uint32) map[string]string { return map[string]string{} }
	raw := captureMode{raw: true, wake: def.WakePercent, bufKB: def.BufferKB}
	variant := func(name string, set func(*captureMode)) captureMode {
		m := raw
		m.name = name
		set(&m)
		return m
	}
	for _, m := range []captureMode{
		variant("raw", func(*captureMode) {}),
		variant("recording-off", func(m *captureMode) { m.off = true }),
		variant("nothing-passes-the-filters", func(m *captureMode) { m.filters = none }),
		variant("no-filters", func(m *captureMode) { m.filters = all }),
		variant("no-record-tgid", func(m *captureMode) { m.noTGID = true }),
		variant("block-events-only", func(m *captureMode) { m.events = blockEvents }),
		variant("dirtier=page", func(m *captureMode) {
			m.events = ext4Capture("page", "fsync")
		}),
		variant("journal=handles", func(m *captureMode) {
			m.events = ext4Capture("inode", "handles")
		}),
	} {
		b.Run("sqlite/"+m.name, func(b *testing.B) {
			captureOverhead(b, m, func(dir string) float64 {
				r, err := dbbench.Run(context.Background(), dbbench.Config{Dir: dir, Op: dbbench.Insert, Transactions: 300, Threads: 1, Journal: "DELETE"})
				if err != nil {
					b.Fatal(err)
				}
				return r.TPS()
			})
		})
	}
}

// BenchmarkEventCost/per-event measures what one hit of a tracepoint
// costs the thread that hits it: utimensat on a file of the traced ext4
// volume (one jbd2_handle_start of that device per call), b.N calls per
// measurement, in rounds that rotate through the states — no instance;
// the event enabled with recording off; enabled with a filter it fails
// (another device: the path the loop's backing filesystem's events take);
// recorded. The thread's CPU time per call is reported per state (median
// of the rounds); the differences to "untraced" are the per-hit costs.
func BenchmarkEventCostPerHit(b *testing.B) {
	volumetest.NeedRoot(b, "ext4")
	vol, err := volume.Open(context.Background(), volume.Spec{Backend: "loop", FS: "ext4", Size: 64 << 20, ImageDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer vol.Close()
	file := filepath.Join(vol.Dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		b.Fatal(err)
	}
	major, minor := devOf(b, vol.Device)
	const ev = "jbd2/jbd2_handle_start"
	own := deviceFilters([]string{ev}, major, minor)[ev]
	states := []struct {
		name   string
		on     bool   // an instance with the event
		filter string // "": none
		record bool
		clock  string
		noTGID bool
	}{
		{name: "untraced"},
		{name: "recording-off", on: true, filter: own},
		{name: "filtered-out", on: true, filter: "dev == 4294967295", record: true},
		{name: "recorded", on: true, filter: own, record: true},
		{name: "recorded-unfiltered", on: true, record: true},
		{name: "recorded-no-tgid", on: true, filter: own, record: true, noTGID: true},
		{name: "recorded-clock-local", on: true, filter: own, record: true, clock: "local"},
		{name: "recorded-clock-x86-tsc", on: true, filter: own, record: true, clock: "x86-tsc"},
	}
	const rounds = 9
	perCall := make([][]float64, len(states))
	var hits float64
	var sec int64
	calls := func() float64 {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var r0, r1 unix.Rusage
		if err := unix.Getrusage(unix.RUSAGE_THREAD, &r0); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			sec++
			if err := unix.UtimesNano(file, []unix.Timespec{{Sec: sec}, {Sec: sec}}); err != nil {
				b.Fatal(err)
			}
		}
		if err := unix.Getrusage(unix.RUSAGE_THREAD, &r1); err != nil {
			b.Fatal(err)
		}
		cpu := r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano()
		return float64(cpu) / float64(b.N)
	}
	b.ResetTimer()
	for r := 0; r < rounds; r++ {
		for k := range states {
			s := states[(k+r)%len(states)]
			func() {
				if !s.on {
					perCall[(k+r)%len(states)] = append(perCall[(k+r)%len(states)], calls())
					return
				}
				clock, filters := s.clock, map[string]string{}
				if clock == "" {
					clock = "mono"
				}
				if s.filter != "" {
					filters[ev] = s.filter
				}
				in, err := tracefs.Open(tracefs.Options{Events: []string{ev}, Filters: filters, BufferKB: 8192, Clock: clock, RecordTGID: !s.noTGID, WakePercent: 50})
				if err != nil {
					b.Fatal(err)
				}
				defer in.Close()
				var c *tracefs.RawCapture
				dir := b.TempDir()
				if s.record {
					if c, err = in.StartRaw(dir); err != nil {
						b.Fatal(err)
					}
				}
				perCall[(k+r)%len(states)] = append(perCall[(k+r)%len(states)], calls())
				if c != nil {
					st, err := c.Stop()
					if err != nil {
						b.Fatal(err)
					}
					ds, err := tracefs.DecodeRaw(dir, io.Discard)
					if err != nil {
						b.Fatal(err)
					}
					if st.Overrun > 0 || ds.Lost > 0 {
						b.Fatalf("lost events: %+v %+v", st, ds)
					}
					if s.name == "recorded" {
						hits = float64(ds.Events) / float64(b.N)
					}
				}
			}()
		}
	}
	for k, s := range states {
		b.ReportMetric(stats.Median(perCall[k]), "ns/call-"+s.name)
	}
	b.ReportMetric(hits, "events/call")
}
