// Package analysis is dpa's offline analyzer: it turns a method trace
// (package trace) into per-activation, per-method, per-thread and
// process-level execution times, optionally with the cost of tracing
// deducted the way the DPA paper proposes (sections 3-4; reference
// trace-and-heap-formats.md §1.5).
//
// All times are time.Duration (integer nanoseconds), on both clocks: wall
// (real) time and thread CPU time.
//
// # What is inside a measured interval
//
// Recording one event costs o (Trace.EventOverhead: clock reads plus the
// store into the record buffer). Part of that work, p, happens before the
// event's timestamp is taken, the rest, q = o − p, after it. dpa's
// collector takes the timestamp at the start of its recording work for
// Enter and Exit (and Unroll) events alike, so p = 0 and q = o, but the
// derivation below only needs p to be the same for every kind of event.
//
// An activation a is measured as [T_enter(a), T_exit(a)]. On its thread,
// the following tracing work falls inside that interval:
//
//   - the q part of a's own enter event (after its timestamp),
//   - the p part of a's own exit event (before its timestamp),
//   - all of both events (p+q each) of every descendant activation: they
//     are recorded strictly between a's two timestamps.
//
// With D descendant activations that is q + p + 2D·o = (2D+1)·o, so
//
//	incl_true(a) = incl_meas(a) − (2D+1)·o
//
// The exclusive time is the inclusive time less the children's inclusive
// times, excl_meas(a) = incl_meas(a) − Σ_c incl_meas(c), and the same
// holds for the true times. For the k direct children, with D = k + Σ_c D_c:
//
//	excl_meas(a) − excl_true(a) = (2D+1)·o − Σ_c (2D_c+1)·o = (k+1)·o
//
// so
//
//	excl_true(a) = excl_meas(a) − (k+1)·o
//
// Read directly: the "+1" is a's own q and p (with dpa's collector, the
// whole enter event of a, which runs right after its timestamp), and each
// child adds its enter's p and its exit's q, which lie between the child's
// timestamps and a's (with dpa's collector, the whole exit event of the
// child, which runs right after the child's exit timestamp). If p differed
// between enter and exit events, the own term would be q_enter + p_exit
// and the per-child term p_enter + q_exit = 2o − (q_enter + p_exit), so the
// formula is exact only for a common p; that is why the collector takes
// both timestamps at the same point of its work.
//
// # Measured event costs
//
// A calibrated constant o is only as good as the calibration, and real
// events vary in cost (a buffer flush, a cache miss). When the collector
// measures each event's own work after its timestamp (Trace.EventCosts:
// Event.Cost = q_e) only the rest of an event, u (the part before the
// timestamp and after the clock read that ends the measurement: one clock
// read, and whatever the event costs the program's own instructions),
// remains a calibrated constant (Trace.UnmeasuredOverhead). The tracing work inside a's
// interval is then the q of every event from a's enter up to its closing
// event (exclusive) and the u of every event after the enter up to the
// closing event (inclusive):
//
//	incl_true(a) = incl_meas(a) − Σ_{e = enter(a)}^{close(a)−1} q_e − n·u
//
// with n the number of events from a's enter (exclusive) to its closing
// event (inclusive), 2D+1 for a complete activation. Exclusive times are
// the inclusive ones less the children's, as before.
//
// The same o is deducted from both clocks: the recording work runs on the
// traced thread, so it costs that thread's CPU time as well as wall time.
//
// Frames still open when a thread's events end are closed at the time of
// that thread's last event L (as dmtracedump does). Then the tracing work
// inside [T_enter(a), T_L] is a's own q, all of every event strictly
// between a's enter and L, and L's p: with n events strictly between, that
// is (n+1)·o, which is the (2D+1)·o above when L is a's exit (n = 2D). The
// analyzer uses this event-count form for every activation, so open
// frames need no special case, except an activation whose enter is L
// itself: it lasted no time and nothing is deducted.
package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/droidprof/droidprof/plugins/dpa/trace"
)

// Options control Analyze.
type Options struct {
	// Deduct subtracts the tracing overhead (see the package comment).
	// Without it the deducted fields equal the raw ones, which is what
	// Traceview and dmtracedump show.
	Deduct bool
	// Overhead, if positive, is used as the per-event cost instead of
	// Trace.EventOverhead, to see how sensitive the results are to the
	// calibration.
	Overhead time.Duration
	// Activations keeps every activation in Profile.Activations. It is
	// off by default because a trace has millions of them.
	Activations bool
}

// Times is a duration on both clocks.
type Times struct {
	Wall time.Duration // real time
	CPU  time.Duration // thread CPU time
}

func (t Times) add(u Times) Times { return Times{t.Wall + u.Wall, t.CPU + u.CPU} }
func (t Times) sub(u Times) Times { return Times{t.Wall - u.Wall, t.CPU - u.CPU} }

// MethodStats aggregates the activations of one method (on one thread, or
// over the whole process).
//
// Incl, Excl and RecursiveIncl are overhead-deducted when Options.Deduct
// is set and equal to the Raw fields otherwise.
type MethodStats struct {
	Method trace.Method
	// Calls counts all activations, recursive ones included.
	// RecursiveCalls counts those made while an activation of the same
	// method was already on the thread's stack (Traceview's "Calls+Recur"
	// shows Calls−RecursiveCalls "+" RecursiveCalls).
	Calls, RecursiveCalls int
	// Unclosed counts activations still open at the end of their
	// thread's events, closed at that thread's last event time.
	Unclosed int
	// Incl sums the inclusive times of the outermost activations only,
	// so that time spent in a recursion is not counted once per level;
	// the inner (recursive) activations' inclusive times go to
	// RecursiveIncl, as dmtracedump does. Excl sums all activations.
	Incl, Excl, RecursiveIncl          Times
	InclRaw, ExclRaw, RecursiveInclRaw Times
}

// ThreadStats is the profile of one thread.
type ThreadStats struct {
	Thread trace.Thread
	Events int
	// ProcessTime sums the inclusive times of the thread's depth-1
	// activations (deducted if Options.Deduct), ProcessTimeRaw the raw
	// ones.
	ProcessTime, ProcessTimeRaw Times
	Unclosed                    int
	Methods                     []MethodStats // by method ID
}

// Activation is one execution of a method, kept when Options.Activations
// is set.
type Activation struct {
	Thread, Method uint32
	Depth          int
	// Enter is the index in Trace.Events of the enter event, Close that of
	// the exit or unroll event, or of the thread's last event if Unclosed.
	Enter, Close int
	// Start is the wall and CPU timestamp of the enter event.
	Start Times
	// Children counts the direct callees, Descendants all nested
	// activations.
	Children, Descendants int
	// Recursive: an activation of the same method was already on the
	// stack when this one began.
	Recursive, Unrolled, Unclosed bool
	Incl, Excl                    Times // deducted (raw without Options.Deduct)
	InclRaw, ExclRaw              Times
}

// Profile is the result of Analyze.
type Profile struct {
	// Err is set if the trace is corrupt (a *CorruptError); the rest of
	// the profile is then empty rather than half computed.
	Err error
	// Overhead is the per-event cost that was deducted (to the nearest
	// nanosecond), 0 without Options.Deduct.
	Overhead time.Duration
	Methods  []MethodStats // whole process, by method ID
	Threads  []ThreadStats // threads that have events, by thread ID
	// ProcessTime is the paper's process-level estimate: the sum over
	// threads of the (deducted) inclusive times of depth-1 activations.
	ProcessTime, ProcessTimeRaw Times
	// Clamped counts deducted values (per activation: inclusive and
	// exclusive, wall and CPU) that came out negative and were set to 0,
	// a sign that the calibrated overhead is too large.
	Clamped  int
	Unclosed int // activations closed at their thread's last event
	Events   int
	// Activations, if Options.Activations, in order of their enter
	// events.
	Activations []Activation
}

// CorruptError reports a trace that cannot be a well-formed sequence of
// nested activations.
type CorruptError struct {
	Index int // in Trace.Events
	Event trace.Event
	Msg   string
}

// Error names the event by its index in Trace.Events.
func (e *CorruptError) Error() string {
	ev := e.Event
	return fmt.Sprintf("dpa analysis: corrupt trace: event %d (thread %d, %v method %d, depth %d): %s",
		e.Index, ev.Thread, ev.Action, ev.Method, ev.Depth, e.Msg)
}

// frame is an open activation on a thread's stack.
type frame struct {
	method    uint32
	enter     int // index in Trace.Events
	seq       int // index among the thread's events, to count events inside
	start     Times
	recursive bool
	children  int
	desc      int
	// Sums over the closed children, to derive the exclusive times.
	childIncl Times
	childDed  time.Duration // Σ of what was deducted from the children's inclusive times
	costAt    time.Duration // the thread's measured event costs before this frame's enter
}

// threadState is the walk's state for one thread.
type threadState struct {
	stack   []frame
	onStack map[uint32]int // method ID -> activations of it on the stack
	n       int            // events seen
	last    Times          // timestamps of the last event
	lastIdx int
	// cost sums the measured Cost of the thread's events so far, last
	// that of its last event (traces with Trace.EventCosts).
	cost, lastCost time.Duration
	stats          *ThreadStats
	methods        map[uint32]*MethodStats
}

// Analyze computes the profile of t. A corrupt trace gives a Profile whose
// Err is set; Analyze never panics on bad input.
func Analyze(t *trace.Trace, opt Options) *Profile {
	p := &Profile{Events: len(t.Events)}
	// The per-event figures in fractional nanoseconds: a calibration
	// finer than a nanosecond keeps its precision (on a call-heavy
	// method one nanosecond per event is several per cent).
	o, u := 0.0, 0.0
	if opt.Deduct {
		o = cmp.Or(t.EventOverheadNs, float64(t.EventOverhead))
		if opt.Overhead > 0 {
			o = float64(opt.Overhead)
		}
		// A nonsensical calibration must not inflate times.
		o = max(o, 0)
		u = max(cmp.Or(t.UnmeasuredOverheadNs, float64(t.UnmeasuredOverhead)), 0)
	}
	p.Overhead = time.Duration(math.Round(o))
	a := analyzer{
		p: p, o: o, opt: opt,
		measured: opt.Deduct && t.EventCosts && opt.Overhead <= 0,
		u:        u,
		methods:  t.MethodByID(),
		threads:  t.ThreadByID(),
		states:   map[uint32]*threadState{},
	}
	for i, ev := range t.Events {
		if err := a.event(i, ev); err != nil {
			return &Profile{Err: err, Events: len(t.Events), Overhead: p.Overhead}
		}
	}
	a.finish()
	return p
}

type analyzer struct {
	p *Profile
	o float64 // ns per event
	// measured: deduct the events' measured costs plus u (ns) per event
	// instead of o per event.
	measured bool
	u        float64
	opt      Options
	methods  map[uint32]*trace.Method
	threads  map[uint32]*trace.Thread
	states   map[uint32]*threadState
}

func (a *analyzer) state(id uint32) *threadState {
	s := a.states[id]
	if s == nil {
		th := trace.Thread{ID: id, Name: fmt.Sprintf("thread-%d", id)}
		if t := a.threads[id]; t != nil {
			th = *t
		}
		s = &threadState{
			onStack: map[uint32]int{},
			stats:   &ThreadStats{Thread: th},
			methods: map[uint32]*MethodStats{},
		}
		a.states[id] = s
	}
	return s
}

func (a *analyzer) event(i int, ev trace.Event) error {
	bad := func(format string, args ...any) error {
		return &CorruptError{Index: i, Event: ev, Msg: fmt.Sprintf(format, args...)}
	}
	s := a.state(ev.Thread)
	now := Times{time.Duration(ev.Wall), time.Duration(ev.CPU)}
	if s.n > 0 && (now.Wall < s.last.Wall || now.CPU < s.last.CPU) {
		return bad("time goes backwards on the thread (wall %d after %d, cpu %d after %d)",
			ev.Wall, s.last.Wall, ev.CPU, s.last.CPU)
	}
	switch ev.Action {
	case trace.Enter:
		// The paper's level counts the activation itself, so an enter
		// must be one deeper than the stack it is pushed on.
		if int64(ev.Depth) != int64(len(s.stack))+1 {
			return bad("depth %d, but %d activations are open on the thread", ev.Depth, len(s.stack))
		}
		s.stack = append(s.stack, frame{
			method: ev.Method, enter: i, seq: s.n, start: now,
			recursive: s.onStack[ev.Method] > 0, costAt: s.cost,
		})
		s.onStack[ev.Method]++
	case trace.Exit, trace.Unroll:
		if len(s.stack) == 0 {
			return bad("%v with no open activation on the thread", ev.Action)
		}
		top := &s.stack[len(s.stack)-1]
		if top.method != ev.Method {
			return bad("%v of method %d, but the open activation is of method %d (entered at event %d)",
				ev.Action, ev.Method, top.method, top.enter)
		}
		if int64(ev.Depth) != int64(len(s.stack)) {
			return bad("depth %d, but the activation it closes has depth %d", ev.Depth, len(s.stack))
		}
		a.close(s, i, s.n, now, ev.Action == trace.Unroll, false)
	default:
		return bad("unknown action %d", ev.Action)
	}
	s.n++
	s.last, s.lastIdx = now, i
	s.lastCost = time.Duration(ev.Cost)
	s.cost += s.lastCost
	return nil
}

// close pops the top frame of s, ending it at event index idx (the seq-th
// of the thread) at time end.
func (a *analyzer) close(s *threadState, idx, seq int, end Times, unrolled, unclosed bool) {
	f := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	s.onStack[f.method]--
	depth := len(s.stack) + 1

	inclRaw := end.sub(f.start)
	exclRaw := inclRaw.sub(f.childIncl)
	// Events deducted from the inclusive time: the ones strictly inside
	// plus one for the own enter's tail and the closing event's head (see
	// the package comment), which is the difference of the thread-local
	// sequence numbers; 0 for an open activation whose enter is the
	// thread's last event.
	n := seq - f.seq
	// What the tracing cost inside the interval: n calibrated events, or,
	// when the events carry their measured costs, the measured costs of
	// the events from the enter up to the closing one plus n times the
	// unmeasured remainder of an event.
	dedIncl := times(n, a.o)
	if a.measured {
		costBefore := s.cost // the costs of the events before seq
		if seq < s.n {
			costBefore -= s.lastCost // closing at the thread's last event
		}
		dedIncl = costBefore - f.costAt + times(n, a.u)
	}
	dedExcl := dedIncl - f.childDed

	ded := func(v, amount time.Duration) time.Duration {
		v -= amount
		if v < 0 {
			a.p.Clamped++
			return 0
		}
		return v
	}
	incl := Times{ded(inclRaw.Wall, dedIncl), ded(inclRaw.CPU, dedIncl)}
	excl := Times{ded(exclRaw.Wall, dedExcl), ded(exclRaw.CPU, dedExcl)}

	if len(s.stack) > 0 {
		parent := &s.stack[len(s.stack)-1]
		parent.children++
		parent.desc += f.desc + 1
		parent.childIncl = parent.childIncl.add(inclRaw)
		parent.childDed += dedIncl
	} else {
		s.stats.ProcessTime = s.stats.ProcessTime.add(incl)
		s.stats.ProcessTimeRaw = s.stats.ProcessTimeRaw.add(inclRaw)
	}

	ms := s.methods[f.method]
	if ms == nil {
		ms = &MethodStats{Method: a.method(f.method)}
		s.methods[f.method] = ms
	}
	ms.Calls++
	if f.recursive {
		ms.RecursiveCalls++
		ms.RecursiveIncl = ms.RecursiveIncl.add(incl)
		ms.RecursiveInclRaw = ms.RecursiveInclRaw.add(inclRaw)
	} else {
		ms.Incl = ms.Incl.add(incl)
		ms.InclRaw = ms.InclRaw.add(inclRaw)
	}
	ms.Excl = ms.Excl.add(excl)
	ms.ExclRaw = ms.ExclRaw.add(exclRaw)
	if unclosed {
		ms.Unclosed++
		s.stats.Unclosed++
		a.p.Unclosed++
	}

	if a.opt.Activations {
		a.p.Activations = append(a.p.Activations, Activation{
			Thread: s.stats.Thread.ID, Method: f.method, Depth: depth,
			Enter: f.enter, Close: idx, Start: f.start,
			Children: f.children, Descendants: f.desc,
			Recursive: f.recursive, Unrolled: unrolled, Unclosed: unclosed,
			Incl: incl, Excl: excl, InclRaw: inclRaw, ExclRaw: exclRaw,
		})
	}
}

// times is n events of ns nanoseconds each, to the nearest nanosecond.
func times(n int, ns float64) time.Duration {
	return time.Duration(math.Round(float64(n) * ns))
}

// method names a method ID; an ID missing from the trace's table (a trace
// cut short before its method list was complete) still gets a row.
func (a *analyzer) method(id uint32) trace.Method {
	if m := a.methods[id]; m != nil {
		return *m
	}
	return trace.Method{ID: id, Class: "?", Name: fmt.Sprintf("method#%d", id)}
}

// finish closes the frames left open and builds the sorted tables.
func (a *analyzer) finish() {
	p := a.p
	total := map[uint32]*MethodStats{}
	ids := make([]uint32, 0, len(a.states))
	for id := range a.states {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		s := a.states[id]
		// dmtracedump closes open frames at the last event time; the
		// last event's own seq bounds the events inside them.
		for len(s.stack) > 0 {
			a.close(s, s.lastIdx, s.n-1, s.last, false, true)
		}
		s.stats.Events = s.n
		for _, ms := range s.methods {
			s.stats.Methods = append(s.stats.Methods, *ms)
			t := total[ms.Method.ID]
			if t == nil {
				t = &MethodStats{Method: ms.Method}
				total[ms.Method.ID] = t
			}
			t.merge(ms)
		}
		slices.SortFunc(s.stats.Methods, byID)
		p.ProcessTime = p.ProcessTime.add(s.stats.ProcessTime)
		p.ProcessTimeRaw = p.ProcessTimeRaw.add(s.stats.ProcessTimeRaw)
		p.Threads = append(p.Threads, *s.stats)
	}
	for _, ms := range total {
		p.Methods = append(p.Methods, *ms)
	}
	slices.SortFunc(p.Methods, byID)
	slices.SortFunc(p.Activations, func(x, y Activation) int { return cmp.Compare(x.Enter, y.Enter) })
}

func (m *MethodStats) merge(o *MethodStats) {
	m.Calls += o.Calls
	m.RecursiveCalls += o.RecursiveCalls
	m.Unclosed += o.Unclosed
	m.Incl = m.Incl.add(o.Incl)
	m.Excl = m.Excl.add(o.Excl)
	m.RecursiveIncl = m.RecursiveIncl.add(o.RecursiveIncl)
	m.InclRaw = m.InclRaw.add(o.InclRaw)
	m.ExclRaw = m.ExclRaw.add(o.ExclRaw)
	m.RecursiveInclRaw = m.RecursiveInclRaw.add(o.RecursiveInclRaw)
}

func byID(x, y MethodStats) int { return cmp.Compare(x.Method.ID, y.Method.ID) }

// Metric selects what Top ranks by; all are the deducted values (raw
// without Options.Deduct).
type Metric int

// Metrics for Top.
const (
	ExclWall Metric = iota // exclusive wall time, the usual hotspot view
	InclWall
	ExclCPU
	InclCPU
)

// String names the metric.
func (m Metric) String() string {
	switch m {
	case ExclWall:
		return "excl-wall"
	case InclWall:
		return "incl-wall"
	case ExclCPU:
		return "excl-cpu"
	case InclCPU:
		return "incl-cpu"
	}
	return "metric?"
}

// Value is the method's value of the metric.
func (m Metric) Value(s *MethodStats) time.Duration {
	switch m {
	case InclWall:
		return s.Incl.Wall
	case ExclCPU:
		return s.Excl.CPU
	case InclCPU:
		return s.Incl.CPU
	}
	return s.Excl.Wall
}

// Top returns the n process-wide methods with the largest value of by
// (all of them if n <= 0), ties broken by full name, then signature and
// ID, so that the order is the same from run to run.
func (p *Profile) Top(n int, by Metric) []MethodStats {
	ms := slices.Clone(p.Methods)
	slices.SortFunc(ms, func(x, y MethodStats) int {
		if c := cmp.Compare(by.Value(&y), by.Value(&x)); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Method.FullName(), y.Method.FullName()); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Method.Signature, y.Method.Signature); c != 0 {
			return c
		}
		return cmp.Compare(x.Method.ID, y.Method.ID)
	})
	if n > 0 && n < len(ms) {
		ms = ms[:n]
	}
	return ms
}

// Method returns the process-wide stats of the method with the given ID.
func (p *Profile) Method(id uint32) (MethodStats, bool) {
	i, ok := slices.BinarySearchFunc(p.Methods, id, func(m MethodStats, id uint32) int { return cmp.Compare(m.Method.ID, id) })
	if !ok {
		return MethodStats{}, false
	}
	return p.Methods[i], true
}

// ErrRate is the paper's error rate (equations 1 and 2): the relative
// error of a measured time against a baseline tool's, (measured −
// baseline) / baseline. A zero baseline gives ±Inf (or NaN if measured is
// 0 too), as the quotient is undefined.
func ErrRate(measured, baseline float64) float64 {
	return (measured - baseline) / baseline
}
