package runstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/droidprof/droidprof/framework/results"
)

// LockFile is the file in a run directory that the droidprof writing the run
// holds an exclusive flock on. A run whose results say "running" while
// nobody holds the lock was left by a droidprof that was killed.
const LockFile = "run.lock"

// errLocked is returned by lockFile when another open file holds the lock.
var errLocked = errors.New("locked")

// ErrBusy is returned (wrapped) by Lock when another droidprof is writing
// the run.
var ErrBusy = errors.New("run is in use by another droidprof")

// RunLock is a held run lock.
type RunLock struct{ f *os.File }

// Unlock releases the lock. It is safe to call more than once.
func (l *RunLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// openLock opens (creating if needed) the lock file of the run in dir and
// takes its lock, waiting for it when wait is true.
func openLock(dir string, wait bool) (*RunLock, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f, wait); err != nil {
		f.Close()
		return nil, err
	}
	return &RunLock{f: f}, nil
}

// Lock takes the lock of the existing run in dir, for a command that
// rewrites its results (droidprof analyze). A run that is still being
// written is refused with ErrBusy.
func Lock(dir string) (*RunLock, error) {
	l, err := openLock(dir, false)
	if errors.Is(err, errLocked) {
		return nil, fmt.Errorf("%s: %w (still running, or being analysed)", dir, ErrBusy)
	}
	if err != nil {
		return nil, fmt.Errorf("lock run %s: %w", dir, err)
	}
	return l, nil
}

// Read reads the results of the run in dir. A run that says it is running
// but whose lock nobody holds (the droidprof writing it was killed) is
// marked crashed first: its results.json is rewritten with status crashed,
// Finished set to the time of the run's last write, and a warning.
func Read(dir string) (*results.Results, error) {
	path := filepath.Join(dir, results.FileName)
	res, err := results.Read(path)
	if err != nil || res.Status != results.StatusRunning || !canLock {
		return res, err
	}
	l, err := openLock(dir, false)
	if errors.Is(err, errLocked) {
		return res, nil // really running
	}
	if err != nil {
		// A read-only copy of a run cannot be locked or settled; what it
		// says is all there is.
		return res, nil
	}
	defer l.Unlock()
	// Read again under the lock: the run may have finished meanwhile.
	if res, err = results.Read(path); err != nil || res.Status != results.StatusRunning {
		return res, err
	}
	last := lastWrite(dir)
	res.Status = results.StatusCrashed
	res.Finished = last.UTC()
	res.Warnings = append(res.Warnings, fmt.Sprintf("droidprof stopped writing this run at %s without finishing it (killed, or the machine went down); what it collected until then is kept",
		last.UTC().Format(time.RFC3339)))
	for i := range res.Steps {
		if st := &res.Steps[i]; st.Status == results.StepRunning {
			st.Status, st.Error = results.StepCrashed, "droidprof stopped during this step; the files it wrote are kept"
			st.Artifacts = append(st.Artifacts, stepFiles(dir, st)...)
		}
	}
	if err := res.Write(path); err != nil {
		return res, fmt.Errorf("mark run %s crashed: %w", dir, err)
	}
	return res, nil
}

// stepFiles lists the files a crashed step left in its directory that its
// record does not name yet (the collector announces its artifacts as it
// goes), so that the run's reader finds what was collected.
func stepFiles(runDir string, st *results.Step) []results.Artifact {
	named := map[string]bool{}
	for _, a := range st.Artifacts {
		named[a.Path] = true
	}
	entries, _ := os.ReadDir(filepath.Join(runDir, filepath.FromSlash(st.Dir)))
	var out []results.Artifact
	for _, en := range entries {
		p := path.Join(st.Dir, en.Name())
		if en.IsDir() || named[p] {
			continue
		}
		if fi, err := en.Info(); err == nil {
			out = append(out, results.Artifact{Name: en.Name(), Path: p, Size: fi.Size(), Kind: "raw"})
		}
	}
	return out
}

// lastWrite is the newest modification time of any file in the run
// directory other than its lock.
func lastWrite(dir string) time.Time {
	var last time.Time
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == LockFile {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.ModTime().After(last) {
			last = fi.ModTime()
		}
		return nil
	})
	return last
}
