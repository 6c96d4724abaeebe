package mobibench

import (
	"bytes"
	"fmt"
	"time"

	"github.com/droidprof/droidprof/storage/fileio"
)

// Result is the content of a step's result.json, written by both collectors
// with the same fields wherever the tool measures them.
type Result struct {
	Collector string    `json:"collector"` // "mobibench", "fio" or "sqlite3"
	Started   time.Time `json:"started"`
	Config    Config    `json:"config"` // after the preset was applied

	Access        int    `json:"access"`
	AccessName    string `json:"access_name"`
	Sync          int    `json:"sync"`
	SyncName      string `json:"sync_name"`
	Threads       int    `json:"threads"`
	FilePerThread int64  `json:"file_size_per_thread"` // bytes actually used per thread
	IOSize        int64  `json:"io_size"`
	IOCount       int64  `json:"io_count_per_thread"`
	Dir           string `json:"dir"`
	FSType        string `json:"fs_type"`

	ElapsedNS      int64   `json:"elapsed_ns"`
	Bytes          int64   `json:"bytes"`
	IOs            int64   `json:"ios"`
	ThroughputKBps float64 `json:"throughput_kbps"` // KiB/s, Mobibench's KB/sec
	IOPS           float64 `json:"iops"`

	CPUActive float64 `json:"cpu_active_pct"`
	CPUIdle   float64 `json:"cpu_idle_pct"`
	CPUIOWait float64 `json:"cpu_iowait_pct"`
	// CPUSource says what the CPU numbers cover: "/proc/stat over the timed
	// region" (mobibench) or "/proc/stat around the fio process" (fio).
	CPUSource string `json:"cpu_source"`
	// fio's own per-job CPU from getrusage (fio collector only).
	ToolUsrCPU *float64 `json:"tool_usr_cpu_pct,omitempty"`
	ToolSysCPU *float64 `json:"tool_sys_cpu_pct,omitempty"`

	// Context switches of the worker threads over the timed region. fio only
	// reports their sum, so it leaves the split empty.
	CtxVoluntary   *int64 `json:"ctx_voluntary,omitempty"`
	CtxInvoluntary *int64 `json:"ctx_involuntary,omitempty"`
	CtxTotal       int64  `json:"ctx_total"`

	// Page faults: of the worker threads over the timed region (mobibench),
	// of the whole job (fio's minf/majf).
	PageFaultsMinor int64 `json:"page_faults_minor"`
	PageFaultsMajor int64 `json:"page_faults_major"`

	Latency     Latency  `json:"latency"`
	SyncLatency *Latency `json:"sync_latency,omitempty"` // fio: the fsync/fdatasync calls on their own

	CachesDropped bool     `json:"caches_dropped"`
	Warnings      []string `json:"warnings,omitempty"`

	// DB is set by DB-test runs (mobibench with db.op, sqlite3); the file
	// fields above (access, sync, sizes, bytes, IOPS) are then unused.
	DB *DBResult `json:"db,omitempty"`
}

// Latency summarises per-I/O latencies in nanoseconds.
type Latency struct {
	Count  int64   `json:"count"`
	Mean   float64 `json:"mean_ns"`
	P50    int64   `json:"p50_ns"`
	P90    int64   `json:"p90_ns"`
	P99    int64   `json:"p99_ns"`
	P999   int64   `json:"p99_9_ns"`
	Max    int64   `json:"max_ns"`
	Covers string  `json:"covers"` // what one latency includes
}

func summarize(lat []int64, covers string) Latency {
	if len(lat) == 0 {
		return Latency{Covers: covers}
	}
	p := fileio.Percentiles(lat, 50, 90, 99, 99.9, 100)
	var sum float64
	for _, v := range lat {
		sum += float64(v)
	}
	return Latency{Count: int64(len(lat)), Mean: sum / float64(len(lat)), P50: p[0], P90: p[1], P99: p[2], P999: p[3], Max: p[4], Covers: covers}
}

func engineResult(cfg Config, r *fileio.Result) *Result {
	c := r.Config
	vol, invol := r.Switches.Voluntary, r.Switches.Involuntary
	covers := "one write/read plus its per-I/O sync, from the previous completion (includes the lseek of random modes); the final sync is not in any I/O"
	if c.Sync.Mapped() {
		covers = "one memcpy to/from the mapping plus its msync, from the previous completion; the final msync is not in any I/O"
	}
	return &Result{
		Collector: "mobibench", Started: r.Start, Config: cfg,
		Access: int(c.Access), AccessName: c.Access.String(), Sync: int(c.Sync), SyncName: c.Sync.String(),
		Threads: c.Threads, FilePerThread: r.Plan.FileBytes, IOSize: c.IOSize, IOCount: r.Plan.Records,
		Dir: c.Dir, FSType: r.Plan.FSType,
		ElapsedNS: r.Elapsed.Nanoseconds(), Bytes: r.Bytes, IOs: r.IOs, ThroughputKBps: r.KBps(), IOPS: r.IOPS(),
		CPUActive: r.CPU.Active, CPUIdle: r.CPU.Idle, CPUIOWait: r.CPU.IOWait, CPUSource: "/proc/stat over the timed region",
		CtxVoluntary: &vol, CtxInvoluntary: &invol, CtxTotal: r.Switches.Total(),
		PageFaultsMinor: r.Faults.Minor, PageFaultsMajor: r.Faults.Major,
		Latency:       summarize(r.Latencies(), covers),
		CachesDropped: r.CachesDropped, Warnings: r.Warnings,
	}
}

// latencyTSV renders every I/O's latency: thread, I/O index, completion time
// since the clock start and latency, all in ns.
func latencyTSV(r *fileio.Result) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Mobibench -L: access mode %d, sync mode %d; one line per I/O\n", int(r.Config.Access), int(r.Config.Sync))
	b.WriteString("thread\tio\tend_ns\tlatency_ns\n")
	for ti, t := range r.Threads {
		prev := t.Begin
		for i, e := range t.Ends {
			if e < 0 {
				break
			}
			fmt.Fprintf(&b, "%d\t%d\t%d\t%d\n", ti, i, e, e-prev)
			prev = e
		}
	}
	return b.Bytes()
}

// iopsTSV renders I/Os and KiB completed in each second after the start.
func iopsTSV(perSecond []int64, ioSize int64) []byte {
	var b bytes.Buffer
	b.WriteString("second\tios\tkbps\n")
	for s, n := range perSecond {
		fmt.Fprintf(&b, "%d\t%d\t%.2f\n", s, n, float64(n*ioSize)/1024)
	}
	return b.Bytes()
}

// mobibenchOut renders Mobibench's own text output for the run (shell
// version 1.0.8, file mode, quiet), so users who know the tool can read it.
// Sizes are in KB as Mobibench prints them.
func mobibenchOut(r *fileio.Result) []byte {
	c := r.Config
	var b bytes.Buffer
	line := "-----------------------------------------\n"
	b.WriteString(line + "[mobibench measurement setup]\n" + line)
	fmt.Fprintf(&b, "File size per thread : %d KB\n", r.Plan.PerThread/1024)
	fmt.Fprintf(&b, "IO size : %d KB\n", c.IOSize/1024)
	fmt.Fprintf(&b, "IO count : %d \n", r.Plan.Records)
	fmt.Fprintf(&b, "Access Mode %d, Sync Mode %d\n", int(c.Access), int(c.Sync))
	fmt.Fprintf(&b, "# of Threads : %d\n", c.Threads)
	b.WriteString("setState: 1\nsetState: 2\n")
	b.WriteString(line + "[Messurement Result]\n" + line)
	fmt.Fprintf(&b, "[CPU] : Active,Idle,IoWait : %1.2f %1.2f %1.2f\n", r.CPU.Active, r.CPU.Idle, r.CPU.IOWait)
	us := r.Elapsed.Microseconds()
	rate := float64(r.Bytes) / r.Elapsed.Seconds()
	fmt.Fprintf(&b, "[TIME] :%8d sec %06dus. \t%.0f B/sec, \t%.2f KB/sec, \t%.2f MB/sec.", us/1e6, us%1e6, rate, rate/1024, rate/1024/1024)
	if c.Access.Random() {
		fmt.Fprintf(&b, " %.2f IOPS(%dKB) ", r.IOPS(), c.IOSize/1024)
	}
	b.WriteString("\n")
	if c.Threads == 1 {
		fmt.Fprintf(&b, "[CON SWITCHES] : %d %d\n", r.Switches.Total(), r.Switches.Voluntary)
	}
	b.WriteString("setState: 3\nErr string : No error\n")
	return b.Bytes()
}
