package microbench

import (
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali/ast"
)

// No arithmetic or conversion copy reads a register its predecessor in
// the body wrote: a chain of dependent copies measures the latency of the
// operation where the linearity study's pairs let the host overlap
// neighbours, so the harness and not the instruction would make the error.
// Each accumulator must still be read by the copies that write it, which
// keeps a compiler from folding them.
func TestNeighboursIndependent(t *testing.T) {
	for _, b := range All() {
		if b.Class != classArith && b.Class != classConversion {
			continue
		}
		t.Run(b.Name, func(t *testing.T) {
			body := bodyOf(t, b, 8)
			if len(body) != 8 {
				t.Fatalf("%d instructions in the body, want 8", len(body))
			}
			for i := 1; i < len(body); i++ {
				w, _ := access(t, body[i-1])
				_, r := access(t, body[i])
				for reg := range w {
					if r[reg] {
						t.Errorf("copy %d (%s) reads v%d, which copy %d wrote", i, body[i].Name, reg, i-1)
					}
				}
			}
			if b.Class == classArith {
				w, r := access(t, body[0])
				for reg := range w {
					if !r[reg] {
						t.Errorf("%s does not read its accumulator v%d: its copies could be folded", b.Name, reg)
					}
				}
			}
		})
	}
}

// bodyOf returns the loop body of b's run method built with size copies:
// the instructions between the label body and the loop's decrement.
func bodyOf(t *testing.T, b *Bench, size int) []*ast.Instruction {
	t.Helper()
	var body []*ast.Instruction
	in := false
	for _, s := range runBody(t, b, size) {
		switch s := s.(type) {
		case *ast.Label:
			if s.Name == "body" {
				in = true
			}
		case *ast.Instruction:
			if in && s.Name == "add-int/lit8" && s.Args[0].(*ast.Register).Param {
				return body
			}
			if in {
				body = append(body, s)
			}
		}
	}
	t.Fatalf("no loop body in %s", b.ClassName())
	return nil
}

// access returns the registers an arithmetic or conversion instruction
// writes and reads (both halves of a wide value).
func access(t *testing.T, ins *ast.Instruction) (written, read map[int]bool) {
	t.Helper()
	name, form, _ := strings.Cut(ins.Name, "/")
	parts := strings.Split(name, "-")
	wide := func(typ string) int {
		if typ == "long" || typ == "double" {
			return 2
		}
		return 1
	}
	var dst, src int // widths of the result and of the first operand
	var rest []int   // widths of the other register operands
	switch {
	case len(parts) == 3 && parts[1] == "to": // int-to-long
		dst, src = wide(parts[2]), wide(parts[0])
	case len(parts) == 2: // add-int, neg-long, rsub-int
		dst, src = wide(parts[1]), wide(parts[1])
		second := dst
		if strings.HasPrefix(parts[0], "sh") || parts[0] == "ushr" {
			second = 1 // a shift's count is an int
		}
		rest = []int{second}
	default:
		t.Fatalf("%s: not an arithmetic or conversion instruction", ins.Name)
	}
	written, read = map[int]bool{}, map[int]bool{}
	var regs []int
	for _, a := range ins.Args {
		if r, ok := a.(*ast.Register); ok {
			regs = append(regs, r.Num)
		}
	}
	mark := func(set map[int]bool, reg, width int) {
		for k := 0; k < width; k++ {
			set[reg+k] = true
		}
	}
	mark(written, regs[0], dst)
	if form == "2addr" {
		mark(read, regs[0], src) // the destination is the first operand
		mark(read, regs[1], rest[0])
		return written, read
	}
	if len(regs) > 1 {
		mark(read, regs[1], src)
	}
	if len(regs) > 2 {
		mark(read, regs[2], rest[0])
	}
	return written, read
}
