package dexdump

import (
	"fmt"
	"math"
	"strings"

	"github.com/droidprof/droidprof/vm/dex"
)

// descriptorToDot turns a descriptor into dexdump's dotted form:
// "Ljava/lang/String;" → "java.lang.String", "[I" → "int[]".
func descriptorToDot(s string) string {
	depth := 0
	for len(s)-depth > 1 && s[depth] == '[' {
		depth++
	}
	s = s[depth:]
	if len(s) == 1 {
		s = primitiveName(s[0])
	} else if len(s) >= 2 && s[0] == 'L' && s[len(s)-1] == ';' {
		s = s[1 : len(s)-1]
	}
	return strings.ReplaceAll(s, "/", ".") + strings.Repeat("[]", depth)
}

func primitiveName(c byte) string {
	switch c {
	case 'B':
		return "byte"
	case 'C':
		return "char"
	case 'D':
		return "double"
	case 'F':
		return "float"
	case 'I':
		return "int"
	case 'J':
		return "long"
	case 'S':
		return "short"
	case 'V':
		return "void"
	case 'Z':
		return "boolean"
	}
	return "UNKNOWN"
}

func (p *printer) bytecodes(m dex.EncodedMethod) error {
	c := m.Code
	mr := p.f.Methods[m.Method]
	p.printf("%06x:                                        |[%06x] %s.%s:%s\n",
		c.Off, c.Off, descriptorToDot(p.typ(mr.Class)), p.str(mr.Name), p.proto(mr.Proto))
	it := c.Iterator()
	for it.Next() {
		p.instruction(c, it.PC(), it.Inst())
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("%s: %w", p.f.MethodName(m.Method), err)
	}
	return nil
}

// sign returns the sign character and magnitude dexdump prints for a
// relative branch.
func sign(off int32) (byte, uint32) {
	if off < 0 {
		return '-', uint32(-off)
	}
	return '+', uint32(off)
}

func (p *printer) instruction(c *dex.Code, pc int, in *dex.Instruction) {
	p.printf("%06x:", c.InsnsOff()+uint32(pc)*2)
	for i := 0; i < 8; i++ {
		switch {
		case uint32(i) >= in.Size:
			p.w.WriteString("     ")
		case i == 7:
			p.w.WriteString(" ... ")
		default:
			u := c.Insns[pc+i]
			p.printf(" %02x%02x", u&0xff, u>>8)
		}
	}
	if in.Op == dex.OpNop {
		if in.Payload != dex.NoPayload {
			p.printf("|%04x: %s (%d units)", pc, in.Payload, in.Size)
		} else {
			p.printf("|%04x: nop // spacer", pc)
		}
	} else {
		p.printf("|%04x: %s", pc, in.Op)
	}
	info := in.Op.Info()
	upc := uint32(pc)
	switch info.Format {
	case dex.Format10x:
	case dex.Format12x, dex.Format22x, dex.Format32x:
		p.printf(" v%d, v%d", in.A, in.B)
	case dex.Format11n:
		p.printf(" v%d, #int %d // #%x", in.A, in.Lit, uint8(in.Lit))
	case dex.Format11x:
		p.printf(" v%d", in.A)
	case dex.Format10t, dex.Format20t:
		s, mag := sign(int32(in.Lit))
		p.printf(" %04x // %c%04x", upc+uint32(in.Lit), s, mag)
	case dex.Format21t:
		s, mag := sign(int32(in.Lit))
		p.printf(" v%d, %04x // %c%04x", in.A, upc+uint32(in.Lit), s, mag)
	case dex.Format21s:
		p.printf(" v%d, #int %d // #%x", in.A, in.Lit, uint16(in.Lit))
	case dex.Format21h:
		if in.Op == dex.OpConstHigh16 {
			p.printf(" v%d, #int %d // #%x", in.A, in.Lit, uint16(in.Lit>>16))
		} else {
			p.printf(" v%d, #long %d // #%x", in.A, in.Lit, uint16(in.Lit>>48))
		}
	case dex.Format21c, dex.Format31c:
		p.printf(" v%d, %s", in.A, p.index(in))
	case dex.Format23x:
		p.printf(" v%d, v%d, v%d", in.A, in.B, in.C)
	case dex.Format22b:
		p.printf(" v%d, v%d, #int %d // #%02x", in.A, in.B, in.Lit, uint8(in.Lit))
	case dex.Format22t:
		s, mag := sign(int32(in.Lit))
		p.printf(" v%d, v%d, %04x // %c%04x", in.A, in.B, upc+uint32(in.Lit), s, mag)
	case dex.Format22s:
		p.printf(" v%d, v%d, #int %d // #%04x", in.A, in.B, in.Lit, uint16(in.Lit))
	case dex.Format22c:
		p.printf(" v%d, v%d, %s", in.A, in.B, p.index(in))
	case dex.Format30t:
		p.printf(" #%08x", uint32(in.Lit))
	case dex.Format31i:
		p.printf(" v%d, #float %s // #%08x", in.A, formatG32(uint32(in.Lit)), uint32(in.Lit))
	case dex.Format31t:
		p.printf(" v%d, %08x // +%08x", in.A, upc+uint32(in.Lit), uint32(in.Lit))
	case dex.Format35c, dex.Format45cc:
		p.w.WriteString(" {")
		for i := uint32(0); i < in.A; i++ {
			if i > 0 {
				p.w.WriteString(", ")
			}
			p.printf("v%d", in.Args[i])
		}
		p.printf("}, %s", p.index(in))
	case dex.Format3rc, dex.Format4rcc:
		p.w.WriteString(" {")
		for i := uint32(0); i < in.A; i++ {
			if i > 0 {
				p.w.WriteString(", ")
			}
			p.printf("v%d", in.C+i)
		}
		p.printf("}, %s", p.index(in))
	case dex.Format51l:
		p.printf(" v%d, #double %s // #%016x", in.A, formatG(math.Float64frombits(uint64(in.Lit))), uint64(in.Lit))
	}
	p.w.WriteString("\n")
}

// index renders an instruction's index operand as dexdump's indexString.
func (p *printer) index(in *dex.Instruction) string {
	width := 4
	if in.Op.Format() == dex.Format31c {
		width = 8
	}
	idx := in.Index
	f := p.f
	switch in.Op.Info().Index {
	case dex.IndexType:
		if idx < uint32(len(f.Types)) {
			return fmt.Sprintf("%s // type@%0*x", p.typ(idx), width, idx)
		}
		return fmt.Sprintf("<type?> // type@%0*x", width, idx)
	case dex.IndexString:
		if idx < uint32(len(f.Strings)) {
			return fmt.Sprintf("\"%s\" // string@%0*x", p.str(idx), width, idx)
		}
		return fmt.Sprintf("<string?> // string@%0*x", width, idx)
	case dex.IndexMethod:
		if idx < uint32(len(f.Methods)) {
			return fmt.Sprintf("%s // method@%0*x", p.methodRef(idx), width, idx)
		}
		return fmt.Sprintf("<method?> // method@%0*x", width, idx)
	case dex.IndexField:
		if idx < uint32(len(f.Fields)) {
			fr := f.Fields[idx]
			return fmt.Sprintf("%s.%s:%s // field@%0*x", p.typ(fr.Class), p.str(fr.Name), p.typ(fr.Type), width, idx)
		}
		return fmt.Sprintf("<field?> // field@%0*x", width, idx)
	case dex.IndexMethodAndProto:
		method, proto := "<method?>", "<proto?>"
		if idx < uint32(len(f.Methods)) {
			method = p.methodRef(idx)
		}
		if in.Proto < uint32(len(f.Protos)) {
			proto = p.proto(in.Proto)
		}
		return fmt.Sprintf("%s, %s // method@%0*x, proto@%0*x", method, proto, width, idx, width, in.Proto)
	case dex.IndexCallSite:
		return fmt.Sprintf("call_site@%0*x", width, idx)
	case dex.IndexMethodHandle:
		return fmt.Sprintf("method_handle@%0*x", width, idx)
	case dex.IndexProto:
		if idx < uint32(len(f.Protos)) {
			return fmt.Sprintf("%s // proto@%0*x", p.proto(idx), width, idx)
		}
		return fmt.Sprintf("<?> // proto@%0*x", width, idx)
	case dex.IndexFieldOffset:
		return fmt.Sprintf("[obj+%0*x]", width, idx)
	case dex.IndexVtableOffset:
		return fmt.Sprintf("[%0*x] // vtable #%0*x", width, idx, width, idx)
	case dex.IndexUnknown:
		return "<unknown-index>"
	}
	return "<no-index>"
}

func (p *printer) methodRef(idx uint32) string {
	m := p.f.Methods[idx]
	return p.typ(m.Class) + "." + p.str(m.Name) + ":" + p.proto(m.Proto)
}
