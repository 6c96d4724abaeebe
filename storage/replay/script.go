package replay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Call is the kind of system call a script line records.
type Call uint8

// The calls Mobigen's print step emits (shared/reference/androstep-tools.md
// §2.3), and lseek, which Mobigen drops but without which a plain read or
// write after a seek lands at the wrong offset. Only these names are known,
// so any other name means the file is not a script; Parse rejects it
// instead of skipping it.
const (
	Open Call = iota + 1
	Access
	Stat64
	Lstat64
	Unlink
	Fstat64
	Close
	Fsync
	Fdatasync
	Write
	Read
	Pwrite
	Pread
	// Lseek is `lseek <fd> <offset> <whence> <ret>`: ret is the position
	// the traced call returned, where the replay puts the fd.
	Lseek
	numCalls
)

var callNames = [numCalls]string{
	Open: "open", Access: "access", Stat64: "stat64", Lstat64: "lstat64", Unlink: "unlink",
	Fstat64: "fstat64", Close: "close", Fsync: "fsync", Fdatasync: "fdatasync",
	Write: "write", Read: "read", Pwrite: "pwrite", Pread: "pread", Lseek: "lseek",
}

// whenceNames are the lseek origins a script line may name.
var whenceNames = []string{"SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA", "SEEK_HOLE"}

// String returns the name the script uses for the call.
func (c Call) String() string {
	if c > 0 && c < numCalls {
		return callNames[c]
	}
	return "call(" + strconv.Itoa(int(c)) + ")"
}

// MarshalText writes the call's name, so JSON shows "pwrite", not 12.
func (c Call) MarshalText() ([]byte, error) {
	if c == 0 || c >= numCalls {
		return nil, fmt.Errorf("unknown call %d", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a call's name.
func (c *Call) UnmarshalText(b []byte) error {
	v, ok := ParseCall(string(b))
	if !ok {
		return fmt.Errorf("unknown call %q", b)
	}
	*c = v
	return nil
}

// ParseCall returns the Call named s.
func ParseCall(s string) (Call, bool) {
	for c := Open; c < numCalls; c++ {
		if callNames[c] == s {
			return c, true
		}
	}
	return 0, false
}

// hasPath, hasFD and isData group the calls by the shape of their arguments.
func (c Call) hasPath() bool { return c >= Open && c <= Unlink }
func (c Call) isData() bool  { return c >= Write && c <= Pread }
func (c Call) usesFD() bool  { return c >= Fstat64 && c <= Lseek }

// Entry is one line of a script. Ret is the value the traced call returned:
// the new fd for open, the byte count for write/read/pwrite/pread (which the
// replay uses as the size), 0 or -1 for the others.
type Entry struct {
	Line   int    `json:"line,omitempty"` // 1-based line in the source, for messages
	TID    int    `json:"tid"`
	Time   int64  `json:"time_us"` // µs since the first line of the first thread; may be negative
	Call   Call   `json:"call"`
	Path   string `json:"path,omitempty"`   // without the quotes
	Quoted bool   `json:"quoted,omitempty"` // "path": a real path; unquoted: a reduced one (a temp file)
	Flags  string `json:"flags,omitempty"`  // open only, verbatim (O_RDONLY|O_LARGEFILE)
	FD     int    `json:"fd,omitempty"`     // the fd argument of the fd and data calls
	Offset int64  `json:"offset,omitempty"` // pwrite/pread; lseek's offset argument
	Whence int    `json:"whence,omitempty"` // lseek: 0 SEEK_SET, 1 SEEK_CUR, 2 SEEK_END, 3 SEEK_DATA, 4 SEEK_HOLE
	Ret    int64  `json:"ret"`
}

// Script is a parsed Mobigen script, in file order (Mobigen groups it by
// thread, then time).
type Script struct {
	Name    string
	Entries []Entry
}

// SyntaxError is a malformed script line.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

// Error formats the error as file:line: message, as compilers do.
func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// maxLine bounds one line; Mobigen's longest are a few hundred bytes (a path).
const maxLine = 1 << 20

// ParseFile parses the script at path; errors name the file as given.
func ParseFile(path string) (*Script, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay script: %w", err)
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a script. It accepts what Mobigen really writes (CRLF, blank
// lines, repeated blanks, quoted paths containing spaces, unquoted paths with
// stray quotes such as `dev/fimg2d"`, failed calls with ret -1, negative
// times) and rejects anything else with the line and the offending token.
func Parse(r io.Reader, name string) (*Script, error) {
	if name == "" {
		name = "script"
	}
	s := &Script{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	n := 0
	for sc.Scan() {
		n++
		tok := fields(sc.Text())
		if len(tok) == 0 {
			continue
		}
		e, msg := parseLine(tok)
		if msg != "" {
			return nil, &SyntaxError{File: name, Line: n, Msg: msg}
		}
		e.Line = n
		s.Entries = append(s.Entries, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &SyntaxError{File: name, Line: n + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// fields splits on ASCII blanks only: Mobibench tokenises on ' ', and
// strings.Fields would also split inside paths on Unicode spaces.
func fields(line string) []string {
	return strings.FieldsFunc(line, isBlank)
}

func isBlank(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\v' || r == '\f' }

func parseLine(tok []string) (Entry, string) {
	var e Entry
	if len(tok) < 3 {
		return e, fmt.Sprintf("want <tid> <usec> <call> <args...>, got %d fields", len(tok))
	}
	tid, err := strconv.Atoi(tok[0])
	if err != nil || tid < 0 {
		return e, fmt.Sprintf("thread id %q is not a non-negative number", tok[0])
	}
	t, err := strconv.ParseInt(tok[1], 10, 64)
	if err != nil {
		return e, fmt.Sprintf("time %q is not a number of microseconds", tok[1])
	}
	c, ok := ParseCall(tok[2])
	if !ok {
		return e, fmt.Sprintf("unknown call %q", tok[2])
	}
	e.TID, e.Time, e.Call = tid, t, c
	args := tok[3:]
	if c.hasPath() {
		var msg string
		e.Path, e.Quoted, args, msg = parsePath(args)
		if msg != "" {
			return e, c.String() + ": " + msg
		}
	}
	want := map[Call]int{Open: 2, Pwrite: 3, Pread: 3, Lseek: 4}[c]
	if want == 0 {
		want = 2
		if c.hasPath() {
			want = 1
		}
	}
	if len(args) != want {
		return e, fmt.Sprintf("%s: want %d arguments after %s, got %d", c, want, argsBefore(c), len(args))
	}
	num := func(what, s string) (int64, string) {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Sprintf("%s: %s %q is not a number", c, what, s)
		}
		return v, ""
	}
	var msg string
	switch {
	case c == Open:
		e.Flags = args[0]
		e.Ret, msg = num("fd", args[1])
	case c.hasPath():
		e.Ret, msg = num("return value", args[0])
	default:
		var fd int64
		if fd, msg = num("fd", args[0]); msg != "" {
			break
		}
		if int64(int32(fd)) != fd {
			return e, fmt.Sprintf("%s: fd %q is out of range", c, args[0])
		}
		e.FD = int(fd)
		if c == Pwrite || c == Pread || c == Lseek {
			if e.Offset, msg = num("offset", args[1]); msg != "" {
				break
			}
			args = args[1:]
		}
		if c == Lseek {
			w := slices.Index(whenceNames, args[1])
			if w < 0 {
				return e, fmt.Sprintf("lseek: whence %q is not one of %s", args[1], strings.Join(whenceNames, ", "))
			}
			e.Whence = w
			args = args[1:]
		}
		what := "return value"
		switch {
		case c.isData():
			what = "byte count"
		case c == Lseek:
			what = "position"
		}
		e.Ret, msg = num(what, args[1])
	}
	return e, msg
}

func argsBefore(c Call) string {
	if c.hasPath() {
		return "the path"
	}
	return "the call"
}

// parsePath takes the path off the front of args. A quoted path may have been
// split at spaces and is joined again; an unquoted one is a single token,
// taken verbatim because Mobigen's path reduction leaves stray quotes in it
// (`dev/fimg2d"`, `NotificationPermissions.db"/nil`).
func parsePath(args []string) (path string, quoted bool, rest []string, msg string) {
	if len(args) == 0 {
		return "", false, nil, "missing path"
	}
	if !strings.HasPrefix(args[0], `"`) {
		return args[0], false, args[1:], ""
	}
	for i, a := range args {
		if strings.HasSuffix(a, `"`) && (i > 0 || len(a) >= 2) {
			p := strings.Join(args[:i+1], " ")
			return p[1 : len(p)-1], true, args[i+1:], ""
		}
	}
	return "", false, nil, fmt.Sprintf("unterminated quoted path %q", args[0])
}

// WriteTo writes the script in Mobigen's format, one line per entry, so that
// Parse reads back the same entries. It refuses entries the format cannot
// carry (a path with a newline, say) instead of writing a broken script.
func (s *Script) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var n int64
	for i := range s.Entries {
		line, err := s.Entries[i].format()
		if err != nil {
			return n, fmt.Errorf("entry %d (line %d): %w", i, s.Entries[i].Line, err)
		}
		m, err := bw.WriteString(line)
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}

func (e *Entry) format() (string, error) {
	if e.Call == 0 || e.Call >= numCalls {
		return "", fmt.Errorf("unknown call %d", e.Call)
	}
	if e.TID < 0 {
		return "", fmt.Errorf("negative thread id %d", e.TID)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d %s", e.TID, e.Time, e.Call)
	if e.Call.hasPath() {
		if err := checkPath(e.Path, e.Quoted); err != nil {
			return "", err
		}
		if e.Quoted {
			b.WriteString(` "` + e.Path + `"`)
		} else {
			b.WriteString(" " + e.Path)
		}
	}
	switch {
	case e.Call == Open:
		if e.Flags == "" || strings.IndexFunc(e.Flags, isBlankOrNL) >= 0 {
			return "", fmt.Errorf("open flags %q cannot be written", e.Flags)
		}
		fmt.Fprintf(&b, " %s %d", e.Flags, e.Ret)
	case e.Call.hasPath():
		fmt.Fprintf(&b, " %d", e.Ret)
	case e.Call == Pwrite || e.Call == Pread:
		fmt.Fprintf(&b, " %d %d %d", e.FD, e.Offset, e.Ret)
	case e.Call == Lseek:
		if e.Whence < 0 || e.Whence >= len(whenceNames) {
			return "", fmt.Errorf("lseek whence %d cannot be written", e.Whence)
		}
		fmt.Fprintf(&b, " %d %d %s %d", e.FD, e.Offset, whenceNames[e.Whence], e.Ret)
	default:
		fmt.Fprintf(&b, " %d %d", e.FD, e.Ret)
	}
	b.WriteByte('\n')
	return b.String(), nil
}

func isBlankOrNL(r rune) bool { return isBlank(r) || r == '\n' }

// checkPath accepts exactly the paths Parse returns unchanged: an unquoted
// path is one non-empty token not starting with a quote; a quoted one may
// hold single spaces (re-joined on reading) but no other blanks.
func checkPath(p string, quoted bool) error {
	if !quoted {
		if p == "" || strings.HasPrefix(p, `"`) || strings.IndexFunc(p, isBlankOrNL) >= 0 {
			return fmt.Errorf("unquoted path %q cannot be written", p)
		}
		return nil
	}
	if strings.ContainsAny(p, "\t\r\v\f\n") || strings.Contains(p, "  ") {
		return fmt.Errorf("quoted path %q cannot be written", p)
	}
	// `"a" b"` would read back as path `a` followed by `b"`: a quote may only
	// end the path if no quote-ended token comes before it.
	tokens := fields(`"` + p + `"`)
	for i, t := range tokens[:len(tokens)-1] {
		if strings.HasSuffix(t, `"`) && (i > 0 || len(t) >= 2) {
			return fmt.Errorf("quoted path %q cannot be written", p)
		}
	}
	return nil
}

// Stats are the figures Mobibench prints before replaying a script.
type Stats struct {
	Lines    int   `json:"lines"`
	Threads  int   `json:"threads"`
	Opens    int   `json:"opens"`
	MaxWrite int64 `json:"max_write"`
	MaxRead  int64 `json:"max_read"`
	// Start and End are the earliest and latest times (µs). Start is at most
	// 0: the script's clock starts at the first line of the first thread, and
	// threads seen earlier come out negative.
	Start int64 `json:"start_us"`
	End   int64 `json:"end_us"`
}

// Duration is the original execution time: from Start to End. Mobibench
// prints End alone, which is the same unless some times are negative.
func (st Stats) Duration() time.Duration { return time.Duration(st.End-st.Start) * time.Microsecond }

// Stats computes the script's statistics.
func (s *Script) Stats() Stats {
	st := Stats{Lines: len(s.Entries)}
	tids := map[int]bool{}
	for i, e := range s.Entries {
		tids[e.TID] = true
		if i == 0 || e.Time > st.End {
			st.End = e.Time
		}
		st.Start = min(st.Start, e.Time)
		switch e.Call {
		case Open:
			st.Opens++
		case Write, Pwrite:
			st.MaxWrite = max(st.MaxWrite, e.Ret)
		case Read, Pread:
			st.MaxRead = max(st.MaxRead, e.Ret)
		}
	}
	st.End = max(st.End, st.Start)
	st.Threads = len(tids)
	return st
}
