// Package cleaner turns a strace log into a Mobigen replay script: the trace
// cleaner of the AndroStep paper (002 §3.3), following the rules of
// Mobigen's mobigen.rb (shared/reference/androstep-tools.md §2.2) with its
// bugs fixed knowingly (see Fixes). It makes the set of opens closed (an
// open is inserted before the first use of an fd opened before the
// capture), merges calls another thread's line cut in two, simplifies paths
// and flags, drops platform-specific calls and signals, numbers the threads
// from 0, and says what it dropped and why.
package cleaner

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
)

// Fixes lists where the cleaner deliberately differs from mobigen.rb.
var Fixes = []string{
	"opens are recorded, so an open is inserted only for fds the log really never opened (mobigen.rb inserted one before every first use of an fd number, real opens included)",
	"openat, creat, readv/writev, preadv/pwritev, newfstatat/statx, faccessat and unlinkat are read as the calls they are (mobigen.rb matched names by substring: openat was mis-parsed, readlink taken for read, statfs64 for stat)",
	"pread/pwrite offsets are taken as printed (mobigen.rb divided them by 2^32, a 32-bit ARM quirk of its strace)",
	"every unfinished call is kept until its own thread resumes it (mobigen.rb kept only the latest per thread and dropped older ones)",
	"fds are tracked per process: fork/vfork/clone without CLONE_FILES copies the fd table, with it shares it; dup/dup2/dup3/fcntl(F_DUPFD) alias an open file, whose close is written when its last fd closes; the same fd number in two processes is two files (mobigen.rb had one global fd map)",
	"lseek and _llseek are kept (mobigen.rb dropped them, so plain reads and writes after a seek replayed at the wrong offset)",
	"thread ids count only threads that issue a kept call (mobigen.rb made an empty thread 0 for lines without a pid)",
	"times count from the first kept call, so none is negative",
	"failed data calls (-1, no size known), closes of fds never used and I/O on the standard streams 0-2 are dropped: the replay could not issue them faithfully",
	"paths are kept whole by default (Paths = \"full\"); Paths = \"mobigen\" reduces non-read-only opens to their first two components as mobigen.rb did",
	"pseudo-files (/dev/, /proc/, /sys/, sockets, pipes) are dropped as platform-specific along with ashmem",
}

// Options configure Clean.
type Options struct {
	// Paths is "full" (every path kept, mirrored in the replay's sandbox)
	// or "mobigen" (non-read-only opens reduced to their first two path
	// components, replayed as temp files, as mobigen.rb does).
	Paths string
	// Drop lists path prefixes whose calls are platform-specific and
	// dropped; nil means DefaultDrop. A path containing "ashmem" is always
	// dropped, as in mobigen.rb.
	Drop []string
}

// DefaultDrop are the pseudo-filesystems whose I/O is not storage I/O.
var DefaultDrop = []string{"/dev/", "/proc/", "/sys/"}

// Stats are the paper's Table 3 and what the cleaner did.
type Stats struct {
	StraceLines int   `json:"strace_lines"`
	ScriptLines int   `json:"script_lines"`
	Threads     int   `json:"threads"`
	Files       int   `json:"files"`
	WriteBytes  int64 `json:"write_bytes"`
	ReadBytes   int64 `json:"read_bytes"`
	DurationUS  int64 `json:"duration_us"` // first to last kept call
	// Calls counts the script's lines by call.
	Calls map[string]int `json:"calls"`
	// Inserted counts the opens inserted for fds opened before the capture.
	Inserted int `json:"inserted_opens"`
	// Merged counts unfinished/resumed pairs joined into one call.
	Merged int `json:"merged"`
	// Renumbered counts open files given a script fd other than their
	// traced number, because another process's open file held it.
	Renumbered int `json:"renumbered_fds"`
	// Dropped counts the dropped lines by reason; DroppedCalls counts the
	// dropped system calls by name.
	Dropped      map[string]int `json:"dropped"`
	DroppedCalls map[string]int `json:"dropped_calls"`
}

// Result is a cleaned log.
type Result struct {
	Script *replay.Script
	Stats  Stats
	// Warnings are positioned notes on the log (lines the parser skipped
	// come first), at most MaxWarnings; Stats.Dropped counts them all.
	Warnings []strace.Diag
}

// MaxWarnings bounds Result.Warnings; a broken log of a million lines must
// not produce a million messages.
const MaxWarnings = 100

// Reasons a line is dropped (keys of Stats.Dropped).
const (
	ReasonUnparsed   = "unparsed line"
	ReasonSignal     = "signal"
	ReasonExit       = "thread exit"
	ReasonNotIO      = "not an I/O call of the script format"
	ReasonPlatform   = "platform-specific file"
	ReasonFailedData = "failed data call (no size to replay)"
	ReasonStdStream  = "standard stream (fd 0-2)"
	ReasonBadClose   = "close of an fd never used"
	ReasonOrphan     = "resumed half without its start"
	ReasonUnresumed  = "unfinished call never resumed (log cut?)"
	ReasonBadArgs    = "arguments not understood"
	ReasonRmdir      = "directory removal"
	ReasonDup        = "fd duplication (tracked in the fd tables)"
	ReasonProcess    = "process or thread creation (tracked in the fd tables)"
	ReasonFailedSeek = "failed lseek"
	ReasonDupClose   = "close of one of several fds of an open file"
)

type cleaner struct {
	o      Options
	res    *Result
	out    []replay.Entry
	tids   map[int]int
	files  map[string]bool
	noTime bool

	// The traced program's fd tables (fdtable.go).
	tables     map[int]*fdTable // by pid
	root       *fdTable
	spawned    map[int]spawn
	refs       map[int]int // script fd → fds referring to its open file
	next       int         // where the search for a free script fd resumes
	renumbered int
}

// Clean cleans a parsed log.
func Clean(l *strace.Log, o Options) *Result {
	if o.Paths == "" {
		o.Paths = "full"
	}
	if o.Drop == nil {
		o.Drop = DefaultDrop
	}
	c := &cleaner{
		o:    o,
		res:  &Result{Stats: Stats{StraceLines: l.Lines, Calls: map[string]int{}, Dropped: map[string]int{}, DroppedCalls: map[string]int{}}},
		tids: map[int]int{}, files: map[string]bool{},
		tables: map[int]*fdTable{}, refs: map[int]int{},
	}
	for _, d := range l.Skipped {
		c.drop(ReasonUnparsed, "", d)
	}
	evs := c.merge(l)
	strace.ByEffect(evs)
	c.spawned = spawns(evs)
	for _, ev := range evs {
		if ev.Kind == strace.Exit {
			c.exit(ev)
			continue
		}
		c.call(l.Name, ev)
	}
	c.times()
	// Grouped by thread, then in time order, as mobigen.rb writes it.
	sort.SliceStable(c.out, func(a, b int) bool {
		if c.out[a].TID != c.out[b].TID {
			return c.out[a].TID < c.out[b].TID
		}
		return c.out[a].Time < c.out[b].Time
	})
	st := &c.res.Stats
	for i := range c.out {
		c.out[i].Line = i + 1
		e := c.out[i]
		st.Calls[e.Call.String()]++
		switch e.Call {
		case replay.Write, replay.Pwrite:
			st.WriteBytes += e.Ret
		case replay.Read, replay.Pread:
			st.ReadBytes += e.Ret
		}
		st.DurationUS = max(st.DurationUS, e.Time)
	}
	if c.noTime && len(c.res.Warnings) < MaxWarnings {
		c.res.Warnings = append(c.res.Warnings, strace.Diag{File: l.Name, Line: 1, Msg: "the log has calls without timestamps (strace without -ttt): they are replayed back to back"})
	}
	st.ScriptLines, st.Threads, st.Files = len(c.out), len(c.tids), len(c.files)
	st.Renumbered = c.renumbered
	c.res.Script = &replay.Script{Name: l.Name, Entries: c.out}
	return c.res
}

func (c *cleaner) drop(reason, call string, d strace.Diag) {
	c.res.Stats.Dropped[reason]++
	if call != "" {
		c.res.Stats.DroppedCalls[call]++
	}
	if d.Msg != "" && len(c.res.Warnings) < MaxWarnings {
		c.res.Warnings = append(c.res.Warnings, d)
	}
}

func (c *cleaner) warn(name string, line int, format string, args ...any) strace.Diag {
	return strace.Diag{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// merge joins unfinished and resumed halves (strace.Merge) and drops
// signals and exits, counting what it drops.
func (c *cleaner) merge(l *strace.Log) []strace.Event {
	merged, left := strace.Merge(l.Events)
	for _, p := range left {
		if p.Kind == strace.Resumed {
			c.drop(ReasonOrphan, p.Name, c.warn(l.Name, p.Line, "%s resumed without its unfinished half", p.Name))
		} else {
			c.drop(ReasonUnresumed, p.Name, c.warn(l.Name, p.Line, "%s of pid %d never resumed", p.Name, p.PID))
		}
	}
	out := merged[:0]
	for _, ev := range merged {
		switch {
		case ev.Kind == strace.Signal:
			c.drop(ReasonSignal, "", strace.Diag{})
		case ev.Kind == strace.Exit:
			// Counted, and kept: the end of a process closes its fds.
			c.drop(ReasonExit, "", strace.Diag{})
			out = append(out, ev)
		default:
			out = append(out, ev)
		}
	}
	c.res.Stats.Merged = len(l.Events) - len(merged) - len(left)

	return out
}

// emit appends a script line for ev's thread at ev's time.
func (c *cleaner) emit(ev strace.Event, e replay.Entry) {
	tid, ok := c.tids[ev.PID]
	if !ok {
		tid = len(c.tids)
		c.tids[ev.PID] = tid
	}
	if ev.Time < 0 {
		c.noTime = true
	}
	// The raw time and the log line for now: the events come in the
	// order they completed, and times count from the kept call that
	// started first in the log (see times).
	e.Time, e.Line = ev.Time, ev.Line
	e.TID = tid
	c.out = append(c.out, e)
}

// times makes the kept calls' times count from the one whose line comes
// first in the log.
func (c *cleaner) times() {
	first, line := int64(0), math.MaxInt
	for _, e := range c.out {
		if e.Time >= 0 && e.Line < line {
			first, line = e.Time, e.Line
		}
	}
	for i := range c.out {
		e := &c.out[i]
		switch {
		case e.Time < 0:
			e.Time = 0 // no timestamp: replayed back to back
		case e.Time < first:
			// Lines out of order (an interleaved log): keep the call at
			// the start rather than before it.
			e.Time = 0
		default:
			e.Time -= first
		}
	}
}

func (c *cleaner) call(name string, ev strace.Event) {
	args := strace.SplitArgs(ev.Args)
	bad := func(format string, a ...any) {
		c.drop(ReasonBadArgs, ev.Name, c.warn(name, ev.Line, ev.Name+": "+format, a...))
	}
	switch ev.Name {
	case "open", "openat", "creat":
		c.open(name, ev, args, bad)
	case "close":
		fd, _, ok := fdArg(args, 0)
		if !ok {
			bad("no fd")
			return
		}
		t := c.table(ev.PID)
		_, open := t.fds[fd]
		switch {
		case t.ignore[fd]:
			delete(t.ignore, fd)
			c.drop(ReasonPlatform, ev.Name, strace.Diag{})
		case !open && fd <= 2:
			c.drop(ReasonStdStream, ev.Name, strace.Diag{})
		case !open:
			c.drop(ReasonBadClose, ev.Name, strace.Diag{})
		default:
			if sfd, closed, _ := c.releaseFD(ev, t, fd, false); closed {
				c.emit(ev, replay.Entry{Call: replay.Close, FD: sfd, Ret: ev.RetVal})
			} else {
				// Another fd (a dup, a child's copy) still refers to the
				// open file: closing this one closes nothing in the replay.
				c.drop(ReasonDupClose, ev.Name, strace.Diag{})
			}
		}
	case "fsync", "fdatasync", "fstat", "fstat64":
		call := map[string]replay.Call{"fsync": replay.Fsync, "fdatasync": replay.Fdatasync, "fstat": replay.Fstat64, "fstat64": replay.Fstat64}[ev.Name]
		fd, p, ok := fdArg(args, 0)
		if !ok {
			bad("no fd")
			return
		}
		if sfd, ok := c.fdReady(name, ev, fd, p); ok {
			c.emit(ev, replay.Entry{Call: call, FD: sfd, Ret: ev.RetVal})
		}
	case "lseek", "_llseek", "llseek":
		c.lseek(name, ev, args, bad)
	case "dup", "dup2", "dup3", "fcntl", "fcntl64":
		if isDup(ev, args) {
			c.dup(name, ev, args)
		} else {
			c.drop(ReasonNotIO, ev.Name, strace.Diag{})
		}
	case "clone", "clone2", "clone3", "fork", "vfork":
		if ev.RetVal > 0 {
			c.table(int(ev.RetVal)) // the child's table as it is now
		}
		c.drop(ReasonProcess, ev.Name, strace.Diag{})
	case "read", "write", "readv", "writev", "pread", "pread64", "pwrite", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2":
		c.data(name, ev, args, bad)
	case "stat", "stat64", "lstat", "lstat64", "access", "unlink":
		p, ok := pathArg(args, 0)
		if !ok {
			bad("no path")
			return
		}
		call := map[string]replay.Call{"stat": replay.Stat64, "stat64": replay.Stat64, "lstat": replay.Lstat64, "lstat64": replay.Lstat64, "access": replay.Access, "unlink": replay.Unlink}[ev.Name]
		c.pathCall(name, ev, call, p)
	case "newfstatat", "fstatat64", "statx", "faccessat", "faccessat2", "unlinkat":
		c.atCall(name, ev, args, bad)
	default:
		c.drop(ReasonNotIO, ev.Name, strace.Diag{})
	}
}

func (c *cleaner) open(name string, ev strace.Event, args []string, bad func(string, ...any)) {
	i := 0
	if ev.Name == "openat" {
		i = 1
	}
	p, ok := pathArg(args, i)
	if !ok {
		bad("no path")
		return
	}
	var flags string
	if ev.Name == "creat" {
		flags = "O_WRONLY|O_CREAT|O_TRUNC"
	} else if len(args) > i+1 {
		flags = simplifyFlags(args[i+1])
	} else {
		bad("no flags")
		return
	}
	if ev.Name == "openat" {
		p = atPath(args[0], p)
	}
	t := c.table(ev.PID)
	if c.platform(p) {
		if ev.RetVal >= 0 {
			c.releaseFD(ev, t, ev.RetVal, true)
			t.ignore[ev.RetVal] = true
		}
		c.drop(ReasonPlatform, ev.Name, strace.Diag{})
		return
	}
	e := replay.Entry{Call: replay.Open, Flags: flags, Ret: ev.RetVal}
	if ev.RetVal < 0 {
		e.Ret = -1
	}
	if e.Path, e.Quoted = c.scriptPath(name, ev, p, !strings.HasPrefix(flags, "O_RDONLY")); e.Path == "" {
		bad("empty path")
		return
	}
	c.files[p] = true
	if ev.RetVal >= 0 {
		e.Ret = int64(c.bindFD(ev, t, ev.RetVal))
	}
	c.emit(ev, e)
}

func (c *cleaner) data(name string, ev strace.Event, args []string, bad func(string, ...any)) {
	fd, p, ok := fdArg(args, 0)
	if !ok {
		bad("no fd")
		return
	}
	if ev.RetVal < 0 || ev.Ret == "?" {
		c.drop(ReasonFailedData, ev.Name, strace.Diag{})
		return
	}
	sfd, ok := c.fdReady(name, ev, fd, p)
	if !ok {
		return
	}
	e := replay.Entry{FD: sfd, Ret: ev.RetVal}
	write := strings.Contains(ev.Name, "write")
	if strings.HasPrefix(ev.Name, "p") {
		// pread64(fd, buf, count, offset); preadv(fd, iov, iovcnt, offset[, flags])
		if len(args) < 4 {
			bad("no offset")
			return
		}
		off, ok := strace.Int(args[3])
		if !ok || off < 0 {
			bad("offset %q is not a number", args[3])
			return
		}
		e.Offset = off
		e.Call = map[bool]replay.Call{true: replay.Pwrite, false: replay.Pread}[write]
	} else {
		e.Call = map[bool]replay.Call{true: replay.Write, false: replay.Read}[write]
	}
	c.emit(ev, e)
}

func (c *cleaner) atCall(name string, ev strace.Event, args []string, bad func(string, ...any)) {
	p, ok := pathArg(args, 1)
	if !ok {
		bad("no path")
		return
	}
	flagArg := ""
	switch ev.Name {
	case "newfstatat", "fstatat64":
		if len(args) > 3 {
			flagArg = args[3]
		}
	case "statx":
		if len(args) > 2 {
			flagArg = args[2]
		}
	case "faccessat2":
		if len(args) > 3 {
			flagArg = args[3]
		}
	case "unlinkat":
		if len(args) > 2 {
			flagArg = args[2]
		}
	}
	has := func(f string) bool { return hasFlag(flagArg, f) }
	var call replay.Call
	switch {
	case ev.Name == "unlinkat" && has("AT_REMOVEDIR"):
		c.drop(ReasonRmdir, ev.Name, strace.Diag{})
		return
	case ev.Name == "unlinkat":
		call = replay.Unlink
	case strings.HasPrefix(ev.Name, "faccessat"):
		call = replay.Access
	case p == "" && has("AT_EMPTY_PATH"):
		// fstatat(fd, "", AT_EMPTY_PATH) is fstat(fd), as glibc now issues it.
		fd, fp, ok := fdArg(args, 0)
		if !ok {
			bad("no fd")
			return
		}
		if sfd, ok := c.fdReady(name, ev, fd, fp); ok {
			c.emit(ev, replay.Entry{Call: replay.Fstat64, FD: sfd, Ret: ev.RetVal})
		}
		return
	case has("AT_SYMLINK_NOFOLLOW"):
		call = replay.Lstat64
	default:
		call = replay.Stat64
	}
	c.pathCall(name, ev, call, atPath(args[0], p))
}

func (c *cleaner) pathCall(name string, ev strace.Event, call replay.Call, p string) {
	if c.platform(p) {
		c.drop(ReasonPlatform, ev.Name, strace.Diag{})
		return
	}
	e := replay.Entry{Call: call, Ret: ev.RetVal}
	if e.Ret < 0 {
		e.Ret = -1
	}
	if e.Path, _ = c.scriptPath(name, ev, p, false); e.Path == "" {
		c.drop(ReasonBadArgs, ev.Name, c.warn(name, ev.Line, "%s: empty path", ev.Name))
		return
	}
	e.Quoted = true
	c.files[p] = true
	c.emit(ev, e)
}

// fdReady makes sure fd is open in the script before a call on it: an fd
// the log never opened gets an inserted open, at the call's time, in its
// thread (the paper's closed set of opens). It returns the script fd of
// the call's open file, or false, having counted the drop, when the call
// must go.
func (c *cleaner) fdReady(name string, ev strace.Event, fd int64, yPath string) (int, bool) {
	t := c.table(ev.PID)
	sfd, open := t.fds[fd]
	switch {
	case t.ignore[fd]:
		c.drop(ReasonPlatform, ev.Name, strace.Diag{})
		return 0, false
	case open:
		return sfd, true
	case fd <= 2:
		c.drop(ReasonStdStream, ev.Name, strace.Diag{})
		return 0, false
	case fd > math.MaxInt32:
		c.drop(ReasonBadArgs, ev.Name, c.warn(name, ev.Line, "%s: fd %d out of range", ev.Name, fd))
		return 0, false
	}
	e := replay.Entry{Call: replay.Open, Flags: "O_RDWR|O_CREAT"}
	if yPath != "" {
		// strace -y named the file: the open can name it too.
		if c.platform(yPath) || !strings.HasPrefix(yPath, "/") {
			t.ignore[fd] = true
			c.drop(ReasonPlatform, ev.Name, strace.Diag{})
			return 0, false
		}
		e.Flags = "O_RDWR"
		e.Path, e.Quoted = c.scriptPath(name, ev, yPath, false)
		c.files[yPath] = true
	} else {
		// mobigen.rb's made-up path; storage/replay recognises it as an fd
		// opened before the capture (unquoted, absolute) and does not
		// truncate it.
		e.Path = "/data/data"
		c.files[fmt.Sprintf("fd %d", fd)] = true
	}
	e.Ret = int64(c.bindFD(ev, t, fd))
	c.res.Stats.Inserted++
	c.emit(ev, e)
	return int(e.Ret), true
}

// lseek keeps lseek(fd, offset, whence) = pos and the 32-bit ABI's
// _llseek(fd, offset, [pos], whence) = 0, which strace prints with the
// 64-bit offset already joined (old builds print its two halves).
func (c *cleaner) lseek(name string, ev strace.Event, args []string, bad func(string, ...any)) {
	fd, p, ok := fdArg(args, 0)
	if !ok {
		bad("no fd")
		return
	}
	if ev.RetVal < 0 || ev.Ret == "?" {
		c.drop(ReasonFailedSeek, ev.Name, strace.Diag{})
		return
	}
	pos, whence := ev.RetVal, ""
	var off int64
	switch {
	case ev.Name == "lseek" && len(args) == 3:
		off, ok = strace.Int(args[1])
		whence = args[2]
	case ev.Name != "lseek" && (len(args) == 4 || len(args) == 5):
		// _llseek(fd, offset, [result], whence) or, from old strace,
		// _llseek(fd, offset_high, offset_low, [result], whence).
		res := args[len(args)-2]
		whence = args[len(args)-1]
		off, ok = strace.Int(args[1])
		if len(args) == 5 {
			lo, ok2 := strace.Int(args[2])
			off, ok = off<<32|lo&0xffffffff, ok && ok2
		}
		var ok3 bool
		pos, ok3 = strace.Int(strings.Trim(strings.TrimSpace(res), "[]"))
		ok = ok && ok3 && strings.HasPrefix(strings.TrimSpace(res), "[")
	default:
		bad("want 3 arguments (4 for _llseek), got %d", len(args))
		return
	}
	if !ok || pos < 0 {
		bad("offset or position not understood")
		return
	}
	w, ok := whenceOf(whence)
	if !ok {
		bad("whence %q not understood", whence)
		return
	}
	sfd, ok := c.fdReady(name, ev, fd, p)
	if !ok {
		return
	}
	c.emit(ev, replay.Entry{Call: replay.Lseek, FD: sfd, Offset: off, Whence: w, Ret: pos})
}

// whenceOf reads lseek's origin as strace prints it: a SEEK_ name, or a
// number where strace does not know it.
func whenceOf(s string) (int, bool) {
	s = strings.TrimSpace(s)
	for i, n := range []string{"SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA", "SEEK_HOLE"} {
		if s == n {
			return i, true
		}
	}
	if v, ok := strace.Int(s); ok && v >= 0 && v <= 4 {
		return int(v), true
	}
	return 0, false
}

func (c *cleaner) platform(p string) bool {
	if strings.Contains(p, "ashmem") {
		return true
	}
	for _, d := range c.o.Drop {
		if strings.HasPrefix(p, d) || p+"/" == d {
			return true
		}
	}
	return false
}

// scriptPath makes p writable to a script line: whitespace and quotes the
// format cannot carry become '_' (with a warning), and in "mobigen" mode a
// path of a non-read-only open keeps only its first two components,
// unquoted.
func (c *cleaner) scriptPath(name string, ev strace.Event, p string, writable bool) (string, bool) {
	if p == "" {
		return "", false
	}
	if !utf8.ValidString(p) {
		c.res.Stats.Dropped["non-UTF-8 path (kept as bytes)"]++
		if len(c.res.Warnings) < MaxWarnings {
			c.res.Warnings = append(c.res.Warnings, c.warn(name, ev.Line, "%s: path %q is not UTF-8; its bytes are kept", ev.Name, p))
		}
	}
	clean := strings.Map(func(r rune) rune {
		switch r {
		case '\t', '\n', '\r', '\v', '\f', '"', 0:
			return '_'
		}
		return r
	}, p)
	for strings.Contains(clean, "  ") {
		clean = strings.ReplaceAll(clean, "  ", " _")
	}
	if c.o.Paths == "mobigen" && writable {
		parts := strings.Split(strings.Trim(clean, "/"), "/")
		if len(parts) > 2 {
			parts = parts[:2]
		}
		r := strings.ReplaceAll(strings.Join(parts, "/"), " ", "_")
		if strings.HasPrefix(r, "/") || r == "" {
			r = "root"
		}
		return r, false
	}
	if clean != p && len(c.res.Warnings) < MaxWarnings {
		c.res.Warnings = append(c.res.Warnings, c.warn(name, ev.Line, "%s: path %q has characters the script format cannot hold; written as %q", ev.Name, p, clean))
	}
	return clean, true
}

// simplifyFlags keeps the open flags that change what the storage does
// and drops the rest (O_LARGEFILE, O_CLOEXEC, O_NONBLOCK, ...).
func simplifyFlags(s string) string {
	keep := []string{}
	mode := "O_RDONLY"
	if v, ok := strace.Int(s); ok {
		// Old Android strace may print numbers: only the access mode is sure.
		return [...]string{"O_RDONLY", "O_WRONLY", "O_RDWR", "O_RDWR"}[v&3]
	}
	for _, f := range strings.Split(s, "|") {
		switch f = strings.TrimSpace(f); f {
		case "O_RDONLY", "O_WRONLY", "O_RDWR":
			mode = f
		case "O_CREAT", "O_EXCL", "O_TRUNC", "O_APPEND", "O_SYNC", "O_DSYNC", "O_DIRECT":
			keep = append(keep, f)
		}
	}
	return strings.Join(append([]string{mode}, keep...), "|")
}

func hasFlag(s, f string) bool {
	for _, x := range strings.Split(s, "|") {
		if strings.TrimSpace(x) == f {
			return true
		}
	}
	return false
}

func fdArg(args []string, i int) (int64, string, bool) {
	if i >= len(args) {
		return 0, "", false
	}
	fd, p, ok := strace.FD(args[i])
	if !ok || fd < 0 {
		return 0, "", false
	}
	return int64(fd), p, true
}

func pathArg(args []string, i int) (string, bool) {
	if i >= len(args) {
		return "", false
	}
	p, _, ok := strace.Unquote(args[i])
	return p, ok
}

// atPath resolves a path relative to a directory fd when strace -y named
// the directory; otherwise the path stays as the call gave it.
func atPath(dirArg, p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	if cwd, ok := strings.CutPrefix(strings.TrimSpace(dirArg), "AT_FDCWD<"); ok {
		// strace -y names the working directory too.
		if cwd = strings.TrimSuffix(cwd, ">"); strings.HasPrefix(cwd, "/") {
			return path.Join(cwd, p)
		}
		return p
	}
	if _, dir, ok := strace.FD(dirArg); ok && strings.HasPrefix(dir, "/") {
		return path.Join(dir, p)
	}
	return p
}
