package opcost

import (
	"cmp"
	goruntime "runtime"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/droidprof/droidprof/vm/runtime"
)

// NativeCalls is one native method's calls in a program's counting run:
// the work done in Go that no opcode count sees (System.arraycopy, the
// String and Math internals, AtomicLong), which the cost model adds per
// call.
type NativeCalls struct {
	Method string `json:"method"`
	Calls  uint64 `json:"calls"`
	// Timed are the calls that ran no bytecode (a native that calls back
	// into Java, as reflection does, has that bytecode counted by opcode
	// already, so its time would count twice); NS is their thread CPU
	// time, less the clock's own cost.
	Timed uint64 `json:"timed"`
	NS    int64  `json:"ns"`
}

// PerCall is the mean thread CPU time of a timed call, ns.
func (n NativeCalls) PerCall() float64 {
	if n.Timed == 0 {
		return 0
	}
	return float64(n.NS) / float64(n.Timed)
}

// nativeMeter counts and times every native call of a VM, through
// runtime.Hooks.WrapNative.
type nativeMeter struct {
	clockNS  int64 // what reading the thread CPU clock twice costs
	mu       sync.Mutex
	byMethod map[string]*nativeStat
	// depth is how many native calls are under way (nested through
	// callbacks): the allocation meter leaves what they allocate to
	// their time.
	depth atomic.Int32
}

type nativeStat struct {
	calls, timed atomic.Uint64
	ns           atomic.Int64
}

func newNativeMeter() *nativeMeter {
	// The clock's cost: the median of many back-to-back readings (a
	// syscall each, 0.7 µs on this VM, against natives of tens of ns: the
	// median, not the least, because what is subtracted from a mean over
	// many calls is the clock's typical cost).
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	pairs := make([]int64, 501)
	for i := range pairs {
		t0 := threadCPU()
		pairs[i] = threadCPU() - t0
	}
	slices.Sort(pairs)
	return &nativeMeter{clockNS: pairs[len(pairs)/2], byMethod: map[string]*nativeStat{}}
}

// wrap is the hook: the native f of m, counted and timed.
func (nm *nativeMeter) wrap(m *runtime.Method, f runtime.NativeFunc) runtime.NativeFunc {
	nm.mu.Lock()
	st := nm.byMethod[m.String()]
	if st == nil {
		st = &nativeStat{}
		nm.byMethod[m.String()] = st
	}
	nm.mu.Unlock()
	return func(t *runtime.Thread, args []uint32) {
		st.calls.Add(1)
		before := executed(t)
		nm.depth.Add(1)
		t0 := threadCPU()
		f(t, args)
		d := threadCPU() - t0
		nm.depth.Add(-1)
		if executed(t) == before {
			st.timed.Add(1)
			st.ns.Add(max(d-nm.clockNS, 0))
		}
	}
}

// calls are the natives called at least once, most calls first.
func (nm *nativeMeter) calls() []NativeCalls {
	nm.mu.Lock()
	defer nm.mu.Unlock()
	var out []NativeCalls
	for name, st := range nm.byMethod {
		if n := st.calls.Load(); n > 0 {
			out = append(out, NativeCalls{Method: name, Calls: n, Timed: st.timed.Load(), NS: st.ns.Load()})
		}
	}
	slices.SortFunc(out, func(a, b NativeCalls) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Method, b.Method))
	})
	return out
}

// executed is the instructions the thread has executed (it counts them:
// the counting run sets Hooks.CountOpcodes).
func executed(t *runtime.Thread) uint64 {
	if t.OpCounts == nil {
		return 0
	}
	var n uint64
	for _, c := range t.OpCounts {
		n += c
	}
	return n
}

// threadCPU is the calling thread's CPU time, ns. The VM runs a Java
// thread on one OS thread for the length of a native call (the goroutine
// does not block in between), so two readings bracket the native's work.
func threadCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}
