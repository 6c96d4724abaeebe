package microbench

import (
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// UseCase is one of the paper's use cases: two ways of writing an
// expression, each a unit of instructions, whose costs the cost table
// estimates and the benchmarks measure.
type UseCase struct {
	Name      string
	Variants  [2]UseCaseVariant
	PaperNote string // what the paper found
}

// UseCaseVariant is one way of writing the expression.
type UseCaseVariant struct {
	Expr    string   // as in Java
	Bench   string   // the benchmark measuring it
	Opcodes []string // its instructions, for the estimate
}

// UseCases are the paper's expression use cases.
var UseCases = []UseCase{{
	Name: "halving a long into a double",
	Variants: [2]UseCaseVariant{
		{"(double)(x / 2)", "usecase-long-div-then-convert", []string{"div-long", "long-to-double"}},
		{"(double)x / 2", "usecase-convert-then-double-div", []string{"long-to-double", "div-double"}},
	},
	PaperNote: "the paper measured (double)x / 2 at 2.85× the cost of (double)(x / 2)",
}}

const classUseCase = "usecase"

// UseCaseBenches returns the empty loop, the use cases' benchmarks and the
// benchmarks of every opcode their estimates need.
func UseCaseBenches() []*Bench {
	out := []*Bench{all[0]}
	seen := map[string]bool{EmptyLoop: true}
	for _, uc := range UseCases {
		for _, v := range uc.Variants {
			for _, op := range v.Opcodes {
				if b, ok := Lookup(op); ok && !seen[op] {
					seen[op] = true
					out = append(out, b)
				}
			}
		}
	}
	// x is a long in v6:v7, 2 in v8:v9 (long) and v12:v13 (double).
	setup := func(m *smali.MethodBuilder, _ string) {
		load(m, 6, "aj", "J")
		m.Op("const-wide/16", v(8), ast.Int(2))
		// 2.0: const-wide/high16 gives the top 16 bits
		m.Op("const-wide/high16", v(12), ast.Long(0x4000000000000000))
	}
	out = append(out,
		&Bench{Name: "usecase-long-div-then-convert", Class: classUseCase, setup: setup, sinks: sinks(sink(10, "D")),
			unit: func(u *unit) {
				u.op("div-long", v(4), v(6), v(8))
				u.op("long-to-double", v(10), v(4))
			}},
		&Bench{Name: "usecase-convert-then-double-div", Class: classUseCase, setup: setup, sinks: sinks(sink(10, "D")),
			unit: func(u *unit) {
				u.op("long-to-double", v(10), v(6))
				u.op("div-double", v(10), v(10), v(12))
			}},
	)
	return out
}
