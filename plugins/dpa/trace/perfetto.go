package trace

import (
	"bufio"
	"encoding/json"
	"io"
	"sort"
)

// PerfettoPID is the pid all events of WritePerfetto carry: a trace is one
// VM process.
const PerfettoPID = 1

// perfettoEvent is one Trace Event Format record (catapult
// trace-event-format.md). Fields left empty are omitted.
type perfettoEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	PID  int            `json:"pid"`
	TID  uint32         `json:"tid"`
	TS   *float64       `json:"ts,omitempty"`
	Dur  *float64       `json:"dur,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// WritePerfetto writes t as Chrome/Perfetto trace-event JSON: a
// process_name and a thread_name metadata event per thread, then one
// complete ("X") event per activation with ts and dur in microseconds
// (fractional, so the nanoseconds survive) on the wall-clock timeline,
// relative to t.Start, and the activation's thread-CPU time in args.cpu_us.
// args.exit is "unroll" for activations left by an exception and
// "implicit" for ones closed because an outer frame exited or the thread's
// events ended (closed at that time, as dmtracedump does).
//
// Perfetto rejects overlapping slices on a thread, so the events of each
// thread are written in start order, parents before children; since every
// activation is closed no later than its parent (see walk), they nest
// perfectly.
func WritePerfetto(w io.Writer, t *Trace) error {
	methods := t.MethodByID()
	type slice struct {
		tid         uint32
		seq         int // order of entry, breaks ties between equal ts
		method      uint32
		wall, cpu   int64 // enter
		dWall, dCPU int64
		how         closeKind
	}
	var slices []slice
	seq := 0
	walk(t, walker{
		enter: func(_ uint32, _, f *frame) { f.ctx = seq; seq++ },
		close: func(tid uint32, f *frame, exitWall, exitCPU int64, how closeKind) {
			slices = append(slices, slice{tid: tid, seq: f.ctx, method: f.method,
				wall: f.enterWall, cpu: f.enterCPU,
				dWall: exitWall - f.enterWall, dCPU: exitCPU - f.enterCPU, how: how})
		},
	})
	sort.Slice(slices, func(i, j int) bool {
		a, b := &slices[i], &slices[j]
		if a.tid != b.tid {
			return a.tid < b.tid
		}
		return a.seq < b.seq // entry order is start order, parents first
	})

	bw := bufio.NewWriter(w)
	bw.WriteString(`{"displayTimeUnit":"ns","traceEvents":[`)
	enc := json.NewEncoder(bw)
	first := true
	emit := func(e *perfettoEvent) error {
		if !first {
			bw.WriteByte(',')
		}
		first = false
		bw.WriteByte('\n')
		return enc.Encode(e) // Encode's trailing newline is valid JSON whitespace
	}
	if err := emit(&perfettoEvent{Name: "process_name", Ph: "M", PID: PerfettoPID,
		Args: map[string]any{"name": "dalvikvm"}}); err != nil {
		return err
	}
	for _, th := range t.Threads {
		if err := emit(&perfettoEvent{Name: "thread_name", Ph: "M", PID: PerfettoPID, TID: th.ID,
			Args: map[string]any{"name": th.Name}}); err != nil {
			return err
		}
	}
	for i := range slices {
		s := &slices[i]
		name := "method?"
		if m := methods[s.method]; m != nil {
			name = m.FullName()
		}
		ts, dur := float64(s.wall)/1e3, float64(s.dWall)/1e3
		args := map[string]any{"cpu_us": float64(s.dCPU) / 1e3}
		switch s.how {
		case closedByUnroll:
			args["exit"] = "unroll"
		case closedImplicitly:
			args["exit"] = "implicit"
		}
		if err := emit(&perfettoEvent{Name: name, Cat: "dalvik", Ph: "X", PID: PerfettoPID, TID: s.tid,
			TS: &ts, Dur: &dur, Args: args}); err != nil {
			return err
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}
