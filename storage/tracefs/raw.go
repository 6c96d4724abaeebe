package tracefs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Files of a raw capture directory besides the per-CPU page files.
const (
	rawFormatsDir = "formats"        // header_page, header_event and <system>/<event>/format
	rawCmdlines   = "saved_cmdlines" // pid → comm, as the kernel cached it
	rawTGIDs      = "saved_tgids"    // pid → tgid (record-tgid)
)

// rawCPUFile names the file holding CPU cpu's ring-buffer pages.
func rawCPUFile(cpu int) string { return fmt.Sprintf("cpu%d.raw", cpu) }

// RawStats describe a finished binary capture.
type RawStats struct {
	Bytes int64 // ring-buffer pages written, in bytes
	Pages int64
	// Overrun is what the per-CPU statistics count as overrun or dropped
	// at the end. The pages' own lost-event flags are counted when they
	// are decoded (DecodeStats.Lost).
	Overrun int64
	// Wakeups counts the readers' wakeups by the kernel before Stop
	// (buffer_percent reached), over all CPUs: each one is a reader
	// that may have preempted the workload.
	Wakeups int64
}

// RawCapture is a running copy of the instance's binary per-CPU ring
// buffers (per_cpu/cpuN/trace_pipe_raw) into files, one reader per CPU. The
// pages move into the files by splice(2), kernel to pipe to file, without
// being copied into or looked at by this process: the cost of the capture
// during the workload is the kernel's recording and a wakeup per batch of
// pages, not formatting and parsing text. DecodeRaw turns the files into
// the ftrace text the text capture gives, after the capture.
type RawCapture struct {
	in      *Instance
	dir     string
	wakeR   int
	wakeW   int
	wg      sync.WaitGroup
	cpus    []*rawCPU
	stats   RawStats
	err     error
	stopped sync.Once
}

// rawCPU is one CPU's reader.
type rawCPU struct {
	cpu     int
	fd      int // trace_pipe_raw
	pr      int // pipe, read end
	pw      int // pipe, write end
	out     *os.File
	bytes   int64
	wakeups int64
	err     error
}

// StartRaw turns tracing on and copies the instance's ring-buffer pages
// into dir (made if needed) until Stop: cpuN.raw per CPU, and the format
// files DecodeRaw needs to read them without the kernel (formats/). A
// reader is woken when its buffer is buffer_percent full (at least 1 %:
// splice moves only full pages, so a reader woken at every event would
// spin on the page being written).
func (in *Instance) StartRaw(dir string) (*RawCapture, error) {
	return in.startRaw(dir, true)
}

// startRaw starts the readers; on, whether it turns recording on (a test
// drains a buffer recorded earlier without recording more).
func (in *Instance) startRaw(dir string, on bool) (c *RawCapture, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tracefs: raw capture directory: %w", err)
	}
	if err := in.saveFormats(filepath.Join(dir, rawFormatsDir)); err != nil {
		return nil, err
	}
	pct, err := os.ReadFile(filepath.Join(in.Dir, "buffer_percent"))
	if err != nil {
		return nil, fmt.Errorf("tracefs: %w", err)
	}
	if strings.TrimSpace(string(pct)) == "0" {
		if err := in.write("buffer_percent", "1"); err != nil {
			return nil, err
		}
	}
	cpuDirs, err := filepath.Glob(filepath.Join(in.Dir, "per_cpu", "cpu*"))
	if err != nil {
		return nil, fmt.Errorf("tracefs: per-CPU buffers: %w", err)
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		return nil, fmt.Errorf("tracefs: wake pipe: %w", err)
	}
	c = &RawCapture{in: in, dir: dir, wakeR: p[0], wakeW: p[1]}
	defer func() {
		if err != nil {
			for _, rc := range c.cpus {
				rc.close()
			}
			unix.Close(c.wakeR)
			unix.Close(c.wakeW)
		}
	}()
	for _, d := range cpuDirs {
		n, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "cpu"))
		if err != nil {
			continue
		}
		rc := &rawCPU{cpu: n, fd: -1, pr: -1, pw: -1}
		c.cpus = append(c.cpus, rc)
		if rc.fd, err = unix.Open(filepath.Join(d, "trace_pipe_raw"), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0); err != nil {
			return c, fmt.Errorf("tracefs: open %s/trace_pipe_raw: %w", d, err)
		}
		if err := unix.Pipe2(p[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
			return c, fmt.Errorf("tracefs: splice pipe: %w", err)
		}
		rc.pr, rc.pw = p[0], p[1]
		// A larger pipe takes more pages per splice; the default (16
		// pages) is kept when the system refuses.
		_, _ = unix.FcntlInt(uintptr(rc.pw), unix.F_SETPIPE_SZ, 1<<20)
		if rc.out, err = os.Create(filepath.Join(dir, rawCPUFile(n))); err != nil {
			return c, fmt.Errorf("tracefs: %w", err)
		}
	}
	if len(c.cpus) == 0 {
		return c, fmt.Errorf("tracefs: %s/per_cpu has no CPUs", in.Dir)
	}
	if on {
		if err := in.SetTracing(true); err != nil {
			return c, err
		}
	}
	for _, rc := range c.cpus {
		c.wg.Add(1)
		go func(rc *rawCPU) {
			defer c.wg.Done()
			rc.err = rc.run(c.wakeR)
		}(rc)
	}
	return c, nil
}

// saveFormats copies header_page, header_event and the format file of
// every event the instance enabled into dir, so that the pages can be
// decoded after the instance is gone (or on another machine).
func (in *Instance) saveFormats(dir string) error {
	copyFile := func(src, dst string) error {
		data, err := os.ReadFile(src)
		if err != nil {
			return fmt.Errorf("tracefs: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("tracefs: %w", err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("tracefs: %w", err)
		}
		return nil
	}
	for _, h := range []string{"header_page", "header_event"} {
		if err := copyFile(filepath.Join(in.Dir, "events", h), filepath.Join(dir, h)); err != nil {
			return err
		}
	}
	for _, ev := range in.events {
		// A whole system ("jbd2") stands for each of its events.
		pattern := filepath.Join(in.Dir, "events", ev, "format")
		if !strings.Contains(ev, "/") {
			pattern = filepath.Join(in.Dir, "events", ev, "*", "format")
		}
		files, err := filepath.Glob(pattern)
		if err != nil {
			return fmt.Errorf("tracefs: %w", err)
		}
		for _, f := range files {
			rel, _ := filepath.Rel(filepath.Join(in.Dir, "events"), f)
			if err := copyFile(f, filepath.Join(dir, rel)); err != nil {
				return err
			}
		}
	}
	return nil
}

// spliceBytes is how much one splice asks for: the kernel hands over
// whole pages, as many as the pipe holds.
const spliceBytes = 256 << 10

// run moves full pages from the ring buffer to the file while recording
// runs, then drains: full pages by splice, the partly filled last page
// by read.
func (rc *rawCPU) run(wake int) error {
	stopping := false
	for {
		if !stopping {
			fds := []unix.PollFd{{Fd: int32(rc.fd), Events: unix.POLLIN}, {Fd: int32(wake), Events: unix.POLLIN}}
			if _, err := unix.Poll(fds, -1); err != nil {
				if errors.Is(err, unix.EINTR) {
					continue
				}
				return fmt.Errorf("tracefs: poll cpu%d trace_pipe_raw: %w", rc.cpu, err)
			}
			// Stop turned recording off before it woke us.
			stopping = fds[1].Revents != 0
			if !stopping && fds[0].Revents != 0 {
				rc.wakeups++
			}
		}
		n, err := unix.Splice(rc.fd, nil, rc.pw, nil, spliceBytes, unix.SPLICE_F_NONBLOCK|unix.SPLICE_F_MOVE)
		if n > 0 {
			if err := rc.flush(int(n)); err != nil {
				return err
			}
			continue
		}
		switch {
		case err == nil || errors.Is(err, unix.EAGAIN):
			if stopping {
				return rc.drainPartial()
			}
		case errors.Is(err, unix.EINTR):
		default:
			return fmt.Errorf("tracefs: splice cpu%d trace_pipe_raw: %w", rc.cpu, err)
		}
	}
}

// flush moves n bytes from the pipe to the file.
func (rc *rawCPU) flush(n int) error {
	for n > 0 {
		m, err := unix.Splice(rc.pr, nil, int(rc.out.Fd()), nil, n, unix.SPLICE_F_MOVE)
		if err != nil {
			if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
				continue
			}
			return fmt.Errorf("tracefs: splice cpu%d pages to %s: %w", rc.cpu, rc.out.Name(), err)
		}
		n -= int(m)
		rc.bytes += m
	}
	return nil
}

// drainPartial reads the pages splice does not give: the one the writer
// was on when recording stopped. read(2) copies whole pages, the unused
// tail included; the page header says how much of it is data.
func (rc *rawCPU) drainPartial() error {
	buf := make([]byte, 1<<16)
	for {
		n, err := unix.Read(rc.fd, buf)
		if n > 0 {
			if _, err := rc.out.Write(buf[:n]); err != nil {
				return fmt.Errorf("tracefs: %w", err)
			}
			rc.bytes += int64(n)
			continue
		}
		switch {
		case err == nil || errors.Is(err, unix.EAGAIN):
			return nil
		case errors.Is(err, unix.EINTR):
		default:
			return fmt.Errorf("tracefs: read cpu%d trace_pipe_raw: %w", rc.cpu, err)
		}
	}
}

func (rc *rawCPU) close() error {
	for _, fd := range []int{rc.fd, rc.pr, rc.pw} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
	if rc.out != nil {
		return rc.out.Close()
	}
	return nil
}

// Stop turns recording off, drains the buffers into the files, saves the
// kernel's pid → comm and pid → tgid caches beside them and returns the
// capture's statistics.
func (c *RawCapture) Stop() (RawStats, error) {
	c.stopped.Do(func() {
		errs := []error{c.in.SetTracing(false)}
		_, _ = unix.Write(c.wakeW, []byte{1})
		c.wg.Wait()
		unix.Close(c.wakeR)
		unix.Close(c.wakeW)
		for _, rc := range c.cpus {
			errs = append(errs, rc.err, rc.close())
			c.stats.Bytes += rc.bytes
			c.stats.Wakeups += rc.wakeups
		}
		c.stats.Pages = c.stats.Bytes / int64(os.Getpagesize())
		ov, err := c.in.Overruns()
		c.stats.Overrun = ov
		errs = append(errs, err, c.saveTaskNames())
		c.err = errors.Join(errs...)
	})
	return c.stats, c.err
}

// saveTaskNames copies saved_cmdlines and saved_tgids: the pages hold
// pids only, and the text capture prints the kernel's names for them.
func (c *RawCapture) saveTaskNames() error {
	var errs []error
	for _, name := range []string{rawCmdlines, rawTGIDs} {
		src := filepath.Join(c.in.Dir, name)
		if _, err := os.Stat(src); err != nil {
			src = filepath.Join(c.in.Root, name) // kept at the top level only
		}
		data, err := os.ReadFile(src)
		if err != nil {
			errs = append(errs, fmt.Errorf("tracefs: %w", err))
			continue
		}
		if err := os.WriteFile(filepath.Join(c.dir, name), data, 0o644); err != nil {
			errs = append(errs, fmt.Errorf("tracefs: %w", err))
		}
	}
	return errors.Join(errs...)
}

// rawCPUs lists the CPU numbers of a raw capture directory's page files.
func rawCPUs(dir string) ([]int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cpu*.raw"))
	if err != nil {
		return nil, err
	}
	var cpus []int
	for _, f := range files {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "cpu"), ".raw"))
		if err == nil {
			cpus = append(cpus, n)
		}
	}
	sort.Ints(cpus)
	if len(cpus) == 0 {
		return nil, fmt.Errorf("tracefs: %s: no cpuN.raw page files", dir)
	}
	return cpus, nil
}
