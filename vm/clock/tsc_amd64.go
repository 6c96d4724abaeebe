package clock

const hasTSC = true

// rdtsc reads the time-stamp counter.
func rdtsc() uint64
