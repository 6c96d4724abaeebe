package tracefs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The kernel's blktrace has two faces: the relay files in debugfs that the
// userspace blktrace reads (refused under kernel lockdown), and the "blk"
// ftrace tracer, which prints the same records, formatted by blktrace's
// own code, into the trace buffer of the top-level tracefs instance. The
// tracer cannot run in a private instance (it is not in an instance's
// available_tracers), so using it means borrowing global state: the
// current tracer, tracing_on, the trace clock and buffer size of the top
// level, and the device's queue/trace/ settings. OpenBlkTracer borrows
// them under a lock and writes what it found to a state file first, so
// Close — or, after a kill -9, the next OpenBlkTracer or Reap — puts them
// back.

// ErrTracerBusy is returned when the top-level tracer or the device's
// trace is in use by someone else.
var ErrTracerBusy = errors.New("tracefs: the top-level tracer is in use")

// BlkStateFile holds what OpenBlkTracer changed, until Close restores it.
// Its lock is the file of the same name with ".lock" appended.
var BlkStateFile = "/run/droidprof-blktracer.json"

// DefaultBlkWait is how long OpenBlkTracer waits for another process's
// session to end when BlkOptions.Wait is 0.
const DefaultBlkWait = 2 * time.Minute

// blkState is what a blk tracer session found and must put back.
type blkState struct {
	Pid       int               `json:"pid"`
	Tracer    string            `json:"tracer"`
	TracingOn string            `json:"tracing_on"`
	Clock     string            `json:"clock"`
	BufferKB  string            `json:"buffer_size_kb"`
	Bin       string            `json:"bin"`       // options/bin
	DevTrace  string            `json:"dev_trace"` // /sys/dev/block/M:m/trace
	DevValues map[string]string `json:"dev_values"`
}

// BlkOptions configure the blk tracer.
type BlkOptions struct {
	// BufferKB is the top-level ring buffer per CPU in KiB (0 keeps it).
	BufferKB int
	// Clock is the trace clock ("" keeps it), as Options.Clock.
	Clock string
	// ActMask is blktrace's action mask (e.g. "queue,issue,complete";
	// "" keeps the kernel's default: everything).
	ActMask string
	// Binary prints the records in binary (the top level's "bin"
	// option): blktrace's own records, which ReadBlkBinary decodes and
	// WriteBlktraceFiles turns into files blkparse reads.
	Binary bool
	// Wait is how long to wait for another process's session to end
	// before giving up with ErrTracerBusy (0: DefaultBlkWait).
	Wait time.Duration
}

// OpenBlkTracer sets up the kernel's blk tracer on the block device dev
// (a path such as /dev/loop3) in the top-level instance, with recording
// off (Start turns it on, as for a private Instance). Only one user at a
// time: a concurrent OpenBlkTracer of another droidprof process waits for
// the first one's Close, at most opts.Wait, then gives ErrTracerBusy
// naming the holder. A top-level tracer or event set up by anything else
// is left alone and gives ErrTracerBusy.
func OpenBlkTracer(dev string, opts BlkOptions) (in *Instance, err error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("tracefs: kernel tracing needs root")
	}
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		return nil, fmt.Errorf("tracefs: %w", err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return nil, fmt.Errorf("tracefs: %s is not a block device", dev)
	}
	devTrace := fmt.Sprintf("/sys/dev/block/%d:%d/trace", unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev)))
	if _, err := os.Stat(filepath.Join(devTrace, "enable")); err != nil {
		return nil, fmt.Errorf("tracefs: %s has no blktrace controls (CONFIG_BLK_DEV_IO_TRACE): %w", dev, err)
	}
	root, mounted, err := mountTracefs()
	if err != nil {
		return nil, err
	}
	in = &Instance{Name: "top-level (blk)", Dir: root, Root: root, mounted: mounted}
	fail := func(err error) (*Instance, error) {
		in.Close()
		return nil, err
	}
	wait := opts.Wait
	if wait <= 0 {
		wait = DefaultBlkWait
	}
	lock, err := lockBlk(wait)
	if err != nil {
		return fail(err)
	}
	in.hold = lock
	// Earlier droidprof versions locked current_tracer instead; holding
	// that too keeps them out while both kinds run on one machine.
	if in.holdOld, err = lockFile(filepath.Join(root, "current_tracer"), os.O_RDONLY, wait); err != nil {
		return fail(err)
	}
	if err := restoreBlkState(root); err != nil {
		return fail(err)
	}
	s := blkState{Pid: os.Getpid(), DevTrace: devTrace, DevValues: map[string]string{}}
	for _, v := range []struct {
		dst  *string
		file string
	}{{&s.Tracer, "current_tracer"}, {&s.TracingOn, "tracing_on"}, {&s.Clock, "trace_clock"}, {&s.BufferKB, "buffer_size_kb"}, {&s.Bin, "options/bin"}} {
		if *v.dst, err = readControl(filepath.Join(root, v.file)); err != nil {
			return fail(err)
		}
	}
	s.Clock = selectedClock(s.Clock)
	// Before anything expanded it, the top-level buffer reads
	// "7 (expanded: 1408)"; putting back the expanded size is what
	// the next user would get anyway.
	if _, exp, ok := strings.Cut(s.BufferKB, "(expanded: "); ok {
		s.BufferKB = strings.TrimSuffix(exp, ")")
	}
	if s.Tracer != "nop" {
		return fail(fmt.Errorf("%w: current_tracer is %s", ErrTracerBusy, s.Tracer))
	}
	if ev, err := readControl(filepath.Join(root, "set_event")); err != nil {
		return fail(err)
	} else if ev != "" {
		return fail(fmt.Errorf("%w: events enabled at the top level: %s", ErrTracerBusy, strings.ReplaceAll(ev, "\n", " ")))
	}
	for _, f := range []string{"enable", "act_mask", "start_lba", "end_lba"} {
		v, err := readControl(filepath.Join(devTrace, f))
		if err != nil {
			return fail(err)
		}
		s.DevValues[f] = v
	}
	if s.DevValues["enable"] != "0" {
		return fail(fmt.Errorf("%w: blktrace is already enabled on %s", ErrTracerBusy, dev))
	}
	// enable first: restoring writes it back last, after the others.
	s.DevValues = map[string]string{"enable": "0"}
	if err := writeBlkState(&s); err != nil {
		return fail(err)
	}
	in.blk = &s
	steps := []struct{ file, value string }{{filepath.Join(root, "tracing_on"), "0"}}
	if opts.Clock != "" {
		steps = append(steps, struct{ file, value string }{filepath.Join(root, "trace_clock"), opts.Clock})
	}
	if opts.BufferKB > 0 {
		steps = append(steps, struct{ file, value string }{filepath.Join(root, "buffer_size_kb"), strconv.Itoa(opts.BufferKB)})
	}
	// The device's trace is set up before the tracer so its first events
	// reach the buffer; act_mask can only be set once it is enabled.
	steps = append(steps, struct{ file, value string }{filepath.Join(devTrace, "enable"), "1"})
	if opts.ActMask != "" {
		steps = append(steps, struct{ file, value string }{filepath.Join(devTrace, "act_mask"), opts.ActMask})
	}
	steps = append(steps, struct{ file, value string }{filepath.Join(root, "current_tracer"), "blk"})
	if opts.Binary {
		steps = append(steps, struct{ file, value string }{filepath.Join(root, "options/bin"), "1"})
	}
	for _, st := range steps {
		if err := os.WriteFile(st.file, []byte(st.value), 0); err != nil {
			return fail(fmt.Errorf("tracefs: write %q to %s: %w", st.value, st.file, err))
		}
	}
	return in, nil
}

// lockBlk takes the lock that serialises borrowing the top-level instance
// among processes: an flock on BlkStateFile+".lock", released by the
// kernel when its holder dies, so a killed session never blocks the next
// one. (The state file itself is replaced by rename and removed when a
// session ends, so it cannot carry the lock.) It waits up to wait — 0 is
// one try — and then returns ErrTracerBusy with the holder's pid, which
// the holder writes into the lock file. wait < 0 returns nil, nil at once
// when the lock is held (for the reaper, which leaves live sessions be).
func lockBlk(wait time.Duration) (*os.File, error) {
	f, err := lockFile(BlkStateFile+".lock", os.O_RDWR|os.O_CREATE, wait)
	if err != nil || f == nil {
		return nil, err
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// lockFile takes an flock on name, opened with flag, as lockBlk says.
func lockFile(name string, flag int, wait time.Duration) (*os.File, error) {
	f, err := os.OpenFile(name, flag, 0o600)
	if err != nil {
		return nil, fmt.Errorf("tracefs: blk tracer lock: %w", err)
	}
	deadline := time.Now().Add(wait)
	// Polled rather than a blocking flock: a blocked flock cannot be
	// given a deadline. The pause grows to 100 ms, which is small
	// beside a trace session.
	pause := time.Millisecond
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if !errors.Is(err, unix.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("tracefs: blk tracer lock %s: %w", name, err)
		}
		if wait < 0 {
			f.Close()
			return nil, nil
		}
		if !time.Now().Before(deadline) {
			holder, _ := os.ReadFile(name)
			f.Close()
			return nil, fmt.Errorf("%w: process %s has held %s for more than %v", ErrTracerBusy,
				strings.TrimSpace(string(holder)), name, wait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 100*time.Millisecond)
	}
	return f, nil
}

// selectedClock picks the bracketed clock out of trace_clock's list.
func selectedClock(list string) string {
	if i := strings.IndexByte(list, '['); i >= 0 {
		if j := strings.IndexByte(list[i:], ']'); j > 0 {
			return list[i+1 : i+j]
		}
	}
	return list
}

func readControl(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("tracefs: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

func writeBlkState(s *blkState) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	tmp := BlkStateFile + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("tracefs: blk tracer state: %w", err)
	}
	_, werr := f.Write(data)
	// On disk before the global state changes: a crash right after must
	// still find it.
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("tracefs: blk tracer state: %w", err)
	}
	if err := os.Rename(tmp, BlkStateFile); err != nil {
		return fmt.Errorf("tracefs: blk tracer state: %w", err)
	}
	return nil
}

// restoreBlkState puts back what a blk tracer session changed, from the
// state file; the caller holds the top-level lock, so a file found here
// was left by a session that died. No file: nothing to do.
func restoreBlkState(root string) error {
	data, err := os.ReadFile(BlkStateFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tracefs: blk tracer state: %w", err)
	}
	var s blkState
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("tracefs: blk tracer state %s: %w", BlkStateFile, err)
	}
	return s.restore(root)
}

// restore undoes a session: the tracer off first (which stops the
// recording), then the device, then the top level's settings; the state
// file goes once all of it is back.
func (s *blkState) restore(root string) error {
	var errs []error
	put := func(p, v string) {
		if v == "" {
			return
		}
		if err := os.WriteFile(p, []byte(v), 0); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("tracefs: restore %s: %w", p, err))
		}
	}
	put(filepath.Join(root, "tracing_on"), "0")
	put(filepath.Join(root, "current_tracer"), s.Tracer)
	// A device that went away took its trace with it (ENOENT/ENXIO).
	if s.DevTrace != "" {
		if err := os.WriteFile(filepath.Join(s.DevTrace, "enable"), []byte(s.DevValues["enable"]), 0); err != nil &&
			!errors.Is(err, os.ErrNotExist) && !errors.Is(err, unix.ENXIO) && !errors.Is(err, unix.ENODEV) {
			errs = append(errs, fmt.Errorf("tracefs: restore %s/enable: %w", s.DevTrace, err))
		}
	}
	put(filepath.Join(root, "options/bin"), s.Bin)
	put(filepath.Join(root, "trace_clock"), s.Clock)
	put(filepath.Join(root, "buffer_size_kb"), s.BufferKB)
	put(filepath.Join(root, "tracing_on"), s.TracingOn)
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if err := os.Remove(BlkStateFile); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("tracefs: %w", err)
	}
	return nil
}

// reapBlkTracer restores a blk tracer session that died, unless a live one
// holds the lock.
func reapBlkTracer(root string) error {
	if _, err := os.Stat(BlkStateFile); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	lock, err := lockBlk(-1)
	if err != nil || lock == nil {
		return err
	}
	defer lock.Close()
	// A live session of an earlier version holds only current_tracer's
	// lock.
	old, err := lockFile(filepath.Join(root, "current_tracer"), os.O_RDONLY, -1)
	if err != nil || old == nil {
		return err
	}
	defer old.Close()
	return restoreBlkState(root)
}

// BlkTracerAvailable says why the kernel's blk tracer cannot be used here,
// or nil when it can: no tracefs, or a kernel built without
// CONFIG_BLK_DEV_IO_TRACE.
func BlkTracerAvailable() error {
	if os.Geteuid() != 0 {
		return errors.New("tracefs: kernel tracing needs root")
	}
	root, mounted, err := mountTracefs()
	if err != nil {
		return err
	}
	if mounted != "" {
		defer unmountPrivate(mounted)
	}
	list, err := readControl(filepath.Join(root, "available_tracers"))
	if err != nil {
		return err
	}
	for _, t := range strings.Fields(list) {
		if t == "blk" {
			return nil
		}
	}
	return fmt.Errorf("tracefs: no blk tracer in available_tracers (%s): kernel built without CONFIG_BLK_DEV_IO_TRACE", list)
}
