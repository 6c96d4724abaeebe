package analysis

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/droidprof/droidprof/framework/sdk/stats"
)

// Pair is one pair of runs of the profiled program itself, untraced and
// traced, timed the same way (dpa's collector: on the kernel's CPU clock
// of the thread that ran main), with the traced run's number of events
// and the sum of their measured costs (0 without measured costs).
type Pair struct {
	Plain, Traced time.Duration
	Events        int64
	Costs         time.Duration
}

// Calibration is what a program's own pairs of runs say one event costs
// that program, in fractional nanoseconds: Event, the whole cost (the
// traced run's excess over the untraced one, per event), and Unmeasured,
// that less the events' mean measured cost (Trace.UnmeasuredOverhead),
// each the median over the pairs; Spread is half the interquartile range
// of the pairs' Event estimates, Lo and Hi the 95 % confidence interval of
// Event's median (±Inf for fewer than 6 pairs), and Pairs how many there
// were.
type Calibration struct {
	Event, Unmeasured, Spread float64
	Lo, Hi                    float64
	Pairs                     int
}

// Resolved reports whether the median per-event cost is known to within
// ns nanoseconds either way (its 95 % interval).
func (c Calibration) Resolved(ns float64) bool {
	return c.Event-c.Lo <= ns && c.Hi-c.Event <= ns
}

// CalibrateFromPairs derives the per-event deduction of one program from
// pairs of its own untraced and traced runs. Each pair gives one estimate;
// the median over the pairs keeps a pair the host disturbed (a preempted
// run, a slow phase) from moving the result.
//
// Unlike a calibration program's, this cost is the one the events of this
// program pay: what an event costs beyond its own instructions is mostly
// what it costs the program's instructions around it (caches, branch
// predictors, the pipeline), which differs from program to program.
func CalibrateFromPairs(pairs []Pair) (Calibration, error) {
	if len(pairs) == 0 {
		return Calibration{}, errors.New("dpa analysis: no calibration pairs")
	}
	ev := make([]float64, 0, len(pairs))
	un := make([]float64, 0, len(pairs))
	for i, p := range pairs {
		if p.Events <= 0 || p.Plain <= 0 || p.Traced <= 0 {
			return Calibration{}, fmt.Errorf("dpa analysis: calibration pair %d: %d events, runs of %v untraced and %v traced", i, p.Events, p.Plain, p.Traced)
		}
		e := float64(p.Traced-p.Plain) / float64(p.Events)
		ev = append(ev, e)
		un = append(un, e-float64(p.Costs)/float64(p.Events))
	}
	c := Calibration{Event: medianFloat(ev), Unmeasured: medianFloat(un), Pairs: len(pairs)}
	// ev is sorted now.
	n := len(ev)
	c.Spread = (ev[n-1-(n-1)/4] - ev[(n-1)/4]) / 2
	c.Lo, c.Hi = stats.MedianInterval(ev)
	return c, nil
}

// medianFloat is the median of xs (the mean of the two middle values for
// an even count); xs is sorted in place.
func medianFloat(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
