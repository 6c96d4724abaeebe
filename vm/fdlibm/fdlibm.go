// Package fdlibm computes the elementary functions of java.lang.StrictMath
// bit for bit: Java specifies StrictMath as the results of fdlibm 5.3, and
// Go's math package, although often derived from the same sources, rounds
// differently in the last bit for many inputs.
//
// Each function is checked bit for bit against OpenJDK 17's StrictMath
// (TestAgainstStrictMath). java.lang.Math is another matter: HotSpot on
// x86-64 computes Math.sin, cos, tan, exp, log, log10 and pow with its own
// intrinsics, which differ from StrictMath in the last bit for a few
// percent of arguments; its other Math functions are StrictMath's.
//
// The algorithms and constants are fdlibm's; the code is written for Go.
// fdlibm depends on every product being rounded before it is added, while
// the Go specification lets a compiler fuse x*y+z into one fused
// multiply-add (arm64, ppc64, s390x and riscv64 do, as does amd64 with
// GOAMD64=v3). Every product that feeds an addition is therefore wrapped in
// an explicit float64 conversion, which the specification defines to round.
package fdlibm

import "math"

// hi returns the upper 32 bits of x (sign, exponent, top of the mantissa)
// as a signed integer, the word fdlibm classifies its arguments by.
func hi(x float64) int32 { return int32(math.Float64bits(x) >> 32) }

// lo returns the lower 32 bits of x.
func lo(x float64) uint32 { return uint32(math.Float64bits(x)) }

// fromWords builds a float64 from its upper and lower 32-bit words.
func fromWords(h int32, l uint32) float64 {
	return math.Float64frombits(uint64(uint32(h))<<32 | uint64(l))
}

// withHi replaces the upper word of x.
func withHi(x float64, h int32) float64 { return fromWords(h, lo(x)) }

// trunc32 clears the lower word of x, leaving a value whose products with
// other such values are exact.
func trunc32(x float64) float64 { return math.Float64frombits(math.Float64bits(x) &^ 0xffffffff) }

// absHi is the upper word of |x|.
func absHi(x float64) int32 { return hi(x) & 0x7fffffff }
