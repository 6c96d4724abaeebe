package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/droidprof/droidprof/framework/api"
)

// body is a plugin block body kept undecoded until its schema is known.
type body interface {
	// content splits the body by the schema, reporting unknown names,
	// duplicates and malformed matrix references.
	content(s *api.Schema) (*rawBody, Diagnostics)
}

// rawBody is a body split by its schema, not yet evaluated.
type rawBody struct {
	pos    Pos // where missing arguments are reported
	attrs  map[string]*rawAttr
	blocks map[string]*rawBody
}

func newRawBody(pos Pos) *rawBody {
	return &rawBody{pos: pos, attrs: map[string]*rawAttr{}, blocks: map[string]*rawBody{}}
}

type rawAttr struct {
	pos  Pos // of the value
	refs []matrixRef
	bad  bool // already reported (a bad matrix reference): not evaluated
	eval func(ctx *hcl.EvalContext) (cty.Value, Diagnostics)
}

type matrixRef struct {
	axis string
	pos  Pos
}

// override is one setting of a plugin body from the environment or --set.
type override struct {
	path []string // inside the block
	text string
	src  string // "env:DROIDPROF_X" or "--set k=v"
	fold bool   // match names case-insensitively (environment variables)
}

// tree is a decoded body: converted values with their origin.
type tree struct {
	pos  Pos
	vals map[string]*entry
}

type entry struct {
	v   any // converted value, or *tree for a nested block
	at  where
	bad bool // present but invalid, already reported: skip further checks
}

func newTree(pos Pos) *tree { return &tree{pos: pos, vals: map[string]*entry{}} }

func fieldNamed(s *api.Schema, name string, fold bool) *api.Field {
	for _, f := range s.GetFields() {
		if f.Name == name || (fold && strings.EqualFold(f.Name, name)) {
			return f
		}
	}
	return nil
}

func fieldNames(s *api.Schema) (attrs, blocks []string) {
	for _, f := range s.GetFields() {
		if f.Type == api.Field_TYPE_BLOCK {
			blocks = append(blocks, f.Name)
		} else {
			attrs = append(attrs, f.Name)
		}
	}
	return attrs, blocks
}

// overlay parses the block's overrides against the schema.
func (b *Block) overlay(s *api.Schema) (*tree, Diagnostics) {
	t := newTree(b.Pos)
	var ds Diagnostics
	for _, o := range b.overrides {
		at := where{src: o.src}
		cur, sch := t, s
		for i, name := range o.path {
			f := fieldNamed(sch, name, o.fold)
			if f == nil {
				attrs, blocks := fieldNames(sch)
				all := append(attrs, blocks...)
				msg := fmt.Sprintf("unknown setting %q in %s", strings.Join(o.path[:i+1], "."), b)
				if sug := suggest(name, all); sug != "" {
					msg += fmt.Sprintf("; did you mean %q?", strings.Join(append(append([]string{}, o.path[:i]...), sug), "."))
				}
				ds = append(ds, at.diag(msg, ""))
				break
			}
			last := i == len(o.path)-1
			if f.Type == api.Field_TYPE_BLOCK {
				if last {
					ds = append(ds, at.diag(fmt.Sprintf("setting %q in %s is a block; set one of its keys, e.g. %s.%s",
						strings.Join(o.path, "."), b, strings.Join(o.path, "."), firstName(f.Block)), ""))
					break
				}
				e := cur.vals[f.Name]
				if e == nil {
					e = &entry{v: newTree(cur.pos), at: at}
					cur.vals[f.Name] = e
				}
				cur, sch = e.v.(*tree), f.Block
				continue
			}
			if !last {
				ds = append(ds, at.diag(fmt.Sprintf("setting %q in %s is not a block", strings.Join(o.path[:i+1], "."), b), ""))
				break
			}
			v, err := parseText(f, o.text)
			if err != nil {
				ds = append(ds, at.diag(fmt.Sprintf("Unsuitable value for %q", f.Name), err.Error()))
				cur.vals[f.Name] = &entry{at: at, bad: true}
				break
			}
			cur.vals[f.Name] = &entry{v: v, at: at}
		}
	}
	return t, ds
}

func firstName(s *api.Schema) string {
	if fs := s.GetFields(); len(fs) > 0 {
		return fs[0].Name
	}
	return "KEY"
}

// checkRefs checks the matrix references of the attributes an override
// does not replace, marking attributes with a bad reference so that they are
// not evaluated, and returns the good references.
// bad returns ok=false for a bad reference, with the diagnostic to report
// (nil when the problem was reported elsewhere).
func (r *rawBody) checkRefs(s *api.Schema, ov *tree, bad func(matrixRef) (*Diagnostic, bool)) ([]matrixRef, Diagnostics) {
	var (
		out []matrixRef
		ds  Diagnostics
	)
	for _, f := range s.GetFields() {
		var sub *tree
		if ov != nil {
			if e := ov.vals[f.Name]; e != nil {
				if t, ok := e.v.(*tree); ok {
					sub = t
				} else {
					continue
				}
			}
		}
		if f.Type == api.Field_TYPE_BLOCK {
			if rb := r.blocks[f.Name]; rb != nil {
				refs, sds := rb.checkRefs(f.Block, sub, bad)
				out, ds = append(out, refs...), append(ds, sds...)
			}
			continue
		}
		a := r.attrs[f.Name]
		if a == nil {
			continue
		}
		for _, ref := range a.refs {
			if d, ok := bad(ref); !ok {
				if d != nil {
					ds = append(ds, d)
				}
				a.bad = true
			} else {
				out = append(out, ref)
			}
		}
	}
	return out, ds
}

// eval evaluates the body in ctx and lays the overrides over it.
func (r *rawBody) eval(s *api.Schema, ctx *hcl.EvalContext, ov *tree) (*tree, Diagnostics) {
	t := newTree(r.pos)
	var ds Diagnostics
	for _, f := range s.GetFields() {
		var oe *entry
		if ov != nil {
			oe = ov.vals[f.Name]
		}
		if f.Type == api.Field_TYPE_BLOCK {
			var sub *tree
			if oe != nil {
				sub = oe.v.(*tree)
			}
			if rb := r.blocks[f.Name]; rb != nil {
				st, sds := rb.eval(f.Block, ctx, sub)
				ds = append(ds, sds...)
				t.vals[f.Name] = &entry{v: st, at: where{pos: rb.pos}}
			} else if sub != nil {
				t.vals[f.Name] = oe
			}
			continue
		}
		if oe != nil {
			t.vals[f.Name] = oe
			continue
		}
		a := r.attrs[f.Name]
		if a == nil {
			continue
		}
		if a.bad {
			t.vals[f.Name] = &entry{at: where{pos: a.pos}, bad: true}
			continue
		}
		v, eds := a.eval(ctx)
		if len(eds) > 0 {
			ds = append(ds, eds...)
			t.vals[f.Name] = &entry{at: where{pos: a.pos}, bad: true}
			continue
		}
		if v.IsNull() {
			continue // null means absent: the default applies
		}
		x, err := fromCty(f, v)
		if err != nil {
			ds = append(ds, &Diagnostic{Pos: a.pos, Summary: fmt.Sprintf("Unsuitable value for %q", f.Name), Detail: err.Error()})
			t.vals[f.Name] = &entry{at: where{pos: a.pos}, bad: true}
			continue
		}
		t.vals[f.Name] = &entry{v: x, at: where{pos: a.pos}}
	}
	return t, ds
}

// finish checks a decoded body against the schema and fills in defaults,
// returning a map with every field of the schema.
func finish(s *api.Schema, t *tree) (map[string]any, Diagnostics) {
	out := map[string]any{}
	var ds Diagnostics
	for _, f := range s.GetFields() {
		e := t.vals[f.Name]
		switch {
		case f.Type == api.Field_TYPE_BLOCK:
			sub := newTree(t.pos)
			if e != nil {
				sub = e.v.(*tree)
			}
			m, sds := finish(f.Block, sub)
			ds = append(ds, sds...)
			out[f.Name] = m
		case e != nil && e.bad:
			out[f.Name] = zero(f)
		case e != nil:
			if err := check(f, e.v); err != nil {
				ds = append(ds, e.at.diag(fmt.Sprintf("Invalid value for %q", f.Name), err.Error()))
			}
			out[f.Name] = e.v
		case f.Required:
			ds = append(ds, &Diagnostic{Pos: t.pos, Summary: "Missing required argument",
				Detail: fmt.Sprintf("The argument %q is required, but no definition was found.", f.Name)})
		case f.DefaultJson != "":
			v, err := defaultOf(f)
			if err != nil {
				ds = append(ds, &Diagnostic{Pos: t.pos, Summary: "Invalid plugin schema",
					Detail: fmt.Sprintf("the default of %q (%s) is not valid: %v", f.Name, f.DefaultJson, err)})
			}
			out[f.Name] = v
		default:
			out[f.Name] = zero(f)
		}
	}
	return out, ds
}
