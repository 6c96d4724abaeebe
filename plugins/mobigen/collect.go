package mobigen

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/storage/cleaner"
	"github.com/droidprof/droidprof/storage/replay"
	"github.com/droidprof/droidprof/storage/strace"
)

// Artifact names.
const (
	LogFile      = "capture.strace" // the strace log, captured or imported
	ScriptFile   = "mobigen.mg"     // the cleaned script
	ResultFile   = "result.json"    // Result
	ReplayText   = "replay.out"     // what Mobibench prints for a replay, and more
	FidelityFile = "fidelity.strace"
)

// DataDirName is the directory on the step's storage everything happens in.
const DataDirName = "droidprof-mobigen"

// traced are the system calls a capture asks strace for: every call the
// cleaner turns into a script line. A leading ? lets strace skip a name its
// architecture lacks (open, stat and access are gone on arm64).
var traced = []string{"open", "openat", "creat", "close", "read", "write", "readv", "writev",
	"pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2", "fsync", "fdatasync",
	"fstat", "newfstatat", "fstatat64", "statx", "stat", "lstat", "stat64", "lstat64", "fstat64",
	"access", "faccessat", "faccessat2", "unlink", "unlinkat",
	// Not script lines, but the cleaner needs them for positions and for
	// which file each fd of each process is.
	"lseek", "_llseek", "dup", "dup2", "dup3", "fcntl", "fcntl64",
	"clone", "clone3", "fork", "vfork"}

func traceExpr() string {
	q := make([]string, len(traced))
	for i, n := range traced {
		q[i] = "?" + n
	}
	return "trace=" + strings.Join(q, ",")
}

// Result is one step's outcome, as result.json holds it.
type Result struct {
	Source   string          `json:"source"`
	Command  []string        `json:"command,omitempty"`
	Log      string          `json:"log"`
	Reused   bool            `json:"reused,omitempty"` // the log came from an earlier step's capture
	Backend  string          `json:"backend"`
	FSType   string          `json:"fs_type"`
	Clean    cleaner.Stats   `json:"clean"`
	Warnings []string        `json:"warnings,omitempty"`
	Fixes    []string        `json:"fixes"`
	Spin     time.Duration   `json:"spin_ns"`
	Replay   *replay.Result  `json:"replay,omitempty"`
	Fidelity *FidelityResult `json:"fidelity,omitempty"`
}

// env is what the collector needs from its step, so tests can call it
// without the RPC machinery.
type env struct {
	RunDir, OutDir, StorageDir string
	Backend, FSType            string
	Warn                       func(string)
	Info                       func(string)
}

func collect(ctx context.Context, step *sdk.Step) error {
	var cfg Config
	if err := step.Decode(&cfg); err != nil {
		return err
	}
	e := env{RunDir: step.RunDir, OutDir: step.Dir, StorageDir: step.Storage.Dir, Backend: step.Storage.Backend, FSType: step.Storage.FSType,
		Warn: func(m string) { step.Log(sdk.Warn, m) }, Info: func(m string) { step.Log(sdk.Info, m) }}
	if e.StorageDir == "" {
		e.StorageDir = filepath.Join(step.Dir, "data")
		e.Warn("the host gave no storage directory; replaying in the step directory " + e.StorageDir)
	}
	_, arts, err := run(ctx, cfg, e)
	if aerr := step.AddArtifacts(arts...); aerr != nil && err == nil {
		err = aerr
	}
	return err
}

// run does a step: get the log, clean it, replay it, check fidelity. The
// artifacts written so far are returned also with an error.
func run(ctx context.Context, cfg Config, e env) (*Result, []sdk.Artifact, error) {
	var arts []sdk.Artifact
	add := func(name, kind, media, title string, data []byte) error {
		if err := os.WriteFile(filepath.Join(e.OutDir, name), data, 0o644); err != nil {
			return fmt.Errorf("mobigen: write %s: %w", name, err)
		}
		arts = append(arts, sdk.Artifact{Name: name, Kind: kind, MediaType: media, Title: title})
		return nil
	}
	res := &Result{Source: cfg.Source, Command: cfg.Command, Backend: e.Backend, FSType: e.FSType, Fixes: cleaner.Fixes, Spin: time.Duration(cfg.SpinUS) * time.Microsecond}
	work := filepath.Join(e.StorageDir, DataDirName)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, nil, fmt.Errorf("mobigen: storage directory: %w", err)
	}
	if !cfg.Keep {
		defer os.RemoveAll(work)
	}
	logPath := filepath.Join(e.OutDir, LogFile)
	switch cfg.Source {
	case "import":
		if cfg.Log == "" {
			return nil, nil, errors.New("mobigen: source = import, but log is empty")
		}
		if err := copyFile(cfg.Log, logPath); err != nil {
			return nil, nil, fmt.Errorf("mobigen: import: %w", err)
		}
		res.Log = cfg.Log
	case "capture":
		reused, err := capture(ctx, cfg, e, work, logPath)
		if err != nil {
			return nil, nil, err
		}
		res.Log, res.Reused = LogFile, reused
	default:
		return nil, nil, fmt.Errorf("mobigen: unknown source %q", cfg.Source)
	}
	arts = append(arts, sdk.Artifact{Name: LogFile, Kind: sdk.KindRaw, MediaType: "text/plain", Title: "strace log"})

	l, err := strace.ParseFile(logPath)
	if err != nil {
		return nil, arts, fmt.Errorf("mobigen: %w", err)
	}
	l.Name = res.Log
	o := cleaner.Options{Paths: cfg.Paths}
	if cfg.Platform {
		o.Drop = []string{}
	}
	cl := cleaner.Clean(l, o)
	res.Clean = cl.Stats
	for _, w := range cl.Warnings {
		res.Warnings = append(res.Warnings, w.Error())
	}
	if n := len(l.Skipped); n > 0 && e.Warn != nil {
		e.Warn(fmt.Sprintf("mobigen: %d lines of the log were not understood, first %s", n, l.Skipped[0].Error()))
	}
	var sb bytes.Buffer
	if _, err := cl.Script.WriteTo(&sb); err != nil {
		return res, arts, fmt.Errorf("mobigen: script: %w", err)
	}
	if err := add(ScriptFile, sdk.KindRaw, "text/plain", "Mobigen replay script", sb.Bytes()); err != nil {
		return res, arts, err
	}
	// The replay reads the script back as any user's script would.
	s, err := replay.Parse(bytes.NewReader(sb.Bytes()), ScriptFile)
	if err != nil {
		return res, arts, fmt.Errorf("mobigen: cleaned script does not parse: %w", err)
	}
	write := func(rerr error) ([]sdk.Artifact, error) {
		js, err := json.MarshalIndent(res, "", "  ")
		if err == nil {
			err = add(ResultFile, sdk.KindRaw, "application/json", "Mobigen trace statistics, replay and fidelity", js)
		}
		return arts, errors.Join(rerr, err)
	}
	if len(s.Entries) == 0 {
		e.Warn("mobigen: the cleaned script is empty; nothing to replay")
		a, err := write(nil)
		return res, a, err
	}

	rr, rerr := replay.Replay(ctx, s, replay.Options{Dir: work, Keep: cfg.Keep, Spin: res.Spin, Realtime: cfg.Realtime})
	if rr != nil {
		res.Replay = rr
		if err := add(ReplayText, sdk.KindLog, "text/plain", "Mobigen replay output", rr.Text()); err != nil {
			return res, arts, err
		}
		if rr.RealtimeError != "" && e.Warn != nil {
			e.Warn("mobigen: replay threads not real-time: " + rr.RealtimeError)
		}
		for _, w := range rr.Warnings {
			if e.Warn != nil {
				e.Warn("mobigen: replay: " + w)
			}
		}
		if rr.Errors > 0 && e.Warn != nil {
			e.Warn(fmt.Sprintf("mobigen: %d calls failed in the replay that succeeded in the trace (see %s)", rr.Errors, ReplayText))
		}
	}
	if rerr != nil {
		a, err := write(rerr)
		return res, a, err
	}
	if cfg.Fidelity {
		f, err := checkFidelity(ctx, s, filepath.Join(work, "fidelity"), filepath.Join(e.OutDir, FidelityFile))
		if err != nil {
			a, werr := write(fmt.Errorf("mobigen: fidelity: %w", err))
			return res, a, werr
		}
		res.Fidelity = f
		arts = append(arts, sdk.Artifact{Name: FidelityFile, Kind: sdk.KindRaw, MediaType: "text/plain", Title: "strace log of the replay (fidelity check)"})
	}
	a, err := write(nil)
	return res, a, err
}

// capture runs the command under strace into logPath. With Reuse, a log an
// earlier step of the run captured for the same command is taken instead.
func capture(ctx context.Context, cfg Config, e env, work, logPath string) (reused bool, err error) {
	if len(cfg.Command) == 0 {
		return false, errors.New("mobigen: source = capture, but command is empty")
	}
	strc, err := exec.LookPath("strace")
	if err != nil {
		return false, fmt.Errorf("mobigen: capture needs strace (Debian package strace): %w", err)
	}
	h := sha256.New()
	json.NewEncoder(h).Encode([]any{cfg.Command, cfg.Stdin})
	key := "capture-" + hex.EncodeToString(h.Sum(nil))[:16] + ".strace"
	if cfg.Reuse && e.RunDir != "" {
		// Steps write only their own directories; an earlier step's
		// capture is found in its directory under the run.
		for _, pat := range []string{"*", "*/*", "*/*/*"} {
			m, _ := filepath.Glob(filepath.Join(e.RunDir, pat, key))
			if len(m) > 0 {
				if err := copyFile(m[0], logPath); err != nil {
					return false, fmt.Errorf("mobigen: reuse capture: %w", err)
				}
				return true, linkKey(logPath, key)
			}
		}
	}
	scratch := filepath.Join(work, "capture")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return false, fmt.Errorf("mobigen: capture directory: %w", err)
	}
	tmp := logPath + ".part"
	// -q, not -qq: the exit lines tell the cleaner when a process's fds close.
	args := []string{"-f", "-ttt", "-T", "-s", "256", "-q", "-o", tmp, "-e", traceExpr(), "--"}
	cmd := exec.CommandContext(ctx, strc, append(args, cfg.Command...)...)
	cmd.Dir = scratch
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if cfg.Stdin != "" {
		f, err := os.Open(cfg.Stdin)
		if err != nil {
			return false, fmt.Errorf("mobigen: stdin: %w", err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return false, fmt.Errorf("mobigen: capture %v under strace: %w\n%s", cfg.Command, err, tail(out.Bytes()))
	}
	if err := os.Rename(tmp, logPath); err != nil {
		return false, fmt.Errorf("mobigen: capture: %w", err)
	}
	return false, linkKey(logPath, key)
}

// linkKey names the step's log by its capture key too, so later steps of
// the run can find it.
func linkKey(logPath, key string) error {
	p := filepath.Join(filepath.Dir(logPath), key)
	os.Remove(p)
	if err := os.Link(logPath, p); err != nil {
		return fmt.Errorf("mobigen: capture key: %w", err)
	}
	return nil
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
