package mobibench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/storage/fileio"
)

// env is what a collector needs from its step, so the collectors are plain
// functions that tests call without the RPC machinery.
type env struct {
	ID         string
	OutDir     string // the step directory: artifacts go here
	StorageDir string // where the data files go (a per-step subdirectory is made)
	Keep       bool   // keep the data files afterwards
	Progress   func(done, total float64, unit, message string)
	Warn       func(msg string)
}

func stepEnv(step *sdk.Step) env {
	e := env{
		ID: step.ID, OutDir: step.Dir, StorageDir: step.Storage.Dir,
		Keep:     step.Storage.Options["keep"] == "true",
		Progress: step.Progress,
		Warn:     func(msg string) { step.Log(sdk.Warn, msg) },
	}
	if e.StorageDir == "" {
		e.StorageDir = filepath.Join(step.Dir, "data")
		e.Warn("the host gave no storage directory; doing the I/O in the step directory " + e.StorageDir)
	}
	return e
}

// DataDirName is the subdirectory of the storage directory both collectors
// put their data files in (test.dat0, test.dat1, ...), like Mobibench's -p.
const DataDirName = "droidprof-mobibench"

// dataDir makes the directory the data files live in and returns it with the
// function to call after the run: it deletes the data files, unless the
// storage keeps them. Kept files are reused by the next step exactly as
// Mobibench reuses its files from one invocation to the next (overwritten in
// place, extended by prefill when too small), which spares every run the
// allocation of fresh blocks (and, on filesystems mounted with discard, the
// discard of the old ones).
func (e env) dataDir() (string, func() error, error) {
	dir := filepath.Join(e.StorageDir, DataDirName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, fmt.Errorf("storage directory: %w", err)
	}
	return dir, func() error {
		if e.Keep {
			return nil
		}
		return os.RemoveAll(dir)
	}, nil
}

func writeFile(dir, name string, data []byte) error {
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// collector adapts a run function (runMobibench, runFio) to the SDK: decode
// the config, run, and announce every artifact written, also after an error.
func collector(run func(context.Context, Config, env) (*Result, []sdk.Artifact, error)) func(context.Context, *sdk.Step) error {
	return func(ctx context.Context, step *sdk.Step) error {
		var cfg Config
		if err := step.Decode(&cfg); err != nil {
			return err
		}
		_, arts, err := run(ctx, cfg, stepEnv(step))
		if aerr := step.AddArtifacts(arts...); err == nil {
			err = aerr
		}
		return err
	}
}

// runMobibench is the mobibench collector: it runs the file engine (or, with
// the DB test on, the DB engine) in a subdirectory of the storage directory
// and writes result.json, mobibench.out and, when asked, latency.tsv and
// iops.tsv.
func runMobibench(ctx context.Context, cfg Config, e env) (*Result, []sdk.Artifact, error) {
	switch {
	case cfg.Replay != "" && cfg.dbEnabled():
		return nil, nil, fmt.Errorf("replay and db.op = %q both set: a step replays a script or runs the DB test, not both", cfg.DB.Op)
	case cfg.Replay != "":
		_, arts, err := runReplay(ctx, cfg.Replay, e.Keep, e)
		return nil, arts, err
	case cfg.dbEnabled():
		return runMobibenchDB(ctx, cfg, e)
	}
	cfg, ec, err := cfg.resolve("")
	if err != nil {
		return nil, nil, err
	}
	dir, cleanup, err := e.dataDir()
	if err != nil {
		return nil, nil, err
	}
	ec.Dir = dir
	if e.Progress != nil {
		ec.Progress = func(done, total int64) {
			e.Progress(float64(done), float64(total), "I/Os", fmt.Sprintf("access %d sync %d", cfg.Access, cfg.Sync))
		}
	}
	r, err := fileio.Run(ctx, ec)
	if cerr := cleanup(); err == nil && cerr != nil {
		err = fmt.Errorf("remove data files: %w", cerr)
	}
	if err != nil {
		return nil, nil, err
	}
	e.warn(r.Warnings)
	res := engineResult(cfg, r)
	a := &artifacts{dir: e.OutDir}
	errs := []error{
		a.result(res, "Mobibench measurements"),
		a.add("mobibench.out", sdk.KindLog, "text/plain", "Mobibench text output", mobibenchOut(r)),
	}
	if cfg.LatencyLog {
		errs = append(errs, a.add("latency.tsv", sdk.KindRaw, "text/tab-separated-values", "per-I/O latency (Mobibench -L)", latencyTSV(r)))
	}
	if cfg.IOPSLog {
		errs = append(errs, a.add("iops.tsv", sdk.KindRaw, "text/tab-separated-values", "I/Os per second (Mobibench -k)", iopsTSV(r.PerSecond(), r.Config.IOSize)))
	}
	return res, a.list, errors.Join(errs...)
}

// artifacts writes a step's artifact files and lists them for the host.
type artifacts struct {
	dir  string
	list []sdk.Artifact
}

func (a *artifacts) add(name, kind, media, title string, data []byte) error {
	if err := writeFile(a.dir, name, data); err != nil {
		return err
	}
	a.list = append(a.list, sdk.Artifact{Name: name, Kind: kind, MediaType: media, Title: title})
	return nil
}

// result writes res as result.json.
func (a *artifacts) result(res *Result, title string) error {
	js, err := marshal(res)
	if err != nil {
		return err
	}
	return a.add("result.json", sdk.KindRaw, "application/json", title, js)
}

// warn passes a result's warnings on to the step log.
func (e env) warn(warnings []string) {
	for _, w := range warnings {
		if e.Warn != nil {
			e.Warn(w)
		}
	}
}

// toolCommand runs an external tool in its own process group, killed with
// the whole group when ctx ends and when the plugin dies.
func toolCommand(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}
