package strace

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
)

// TestRealStraceShapes runs the real strace with the option sets used to
// take logs on phones (strace -f -tt -T, to the terminal or to a file,
// -ff into one file per process) and the plugin's own, on a shell that
// forks and waits (so there are unfinished/resumed pairs, a SIGCHLD and
// exit lines), and checks that every line is understood.
func TestRealStraceShapes(t *testing.T) {
	st := testenv.Tool(t, "strace", "strace")
	const script = `echo a > f; (echo b >> f; cat f > /dev/null) & wait; exec 3<f; read -u 3 x; exec 3<&-`
	tests := []struct {
		name string
		args []string // before -o / the command
		out  string   // "stderr", "file" or "ff"
		pids bool     // lines carry pids
	}{
		{"-f -tt -T to the terminal", []string{"-f", "-tt", "-T"}, "stderr", true},
		{"-f -tt -T -o", []string{"-f", "-tt", "-T"}, "file", true},
		{"-ff -tt -T -o", []string{"-ff", "-tt", "-T"}, "ff", false},
		{"-f -ttt -T -y (the plugin)", []string{"-f", "-ttt", "-T", "-y", "-s", "256"}, "file", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(t.TempDir(), "log")
			args := tt.args
			if tt.out != "stderr" {
				args = append(args, "-o", out)
			}
			cmd := exec.CommandContext(t.Context(), st, append(args, "--", "bash", "-c", script)...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				if strings.Contains(stderr.String(), "Operation not permitted") {
					testenv.SkipOrFail(t, "strace cannot trace here: %s", stderr.String())
				}
				t.Fatalf("%v: %v\n%s", cmd.Args, err, stderr.String())
			}
			var logs []string
			switch tt.out {
			case "stderr":
				if err := os.WriteFile(out, stderr.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				logs = []string{out}
			case "file":
				logs = []string{out}
			case "ff":
				logs, _ = filepath.Glob(out + ".*")
			}
			if len(logs) == 0 {
				t.Fatal("no log")
			}
			kinds := map[Kind]int{}
			pids := map[int]bool{}
			for _, path := range logs {
				l, err := ParseFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if len(l.Skipped) > 0 {
					t.Errorf("%s: lines not understood: %v", path, l.Skipped)
				}
				for _, ev := range l.Events {
					kinds[ev.Kind]++
					pids[ev.PID] = true
					if ev.Time < 0 {
						t.Errorf("%s:%d: no time", path, ev.Line)
					}
					if ev.Kind == Call && ev.Dur < 0 && ev.Ret != "?" {
						t.Errorf("%s:%d: %s without its -T duration", path, ev.Line, ev.Name)
					}
				}
				if _, left := Merge(l.Events); len(left) > 0 {
					t.Errorf("%s: halves left unmatched: %+v", path, left)
				}
			}
			if kinds[Call] == 0 || kinds[Exit] == 0 || kinds[Signal] == 0 {
				t.Errorf("kinds seen %v, want calls, exits and the SIGCHLD", kinds)
			}
			if tt.pids && (len(pids) < 2 || pids[0]) {
				var text []string
				for _, path := range logs {
					data, _ := os.ReadFile(path)
					text = append(text, string(data))
				}
				t.Errorf("pids %v, want the shell's and its child's; the log:\n%s", pids, strings.Join(text, "\n"))
			}
			if tt.out == "ff" && len(logs) < 2 {
				t.Errorf("-ff wrote %d files, want one per process", len(logs))
			}
		})
	}
}

// A shell blocked in wait4 for as long as its children run has no line
// with its pid (strace -f to a terminal prefixes pids only while it traces
// more than one process); its lines get the pid its own set_tid_address
// returned. Excerpt of a real run of TestRealStraceShapes that failed
// under load before fillPIDs learned this.
func TestPIDsOfAShellThatOnlyWaited(t *testing.T) {
	const log = `06:37:25.811679 set_tid_address(0x7f325c157a10) = 12865 <0.000008>
06:37:25.820068 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f325c157a10) = 12866 <0.000092>
06:37:25.820964 wait4(-1, /usr/bin/strace: Process 12866 attached
 <unfinished ...>
[pid 12866] 06:37:25.825668 set_robust_list(0x7f325c157a20, 24) = 0 <0.003955>
[pid 12866] 06:37:25.833336 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD/usr/bin/strace: Process 12867 attached
, child_tidptr=0x7f325c157a10) = 12867 <0.000152>
[pid 12867] 06:37:25.840758 exit_group(0) = ?
[pid 12867] 06:37:25.840888 +++ exited with 0 +++
[pid 12866] 06:37:25.841271 exit_group(0) = ?
[pid 12866] 06:37:25.841538 +++ exited with 0 +++
06:37:25.841572 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 12866 <0.020594>
06:37:25.842284 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=12866, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---
06:37:25.843542 exit_group(0)           = ?
06:37:25.843714 +++ exited with 0 +++
`
	l, err := Parse(strings.NewReader(log), "terminal.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Skipped) > 0 {
		t.Errorf("lines not understood: %v", l.Skipped)
	}
	want := map[int]int{1: 12865, 2: 12865, 3: 12865, 5: 12866, 6: 12866, 8: 12867, 9: 12867, 10: 12866, 11: 12866, 12: 12865, 13: 12865, 14: 12865, 15: 12865}
	for _, ev := range l.Events {
		if w, ok := want[ev.Line]; ok && ev.PID != w {
			t.Errorf("line %d (%s %s): pid %d, want %d", ev.Line, ev.Kind, ev.Name, ev.PID, w)
		}
		if ev.PID == 0 {
			t.Errorf("line %d (%s %s) has no pid", ev.Line, ev.Kind, ev.Name)
		}
	}
}
