package cleaner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
)

// forkPrograms are real programs whose files end up right only if the
// cleaner follows fds across processes: bash writes through fd 1 after
// dup2 onto it, its subshell (fork, no CLONE_FILES) replaces its copy of fd
// 3 without touching the parent's; Python opens a file in a thread
// (CLONE_FILES) that the main thread writes, dups it, and a forked child
// writes through its copy, sharing the open file's position.
var forkPrograms = []struct {
	name  string
	tool  string
	args  []string
	sizes map[string]int64
}{
	{"bash-subshell-dup2", "bash", []string{"-c", `exec 3>a; echo parent1 >&3; ( exec 3>b; echo child >&3 ); echo parent2 >&3; exec 4>&3; exec 3>&-; echo parent3 >&4; exec 4>&-`},
		map[string]int64{"a": 24, "b": 6}},
	{"python-thread-dup-fork", "python3", []string{"-c", `
import os, threading
fds = {}
def opener():
    fds["c"] = os.open("c", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
t = threading.Thread(target=opener); t.start(); t.join()
os.write(fds["c"], b"x" * 5)
d = os.dup(fds["c"])
os.close(fds["c"])
pid = os.fork()
if pid == 0:
    os.write(d, b"y" * 3)
    e = os.open("e", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.write(e, b"e" * 7)
    os._exit(0)
os.waitpid(pid, 0)
os.write(d, b"z" * 2)
os.close(d)
`}, map[string]int64{"c": 10, "e": 7}},
}

// TestForkUnderStrace captures real forking programs with real strace,
// cleans the logs, replays them, and checks every file's size against what
// the program left.
func TestForkUnderStrace(t *testing.T) {
	st := testenv.Tool(t, "strace", "strace")
	for _, p := range forkPrograms {
		t.Run(p.name, func(t *testing.T) {
			prog := testenv.Tool(t, p.tool, p.tool)
			work := t.TempDir()
			logPath := filepath.Join(t.TempDir(), "log")
			cmd := exec.CommandContext(t.Context(), st, append([]string{"-f", "-ttt", "-T", "-y", "-s", "256", "-qq", "-o", logPath,
				"-e", "trace=openat,close,write,read,lseek,dup,dup2,dup3,fcntl,clone,clone3,fork,vfork", "--", prog}, p.args...)...)
			cmd.Dir = work
			if out, err := cmd.CombinedOutput(); err != nil {
				if strings.Contains(string(out), "Operation not permitted") {
					testenv.SkipOrFail(t, "strace cannot trace here: %s", out)
				}
				t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
			}
			for f, size := range p.sizes {
				if fi, err := os.Stat(filepath.Join(work, f)); err != nil || fi.Size() != size {
					t.Fatalf("the program itself left %s as %v (%v), want %d bytes", f, fi, err, size)
				}
			}
			l, err := strace.ParseFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			res := Clean(l, Options{})
			dir := t.TempDir()
			rr, err := replay.Replay(context.Background(), res.Script, replay.Options{Dir: dir, Keep: true})
			if err != nil {
				t.Fatal(err)
			}
			if rr.Errors != 0 {
				t.Errorf("%d replayed calls failed: %+v", rr.Errors, rr.Calls)
			}
			for f, size := range p.sizes {
				mirror := filepath.Join(dir, replay.SandboxName, "root", work, f)
				fi, err := os.Stat(mirror)
				if err != nil {
					t.Errorf("%s: %v", f, err)
					continue
				}
				if fi.Size() != size {
					t.Errorf("replayed %s has %d bytes, the program wrote %d", f, fi.Size(), size)
				}
			}
			if t.Failed() {
				var b strings.Builder
				res.Script.WriteTo(&b)
				t.Logf("script:\n%s\ndropped %v", b.String(), res.Stats.Dropped)
			}
		})
	}
}

// TestFDTables checks the fd-table rules on small logs in strace -f's
// shapes: what each process's fd refers to decides the script fd.
func TestFDTables(t *testing.T) {
	tests := []struct {
		name, log, want string
	}{
		{"fork copies, same number is another file",
			`10 1.000000 openat(AT_FDCWD, "/d/a", O_WRONLY|O_CREAT, 0644) = 3
10 1.000100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 11
11 1.000200 write(3, "x", 1) = 1
11 1.000300 close(3) = 0
11 1.000400 openat(AT_FDCWD, "/d/b", O_WRONLY|O_CREAT, 0644) = 3
11 1.000500 write(3, "yy", 2) = 2
10 1.000600 write(3, "zzz", 3) = 3
10 1.000700 close(3) = 0
`, `0 0 open "/d/a" O_WRONLY|O_CREAT 3
0 600 write 3 3
0 700 close 3 0
1 200 write 3 1
1 400 open "/d/b" O_WRONLY|O_CREAT 1048576
1 500 write 1048576 2
`},
		{"CLONE_FILES shares: a thread's close closes the file",
			`10 1.000000 openat(AT_FDCWD, "/d/a", O_RDONLY) = 3
10 1.000100 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, exit_signal=0}, 88) = 11
11 1.000200 read(3, "", 10) = 0
11 1.000300 close(3) = 0
10 1.000400 read(3, 0x7f, 10) = -1 EBADF (Bad file descriptor)
`, `0 0 open "/d/a" O_RDONLY 3
1 200 read 3 0
1 300 close 3 0
`},
		{"dup aliases, close only at the last fd",
			`10 1.000000 openat(AT_FDCWD, "/d/a", O_RDWR) = 3
10 1.000100 dup(3) = 4
10 1.000200 close(3) = 0
10 1.000300 write(4, "ab", 2) = 2
10 1.000400 fcntl(4, F_DUPFD_CLOEXEC, 10) = 10
10 1.000500 dup2(10, 1) = 1
10 1.000600 close(4) = 0
10 1.000700 write(1, "c", 1) = 1
10 1.000800 dup3(10, 1, O_CLOEXEC) = 1
10 1.000900 close(10) = 0
10 1.001000 close(1) = 0
`, `0 0 open "/d/a" O_RDWR 3
0 300 write 3 2
0 700 write 3 1
0 1000 close 3 0
`},
		{"lseek and _llseek",
			`10 1.000000 openat(AT_FDCWD, "/d/a", O_RDWR) = 3
10 1.000100 lseek(3, 0, SEEK_END) = 8192
10 1.000200 _llseek(3, 4096, [4096], SEEK_SET) = 0
10 1.000300 _llseek(3, 1, 0, [4294967296], SEEK_SET) = 0
10 1.000400 lseek(3, -10, SEEK_CUR) = -1 EINVAL (Invalid argument)
10 1.000500 lseek(3, 0, 7) = 0
`, `0 0 open "/d/a" O_RDWR 3
0 100 lseek 3 0 SEEK_END 8192
0 200 lseek 3 4096 SEEK_SET 4096
0 300 lseek 3 4294967296 SEEK_SET 4294967296
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := clean(t, tt.log, Options{})
			if got := render(t, res.Script); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s\ndropped %v, warnings %v", got, tt.want, res.Stats.Dropped, res.Warnings)
			}
		})
	}
}
