package replay

import (
	"bytes"
	"fmt"
	"time"
)

// Text renders the result as Mobibench prints a replay (the same lines, in
// the same order and format), followed by what Mobibench does not measure:
// per-call latencies, failures and the timing error.
func (res *Result) Text() []byte {
	var b bytes.Buffer
	st := res.Script
	b.WriteString("replay_script start\n")
	fmt.Fprintf(&b, "Write target : %s\n", res.Sandbox)
	fmt.Fprintf(&b, "line count : %d\n", st.Lines)
	fmt.Fprintf(&b, "script_thread_num: %d\n", st.Threads)
	fmt.Fprintf(&b, "open count : %d\n", st.Opens)
	fmt.Fprintf(&b, "max size : W %d, R %d\n", st.MaxWrite, st.MaxRead)
	fmt.Fprintf(&b, "original execution time : %.3f sec\n", st.Duration().Seconds())
	b.WriteString("replay_script end\n")
	us := res.IOTime.Microseconds()
	fmt.Fprintf(&b, "Total IO time : %.3f sec (%d usec)\n", float64(us)/1e6, us)
	fmt.Fprintf(&b, "Total IO count : %d \n", res.IOCount)
	fmt.Fprintf(&b, "Total Write: %d bytes, Read: %d bytes\n", res.WriteBytes, res.ReadBytes)

	line := "-----------------------------------------\n"
	b.WriteString(line + "[per call]\n" + line)
	fmt.Fprintf(&b, "%-10s %7s %7s %7s %7s %7s %7s %12s %10s %10s %10s\n",
		"call", "lines", "issued", "skipped", "errors", "as-trace", "short", "total(us)", "p50(us)", "p99(us)", "max(us)")
	for _, c := range res.Calls {
		fmt.Fprintf(&b, "%-10s %7d %7d %7d %7d %7d %7d %12d %10.1f %10.1f %10.1f\n",
			c.Call, c.Lines, c.Count, c.Skipped, c.Errors, c.FailedAsTraced, c.Short,
			c.Total.Microseconds(), usec(c.P50), usec(c.P99), usec(c.Max))
	}
	for _, c := range res.Calls {
		if c.FirstError != "" {
			fmt.Fprintf(&b, "first %s error: %s\n", c.Call, c.FirstError)
		}
	}
	for _, p := range res.Unprepared {
		fmt.Fprintf(&b, "could not prepare %s\n", p)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	b.WriteString(line + "[timing]\n" + line)
	fmt.Fprintf(&b, "replay wall time : %.3f sec\n", res.Wall.Seconds())
	fmt.Fprintf(&b, "timing error (issue - scheduled) : median %.1f us, p99 %.1f us, max %.1f us\n",
		usec(res.Lag.Median), usec(res.Lag.P99), usec(res.Lag.Max))
	fmt.Fprintf(&b, "timing error, %d calls whose thread was ready in time : median %.1f us, p99 %.1f us, max %.1f us\n",
		res.OnTime, usec(res.LagOnTime.Median), usec(res.LagOnTime.P99), usec(res.LagOnTime.Max))
	fmt.Fprintf(&b, "held, %d calls whose thread (or file) was still busy with an earlier call : late by median %.1f us, p99 %.1f us, max %.1f us\n",
		res.Held, usec(res.LagHeld.Median), usec(res.LagHeld.P99), usec(res.LagHeld.Max))
	return b.Bytes()
}

func usec(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
