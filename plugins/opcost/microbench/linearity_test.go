package microbench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali/ast"
)

// Nothing in a linearity pair but the partner names the partner's
// registers: v17 (its result) and v19, v18 (its dividend and divisor).
// An opcode whose setup or copies wrote one of them — a wide value in
// v16 covers v17 — would change the division's operands, and with them
// its operand-dependent latency, or chain the division on the opcode's
// result: the pair would then measure a different division from the
// partner alone, and the error would be the harness's.
func TestPairsKeepPartnerRegisters(t *testing.T) {
	lin, err := Linearity(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range lin {
		if b.Class != classLinearity {
			continue
		}
		t.Run(b.Name, func(t *testing.T) {
			for _, bad := range partnerViolations(b, runMethod(t, b, 8), 8) {
				t.Error(bad)
			}
		})
	}
}

// partnerViolations lists every instruction of code, the run method of
// b, that names v17–v19 and is not one of the partner's own (its zeroed
// sink, its three loads, its div-int and its sink's store), and a body
// whose copies of the partner are not half of its size copies (the
// partner alone: all) in the partner's operands.
func partnerViolations(b *Bench, code []*ast.Instruction, size int) []string {
	own := map[string]bool{
		"const/16 v17, 0":       true,
		"sget v17, a":           true,
		"sget v18, one":         true,
		"sget v19, a":           true,
		"div-int v17, v19, v18": true,
		"sput v17, si":          true,
	}
	var bad []string
	divs := 0
	for i, ins := range code {
		s := render(ins)
		if own[s] {
			if ins.Name == "div-int" {
				divs++
			}
			continue
		}
		for _, r := range registers(ins) {
			if r >= 17 && r <= 19 {
				bad = append(bad, fmt.Sprintf("instruction %d, %q, names v%d, a register of the partner's", i, s, r))
			}
		}
	}
	want := size / 2
	if b.Name == PartnerName {
		want = size
	}
	if divs != want {
		bad = append(bad, fmt.Sprintf("%d copies of the partner's div-int in a body of %d, want %d", divs, size, want))
	}
	return bad
}

// runMethod returns every instruction of b's run method built with size
// copies.
func runMethod(t *testing.T, b *Bench, size int) []*ast.Instruction {
	t.Helper()
	var code []*ast.Instruction
	for _, s := range runBody(t, b, size) {
		if ins, ok := s.(*ast.Instruction); ok {
			code = append(code, ins)
		}
	}
	return code
}

// runBody returns the statements of b's run method built with size
// copies.
func runBody(t *testing.T, b *Bench, size int) []ast.Stmt {
	t.Helper()
	classes, err := Program([]*Bench{b}, size)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range classes {
		if c.Name != b.ClassName() {
			continue
		}
		for _, m := range c.Methods {
			if m.Name == "run" {
				return m.Body
			}
		}
	}
	t.Fatalf("no run method in %s", b.ClassName())
	return nil
}

// registers lists the registers an instruction names (vN; pN as the
// frame's register), a wide one's high half too: an instruction of a
// wide type names both halves of its first register, and conservatively
// of every other.
func registers(ins *ast.Instruction) []int {
	wide := strings.Contains(ins.Name, "wide") || strings.Contains(ins.Name, "long") || strings.Contains(ins.Name, "double")
	var out []int
	add := func(r *ast.Register) {
		n := r.Num
		if r.Param {
			n += frameRegs - 1 // run(I)J has one parameter
		}
		out = append(out, n)
		if wide {
			out = append(out, n+1)
		}
	}
	for _, a := range ins.Args {
		switch a := a.(type) {
		case *ast.Register:
			add(a)
		case *ast.RegisterList:
			for _, r := range a.Regs {
				add(r)
			}
		case *ast.RegisterRange:
			if a.First != nil {
				last := a.First.Num
				if a.Last != nil {
					last = a.Last.Num
				}
				for n := a.First.Num; n <= last; n++ {
					add(&ast.Register{Param: a.First.Param, Num: n})
				}
			}
		}
	}
	return out
}

// render is an instruction as "name v1, v2, field": registers and the
// name of a field, enough to tell the partner's instructions apart.
func render(ins *ast.Instruction) string {
	var parts []string
	for _, a := range ins.Args {
		switch a := a.(type) {
		case *ast.Register:
			parts = append(parts, fmt.Sprintf("v%d", a.Num))
		case *ast.FieldRef:
			parts = append(parts, a.Name)
		case *ast.Literal:
			parts = append(parts, fmt.Sprint(a.Int))
		default:
			parts = append(parts, fmt.Sprintf("%T", a))
		}
	}
	return strings.TrimSpace(ins.Name + " " + strings.Join(parts, ", "))
}

// The check finds an opcode that writes into the partner's registers,
// directly or through a wide value's high half, or reads its dividend.
func TestPartnerViolations(t *testing.T) {
	tests := []struct {
		name string
		unit func(u *unit)
	}{
		// int-to-long names its registers in four bits: it cannot reach
		// v16; a wide move can.
		{"wide move into v16", func(u *unit) { u.op("move-wide/from16", v(16), v(4)) }},
		{"move into the divisor", func(u *unit) { u.op("move/16", v(18), v(1)) }},
		{"add-int reading the dividend", func(u *unit) { u.op("add-int", v(0), v(19), v(2)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &Bench{Name: "clobber", Class: classArith, setup: ints("zero"), unit: tt.unit}
			for _, form := range []string{Alternating, Halves} {
				p := pair(x, form)
				if bad := partnerViolations(p, runMethod(t, p, 8), 8); len(bad) != 4 {
					t.Errorf("%s: %d violations, want the 4 copies: %q", form, len(bad), bad)
				}
			}
		})
	}
}
