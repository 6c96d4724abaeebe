package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/storage/harness"
)

// Options configure Replay.
type Options struct {
	// Dir is where the sandbox Dir/mobigen_temp is made; it must exist.
	Dir string
	// Keep leaves the sandbox in place after the replay.
	Keep bool
	// Trace records every issued call in Result.Trace.
	Trace bool
	// Spin is how long before each deadline a thread stops sleeping and
	// busy-waits on the clock instead: a sleep wakes up late by the
	// scheduler's latency, which a loaded machine makes tens to hundreds
	// of µs, while a spinning thread issues within a clock read of the
	// deadline. It costs CPU (at most Spin per call); 0 sleeps all the way
	// as Mobibench's usleep does.
	Spin time.Duration
	// Realtime runs the replay threads under SCHED_FIFO (priority 1, needs
	// root or CAP_SYS_NICE), so on a loaded machine a thread whose time
	// has come preempts ordinary tasks instead of queueing behind them. The
	// kernel's real-time throttling still leaves the others 5 % of each
	// second. Where the kernel refuses, the replay runs as usual and
	// Result.RealtimeError says why.
	Realtime bool
}

// Issued is one call as the replay issued it; times are from the replay's
// clock start.
type Issued struct {
	Line      int           `json:"line"`
	TID       int           `json:"tid"`
	Call      Call          `json:"call"`
	Scheduled time.Duration `json:"scheduled_ns"`
	Issued    time.Duration `json:"issued_ns"`
	Duration  time.Duration `json:"duration_ns"`
	Err       string        `json:"err,omitempty"`
	// OSThread is the kernel thread id that issued the call, so a trace
	// of the replay (strace, perf) can be matched to the script's threads.
	OSThread int `json:"os_thread"`
}

// Result is what a replay measured: Mobibench's figures first, then the
// per-call latencies and how closely the replay kept to the script's clock.
type Result struct {
	Script  Stats     `json:"script"`
	Sandbox string    `json:"sandbox"`
	Started time.Time `json:"started"`

	// Wall is the replay's duration from its clock start (script time
	// Script.Start) to the end of the last thread.
	Wall       time.Duration `json:"wall_ns"`
	IOTime     time.Duration `json:"io_time_ns"` // sum of the issued calls' durations (Mobibench's Total IO time)
	IOCount    int           `json:"io_count"`   // calls issued
	WriteBytes int64         `json:"write_bytes"`
	ReadBytes  int64         `json:"read_bytes"`

	Calls []CallResult `json:"calls"` // per kind present in the script, in Call order
	// Lag is issue time − scheduled time over the issued calls.
	Lag LagStats `json:"lag"`
	// LagOnTime is Lag over the calls whose thread was ready before their
	// scheduled time: the replay's own issue error. The other calls were
	// held up by the thread's previous call running past their time (the
	// storage is slower than the traced one), which the open loop then
	// catches up on; Lag includes those delays.
	LagOnTime LagStats `json:"lag_on_time"`
	OnTime    int      `json:"on_time"` // calls counted in LagOnTime
	// Held counts the calls that could not be issued on time: at their
	// scheduled time their thread was still inside its previous call, or
	// (a close) another thread's call was still using the file. A replay
	// cannot issue those early; LagHeld is how late they were.
	Held    int      `json:"held"`
	LagHeld LagStats `json:"lag_held"`
	// Errors counts the calls that failed here although they succeeded in
	// the trace, over all kinds.
	Errors int `json:"errors"`
	// Unprepared lists sandbox files the pre-pass could not create (paths the
	// filesystem cannot hold); the calls on them fail and are counted.
	Unprepared []string `json:"unprepared,omitempty"`
	// Realtime tells whether the threads ran under SCHED_FIFO; RealtimeError
	// is why not, when Options.Realtime asked for it.
	Realtime      bool   `json:"realtime,omitempty"`
	RealtimeError string `json:"realtime_error,omitempty"`
	// Warnings are positioned notes on script lines this storage made the
	// replay issue differently (O_DIRECT refused by the filesystem).
	Warnings []string `json:"warnings,omitempty"`
	// Trace is every issued call in issue order, with Options.Trace.
	Trace []Issued `json:"trace,omitempty"`
}

// CallResult is the outcome of one kind of call.
type CallResult struct {
	Call  Call `json:"call"`
	Lines int  `json:"lines"` // entries of this kind in the script
	Count int  `json:"count"` // issued
	// Skipped were not issued: the fd was never opened (the script lacks the
	// open, or it failed), or the traced data call failed, so no size is known.
	Skipped int `json:"skipped"`
	// Errors failed here but not in the trace; FailedAsTraced failed in
	// both; Unexpected succeeded here but failed in the trace.
	Errors         int    `json:"errors"`
	FailedAsTraced int    `json:"failed_as_traced"`
	Unexpected     int    `json:"unexpected_success"`
	Short          int    `json:"short"` // data calls that moved fewer bytes than traced
	FirstError     string `json:"first_error,omitempty"`

	Total time.Duration `json:"total_ns"`
	P50   time.Duration `json:"p50_ns"`
	P99   time.Duration `json:"p99_ns"`
	Max   time.Duration `json:"max_ns"`
	// Lag is issue time − scheduled time over this kind's issued calls.
	Lag LagStats `json:"lag"`
}

// LagStats summarise how late calls were issued against the script's clock.
type LagStats struct {
	Median time.Duration `json:"median_ns"`
	P99    time.Duration `json:"p99_ns"`
	Max    time.Duration `json:"max_ns"`
}

// threadLead starts a thread's goroutine (and its OS thread) this long
// before its first call, so creating the thread does not delay that call.
// Mobibench uses a whole second; threads that sleep cost nothing. 5 ms
// was too little on a loaded machine: creating the OS thread took 3 ms
// more once.
const threadLead = 100 * time.Millisecond

// Replay replays s inside Options.Dir/mobigen_temp. Failing calls are
// counted, not fatal; an error means the replay could not be set up or ctx
// ended it, in which case the partial result is returned with it. Unless
// Keep is set the sandbox is removed at the end, also after an error.
func Replay(ctx context.Context, s *Script, o Options) (res *Result, err error) {
	if o.Dir == "" {
		return nil, errors.New("replay: no directory given")
	}
	if fi, err := os.Stat(o.Dir); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("replay: %s is not a directory", o.Dir)
	}
	sandbox := filepath.Join(o.Dir, SandboxName)
	p, err := newPlan(s, sandbox)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer func() {
		if o.Keep {
			return
		}
		if rerr := os.RemoveAll(sandbox); rerr != nil && err == nil {
			err = fmt.Errorf("replay: remove sandbox: %w", rerr)
		}
	}()
	// The set-up runs on an OS thread of its own that dies with it, so that
	// every OS thread that later issues script calls issues nothing else (the
	// strace oracle in the tests relies on this).
	setup := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		setup <- p.create()
	}()
	if err := <-setup; err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}

	// Every replay thread is locked to its OS thread and must hold one of
	// the Go scheduler's Ps to run: with fewer Ps than threads, a thread
	// back from its sleep waits for a P (up to the 10 ms preemption tick
	// when others spin) and issues its call late. The OS then schedules the
	// threads on the cores, waking sleepers ahead of spinners.
	// harness.RaiseProcs counts its users, so two replays (or a replay and
	// a Mobibench run) that overlap restore the setting only when the last
	// one ends, never one's raise undone under the other.
	defer harness.RaiseProcs(len(s.threadIDs()) + 2)()
	r := newRun(s, p)
	r.trace = o.Trace
	r.spin = max(o.Spin, 0)
	r.realtime = o.Realtime
	// Collect now, with the plan and the buffers made, so that the next
	// collection (whose stop-the-world phases would stop the replay
	// threads too) is a heap's growth away; the threads allocate next to
	// nothing while they replay.
	runtime.GC()
	res = r.run(ctx)
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("replay interrupted: %w", err)
	}
	return res, nil
}

// fdEntry is one open replay fd. Calls hold mu for reading while they use
// fd; close takes it for writing, so no call can ever be issued on an fd
// number after we closed it and the process (or another goroutine of the
// host) reused it for a file outside the sandbox.
type fdEntry struct {
	mu     sync.RWMutex
	fd     int
	closed bool
}

type thread struct {
	tid     int
	entries []int // indices into the script, in file order as Mobibench walks them
}

type run struct {
	s      *Script
	p      *plan
	origin int64 // script time of the replay clock's start
	wbuf   []byte
	trace  bool
	spin   time.Duration

	realtime bool
	rtOnce   sync.Once
	rtErr    error

	fds fdPlan
	mu  sync.Mutex
	// files are our open fds by the script's open entry that made them.
	files map[int32]*fdEntry
	// opened[j] is set once open entry j was issued.
	opened []atomic.Bool

	stop atomic.Bool // set when the replay's context ends
}

// threadStats is what one thread measured, merged after the run.
type threadStats struct {
	durs               [numCalls][]time.Duration
	callLags           [numCalls][]time.Duration
	onTime, held       []time.Duration
	res                [numCalls]CallResult
	lags               []time.Duration
	writeBytes, rdByte int64
	trace              []Issued
}

func newRun(s *Script, p *plan) *run {
	st := s.Stats()
	r := &run{s: s, p: p, origin: st.Start, fds: planFDs(s), files: map[int32]*fdEntry{}}
	r.opened = make([]atomic.Bool, len(s.Entries))
	r.wbuf = pageAligned(st.MaxWrite)
	for i := range r.wbuf {
		r.wbuf[i] = filler
	}
	return r
}

// fdPlan resolves the script's fd numbers before the replay: which open
// gave each call its fd. Fd numbers in a script are reused (the cleaner
// numbers open files, and a number is free again after its close), so
// resolving them at run time through one table would let a thread running
// late rebind a number another thread's file now has, and write into the
// wrong file. Resolved in trace time order, every call reaches the file it
// reached when traced.
type fdPlan struct {
	// opener[i] is the open that gave call i its fd, or -1 (an fd never
	// opened in the script).
	opener []int32
	// replaces[j] is, for open j, an earlier open of the same fd number
	// that the script never closed (Mobibench drops some lines): its file
	// is closed, untimed, when j is issued.
	replaces []int32
	// wait is set when the threads' calls are each in time order: a call
	// whose file another thread opens then waits for that open (and counts
	// as held) — a replay thread running late must not let the others'
	// calls on its file go first. Every wait is for a call earlier in the
	// trace, and each thread issues its calls in trace order, so no two
	// threads can wait for each other; a thread out of time order would
	// break that, and such a script gets no waits.
	wait bool
}

func planFDs(s *Script) fdPlan {
	p := fdPlan{opener: make([]int32, len(s.Entries)), replaces: make([]int32, len(s.Entries)), wait: true}
	last := map[int]int64{}
	order := make([]int, len(s.Entries))
	for i, e := range s.Entries {
		p.opener[i], p.replaces[i], order[i] = -1, -1, i
		if t, ok := last[e.TID]; ok && e.Time < t {
			p.wait = false
		}
		last[e.TID] = e.Time
	}
	sort.SliceStable(order, func(a, b int) bool { return s.Entries[order[a]].Time < s.Entries[order[b]].Time })
	open := map[int]int32{} // script fd → the open that gave it
	for _, i := range order {
		e := &s.Entries[i]
		switch {
		case e.Call == Open && e.Ret >= 0:
			if o, ok := open[int(e.Ret)]; ok {
				p.replaces[i] = o
			}
			open[int(e.Ret)] = int32(i)
		case e.Call.usesFD():
			if o, ok := open[e.FD]; ok {
				p.opener[i] = o
			}
			if e.Call == Close {
				delete(open, e.FD)
			}
		}
	}
	return p
}

// openPoll is how often a call waiting for another thread's open looks
// whether it was issued: the waiting thread naps in nanosleep, like the
// replay threads' timing (napUntil), rather than blocking in the Go
// scheduler.
const openPoll = 20 * time.Microsecond

// awaitOpen waits until open entry o was issued by its thread; false if the
// replay was cancelled first.
func (r *run) awaitOpen(o int32) bool {
	ts := unix.NsecToTimespec(int64(openPoll))
	for !r.opened[o].Load() {
		if r.stop.Load() {
			return false
		}
		nap(&ts)
	}
	return true
}

// threadIDs returns the script's distinct thread ids.
func (s *Script) threadIDs() map[int]bool {
	ids := map[int]bool{}
	for _, e := range s.Entries {
		ids[e.TID] = true
	}
	return ids
}

func (r *run) threads() []thread {
	idx := map[int]int{}
	var ths []thread
	for i, e := range r.s.Entries {
		j, ok := idx[e.TID]
		if !ok {
			j = len(ths)
			idx[e.TID] = j
			ths = append(ths, thread{tid: e.TID})
		}
		ths[j].entries = append(ths[j].entries, i)
	}
	sort.SliceStable(ths, func(a, b int) bool {
		return r.s.Entries[ths[a].entries[0]].Time < r.s.Entries[ths[b].entries[0]].Time
	})
	return ths
}

func (r *run) deadline(start time.Time, e *Entry) time.Time {
	return start.Add(time.Duration(e.Time-r.origin) * time.Microsecond)
}

// napChunk bounds one kernel sleep of a replay thread, so that a
// cancelled replay ends within it.
const napChunk = 10 * time.Millisecond

// sleepUntil waits for the deadline on the Go scheduler's timer; false if
// ctx ended first. Only the goroutine starting the threads uses it.
func sleepUntil(ctx context.Context, t *time.Timer, deadline time.Time) bool {
	if d := time.Until(deadline); d > 0 {
		t.Reset(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
	}
	return ctx.Err() == nil
}

// napUntil is a replay thread's wait for the deadline; false if the
// replay was cancelled. The thread sleeps in nanosleep all the way, as
// Mobibench's usleep does: waking a goroutine locked to its thread through
// the Go scheduler costs a hand-off between OS threads, measured here as
// half a millisecond of extra timing error, and more when the scheduler's
// Ps are busy. Cancellation is an atomic flag, not ctx.Err(): that takes
// the context's mutex, which the replay threads would contend for.
func napUntil(stop *atomic.Bool, deadline time.Time) bool {
	for d := time.Until(deadline); d > 0; d = time.Until(deadline) {
		if stop.Load() {
			return false
		}
		ts := unix.NsecToTimespec(int64(min(d, napChunk)))
		if !nap(&ts) {
			break
		}
	}
	return !stop.Load()
}

// nap sleeps in nanosleep as a raw system call: the thread keeps its Go
// scheduler P while it sleeps (Replay raises GOMAXPROCS for that). Through
// the runtime's system-call path the P would be taken away during the
// sleep, and getting one back on waking needs the scheduler's lock, which
// an ordinary (CFS, maybe niced) thread of the process may hold while the
// loaded machine has it preempted: the real-time replay thread then waits
// for it, measured here as 1-26 ms late on a machine at load 13.
func nap(ts *unix.Timespec) bool {
	_, _, errno := unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(ts)), 0, 0)
	return errno == 0 || errno == unix.EINTR
}

func (r *run) run(ctx context.Context) *Result {
	ths := r.threads()
	stats := make([]threadStats, len(ths))
	res := &Result{Script: r.s.Stats(), Sandbox: r.p.sandbox, Unprepared: r.p.skipped, Warnings: r.p.warnings}
	defer context.AfterFunc(ctx, func() { r.stop.Store(true) })()
	var wg sync.WaitGroup
	start := time.Now()
	res.Started = start
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for i := range ths {
		first := r.deadline(start, &r.s.Entries[ths[i].entries[0]])
		if !sleepUntil(ctx, timer, first.Add(-threadLead)) {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Never unlocked: the OS thread exits with the goroutine, so no
			// other goroutine ever runs on a thread that issued script calls.
			runtime.LockOSThread()
			r.thread(start, ths[i], &stats[i])
		}()
	}
	wg.Wait()
	res.Wall = time.Since(start)
	if r.realtime {
		res.Realtime = r.rtErr == nil
		if r.rtErr != nil {
			res.RealtimeError = "SCHED_FIFO: " + r.rtErr.Error()
		}
	}
	r.closeAll()
	res.merge(r.s, stats)
	return res
}

// closeAll closes the fds the script left open, untimed, as the process's
// exit would have.
func (r *run) closeAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, f := range r.files {
		unix.Close(f.fd)
		delete(r.files, k)
	}
}

func (r *run) thread(start time.Time, th thread, st *threadStats) {
	rbuf := pageAligned(r.maxRead(th))
	// The kernel's default timer slack lets a 1 µs nanosleep end up to
	// 50 µs late; this thread exits with the replay, so the change dies
	// with it.
	unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	if r.realtime {
		// Like the timer slack, the policy dies with this thread.
		err := unix.SchedSetAttr(0, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_FIFO, Priority: 1}, 0)
		if err != nil {
			r.rtOnce.Do(func() { r.rtErr = err })
		}
	}
	osTID := 0
	if r.trace {
		osTID = unix.Gettid()
	}
	st.prealloc(r.s, th, r.trace)
	var prevEnd time.Time // when the thread's previous call returned
	for _, i := range th.entries {
		e := &r.s.Entries[i]
		deadline := r.deadline(start, e)
		// Held or not depends only on the thread's previous call: a late
		// first call, or one after a late wake-up, is the replay's own
		// error and counts in the timing error.
		ready := prevEnd.Before(deadline)
		if !napUntil(&r.stop, deadline.Add(-r.spin)) {
			return
		}
		for r.spin > 0 && time.Now().Before(deadline) {
			// spin: see Options.Spin
		}
		cr := &st.res[e.Call]
		waitedOpen := false
		if o := r.fds.opener[i]; r.fds.wait && o >= 0 && r.s.Entries[o].TID != e.TID && !r.opened[o].Load() {
			if !r.awaitOpen(o) {
				return
			}
			waitedOpen = true
		}
		t0, d, n, err, issued, waited := r.do(i, e, rbuf)
		waited = waited || waitedOpen
		if !issued {
			cr.Skipped++
			continue
		}
		cr.Count++
		prevEnd = t0.Add(d)
		st.lags = append(st.lags, t0.Sub(deadline))
		st.callLags[e.Call] = append(st.callLags[e.Call], t0.Sub(deadline))
		if ready && !waited {
			st.onTime = append(st.onTime, t0.Sub(deadline))
		} else {
			st.held = append(st.held, t0.Sub(deadline))
		}
		st.durs[e.Call] = append(st.durs[e.Call], d)
		if r.trace {
			is := Issued{Line: e.Line, TID: e.TID, Call: e.Call, Scheduled: deadline.Sub(start), Issued: t0.Sub(start), Duration: d, OSThread: osTID}
			if err != nil {
				is.Err = err.Error()
			}
			st.trace = append(st.trace, is)
		}
		switch {
		case err != nil && e.Ret >= 0:
			cr.Errors++
			if cr.FirstError == "" {
				cr.FirstError = fmt.Sprintf("line %d: %v", e.Line, err)
			}
		case err != nil:
			cr.FailedAsTraced++
		case e.Ret < 0:
			cr.Unexpected++
		}
		if e.Call.isData() && err == nil {
			if int64(n) < e.Ret {
				cr.Short++
			}
			if e.Call == Write || e.Call == Pwrite {
				st.writeBytes += int64(n)
			} else {
				st.rdByte += int64(n)
			}
		}
	}
}

// pageSize aligns the replay's buffers: O_DIRECT needs the buffer aligned
// to the device's logical block, which a page always is.
const pageSize = 4096

// pageAligned returns n bytes starting on a page boundary, so that reads
// and writes on files the trace opened O_DIRECT are not refused for the
// buffer's address.
func pageAligned(n int64) []byte {
	b := make([]byte, n+pageSize)
	off := int((pageSize - uintptr(unsafe.Pointer(unsafe.SliceData(b)))%pageSize) % pageSize)
	return b[off : off+int(n) : off+int(n)]
}

// prealloc sizes the thread's records for all its calls before the clock
// matters, so that recording a call never allocates: allocations are what
// start the garbage collector, whose pauses would stop the replay threads.
func (st *threadStats) prealloc(s *Script, th thread, trace bool) {
	var n [numCalls]int
	for _, i := range th.entries {
		n[s.Entries[i].Call]++
	}
	for c := range n {
		st.durs[c] = make([]time.Duration, 0, n[c])
		st.callLags[c] = make([]time.Duration, 0, n[c])
	}
	st.lags = make([]time.Duration, 0, len(th.entries))
	st.onTime = make([]time.Duration, 0, len(th.entries))
	st.held = make([]time.Duration, 0, len(th.entries))
	if trace {
		st.trace = make([]Issued, 0, len(th.entries))
	}
}

func (r *run) maxRead(th thread) int64 {
	var m int64
	for _, i := range th.entries {
		if e := &r.s.Entries[i]; e.Call == Read || e.Call == Pread {
			m = max(m, e.Ret)
		}
	}
	return m
}

// lookup returns the file open entry o made, read-locked, or nil.
func (r *run) lookup(o int32) *fdEntry {
	if o < 0 {
		return nil
	}
	r.mu.Lock()
	f := r.files[o]
	r.mu.Unlock()
	if f == nil {
		return nil
	}
	f.mu.RLock()
	if f.closed {
		f.mu.RUnlock()
		return nil
	}
	return f
}

// do issues entry e and times the system call alone. issued is false when
// there is nothing to issue; waited is true when the call had to wait for
// another thread's call on the same file (a close, see fdEntry).
func (r *run) do(i int, e *Entry, rbuf []byte) (t0 time.Time, d time.Duration, n int, err error, issued, waited bool) {
	switch e.Call {
	case Open:
		t := r.p.opens[i]
		t0 = time.Now()
		fd, err := unix.Open(t.path, t.flags, 0o644)
		d = time.Since(t0)
		if err == nil {
			if e.Ret < 0 {
				unix.Close(fd) // the traced open failed: there is nothing to map
			} else {
				r.bind(int32(i), fd)
			}
		}
		r.opened[i].Store(true)
		return t0, d, 0, err, true, false
	case Access, Stat64, Lstat64, Unlink:
		path := r.p.paths[i]
		var st unix.Stat_t
		t0 = time.Now()
		switch e.Call {
		case Access:
			err = unix.Access(path, unix.F_OK)
		case Stat64:
			err = unix.Stat(path, &st)
		case Lstat64:
			err = unix.Lstat(path, &st)
		default:
			err = unix.Unlink(path)
		}
		return t0, time.Since(t0), 0, err, true, false
	case Close:
		o := r.fds.opener[i]
		r.mu.Lock()
		f := r.files[o]
		delete(r.files, o)
		r.mu.Unlock()
		if f == nil {
			return t0, 0, 0, nil, false, false
		}
		if !f.mu.TryLock() {
			// Another thread's call (an fdatasync, say) is using the file;
			// closing under it could let the fd number be reused for a file
			// outside the sandbox, so the close waits and is counted held.
			f.mu.Lock()
			waited = true
		}
		defer f.mu.Unlock()
		f.closed = true
		t0 = time.Now()
		err = unix.Close(f.fd)
		return t0, time.Since(t0), 0, err, true, waited
	}
	if (e.Call.isData() || e.Call == Lseek) && (e.Ret < 0 || (e.Call == Pwrite || e.Call == Pread) && e.Offset < 0) {
		return t0, 0, 0, nil, false, false
	}
	f := r.lookup(r.fds.opener[i])
	if f == nil {
		return t0, 0, 0, nil, false, false
	}
	defer f.mu.RUnlock()
	var st unix.Stat_t
	t0 = time.Now()
	switch e.Call {
	case Fstat64:
		err = unix.Fstat(f.fd, &st)
	case Fsync:
		err = unix.Fsync(f.fd)
	case Fdatasync:
		err = unix.Fdatasync(f.fd)
	case Write:
		n, err = unix.Write(f.fd, r.wbuf[:e.Ret])
	case Read:
		n, err = unix.Read(f.fd, rbuf[:e.Ret])
	case Pwrite:
		n, err = unix.Pwrite(f.fd, r.wbuf[:e.Ret], e.Offset)
	case Pread:
		n, err = unix.Pread(f.fd, rbuf[:e.Ret], e.Offset)
	case Lseek:
		// To the traced position rather than with the traced origin: a
		// SEEK_END lands where the trace did only if the file has the
		// traced size, which a replay on other storage need not give.
		_, err = unix.Seek(f.fd, e.Ret, unix.SEEK_SET)
	}
	return t0, time.Since(t0), n, err, true, false
}

// bind keeps fd as the file open entry o made. An earlier open of the same
// fd number still open means the script lacks its close (Mobigen drops some
// lines); that file is closed untimed.
func (r *run) bind(o int32, fd int) {
	r.mu.Lock()
	r.files[o] = &fdEntry{fd: fd}
	var old *fdEntry
	if rep := r.fds.replaces[o]; rep >= 0 {
		old = r.files[rep]
		delete(r.files, rep)
	}
	r.mu.Unlock()
	if old != nil {
		old.mu.Lock()
		if !old.closed {
			old.closed = true
			unix.Close(old.fd)
		}
		old.mu.Unlock()
	}
}

func (res *Result) merge(s *Script, stats []threadStats) {
	var lines [numCalls]int
	for _, e := range s.Entries {
		lines[e.Call]++
	}
	var lags []time.Duration
	for c := Open; c < numCalls; c++ {
		if lines[c] == 0 {
			continue
		}
		cr := CallResult{Call: c, Lines: lines[c]}
		var durs, clags []time.Duration
		for i := range stats {
			clags = append(clags, stats[i].callLags[c]...)
			t := &stats[i].res[c]
			cr.Count += t.Count
			cr.Skipped += t.Skipped
			cr.Errors += t.Errors
			cr.FailedAsTraced += t.FailedAsTraced
			cr.Unexpected += t.Unexpected
			cr.Short += t.Short
			if cr.FirstError == "" {
				cr.FirstError = t.FirstError
			}
			durs = append(durs, stats[i].durs[c]...)
		}
		for _, d := range durs {
			cr.Total += d
		}
		slices.Sort(durs)
		cr.P50, cr.P99, cr.Max = quantile(durs, 0.5), quantile(durs, 0.99), quantile(durs, 1)
		slices.Sort(clags)
		cr.Lag = LagStats{Median: quantile(clags, 0.5), P99: quantile(clags, 0.99), Max: quantile(clags, 1)}
		res.IOTime += cr.Total
		res.IOCount += cr.Count
		res.Errors += cr.Errors
		res.Calls = append(res.Calls, cr)
	}
	var onTime, held []time.Duration
	for i := range stats {
		onTime = append(onTime, stats[i].onTime...)
		held = append(held, stats[i].held...)
		lags = append(lags, stats[i].lags...)
		res.WriteBytes += stats[i].writeBytes
		res.ReadBytes += stats[i].rdByte
		res.Trace = append(res.Trace, stats[i].trace...)
	}
	sort.SliceStable(res.Trace, func(a, b int) bool { return res.Trace[a].Issued < res.Trace[b].Issued })
	slices.Sort(lags)
	res.Lag = LagStats{Median: quantile(lags, 0.5), P99: quantile(lags, 0.99), Max: quantile(lags, 1)}
	slices.Sort(onTime)
	res.OnTime = len(onTime)
	res.LagOnTime = LagStats{Median: quantile(onTime, 0.5), P99: quantile(onTime, 0.99), Max: quantile(onTime, 1)}
	slices.Sort(held)
	res.Held = len(held)
	res.LagHeld = LagStats{Median: quantile(held, 0.5), P99: quantile(held, 0.99), Max: quantile(held, 1)}
}

// quantile is the nearest-rank quantile of sorted d.
func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(q*float64(len(d))+0.5) - 1
	return d[min(max(i, 0), len(d)-1)]
}
