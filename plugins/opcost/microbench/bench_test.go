package microbench

import (
	"syscall"
	"testing"
)

// BenchmarkAssembleAll generates and assembles every benchmark at the
// paper's loop size (issue 20: under 10 s). Besides the wall time it
// reports the process's CPU time per assembly (user + system, the garbage
// collector's threads included), which a loaded shared host does not
// inflate the way it does the wall time.
func BenchmarkAssembleAll(b *testing.B) {
	cpu0 := processCPU(b)
	for b.Loop() {
		data, err := Assemble(All(), 10000)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
	}
	b.ReportMetric((processCPU(b)-cpu0)/float64(b.N), "cpu-s/op")
}

// processCPU is the process's user + system CPU time in seconds.
func processCPU(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
