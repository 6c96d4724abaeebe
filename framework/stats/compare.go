package stats

import "fmt"

// DefaultAlpha is the significance level below which a difference counts,
// as benchstat's.
const DefaultAlpha = 0.05

// Comparison is the outcome of testing whether two sample sets differ, as
// benchmath.AssumeNothing.Compare reports it.
type Comparison struct {
	// P is the two-sided Mann–Whitney p-value; 1 when the test could not
	// run (see Err).
	P      float64
	N1, N2 int
	Alpha  float64
	U      float64 // the U statistic of the old sample
	Exact  bool    // P is from the exact distribution
	// Err is why the test could not run (ErrSamplesEqual, ErrSampleSize).
	Err error
	// Warnings are benchstat's: the test's error, and "need >= 4 samples
	// to detect a difference at alpha level 0.05" when the samples are too
	// small for any difference to be significant.
	Warnings []string
}

// CompareSamples tests whether old and new come from the same distribution
// with the two-sided Mann–Whitney U test at level alpha (DefaultAlpha if
// alpha ≤ 0).
func CompareSamples(old, new []float64, alpha float64) Comparison {
	if alpha <= 0 {
		alpha = DefaultAlpha
	}
	c := Comparison{N1: len(old), N2: len(new), Alpha: alpha}
	u, err := MannWhitneyU(old, new)
	c.U, c.Exact = u.U, u.Exact
	if err != nil {
		c.P, c.Err = 1, err
		c.Warnings = append(c.Warnings, err.Error())
		return c
	}
	c.P = u.P
	if c.P > c.Alpha {
		op, need := ">=", MinSamplesForAlpha(alpha)
		if need > 9 { // benchmath's table stops at 9
			op, need = ">", 9
		}
		if c.N1 < need && c.N2 < need {
			c.Warnings = append(c.Warnings,
				fmt.Sprintf("need %s %d samples to detect a difference at alpha level %v", op, need, c.Alpha))
		}
	}
	return c
}

// Significant reports whether the difference is significant: P ≤ Alpha.
func (c Comparison) Significant() bool { return c.P <= c.Alpha }

// String renders benchstat's note: "p=0.002 n=6", or "p=0.002 n=5+6" for
// unequal sample sizes.
func (c Comparison) String() string {
	s := ""
	if c.P != 0 {
		s = fmt.Sprintf("p=%0.3f ", c.P)
	}
	if c.N1 == c.N2 {
		return s + fmt.Sprintf("n=%d", c.N1)
	}
	return s + fmt.Sprintf("n=%d+%d", c.N1, c.N2)
}

// FormatDelta renders the change from old to new the way benchstat does:
// "~" when not significant, "0.00%" when equal, "?" from 0, else the signed
// percentage "+20.00%".
func (c Comparison) FormatDelta(old, new float64) string {
	if !c.Significant() {
		return "~"
	}
	if old == new {
		return "0.00%"
	}
	if old == 0 {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", (new/old-1)*100)
}
