package trace

import (
	"testing"
	"time"
)

// step is one event of a scripted trace: thread, action, method.
type step struct {
	tid    uint32
	action Action
	method uint32
}

// Method IDs of the fixture.
const (
	mMain uint32 = iota + 1
	mWork
	mFib
	mThrow
	mCatch
	mLeaf
	mUnused
)

func fixtureMethods() []Method {
	return []Method{
		{ID: mMain, Class: "com.example.Main", Name: "main", Signature: "([Ljava/lang/String;)V", File: "Main.java", Line: 10},
		{ID: mWork, Class: "com.example.Foo", Name: "work", Signature: "()V", File: "Foo.java", Line: 20},
		{ID: mFib, Class: "com.example.Foo", Name: "fib", Signature: "(I)I", File: "Foo.java"},
		{ID: mThrow, Class: "com.example.Bar", Name: "throwIt", Signature: "()V", File: "Bar.java", Line: 5},
		{ID: mCatch, Class: "com.example.Bar", Name: "catcher", Signature: "()V"},
		{ID: mLeaf, Class: "com.example.util.Util", Name: "leaf", Signature: "(J)J", File: "Util.java", Line: 77},
		{ID: mUnused, Class: "com.example.Unused", Name: "never", Signature: "()V"},
	}
}

// buildTrace turns a script into a Trace with deterministic, uneven times
// that are not multiples of a microsecond (to exercise truncation). Wall
// time is global; each thread's CPU clock starts at 0 at its first event
// and advances by at least 1µs per event, so that every activation has
// CPU time in dmtrace's microseconds.
func buildTrace(t testing.TB, threads []Thread, script []step) *Trace {
	t.Helper()
	tr := &Trace{
		Start:         time.Unix(1_700_000_000, 123_456_000),
		ClockSource:   ClockVirtual, // a key of ours, which dmtracedump must skip
		ClockOverhead: 150 * time.Nanosecond,
		EventOverhead: 400 * time.Nanosecond,
		Threads:       threads,
		Methods:       fixtureMethods(),
	}
	cpu := map[uint32]int64{}
	started := map[uint32]bool{}
	stacks := map[uint32][]uint32{}
	var wall int64 = 5_321
	for i, s := range script {
		d := int64(1_000 + (i*7919)%23_000 + (i*31)%997)
		wall += d
		if started[s.tid] {
			cpu[s.tid] += 1_000 + (d*3/5)%9_000
		}
		started[s.tid] = true
		st := stacks[s.tid]
		var depth uint32
		if s.action == Enter {
			st = append(st, s.method)
			depth = uint32(len(st))
		} else {
			if len(st) == 0 || st[len(st)-1] != s.method {
				t.Fatalf("script step %d: %v of %d does not match the stack %v", i, s.action, s.method, st)
			}
			depth = uint32(len(st))
			st = st[:len(st)-1]
		}
		stacks[s.tid] = st
		tr.Events = append(tr.Events, Event{Thread: s.tid, Method: s.method, Action: s.action, Depth: depth, Wall: wall, CPU: cpu[s.tid]})
	}
	tr.Elapsed = time.Duration(wall + 10_000)
	return tr
}

func en(tid, m uint32) step { return step{tid, Enter, m} }
func ex(tid, m uint32) step { return step{tid, Exit, m} }
func un(tid, m uint32) step { return step{tid, Unroll, m} }

// fixture has three threads: "main" with nesting, recursion three deep and
// an exception unwinding two frames; "worker-1" interleaved with it, with
// recursion; and thread 5, killed with three frames still open.
func fixture(t testing.TB) *Trace {
	threads := []Thread{{ID: 1, Name: "main"}, {ID: 2, Name: "worker-1"}, {ID: 5, Name: "killed\tthread"}}
	script := []step{
		en(1, mMain), en(1, mWork), en(2, mWork), en(1, mLeaf), ex(1, mLeaf),
		en(2, mFib), en(1, mFib), en(1, mFib), en(2, mFib), en(1, mFib), ex(2, mFib),
		en(5, mMain), ex(1, mFib), ex(1, mFib), en(5, mWork), ex(1, mFib), ex(1, mWork),
		ex(2, mFib), en(2, mLeaf), en(1, mCatch), en(1, mThrow), en(5, mLeaf), en(1, mLeaf),
		ex(2, mLeaf), un(1, mLeaf), un(1, mThrow), ex(2, mWork), en(1, mLeaf), ex(1, mLeaf),
		ex(1, mCatch), en(2, mWork), en(2, mWork), ex(2, mWork), ex(2, mWork), ex(1, mMain),
	}
	return buildTrace(t, threads, script)
}

// deepRecursion is one thread recursing 40 deep, with a slow leaf.
func deepRecursion(t testing.TB) *Trace {
	var s []step
	s = append(s, en(3, mMain))
	for range 40 {
		s = append(s, en(3, mFib))
	}
	s = append(s, en(3, mLeaf), ex(3, mLeaf))
	for range 40 {
		s = append(s, ex(3, mFib))
	}
	s = append(s, ex(3, mMain))
	return buildTrace(t, []Thread{{ID: 3, Name: "rec"}}, s)
}
