// Package straced lets a package's tests use strace as an outside oracle
// for what their own code does: the test binary re-executes itself under
// strace, and in that child TestMain runs one job and exits, so the trace
// holds the code under test and not the test framework.
//
// In TestMain:
//
//	straced.Serve("MYPKG_STRACE_JOB", func(job []byte) error { ... run it ... })
//
// In a test:
//
//	out := straced.Run(t, "MYPKG_STRACE_JOB", job, "-f", "-y", "-e", "trace=fsync")
package straced

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
)

// Serve runs the job and exits when the environment variable env holds
// one (the JSON Run encoded); otherwise it returns and TestMain goes on.
func Serve(env string, run func(job []byte) error) {
	js := os.Getenv(env)
	if js == "" {
		return
	}
	if err := run([]byte(js)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// notPermitted is how strace says the kernel or a sandbox forbids ptrace.
var notPermitted = regexp.MustCompile(`PTRACE|ptrace|Operation not permitted`)

// Run runs job (encoded as JSON into env) in a child copy of the test
// binary under `strace -qq -o OUT straceArgs...` and returns OUT: the
// output file, or with -ff the prefix of one file per thread (OUT.PID).
func Run(t testing.TB, env string, job any, straceArgs ...string) string {
	t.Helper()
	strace := testenv.Tool(t, "strace", "strace")
	js, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "strace.out")
	args := append([]string{"-qq", "-o", out}, straceArgs...)
	cmd := exec.Command(strace, append(args, os.Args[0], "-test.run=^$")...)
	cmd.Env = append(os.Environ(), env+"="+string(js))
	if msg, err := cmd.CombinedOutput(); err != nil {
		if notPermitted.Match(msg) {
			testenv.SkipOrFail(t, "strace cannot trace here: %s", msg)
		}
		t.Fatalf("test helper under strace: %v\n%s", err, msg)
	}
	return out
}
