// Package cpustat is CPU accounting for benchmarks: the system-wide CPU time
// split from the aggregate "cpu " line of /proc/stat, as Mobibench reports it,
// and the context switches of individual OS threads.
package cpustat

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Times is the aggregate "cpu " line of /proc/stat, in clock ticks (USER_HZ).
type Times struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal uint64
}

// Read reads the aggregate CPU times from /proc/stat.
func Read() (Times, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return Times{}, fmt.Errorf("cpustat: %w", err)
	}
	return Parse(data)
}

// Parse extracts the aggregate "cpu " line from the text of /proc/stat. Lines
// with fewer than five numbers (kernels before 2.6 had four) are an error;
// missing trailing fields are zero.
func Parse(procStat []byte) (Times, error) {
	sc := bufio.NewScanner(bytes.NewReader(procStat))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "cpu ") {
			continue
		}
		fields := strings.Fields(line)[1:]
		if len(fields) < 5 {
			return Times{}, fmt.Errorf("cpustat: /proc/stat cpu line has %d fields, want at least 5: %q", len(fields), line)
		}
		var v [8]uint64
		for i := 0; i < len(v) && i < len(fields); i++ {
			n, err := strconv.ParseUint(fields[i], 10, 64)
			if err != nil {
				return Times{}, fmt.Errorf("cpustat: /proc/stat cpu field %d: %w", i+1, err)
			}
			v[i] = n
		}
		return Times{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]}, nil
	}
	return Times{}, fmt.Errorf("cpustat: no aggregate \"cpu \" line in /proc/stat")
}

// Usage is the split of CPU time between two readings, in percent.
type Usage struct {
	Active float64 `json:"active_pct"` // user + nice + system
	Idle   float64 `json:"idle_pct"`
	IOWait float64 `json:"iowait_pct"`
	Ticks  uint64  `json:"ticks"` // the denominator: ticks in the five fields
}

// Between computes the usage from before to after the way Mobibench does:
// only the first five fields (user, nice, system, idle, iowait) count, so
// irq, softirq and steal time are in neither numerator nor denominator. When
// no tick elapsed, all percentages are zero.
func Between(before, after Times) Usage {
	d := func(a, b uint64) uint64 {
		if b < a { // counters never go back; guard against a bad reading
			return 0
		}
		return b - a
	}
	user, nice, sys := d(before.User, after.User), d(before.Nice, after.Nice), d(before.System, after.System)
	idle, wait := d(before.Idle, after.Idle), d(before.IOWait, after.IOWait)
	total := user + nice + sys + idle + wait
	if total == 0 {
		return Usage{}
	}
	pct := func(x uint64) float64 { return 100 * float64(x) / float64(total) }
	return Usage{Active: pct(user + nice + sys), Idle: pct(idle), IOWait: pct(wait), Ticks: total}
}

// Switches counts the context switches of one OS thread.
type Switches struct {
	Voluntary   int64 `json:"voluntary"`
	Involuntary int64 `json:"involuntary"`
}

// Sub returns s - o.
func (s Switches) Sub(o Switches) Switches {
	return Switches{s.Voluntary - o.Voluntary, s.Involuntary - o.Involuntary}
}

// Add returns s + o.
func (s Switches) Add(o Switches) Switches {
	return Switches{s.Voluntary + o.Voluntary, s.Involuntary + o.Involuntary}
}

// Total is voluntary plus involuntary switches (Mobibench's nr_switches).
func (s Switches) Total() int64 { return s.Voluntary + s.Involuntary }

// Faults counts page faults: minor ones were served from memory, major ones
// waited for I/O. For mmap workloads they tell how the kernel backed the
// mapping (one fault per 4 KiB page, or one per large folio).
type Faults struct {
	Minor int64 `json:"minor"`
	Major int64 `json:"major"`
}

// Sub returns f − o.
func (f Faults) Sub(o Faults) Faults { return Faults{f.Minor - o.Minor, f.Major - o.Major} }

// Add returns f + o.
func (f Faults) Add(o Faults) Faults { return Faults{f.Minor + o.Minor, f.Major + o.Major} }

// ThreadUsage returns the context switches and page faults of the calling OS
// thread, from getrusage(RUSAGE_THREAD). The caller must have locked its
// goroutine to the thread (runtime.LockOSThread) for the numbers to mean
// anything.
func ThreadUsage() (Switches, Faults, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return Switches{}, Faults{}, fmt.Errorf("cpustat: getrusage(RUSAGE_THREAD): %w", err)
	}
	return Switches{Voluntary: ru.Nvcsw, Involuntary: ru.Nivcsw}, Faults{Minor: ru.Minflt, Major: ru.Majflt}, nil
}

// TaskSwitches reads the switches of thread tid of this process from
// /proc/self/task/<tid>/status. It is the slower, file-based twin of
// ThreadSwitches, usable for threads other than the caller.
func TaskSwitches(tid int) (Switches, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/status", tid))
	if err != nil {
		return Switches{}, fmt.Errorf("cpustat: %w", err)
	}
	return ParseStatusSwitches(data)
}

// ParseStatusSwitches extracts voluntary_ctxt_switches and
// nonvoluntary_ctxt_switches from the text of a /proc status file.
func ParseStatusSwitches(status []byte) (Switches, error) {
	var s Switches
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *int64
		switch key {
		case "voluntary_ctxt_switches":
			dst = &s.Voluntary
		case "nonvoluntary_ctxt_switches":
			dst = &s.Involuntary
		default:
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return Switches{}, fmt.Errorf("cpustat: %s: %w", key, err)
		}
		*dst = n
		found++
	}
	if found != 2 {
		return Switches{}, fmt.Errorf("cpustat: status has no voluntary_ctxt_switches/nonvoluntary_ctxt_switches lines")
	}
	return s, nil
}
