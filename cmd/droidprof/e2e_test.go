package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/config"
	"github.com/droidprof/droidprof/framework/results"
	"github.com/droidprof/droidprof/internal/procwait"
)

// droidprofBin is the CLI under test and testplugBin the framework's test
// plugin (framework/internal/testplugin) as a third-party binary, both built
// once by TestMain.
var droidprofBin, testplugBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "droidprof-e2e-")
	if err != nil {
		panic(err)
	}
	droidprofBin = filepath.Join(dir, "droidprof")
	testplugBin = filepath.Join(dir, "testplug")
	for _, b := range [][2]string{{droidprofBin, "."}, {testplugBin, "../../framework/internal/testplugin/testplug"}} {
		if out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			panic("go build: " + err.Error() + "\n" + string(out))
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type cli struct {
	t   *testing.T
	dir string   // working directory
	env []string // extra environment
}

func newCLI(t *testing.T) *cli {
	return &cli{t: t, dir: t.TempDir(), env: []string{"DROIDPROF_HOME=" + filepath.Join(t.TempDir(), "home")}}
}

func (c *cli) command(args ...string) *exec.Cmd {
	cmd := exec.Command(droidprofBin, args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), c.env...)
	return cmd
}

// run returns stdout, stderr and the exit code.
func (c *cli) run(args ...string) (string, string, int) {
	c.t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := c.command(args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return stdout.String(), stderr.String(), ee.ExitCode()
	case err != nil:
		c.t.Fatal(err)
	}
	return stdout.String(), stderr.String(), 0
}

func (c *cli) ok(args ...string) string {
	c.t.Helper()
	out, errOut, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("droidprof %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// runID extracts the run ID from `droidprof run` output ("run ID DIR").
func runID(t *testing.T, out string) (id, dir string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "run" {
			return f[1], f[2]
		}
	}
	t.Fatalf("no run line in output:\n%s", out)
	return "", ""
}

func (c *cli) write(name, content string) string {
	c.t.Helper()
	path := filepath.Join(c.dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		c.t.Fatal(err)
	}
	return path
}

func TestQuickstartShowRunsCompare(t *testing.T) {
	c := newCLI(t)
	cfg, err := filepath.Abs("../../configs/quickstart.hcl")
	if err != nil {
		t.Fatal(err)
	}
	idA, dirA := runID(t, c.ok("run", cfg))
	idB, _ := runID(t, c.ok("run", cfg))

	var res results.Results
	if err := json.Unmarshal([]byte(c.ok("show", "--json", idA[:len(idA)-2])), &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != results.StatusComplete || len(res.Metrics) == 0 {
		t.Fatalf("show --json: status %s, %d metrics", res.Status, len(res.Metrics))
	}
	exp, err := config.Load(cfg, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range res.Metrics {
		names[m.Name] = true
		// One sample per repetition, or per repetition and matrix cell
		// where an analyzer pools cells that ran the same thing (dpa
		// profiles one program whatever the storage axes say).
		if len(m.Samples) == 0 || len(m.Samples)%exp.Repeat != 0 || m.Unit == "" {
			t.Errorf("metric %s %v: %d raw samples, want a multiple of %d (one per repetition) and a unit", m.Name, m.Labels, len(m.Samples), exp.Repeat)
		}
	}
	for _, want := range []string{"throughput", "iops", "process_time", "method_excl"} {
		if !names[want] {
			t.Errorf("no %s metric in %v", want, names)
		}
	}
	// Each analyzer reads only its own plugin's steps: mobibench's made
	// zero rows labelled collector=dpa from dpa's steps.
	for _, m := range res.Metrics {
		if m.Analyzer == "mobibench.mobibench" && m.Labels["collector"] != "mobibench" {
			t.Errorf("mobibench analyzer made a metric of another plugin's step: %s %v %v", m.Name, m.Labels, m.Samples)
		}
	}
	if !strings.HasPrefix(res.Fingerprint.GoVersion, "go") || res.Fingerprint.FSType == "" || res.Fingerprint.Plugins["mobibench"].SHA256 == "" {
		t.Errorf("fingerprint incomplete: %+v", res.Fingerprint)
	}

	var list []map[string]any
	if err := json.Unmarshal([]byte(c.ok("runs", "--json")), &list); err != nil || len(list) != 2 {
		t.Fatalf("runs --json: %v, %d runs", err, len(list))
	}
	// runs --json spells its keys as show --json (results.json) does.
	if list[0]["run_id"] != idB || list[1]["run_id"] != idA || list[0]["status"] != results.StatusComplete || list[0]["config_file"] != cfg {
		t.Errorf("runs --json keys: %v", list[0])
	}
	text := c.ok("compare", idA, idB)
	if !strings.Contains(text, "throughput") || !strings.Contains(text, "geomean") {
		t.Errorf("compare output lacks rows or geomean:\n%s", text)
	}
	for _, f := range []string{"md", "html", "json"} {
		c.ok("compare", idA, dirA, "--format", f)
	}
	os.Remove(filepath.Join(dirA, "report.html"))
	c.ok("report", dirA)
	if _, err := os.Stat(filepath.Join(dirA, "report.html")); err != nil {
		t.Errorf("report did not regenerate report.html: %v", err)
	}
}

// TestCompareSignificance: two hand-made runs, n = 6 each, 20 % apart.
func TestCompareSignificance(t *testing.T) {
	c := newCLI(t)
	mk := func(name string, scale float64) string {
		dir := filepath.Join(c.dir, name)
		os.MkdirAll(dir, 0o755)
		r := &results.Results{RunID: name, Experiment: "x", Status: results.StatusComplete}
		base := []float64{100, 101, 99, 100.5, 99.5, 100.2}
		var s []float64
		for _, v := range base {
			s = append(s, v*scale)
		}
		r.Metrics = []results.Metric{{Name: "elapsed", Unit: "s", Better: results.BetterLower, Samples: s}}
		if err := r.Write(filepath.Join(dir, results.FileName)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, b := mk("a", 1), mk("b", 1.2)
	var cmp struct {
		Groups []struct {
			Rows []struct {
				DeltaText string `json:"delta_text"`
				Test      struct {
					P float64 `json:"p"`
				} `json:"test"`
			} `json:"rows"`
		} `json:"groups"`
	}
	out := c.ok("compare", a, b, "--format", "json")
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	text := c.ok("compare", a, b)
	if !strings.Contains(text, "+20.00%") || !strings.Contains(text, "p=0.002") {
		t.Errorf("a 20%% change with n=6 must be significant:\n%s\n%s", text, out)
	}
}

func TestThirdPartyPlugin(t *testing.T) {
	c := newCLI(t)
	bin := filepath.Join(c.dir, "plugins.d", "droidprof-plugin-hashrate")
	src, _ := filepath.Abs("../../examples/plugin-hashrate")
	if out, err := exec.Command("go", "build", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if out := c.ok("plugins"); !strings.Contains(out, "hashrate 0.1.0 ("+bin+")") {
		t.Errorf("plugins does not list the third-party plugin:\n%s", out)
	}
	cfg := c.write("hash.hcl", `
experiment "hashing" {
  repeat = 2
  matrix {
    alg = ["sha256", "md5"]
  }
  collect "hashrate" {
    algorithm = matrix.alg
    size      = "4MiB"
  }
  analyze "hashrate" {}
}`)
	_, dir := runID(t, c.ok("run", cfg))
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(bin)
	sum := sha256.Sum256(data)
	if got := res.Fingerprint.Plugins["hashrate"]; got.SHA256 != hex.EncodeToString(sum[:]) || got.BuiltIn {
		t.Errorf("recorded plugin = %+v, want sha256 %x", got, sum)
	}
	if len(res.Metrics) != 2 || len(res.Figures) != 1 {
		t.Errorf("metrics %d, figures %d; want 2 and 1", len(res.Metrics), len(res.Figures))
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !bytes.Contains(html, []byte("<svg")) {
		t.Error("report.html does not embed the analyzer's figure")
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"misspelled key", `collect "mobibench" {
    acess = 1
  }`, []string{"x.hcl:3:", "acess", `Did you mean "access"?`}},
		{"wrong type", `repeat = "five"`, []string{"x.hcl:2:", "repeat", "number"}},
		{"unknown plugin", `collect "mobibnech" {}`, []string{"x.hcl:2:", "mobibnech", `"mobibench"`, "droidprof-plugin-<name>", "./plugins.d (relative to the current directory: "}},
		{"missing required", `collect "testplug" "needs" {}`, []string{"x.hcl:2:", "Missing required argument", `"name"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			c.linkTestPlugin()
			cfg := c.write("x.hcl", "experiment \"e\" {\n  "+tt.body+"\n}\n")
			_, errOut, code := c.run("validate", cfg)
			if code == 0 {
				t.Fatal("validate accepted a bad config")
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("error output lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
}

// linkTestPlugin installs the test plugin as the third-party plugin "testplug".
func (c *cli) linkTestPlugin() {
	c.t.Helper()
	dir := filepath.Join(c.dir, "plugins.d")
	os.MkdirAll(dir, 0o755)
	if err := os.Symlink(testplugBin, filepath.Join(dir, "droidprof-plugin-testplug")); err != nil {
		c.t.Fatal(err)
	}
}

// pluginProcesses lists processes running the test plugin.
func pluginProcesses(t *testing.T) []int {
	self := testplugBin
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == self {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestCrashingPlugin(t *testing.T) {
	c := newCLI(t)
	c.linkTestPlugin()
	cfg := c.write("crash.hcl", `
experiment "crash" {
  collect "testplug" "crash" {}
  collect "testplug" "ok" {}
  analyze "testplug" {}
}`)
	out, errOut, code := c.run("run", cfg)
	if code == 0 {
		t.Fatalf("a run with a crashed step exited 0:\n%s", out)
	}
	if !strings.Contains(out, "plugin testplug crashed") {
		t.Errorf("no readable crash message:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	_, dir := runID(t, out)
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil || res.Status != results.StatusPartial || res.Steps[1].Status != "ok" || len(res.Metrics) != 1 {
		t.Fatalf("results: %v %+v", err, res)
	}
	if pids := pluginProcesses(t); len(pids) > 0 {
		t.Errorf("plugin processes left behind: %v", pids)
	}
}

// startHangingRun starts `droidprof run` of three steps of the test plugin's
// hanging collector and returns once the first step has started (plain
// progress lines on stderr: not a TTY), with the scanner over the rest of
// stderr and the buffer stdout goes to.
func startHangingRun(t *testing.T, c *cli) (*exec.Cmd, *bufio.Scanner, *bytes.Buffer) {
	t.Helper()
	c.linkTestPlugin()
	cfg := c.write("hang.hcl", `
experiment "hang" {
  repeat = 3
  collect "testplug" "hang" {}
}`)
	cmd := c.command("run", cfg)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "[1/3]") {
			break
		}
	}
	return cmd, sc, &stdout
}

func TestInterruptedRun(t *testing.T) {
	c := newCLI(t)
	cmd, sc, stdout := startHangingRun(t, c)
	cmd.Process.Signal(syscall.SIGINT)
	var rest strings.Builder
	drained := make(chan struct{})
	go func() {
		for sc.Scan() {
			rest.WriteString(sc.Text() + "\n")
		}
		close(drained)
	}()
	<-drained
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted run: %v (want exit 130)\n%s", err, stdout.String())
	}
	// Ctrl-C is what the user asked for: no error about the step, and
	// the summary counts the step that ran, not the three planned.
	if strings.Contains(rest.String(), "[ERROR]") || strings.Contains(rest.String(), "context canceled") {
		t.Errorf("Ctrl-C reported as an error:\n%s", rest.String())
	}
	if !strings.Contains(rest.String(), "1 of 3 steps") {
		t.Errorf("progress summary does not count the steps that ran:\n%s", rest.String())
	}
	if !strings.Contains(stdout.String(), "0/1 steps ok (3 planned)") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	_, dir := runID(t, stdout.String())
	res, err := results.Read(filepath.Join(dir, results.FileName))
	if err != nil || res.Status != results.StatusIncomplete {
		t.Fatalf("results after Ctrl-C: %v %+v", err, res)
	}
	if pids := pluginProcesses(t); len(pids) > 0 {
		t.Errorf("plugin processes left behind: %v", pids)
	}
	if data, err := os.ReadFile(filepath.Join(dir, res.Steps[0].Dir, "child.pid")); err == nil {
		pid, _ := strconv.Atoi(string(data))
		if err := procwait.Gone(pid, 5*time.Second); err != nil {
			t.Errorf("after Ctrl-C: %v", err)
		}
	}
}
