package most

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/droidprof/droidprof/storage/tracefs"
	"golang.org/x/sys/unix"
)

// OracleMatch compares our capture's requests with those the kernel's own
// blktrace code recorded on the same device at the same time. Both sides
// count the requests that completed inside the window in which both
// traces were certainly recording (CLOCK_MONOTONIC, the clock of both
// traces); a request is its (sector, size, direction), matched as a
// multiset.
type OracleMatch struct {
	Tracer      string  `json:"tracer"` // "blk": the blk ftrace tracer
	WindowStart int64   `json:"window_start_ns"`
	WindowEnd   int64   `json:"window_end_ns"`
	Ours        int     `json:"ours"`   // our requests in the window
	Theirs      int     `json:"theirs"` // blktrace's requests in the window
	Matched     int     `json:"matched"`
	OursPct     float64 `json:"ours_matched_pct"`   // Matched / Ours
	TheirsPct   float64 `json:"theirs_matched_pct"` // Matched / Theirs
	// Outside counts requests of either trace that completed outside the
	// window (left out of the comparison: one trace was not recording).
	OursOutside   int `json:"ours_outside"`
	TheirsOutside int `json:"theirs_outside"`
	// Unmatched lists, for explanation, the first requests of each side
	// that the other does not have.
	OursUnmatched   []IO `json:"ours_unmatched,omitempty"`
	TheirsUnmatched []IO `json:"theirs_unmatched,omitempty"`
}

// reqKey is what both traces must agree on for a request.
type reqKey struct {
	sector  uint64
	sectors uint32
	dir     string
}

func keyOf(o *IO) reqKey { return reqKey{o.Sector, o.Sectors, o.Dir()} }

// MatchRequests matches two traces' requests that completed in [from, to]
// (nanoseconds of their common clock).
func MatchRequests(ours, theirs []IO, from, to int64) *OracleMatch {
	m := &OracleMatch{WindowStart: from, WindowEnd: to}
	in := func(ios []IO, outside *int) []IO {
		var r []IO
		for _, o := range ios {
			if o.Complete >= from && o.Complete <= to {
				r = append(r, o)
			} else {
				*outside++
			}
		}
		return r
	}
	a, b := in(ours, &m.OursOutside), in(theirs, &m.TheirsOutside)
	m.Ours, m.Theirs = len(a), len(b)
	left := map[reqKey]int{}
	for i := range b {
		left[keyOf(&b[i])]++
	}
	for i := range a {
		k := keyOf(&a[i])
		if left[k] > 0 {
			left[k]--
			m.Matched++
		} else if len(m.OursUnmatched) < 20 {
			m.OursUnmatched = append(m.OursUnmatched, a[i])
		}
	}
	// Theirs unmatched: those left over, in trace order.
	for i := range b {
		if len(m.TheirsUnmatched) >= 20 {
			break
		}
		if k := keyOf(&b[i]); left[k] > 0 {
			left[k]--
			m.TheirsUnmatched = append(m.TheirsUnmatched, b[i])
		}
	}
	pct := func(n, of int) float64 {
		if of == 0 {
			return 100
		}
		return 100 * float64(n) / float64(of)
	}
	m.OursPct, m.TheirsPct = pct(m.Matched, m.Ours), pct(m.Matched, m.Theirs)
	return m
}

// oracle is a blk tracer session running beside the capture.
type oracle struct {
	in   *tracefs.Instance
	c    *tracefs.Capture
	f    *os.File
	bw   *bufio.Writer
	path string
	done bool
}

// startOracle starts the kernel's blk tracer on the step's device, writing
// its text to the step's BlkFile; it is set up before our capture starts
// and stopped after it stops, so its recording covers ours.
func startOracle(e env) (o *oracle, err error) {
	if err := tracefs.BlkTracerAvailable(); err != nil {
		return nil, fmt.Errorf("most: oracle = blk: %w", err)
	}
	in, err := tracefs.OpenBlkTracer(e.Device, tracefs.BlkOptions{BufferKB: 8192, Clock: "mono"})
	if err != nil {
		return nil, fmt.Errorf("most: oracle = blk: %w", err)
	}
	o = &oracle{in: in, path: filepath.Join(e.OutDir, BlkFile)}
	defer func() {
		if err != nil {
			o.close()
		}
	}()
	if o.f, err = os.Create(o.path); err != nil {
		return o, fmt.Errorf("most: %w", err)
	}
	o.bw = bufio.NewWriterSize(o.f, 1<<20)
	if o.c, err = in.Start(o.bw); err != nil {
		return o, err
	}
	return o, nil
}

// close stops the blk tracer and gives the top level back; safe to call
// again.
func (o *oracle) close() error {
	if o.done {
		return nil
	}
	o.done = true
	var errs []error
	if o.c != nil {
		st, err := o.c.Stop()
		errs = append(errs, err)
		if st.Lost > 0 || st.Overrun > 0 {
			errs = append(errs, fmt.Errorf("most: the blktrace oracle lost %d events (%d overrun)", st.Lost, st.Overrun))
		}
	}
	errs = append(errs, o.in.Close())
	if o.f != nil {
		errs = append(errs, o.bw.Flush(), o.f.Close())
	}
	return errors.Join(errs...)
}

// finish stops the oracle and matches its requests with those of our
// trace in the window [from, to].
func (o *oracle) finish(ours string, from, to int64) (*OracleMatch, error) {
	if err := o.close(); err != nil {
		return nil, err
	}
	read := func(p string) ([]IO, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("most: %w", err)
		}
		defer f.Close()
		att, err := Attribute(f, Meta{Format: "ftrace"}, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("most: %s: %w", filepath.Base(p), err)
		}
		return att.IOs, nil
	}
	a, err := read(ours)
	if err != nil {
		return nil, err
	}
	b, err := read(o.path)
	if err != nil {
		return nil, err
	}
	m := MatchRequests(a, b, from, to)
	m.Tracer = "blk"
	return m, nil
}

// monoNow is CLOCK_MONOTONIC in nanoseconds, the "mono" trace clock.
func monoNow() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic(err) // CLOCK_MONOTONIC always exists on Linux
	}
	return ts.Nano()
}
