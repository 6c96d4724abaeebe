package fileio

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/droidprof/droidprof/storage/fsinfo"
	"golang.org/x/sys/unix"
)

// MaxThreads is Mobibench's thread limit.
const MaxThreads = 100

// Config describes one file benchmark.
type Config struct {
	Dir      string // existing directory; thread N uses Dir/test.datN
	Access   Access
	Sync     Sync
	Threads  int   // 1..100
	FileSize int64 // total bytes, divided evenly across threads
	IOSize   int64 // bytes per I/O (Mobibench's record)
	Overlap  int   // -v: percentage of random I/Os that revisit a record, 0..99

	// DropCaches syncs and drops the page cache (as root) after the files are
	// prepared and before the clock starts, as Mobibench does. When that is
	// not permitted the run goes on and Result.Warnings says so.
	DropCaches bool
	// NoLatency turns off per-I/O timing (one clock read per I/O), for
	// measuring what the capture costs.
	NoLatency bool
	// Stamp writes a 16-byte header {record, sequence number} at the start of
	// every record written, so tests can check from the file which record
	// was written when. It is off in benchmarks: Mobibench writes a constant
	// buffer.
	Stamp bool
	// Progress, when set, is called about every 100 ms with the I/Os done so
	// far over all threads and the total, and once more at the end.
	Progress func(done, total int64) `json:"-"`
}

// Plan is what a valid Config works out to.
type Plan struct {
	PerThread   int64  // FileSize / Threads, before rounding down to whole records
	Records     int64  // I/Os per thread
	FileBytes   int64  // bytes per thread file: Records * IOSize
	FSType      string // filesystem under Dir
	DirectAlign int64  // O_DIRECT offset/size alignment, for the direct modes
}

// ErrUnsupported is wrapped by every error that rejects a configuration
// before anything runs.
var ErrUnsupported = errors.New("unsupported configuration")

func reject(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, a...))
}

// Validate checks c without touching the filesystem and returns its plan
// (without the filesystem fields).
func (c Config) Validate() (Plan, error) {
	var p Plan
	switch {
	case !c.Access.Valid():
		return p, reject("access mode %d does not exist (0=write, 1=random write, 2=read, 3=random read, 4=append)", int(c.Access))
	case !c.Sync.Valid():
		return p, reject("sync mode %d does not exist (0..10)", int(c.Sync))
	case c.Threads < 1 || c.Threads > MaxThreads:
		return p, reject("threads = %d is out of range 1..%d", c.Threads, MaxThreads)
	case c.IOSize <= 0:
		return p, reject("io size must be positive, got %d", c.IOSize)
	case c.FileSize <= 0:
		return p, reject("file size must be positive, got %d", c.FileSize)
	case c.Overlap < 0 || c.Overlap > 99:
		return p, reject("overlap = %d%% is out of range 0..99", c.Overlap)
	case c.Dir == "":
		return p, reject("no directory given")
	}
	p.PerThread = c.FileSize / int64(c.Threads)
	if c.IOSize > p.PerThread {
		return p, reject("io size %d B is larger than the file size per thread %d B (file size %d B / %d threads)", c.IOSize, p.PerThread, c.FileSize, c.Threads)
	}
	p.Records = p.PerThread / c.IOSize
	p.FileBytes = p.Records * c.IOSize
	if c.Sync.Mapped() && p.FileBytes != int64(int(p.FileBytes)) {
		return p, reject("file size per thread %d B does not fit in a memory mapping", p.FileBytes)
	}
	return p, nil
}

// Check validates c and probes the filesystem under c.Dir: the directory must
// exist, O_DIRECT modes need a filesystem that accepts O_DIRECT and an io size
// that is a multiple of its block size, and the BarrierFS modes need a kernel
// that has the system calls. It runs no benchmark.
func Check(c Config) (Plan, error) {
	p, err := c.Validate()
	if err != nil {
		return p, err
	}
	st, err := os.Stat(c.Dir)
	if err != nil {
		return p, fmt.Errorf("storage directory: %w", err)
	}
	if !st.IsDir() {
		return p, reject("%s is not a directory", c.Dir)
	}
	if _, p.FSType, err = fsinfo.Type(c.Dir); err != nil {
		return p, err
	}
	if c.Sync.DirectIO() {
		a, err := fsinfo.DirectIO(c.Dir)
		if errors.Is(err, fsinfo.ErrNoDirectIO) {
			return p, reject("sync mode %d (%s) is not supported on %s at %s: the filesystem rejects O_DIRECT", int(c.Sync), c.Sync, p.FSType, c.Dir)
		}
		if err != nil {
			return p, err
		}
		p.DirectAlign = max(a.Offset, a.Memory)
		if c.IOSize%a.Offset != 0 {
			return p, reject("sync mode %d (%s) needs an io size that is a multiple of %d B (the O_DIRECT block size of %s at %s), got %d B", int(c.Sync), c.Sync, a.Offset, p.FSType, c.Dir, c.IOSize)
		}
	}
	if nr := c.Sync.barrierSyscall(); nr != 0 {
		// A BarrierFS kernel answers EBADF for fd -1; a stock one ENOSYS.
		if _, _, e := unix.Syscall(nr, ^uintptr(0), 0, 0); e == unix.ENOSYS {
			return p, reject("sync mode %d (%s) needs a BarrierFS kernel with system call %d; this kernel does not have it", int(c.Sync), c.Sync, nr)
		}
	}
	return p, nil
}

// FileName is the data file of thread n (0-based): dir/test.dat<n>, as in
// Mobibench.
func FileName(dir string, n int) string {
	return filepath.Join(dir, "test.dat"+strconv.Itoa(n))
}

// RemoveFiles deletes the data files of threads 0..threads-1 in dir;
// missing files are not an error.
func RemoveFiles(dir string, threads int) error {
	var errs []error
	for i := 0; i < threads; i++ {
		if err := os.Remove(FileName(dir, i)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
