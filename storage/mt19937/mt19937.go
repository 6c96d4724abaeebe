// Package mt19937 is the 64-bit Mersenne Twister MT19937-64 of Matsumoto and
// Nishimura (2000 reference code, mt19937-64.c), written from the algorithm's
// published description. Mobibench drives its random record order with it,
// seeded by InitByArray({0x12345, 0x23456, 0x34567, 0x45678}); reproducing the
// generator bit for bit reproduces Mobibench's offsets.
//
// A Source is not safe for concurrent use. Its zero value is seeded with 5489
// on first use, as the reference code does.
package mt19937

const (
	nn        = 312
	mm        = 156
	matrixA   = 0xB5026F5AA96619E9
	upperMask = 0xFFFFFFFF80000000 // most significant 33 bits
	lowerMask = 0x7FFFFFFF         // least significant 31 bits
)

// Source is an MT19937-64 generator state.
type Source struct {
	mt     [nn]uint64
	mti    int
	seeded bool
}

// New returns a generator seeded with seed, like init_genrand64.
func New(seed uint64) *Source {
	s := &Source{}
	s.Seed(seed)
	return s
}

// NewByArray returns a generator seeded with key, like init_by_array64.
func NewByArray(key []uint64) *Source {
	s := &Source{}
	s.SeedByArray(key)
	return s
}

// Seed initialises the state from one 64-bit value (init_genrand64).
func (s *Source) Seed(seed uint64) {
	s.mt[0] = seed
	for i := 1; i < nn; i++ {
		s.mt[i] = 6364136223846793005*(s.mt[i-1]^(s.mt[i-1]>>62)) + uint64(i)
	}
	s.mti = nn
	s.seeded = true
}

// SeedByArray initialises the state from a key (init_by_array64). An empty
// key is treated as the single value 0.
func (s *Source) SeedByArray(key []uint64) {
	if len(key) == 0 {
		key = []uint64{0}
	}
	s.Seed(19650218)
	i, j := 1, 0
	for k := max(nn, len(key)); k > 0; k-- {
		s.mt[i] = (s.mt[i] ^ ((s.mt[i-1] ^ (s.mt[i-1] >> 62)) * 3935559000370003845)) + key[j] + uint64(j)
		i++
		j++
		if i >= nn {
			s.mt[0] = s.mt[nn-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := nn - 1; k > 0; k-- {
		s.mt[i] = (s.mt[i] ^ ((s.mt[i-1] ^ (s.mt[i-1] >> 62)) * 2862933555777941757)) - uint64(i)
		i++
		if i >= nn {
			s.mt[0] = s.mt[nn-1]
			i = 1
		}
	}
	s.mt[0] = 1 << 63 // non-zero initial state
	s.mti = nn
}

// Uint64 returns the next value on [0, 2^64) (genrand64_int64).
func (s *Source) Uint64() uint64 {
	if !s.seeded { // zero value: the reference's default seed
		s.Seed(5489)
	}
	if s.mti >= nn {
		s.twist()
	}
	x := s.mt[s.mti]
	s.mti++
	x ^= (x >> 29) & 0x5555555555555555
	x ^= (x << 17) & 0x71D67FFFEDA60000
	x ^= (x << 37) & 0xFFF7EEE000000000
	x ^= x >> 43
	return x
}

func (s *Source) twist() {
	mag := func(x uint64) uint64 { return (x & 1) * matrixA }
	i := 0
	for ; i < nn-mm; i++ {
		x := (s.mt[i] & upperMask) | (s.mt[i+1] & lowerMask)
		s.mt[i] = s.mt[i+mm] ^ (x >> 1) ^ mag(x)
	}
	for ; i < nn-1; i++ {
		x := (s.mt[i] & upperMask) | (s.mt[i+1] & lowerMask)
		s.mt[i] = s.mt[i+mm-nn] ^ (x >> 1) ^ mag(x)
	}
	x := (s.mt[nn-1] & upperMask) | (s.mt[0] & lowerMask)
	s.mt[nn-1] = s.mt[mm-1] ^ (x >> 1) ^ mag(x)
	s.mti = 0
}
