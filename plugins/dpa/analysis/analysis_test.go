package analysis

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/plugins/dpa/trace"
)

// Method IDs of the hand-made traces.
const (
	mA uint32 = iota + 1
	mB
	mC
	mF
)

var testMethods = []trace.Method{
	{ID: mA, Class: "t.Main", Name: "a", Signature: "()V"},
	{ID: mB, Class: "t.Main", Name: "b", Signature: "()V"},
	{ID: mC, Class: "t.Main", Name: "c", Signature: "()V"},
	{ID: mF, Class: "t.Main", Name: "fib", Signature: "(I)I"},
}

// ev is an event whose CPU time is half its wall time, so that the two
// clocks are told apart in the expectations.
func ev(th, m uint32, act trace.Action, depth uint32, wall int64) trace.Event {
	return trace.Event{Thread: th, Method: m, Action: act, Depth: depth, Wall: wall, CPU: wall / 2}
}

func mkTrace(o time.Duration, events ...trace.Event) *trace.Trace {
	return &trace.Trace{
		EventOverhead: o,
		Threads:       []trace.Thread{{ID: 1, Name: "main"}, {ID: 2, Name: "worker"}},
		Methods:       testMethods,
		Events:        events,
	}
}

// want is the expected process-wide stats of one method, wall clock only
// (CPU is checked where it is not simply half).
type want struct {
	calls, recur, unclosed int
	incl, excl, rincl      time.Duration // deducted
	inclRaw, exclRaw       time.Duration
}

func TestHandMade(t *testing.T) {
	const E, X, U = trace.Enter, trace.Exit, trace.Unroll
	tests := []struct {
		name     string
		tr       *trace.Trace
		deduct   bool
		methods  map[uint32]want
		process  time.Duration // deducted process wall time
		clamped  int
		unclosed int
	}{
		{
			// a [0,100] calls b [10,30] and c [40,45]; o = 1.
			// a: incl 100 − (2·2+1)·1 = 95; excl 100−20−5 = 75, − (2+1)·1 = 72.
			// b: 20 − 1 = 19 (incl = excl); c: 5 − 1 = 4.
			// Check: 95 = 72 + 19 + 4.
			name: "nesting", deduct: true,
			tr: mkTrace(1,
				ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 10), ev(1, mB, X, 2, 30),
				ev(1, mC, E, 2, 40), ev(1, mC, X, 2, 45), ev(1, mA, X, 1, 100)),
			methods: map[uint32]want{
				mA: {calls: 1, incl: 95, excl: 72, inclRaw: 100, exclRaw: 75},
				mB: {calls: 1, incl: 19, excl: 19, inclRaw: 20, exclRaw: 20},
				mC: {calls: 1, incl: 4, excl: 4, inclRaw: 5, exclRaw: 5},
			},
			process: 95,
		},
		{
			// The same without deduction: deducted fields equal raw.
			name: "nesting raw", deduct: false,
			tr: mkTrace(1,
				ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 10), ev(1, mB, X, 2, 30),
				ev(1, mC, E, 2, 40), ev(1, mC, X, 2, 45), ev(1, mA, X, 1, 100)),
			methods: map[uint32]want{
				mA: {calls: 1, incl: 100, excl: 75, inclRaw: 100, exclRaw: 75},
				mB: {calls: 1, incl: 20, excl: 20, inclRaw: 20, exclRaw: 20},
				mC: {calls: 1, incl: 5, excl: 5, inclRaw: 5, exclRaw: 5},
			},
			process: 100,
		},
		{
			// fib [0,60] ⊃ fib [10,40] ⊃ fib [20,25]; o = 1.
			// Raw: incl 60 (outermost only), recursive incl 30+5 = 35,
			// excl (60−30)+(30−5)+5 = 60.
			// Deducted: outer 60−5 = 55, middle 30−3 = 27, inner 5−1 = 4;
			// excl (30−2)+(25−2)+4 = 55 = outer incl, as it must.
			name: "recursion", deduct: true,
			tr: mkTrace(1,
				ev(1, mF, E, 1, 0), ev(1, mF, E, 2, 10), ev(1, mF, E, 3, 20),
				ev(1, mF, X, 3, 25), ev(1, mF, X, 2, 40), ev(1, mF, X, 1, 60)),
			methods: map[uint32]want{
				mF: {calls: 3, recur: 2, incl: 55, excl: 55, rincl: 31, inclRaw: 60, exclRaw: 60},
			},
			process: 55,
		},
		{
			// Indirect recursion a → b → a: the inner a is recursive, b
			// is not. a [0,50] ⊃ b [5,45] ⊃ a [10,20]; no deduction.
			// a: incl 50, rincl 10, excl (50−40) + 10 = 20; b: 40, excl 30.
			name: "indirect recursion",
			tr: mkTrace(0,
				ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 5), ev(1, mA, E, 3, 10),
				ev(1, mA, X, 3, 20), ev(1, mB, X, 2, 45), ev(1, mA, X, 1, 50)),
			methods: map[uint32]want{
				mA: {calls: 2, recur: 1, incl: 50, excl: 20, rincl: 10, inclRaw: 50, exclRaw: 20},
				mB: {calls: 1, incl: 40, excl: 30, inclRaw: 40, exclRaw: 30},
			},
			process: 50,
		},
		{
			// Two threads interleaved: thread 1 runs a [0,100]; thread 2
			// runs b [20,50] ⊃ c [30,40]. Each thread has its own stack,
			// so b on thread 2 is not a child of a. o = 2.
			// a: 100 − 2 = 98. b: 30 − 3·2 = 24, excl 20 − 2·2 = 16.
			// c: 10 − 2 = 8. Process: 98 + 24 = 122.
			name: "two threads", deduct: true,
			tr: mkTrace(2,
				ev(1, mA, E, 1, 0), ev(2, mB, E, 1, 20), ev(2, mC, E, 2, 30),
				ev(2, mC, X, 2, 40), ev(2, mB, X, 1, 50), ev(1, mA, X, 1, 100)),
			methods: map[uint32]want{
				mA: {calls: 1, incl: 98, excl: 98, inclRaw: 100, exclRaw: 100},
				mB: {calls: 1, incl: 24, excl: 16, inclRaw: 30, exclRaw: 20},
				mC: {calls: 1, incl: 8, excl: 8, inclRaw: 10, exclRaw: 10},
			},
			process: 122,
		},
		{
			// An exception thrown in c unwinds c and b; a catches it.
			// a [0,100] ⊃ b [10,60] ⊃ c [20,30]. Unroll closes like exit.
			// o = 1: c 10−1 = 9; b 50−3 = 47, excl 40−2 = 38;
			// a 100−5 = 95, excl 50−2 = 48.
			name: "unroll", deduct: true,
			tr: mkTrace(1,
				ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 10), ev(1, mC, E, 3, 20),
				ev(1, mC, U, 3, 30), ev(1, mB, U, 2, 60), ev(1, mA, X, 1, 100)),
			methods: map[uint32]want{
				mA: {calls: 1, incl: 95, excl: 48, inclRaw: 100, exclRaw: 50},
				mB: {calls: 1, incl: 47, excl: 38, inclRaw: 50, exclRaw: 40},
				mC: {calls: 1, incl: 9, excl: 9, inclRaw: 10, exclRaw: 10},
			},
			process: 95,
		},
		{
			// Thread 1 ends with a and c open: a [0,…] ⊃ b [10,20],
			// c [30,…]; its last event is c's enter at 30, so both close
			// at 30. Thread 2's later event must not extend them.
			// o = 1. c: lasted 0, nothing deducted. a: 30 raw; the events
			// strictly between a's enter and the last are b's two, plus
			// one for a's own enter tail: 30 − 3 = 27; excl 30−10−0 = 20,
			// − (1 closed child + 1) = 18. b: 10 − 1 = 9.
			name: "unclosed", deduct: true,
			tr: mkTrace(1,
				ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 10), ev(1, mB, X, 2, 20),
				ev(1, mC, E, 2, 30), ev(2, mB, E, 1, 500), ev(2, mB, X, 1, 1000)),
			methods: map[uint32]want{
				mA: {calls: 1, unclosed: 1, incl: 27, excl: 18, inclRaw: 30, exclRaw: 20},
				mB: {calls: 2, incl: 9 + 499, excl: 9 + 499, inclRaw: 10 + 500, exclRaw: 10 + 500},
				mC: {calls: 1, unclosed: 1, incl: 0, excl: 0, inclRaw: 0, exclRaw: 0},
			},
			process:  27 + 499,
			unclosed: 2,
		},
		{
			// An overhead larger than the time measured: a [0,3] ⊃ b
			// [1,2] with o = 2; CPU timestamps are 0, 0, 1, 1. b: wall
			// 1 − 2, CPU 1 − 2, incl and excl alike: 4 clamps. a: wall
			// incl 3 − 3·2, excl 2 − 2·2; CPU incl 1 − 6, excl 0 − 4:
			// 4 more.
			name: "clamp", deduct: true,
			tr: mkTrace(2,
				ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 1), ev(1, mB, X, 2, 2), ev(1, mA, X, 1, 3)),
			methods: map[uint32]want{
				mA: {calls: 1, incl: 0, excl: 0, inclRaw: 3, exclRaw: 2},
				mB: {calls: 1, incl: 0, excl: 0, inclRaw: 1, exclRaw: 1},
			},
			process: 0,
			clamped: 8,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Analyze(tc.tr, Options{Deduct: tc.deduct})
			if p.Err != nil {
				t.Fatal(p.Err)
			}
			if p.Events != len(tc.tr.Events) {
				t.Errorf("Events = %d, want %d", p.Events, len(tc.tr.Events))
			}
			if len(p.Methods) != len(tc.methods) {
				t.Errorf("%d methods, want %d", len(p.Methods), len(tc.methods))
			}
			for id, w := range tc.methods {
				m, ok := p.Method(id)
				if !ok {
					t.Errorf("method %d missing", id)
					continue
				}
				got := want{
					calls: m.Calls, recur: m.RecursiveCalls, unclosed: m.Unclosed,
					incl: m.Incl.Wall, excl: m.Excl.Wall, rincl: m.RecursiveIncl.Wall,
					inclRaw: m.InclRaw.Wall, exclRaw: m.ExclRaw.Wall,
				}
				if got != w {
					t.Errorf("%s:\n got %+v\nwant %+v", m.Method.FullName(), got, w)
				}
				if m.InclRaw.CPU != m.InclRaw.Wall/2 && tc.name != "unclosed" && tc.name != "clamp" {
					t.Errorf("%s: raw incl CPU %d, want half of wall %d", m.Method.FullName(), m.InclRaw.CPU, m.InclRaw.Wall)
				}
			}
			if p.ProcessTime.Wall != tc.process {
				t.Errorf("ProcessTime.Wall = %d, want %d", p.ProcessTime.Wall, tc.process)
			}
			if p.Clamped != tc.clamped {
				t.Errorf("Clamped = %d, want %d", p.Clamped, tc.clamped)
			}
			if p.Unclosed != tc.unclosed {
				t.Errorf("Unclosed = %d, want %d", p.Unclosed, tc.unclosed)
			}
			// Per-thread process times add up to the process's.
			var sum Times
			for _, th := range p.Threads {
				sum = sum.add(th.ProcessTime)
			}
			if sum != p.ProcessTime {
				t.Errorf("threads' process times sum to %+v, profile says %+v", sum, p.ProcessTime)
			}
		})
	}
}

// TestClampCPU pins the CPU side of the clamp case, where the clocks
// differ: CPU timestamps are 0, 0, 1, 1 (wall/2).
func TestClampCPU(t *testing.T) {
	const E, X = trace.Enter, trace.Exit
	p := Analyze(mkTrace(2,
		ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 1), ev(1, mB, X, 2, 2), ev(1, mA, X, 1, 3)),
		Options{Deduct: true})
	a, _ := p.Method(mA)
	if a.InclRaw.CPU != 1 || a.ExclRaw.CPU != 0 || a.Incl.CPU != 0 || a.Excl.CPU != 0 {
		t.Errorf("a CPU: %+v", a)
	}
}

func TestPerThreadAndActivations(t *testing.T) {
	const E, X, U = trace.Enter, trace.Exit, trace.Unroll
	// b runs on both threads; thread 2's b is recursive only within
	// thread 2 (b on thread 1 being open at the time does not count).
	tr := mkTrace(0,
		ev(1, mB, E, 1, 0), ev(2, mB, E, 1, 5), ev(2, mB, E, 2, 6),
		ev(2, mB, U, 2, 8), ev(2, mB, X, 1, 10), ev(1, mB, X, 1, 20))
	p := Analyze(tr, Options{Activations: true})
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	if len(p.Threads) != 2 || p.Threads[0].Thread.Name != "main" || p.Threads[1].Thread.Name != "worker" {
		t.Fatalf("threads: %+v", p.Threads)
	}
	t1, t2 := p.Threads[0].Methods[0], p.Threads[1].Methods[0]
	if t1.Calls != 1 || t1.RecursiveCalls != 0 || t1.Incl.Wall != 20 {
		t.Errorf("thread 1 b: %+v", t1)
	}
	if t2.Calls != 2 || t2.RecursiveCalls != 1 || t2.Incl.Wall != 5 || t2.RecursiveIncl.Wall != 2 || t2.Excl.Wall != 5 {
		t.Errorf("thread 2 b: %+v", t2)
	}
	b, _ := p.Method(mB)
	if b.Calls != 3 || b.RecursiveCalls != 1 || b.Incl.Wall != 25 || b.Excl.Wall != 25 {
		t.Errorf("process b: %+v", b)
	}
	if p.Threads[0].Events != 2 || p.Threads[1].Events != 4 {
		t.Errorf("thread event counts %d, %d", p.Threads[0].Events, p.Threads[1].Events)
	}
	acts := p.Activations
	if len(acts) != 3 {
		t.Fatalf("%d activations", len(acts))
	}
	if acts[0].Enter != 0 || acts[0].Close != 5 || acts[1].Enter != 1 || acts[1].Children != 1 || acts[1].Descendants != 1 {
		t.Errorf("activations: %+v", acts)
	}
	if !acts[2].Recursive || !acts[2].Unrolled || acts[2].Depth != 2 || acts[2].Start.Wall != 6 {
		t.Errorf("inner activation: %+v", acts[2])
	}
}

func TestUnknownIDs(t *testing.T) {
	// Threads and methods missing from the tables still get rows.
	tr := &trace.Trace{Events: []trace.Event{
		{Thread: 7, Method: 9, Action: trace.Enter, Depth: 1},
		{Thread: 7, Method: 9, Action: trace.Exit, Depth: 1, Wall: 4},
	}}
	p := Analyze(tr, Options{})
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	if p.Threads[0].Thread.ID != 7 || p.Methods[0].Method.Name != "method#9" || p.Methods[0].Incl.Wall != 4 {
		t.Errorf("%+v", p)
	}
}

func TestCorrupt(t *testing.T) {
	const E, X = trace.Enter, trace.Exit
	tests := []struct {
		name   string
		events []trace.Event
		index  int
		msg    string
	}{
		{"exit without enter", []trace.Event{
			ev(1, mA, E, 1, 0), ev(1, mA, X, 1, 1), ev(1, mB, X, 1, 2)}, 2, "no open activation"},
		{"exit on another thread", []trace.Event{
			ev(1, mA, E, 1, 0), ev(2, mA, X, 1, 1)}, 1, "no open activation"},
		{"mismatched method", []trace.Event{
			ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 1), ev(1, mA, X, 2, 2)}, 2, "open activation is of method 2"},
		{"enter depth", []trace.Event{
			ev(1, mA, E, 1, 0), ev(1, mB, E, 3, 1)}, 1, "depth 3, but 1 activations are open"},
		{"first depth", []trace.Event{
			ev(1, mA, E, 2, 0)}, 0, "depth 2"},
		{"exit depth", []trace.Event{
			ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 1), ev(1, mB, X, 1, 2)}, 2, "has depth 2"},
		{"time backwards", []trace.Event{
			ev(1, mA, E, 1, 10), ev(1, mA, X, 1, 5)}, 1, "backwards"},
		{"bad action", []trace.Event{
			ev(1, mA, E, 1, 0), {Thread: 1, Method: mA, Action: 7, Depth: 1, Wall: 1}}, 1, "unknown action"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Analyze(mkTrace(1, tc.events...), Options{Deduct: true})
			var ce *CorruptError
			if !errors.As(p.Err, &ce) {
				t.Fatalf("Err = %v, want a *CorruptError", p.Err)
			}
			if ce.Index != tc.index {
				t.Errorf("index %d, want %d", ce.Index, tc.index)
			}
			msg := p.Err.Error()
			if !strings.Contains(msg, tc.msg) || !strings.Contains(msg, "event "+strconv.Itoa(tc.index)) {
				t.Errorf("message %q lacks %q or the event index", msg, tc.msg)
			}
			if p.Methods != nil || p.Threads != nil {
				t.Errorf("corrupt trace produced stats")
			}
		})
	}
}

func TestTop(t *testing.T) {
	p := &Profile{Methods: []MethodStats{
		{Method: trace.Method{ID: 1, Class: "z", Name: "m"}, Excl: Times{Wall: 5}, Incl: Times{Wall: 50, CPU: 1}},
		{Method: trace.Method{ID: 2, Class: "a", Name: "m"}, Excl: Times{Wall: 5}, Incl: Times{Wall: 10, CPU: 3}},
		{Method: trace.Method{ID: 3, Class: "b", Name: "m"}, Excl: Times{Wall: 9}, Incl: Times{Wall: 9, CPU: 2}},
	}}
	ids := func(ms []MethodStats) (s []uint32) {
		for _, m := range ms {
			s = append(s, m.Method.ID)
		}
		return s
	}
	for _, tc := range []struct {
		n    int
		by   Metric
		want []uint32
	}{
		{0, ExclWall, []uint32{3, 2, 1}}, // 2 and 1 tie: a.m before z.m
		{2, ExclWall, []uint32{3, 2}},
		{1, InclWall, []uint32{1}},
		{5, InclCPU, []uint32{2, 3, 1}},
	} {
		if got := ids(p.Top(tc.n, tc.by)); !slices.Equal(got, tc.want) {
			t.Errorf("Top(%d, %v) = %v, want %v", tc.n, tc.by, got, tc.want)
		}
	}
	if p.Methods[0].Method.ID != 1 {
		t.Error("Top reordered Profile.Methods")
	}
}

func TestErrRate(t *testing.T) {
	if got := ErrRate(105, 100); math.Abs(got-0.05) > 1e-12 {
		t.Errorf("ErrRate(105, 100) = %v", got)
	}
	if got := ErrRate(90, 100); math.Abs(got+0.1) > 1e-12 {
		t.Errorf("ErrRate(90, 100) = %v", got)
	}
	if got := ErrRate(1, 0); !math.IsInf(got, 1) {
		t.Errorf("ErrRate(1, 0) = %v", got)
	}
}

func TestOverheadOption(t *testing.T) {
	const E, X = trace.Enter, trace.Exit
	tr := mkTrace(1, ev(1, mA, E, 1, 0), ev(1, mB, E, 2, 10), ev(1, mB, X, 2, 30), ev(1, mA, X, 1, 100))
	for _, tc := range []struct {
		opt      Options
		o        time.Duration
		incl     time.Duration // of a: 100 − 3·o
		excl     time.Duration // of a: 80 − 2·o
		overhead time.Duration
	}{
		{Options{Deduct: true}, 1, 97, 78, 1},
		{Options{Deduct: true, Overhead: 4}, 1, 88, 72, 4}, // the option wins
		{Options{Overhead: 4}, 1, 100, 80, 0},              // but only with Deduct
		{Options{Deduct: true}, -5, 100, 80, 0},            // a negative calibration is ignored
	} {
		tr.EventOverhead = tc.o
		p := Analyze(tr, tc.opt)
		a, _ := p.Method(mA)
		if a.Incl.Wall != tc.incl || a.Excl.Wall != tc.excl || p.Overhead != tc.overhead {
			t.Errorf("%+v, o=%v: incl %v excl %v overhead %v, want %v %v %v",
				tc.opt, tc.o, a.Incl.Wall, a.Excl.Wall, p.Overhead, tc.incl, tc.excl, tc.overhead)
		}
	}
}
