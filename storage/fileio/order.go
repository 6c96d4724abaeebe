package fileio

import "github.com/droidprof/droidprof/storage/mt19937"

// Seed is the key Mobibench seeds MT19937-64 with (init_by_array64).
var Seed = []uint64{0x12345, 0x23456, 0x34567, 0x45678}

// RecordOrder returns the order in which random modes visit the n records of
// a file, exactly as Mobibench computes it, so offsets match the C tool's
// record for record. overlap is Mobibench's -v percentage (0..99).
//
// With overlap 0 the order is a permutation of 0..n-1: starting from the
// identity, position i (for i = 0..n-1) is swapped with position
// genrand64_int64() mod n. (This is Mobibench's shuffle. Unlike the textbook
// Fisher–Yates it draws j from the whole range rather than from i..n-1, so
// not all orders are equally likely; every record is still visited exactly
// once, which is what the benchmark needs.)
//
// With overlap P > 0, the identity is shuffled as above, the first n-n*P/100
// entries are kept, the remaining n*P/100 are redrawn uniformly (with
// replacement) from the kept ones, and the whole list is shuffled again, so
// about P % of the I/Os hit a record a second time.
func RecordOrder(n int64, overlap int) []int64 {
	if n <= 0 {
		return nil
	}
	rng := mt19937.NewByArray(Seed)
	un := uint64(n)
	shuffle := func(a []int64) {
		for i := range a {
			j := rng.Uint64() % un
			a[i], a[j] = a[j], a[i]
		}
	}
	rec := make([]int64, n)
	nOverlap := n * int64(overlap) / 100
	if nOverlap == 0 {
		for i := range rec {
			rec[i] = int64(i)
		}
	} else {
		nOther := n - nOverlap
		tmp := make([]int64, n)
		for i := range tmp {
			tmp[i] = int64(i)
		}
		shuffle(tmp)
		copy(rec, tmp[:nOther])
		for i := int64(0); i < nOverlap; i++ {
			rec[nOther+i] = tmp[rng.Uint64()%uint64(nOther)]
		}
	}
	shuffle(rec)
	return rec
}
