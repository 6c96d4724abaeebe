//go:build !amd64

package clock

const hasTSC = false

func rdtsc() uint64 { return 0 }

func read() int64 { return monotonic() }
