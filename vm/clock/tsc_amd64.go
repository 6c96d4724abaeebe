package clock

const hasTSC = true

// rdtsc reads the time-stamp counter.
func rdtsc() uint64

// tscNow is Now on the TSC: one RDTSC, scaled with tscBase, tscMult and
// tscOffset.
func tscNow() int64
