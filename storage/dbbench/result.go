package dbbench

import (
	"time"

	"github.com/droidprof/droidprof/storage/cpustat"
)

// Result is what one run measured.
type Result struct {
	Config        Config           `json:"config"` // after Normalize
	Start         time.Time        `json:"start"`
	Elapsed       time.Duration    `json:"elapsed_ns"` // clock start to the slowest thread's end
	Transactions  int64            `json:"transactions"`
	CPU           cpustat.Usage    `json:"cpu"`
	Switches      cpustat.Switches `json:"ctx_switches"` // sum over the worker threads
	Faults        cpustat.Faults   `json:"page_faults"`
	Threads       []ThreadResult   `json:"threads"`
	SQLiteVersion string           `json:"sqlite_version"`
	Info          []DBInfo         `json:"db_info"` // thread 0's databases, as Mobibench prints them
	Rows          int              `json:"rows"`    // rows per table after prefill (update, delete)
	CachesDropped bool             `json:"caches_dropped"`
	Warnings      []string         `json:"warnings,omitempty"`
}

// ThreadResult is what one worker measured.
type ThreadResult struct {
	Files        []string         `json:"files"`
	Transactions int              `json:"transactions"`
	Elapsed      time.Duration    `json:"elapsed_ns"`    // from the clock start to this thread's end
	Checkpoint   time.Duration    `json:"checkpoint_ns"` // the closing WAL checkpoint
	Switches     cpustat.Switches `json:"ctx_switches"`
	Faults       cpustat.Faults   `json:"page_faults"`
	Begin        int64            `json:"-"` // first transaction's start, ns since the clock start
	// Latencies[i] is how long transaction i's sqlite3_exec took, in ns
	// (the pause between transactions excluded).
	Latencies []int64 `json:"-"`
}

// TPS is Mobibench's Transactions/sec: all threads' transactions over the
// elapsed time, including the WAL checkpoint.
func (r *Result) TPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Transactions) / r.Elapsed.Seconds()
}

// Latencies returns every transaction's latency over all threads.
func (r *Result) Latencies() []int64 {
	var n int
	for _, t := range r.Threads {
		n += len(t.Latencies)
	}
	out := make([]int64, 0, n)
	for _, t := range r.Threads {
		out = append(out, t.Latencies...)
	}
	return out
}
