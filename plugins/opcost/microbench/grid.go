package microbench

import (
	"fmt"

	"github.com/droidprof/droidprof/vm/smali"
)

// The operand-value study (paper 004, §4): an instruction's cost over a
// grid of operand magnitudes. A grid benchmark's copies are independent
// (each combines the same two operand registers), and the operands come
// from the fields ga* and gb* of Ops, which the driver sets from its
// command line before running (MainClass's OPERAND-A and OPERAND-B), so
// one program measures every point of the grid.

// GridOp is an opcode whose cost is measured over a grid of operands.
type GridOp struct {
	Opcode string
	Kind   string // "I", "J" or "D": the operands' type
	Unary  bool   // one operand (a conversion): the grid is one row
}

// GridOps are the opcodes the study covers by default: the divisions,
// multiplications and the conversions whose cost may depend on values.
var GridOps = []GridOp{
	{"div-int", "I", false}, {"rem-int", "I", false}, {"mul-int", "I", false},
	{"div-long", "J", false}, {"mul-long", "J", false},
	{"div-double", "D", false}, {"mul-double", "D", false},
	{"double-to-int", "D", true}, {"double-to-long", "D", true},
}

// LookupGrid finds a grid opcode.
func LookupGrid(op string) (GridOp, bool) {
	for _, g := range GridOps {
		if g.Opcode == op {
			return g, true
		}
	}
	return GridOp{}, false
}

// GridName names an opcode's grid benchmark.
func GridName(op string) string { return "grid " + op }

const classGrid = "grid"

// Grid returns the empty loop and the grid benchmark of each opcode.
func Grid(ops []string) ([]*Bench, error) {
	out := []*Bench{all[0]}
	for _, op := range ops {
		g, ok := LookupGrid(op)
		if !ok {
			var names []string
			for _, g := range GridOps {
				names = append(names, g.Opcode)
			}
			return nil, fmt.Errorf("opcost: no operand grid for %q (grids: %v)", op, names)
		}
		out = append(out, gridBench(g))
	}
	return out, nil
}

func gridBench(g GridOp) *Bench {
	// The operands' and the result's registers and the operand fields'
	// suffix, by operand type; a conversion's result is an int or a long.
	a, b, dst, suffix, result := 6, 8, 4, "d", g.Kind
	switch {
	case g.Kind == "I":
		a, b, dst, suffix = 1, 2, 0, "i"
	case g.Kind == "J":
		suffix = "j"
	case g.Opcode == "double-to-int":
		dst, result = 0, "I"
	case g.Unary:
		result = "J"
	}
	return &Bench{
		Name:  GridName(g.Opcode),
		Class: classGrid,
		sinks: sinks(sink(dst, result)),
		setup: func(m *smali.MethodBuilder, _ string) {
			load(m, a, "ga"+suffix, g.Kind)
			if !g.Unary {
				load(m, b, "gb"+suffix, g.Kind)
			}
		},
		unit: func(u *unit) {
			if g.Unary {
				u.op(g.Opcode, v(dst), v(a))
				return
			}
			u.op(g.Opcode, v(dst), v(a), v(b))
		},
	}
}

// GridValues are the operand magnitudes of a kind's grid: from 1 to near
// the type's limit, none a power of two (hardware may take a short cut
// for those).
func GridValues(kind string) []string {
	switch kind {
	case "I":
		return []string{"1", "7", "99", "1234", "56789", "1234567", "98765432", "1987654321"}
	case "J":
		return []string{"1", "99", "56789", "98765432", "76543210987", "1234567890123", "987654321098765", "1234567890123456789"}
	}
	return []string{"0.001", "1", "999", "1e+06", "1e+09", "1e+12", "1e+15", "1e+18"}
}
