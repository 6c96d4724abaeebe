package ssa

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Namer gives the text dump a comment for a value: the name of the
// field, method, type or string its Aux refers to. It may return "".
type Namer func(v *Value) string

// String returns f in the text form (see Fprint).
func (f *Func) String() string {
	var sb strings.Builder
	Fprint(&sb, f, nil)
	return sb.String()
}

// Fprint writes f in the text form Parse reads:
//
//	func NAME
//	b0:
//	  v0 = Param <int> [1]
//	  Plain -> b1
//	b1: <- b0 b2
//	  v1 = Phi <int> v0 v2
//	  ...
//	  If v3 -> b2 b3
//
// A block ends with its kind, control value and successors: "Plain -> b1",
// "If v3 -> b2 b3", "Switch v4 [1 5] -> b5 b6 b7" (the last successor is
// the default), "Return v2" or "Return", "Throw v3"; exception edges
// follow "catch": "Plain -> b4 catch b9". Blocks are written in their
// order in f.Blocks; names may comment a value after ';'.
func Fprint(w io.Writer, f *Func, names Namer) {
	fmt.Fprintf(w, "func %s\n", f.Name)
	for _, b := range f.Blocks {
		fmt.Fprintf(w, "b%d:", b.ID)
		if len(b.Preds) > 0 {
			io.WriteString(w, " <-")
			for _, p := range b.Preds {
				fmt.Fprintf(w, " b%d", p.ID)
			}
		}
		io.WriteString(w, "\n")
		for _, v := range b.Values {
			io.WriteString(w, "  ")
			io.WriteString(w, v.LongString())
			if names != nil {
				if n := names(v); n != "" {
					io.WriteString(w, " ; ")
					io.WriteString(w, n)
				}
			}
			io.WriteString(w, "\n")
		}
		fmt.Fprintf(w, "  %s\n", b.endString())
	}
}

// LongString returns the value's line in the text form.
func (v *Value) LongString() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "v%d = %s <%s>", v.ID, v.Op, v.Type)
	for _, a := range v.Args {
		fmt.Fprintf(&sb, " v%d", a.ID)
	}
	if v.Aux != 0 || v.Op == OpParam || v.Op == OpConst {
		fmt.Fprintf(&sb, " [%d]", v.Aux)
	}
	return sb.String()
}

func (b *Block) endString() string {
	var sb strings.Builder
	sb.WriteString(b.Kind.String())
	if b.Control != nil {
		fmt.Fprintf(&sb, " v%d", b.Control.ID)
	}
	if b.Kind == BlockSwitch {
		sb.WriteString(" [")
		for i, k := range b.Keys {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(strconv.Itoa(int(k)))
		}
		sb.WriteString("]")
	}
	normal := len(b.Succs) - b.NCatch
	if normal > 0 {
		sb.WriteString(" ->")
		for _, s := range b.Succs[:normal] {
			fmt.Fprintf(&sb, " b%d", s.ID)
		}
	}
	if b.NCatch > 0 {
		sb.WriteString(" catch")
		for _, s := range b.Succs[normal:] {
			fmt.Fprintf(&sb, " b%d", s.ID)
		}
	}
	return sb.String()
}

// Fdot writes f as a Graphviz digraph: a node per block listing its
// values, solid edges for normal control flow and dashed ones for
// exception edges.
func Fdot(w io.Writer, f *Func, names Namer) {
	fmt.Fprintf(w, "digraph %s {\n", strconv.Quote(f.Name))
	io.WriteString(w, "  node [shape=box fontname=\"monospace\" fontsize=10];\n")
	for _, b := range f.Blocks {
		var sb strings.Builder
		fmt.Fprintf(&sb, "b%d:\\l", b.ID)
		for _, v := range b.Values {
			line := v.LongString()
			if names != nil {
				if n := names(v); n != "" {
					line += " ; " + n
				}
			}
			sb.WriteString(dotEscape(line))
			sb.WriteString("\\l")
		}
		sb.WriteString(dotEscape(b.endString()))
		sb.WriteString("\\l")
		fmt.Fprintf(w, "  b%d [label=\"%s\"];\n", b.ID, sb.String())
		normal := len(b.Succs) - b.NCatch
		for i, s := range b.Succs {
			attr := ""
			switch {
			case i >= normal:
				attr = " [style=dashed label=\"catch\"]"
			case b.Kind == BlockIf && i == 0:
				attr = " [label=\"T\"]"
			case b.Kind == BlockIf && i == 1:
				attr = " [label=\"F\"]"
			case b.Kind == BlockSwitch && i < len(b.Keys):
				attr = fmt.Sprintf(" [label=\"%d\"]", b.Keys[i])
			case b.Kind == BlockSwitch:
				attr = " [label=\"default\"]"
			}
			fmt.Fprintf(w, "  b%d -> b%d%s;\n", b.ID, s.ID, attr)
		}
	}
	io.WriteString(w, "}\n")
}

func dotEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return r.Replace(s)
}
