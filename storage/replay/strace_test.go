package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/straced"
)

const helperEnv = "REPLAY_TEST_HELPER"

type helperJob struct{ Script, Dir string }

// TestMain doubles as the helper process the strace tests trace
// (internal/straced).
func TestMain(m *testing.M) {
	straced.Serve(helperEnv, func(js []byte) error {
		var j helperJob
		if err := json.Unmarshal(js, &j); err != nil {
			return err
		}
		s, err := ParseFile(j.Script)
		if err == nil {
			_, err = Replay(context.Background(), s, Options{Dir: j.Dir})
		}
		return err
	})
	os.Exit(m.Run())
}

// oracle is a script whose fds stay within their thread, so the calls each
// thread issues follow from its own lines.
const oracle = `0 0 open data/data O_RDWR|O_CREAT|O_TRUNC|O_LARGEFILE 10
0 100 write 10 4096
0 200 write 10 100
0 300 pwrite 10 8192 512
0 350 lseek 10 -4196 SEEK_CUR 0
0 400 read 10 50
0 450 lseek 10 0 SEEK_END 9000
0 460 lseek 10 -1 SEEK_SET -1
0 500 fsync 10 0
0 600 fstat64 10 0
0 700 close 10 0
0 800 read 10 4
0 900 access "/data/data/app/prefs.xml" 0
0 1000 unlink "/data/data/app/cache/x" 0
1 300 open "/system/fonts/x.ttf" O_RDONLY|O_LARGEFILE 11
1 400 read 11 2000
1 500 pread 11 5000 1000
1 600 read 11 -1
1 700 close 11 0
1 800 stat64 "/system/fonts/x.ttf" 0
1 900 lstat64 "/data/missing" -1
2 200 open /data/data O_WRONLY|O_CREAT|O_TRUNC|O_LARGEFILE 12
2 300 read 12 300
2 400 pwrite 12 4096 4096
2 500 pread 12 0 100
2 600 fdatasync 12 0
2 700 close 12 0
2 800 read 77 10
`

// expected renders, per thread, the system calls the replay must issue for
// the script: a data call the trace saw fail has no size and is skipped, as
// is any call on an fd the thread has not opened; every data call moves the
// traced byte count (the reads find pre-created or written data).
func expected(s *Script) map[int][]string {
	p, err := newPlan(s, "/sb")
	if err != nil {
		panic(err)
	}
	rel := func(path string) string { return strings.TrimPrefix(path, "/sb/") }
	out := map[int][]string{}
	open := map[[2]int]string{} // (tid, fd) → file
	for i, e := range s.Entries {
		file, ok := open[[2]int{e.TID, e.FD}]
		var call string
		switch {
		case e.Call == Open:
			f := rel(p.opens[i].path)
			open[[2]int{e.TID, int(e.Ret)}] = f
			call = "open " + f
		case e.Call.hasPath():
			call = e.Call.String() + " " + rel(p.paths[i])
		case !ok || (e.Call.isData() || e.Call == Lseek) && e.Ret < 0:
			continue
		case e.Call == Lseek:
			call = fmt.Sprintf("lseek %s %d SEEK_SET = %d", file, e.Ret, e.Ret)
		case e.Call == Pwrite || e.Call == Pread:
			call = fmt.Sprintf("%s %s %d %d = %d", e.Call, file, e.Ret, e.Offset, e.Ret)
		case e.Call.isData():
			call = fmt.Sprintf("%s %s %d = %d", e.Call, file, e.Ret, e.Ret)
		default:
			call = e.Call.String() + " " + file
			if e.Call == Close {
				delete(open, [2]int{e.TID, e.FD})
			}
		}
		out[e.TID] = append(out[e.TID], call)
	}
	return out
}

var (
	straceCall = regexp.MustCompile(`^([a-z0-9_]+)\((.*)\)\s+= (-?\d+)`)
	fdArg      = regexp.MustCompile(`^\d+<([^>]*)>`)
	pathArg    = regexp.MustCompile(`"([^"]*)"`)
	trailNums  = regexp.MustCompile(`, (\d+), (\d+)$`)
	trailNum   = regexp.MustCompile(`, (\d+)$`)
	trailSeek  = regexp.MustCompile(`, (-?\d+), (SEEK_[A-Z]+)$`)
)

// straceKind maps a Linux system call to the script call it replays.
func straceKind(name, args string) string {
	switch name {
	case "openat", "open":
		return "open"
	case "faccessat", "faccessat2", "access":
		return "access"
	case "newfstatat", "stat", "lstat", "fstatat64":
		if strings.HasSuffix(args, "AT_SYMLINK_NOFOLLOW") || name == "lstat" {
			return "lstat64"
		}
		return "stat64"
	case "fstat":
		return "fstat64"
	case "unlinkat", "unlink":
		return "unlink"
	case "pwrite64":
		return "pwrite"
	case "pread64":
		return "pread"
	}
	return name
}

// straceCalls reads one thread's strace -ff output and renders its calls on
// files in the sandbox as expected renders script lines.
func straceCalls(t *testing.T, path, sandbox string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for line := range strings.Lines(string(data)) {
		m := straceCall.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		kind, args := straceKind(m[1], m[2]), m[2]
		var file string
		if f := fdArg.FindStringSubmatch(args); f != nil && !strings.HasPrefix(args, "AT_FDCWD") {
			file = f[1]
		} else if f := pathArg.FindStringSubmatch(args); f != nil {
			file = f[1]
		}
		if !strings.HasPrefix(file, sandbox+"/") {
			continue
		}
		call := kind + " " + strings.TrimPrefix(file, sandbox+"/")
		switch kind {
		case "pwrite", "pread":
			if n := trailNums.FindStringSubmatch(args); n != nil {
				call += " " + n[1] + " " + n[2] + " = " + m[3]
			}
		case "lseek":
			if n := trailSeek.FindStringSubmatch(args); n != nil {
				call += " " + n[1] + " " + n[2] + " = " + m[3]
			}
		case "write", "read":
			if n := trailNum.FindStringSubmatch(args); n != nil {
				call += " " + n[1] + " = " + m[3]
			}
		}
		calls = append(calls, call)
	}
	return calls
}

// TestSyscallsUnderStrace uses strace as an outside oracle: replaying the
// script in a child process must issue, on one OS thread per script thread,
// exactly the script's calls in order, with its sizes, offsets and files.
func TestSyscallsUnderStrace(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(t.TempDir(), "oracle.mg")
	if err := os.WriteFile(script, []byte(oracle), 0o644); err != nil {
		t.Fatal(err)
	}
	out := straced.Run(t, helperEnv, helperJob{Script: script, Dir: dir}, "-ff", "-y", "-s", "0",
		"-e", "trace=openat,open,write,pwrite64,read,pread64,lseek,fsync,fdatasync,unlink,unlinkat,close,fstat,newfstatat,faccessat,faccessat2,access")
	files, err := filepath.Glob(out + ".*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no strace output (%v)", err)
	}
	sandbox := filepath.Join(dir, SandboxName)
	var got [][]string
	for _, f := range files {
		if _, err := strconv.Atoi(strings.TrimPrefix(filepath.Ext(f), ".")); err != nil {
			continue
		}
		if c := straceCalls(t, f, sandbox); len(c) > 0 {
			got = append(got, c)
		}
	}
	s, err := ParseFile(script)
	if err != nil {
		t.Fatal(err)
	}
	for tid, want := range expected(s) {
		i := slices.IndexFunc(got, func(c []string) bool { return slices.Equal(c, want) })
		if i < 0 {
			t.Errorf("thread %d: no OS thread issued\n\t%s\namong\n\t%s", tid, strings.Join(want, "\n\t"), render(got))
			continue
		}
		got = slices.Delete(got, i, i+1)
	}
	// What is left is the set-up (pre-created files) and the clean-up, on
	// threads of their own: no script call may hide there.
	for _, c := range got {
		for _, call := range c {
			if k := strings.Fields(call)[0]; k != "open" && k != "write" && k != "close" && k != "unlink" && k != "stat64" && k != "lstat64" {
				t.Errorf("a non-script thread issued %q", call)
			}
		}
	}
}

func render(got [][]string) string {
	var b strings.Builder
	for _, c := range got {
		b.WriteString(strings.Join(c, "\n\t") + "\n\t--\n\t")
	}
	return b.String()
}
