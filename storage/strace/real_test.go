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
				t.Errorf("pids %v, want the shell's and its child's", pids)
			}
			if tt.out == "ff" && len(logs) < 2 {
				t.Errorf("-ff wrote %d files, want one per process", len(logs))
			}
		})
	}
}
