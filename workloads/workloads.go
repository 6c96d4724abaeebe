// Package workloads holds the Java programs droidprof's profilers are
// evaluated on, compiled to DEX files that are committed under dex/ and
// embedded here: the DPA method suite, SciMark-2.0-style kernels,
// CaffeineMark-style tests, a chess search, a DeltaBlue-style constraint
// solver, the binary-trees allocation benchmark and two leaking programs.
// The sources are under java/; see README.md. Every program is
// deterministic: with the same arguments it prints the same stdout on any
// correct Java VM.
package workloads

import (
	"embed"
	"fmt"
)

//go:generate go run ./gen

//go:embed dex/*.dex
var dexFS embed.FS

// Suites, the values of Workload.Suite.
const (
	SuiteDPA          = "dpa"
	SuiteSciMark      = "scimark"
	SuiteCaffeineMark = "caffeinemark"
	SuiteChess        = "chess"
	SuiteDeltaBlue    = "deltablue"
	SuiteLeak         = "leak"
	SuiteBinaryTrees  = "binarytrees"
)

// Workload is one runnable program: a main class in a DEX file.
type Workload struct {
	// Name identifies the workload, e.g. "dpa-fib-timed".
	Name string
	// Suite groups workloads, one of the Suite constants.
	Suite string
	// DEX is the file name under dex/, e.g. "dpa-fib.dex". Several
	// workloads may share one DEX (a DPA program and its timed variant).
	DEX string
	// Sources are the directories under java/ compiled together into DEX.
	Sources []string
	// Main is the main class in "pkg.Class" form.
	Main string
	// Args are the default arguments (nil: the program's own defaults).
	// The first argument, where given, scales the problem.
	Args []string
	// Method, for the DPA suite, is the profiled method as
	// "Lpkg/Class;.name:(params)ret" (the form dex.File.MethodName uses).
	Method string
	// Doc says in a line what the program does and prints.
	Doc string
}

// Bytes returns the embedded DEX file of w.
func (w Workload) Bytes() ([]byte, error) {
	b, err := dexFS.ReadFile("dex/" + w.DEX)
	if err != nil {
		return nil, fmt.Errorf("workloads: %s: %w", w.Name, err)
	}
	return b, nil
}

// Lookup returns the workload called name.
func Lookup(name string) (Workload, bool) {
	for _, w := range All {
		if w.Name == name {
			return w, true
		}
	}
	return Workload{}, false
}

// DEXFiles returns each distinct DEX file name of All with the source
// directories it is built from, in registry order.
func DEXFiles() []DEXFile {
	var out []DEXFile
	seen := map[string]bool{}
	for _, w := range All {
		if !seen[w.DEX] {
			seen[w.DEX] = true
			out = append(out, DEXFile{Name: w.DEX, Sources: w.Sources})
		}
	}
	return out
}

// DEXFile is one DEX file to build: its name under dex/ and its source
// directories under java/.
type DEXFile struct {
	Name    string
	Sources []string
}

var scimarkCommon = "scimark-common"

// dpa returns the untimed and timed workloads of one DPA method program.
func dpa(name, class, method, doc string) []Workload {
	dir := "dpa-" + name
	untimed := Workload{
		Name:    dir,
		Suite:   SuiteDPA,
		DEX:     dir + ".dex",
		Sources: []string{dir},
		Main:    "dpa." + class,
		Method:  method,
		Doc:     doc,
	}
	timed := untimed
	timed.Name = dir + "-timed"
	timed.Main = "dpa." + class + "Timed"
	timed.Doc = "as " + dir + ", and prints the nanoseconds spent in the method to stderr"
	return []Workload{untimed, timed}
}

func scimark(name, class, doc string) Workload {
	dir := "scimark-" + name
	return Workload{Name: dir, Suite: SuiteSciMark, DEX: dir + ".dex", Sources: []string{dir, scimarkCommon}, Main: "scimark." + class, Doc: doc}
}

// scimarkFloat is a SciMark kernel in single precision (package
// scimarkf: the double kernel with every double a float), for opcost's
// use case of what turning doubles into floats saves; the five share
// one DEX file.
func scimarkFloat(name, class string) Workload {
	return Workload{Name: "scimark-" + name + "-float", Suite: SuiteSciMark, DEX: "scimark-float.dex", Sources: []string{"scimark-float"},
		Main: "scimarkf." + class, Doc: "scimark-" + name + " in single precision (every double a float); same arguments"}
}

func caffeine(name, class, doc string) Workload {
	dir := "caffeine-" + name
	return Workload{Name: dir, Suite: SuiteCaffeineMark, DEX: dir + ".dex", Sources: []string{dir}, Main: "caffeine." + class, Doc: doc}
}

func concat(lists ...[]Workload) []Workload {
	var out []Workload
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// All lists every workload. Sizes are the programs' defaults, chosen to run
// in roughly 50-300 ms on "java -Xint".
var All = concat(
	dpa("fib", "Fib", "Ldpa/Fib;.fib:(I)I",
		"recursive Fibonacci of n (default 27); prints fib(n)"),
	dpa("concat", "Concat", "Ldpa/Concat;.concat:(I)Ljava/lang/String;",
		"builds \"0,1,...,n-1,\" with String += (default n 2500); prints length and checksum"),
	dpa("random", "RandomSum", "Ldpa/RandomSum;.sum:(I)J",
		"sums n java.util.Random.nextInt(1000) values (default 200000); prints the sum"),
	dpa("bubblesort", "BubbleSort", "Ldpa/BubbleSort;.sort:([I)V",
		"bubble-sorts n random ints (default 1400); prints first, last, checksum"),
	dpa("matmul", "MatMul", "Ldpa/MatMul;.multiply:([[D[[D)[[D",
		"multiplies two n x n matrices (default 110); prints trace and sum"),
	dpa("sieve", "Sieve", "Ldpa/Sieve;.sieve:(I)I",
		"sieve of Eratosthenes below n (default 1000000); prints the prime count"),
	[]Workload{
		scimark("fft", "FFT", "complex radix-2 FFT forward+inverse of n points (default 1024, 16 cycles); prints checksum and round-trip error"),
		scimark("sor", "SOR", "successive over-relaxation, omega 1.25, on an n x n grid (default 100, 20 sweeps); prints grid checksum"),
		scimark("montecarlo", "MonteCarlo", "Monte Carlo estimate of pi from n random points (default 100000); prints hits and pi"),
		scimark("sparse", "SparseMatMult", "compressed-row sparse matrix-vector multiply (default n 1000, nz 5000, 100 cycles); prints checksum"),
		scimark("lu", "LU", "LU factorisation with partial pivoting of an n x n matrix and a solve (default 120); prints pivots and checksum"),
		scimarkFloat("fft", "FFT"),
		scimarkFloat("sor", "SOR"),
		scimarkFloat("montecarlo", "MonteCarlo"),
		scimarkFloat("sparse", "SparseMatMult"),
		scimarkFloat("lu", "LU"),
		caffeine("sieve", "SieveTest", "sieve of 8192 flags repeated n times (default 120); prints prime count"),
		caffeine("loop", "LoopTest", "nested array loops repeated n times (default 100); prints checksum"),
		caffeine("logic", "LogicTest", "boolean and bit logic repeated n times (default 100); prints counts and checksum"),
		caffeine("string", "StringTest", "StringBuilder, indexOf, substring, equals, compareTo repeated n times (default 25); prints checksum"),
		caffeine("float", "FloatTest", "exact-rational point rotations and float arithmetic repeated n times (default 600); prints rounded checksums"),
		caffeine("method", "MethodTest", "static, private, virtual, interface and recursive calls repeated n times (default 200); prints checksum"),
		{Name: "chess", Suite: SuiteChess, DEX: "chess.dex", Sources: []string{"chess"}, Main: "chess.Chess",
			Doc: "perft to depth d and a 10-ply alpha-beta game at depth d-1 (default d 3), churning Point objects; prints node counts and moves"},
		{Name: "deltablue", Suite: SuiteDeltaBlue, DEX: "deltablue.dex", Sources: []string{"deltablue"}, Main: "deltablue.DeltaBlue",
			Doc: "incremental constraint solver, chain and projection tests of n variables (default 100, 8 rounds); prints plan sizes and checksum"},
		{Name: "binary-trees", Suite: SuiteBinaryTrees, DEX: "binary-trees.dex", Sources: []string{"binary-trees"}, Main: "binarytrees.BinaryTrees",
			Doc: "binary-trees: perfect trees of depth 4, 6, ... n (default 12) built bottom-up, counted and dropped beside one long-lived tree; prints tree counts and node checks"},
		{Name: "leak-list", Suite: SuiteLeak, DEX: "leak-list.dex", Sources: []string{"leak-list"}, Main: "leak.ListLeak",
			Doc: "ListLeak: n requests (default 10000) each appended to a static list never read; prints the list size"},
		{Name: "leak-swap", Suite: SuiteLeak, DEX: "leak-swap.dex", Sources: []string{"leak-swap"}, Main: "leak.SwapLeak",
			Doc: "SwapLeak: n updates (default 10000) of a double buffer whose old versions stay chained; prints the chain length"},
	},
)
