package mobigen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
)

// fidelityEnv carries the job of the child that replays under strace: the
// plugin re-executes its own binary (droidprof, or a test binary), and
// init below runs the replay before anything else and exits, so the trace
// holds the replay and not the plugin's RPC server.
const fidelityEnv = "DROIDPROF_MOBIGEN_FIDELITY_JOB"

type fidelityJob struct {
	Script string `json:"script"`
	Dir    string `json:"dir"`
	Out    string `json:"out"`
}

func init() {
	js := os.Getenv(fidelityEnv)
	if js == "" {
		return
	}
	if err := runFidelityJob([]byte(js)); err != nil {
		fmt.Fprintln(os.Stderr, "mobigen fidelity replay:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runFidelityJob(js []byte) error {
	var j fidelityJob
	if err := json.Unmarshal(js, &j); err != nil {
		return err
	}
	s, err := replay.ParseFile(j.Script)
	if err != nil {
		return err
	}
	res, err := replay.Replay(context.Background(), s, replay.Options{Dir: j.Dir, Trace: true})
	if err != nil {
		return err
	}
	out, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return os.WriteFile(j.Out, out, 0o644)
}

// FidelityResult compares, per script thread, the calls the replay issued
// (as strace saw them) with the cleaned script's.
type FidelityResult struct {
	Expected int              `json:"expected"` // script lines
	Matched  int              `json:"matched"`  // issued with the same kind, size, offset and flags, in order
	Percent  float64          `json:"percent"`
	Threads  []ThreadFidelity `json:"threads"`
	// Compared says what "the same" means.
	Compared string `json:"compared"`
}

// ThreadFidelity is one script thread's comparison.
type ThreadFidelity struct {
	TID      int    `json:"tid"`
	OSThread int    `json:"os_thread"`
	Expected int    `json:"expected"`
	Observed int    `json:"observed"`
	Matched  int    `json:"matched"`
	First    string `json:"first_mismatch,omitempty"`
}

const compared = "per thread and in order: the call's kind; for read/write the size and the position they start at (followed through opens, reads, writes and lseeks; unknown after an O_APPEND write), for pread/pwrite size and offset, for lseek the position reached; for open whether it is read-only, O_TRUNC, O_APPEND, O_SYNC, O_DSYNC and O_DIRECT (the replay opens every writable file O_RDWR|O_CREAT, as Mobibench does, and drops O_CREAT and O_TRUNC from opens that failed in the trace, so they fail again)"

// checkFidelity replays s in a child process under strace and compares.
func checkFidelity(ctx context.Context, s *replay.Script, dir, logOut string) (*FidelityResult, error) {
	strc, err := exec.LookPath("strace")
	if err != nil {
		return nil, fmt.Errorf("needs strace (Debian package strace): %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	// strace -y prints resolved paths; the sandbox prefix must be one too.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	script := filepath.Join(dir, "script.mg")
	f, err := os.Create(script)
	if err != nil {
		return nil, err
	}
	if _, err := s.WriteTo(f); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	job := fidelityJob{Script: script, Dir: dir, Out: filepath.Join(dir, "result.json")}
	js, _ := json.Marshal(job)
	cmd := exec.CommandContext(ctx, strc, "-f", "-y", "-s", "0", "-ttt", "-qq", "-o", logOut, "-e", traceExpr(), "--", exe)
	cmd.Env = append(os.Environ(), fidelityEnv+"="+string(js))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("replay under strace: %w\n%s", err, tail(out))
	}
	rj, err := os.ReadFile(job.Out)
	if err != nil {
		return nil, err
	}
	var rr replay.Result
	if err := json.Unmarshal(rj, &rr); err != nil {
		return nil, err
	}
	l, err := strace.ParseFile(logOut)
	if err != nil {
		return nil, err
	}
	return compare(s, &rr, l, filepath.Join(dir, replay.SandboxName)+"/")
}

// compare matches the script's threads with the OS threads the replay
// reported, and their script lines with the calls strace saw.
func compare(s *replay.Script, rr *replay.Result, l *strace.Log, sandbox string) (*FidelityResult, error) {
	osOf := map[int]int{}
	for _, is := range rr.Trace {
		osOf[is.TID] = is.OSThread
	}
	observed := map[int][]string{}
	calls, _ := strace.Merge(l.Events)
	strace.ByEffect(calls)
	obsPos := newPositions()
	for _, ev := range calls {
		if ev.Kind != strace.Call {
			continue
		}
		if k, ok := observedKey(ev, sandbox); ok {
			observed[ev.PID] = append(observed[ev.PID], obsPos.key(k, ev))
		}
	}
	// The script's positions follow from its calls in time order, across
	// threads, as the replay issues them.
	order := make([]int, len(s.Entries))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s.Entries[order[a]].Time < s.Entries[order[b]].Time })
	keys := make([]string, len(s.Entries))
	expPos := newPositions()
	for _, i := range order {
		keys[i] = expPos.scriptKey(s.Entries[i])
	}
	expected := map[int][]string{}
	var tids []int
	for i, e := range s.Entries {
		if _, ok := expected[e.TID]; !ok {
			tids = append(tids, e.TID)
		}
		expected[e.TID] = append(expected[e.TID], keys[i])
	}
	sort.Ints(tids)
	fr := &FidelityResult{Compared: compared}
	for _, tid := range tids {
		want := expected[tid]
		got := observed[osOf[tid]]
		if osOf[tid] == 0 {
			got = nil
		}
		m, first := match(want, got)
		fr.Threads = append(fr.Threads, ThreadFidelity{TID: tid, OSThread: osOf[tid], Expected: len(want), Observed: len(got), Matched: m, First: first})
		fr.Expected += len(want)
		fr.Matched += m
	}
	if fr.Expected > 0 {
		fr.Percent = 100 * float64(fr.Matched) / float64(fr.Expected)
	}
	if fr.Expected > 0 && len(osOf) == 0 {
		return fr, errors.New("the replay reported no OS threads")
	}
	return fr, nil
}

// match counts the script lines issued as written, in order: the longest
// common subsequence, so one missing call costs one line and not the rest
// of the thread. Very long threads are compared position by position.
func match(want, got []string) (int, string) {
	first := ""
	for i := range max(len(want), len(got)) {
		w, g := "(none)", "(none)"
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			first = fmt.Sprintf("call %d: script %q, replay %q", i+1, w, g)
			break
		}
	}
	if first == "" {
		return len(want), ""
	}
	if int64(len(want))*int64(len(got)) > 16<<20 {
		n := 0
		for i := range min(len(want), len(got)) {
			if want[i] == got[i] {
				n++
			}
		}
		return n, first
	}
	prev, cur := make([]int, len(got)+1), make([]int, len(got)+1)
	for i := 1; i <= len(want); i++ {
		for j := 1; j <= len(got); j++ {
			switch {
			case want[i-1] == got[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(got)], first
}

// positions follows each fd's position through opens, reads, writes and
// lseeks, so the key of a plain read or write says where it landed: "@?"
// where it is not known (after a write in O_APPEND mode, which goes to the
// file's end).
type positions struct {
	pos    map[int64]int64
	append map[int64]bool
}

func newPositions() *positions {
	return &positions{pos: map[int64]int64{}, append: map[int64]bool{}}
}

const unknownPos = -1

func (p *positions) opened(fd int64, appendMode bool) {
	p.pos[fd], p.append[fd] = 0, appendMode
}

func (p *positions) closed(fd int64) {
	delete(p.pos, fd)
	delete(p.append, fd)
}

// moved renders where a plain read or write of n bytes on fd starts and
// moves the position past it.
func (p *positions) moved(fd, n int64, write bool) string {
	v, ok := p.pos[fd]
	at := " @?"
	if ok && v != unknownPos {
		at = " @" + strconv.FormatInt(v, 10)
	}
	switch {
	case !ok:
	case write && p.append[fd]:
		p.pos[fd] = unknownPos
	case v != unknownPos && n > 0:
		p.pos[fd] = v + n
	}
	return at
}

// scriptKey renders a script line with the position of plain reads and
// writes.
func (p *positions) scriptKey(e replay.Entry) string {
	k := expectedKey(e)
	fd := int64(e.FD)
	switch e.Call {
	case replay.Open:
		if e.Ret >= 0 {
			p.opened(e.Ret, hasFlag(e.Flags, "O_APPEND"))
		}
	case replay.Close:
		p.closed(fd)
	case replay.Lseek:
		p.pos[fd] = e.Ret
	case replay.Write, replay.Read:
		return k + p.moved(fd, e.Ret, e.Call == replay.Write)
	}
	return k
}

// key adds the position to an observed call's key.
func (p *positions) key(k string, ev strace.Event) string {
	args := strace.SplitArgs(ev.Args)
	fd := int64(-1)
	if len(args) > 0 {
		if v, _, ok := strace.FD(args[0]); ok {
			fd = int64(v)
		}
	}
	switch {
	case strings.HasPrefix(k, "open "):
		if ev.RetVal >= 0 {
			p.opened(ev.RetVal, strings.Contains(k, "O_APPEND"))
		}
	case k == "close":
		p.closed(fd)
	case ev.Name == "lseek" && ev.RetVal >= 0:
		p.pos[fd] = ev.RetVal
	case ev.Name == "read" || ev.Name == "write":
		return k + p.moved(fd, ev.RetVal, ev.Name == "write")
	}
	return k
}

// openKey renders the open flags the comparison looks at.
func openKey(readOnly bool, flags func(string) bool) string {
	k := "open w"
	if readOnly {
		k = "open r"
	}
	for _, f := range []string{"O_TRUNC", "O_APPEND", "O_SYNC", "O_DSYNC", "O_DIRECT"} {
		if flags(f) {
			k += "|" + f
		}
	}
	return k
}

func hasFlag(flags, f string) bool {
	for _, x := range strings.Split(flags, "|") {
		if strings.TrimSpace(x) == f {
			return true
		}
	}
	return false
}

// expectedKey renders a script line as the comparison sees it.
func expectedKey(e replay.Entry) string {
	switch e.Call {
	case replay.Open:
		synthetic := !e.Quoted && strings.HasPrefix(e.Path, "/")
		return openKey(strings.HasPrefix(e.Flags, "O_RDONLY"), func(f string) bool {
			if f == "O_TRUNC" && (synthetic || e.Ret < 0) {
				// The replay does not truncate a file opened before the
				// capture, nor one whose open failed in the trace.
				return false
			}
			return hasFlag(e.Flags, f)
		})
	case replay.Write, replay.Read:
		return e.Call.String() + " " + strconv.FormatInt(e.Ret, 10)
	case replay.Pwrite, replay.Pread:
		return fmt.Sprintf("%s %d @%d", e.Call, e.Ret, e.Offset)
	case replay.Lseek:
		return "lseek to " + strconv.FormatInt(e.Ret, 10)
	}
	return e.Call.String()
}

// observedKey renders a system call the replay issued on a sandbox file;
// ok is false for calls elsewhere.
func observedKey(ev strace.Event, sandbox string) (string, bool) {
	args := strace.SplitArgs(ev.Args)
	if len(args) == 0 {
		return "", false
	}
	inBox := func(i int) bool {
		if i >= len(args) {
			return false
		}
		if p, _, ok := strace.Unquote(args[i]); ok {
			return strings.HasPrefix(p, sandbox)
		}
		_, p, ok := strace.FD(args[i])
		return ok && strings.HasPrefix(p, sandbox)
	}
	num := func(i int) string {
		if i < len(args) {
			return strings.TrimSpace(args[i])
		}
		return "?"
	}
	switch ev.Name {
	case "openat", "open":
		i := 0
		if ev.Name == "openat" {
			i = 1
		}
		if !inBox(i) || len(args) <= i+1 {
			return "", false
		}
		fl := args[i+1]
		return openKey(hasFlag(fl, "O_RDONLY"), func(f string) bool { return hasFlag(fl, f) }), true
	case "write", "read":
		return ev.Name + " " + num(2), inBox(0)
	case "pwrite64", "pread64":
		return fmt.Sprintf("%s %s @%s", strings.TrimSuffix(ev.Name, "64"), num(2), num(3)), inBox(0)
	case "close", "fsync", "fdatasync":
		return ev.Name, inBox(0)
	case "lseek":
		return "lseek to " + ev.Ret, inBox(0)
	case "fstat":
		return "fstat64", inBox(0)
	case "newfstatat":
		if hasFlag(num(3), "AT_SYMLINK_NOFOLLOW") {
			return "lstat64", inBox(1)
		}
		return "stat64", inBox(1)
	case "faccessat", "faccessat2":
		return "access", inBox(1)
	case "access":
		return "access", inBox(0)
	case "unlinkat":
		return "unlink", inBox(1)
	}
	return "", false
}

// fidelityText renders the comparison for the step's log.
func (f *FidelityResult) text() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "fidelity: %d of %d script calls replayed as written (%.2f %%)\n", f.Matched, f.Expected, f.Percent)
	for _, t := range f.Threads {
		if t.Matched != t.Expected || t.Observed != t.Expected {
			fmt.Fprintf(&b, "  thread %d (OS thread %d): %d of %d, %d issued; first difference at %s\n", t.TID, t.OSThread, t.Matched, t.Expected, t.Observed, t.First)
		}
	}
	return b.String()
}
