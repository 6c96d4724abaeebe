package fdlibm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// benchInputs returns 1024 values from [a, b), the same on every run.
func benchInputs(a, b float64) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	return uniform(r, 1024, a, b)
}

var sink float64

func bench1(b *testing.B, f func(float64) float64, xs []float64) {
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += f(xs[i&1023])
	}
	sink = s
}

func bench2(b *testing.B, f func(float64, float64) float64, xs, ys []float64) {
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += f(xs[i&1023], ys[i&1023])
	}
	sink = s
}

// benchCases pairs each function with Go's math equivalent and a typical
// argument range.
var benchCases = []struct {
	name       string
	ours, gos  func(float64) float64
	lo, hi     float64
	ours2, go2 func(float64, float64) float64
}{
	{name: "Sin", ours: Sin, gos: math.Sin, lo: -10, hi: 10},
	{name: "SinHuge", ours: Sin, gos: math.Sin, lo: 1e20, hi: 1e300},
	{name: "Cos", ours: Cos, gos: math.Cos, lo: -10, hi: 10},
	{name: "Tan", ours: Tan, gos: math.Tan, lo: -10, hi: 10},
	{name: "Asin", ours: Asin, gos: math.Asin, lo: -1, hi: 1},
	{name: "Acos", ours: Acos, gos: math.Acos, lo: -1, hi: 1},
	{name: "Atan", ours: Atan, gos: math.Atan, lo: -10, hi: 10},
	{name: "Exp", ours: Exp, gos: math.Exp, lo: -700, hi: 700},
	{name: "Expm1", ours: Expm1, gos: math.Expm1, lo: -2, hi: 2},
	{name: "Log", ours: Log, gos: math.Log, lo: 0, hi: 1e6},
	{name: "Log10", ours: Log10, gos: math.Log10, lo: 0, hi: 1e6},
	{name: "Log1p", ours: Log1p, gos: math.Log1p, lo: -0.5, hi: 2},
	{name: "Cbrt", ours: Cbrt, gos: math.Cbrt, lo: -1e6, hi: 1e6},
	{name: "Sinh", ours: Sinh, gos: math.Sinh, lo: -30, hi: 30},
	{name: "Cosh", ours: Cosh, gos: math.Cosh, lo: -30, hi: 30},
	{name: "Tanh", ours: Tanh, gos: math.Tanh, lo: -30, hi: 30},
	{name: "Pow", ours2: Pow, go2: math.Pow, lo: 0, hi: 100},
	{name: "Atan2", ours2: Atan2, go2: math.Atan2, lo: -10, hi: 10},
	{name: "Hypot", ours2: Hypot, go2: math.Hypot, lo: -1e10, hi: 1e10},
}

// BenchmarkFunctions times each function and its Go math counterpart on
// the same inputs; compare with benchstat -col /impl.
func BenchmarkFunctions(b *testing.B) {
	for _, c := range benchCases {
		xs := benchInputs(c.lo, c.hi)
		ys := benchInputs(-5, 5)
		if c.ours2 != nil {
			b.Run("fn="+c.name+"/impl=fdlibm", func(b *testing.B) { bench2(b, c.ours2, xs, ys) })
			b.Run("fn="+c.name+"/impl=math", func(b *testing.B) { bench2(b, c.go2, xs, ys) })
			continue
		}
		b.Run("fn="+c.name+"/impl=fdlibm", func(b *testing.B) { bench1(b, c.ours, xs) })
		b.Run("fn="+c.name+"/impl=math", func(b *testing.B) { bench1(b, c.gos, xs) })
	}
}
