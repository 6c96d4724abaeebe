// Package tracefs runs kernel tracepoints through a private ftrace instance
// and parses the text the kernel prints for them — read as the kernel
// formats it (Start), or captured as the binary per-CPU ring-buffer pages
// and decoded to the same text afterwards (StartRaw, DecodeRaw), which
// costs the traced workload far less.
//
// An Instance is a directory instances/droidprof-<pid>-<n> of tracefs with
// its own ring buffers and its own enabled events, so concurrent traces (two
// droidprof runs, a perf session, atrace) never see or disturb each other's
// events. When tracefs is not mounted anywhere, Open mounts it on a private
// mount point and Close unmounts it again.
//
// Liveness is mostly the kernel's own: an instance keeps one of its files
// open for its whole life, and the kernel refuses to remove an instance
// (rmdir) or to unmount a tracefs mount (umount) while a file in it is open.
// That leaves a moment between making an instance or mount and opening the
// file, in which a concurrent reaper (another droidprof, or another test
// package under go test) could take it; so Reap also leaves every name whose
// pid still runs. It removes the droidprof instances and private mounts of
// dead processes that nothing holds — the ones a killed droidprof left — and
// never a live one (a reused pid only delays a reap).
package tracefs

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/droidprof/droidprof/storage/fsinfo"
	"golang.org/x/sys/unix"
)

// Prefix starts the name of every instance and private mount point droidprof
// makes; Reap considers nothing else.
const Prefix = "droidprof-"

// mountPrefix starts the base name of a private tracefs mount point.
const mountPrefix = "droidprof-tracefs-"

// DefaultMount is where tracefs is normally mounted.
const DefaultMount = "/sys/kernel/tracing"

var seq atomic.Int64

// Options say what an instance traces.
type Options struct {
	// Events are "system/event" names (e.g. "block/block_rq_issue") or
	// whole systems ("jbd2").
	Events []string
	// Filters maps an event or system name of Events to an ftrace filter
	// expression, e.g. "dev == 7340032".
	Filters map[string]string
	// BufferKB is the ring buffer size per CPU in KiB (0: the kernel's
	// default for a new instance).
	BufferKB int
	// Clock is the trace clock ("" keeps the kernel's default, "local");
	// "mono" stamps events with CLOCK_MONOTONIC, comparable with the
	// times user space reads.
	Clock string
	// WakePercent is how full a CPU's ring buffer gets before a reader
	// of trace_pipe is woken (buffer_percent); 0 wakes it at every
	// event, which costs a wakeup per event on a busy device.
	WakePercent int
	// RecordTGID prints each event's thread group (process) id after the
	// task, "(  1234)", as atrace does; Event.TGID holds it.
	RecordTGID bool
}

// Instance is a private ftrace instance.
type Instance struct {
	Name string // e.g. droidprof-1234-1
	Dir  string // its directory in tracefs
	Root string // the tracefs mount it lives in

	mounted string   // private mount point made by Open; "" when tracefs was mounted already
	hold    *os.File // keeps the instance (and the mount) busy while we live; the top-level lock for blk
	holdOld *os.File // blk: the lock on current_tracer that earlier versions take
	events  []string // Options.Events: whose formats a raw capture saves
	// blk is what OpenBlkTracer borrowed of the top level, to put back;
	// such an instance is the top level itself and is never removed.
	blk *blkState

	closeOnce sync.Once
	closeErr  error
}

// Open reaps abandoned droidprof instances, then makes a new instance with
// opts' events enabled and recording off (Start turns it on). On failure it
// undoes what it did.
func Open(opts Options) (in *Instance, err error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("tracefs: kernel tracing needs root")
	}
	root, mounted, err := mountTracefs()
	if err != nil {
		return nil, err
	}
	in = &Instance{Root: root, mounted: mounted, events: opts.Events}
	defer func() {
		if err != nil {
			in.Close()
			in = nil
		}
	}()
	// A blk tracer session that died is given back here too: the next
	// trace of any kind restores the top level.
	if err := errors.Join(reapInstances(root), reapBlkTracer(root)); err != nil {
		return in, err
	}
	// A concurrent Reap may remove our directory between mkdir and open of
	// the holding file; a fresh name and a second try settle that.
	for try := 0; ; try++ {
		name := fmt.Sprintf("%s%d-%d", Prefix, os.Getpid(), seq.Add(1))
		dir := filepath.Join(root, "instances", name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return in, fmt.Errorf("tracefs: make instance %s: %w", dir, err)
		}
		f, err := os.OpenFile(filepath.Join(dir, "tracing_on"), os.O_RDWR, 0)
		if err != nil {
			if try < 3 && errors.Is(err, os.ErrNotExist) {
				continue
			}
			_ = unix.Rmdir(dir)
			return in, fmt.Errorf("tracefs: open %s/tracing_on: %w", dir, err)
		}
		in.Name, in.Dir, in.hold = name, dir, f
		break
	}
	if err := in.write("tracing_on", "0"); err != nil {
		return in, err
	}
	// By default a poller wakes as soon as there is any data, not at half
	// a buffer; a capture of a busy device sets WakePercent to be woken
	// less often.
	if err := in.write("buffer_percent", strconv.Itoa(opts.WakePercent)); err != nil {
		return in, err
	}
	if opts.Clock != "" {
		if err := in.write("trace_clock", opts.Clock); err != nil {
			return in, err
		}
	}
	if opts.RecordTGID {
		if err := in.write("options/record-tgid", "1"); err != nil {
			return in, err
		}
	}
	if opts.BufferKB > 0 {
		if err := in.write("buffer_size_kb", strconv.Itoa(opts.BufferKB)); err != nil {
			return in, err
		}
	}
	for _, ev := range opts.Events {
		if f, ok := opts.Filters[ev]; ok {
			if err := in.write(filepath.Join("events", ev, "filter"), f); err != nil {
				return in, err
			}
		}
		if err := in.write(filepath.Join("events", ev, "enable"), "1"); err != nil {
			return in, err
		}
	}
	return in, nil
}

// write writes value to a control file of the instance.
func (in *Instance) write(file, value string) error {
	p := filepath.Join(in.Dir, file)
	if err := os.WriteFile(p, []byte(value), 0); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("tracefs: %s: no such control file (is the event in this kernel?): %w", p, err)
		}
		return fmt.Errorf("tracefs: write %q to %s: %w", value, p, err)
	}
	return nil
}

// SetTracing turns recording into the instance's buffers on or off.
func (in *Instance) SetTracing(on bool) error {
	v := "0"
	if on {
		v = "1"
	}
	return in.write("tracing_on", v)
}

// Overruns returns the events the kernel dropped because the ring buffer
// was full, summed over the CPUs (per_cpu/cpuN/stats: overrun and dropped
// events).
func (in *Instance) Overruns() (int64, error) {
	cpus, err := filepath.Glob(filepath.Join(in.Dir, "per_cpu", "cpu*", "stats"))
	if err != nil {
		return 0, err
	}
	var total int64
	for _, p := range cpus {
		f, err := os.Open(p)
		if err != nil {
			return total, fmt.Errorf("tracefs: %w", err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok || (k != "overrun" && k != "dropped events") {
				continue
			}
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				f.Close()
				return total, fmt.Errorf("tracefs: %s: %q: %w", p, sc.Text(), err)
			}
			total += n
		}
		f.Close()
	}
	return total, nil
}

// Close removes the instance (which disables its events and frees its
// buffers) and unmounts tracefs if Open mounted it. It is safe to call more
// than once and from a signal-handling goroutine.
func (in *Instance) Close() error {
	in.closeOnce.Do(func() {
		var errs []error
		if in.blk != nil || in.Dir == in.Root {
			// The top level: restore what was borrowed, then let
			// the next user in.
			if in.blk != nil {
				if err := in.blk.restore(in.Root); err != nil {
					errs = append(errs, err)
				}
			}
			if in.holdOld != nil {
				in.holdOld.Close()
			}
			if in.hold != nil {
				in.hold.Close()
			}
			if in.mounted != "" {
				errs = append(errs, unmountPrivate(in.mounted))
			}
			in.closeErr = errors.Join(errs...)
			return
		}
		if in.hold != nil {
			_ = os.WriteFile(filepath.Join(in.Dir, "tracing_on"), []byte("0"), 0)
			in.hold.Close()
		}
		if in.Dir != "" {
			if err := removeInstance(in.Dir); err != nil {
				errs = append(errs, err)
			}
		}
		if in.mounted != "" {
			if err := unmountPrivate(in.mounted); err != nil {
				errs = append(errs, err)
			}
		}
		in.closeErr = errors.Join(errs...)
	})
	return in.closeErr
}

// removeInstance removes an instance directory. A reader that is still
// closing its file may keep it busy for a moment, which the kernel signals
// with EBUSY and no notification; so it retries a bounded number of times.
func removeInstance(dir string) error {
	var err error
	for i := 0; i < 50; i++ {
		err = unix.Rmdir(dir)
		if err == nil || errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENODEV) {
			return nil
		}
		if !errors.Is(err, unix.EBUSY) {
			break
		}
		yieldBriefly(i)
	}
	return fmt.Errorf("tracefs: remove instance %s: %w", dir, err)
}

// mountTracefs returns a tracefs mount, making a private one when there is
// none; mounted is that private mount point, or "".
func mountTracefs() (root, mounted string, err error) {
	if err := reapMounts(); err != nil {
		return "", "", err
	}
	if m, ok := findTracefs(); ok {
		return m, "", nil
	}
	mp := filepath.Join(os.TempDir(), fmt.Sprintf("%s%d-%d", mountPrefix, os.Getpid(), seq.Add(1)))
	if err := os.Mkdir(mp, 0o700); err != nil {
		return "", "", fmt.Errorf("tracefs: mount point: %w", err)
	}
	if err := unix.Mount("nodev", mp, "tracefs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		os.Remove(mp)
		return "", "", fmt.Errorf("tracefs: mount tracefs on %s: %w", mp, err)
	}
	return mp, mp, nil
}

// findTracefs returns a tracefs mount point that is not one of droidprof's
// private ones (those go away with their owner).
func findTracefs() (string, bool) {
	mounts, err := readMounts()
	if err != nil {
		return "", false
	}
	for _, m := range mounts {
		if m.FSType == "tracefs" && !strings.HasPrefix(filepath.Base(m.MountPoint), mountPrefix) {
			return m.MountPoint, true
		}
	}
	return "", false
}

func readMounts() ([]fsinfo.Mount, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return fsinfo.ParseMountInfo(f)
}

// unmountPrivate unmounts a private mount point and removes it.
func unmountPrivate(mp string) error {
	var err error
	for i := 0; i < 50; i++ {
		err = unix.Unmount(mp, 0)
		if err == nil || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOENT) {
			if rerr := os.Remove(mp); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
				return fmt.Errorf("tracefs: remove mount point: %w", rerr)
			}
			return nil
		}
		if !errors.Is(err, unix.EBUSY) {
			break
		}
		yieldBriefly(i)
	}
	return fmt.Errorf("tracefs: unmount %s: %w", mp, err)
}

// Reap removes every droidprof instance and private tracefs mount that no
// live process holds open. It mounts tracefs privately for the time it
// takes when it is not mounted (instances outlive their mounts).
func Reap() error {
	if os.Geteuid() != 0 {
		return nil
	}
	root, mounted, err := mountTracefs()
	if err != nil {
		return err
	}
	err = errors.Join(reapInstances(root), reapBlkTracer(root))
	if mounted != "" {
		err = errors.Join(err, unmountPrivate(mounted))
	}
	return err
}

// reapInstances removes the abandoned droidprof instances under root; a
// busy one belongs to a live process and is left.
func reapInstances(root string) error {
	ents, err := os.ReadDir(filepath.Join(root, "instances"))
	if err != nil {
		return fmt.Errorf("tracefs: list instances: %w", err)
	}
	var errs []error
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), Prefix) || ownerAlive(e.Name(), Prefix) {
			continue
		}
		err := unix.Rmdir(filepath.Join(root, "instances", e.Name()))
		if err != nil && !gone(err) {
			errs = append(errs, fmt.Errorf("tracefs: reap instance %s: %w", e.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// ownerAlive says whether the process whose pid a droidprof name carries
// (prefix, pid, "-", sequence) still runs. A live process's instance or
// mount is never reaped, even in the moment between making it and opening
// the file that keeps it busy, when the kernel's busy rule alone would let
// a concurrent reaper take it. A name without a pid is not protected.
func ownerAlive(name, prefix string) bool {
	pid, _, _ := strings.Cut(strings.TrimPrefix(name, prefix), "-")
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	err = unix.Kill(n, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// gone says whether removing an instance failed because it is being
// removed or was removed already (by a concurrent reaper), or is busy:
// none of these is the reaper's error.
func gone(err error) bool {
	return errors.Is(err, unix.EBUSY) || errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENODEV)
}

// reapMounts unmounts private tracefs mounts no live process uses.
func reapMounts() error {
	mounts, err := readMounts()
	if err != nil {
		return fmt.Errorf("tracefs: %w", err)
	}
	var errs []error
	for _, m := range mounts {
		if m.FSType != "tracefs" || !strings.HasPrefix(filepath.Base(m.MountPoint), mountPrefix) ||
			ownerAlive(filepath.Base(m.MountPoint), mountPrefix) {
			continue
		}
		err := unix.Unmount(m.MountPoint, 0)
		switch {
		case err == nil:
			os.Remove(m.MountPoint)
		case errors.Is(err, unix.EBUSY), errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOENT):
		default:
			errs = append(errs, fmt.Errorf("tracefs: reap mount %s: %w", m.MountPoint, err))
		}
	}
	return errors.Join(errs...)
}

// Instances lists the names of the droidprof instances that exist now,
// mounting tracefs privately for the time it takes when it is not mounted.
func Instances() (names []string, err error) {
	root, mounted, err := mountTracefs()
	if err != nil {
		return nil, err
	}
	if mounted != "" {
		defer func() { err = errors.Join(err, unmountPrivate(mounted)) }()
	}
	ents, err := os.ReadDir(filepath.Join(root, "instances"))
	if err != nil {
		return nil, fmt.Errorf("tracefs: list instances: %w", err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), Prefix) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}
