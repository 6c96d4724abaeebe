package tracefs

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Event is one line of ftrace text output, as trace_pipe, the trace file,
// atrace and Perfetto's text export print it:
//
//	bash-1234    [001] d..1.  1234.567890: block_rq_issue: 7,0 W 4096 () 8 + 8 none,0,0 [bash]
//	bash-1234    (   1234) [001] .... 1234.567890: ...       (with the record-tgid option)
type Event struct {
	Comm string // the task running when the event fired
	Pid  int
	TGID int   // -1 when the line carries none
	CPU  int   // -1 when unknown
	Time int64 // nanoseconds of the trace clock
	Name string
	Body string // the event's own text after "name: "
}

// LostEvents recognises the kernel's "CPU:N [LOST M EVENTS]" marker line
// and returns M.
func LostEvents(line string) (int64, bool) {
	i := strings.Index(line, "[LOST ")
	if i < 0 || !strings.HasPrefix(strings.TrimSpace(line), "CPU:") {
		return 0, false
	}
	rest := line[i+len("[LOST "):]
	j := strings.IndexByte(rest, ' ')
	if j < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(rest[:j], 10, 64)
	return n, err == nil
}

// ParseLine parses one event line. Comment lines ("#"), blank lines and
// LOST markers are not events: ok is false and err nil for them.
func ParseLine(line string) (ev Event, ok bool, err error) {
	// Trailing blanks belong to the body (an empty flags field).
	t := strings.TrimLeft(strings.TrimRight(line, "\r\n"), " \t")
	if strings.TrimSpace(t) == "" || t[0] == '#' {
		return ev, false, nil
	}
	if _, lost := LostEvents(t); lost {
		return ev, false, nil
	}
	// The task is "comm-pid"; comm may hold spaces and dashes, so the pid
	// is found from the CPU field backwards.
	cpuOpen := strings.Index(t, "] ")
	if cpuOpen < 0 {
		return ev, false, fmt.Errorf("no [cpu] field")
	}
	lb := strings.LastIndexByte(t[:cpuOpen], '[')
	if lb < 0 {
		return ev, false, fmt.Errorf("no [cpu] field")
	}
	ev.CPU = -1
	if c, err := strconv.Atoi(strings.TrimSpace(t[lb+1 : cpuOpen])); err == nil {
		ev.CPU = c
	}
	task := strings.TrimSpace(t[:lb])
	ev.TGID = -1
	if strings.HasSuffix(task, ")") {
		if p := strings.LastIndexByte(task, '('); p >= 0 {
			if g, err := strconv.Atoi(strings.TrimSpace(task[p+1 : len(task)-1])); err == nil {
				ev.TGID = g
			}
			task = strings.TrimSpace(task[:p])
		}
	}
	dash := strings.LastIndexByte(task, '-')
	if dash < 0 {
		return ev, false, fmt.Errorf("task %q: no -pid", task)
	}
	ev.Comm = task[:dash]
	if ev.Pid, err = strconv.Atoi(task[dash+1:]); err != nil {
		return ev, false, fmt.Errorf("task %q: bad pid", task)
	}
	rest := strings.TrimLeft(t[cpuOpen+2:], " ")
	// An optional flags field (irq-info) precedes the timestamp, which
	// ends in ':'.
	for {
		sp := strings.IndexByte(rest, ' ')
		if sp < 0 {
			return ev, false, fmt.Errorf("no timestamp")
		}
		tok := rest[:sp]
		rest = strings.TrimLeft(rest[sp+1:], " ")
		if strings.HasSuffix(tok, ":") {
			if ev.Time, err = parseTimestamp(tok[:len(tok)-1]); err != nil {
				return ev, false, err
			}
			break
		}
	}
	// The blk tracer prints no event name: its body starts with the
	// device's major,minor, which no event name does.
	if isBlkTracerBody(rest) {
		ev.Name, ev.Body = "blk", rest
		return ev, true, nil
	}
	colon := strings.Index(rest, ": ")
	if colon < 0 {
		if strings.HasSuffix(rest, ":") {
			ev.Name = rest[:len(rest)-1]
			return ev, true, nil
		}
		return ev, false, fmt.Errorf("no event name")
	}
	ev.Name, ev.Body = rest[:colon], rest[colon+2:]
	return ev, true, nil
}

func isBlkTracerBody(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i == len(s) || s[i] != ',' {
		return false
	}
	j := i + 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j > i+1 && (j == len(s) || s[j] == ' ')
}

// parseTimestamp reads "seconds.fraction" into nanoseconds.
func parseTimestamp(s string) (int64, error) {
	sec, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || len(frac) > 9 {
		return 0, fmt.Errorf("bad timestamp %q", s)
	}
	var f int64
	if frac != "" {
		if f, err = strconv.ParseInt(frac, 10, 64); err != nil {
			return 0, fmt.Errorf("bad timestamp %q", s)
		}
		for i := len(frac); i < 9; i++ {
			f *= 10
		}
	}
	return n*1e9 + f, nil
}

// Field returns the value after key in an event body of "key value" pairs
// separated by single spaces, as the ext4, jbd2 and writeback events print
// them ("dev 7,0 ino 12 pos 0 len 4096"). An empty value (a flags field
// with no flag set) is found as "".
func Field(body, key string) (string, bool) {
	for i := 0; i < len(body); {
		j := strings.IndexByte(body[i:], ' ')
		if j < 0 {
			return "", false
		}
		k := body[i : i+j]
		i += j + 1
		v := body[i:]
		if e := strings.IndexByte(v, ' '); e >= 0 {
			v = v[:e]
		}
		if k == key {
			return v, true
		}
		i += len(v) + 1
	}
	return "", false
}

// FieldUint returns Field(body, key) as a number.
func FieldUint(body, key string) (uint64, error) {
	v, ok := Field(body, key)
	if !ok {
		return 0, fmt.Errorf("no field %q", key)
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("field %s: %w", key, err)
	}
	return n, nil
}

// Reader reads events from ftrace text, with positioned errors.
type Reader struct {
	sc   *bufio.Scanner
	line int
	// Lost sums the LOST markers read so far.
	Lost int64
}

// NewReader reads ftrace text from r.
func NewReader(r io.Reader) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	return &Reader{sc: sc}
}

// Line is the number of the line read last.
func (r *Reader) Line() int { return r.line }

// Next returns the next event, io.EOF at the end, or an error naming the
// line.
func (r *Reader) Next() (Event, error) {
	for r.sc.Scan() {
		r.line++
		text := r.sc.Text()
		if n, ok := LostEvents(text); ok {
			r.Lost += n
			continue
		}
		ev, ok, err := ParseLine(text)
		if err != nil {
			return ev, fmt.Errorf("line %d: %w: %q", r.line, err, clip(text))
		}
		if ok {
			return ev, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		return Event{}, fmt.Errorf("line %d: %w", r.line+1, err)
	}
	return Event{}, io.EOF
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
