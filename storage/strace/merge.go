package strace

import "sort"

// Merge joins each unfinished call with its resumed half: a thread has at
// most one call in flight, so the next resumed line of the same pid and
// name completes it. The joined call keeps the start's time and line (the
// time the thread entered the call) and takes the end's return value and
// duration. Calls, signals and exits pass through; the result is in line
// order. Unmatched are the halves left over: resumed lines without a start
// and starts never resumed (the log was cut, or a second start came
// first), in line order.
func Merge(evs []Event) (merged, unmatched []Event) {
	pending := map[int]Event{}
	for _, ev := range evs {
		switch ev.Kind {
		case Unfinished:
			if p, ok := pending[ev.PID]; ok {
				unmatched = append(unmatched, p)
			}
			pending[ev.PID] = ev
		case Resumed:
			p, ok := pending[ev.PID]
			if !ok || p.Name != ev.Name {
				unmatched = append(unmatched, ev)
				continue
			}
			delete(pending, ev.PID)
			m := p
			m.Kind, m.Ret, m.RetVal, m.Errno, m.Dur, m.End = Call, ev.Ret, ev.RetVal, ev.Errno, ev.Dur, ev.Line
			switch {
			case p.Args == "":
				m.Args = ev.Args
			case ev.Args != "":
				m.Args = p.Args + ", " + trimLeadingComma(ev.Args)
			}
			merged = append(merged, m)
		default:
			merged = append(merged, ev)
		}
	}
	for _, p := range pending {
		unmatched = append(unmatched, p)
	}
	byLine := func(s []Event) {
		sort.SliceStable(s, func(a, b int) bool { return s[a].Line < s[b].Line })
	}
	byLine(merged)
	byLine(unmatched)
	return merged, unmatched
}

// ByEffect sorts events into the order their effect on the fd table took
// place: a call that returns an fd has it only when it returns (the
// resumed half's line for a joined call), while close frees its fd before
// it returns, so it stays at its first line. In the plain line order, a
// thread's open that started before another thread's close of the same fd
// number, and returned that number, would seem to be closed by it; by
// completion alone, a close that started before an open which reused its
// number would seem to close the new file.
func ByEffect(evs []Event) {
	at := func(e Event) int {
		if e.Name == "close" {
			return e.Line
		}
		return max(e.End, e.Line)
	}
	sort.SliceStable(evs, func(a, b int) bool { return at(evs[a]) < at(evs[b]) })
}

func trimLeadingComma(s string) string {
	for len(s) > 0 && (s[0] == ',' || s[0] == ' ') {
		s = s[1:]
	}
	return s
}
