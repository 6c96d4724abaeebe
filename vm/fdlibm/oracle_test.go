package fdlibm

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/javadex"
	"github.com/droidprof/droidprof/internal/testenv"
)

// oracleCase is one function checked against the JVM: its StrictMath
// name, the Go implementation (f1 or f2 by arity) and its deterministic
// inputs (the second of each pair is ignored by f1).
type oracleCase struct {
	name   string
	f1     func(float64) float64
	f2     func(float64, float64) float64
	inputs func(r *rand.Rand) [][2]float64
	// go1 or go2 is Go's math counterpart, whose differences from the
	// JVM are logged to show what the inputs discriminate.
	go1 func(float64) float64
	go2 func(float64, float64) float64
}

// randomPerRange is how many pseudo-random inputs each magnitude range or
// generator of a function gets; every function has at least four, so at
// least 20 000 random inputs.
const randomPerRange = 5000

// edges are the values every function is tried on.
var edges = []float64{
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
	0x1.ffffffffffffep-1023, -0x1.ffffffffffffep-1023, // largest subnormal
	0x1p-1022, -0x1p-1022, // MIN_NORMAL
	math.MaxFloat64, -math.MaxFloat64,
	1, -1, 0.5, -0.5, 2, -2, 3, -3, 10, -10, 0x1p-28, 0x1p-27, 0x1p-54, 0x1p-55, 0x1p-60,
	math.Nextafter(1, 0), math.Nextafter(1, 2), -math.Nextafter(1, 0), -math.Nextafter(1, 2),
	math.Pi, -math.Pi, math.Pi / 2, math.Pi / 4, -math.Pi / 4, 0.7853981633974483,
	22, -22, 709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412,
	710.4758600739439, 710.475860073944, 1e22, -1e22, 1e300, -1e300, 0x1p1023, 0x1p63, 0x1p66,
}

// withEdges prefixes single-argument inputs with the edges.
func withEdges(xs ...float64) [][2]float64 {
	var in [][2]float64
	for _, x := range append(append([]float64{}, edges...), xs...) {
		in = append(in, [2]float64{x, 0})
	}
	return in
}

// magnitude returns a random double with a uniformly random exponent in
// [e0, e1], a random mantissa and, if signed, a random sign.
func magnitude(r *rand.Rand, e0, e1 int, signed bool) float64 {
	m := 1 + r.Float64()
	x := math.Ldexp(m, e0+r.IntN(e1-e0+1))
	if signed && r.IntN(2) == 0 {
		x = -x
	}
	return x
}

// ranges draws randomPerRange values from each exponent range.
func ranges(r *rand.Rand, signed bool, rs ...[2]int) []float64 {
	var xs []float64
	for _, e := range rs {
		for i := 0; i < randomPerRange; i++ {
			xs = append(xs, magnitude(r, e[0], e[1], signed))
		}
	}
	return xs
}

// uniform draws n values uniformly from [a, b).
func uniform(r *rand.Rand, n int, a, b float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = a + (b-a)*r.Float64()
	}
	return xs
}

// anyBits draws n arbitrary bit patterns (every exponent, subnormals,
// infinities and NaNs included).
func anyBits(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Float64frombits(r.Uint64())
	}
	return xs
}

// nearPiMultiples returns multiples of π/4 (the reduction's and the
// kernels' boundaries) and their neighbours a few ulps away.
func nearPiMultiples(r *rand.Rand) []float64 {
	var xs []float64
	add := func(x float64) {
		xs = append(xs, x, -x)
		b := math.Float64bits(x)
		for d := uint64(1); d <= 3; d++ {
			xs = append(xs, math.Float64frombits(b+d), math.Float64frombits(b-d))
		}
	}
	for k := 1; k <= 64; k++ {
		add(float64(k) * math.Pi / 4)
	}
	for i := 0; i < 1000; i++ {
		add(float64(r.IntN(1<<20)) * math.Pi / 2)
		add(float64(r.Int64N(1<<50)) * math.Pi / 2)
	}
	// The double closest to a multiple of π/2 (Kahan and McDonald).
	add(6381956970095103 * 0x1p797)
	return xs
}

func trigInputs(r *rand.Rand) [][2]float64 {
	xs := ranges(r, true, [2]int{-40, -1}, [2]int{-1, 4}, [2]int{4, 20}, [2]int{20, 1023})
	xs = append(xs, nearPiMultiples(r)...)
	return withEdges(append(xs, anyBits(r, 2000)...)...)
}

// powSpecials are the exponents of StrictMath.pow's special-case table
// (integers odd and even, non-integers, ±Inf, huge, tiny), tried on every
// edge base.
var powSpecials = []float64{
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 2, -2, 3, -3,
	0.5, -0.5, 1.5, -1.5, 2.5, 1.0000000000000002, 0x1p31, 0x1p31 + 1, -0x1p31 - 1,
	0x1p53 - 1, 0x1p53, 0x1p53 + 2, 0x1p60, 1e300, -1e300, 1e-300, math.SmallestNonzeroFloat64,
	math.MaxFloat64, -math.MaxFloat64, 1023, 1024, -1074, -1075, 1e10 + 1,
}

func powInputs(r *rand.Rand) [][2]float64 {
	var in [][2]float64
	bases := append(append([]float64{}, edges...), 0.9999999, 1.0000001, -0.25, -8, 1e-5, 1e5)
	for _, x := range bases {
		for _, y := range powSpecials {
			in = append(in, [2]float64{x, y})
		}
	}
	for i := 0; i < randomPerRange; i++ {
		in = append(in, [2]float64{10 * r.Float64(), 100*r.Float64() - 50})
		in = append(in, [2]float64{magnitude(r, -1022, 1023, false), 4*r.Float64() - 2})
		// Negative bases to integer (odd and even) and non-integer powers.
		in = append(in, [2]float64{-magnitude(r, -20, 20, false), float64(r.IntN(201) - 100)})
		in = append(in, [2]float64{-magnitude(r, -4, 4, false), 8*r.Float64() - 4})
		// Bases near 1 to huge powers.
		in = append(in, [2]float64{1 + math.Ldexp(2*r.Float64()-1, -20-r.IntN(30)), magnitude(r, 31, 45, true)})
		// Results near overflow and underflow.
		x := 1.5 + 8*r.Float64()
		lim := 1024.0
		if r.IntN(2) == 0 {
			lim = -1074
		}
		in = append(in, [2]float64{x, (lim + 2*r.Float64() - 1) / math.Log2(x)})
		in = append(in, [2]float64{math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64())})
	}
	return in
}

func expInputs(r *rand.Rand) [][2]float64 {
	xs := ranges(r, true, [2]int{-60, -1}, [2]int{-1, 5}, [2]int{5, 9})
	xs = append(xs, uniform(r, randomPerRange, -746, 710)...)
	// Around k·ln2 ± ln2/2, where the reduction changes k.
	for k := -1080; k <= 1030; k++ {
		x := (float64(k) + 0.5) * math.Ln2
		xs = append(xs, x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)))
	}
	return withEdges(append(xs, anyBits(r, 2000)...)...)
}

func logInputs(r *rand.Rand) [][2]float64 {
	xs := ranges(r, false, [2]int{-1074, -1023}, [2]int{-1022, 1023}, [2]int{-3, 3})
	// Near 1, where log is near 0, and powers of ten (log10 is exact).
	for i := 0; i < randomPerRange; i++ {
		xs = append(xs, 1+math.Ldexp(2*r.Float64()-1, -r.IntN(40)))
	}
	for e := -323; e <= 308; e++ {
		xs = append(xs, math.Pow10(e))
	}
	xs = append(xs, uniform(r, 500, -10, 0)...)
	return withEdges(append(xs, anyBits(r, 2000)...)...)
}

func log1pInputs(r *rand.Rand) [][2]float64 {
	xs := ranges(r, true, [2]int{-60, -2}, [2]int{-2, 0}, [2]int{0, 1023})
	xs = append(xs, uniform(r, randomPerRange, -1, 1)...)
	xs = append(xs, -0.2929, -0.29289, 0.41422, 0.41421, math.Nextafter(-1, 0), -1.5)
	// 1+x just above a power of two, where log1p's |f| < 2^-20 path runs.
	for k := 1; k <= 70; k++ {
		p := math.Ldexp(1, k)
		xs = append(xs, p-1, p-1+math.Ldexp(p, -21-r.IntN(30)), p-1+math.Ldexp(p, -20-r.IntN(2)))
	}
	return withEdges(append(xs, anyBits(r, 2000)...)...)
}

func asinInputs(r *rand.Rand) [][2]float64 {
	xs := ranges(r, true, [2]int{-60, -2}, [2]int{-2, -1})
	xs = append(xs, uniform(r, randomPerRange, -1, 1)...)
	xs = append(xs, uniform(r, randomPerRange, 0.97, 1)...)
	xs = append(xs, 0.975, -0.975, 0x1p-57, 0x1.0000000000001p-57, 1.0000000000000002)
	return withEdges(append(xs, anyBits(r, 2000)...)...)
}

func atanInputs(r *rand.Rand) [][2]float64 {
	xs := ranges(r, true, [2]int{-40, -2}, [2]int{-2, 2}, [2]int{2, 70}, [2]int{70, 1023})
	xs = append(xs, 7.0/16, 11.0/16, 19.0/16, 39.0/16, -7.0/16, -11.0/16, -19.0/16, -39.0/16)
	return withEdges(append(xs, anyBits(r, 2000)...)...)
}

// pairs combines every edge with every edge, then adds randomPerRange
// pairs from each of the generators.
func pairs(gens ...func() (float64, float64)) [][2]float64 {
	var in [][2]float64
	for _, a := range edges {
		for _, b := range edges {
			in = append(in, [2]float64{a, b})
		}
	}
	for _, g := range gens {
		for i := 0; i < randomPerRange; i++ {
			a, b := g()
			in = append(in, [2]float64{a, b})
		}
	}
	return in
}

func twoArgInputs(r *rand.Rand) [][2]float64 {
	return pairs(
		func() (float64, float64) { return magnitude(r, -10, 10, true), magnitude(r, -10, 10, true) },
		func() (float64, float64) {
			return magnitude(r, -1074, 1023, true), magnitude(r, -1074, 1023, true)
		},
		func() (float64, float64) { // ratios near the 2^60 cut-offs
			a := magnitude(r, -500, 500, true)
			return a, math.Ldexp(a, r.IntN(140)-70)
		},
		func() (float64, float64) { return math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64()) },
	)
}

func cbrtInputs(r *rand.Rand) [][2]float64 {
	xs := ranges(r, true, [2]int{-1074, -1023}, [2]int{-1022, -1}, [2]int{-1, 1}, [2]int{1, 1023})
	for i := -30; i <= 30; i++ {
		xs = append(xs, float64(i*i*i))
	}
	return withEdges(append(xs, anyBits(r, 2000)...)...)
}

func hyperbolicInputs(r *rand.Rand) [][2]float64 {
	xs := ranges(r, true, [2]int{-60, -2}, [2]int{-2, 2}, [2]int{2, 5})
	xs = append(xs, uniform(r, randomPerRange, -712, 712)...)
	xs = append(xs, 0x1.633ce8fb9f87dp9, 0x1.633ce8fb9f87ep9, -0x1.633ce8fb9f87dp9, 0x1.62e42p9, 0.34657359027997264, 0.3465735902799727)
	return withEdges(append(xs, anyBits(r, 2000)...)...)
}

var oracleCases = []oracleCase{
	{name: "sin", f1: Sin, go1: math.Sin, inputs: trigInputs},
	{name: "cos", f1: Cos, go1: math.Cos, inputs: trigInputs},
	{name: "tan", f1: Tan, go1: math.Tan, inputs: trigInputs},
	{name: "pow", f2: Pow, go2: math.Pow, inputs: powInputs},
	{name: "exp", f1: Exp, go1: math.Exp, inputs: expInputs},
	{name: "expm1", f1: Expm1, go1: math.Expm1, inputs: expInputs},
	{name: "log", f1: Log, go1: math.Log, inputs: logInputs},
	{name: "log10", f1: Log10, go1: math.Log10, inputs: logInputs},
	{name: "log1p", f1: Log1p, go1: math.Log1p, inputs: log1pInputs},
	{name: "asin", f1: Asin, go1: math.Asin, inputs: asinInputs},
	{name: "acos", f1: Acos, go1: math.Acos, inputs: asinInputs},
	{name: "atan", f1: Atan, go1: math.Atan, inputs: atanInputs},
	{name: "atan2", f2: Atan2, go2: math.Atan2, inputs: twoArgInputs},
	{name: "hypot", f2: Hypot, go2: math.Hypot, inputs: twoArgInputs},
	{name: "cbrt", f1: Cbrt, go1: math.Cbrt, inputs: cbrtInputs},
	{name: "sinh", f1: Sinh, go1: math.Sinh, inputs: hyperbolicInputs},
	{name: "cosh", f1: Cosh, go1: math.Cosh, inputs: hyperbolicInputs},
	{name: "tanh", f1: Tanh, go1: math.Tanh, inputs: hyperbolicInputs},
}

// TestAgainstStrictMath compares every function with the JVM's StrictMath
// bit for bit (NaNs compare equal whatever their payload).
func TestAgainstStrictMath(t *testing.T) {
	javac, java, err := javadex.Tools()
	if err != nil {
		testenv.SkipOrFail(t, "%v", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command(javac, "-d", dir, filepath.Join("testdata", "StrictMathOracle.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}

	type call struct {
		c    *oracleCase
		x, y float64
	}
	var calls []call
	var in bytes.Buffer
	for i := range oracleCases {
		c := &oracleCases[i]
		r := rand.New(rand.NewPCG(uint64(i)+1, 0x5eed))
		for _, a := range c.inputs(r) {
			calls = append(calls, call{c, a[0], a[1]})
			if c.f2 != nil {
				fmt.Fprintf(&in, "%s %x %x\n", c.name, math.Float64bits(a[0]), math.Float64bits(a[1]))
			} else {
				fmt.Fprintf(&in, "%s %x\n", c.name, math.Float64bits(a[0]))
			}
		}
	}
	inputs := filepath.Join(dir, "inputs.txt")
	if err := os.WriteFile(inputs, in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(java, "-Xmx256m", "-cp", dir, "StrictMathOracle", inputs)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, stderr.String())
	}

	type tally struct {
		total, bad, goBad int
		first             []string
	}
	tallies := map[string]*tally{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(calls) {
			t.Fatalf("java printed more than %d results", len(calls))
		}
		want, err := strconv.ParseUint(sc.Text(), 16, 64)
		if err != nil {
			t.Fatalf("java output line %d: %v", i+1, err)
		}
		c := calls[i]
		var got, gomath float64
		var args string
		if c.c.f2 != nil {
			got, gomath = c.c.f2(c.x, c.y), c.c.go2(c.x, c.y)
			args = fmt.Sprintf("%v (%#x), %v (%#x)", c.x, math.Float64bits(c.x), c.y, math.Float64bits(c.y))
		} else {
			got, gomath = c.c.f1(c.x), c.c.go1(c.x)
			args = fmt.Sprintf("%v (%#x)", c.x, math.Float64bits(c.x))
		}
		tl := tallies[c.c.name]
		if tl == nil {
			tl = &tally{}
			tallies[c.c.name] = tl
		}
		tl.total++
		if !sameBits(gomath, math.Float64frombits(want)) {
			tl.goBad++
		}
		if sameBits(got, math.Float64frombits(want)) {
			continue
		}
		tl.bad++
		if len(tl.first) < 5 {
			tl.first = append(tl.first, fmt.Sprintf("%s(%s) = %v (%#x), StrictMath %v (%#x)",
				c.c.name, args, got, math.Float64bits(got), math.Float64frombits(want), want))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if i != len(calls) {
		t.Fatalf("java printed %d results for %d inputs", i, len(calls))
	}
	for _, c := range oracleCases {
		tl := tallies[c.name]
		if tl.bad > 0 {
			t.Errorf("%s: %d of %d differ from StrictMath:\n\t%s", c.name, tl.bad, tl.total, strings.Join(tl.first, "\n\t"))
		} else {
			t.Logf("%s: %d inputs match (Go's math differs on %d)", c.name, tl.total, tl.goBad)
		}
	}
}

// sameBits reports whether a and b are the same double, any NaN matching
// any NaN.
func sameBits(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}
