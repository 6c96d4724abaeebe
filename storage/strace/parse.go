// Package strace reads the text log strace writes with -f -ttt -T (and the
// shapes older Android builds of strace print), as events a cleaner can
// work on: complete calls, the halves of calls another thread interrupted,
// signals and exits. It never fails on a bad line: it reports it with its
// position and goes on, because logs pulled off a phone are often cut off
// or interleaved, and the rest of the log is still worth cleaning.
//
// # Shapes
//
// Android's strace is upstream strace built for the phone (AOSP
// external/strace; Termux packages it too), so it prints upstream's
// shapes, all read here and tested against the real strace with the same
// options (real_test.go) and against logs taken on phones (testdata):
//
//   - no pid (one process, or -ff's one file per process); "N " before
//     each line (-f -o FILE); "[pid N] " (-f to a terminal, where strace
//     leaves the pid out while it traces a single process: fillPIDs puts
//     it back where the log shows which process that is);
//   - no time, -t / -tt (time of day), -ttt (epoch), and -T's "<0.000012>";
//   - "name(args <unfinished ...>" and "<... name resumed>args) = ret";
//   - "--- SIGCHLD {...} ---", "+++ exited with 0 +++", "+++ killed by
//     SIGKILL +++", strace's own "Process N attached" (also when strace
//     wrote it into the middle of a call's line on a terminal);
//   - -y's "3</path>" in arguments and return values, errno annotations,
//     flags printed as numbers by old builds (only the access mode is
//     trusted then);
//   - the damage of logs pasted into issues: lines wrapped by a terminal,
//     two lines joined, are reported with their position.
package strace

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Kind is what one log line records.
type Kind uint8

// The kinds of line.
const (
	// Call is a complete system call: name(args) = ret.
	Call Kind = iota + 1
	// Unfinished is the first half of a call another thread's line cut:
	// name(args <unfinished ...>.
	Unfinished
	// Resumed is the second half: <... name resumed> args) = ret.
	Resumed
	// Signal is a delivered signal: --- SIGCHLD {...} ---.
	Signal
	// Exit is the end of a thread: +++ exited with 0 +++ or killed by.
	Exit
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Call:
		return "call"
	case Unfinished:
		return "unfinished"
	case Resumed:
		return "resumed"
	case Signal:
		return "signal"
	case Exit:
		return "exit"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one parsed line.
type Event struct {
	Line int // 1-based line in the log
	// End is the line of the resumed half of a call Merge joined, 0
	// otherwise: the call took effect (its fd existed, its fd was gone)
	// by then, which is the order fd bookkeeping must follow.
	End  int
	PID  int   // the [pid N] or leading N prefix; 0 when the log has none
	Time int64 // µs since the epoch (-ttt) or since midnight (-tt, -t); -1 when the line has none
	Kind Kind
	Name string // the system call, or the signal name
	// Args is the text between the parentheses, verbatim (for Resumed, the
	// part after "resumed>"; for Unfinished, the part before the marker).
	Args string
	// Ret is the return value's text ("3", "-1", "0x7f12", "?"); RetVal is
	// its number when it has one. Errno is the error name after -1.
	Ret    string
	RetVal int64
	Errno  string
	Dur    int64 // µs from -T's <0.000012>, -1 without
}

// Diag is a positioned warning about one line of the log.
type Diag struct {
	File string
	Line int
	Msg  string
}

// Error formats the warning as file:line: message.
func (d Diag) Error() string { return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg) }

// Log is a parsed strace log.
type Log struct {
	Name   string
	Lines  int // lines read, blank ones included
	Events []Event
	// Skipped are the lines that held nothing this parser understood
	// (strace's own messages such as "Process 12 attached" are not
	// counted: they are known and carry nothing).
	Skipped []Diag
	// Clock is "epoch" (-ttt), "day" (-tt or -t) or "none".
	Clock string
}

// maxLine bounds one line. strace with a large -s can print long buffers;
// a longer line is reported and skipped, not fatal.
const maxLine = 4 << 20

// ParseFile parses the log at path.
func ParseFile(path string) (*Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("strace log: %w", err)
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a log. The error is only ever an I/O error of r; bad lines
// are in Log.Skipped.
func Parse(r io.Reader, name string) (*Log, error) {
	if name == "" {
		name = "strace"
	}
	l := &Log{Name: name, Clock: "none"}
	br := bufio.NewReaderSize(r, 64<<10)
	clocks := map[string]int{}
	for {
		line, long, err := readLine(br)
		if line == "" && err != nil {
			if err == io.EOF {
				break
			}
			return l, fmt.Errorf("%s:%d: %w", name, l.Lines+1, err)
		}
		l.Lines++
		if long {
			l.skip(l.Lines, fmt.Sprintf("line longer than %d bytes", maxLine))
			continue
		}
		lineNo := l.Lines
		if before, ok := cutAttached(line); ok {
			if strings.TrimSpace(before) == "" {
				continue
			}
			// strace wrote its message into the middle of a call's line
			// (on a terminal, where it shares stderr with the trace); the
			// call goes on at the start of the next line.
			next, nlong, err := readLine(br)
			if next == "" && err != nil || nlong {
				l.skip(lineNo, "call cut by strace's \"attached\" message, and its rest is missing")
				continue
			}
			l.Lines++
			line = before + next
		}
		ev, clock, msg := parseLine(line)
		switch {
		case msg == "":
			ev.Line = lineNo
			if clock != "" {
				clocks[clock]++
			}
			l.Events = append(l.Events, ev)
		case msg != "-":
			l.skip(lineNo, msg)
		}
	}
	for _, c := range []string{"epoch", "day"} {
		if clocks[c] > 0 && clocks[c] >= clocks[l.Clock] {
			l.Clock = c
		}
	}
	fillPIDs(l.Events)
	return l, nil
}

// fillPIDs gives the lines without a pid their pid where the log shows
// it: strace -f writing to a terminal prefixes "[pid N]" only while it
// traces more than one process, so the first process's lines before its
// first child, and the last one's after the others exited, have none. The
// first process is the first pid seen that no clone, fork or vfork
// returned — or, when it never shows one (a shell blocked in wait4 while
// its children ran has no line of its own then), the pid its own
// set_tid_address, getpid or gettid returned on a line without a pid.
func fillPIDs(evs []Event) {
	children := map[int]bool{}
	for _, ev := range evs {
		switch ev.Name {
		case "clone", "clone3", "fork", "vfork":
			if ev.Kind == Call || ev.Kind == Resumed {
				children[int(ev.RetVal)] = true
			}
		}
	}
	first := 0
	for _, ev := range evs {
		if ev.PID != 0 && !children[ev.PID] {
			first = ev.PID
			break
		}
	}
	if first == 0 && len(children) > 0 {
		first = ownPID(evs)
	}
	if first == 0 {
		return // no pids at all (no -f), or only children: nothing to tell
	}
	alive := map[int]bool{}
	for i := range evs {
		ev := &evs[i]
		if ev.PID == 0 {
			switch len(alive) {
			case 0:
				ev.PID = first
			case 1:
				for p := range alive {
					ev.PID = p
				}
			}
		}
		if ev.PID == 0 {
			continue
		}
		if ev.Kind == Exit {
			delete(alive, ev.PID)
		} else {
			alive[ev.PID] = true
		}
	}
}

// ownPID is the pid the first call on a line without a pid that returns
// its caller's own pid or thread id returned, 0 when there is none.
func ownPID(evs []Event) int {
	for _, ev := range evs {
		if ev.PID != 0 || ev.Kind != Call || ev.RetVal <= 0 {
			continue
		}
		switch ev.Name {
		case "set_tid_address", "getpid", "gettid":
			return int(ev.RetVal)
		}
	}
	return 0
}

// cutAttached finds strace's "Process N attached" message, which strace
// writes to stderr as "strace: Process N attached" (its argv[0], maybe a
// path, first) at the end of whatever the trace had written of the line,
// and returns the line before it.
func cutAttached(line string) (string, bool) {
	i := strings.Index(line, "strace: Process ")
	if i < 0 || !strings.HasSuffix(strings.TrimSpace(line), " attached") {
		return "", false
	}
	before := line[:i]
	// An argv[0] with a directory: its path is glued to the text before.
	run := before[strings.LastIndexAny(before, " \t")+1:]
	if j := strings.IndexByte(run, '/'); j >= 0 && strings.HasSuffix(run, "/") {
		before = before[:len(before)-len(run)+j]
	}
	return before, true
}

func (l *Log) skip(line int, msg string) {
	l.Skipped = append(l.Skipped, Diag{File: l.Name, Line: line, Msg: msg})
}

// readLine returns one line without its end; long is set (and the rest of
// the line discarded) when it exceeds maxLine.
func readLine(br *bufio.Reader) (string, bool, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(b)+len(chunk) <= maxLine {
			b = append(b, chunk...)
		} else {
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			if err == io.EOF {
				err = nil
			}
			return "x", true, err
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		s := strings.TrimRight(string(b), "\r\n")
		if err == io.EOF && len(b) > 0 {
			err = nil
		}
		if len(b) > 0 && s == "" {
			s = " " // a blank line is a line; the caller skips it as such
		}
		return s, false, err
	}
}

// strace's own notes, which carry no call: they are dropped silently.
var notes = []string{"Process ", "strace: ", "System call interrupted", "????"}

// parseLine parses one line. msg is "" for an event, "-" for a line to drop
// silently, otherwise why the line was skipped.
func parseLine(line string) (ev Event, clock, msg string) {
	ev.Time, ev.Dur = -1, -1
	s := strings.TrimSpace(line)
	if s == "" {
		return ev, "", "-"
	}
	for _, n := range notes {
		if strings.HasPrefix(s, n) {
			return ev, "", "-"
		}
	}
	// [pid  123] or a leading number (strace -f -o FILE writes "123 ").
	if strings.HasPrefix(s, "[pid") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return ev, "", "unterminated [pid N] prefix"
		}
		n, err := strconv.Atoi(strings.TrimSpace(s[4:end]))
		if err != nil || n <= 0 {
			return ev, "", fmt.Sprintf("bad pid in %q", s[:end+1])
		}
		ev.PID, s = n, strings.TrimSpace(s[end+1:])
	} else if tok, rest, ok := cutField(s); ok && isDigits(tok) && !strings.Contains(tok, ".") {
		// A bare number followed by a timestamp or a call: the pid. A bare
		// number followed by "(" cannot happen; a time has a dot or colon.
		if rest != "" && (rest[0] >= '0' && rest[0] <= '9' || isCallStart(rest)) {
			n, err := strconv.Atoi(tok)
			if err != nil || n <= 0 {
				return ev, "", fmt.Sprintf("bad pid %q", tok)
			}
			ev.PID, s = n, rest
		}
	}
	// Timestamp: 1700000000.123456 (-ttt), 12:34:56.123456 (-tt), 12:34:56 (-t).
	if tok, rest, ok := cutField(s); ok && tok != "" && tok[0] >= '0' && tok[0] <= '9' {
		t, c, err := parseTime(tok)
		if err != "" {
			return ev, "", err
		}
		ev.Time, clock, s = t, c, rest
	}
	if s == "" {
		return ev, "", "no call after the prefix (truncated line?)"
	}
	switch {
	case strings.HasPrefix(s, "---"):
		ev.Kind = Signal
		body := strings.TrimSpace(strings.TrimPrefix(s, "---"))
		name, _, _ := cutField(body)
		if !strings.HasPrefix(name, "SIG") {
			return ev, "", fmt.Sprintf("signal line without a signal name: %q", clip(s))
		}
		ev.Name = name
		return ev, clock, ""
	case strings.HasPrefix(s, "+++"):
		ev.Kind = Exit
		ev.Args = strings.TrimSpace(strings.Trim(s, "+ "))
		return ev, clock, ""
	case strings.HasPrefix(s, "<..."):
		end := strings.Index(s, " resumed>")
		if end < 0 {
			return ev, "", fmt.Sprintf("unterminated resumed marker: %q", clip(s))
		}
		ev.Kind, ev.Name = Resumed, strings.TrimSpace(s[4:end])
		if !isName(ev.Name) {
			return ev, "", fmt.Sprintf("bad call name %q in resumed marker", clip(ev.Name))
		}
		rest := s[end+len(" resumed>"):]
		// The resumed half is inside the call's parentheses already:
		// wait4's "[{WIFEXITED(s) && ...}]" must not close them.
		args, tail, ok := splitClose(rest, 1)
		if !ok {
			return ev, "", fmt.Sprintf("%s resumed: no closing parenthesis (truncated line?)", ev.Name)
		}
		ev.Args = strings.TrimSpace(args)
		if m := parseResult(&ev, tail); m != "" {
			return ev, "", ev.Name + " resumed: " + m
		}
		return ev, clock, ""
	}
	open := strings.IndexByte(s, '(')
	if open <= 0 || !isName(s[:open]) {
		return ev, "", fmt.Sprintf("not a call, signal or exit: %q", clip(s))
	}
	ev.Name = s[:open]
	rest := s[open+1:]
	if i := strings.LastIndex(rest, "<unfinished ..."); i >= 0 && strings.HasSuffix(strings.TrimSpace(rest), ">") {
		ev.Kind = Unfinished
		ev.Args = strings.TrimRight(strings.TrimSpace(rest[:i]), ", ")
		return ev, clock, ""
	}
	args, tail, ok := splitClose(rest, 1)
	if !ok {
		return ev, "", fmt.Sprintf("%s: no closing parenthesis (truncated line?)", ev.Name)
	}
	ev.Kind, ev.Args = Call, strings.TrimSpace(args)
	if m := parseResult(&ev, tail); m != "" {
		return ev, "", ev.Name + ": " + m
	}
	return ev, clock, ""
}

// splitClose finds the parenthesis that closes an argument list of which
// depth parentheses are open, skipping quoted strings (with escapes) and
// nested brackets. It returns the arguments and what follows.
func splitClose(s string, depth int) (args, tail string, ok bool) {
	d := depth
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			j := endQuote(s, i)
			if j < 0 {
				return "", "", false
			}
			i = j
		case '(':
			d++
		case ')':
			if d <= 1 {
				return s[:i], s[i+1:], true
			}
			d--
		}
	}
	return "", "", false
}

// endQuote returns the index of the quote closing the string opened at i,
// or -1.
func endQuote(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// parseResult reads " = ret [ERRNO (text)] [flags] <0.000012>".
func parseResult(ev *Event, tail string) string {
	t := strings.TrimSpace(tail)
	// -T duration at the end.
	if strings.HasSuffix(t, ">") {
		if i := strings.LastIndexByte(t, '<'); i >= 0 {
			if d, ok := parseDur(t[i+1 : len(t)-1]); ok {
				ev.Dur = d
				t = strings.TrimSpace(t[:i])
			}
		}
	}
	if !strings.HasPrefix(t, "=") {
		if t == "" {
			// exit_group and execve in a dying thread print "= ?"; nothing
			// at all means the line was cut.
			return "no return value (truncated line?)"
		}
		return fmt.Sprintf("expected \"= ret\", got %q", clip(t))
	}
	t = strings.TrimSpace(t[1:])
	ret, rest, _ := cutField(t)
	if ret == "" {
		return "empty return value"
	}
	// With -y the return value of open is "3</path>".
	if i := strings.IndexByte(ret, '<'); i > 0 {
		ret = ret[:i]
	}
	ev.Ret = ret
	switch {
	case ret == "?":
	case strings.HasPrefix(ret, "0x"):
		v, err := strconv.ParseUint(ret[2:], 16, 64)
		if err != nil {
			return fmt.Sprintf("bad return value %q", ret)
		}
		ev.RetVal = int64(v)
	default:
		v, err := strconv.ParseInt(ret, 10, 64)
		if err != nil {
			return fmt.Sprintf("bad return value %q", clip(ret))
		}
		ev.RetVal = v
	}
	if e, _, _ := cutField(rest); strings.HasPrefix(e, "E") {
		ev.Errno = e
	}
	// A log pasted from a terminal or an issue sometimes has two lines
	// joined: a second call after the return value. Reading only the first
	// would lose the second silently.
	for _, f := range strings.Fields(rest) {
		if f[0] >= 'a' && f[0] <= 'z' && isCallStart(f) {
			return fmt.Sprintf("a second call %q after the return value (two lines joined?)", clip(f))
		}
	}
	return ""
}

func parseDur(s string) (int64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1e9 {
		return 0, false
	}
	return int64(f*1e6 + 0.5), true
}

// parseTime reads a timestamp into µs.
func parseTime(tok string) (int64, string, string) {
	if strings.Contains(tok, ":") {
		parts := strings.Split(tok, ":")
		if len(parts) != 3 {
			return 0, "", fmt.Sprintf("bad time %q", clip(tok))
		}
		h, e1 := strconv.Atoi(parts[0])
		m, e2 := strconv.Atoi(parts[1])
		sec, e3 := strconv.ParseFloat(parts[2], 64)
		if e1 != nil || e2 != nil || e3 != nil || h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec >= 61 {
			return 0, "", fmt.Sprintf("bad time %q", clip(tok))
		}
		return int64(h)*3600e6 + int64(m)*60e6 + int64(sec*1e6+0.5), "day", ""
	}
	sec, frac, _ := strings.Cut(tok, ".")
	s, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || s < 0 || s > 1<<40 || len(frac) > 9 || !isDigits(frac) {
		return 0, "", fmt.Sprintf("bad time %q", clip(tok))
	}
	us := s * 1e6
	if frac != "" {
		f := (frac + "000000")[:6]
		v, _ := strconv.ParseInt(f, 10, 64)
		us += v
	}
	return us, "epoch", ""
}

func cutField(s string) (tok, rest string, ok bool) {
	s = strings.TrimLeft(s, " \t")
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, "", s != ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t"), true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isCallStart tells whether s starts like a call, signal, exit or resumed
// line (used to tell a pid prefix from the timestamp-less start of a line).
func isCallStart(s string) bool {
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "+++") || strings.HasPrefix(s, "<...") {
		return true
	}
	i := strings.IndexByte(s, '(')
	return i > 0 && isName(s[:i])
}

func isName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// clip shortens text quoted in a message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
