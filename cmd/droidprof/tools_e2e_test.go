package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
)

// readmeExample returns the README's first experiment, which runs the
// mobibench fio collector.
func readmeExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```hcl\n(experiment \"fsync-vs-osync\".*?)```").FindSubmatch(data)
	if m == nil || !strings.Contains(string(m[1]), `collect "mobibench" "fio"`) {
		t.Fatal("README.md has no fsync-vs-osync example with a fio collector")
	}
	return string(m[1])
}

// TestMissingTool: validate and run refuse a config whose collector needs a
// program that is not installed, naming the block and the package to install.
func TestMissingTool(t *testing.T) {
	c := newCLI(t)
	// The example's storage directory is kept off the machine's /var/tmp.
	cfg := c.write("x.hcl", strings.Replace(readmeExample(t), "/var/tmp/droidprof", t.TempDir(), 1))
	want := regexp.MustCompile(regexp.QuoteMeta(cfg) + `:\d+:3: collector "mobibench.fio" needs fio, not found in PATH \(Debian/Ubuntu: apt install fio\)`)

	empty := &cli{t: t, dir: c.dir, env: append(c.env, "PATH="+t.TempDir())}
	for _, cmd := range []string{"validate", "run"} {
		out, errOut, code := empty.run(cmd, cfg)
		if code == 0 || !want.MatchString(errOut) {
			t.Errorf("%s without fio in PATH: exit %d, stderr %q; want a failure matching %s", cmd, code, errOut, want)
		}
		if strings.Contains(out, "run ") || strings.Contains(errOut, "step") {
			t.Errorf("%s without fio started the experiment:\n%s\n%s", cmd, out, errOut)
		}
	}

	// plugins tells which tools are missing before a config is written.
	if out, _, _ := empty.run("plugins"); !strings.Contains(out, "needs fio (not found in PATH; Debian/Ubuntu: apt install fio)") {
		t.Errorf("plugins without fio in PATH does not say fio is missing:\n%s", out)
	}

	testenv.Tool(t, "fio", "fio")
	if out := c.ok("plugins"); !strings.Contains(out, "needs fio (found in PATH)") {
		t.Errorf("plugins with fio installed does not list the collector's need:\n%s", out)
	}
	if out := c.ok("validate", cfg); !strings.Contains(out, ": ok") {
		t.Errorf("validate with fio installed: %s", out)
	}
}
