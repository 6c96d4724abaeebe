// Package testplugin is a plugin for the framework's own tests. A test binary
// calls MaybeServe from TestMain; when the host starts that binary as a plugin
// (go-plugin sets the handshake cookie in its environment) it serves this
// plugin instead of running tests, so host and runner tests exercise real
// child processes: crashes, hangs and grandchildren included.
package testplugin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/internal/wire"
	"github.com/droidprof/droidprof/framework/sdk"
)

// Config of the test collectors.
type Config struct {
	Value float64 `json:"value" default:"1"`
	// Warn, when set, is logged at warn level by "ok".
	Warn string `json:"warn"`
}

// Needs has a required setting, for config error tests.
type Needs struct {
	Name string `json:"name" required:"true"`
}

// Plugin returns the test plugin. Collectors:
//   - "ok" writes value.txt and result artifacts, and logs warn at warn
//     level when set;
//   - "crash" writes partial.txt, then kills its own process from another
//     goroutine (a real crash, not a recoverable panic);
//   - "hang" starts a grandchild `sleep`, records its pid in child.pid,
//     reports progress, and waits for cancellation;
//   - "storage" writes and fsyncs a file in the step's storage directory and
//     records the storage it was given in storage.json;
//   - "orphan-crash" starts a grandchild `sleep` that holds the plugin's
//     stderr, records its pid in child.pid, then crashes;
//   - "tool" is "ok" that declares it needs the program ToolName.
func Plugin() *sdk.Plugin {
	return &sdk.Plugin{
		Name: "testplug", Version: "1.0.0",
		Collectors: []sdk.Collector{
			{Name: "ok", Config: Config{}, Run: runOK},
			{Name: "crash", Config: Config{}, Run: runCrash},
			{Name: "hang", Config: Config{}, Run: runHang},
			{Name: "needs", Config: Needs{}, Run: runOK},
			{Name: "orphan-crash", Config: Config{}, Run: runOrphanCrash},
			{Name: "storage", Config: Config{}, Run: runStorage},
			{Name: "tool", Config: Config{}, Needs: []sdk.Tool{{Name: ToolName, Package: ToolPackage}}, Run: runOK},
		},
		Analyzers: []sdk.Analyzer{{Name: "testplug", Run: analyze}},
	}
}

// ToolName and ToolPackage are the external program the "tool" collector
// declares it needs, and the package said to install it; no machine has them.
const (
	ToolName    = "droidprof-testplug-tool"
	ToolPackage = "droidprof-testplug-tools"
)

// MaybeServe serves the plugin and exits if this process was started as a
// plugin; otherwise it returns.
func MaybeServe() {
	if os.Getenv(wire.Handshake.MagicCookieKey) == "" {
		return
	}
	sdk.Serve(Plugin())
	os.Exit(0)
}

func runOK(_ context.Context, s *sdk.Step) error {
	var c Config
	if err := s.Decode(&c); err != nil {
		return err
	}
	if c.Warn != "" {
		s.Log(sdk.Warn, c.Warn)
	}
	s.Progress(1, 1, "", "")
	return s.WriteArtifact("value.txt", sdk.KindRaw, "text/plain", "", []byte(strconv.FormatFloat(c.Value, 'g', -1, 64)))
}

// StorageSeen is what the "storage" collector writes to storage.json.
type StorageSeen struct {
	Backend string            `json:"backend"`
	Dir     string            `json:"dir"`
	FSType  string            `json:"fs_type"`
	Options map[string]string `json:"options"`
}

func runStorage(_ context.Context, s *sdk.Step) error {
	f, err := os.Create(filepath.Join(s.Storage.Dir, s.ID+".bin"))
	if err != nil {
		return err
	}
	if _, err := f.Write(make([]byte, 64<<10)); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return s.WriteJSON("storage.json", StorageSeen{Backend: s.Storage.Backend, Dir: s.Storage.Dir, FSType: s.Storage.FSType, Options: s.Storage.Options})
}

func runCrash(ctx context.Context, s *sdk.Step) error {
	if err := os.WriteFile(filepath.Join(s.Dir, "partial.txt"), []byte("collected before the crash\n"), 0o644); err != nil {
		return err
	}
	go func() {
		var m map[string]int
		m["boom"] = 1 // nil map write: an unrecoverable crash in a goroutine
	}()
	<-ctx.Done()
	return ctx.Err()
}

func runHang(ctx context.Context, s *sdk.Step) error {
	if err := startChild(s, nil); err != nil {
		return err
	}
	s.Progress(0, 1, "", "waiting")
	<-ctx.Done()
	return ctx.Err()
}

func runOrphanCrash(ctx context.Context, s *sdk.Step) error {
	if err := startChild(s, os.Stderr); err != nil {
		return err
	}
	return runCrash(ctx, s)
}

// startChild starts a long `sleep` and records its pid in child.pid.
func startChild(s *sdk.Step, stderr *os.File) error {
	cmd := exec.Command("sleep", "600")
	if stderr != nil {
		cmd.Stderr = stderr
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.Dir, "child.pid"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
}

func analyze(_ context.Context, a *sdk.Analysis) (*sdk.Result, error) {
	r := a.NewResult()
	// Steps that did not finish, as the host hands them over: a table
	// "unfinished" of their ID, status, error and files.
	var unfinished [][]string
	for _, st := range a.Steps {
		if st.Status != "" && st.Status != "ok" {
			var names []string
			for _, art := range st.Artifacts {
				names = append(names, art.Name)
			}
			unfinished = append(unfinished, []string{st.ID, st.Status, st.Error, strings.Join(names, " ")})
		}
	}
	if len(unfinished) > 0 {
		r.Table("unfinished", "Steps that did not finish", []string{"step", "status", "error", "files"}, unfinished)
	}
	for _, st := range a.Steps {
		art := sdk.Find(st, "value.txt")
		if art == nil {
			continue
		}
		data, err := os.ReadFile(a.Path(art))
		if err != nil {
			return nil, err
		}
		v, err := strconv.ParseFloat(string(data), 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", art.Path, err)
		}
		r.Sample("value", "units", sdk.LowerIsBetter, st.Labels, v)
	}
	return r, nil
}
