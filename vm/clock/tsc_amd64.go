package clock

const hasTSC = true

// rdtsc reads the time-stamp counter.
func rdtsc() uint64

// read is Now: one RDTSC, scaled with tscBase, tscMult and tscOffset,
// when useTSC is set, else a jump to monotonic.
func read() int64
