package tracefs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Stats describe a finished capture.
type Stats struct {
	Bytes int64 // text bytes copied
	Lines int64 // lines copied, LOST markers included
	// Lost is the sum of the "[LOST n EVENTS]" markers the kernel put in
	// the text: events overwritten before they were read.
	Lost int64
	// Overrun is what the per-CPU statistics count as overrun or dropped
	// at the end; it covers losses the text did not mark.
	Overrun int64
}

// Capture is a running copy of the instance's trace_pipe to a writer.
type Capture struct {
	in      *Instance
	wakeR   int
	wakeW   int
	done    chan struct{}
	stats   Stats
	err     error
	stopped sync.Once
}

// Start turns tracing on and copies the instance's trace text to w, as the
// kernel formats it (the ftrace text format ParseLine reads), until Stop.
func (in *Instance) Start(w io.Writer) (*Capture, error) {
	fd, err := unix.Open(filepath.Join(in.Dir, "trace_pipe"), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("tracefs: open %s/trace_pipe: %w", in.Dir, err)
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("tracefs: wake pipe: %w", err)
	}
	c := &Capture{in: in, wakeR: p[0], wakeW: p[1], done: make(chan struct{})}
	if err := in.SetTracing(true); err != nil {
		unix.Close(fd)
		unix.Close(p[0])
		unix.Close(p[1])
		return nil, err
	}
	go c.run(fd, w)
	return c, nil
}

// run is the copy loop: it sleeps in poll until the kernel has trace data
// or Stop wakes it, and after Stop drains what is left.
func (c *Capture) run(fd int, w io.Writer) {
	defer close(c.done)
	defer unix.Close(fd)
	defer unix.Close(c.wakeR)
	lc := &lineCounter{}
	buf := make([]byte, 1<<16)
	stopping := false
	for {
		if !stopping {
			fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}, {Fd: int32(c.wakeR), Events: unix.POLLIN}}
			if _, err := unix.Poll(fds, -1); err != nil {
				if errors.Is(err, unix.EINTR) {
					continue
				}
				c.err = fmt.Errorf("tracefs: poll trace_pipe: %w", err)
				return
			}
			if fds[1].Revents != 0 {
				stopping = true
				// Recording stops before the drain, so the drain ends.
				if err := c.in.SetTracing(false); err != nil {
					c.err = err
				}
			}
		}
		n, err := unix.Read(fd, buf)
		if n > 0 {
			c.stats.Bytes += int64(n)
			lc.add(buf[:n], &c.stats)
			if _, werr := w.Write(buf[:n]); werr != nil {
				c.err = fmt.Errorf("tracefs: write trace: %w", werr)
				return
			}
			continue
		}
		switch {
		case err == nil || errors.Is(err, unix.EAGAIN):
			if stopping {
				return
			}
		case errors.Is(err, unix.EINTR):
		default:
			c.err = fmt.Errorf("tracefs: read trace_pipe: %w", err)
			return
		}
	}
}

// Stop turns tracing off, copies what the buffers still hold and returns
// the capture's statistics.
func (c *Capture) Stop() (Stats, error) {
	c.stopped.Do(func() {
		_, _ = unix.Write(c.wakeW, []byte{1})
		<-c.done
		unix.Close(c.wakeW)
		ov, err := c.in.Overruns()
		c.stats.Overrun = ov
		c.err = errors.Join(c.err, err)
	})
	return c.stats, c.err
}

// lineCounter counts lines and LOST markers across chunk boundaries.
type lineCounter struct{ partial []byte }

var lostMark = []byte("[LOST ")

func (l *lineCounter) add(p []byte, st *Stats) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(l.partial) < 256 {
				l.partial = append(l.partial, p...)
			}
			return
		}
		line := p[:i]
		if len(l.partial) > 0 {
			line = append(l.partial, line...)
			l.partial = l.partial[:0]
		}
		st.Lines++
		if n, ok := LostEvents(string(line)); ok {
			st.Lost += n
		}
		p = p[i+1:]
	}
}

// yieldBriefly backs off before the i-th retry of something the kernel
// reports busy without a notification for when it stops being busy.
func yieldBriefly(i int) {
	time.Sleep(time.Duration(i+1) * 2 * time.Millisecond)
}
