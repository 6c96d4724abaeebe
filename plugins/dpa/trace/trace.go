// Package trace is dpa's data model: a method trace of one VM run (enter,
// exit and unroll events with wall and thread-CPU timestamps, the threads and
// methods they name, and the measured cost of tracing), with readers and
// writers around it: the collector's own record file, Android's dmtrace
// (.trace, as Traceview, dmtracedump and Android Studio read it), pprof and
// Chrome/Perfetto trace-event JSON.
package trace

import "time"

// Action is what an event records.
type Action uint8

// Event actions, numbered as dmtrace numbers them.
const (
	Enter  Action = 0
	Exit   Action = 1
	Unroll Action = 2 // the activation was left by an exception
)

func (a Action) String() string {
	switch a {
	case Enter:
		return "enter"
	case Exit:
		return "exit"
	case Unroll:
		return "unroll"
	}
	return "action?"
}

// Event is one method entry or exit on one thread.
type Event struct {
	Thread uint32 // Thread.ID
	Method uint32 // Method.ID
	Action Action
	_      [3]byte
	Depth  uint32 // call depth of the activation, 1 for a thread's outermost method
	// Wall is nanoseconds since Trace.Start; CPU is the thread's CPU time
	// in nanoseconds since its first event.
	Wall, CPU int64
	// Cost, if not 0, is the measured duration in nanoseconds of this
	// event's own recording work after its timestamp (Trace.EventCosts;
	// in a records file written with Meta.CostsOfPrevious, the thread's
	// previous event's until Load moves it).
	Cost uint32
	_    uint32
}

// Method is a traced method.
type Method struct {
	ID        uint32 // unique, nonzero
	Class     string // dotted Java name, "java.lang.String"
	Name      string
	Signature string // descriptor, "(I)V"
	File      string // source file, "" if unknown
	Line      int    // first line, 0 if unknown
}

// FullName is "pkg.Class.method".
func (m *Method) FullName() string { return m.Class + "." + m.Name }

// Thread is a traced Java thread.
type Thread struct {
	ID   uint32 // nonzero
	Name string
}

// ClockVirtual is the ClockSource of a trace whose clocks count the
// instructions the VM executed, one nanosecond each
// (runtime.Hooks.VirtualTime).
const ClockVirtual = "virtual"

// Calibrations, the values of Trace.Calibration: the deduction per event
// derived from pairs of untraced and traced runs of the profiled program
// itself, or from a separate calibration program.
const (
	CalibrationProgram = "program"
	CalibrationPaired  = "paired"
)

// Trace is a whole method trace.
type Trace struct {
	Start time.Time // wall clock at Wall == 0
	// ClockSource is what the timestamps come from: the host's "tsc" or
	// "monotonic" clock (vm/clock), ClockVirtual, or "" when the trace
	// does not say.
	ClockSource string
	// ClockOverhead is the cost of reading the clocks once (both of them),
	// calibrated by reading them many times in a row.
	ClockOverhead time.Duration
	// EventOverhead is the cost of recording one event (clock reads and
	// the store into the record buffer, and what they cost the program's
	// own instructions), calibrated as Calibration says; the analysis
	// deducts it per event.
	EventOverhead time.Duration
	// EventCosts reports that every event carries its measured Cost; the
	// part of an event's work that cannot be measured (before its
	// timestamp and after the clock read that ends it: one clock read)
	// is then UnmeasuredOverhead, calibrated per event as the cost
	// calibrated for it less its measured part (from the calibration
	// program, never below one clock read).
	EventCosts         bool
	UnmeasuredOverhead time.Duration
	// EventOverheadNs and UnmeasuredOverheadNs, when not 0, are
	// EventOverhead and UnmeasuredOverhead in fractional nanoseconds;
	// the analysis deducts them instead.
	EventOverheadNs, UnmeasuredOverheadNs float64
	// Calibration names where the deducted figures come from
	// (CalibrationProgram, CalibrationPaired, or "" when the trace does
	// not say). The figures of the other calibration, when it was made,
	// are kept as a cross-check: PairedEventOverhead and
	// PairedUnmeasuredOverhead from the calibration program,
	// ProgramEventOverheadNs and ProgramUnmeasuredOverheadNs from the
	// program's own runs.
	Calibration                                         string
	PairedEventOverhead, PairedUnmeasuredOverhead       time.Duration
	ProgramEventOverheadNs, ProgramUnmeasuredOverheadNs float64
	// Overflow reports that events were dropped.
	Overflow bool
	Threads  []Thread
	Methods  []Method
	Events   []Event // in the order they happened
	// Elapsed is the wall time of the whole traced run.
	Elapsed time.Duration
}

// MethodByID returns a lookup table from method ID to method.
func (t *Trace) MethodByID() map[uint32]*Method {
	m := make(map[uint32]*Method, len(t.Methods))
	for i := range t.Methods {
		m[t.Methods[i].ID] = &t.Methods[i]
	}
	return m
}

// ThreadByID returns a lookup table from thread ID to thread.
func (t *Trace) ThreadByID() map[uint32]*Thread {
	m := make(map[uint32]*Thread, len(t.Threads))
	for i := range t.Threads {
		m[t.Threads[i].ID] = &t.Threads[i]
	}
	return m
}
