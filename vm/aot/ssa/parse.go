package ssa

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads a function in the text form Fprint writes. Value and block
// numbers are kept, so a dump parses back to the same text; values may be
// used before the line that defines them (φ arguments). Predecessor lists
// ("<- b0 b2") are taken as written, so φ argument order is explicit.
func Parse(src string) (*Func, error) {
	p := &parser{f: &Func{}, vals: map[int]*Value{}, blocks: map[int]*Block{}}
	if err := p.parse(src); err != nil {
		return nil, err
	}
	return p.f, nil
}

type parser struct {
	f      *Func
	vals   map[int]*Value
	blocks map[int]*Block
	line   int
	// per value, its argument names, resolved at the end
	pending []pendingArgs
	defined map[int]bool
}

type pendingArgs struct {
	v    *Value
	args []int
	line int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("ssa: line %d: %s", p.line, fmt.Sprintf(format, args...))
}

func (p *parser) value(id int) *Value {
	v := p.vals[id]
	if v == nil {
		v = &Value{ID: id, PC: -1}
		p.vals[id] = v
		if id >= p.f.nextV {
			p.f.nextV = id + 1
		}
	}
	return v
}

func (p *parser) block(id int) *Block {
	b := p.blocks[id]
	if b == nil {
		b = &Block{ID: id, Func: p.f, PC: -1}
		p.blocks[id] = b
		if id >= p.f.nextB {
			p.f.nextB = id + 1
		}
	}
	return b
}

func number(tok string, prefix byte) (int, bool) {
	if len(tok) < 2 || tok[0] != prefix {
		return 0, false
	}
	n, err := strconv.Atoi(tok[1:])
	return n, err == nil && n >= 0
}

func (p *parser) parse(src string) error {
	p.defined = map[int]bool{}
	var cur *Block
	ended := false
	var order []*Block
	for _, raw := range strings.Split(src, "\n") {
		p.line++
		line := raw
		if i := strings.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		toks := strings.Fields(line)
		if len(toks) == 0 {
			continue
		}
		switch {
		case toks[0] == "func":
			if len(toks) != 2 || p.f.Name != "" || cur != nil {
				return p.errorf("want one 'func NAME' line first")
			}
			p.f.Name = toks[1]
		case strings.HasSuffix(toks[0], ":"):
			id, ok := number(strings.TrimSuffix(toks[0], ":"), 'b')
			if !ok {
				return p.errorf("bad block label %q", toks[0])
			}
			if cur != nil && !ended {
				return p.errorf("block b%d has no end line", cur.ID)
			}
			b := p.block(id)
			for _, o := range order {
				if o == b {
					return p.errorf("block b%d defined twice", id)
				}
			}
			order = append(order, b)
			cur, ended = b, false
			rest := toks[1:]
			if len(rest) > 0 {
				if rest[0] != "<-" {
					return p.errorf("want '<- PREDS' after the block label")
				}
				for _, t := range rest[1:] {
					pid, ok := number(t, 'b')
					if !ok {
						return p.errorf("bad predecessor %q", t)
					}
					b.Preds = append(b.Preds, p.block(pid))
				}
			}
		case cur == nil:
			return p.errorf("a value or block end outside a block")
		case ended:
			return p.errorf("block b%d continues after its end line", cur.ID)
		case len(toks) >= 3 && toks[1] == "=":
			if err := p.parseValue(cur, toks); err != nil {
				return err
			}
		default:
			if err := p.parseEnd(cur, toks); err != nil {
				return err
			}
			ended = true
		}
	}
	if cur != nil && !ended {
		return p.errorf("block b%d has no end line", cur.ID)
	}
	if len(order) == 0 {
		return p.errorf("no blocks")
	}
	for id, b := range p.blocks {
		found := false
		for _, o := range order {
			found = found || o == b
		}
		if !found {
			return fmt.Errorf("ssa: block b%d is referenced but not defined", id)
		}
	}
	for _, pa := range p.pending {
		for _, a := range pa.args {
			if !p.defined[a] {
				return fmt.Errorf("ssa: line %d: v%d is used but not defined", pa.line, a)
			}
			pa.v.Args = append(pa.v.Args, p.vals[a])
		}
	}
	for _, b := range order {
		if b.Control != nil && !p.defined[b.Control.ID] {
			return fmt.Errorf("ssa: block b%d: control v%d is not defined", b.ID, b.Control.ID)
		}
	}
	p.f.Blocks = order
	// Every edge appears twice (successor list and predecessor list); the
	// two must agree, as the checker would otherwise report confusingly.
	for _, b := range order {
		for _, s := range b.Succs {
			if count(s.Preds, b) != count(b.Succs, s) {
				return fmt.Errorf("ssa: edge b%d -> b%d is not in b%d's predecessor list", b.ID, s.ID, s.ID)
			}
		}
		for _, q := range b.Preds {
			if count(q.Succs, b) != count(b.Preds, q) {
				return fmt.Errorf("ssa: b%d lists predecessor b%d, which has no edge to it", b.ID, q.ID)
			}
		}
	}
	return nil
}

func count(bs []*Block, b *Block) int {
	n := 0
	for _, x := range bs {
		if x == b {
			n++
		}
	}
	return n
}

// parseValue reads "vN = Op <type> vA vB [aux]".
func (p *parser) parseValue(b *Block, toks []string) error {
	id, ok := number(toks[0], 'v')
	if !ok {
		return p.errorf("bad value name %q", toks[0])
	}
	if p.defined[id] {
		return p.errorf("v%d defined twice", id)
	}
	op, ok := opByName[toks[2]]
	if !ok {
		return p.errorf("unknown op %q", toks[2])
	}
	v := p.value(id)
	v.Op, v.Block = op, b
	p.defined[id] = true
	rest := toks[3:]
	if len(rest) == 0 || !strings.HasPrefix(rest[0], "<") || !strings.HasSuffix(rest[0], ">") {
		return p.errorf("v%d: want <type> after the op", id)
	}
	t, ok := typeByName(strings.Trim(rest[0], "<>"))
	if !ok {
		return p.errorf("v%d: unknown type %s", id, rest[0])
	}
	v.Type = t
	pa := pendingArgs{v: v, line: p.line}
	for _, tok := range rest[1:] {
		if strings.HasPrefix(tok, "[") {
			n, err := strconv.ParseInt(strings.Trim(tok, "[]"), 10, 64)
			if err != nil || !strings.HasSuffix(tok, "]") {
				return p.errorf("v%d: bad aux %q", id, tok)
			}
			v.Aux = n
			continue
		}
		a, ok := number(tok, 'v')
		if !ok {
			return p.errorf("v%d: bad argument %q", id, tok)
		}
		p.value(a)
		pa.args = append(pa.args, a)
	}
	p.pending = append(p.pending, pa)
	b.Values = append(b.Values, v)
	return nil
}

// parseEnd reads a block's end line: KIND [vC] [[keys]] [-> succs] [catch succs].
func (p *parser) parseEnd(b *Block, toks []string) error {
	kind := -1
	for i, n := range blockKindNames {
		if n == toks[0] {
			kind = i
		}
	}
	if kind < 0 {
		return p.errorf("unknown block kind %q", toks[0])
	}
	b.Kind = BlockKind(kind)
	rest := toks[1:]
	if len(rest) > 0 {
		if id, ok := number(rest[0], 'v'); ok {
			b.Control = p.value(id)
			rest = rest[1:]
		}
	}
	if len(rest) > 0 && strings.HasPrefix(rest[0], "[") {
		// keys may be split over several tokens: "[1", "2]" or "[]"
		var keys []string
		for len(rest) > 0 {
			tok := rest[0]
			rest = rest[1:]
			keys = append(keys, strings.Trim(tok, "[]"))
			if strings.HasSuffix(tok, "]") {
				break
			}
		}
		for _, k := range keys {
			if k == "" {
				continue
			}
			n, err := strconv.ParseInt(k, 10, 32)
			if err != nil {
				return p.errorf("bad switch key %q", k)
			}
			b.Keys = append(b.Keys, int32(n))
		}
	}
	catch := false
	for i, tok := range rest {
		switch {
		case tok == "->" && i == 0:
		case tok == "catch" && !catch:
			catch = true
		default:
			id, ok := number(tok, 'b')
			if !ok {
				return p.errorf("bad successor %q", tok)
			}
			b.Succs = append(b.Succs, p.block(id))
			if catch {
				b.NCatch++
			}
		}
	}
	return nil
}

func typeByName(s string) (Type, bool) {
	for i, n := range typeNames {
		if n == s {
			return Type(i), true
		}
	}
	return 0, false
}
