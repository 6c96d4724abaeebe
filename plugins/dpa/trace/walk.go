package trace

// The exporters (pprof, trace-event JSON) all need the same thing from the
// flat event list: activations, each with its entry and exit times and the
// time spent in its direct children. walk rebuilds them from per-thread
// stacks once, with one set of rules, so the formats cannot disagree about
// what an activation was.

// frame is one activation on a thread's stack while walking.
type frame struct {
	method              uint32
	depth               int // 1 for the thread's outermost frame
	enterWall, enterCPU int64
	childWall, childCPU int64 // inclusive time of the closed direct children
	children            int64 // direct children closed so far
	ctx                 int   // free slot for the walker's caller (CCT node)
}

// closeKind says how an activation ended.
type closeKind uint8

const (
	closedByExit   closeKind = iota // its own exit event
	closedByUnroll                  // its own unroll event (exception)
	// closedImplicitly: a frame above the one an exit/unroll named, or
	// a frame still open when the thread's events ended. It is closed at
	// that event's time, as dmtracedump does at the end of a trace.
	closedImplicitly
)

// walker receives the activations of a trace. parent is nil for a
// thread's outermost frame. f stays valid only during the call.
type walker struct {
	enter func(tid uint32, parent, f *frame)
	close func(tid uint32, f *frame, exitWall, exitCPU int64, how closeKind)
}

// walk replays t.Events and reports every activation to w, in the order
// the activations end. Rules, chosen to match dmtracedump where it has one
// and to never abort where it would:
//   - an exit or unroll closes the innermost open activation of its method
//     on that thread; activations above it are closed at the same time
//     (they can only have been left by the same unwinding);
//   - an exit or unroll of a method with no open activation on the thread
//     (entered before tracing started) is ignored;
//   - activations still open after a thread's last event are closed at
//     that event's wall and CPU time, innermost first.
func walk(t *Trace, w walker) {
	type threadState struct {
		stack             []frame
		lastWall, lastCPU int64
	}
	states := map[uint32]*threadState{}
	var order []uint32 // threads in order of first event, for a stable end
	pop := func(tid uint32, st *threadState, wall, cpu int64, how closeKind) {
		n := len(st.stack) - 1
		f := &st.stack[n]
		if w.close != nil {
			w.close(tid, f, wall, cpu, how)
		}
		if n > 0 {
			p := &st.stack[n-1]
			p.childWall += wall - f.enterWall
			p.childCPU += cpu - f.enterCPU
			p.children++
		}
		st.stack = st.stack[:n]
	}
	for _, e := range t.Events {
		st := states[e.Thread]
		if st == nil {
			st = &threadState{}
			states[e.Thread] = st
			order = append(order, e.Thread)
		}
		st.lastWall, st.lastCPU = e.Wall, e.CPU
		switch e.Action {
		case Enter:
			st.stack = append(st.stack, frame{method: e.Method, depth: len(st.stack) + 1, enterWall: e.Wall, enterCPU: e.CPU})
			f := &st.stack[len(st.stack)-1]
			var parent *frame
			if len(st.stack) > 1 {
				parent = &st.stack[len(st.stack)-2]
			}
			if w.enter != nil {
				w.enter(e.Thread, parent, f)
			}
		case Exit, Unroll:
			i := len(st.stack) - 1
			for i >= 0 && st.stack[i].method != e.Method {
				i--
			}
			if i < 0 {
				continue
			}
			for len(st.stack)-1 > i {
				pop(e.Thread, st, e.Wall, e.CPU, closedImplicitly)
			}
			how := closedByExit
			if e.Action == Unroll {
				how = closedByUnroll
			}
			pop(e.Thread, st, e.Wall, e.CPU, how)
		}
	}
	for _, tid := range order {
		st := states[tid]
		for len(st.stack) > 0 {
			pop(tid, st, st.lastWall, st.lastCPU, closedImplicitly)
		}
	}
}
