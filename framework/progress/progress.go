// Package progress draws how far a run is: a bar with rate and ETA on a
// terminal, plain lines otherwise (logs, CI) — one per step, with an ETA,
// and one every little while during a long step.
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

// PlainEvery is how often a long step prints a progress line when the
// output is not a terminal: often enough to show it is alive, rarely enough
// not to flood a CI log.
const PlainEvery = 10 * time.Second

// New returns a bar when w is a terminal and plain lines otherwise.
func New(w io.Writer) *Reporter {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &Reporter{w: w, tty: tty, now: time.Now, every: PlainEvery}
}

// Reporter implements runner.Progress.
type Reporter struct {
	w     io.Writer
	tty   bool
	now   func() time.Time
	every time.Duration // plain lines during a step at most this often

	mu        sync.Mutex
	start     time.Time
	i, n      int
	started   int // steps started
	id        string
	stepStart time.Time
	inner     *api.Progress
	lastDraw  time.Time
	lastPlain time.Time
	drawnWide int
}

// Step starts step i of n.
func (r *Reporter) Step(i, n int, id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if r.start.IsZero() {
		r.start = now
	}
	r.i, r.n, r.id, r.inner = i, n, id, nil
	r.started++
	r.stepStart, r.lastPlain = now, now
	if !r.tty {
		line := fmt.Sprintf("[%d/%d] %s", i+1, n, id)
		if eta := r.eta(); eta != "" {
			line += "  ETA " + eta
		}
		fmt.Fprintln(r.w, line)
		return
	}
	r.draw(true)
}

// Update shows progress inside the current step: on the bar on a terminal,
// as a plain line at most every PlainEvery otherwise.
func (r *Reporter) Update(p *api.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inner = p
	if r.tty {
		r.draw(false)
		return
	}
	now := r.now()
	if now.Sub(r.lastPlain) < r.every {
		return
	}
	r.lastPlain = now
	line := fmt.Sprintf("  %s: %s", r.id, r.detail())
	if eta := r.eta(); eta != "" {
		line += "  run ETA " + eta
	}
	fmt.Fprintln(r.w, strings.TrimRight(line, " "))
}

// Analyze shows that analyzer name is running.
func (r *Reporter) Analyze(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.id, r.inner, r.i = "analysing "+name, nil, r.n
	if !r.tty {
		fmt.Fprintf(r.w, "analysing %s\n", name)
		return
	}
	r.draw(true)
}

// Done ends the display with the number of steps that ran.
func (r *Reporter) Done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tty && r.drawnWide > 0 {
		fmt.Fprintf(r.w, "\r%s\r", strings.Repeat(" ", r.drawnWide))
	}
	if r.start.IsZero() {
		return
	}
	took := r.now().Sub(r.start).Round(time.Millisecond)
	if r.started < r.n {
		fmt.Fprintf(r.w, "%d of %d steps in %s\n", r.started, r.n, took)
		return
	}
	fmt.Fprintf(r.w, "%d steps in %s\n", r.started, took)
}

// fraction is how much of the run is done, counting the current step's own
// progress.
func (r *Reporter) fraction() float64 {
	if r.n == 0 {
		return 0
	}
	inner := 0.0
	if p := r.inner; p != nil && p.Total > 0 {
		inner = min(p.Done/p.Total, 1)
	}
	return min((float64(r.i)+inner)/float64(r.n), 1)
}

// eta is the time left at the rate so far, or "" before anything is done.
func (r *Reporter) eta() string {
	frac := r.fraction()
	elapsed := r.now().Sub(r.start)
	if frac <= 0 || elapsed <= 0 {
		return ""
	}
	return (time.Duration(float64(elapsed)/frac) - elapsed).Round(time.Second).String()
}

// detail describes the current step's progress: percent, amount, rate and
// the plugin's message.
func (r *Reporter) detail() string {
	p := r.inner
	if p == nil {
		return ""
	}
	var parts []string
	if p.Total > 0 {
		s := fmt.Sprintf("%.0f%%", 100*min(p.Done/p.Total, 1))
		if p.Unit != "" {
			s += fmt.Sprintf(" (%s/%s %s", count(p.Done), count(p.Total), p.Unit)
			if el := r.now().Sub(r.stepStart).Seconds(); el > 0 && p.Done > 0 {
				s += fmt.Sprintf(", %s %s/s", count(p.Done/el), p.Unit)
			}
			s += ")"
		}
		parts = append(parts, s)
	}
	if p.Message != "" {
		parts = append(parts, p.Message)
	}
	return strings.Join(parts, " ")
}

// count renders a quantity compactly: 950, 12.3k, 4.5M.
func count(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.1fG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// Line renders the bar for the current state; split out to be testable.
func (r *Reporter) Line() string {
	frac := r.fraction()
	const width = 24
	filled := int(frac * width)
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", width-filled)
	elapsed := r.now().Sub(r.start)
	eta := r.eta()
	if eta == "" {
		eta = "?"
	}
	rate := "?"
	if frac > 0 && elapsed > 0 {
		rate = fmt.Sprintf("%.2f steps/s", frac*float64(r.n)/elapsed.Seconds())
	}
	detail := ""
	if d := r.detail(); d != "" {
		detail = " " + d
	}
	step := min(r.i+1, r.n)
	return fmt.Sprintf("[%s] %d/%d %s%s  %s  ETA %s", bar, step, r.n, r.id, detail, rate, eta)
}

func (r *Reporter) draw(force bool) {
	now := r.now()
	if !force && now.Sub(r.lastDraw) < 100*time.Millisecond {
		return
	}
	r.lastDraw = now
	line := r.Line()
	if w := r.width(); w > 0 && len([]rune(line)) >= w {
		line = string([]rune(line)[:w-1]) // a wrapped line cannot be redrawn in place
	}
	pad := ""
	if len(line) < r.drawnWide {
		pad = strings.Repeat(" ", r.drawnWide-len(line))
	}
	r.drawnWide = len(line)
	fmt.Fprintf(r.w, "\r%s%s", line, pad)
}

// width is the terminal's width, or 0 when unknown.
func (r *Reporter) width() int {
	f, ok := r.w.(*os.File)
	if !ok {
		return 0
	}
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return w
}
