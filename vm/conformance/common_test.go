package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
)

// errNotImplemented is the text of the error vm.Run returns until the
// interpreter lands; tests skip on it so they start checking by themselves
// once it is gone.
const errNotImplemented = "vm: not implemented yet"

// updateEnv names the environment variable that makes the harnesses rewrite
// their committed expectations (pass lists, floors, CONFORMANCE.md numbers)
// from the current results instead of only logging the differences.
const updateEnv = "DROIDPROF_UPDATE_CONFORMANCE"

// conformanceDoc is the document whose numbers the update mode rewrites,
// relative to this package's directory.
const conformanceDoc = "../CONFORMANCE.md"

func updating() bool { return os.Getenv(updateEnv) == "1" }

// vmResult is the outcome of one vm.Run.
type vmResult struct {
	Output string // stdout and stderr, interleaved
	Exit   int
	Err    error // a failure of the VM itself: an error, a crash, a timeout
}

// errTimeout reports a program that did not finish within its time limit.
var errTimeout = errors.New("timed out")

// Environment of the child process that runs one program; see TestMain.
const (
	childEnv       = "DROIDPROF_CONFORMANCE_CHILD" // JSON childSpec
	childStatusEnv = "DROIDPROF_CONFORMANCE_STATUS"
)

// childSpec is what the child runs.
type childSpec struct {
	ClassPath []string
	Main      string
	Args      []string
	GC        gc.Config // the heap and collector to run under
	Engine    string    // vm.Options.Engine
	Status    string    // file the child writes its childStatus to
}

// childStatus is how vm.Run returned in the child. A child that exits
// without writing it crashed (a Go fatal error such as a stack overflow,
// which no recover can catch, or a kill).
type childStatus struct {
	Exit int
	Err  string
}

// TestMain lets the test binary double as a one-shot "dalvikvm": with
// childEnv set it runs one program through vm.Run and exits. Programs run
// in such child processes so that a VM bug that kills the process (a Go
// stack overflow, a runaway allocation, a loop that ignores ctx) costs one
// test, not the whole suite, and a time limit can always be enforced.
func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(childMain(spec))
	}
	os.Exit(m.Run())
}

// childMain runs the program described by spec with stdout and stderr
// as System.out and System.err, and records how vm.Run returned.
func childMain(spec string) int {
	var c childSpec
	if err := json.Unmarshal([]byte(spec), &c); err != nil {
		fmt.Fprintf(os.Stderr, "conformance child: bad %s: %v\n", childEnv, err)
		return 3
	}
	exit, err := vm.Run(context.Background(), vm.Options{ClassPath: c.ClassPath, GC: c.GC, Engine: c.Engine, Stdout: os.Stdout, Stderr: os.Stderr}, c.Main, c.Args)
	st := childStatus{Exit: exit}
	if err != nil {
		st.Err = err.Error()
	}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(c.Status, data, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "conformance child: %v\n", err)
		return 3
	}
	return 0
}

// runVM runs mainClass from classPath on our VM under the variant v (heap
// configuration and engine), in a child process (see TestMain) killed after limit. Output is stdout and stderr through one
// pipe, so they interleave as run-test's "2>&1" records them.
func runVM(ctx context.Context, v gcVariant, classPath []string, mainClass string, args []string, limit time.Duration) vmResult {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	dir, err := os.MkdirTemp("", "conformance-run-")
	if err != nil {
		return vmResult{Err: err}
	}
	defer os.RemoveAll(dir)
	status := filepath.Join(dir, "status.json")
	spec, err := json.Marshal(childSpec{ClassPath: classPath, Main: mainClass, Args: args, GC: v.GC, Engine: v.Engine, Status: status})
	if err != nil {
		return vmResult{Err: err}
	}
	exe, err := os.Executable()
	if err != nil {
		return vmResult{Err: fmt.Errorf("run VM child: %w", err)}
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), childEnv+"="+string(spec))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out // same writer: exec gives the child one pipe
	cmd.WaitDelay = time.Second
	runErr := cmd.Run()
	r := vmResult{Output: out.String()}
	data, err := os.ReadFile(status)
	switch {
	case ctx.Err() != nil:
		r.Err = fmt.Errorf("%w after %v", errTimeout, limit)
	case err != nil:
		r.Err = fmt.Errorf("VM process crashed (%v): %s", runErr, lastLines(crashReport(r.Output), 3))
	default:
		var st childStatus
		if err := json.Unmarshal(data, &st); err != nil {
			r.Err = fmt.Errorf("VM child status: %w", err)
			break
		}
		r.Exit = st.Exit
		if st.Err != "" {
			r.Err = errors.New(st.Err)
		}
	}
	return r
}

// crashReport trims a Go crash dump in the output to its headline: the
// text up to the first goroutine trace.
func crashReport(out string) string {
	if i := strings.Index(out, "\ngoroutine "); i >= 0 {
		out = out[:i]
	}
	return strings.TrimSpace(out)
}

// notImplemented reports whether err says the VM is not there yet.
func notImplemented(err error) bool { return err != nil && err.Error() == errNotImplemented }

// firstDifference compares program output with the expected text the way
// ART's run-test does (diff --strip-trailing-cr) and describes the first
// differing line, or returns "" when they match.
func firstDifference(want, got string) string {
	norm := func(s string) []string {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
		return lines
	}
	w, g := norm(want), norm(got)
	for i := 0; i < len(w) || i < len(g); i++ {
		switch {
		case i >= len(w):
			return fmt.Sprintf("line %d: unexpected extra output %q", i+1, g[i])
		case i >= len(g):
			return fmt.Sprintf("line %d: output ends, want %q", i+1, w[i])
		case w[i] != g[i]:
			return fmt.Sprintf("line %d: got %q, want %q", i+1, g[i], w[i])
		}
	}
	return ""
}

// readList reads a committed list of names, one per line; blank lines and
// lines starting with # are ignored. A missing file is an empty list.
func readList(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read list: %w", err)
	}
	set := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			set[line] = true
		}
	}
	return set, nil
}

// writeList writes names sorted, one per line, under a header comment.
func writeList(path, header string, names []string) error {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	var b strings.Builder
	for _, line := range strings.Split(header, "\n") {
		b.WriteString("# " + line + "\n")
	}
	for _, n := range sorted {
		b.WriteString(n + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write list: %w", err)
	}
	return nil
}

// setDocNumbers replaces, in CONFORMANCE.md, the text between the markers
// <!-- name --> and <!-- /name --> for every name in values, so the
// document's numbers are rewritten from measured results rather than by
// hand.
func setDocNumbers(values map[string]string) error {
	data, err := os.ReadFile(conformanceDoc)
	if err != nil {
		return fmt.Errorf("update %s: %w", conformanceDoc, err)
	}
	text := string(data)
	for name, v := range values {
		re := regexp.MustCompile(`(<!-- ` + regexp.QuoteMeta(name) + ` -->)[^<]*(<!-- /` + regexp.QuoteMeta(name) + ` -->)`)
		if !re.MatchString(text) {
			return fmt.Errorf("update %s: no <!-- %s --> marker", conformanceDoc, name)
		}
		text = re.ReplaceAllLiteralString(text, "<!-- "+name+" -->"+v+"<!-- /"+name+" -->")
	}
	if err := os.WriteFile(conformanceDoc, []byte(text), 0o644); err != nil {
		return fmt.Errorf("update %s: %w", conformanceDoc, err)
	}
	return nil
}

// setDocBlock replaces, in CONFORMANCE.md, everything between the lines
// <!-- name --> and <!-- /name --> with text (which may span lines and
// contain markup, unlike setDocNumbers' values).
func setDocBlock(name, text string) error {
	data, err := os.ReadFile(conformanceDoc)
	if err != nil {
		return fmt.Errorf("update %s: %w", conformanceDoc, err)
	}
	open, closing := "<!-- "+name+" -->", "<!-- /"+name+" -->"
	i := strings.Index(string(data), open)
	j := strings.Index(string(data), closing)
	if i < 0 || j < i {
		return fmt.Errorf("update %s: no <!-- %s --> block", conformanceDoc, name)
	}
	out := string(data[:i+len(open)]) + text + string(data[j:])
	if err := os.WriteFile(conformanceDoc, []byte(out), 0o644); err != nil {
		return fmt.Errorf("update %s: %w", conformanceDoc, err)
	}
	return nil
}
