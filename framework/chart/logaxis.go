package chart

import (
	"math"
	"strconv"
)

// Scale selects a bar chart's value axis.
type Scale int

const (
	// ScaleAuto is linear, or logarithmic when the positive values differ
	// by more than LogRatio and none is negative.
	ScaleAuto Scale = iota
	// ScaleLinear is always linear.
	ScaleLinear
	// ScaleLog is logarithmic when any value is positive.
	ScaleLog
)

// LogRatio is the largest max/min ratio of positive values that ScaleAuto
// draws on a linear axis: beyond it the smallest bars are a few pixels tall
// or less (fsync next to buffered writes is ~400×).
const LogRatio = 20

// logAxis is a base-10 logarithmic axis from lo to hi, both powers of ten.
type logAxis struct {
	lo, hi float64
	step   int // decades between labelled ticks
}

// maxLogTicks bounds the labelled ticks of a log axis; beyond it they step
// by several decades.
const maxLogTicks = 8

// newLogAxis covers the positive values from min to max. The axis starts at
// least log10(2) decades below min, so that the smallest bar is visible.
func newLogAxis(min, max float64) logAxis {
	lo := math.Pow(10, math.Floor(math.Log10(min)))
	if min/lo < 2 {
		lo /= 10
	}
	hi := math.Pow(10, math.Ceil(math.Log10(max)))
	if hi <= lo {
		hi = lo * 10
	}
	decades := int(math.Round(math.Log10(hi / lo)))
	step := (decades + maxLogTicks - 1) / maxLogTicks
	// Whole steps from lo, so that hi is a labelled tick.
	if r := decades % step; r != 0 {
		lo /= math.Pow(10, float64(step-r))
	}
	return logAxis{lo: lo, hi: hi, step: step}
}

func (a logAxis) exp(v float64) float64 { return math.Log10(v) }

func (a logAxis) ticks() []float64 {
	var t []float64
	e0, e1 := int(math.Round(a.exp(a.lo))), int(math.Round(a.exp(a.hi)))
	for e := e0; e <= e1; e += a.step {
		t = append(t, math.Pow(10, float64(e)))
	}
	return t
}

// minorTicks are 2…9 × each power of ten, when every decade is labelled
// and there are few enough decades for them to be told apart.
func (a logAxis) minorTicks() []float64 {
	e0, e1 := int(math.Round(a.exp(a.lo))), int(math.Round(a.exp(a.hi)))
	if a.step != 1 || e1-e0 > 5 {
		return nil
	}
	var t []float64
	for e := e0; e < e1; e++ {
		for m := 2.0; m <= 9; m++ {
			t = append(t, m*math.Pow(10, float64(e)))
		}
	}
	return t
}

// label writes a power of ten as 1, 10, 100, 1k … 1T, 0.1, 0.01, 0.001, and
// smaller ones as 1e-4.
func (a logAxis) label(v float64) string {
	e := int(math.Round(a.exp(v)))
	switch {
	case e >= 12:
		return "1" + zeros(e-12) + "T"
	case e >= 9:
		return "1" + zeros(e-9) + "G"
	case e >= 6:
		return "1" + zeros(e-6) + "M"
	case e >= 3:
		return "1" + zeros(e-3) + "k"
	case e >= 0:
		return "1" + zeros(e)
	case e >= -3:
		return strconv.FormatFloat(v, 'f', -e, 64)
	}
	return "1e" + strconv.Itoa(e)
}

func zeros(n int) string {
	s := ""
	for ; n > 0; n-- {
		s += "0"
	}
	return s
}

func (a logAxis) clamp(v float64) float64 {
	if !(v > a.lo) {
		return a.lo
	}
	return math.Min(v, a.hi)
}

// base is the bottom of the axis: bars grow from there, as a logarithmic
// axis has no zero.
func (a logAxis) base() float64 { return a.lo }

func (a logAxis) pos(v, p0, p1 float64) float64 {
	v = a.clamp(v)
	return p0 + (a.exp(v)-a.exp(a.lo))/(a.exp(a.hi)-a.exp(a.lo))*(p1-p0)
}

// chooseScale returns the value axis for a bar chart's series and whether
// it is logarithmic.
func chooseScale(s Scale, series []Series) (valueAxis, bool) {
	lo, hi, ok := valueRange(series)
	if !ok {
		lo, hi = 0, 1
	}
	linear := niceAxis(math.Min(lo, 0), math.Max(hi, 0), 6)
	if s == ScaleLinear {
		return linear, false
	}
	// The decision rests on the values; the error bars only widen the axis.
	minPos, maxPos, negative := math.Inf(1), 0.0, false
	for _, sr := range series {
		for _, v := range sr.Values {
			switch {
			case !finite(v):
			case v > 0:
				minPos, maxPos = math.Min(minPos, v), math.Max(maxPos, v)
			case v < 0:
				negative = true
			}
		}
	}
	if maxPos == 0 {
		return linear, false
	}
	if s == ScaleAuto && (negative || maxPos/minPos <= LogRatio) {
		return linear, false
	}
	return newLogAxis(minPos, math.Max(maxPos, hi)), true
}

// valueTitle is the value axis title; a log axis says so.
func valueTitle(label, unit string, log bool) string {
	if !log {
		return yTitle(label, unit)
	}
	switch {
	case label != "" && unit != "":
		return label + " (" + unit + ", log scale)"
	case label != "":
		return label + " (log scale)"
	case unit != "":
		return unit + " (log scale)"
	}
	return "log scale"
}
