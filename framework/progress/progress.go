// Package progress draws how far a run is: a bar with rate and ETA on a
// terminal, one plain line per step otherwise (logs, CI).
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"golang.org/x/term"
)

// New returns a bar when w is a terminal and plain lines otherwise.
func New(w io.Writer) *Reporter {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &Reporter{w: w, tty: tty, now: time.Now}
}

// Reporter implements runner.Progress.
type Reporter struct {
	w   io.Writer
	tty bool
	now func() time.Time

	mu        sync.Mutex
	start     time.Time
	i, n      int
	id        string
	inner     *api.Progress
	lastDraw  time.Time
	drawnWide int
}

// Step starts step i of n.
func (r *Reporter) Step(i, n int, id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.start.IsZero() {
		r.start = r.now()
	}
	r.i, r.n, r.id, r.inner = i, n, id, nil
	if !r.tty {
		fmt.Fprintf(r.w, "[%d/%d] %s\n", i+1, n, id)
		return
	}
	r.draw(true)
}

// Update shows progress inside the current step (terminal only).
func (r *Reporter) Update(p *api.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inner = p
	if r.tty {
		r.draw(false)
	}
}

// Done ends the display.
func (r *Reporter) Done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tty && r.drawnWide > 0 {
		fmt.Fprintf(r.w, "\r%s\r", strings.Repeat(" ", r.drawnWide))
	}
	if !r.start.IsZero() {
		fmt.Fprintf(r.w, "%d steps in %s\n", r.n, r.now().Sub(r.start).Round(time.Millisecond))
	}
}

// Line renders the bar for the current state; split out to be testable.
func (r *Reporter) Line() string {
	frac := 0.0
	if r.n > 0 {
		inner := 0.0
		if p := r.inner; p != nil && p.Total > 0 {
			inner = min(p.Done/p.Total, 1)
		}
		frac = (float64(r.i) + inner) / float64(r.n)
	}
	const width = 24
	filled := int(frac * width)
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", width-filled)
	elapsed := r.now().Sub(r.start)
	eta := "?"
	rate := "?"
	if frac > 0 && elapsed > 0 {
		eta = (time.Duration(float64(elapsed)/frac) - elapsed).Round(time.Second).String()
		rate = fmt.Sprintf("%.2f steps/s", frac*float64(r.n)/elapsed.Seconds())
	}
	detail := ""
	if p := r.inner; p != nil && p.Total > 0 {
		detail = fmt.Sprintf(" %.0f%%", 100*min(p.Done/p.Total, 1))
	}
	return fmt.Sprintf("[%s] %d/%d %s%s  %s  ETA %s", bar, r.i+1, r.n, r.id, detail, rate, eta)
}

func (r *Reporter) draw(force bool) {
	now := r.now()
	if !force && now.Sub(r.lastDraw) < 100*time.Millisecond {
		return
	}
	r.lastDraw = now
	line := r.Line()
	pad := ""
	if len(line) < r.drawnWide {
		pad = strings.Repeat(" ", r.drawnWide-len(line))
	}
	r.drawnWide = len(line)
	fmt.Fprintf(r.w, "\r%s%s", line, pad)
}
