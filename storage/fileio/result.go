package fileio

import (
	"slices"
	"time"

	"github.com/droidprof/droidprof/storage/cpustat"
)

// Result is what one Run measured.
type Result struct {
	Config        Config
	Plan          Plan
	Start         time.Time     // the clock start (wall and monotonic)
	Elapsed       time.Duration // clock start to the end of the slowest thread
	Bytes         int64         // bytes transferred over all threads
	IOs           int64         // I/Os over all threads
	CPU           cpustat.Usage // system-wide, /proc/stat, over Elapsed
	Switches      cpustat.Switches
	Faults        cpustat.Faults // page faults of the worker threads in the timed region
	Threads       []ThreadResult
	CachesDropped bool
	Warnings      []string
}

// KBps is the throughput in KiB per second, Mobibench's "KB/sec".
func (r *Result) KBps() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Bytes) / 1024 / r.Elapsed.Seconds()
}

// IOPS is I/Os per second over the whole run.
func (r *Result) IOPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.IOs) / r.Elapsed.Seconds()
}

// Latencies returns the latency of every I/O of every thread in ns, thread
// by thread in issue order, or nil when latency capture was off.
func (r *Result) Latencies() []int64 {
	var out []int64
	for _, t := range r.Threads {
		prev := t.Begin
		for _, e := range t.Ends {
			if e < 0 {
				break // not done (interrupted run)
			}
			out = append(out, e-prev)
			prev = e
		}
	}
	return out
}

// Percentiles returns the given percentiles (0..100) of lat in ns, by the
// nearest-rank method on a sorted copy. It returns zeros for no data.
func Percentiles(lat []int64, ps ...float64) []int64 {
	out := make([]int64, len(ps))
	if len(lat) == 0 {
		return out
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	for i, p := range ps {
		rank := int(p/100*float64(len(s))+0.9999999) - 1 // ceil(p/100*n) - 1
		out[i] = s[min(max(rank, 0), len(s)-1)]
	}
	return out
}

// PerSecond returns how many I/Os completed in each whole second after the
// clock start, over all threads (Mobibench's -k log, computed exactly).
func (r *Result) PerSecond() []int64 {
	var out []int64
	for _, t := range r.Threads {
		for _, e := range t.Ends {
			if e < 0 {
				break
			}
			sec := int(e / int64(time.Second))
			for len(out) <= sec {
				out = append(out, 0)
			}
			out[sec]++
		}
	}
	return out
}
