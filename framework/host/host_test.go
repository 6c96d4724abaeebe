package host

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/config"
	"github.com/droidprof/droidprof/framework/internal/testplugin"
	"github.com/droidprof/droidprof/internal/procwait"
)

func TestMain(m *testing.M) {
	testplugin.MaybeServe()
	os.Exit(m.Run())
}

// testManager serves the test plugin from this very test binary.
func testManager(t *testing.T) *Manager {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(map[string]Source{"testplug": {Name: "testplug", Path: self}}, nil)
	t.Cleanup(m.Close)
	return m
}

func TestDiscovery(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write := func(dir, name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "droidprof-plugin-one", 0o755)
	write(b, "droidprof-plugin-one", 0o755)       // shadowed by a's
	write(b, "droidprof-plugin-mobibench", 0o755) // shadowed by the built-in
	write(b, "droidprof-plugin-noexec", 0o644)
	write(b, "unrelated", 0o755)

	found, warnings := Discovery{Self: "/bin/droidprof", Builtins: []string{"mobibench"}, Dirs: []string{a, "/nonexistent", b}}.Find()
	if got := strings.Join(Names(found), ","); got != "mobibench,one" {
		t.Errorf("plugins = %s, want mobibench,one", got)
	}
	if src := found["mobibench"]; !src.BuiltIn || src.Path != "/bin/droidprof" || strings.Join(src.Args, " ") != "plugin serve mobibench" {
		t.Errorf("built-in source = %+v", src)
	}
	if found["one"].Path != filepath.Join(a, "droidprof-plugin-one") {
		t.Errorf("first directory must win, got %s", found["one"].Path)
	}
	joined := strings.Join(warnings, "\n")
	for _, want := range []string{"one at " + b, "mobibench at " + b, "noexec", "not executable"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings %q lack %q", joined, want)
		}
	}
}

func TestDefaultDirs(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "DROIDPROF_PLUGIN_PATH": "/p1:/p2"}
	got := DefaultDirs(func(k string) string { return env[k] }, "/extra")
	want := []string{"plugins.d", "/home/u/.local/share/droidprof/plugins", "/p1", "/p2", "/extra"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("DefaultDirs = %v, want %v", got, want)
	}
	env["XDG_DATA_HOME"] = "/xdg"
	if got := DefaultDirs(func(k string) string { return env[k] }); got[1] != "/xdg/droidprof/plugins" {
		t.Errorf("with XDG_DATA_HOME: %v", got)
	}
}

func TestComponentResolution(t *testing.T) {
	m := testManager(t)
	tests := []struct {
		kind, plugin, component string
		want                    string
		unknown                 string // name an *UnknownError must report
	}{
		{"collector", "testplug", "ok", "ok", ""},
		{"analyzer", "testplug", "", "testplug", ""},  // the only analyzer
		{"collector", "testplug", "", "", "testplug"}, // several collectors, none named like the plugin
		{"collector", "testplug", "okk", "", "okk"},
		{"collector", "nosuch", "", "", "nosuch"},
	}
	for _, tt := range tests {
		name, schema, err := m.Component(tt.kind, tt.plugin, tt.component)
		var ue *config.UnknownError
		switch {
		case tt.unknown != "":
			if !errors.As(err, &ue) || ue.Name != tt.unknown {
				t.Errorf("Component(%s, %s, %q) err = %v, want UnknownError for %q", tt.kind, tt.plugin, tt.component, err, tt.unknown)
			}
		case err != nil || name != tt.want || schema == nil:
			t.Errorf("Component(%s, %s, %q) = %q, %v, %v", tt.kind, tt.plugin, tt.component, name, schema, err)
		}
	}
}

// TestCrashThenRestart: a plugin process that dies mid-call yields an error,
// is seen as crashed — also while a child it started still holds its stderr —
// and the next Get starts a fresh process.
func TestCrashThenRestart(t *testing.T) {
	for _, collector := range []string{"crash", "orphan-crash"} {
		t.Run(collector, func(t *testing.T) { crashThenRestart(t, collector) })
	}
}

func crashThenRestart(t *testing.T, collector string) {
	m := testManager(t)
	p, err := m.Get("testplug")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stream, err := p.CollectorClient.Collect(context.Background(), &api.CollectRequest{Component: collector, RunDir: dir, StepDir: filepath.Join(dir, "s")})
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = stream.Recv()
	}
	if errors.Is(err, io.EOF) {
		t.Fatal("crashing collector ended its stream normally")
	}
	if !p.Crashed(err) {
		t.Fatal("plugin process still running after the crash")
	}
	if _, err := os.Stat(filepath.Join(dir, "s", "partial.txt")); err != nil {
		t.Errorf("data written before the crash is gone: %v", err)
	}
	p2, err := m.Get("testplug")
	if err != nil || p2 == p {
		t.Fatalf("restart after crash: %v", err)
	}
	if _, err := p2.PluginClient.Info(context.Background(), &api.InfoRequest{}); err != nil {
		t.Fatalf("restarted plugin: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "s", "child.pid")); err == nil {
		pid, _ := strconv.Atoi(string(data))
		m.Close()
		if err := procwait.Gone(pid, 5*time.Second); err != nil {
			t.Errorf("child of the crashed plugin: %v", err)
		}
	}
}

// BenchmarkStart measures what a host pays to start a plugin and get its
// first answer: exec, handshake, dispense and one Info call. Built-ins are
// the droidprof binary itself; third-party binaries are also hashed and
// verified by go-plugin before exec (this test binary is large, ~25 MB, so
// that sub-benchmark is a pessimistic bound for a typical plugin).
func BenchmarkStart(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, builtIn := range []bool{true, false} {
		name := "third-party"
		if builtIn {
			name = "built-in"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				m := NewManager(map[string]Source{"testplug": {Name: "testplug", Path: self, BuiltIn: builtIn}}, nil)
				if _, err := m.Get("testplug"); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				m.Close()
				b.StartTimer()
			}
		})
	}
}

// TestCheckTools: a collector's declared tools are looked up in PATH, and a
// missing one is reported with the collect block's position and the package
// that installs it.
func TestCheckTools(t *testing.T) {
	m := testManager(t)
	cfg := filepath.Join(t.TempDir(), "x.hcl")
	if err := os.WriteFile(cfg, []byte("experiment \"x\" {\n  collect \"testplug\" \"ok\" {}\n  collect \"testplug\" \"tool\" {}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, err := config.Load(cfg, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := exp.Resolve(m)
	if err != nil {
		t.Fatal(err)
	}
	withTool := t.TempDir()
	if err := os.WriteFile(filepath.Join(withTool, testplugin.ToolName), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       string // the error, "" for none
	}{
		{"missing", t.TempDir(), cfg + `:3:3: collector "testplug.tool" needs ` + testplugin.ToolName + ", not found in PATH (Debian/Ubuntu: apt install " + testplugin.ToolPackage + ")"},
		{"installed", withTool + string(os.PathListSeparator) + t.TempDir(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PATH", tt.path)
			err := m.CheckTools(plan)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("CheckTools = %q\nwant        %q", got, tt.want)
			}
			var mt *MissingTool
			if tt.want != "" && (!errors.As(err, &mt) || mt.Tool != testplugin.ToolName || mt.Pos.Line != 3) {
				t.Errorf("error %#v is not a *MissingTool for the tool at line 3", err)
			}
		})
	}
}
