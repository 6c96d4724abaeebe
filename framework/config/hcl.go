package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/droidprof/droidprof/framework/api"
)

// Names allowed in an experiment body, and in its storage block.
var (
	experimentAttrs  = []string{"description", "repeat", "warmup", "plugin_dirs"}
	experimentBlocks = []string{"storage", "matrix", "collect", "analyze"}
	storageAttrs     = []string{"backend", "dir", "keep", "options", "fs", "size", "mkfs_options", "mount_options", "device", "format", "image_dir"}
)

// fileLayer is what a config file says, before overrides: the top-level
// settings as plain nested data for koanf, with the position of every value,
// and the plugin blocks.
type fileLayer struct {
	name   string
	values map[string]any
	pos    map[string]Pos // dotted path → position of the value
	axes   []string       // matrix axes in file order
	// storageRefs are the storage attributes that refer to the matrix, to be
	// evaluated per cell; values holds matrixMarker in their place.
	storageRefs map[string]*rawAttr
	collect     []*Block
	analyze     []*Block
}

func newFileLayer() *fileLayer {
	return &fileLayer{values: map[string]any{}, pos: map[string]Pos{}, storageRefs: map[string]*rawAttr{}}
}

// set stores v at path (creating the maps on the way) and records pos.
func (fl *fileLayer) set(pos Pos, v any, path ...string) {
	setPath(fl.values, path, v)
	fl.pos[joinPath(path)] = pos
}

// addBlock records a collect/analyze block, rejecting duplicates.
func (fl *fileLayer) addBlock(b *Block) *Diagnostic {
	list := &fl.collect
	if b.Kind == "analyze" {
		list = &fl.analyze
	}
	for _, o := range *list {
		if o.Plugin == b.Plugin && o.Component == b.Component {
			return &Diagnostic{Pos: b.Pos, Summary: fmt.Sprintf("Duplicate %s block", b.Kind),
				Detail: fmt.Sprintf("%s already defined at %s", b, o.Pos.short())}
		}
	}
	*list = append(*list, b)
	return nil
}

func parseHCL(filename string, src []byte) (*fileLayer, Diagnostics) {
	f, hd := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if hd.HasErrors() {
		return nil, fromHCL(hd)
	}
	root := f.Body.(*hclsyntax.Body)
	var ds Diagnostics
	for _, a := range sortedAttrs(root.Attributes) {
		ds = append(ds, unsupportedArgument(posOf(a.NameRange), a.Name, nil, []string{"experiment"}))
	}
	var exp *hclsyntax.Block
	for _, b := range root.Blocks {
		switch {
		case b.Type != "experiment":
			ds = append(ds, unsupportedBlock(posOf(b.TypeRange), b.Type, nil, []string{"experiment"}))
		case exp != nil:
			ds = append(ds, &Diagnostic{Pos: posOf(b.TypeRange), Summary: "Duplicate experiment block",
				Detail: fmt.Sprintf("a file defines exactly one experiment; the first is at %s", posOf(exp.TypeRange).short())})
		case len(b.Labels) != 1:
			ds = append(ds, labelCount(b, "a name", `experiment "quickstart" { ... }`))
			exp = b
		default:
			exp = b
		}
	}
	if exp == nil {
		if len(ds) == 0 {
			ds = append(ds, &Diagnostic{Pos: Pos{File: filename}, Summary: "Missing experiment block",
				Detail: `the file must define one experiment "NAME" { ... } block`})
		}
		return nil, ds
	}
	fl := newFileLayer()
	if len(exp.Labels) > 0 {
		fl.name = exp.Labels[0]
	}
	ds = append(ds, fl.hclExperiment(exp.Body)...)
	return fl, ds
}

func labelCount(b *hclsyntax.Block, want, example string) *Diagnostic {
	pos := posOf(b.TypeRange)
	if len(b.LabelRanges) > 0 {
		pos = posOf(b.LabelRanges[len(b.LabelRanges)-1])
	}
	return &Diagnostic{Pos: pos, Summary: fmt.Sprintf("Wrong labels for %s", b.Type),
		Detail: fmt.Sprintf("a %s block takes %s, e.g. %s", b.Type, want, example)}
}

func sortedAttrs(m hclsyntax.Attributes) []*hclsyntax.Attribute {
	out := make([]*hclsyntax.Attribute, 0, len(m))
	for _, a := range m {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].NameRange.Start.Byte < out[j].NameRange.Start.Byte })
	return out
}

// constValue evaluates a top-level expression, which may not use variables.
func constValue(e hclsyntax.Expression) (any, Diagnostics) {
	v, hd := e.Value(nil)
	if hd.HasErrors() {
		return nil, fromHCL(hd)
	}
	return ctyToPlain(v), nil
}

func (fl *fileLayer) hclExperiment(b *hclsyntax.Body) Diagnostics {
	var ds Diagnostics
	for _, a := range sortedAttrs(b.Attributes) {
		if !contains(experimentAttrs, a.Name) {
			ds = append(ds, unsupportedArgument(posOf(a.NameRange), a.Name, experimentAttrs, experimentBlocks))
			continue
		}
		v, vds := constValue(a.Expr)
		ds = append(ds, vds...)
		if v != nil {
			fl.set(posOf(a.Expr.Range()), v, a.Name)
		}
	}
	seen := map[string]*hclsyntax.Block{}
	for _, blk := range b.Blocks {
		pos := posOf(blk.TypeRange)
		switch blk.Type {
		case "storage", "matrix":
			if prev := seen[blk.Type]; prev != nil {
				ds = append(ds, &Diagnostic{Pos: pos, Summary: fmt.Sprintf("Duplicate %s block", blk.Type),
					Detail: fmt.Sprintf("%s already defined at %s", blk.Type, posOf(prev.TypeRange).short())})
				continue
			}
			seen[blk.Type] = blk
			if len(blk.Labels) > 0 {
				ds = append(ds, labelCount(blk, "no labels", blk.Type+" { ... }"))
				continue
			}
			if blk.Type == "storage" {
				ds = append(ds, fl.hclStorage(blk)...)
			} else {
				ds = append(ds, fl.hclMatrix(blk)...)
			}
		case "collect", "analyze":
			if len(blk.Labels) < 1 || len(blk.Labels) > 2 {
				ds = append(ds, labelCount(blk, "a plugin name and optionally a component name",
					fmt.Sprintf(`%s "mobibench" { ... } or %s "mobibench" "fio" { ... }`, blk.Type, blk.Type)))
				continue
			}
			nb := &Block{Kind: blk.Type, Plugin: blk.Labels[0], Pos: pos, pluginPos: posOf(blk.LabelRanges[0]),
				body: &hclBody{b: blk.Body, pos: pos}}
			nb.componentPos = nb.pluginPos
			if len(blk.Labels) == 2 {
				nb.Component, nb.componentPos = blk.Labels[1], posOf(blk.LabelRanges[1])
			}
			if d := checkLabels(nb); d != nil {
				ds = append(ds, d)
				continue
			}
			if d := fl.addBlock(nb); d != nil {
				ds = append(ds, d)
			}
		default:
			ds = append(ds, unsupportedBlock(pos, blk.Type, experimentAttrs, experimentBlocks))
		}
	}
	return ds
}

func checkLabels(b *Block) *Diagnostic {
	if b.Plugin == "" {
		return &Diagnostic{Pos: b.pluginPos, Summary: "Invalid plugin name", Detail: "the plugin name cannot be empty"}
	}
	return nil
}

func (fl *fileLayer) hclStorage(blk *hclsyntax.Block) Diagnostics {
	var ds Diagnostics
	fl.set(posOf(blk.TypeRange), map[string]any{}, "storage")
	for _, a := range sortedAttrs(blk.Body.Attributes) {
		if !contains(storageAttrs, a.Name) {
			ds = append(ds, unsupportedArgument(posOf(a.NameRange), a.Name, storageAttrs, nil))
			continue
		}
		if refs, rds := hclRefs(a.Expr); (len(refs) > 0 || len(rds) > 0) && a.Name != "options" {
			ds = append(ds, rds...)
			expr := a.Expr
			fl.deferStorage(a.Name, &rawAttr{pos: posOf(expr.Range()), refs: refs, bad: len(rds) > 0,
				eval: func(ctx *hcl.EvalContext) (cty.Value, Diagnostics) {
					v, hd := expr.Value(ctx)
					return v, fromHCL(hd)
				}})
			continue
		}
		v, vds := constValue(a.Expr)
		ds = append(ds, vds...)
		if v != nil {
			fl.set(posOf(a.Expr.Range()), v, "storage", a.Name)
		}
	}
	for _, nb := range blk.Body.Blocks {
		ds = append(ds, unsupportedBlock(posOf(nb.TypeRange), nb.Type, storageAttrs, nil))
	}
	return ds
}

// matrixMarker stands in the layered settings for a storage attribute that
// refers to the matrix. No config or override can spell it (NUL bytes), and
// an override of the attribute simply replaces it.
const matrixMarker = "\x00matrix\x00"

// deferStorage records a storage attribute that refers to the matrix.
func (fl *fileLayer) deferStorage(name string, a *rawAttr) {
	fl.storageRefs[name] = a
	fl.set(a.pos, matrixMarker, "storage", name)
}

func (fl *fileLayer) hclMatrix(blk *hclsyntax.Block) Diagnostics {
	var ds Diagnostics
	fl.set(posOf(blk.TypeRange), map[string]any{}, "matrix")
	for _, a := range sortedAttrs(blk.Body.Attributes) {
		v, vds := constValue(a.Expr)
		ds = append(ds, vds...)
		if v != nil {
			fl.set(posOf(a.Expr.Range()), v, "matrix", a.Name)
			fl.axes = append(fl.axes, a.Name)
		}
	}
	for _, nb := range blk.Body.Blocks {
		ds = append(ds, &Diagnostic{Pos: posOf(nb.TypeRange), Summary: fmt.Sprintf("Unexpected %q block", nb.Type),
			Detail: "a matrix holds only axes, written name = [values...]"})
	}
	return ds
}

// hclBody is a plugin block body in HCL native syntax.
type hclBody struct {
	b   *hclsyntax.Body
	pos Pos
}

func (h *hclBody) content(s *api.Schema) (*rawBody, Diagnostics) {
	raw := newRawBody(h.pos)
	attrs, blocks := fieldNames(s)
	var ds Diagnostics
	for _, a := range sortedAttrs(h.b.Attributes) {
		f := fieldNamed(s, a.Name, false)
		if f == nil || f.Type == api.Field_TYPE_BLOCK {
			ds = append(ds, unsupportedArgument(posOf(a.NameRange), a.Name, attrs, blocks))
			continue
		}
		refs, rds := hclRefs(a.Expr)
		ds = append(ds, rds...)
		expr := a.Expr
		raw.attrs[a.Name] = &rawAttr{pos: posOf(expr.Range()), refs: refs, bad: len(rds) > 0,
			eval: func(ctx *hcl.EvalContext) (cty.Value, Diagnostics) {
				v, hd := expr.Value(ctx)
				return v, fromHCL(hd)
			}}
	}
	for _, blk := range h.b.Blocks {
		pos := posOf(blk.TypeRange)
		f := fieldNamed(s, blk.Type, false)
		switch {
		case f == nil || f.Type != api.Field_TYPE_BLOCK:
			ds = append(ds, unsupportedBlock(pos, blk.Type, attrs, blocks))
		case len(blk.Labels) > 0:
			ds = append(ds, &Diagnostic{Pos: posOf(blk.LabelRanges[0]), Summary: fmt.Sprintf("Extraneous label for %s", blk.Type),
				Detail: fmt.Sprintf("No labels are expected for %s blocks.", blk.Type)})
		case raw.blocks[blk.Type] != nil:
			ds = append(ds, &Diagnostic{Pos: pos, Summary: fmt.Sprintf("Duplicate %s block", blk.Type),
				Detail: fmt.Sprintf("%s already defined at %s", blk.Type, raw.blocks[blk.Type].pos.short())})
		default:
			sub, sds := (&hclBody{b: blk.Body, pos: pos}).content(f.Block)
			ds = append(ds, sds...)
			raw.blocks[blk.Type] = sub
		}
	}
	return raw, ds
}

// hclRefs lists the matrix axes an expression refers to.
func hclRefs(e hclsyntax.Expression) ([]matrixRef, Diagnostics) {
	var refs []matrixRef
	var ds Diagnostics
	for _, tr := range e.Variables() {
		if tr.RootName() != "matrix" {
			continue
		}
		pos := posOf(tr.SourceRange())
		name := ""
		if len(tr) >= 2 {
			switch s := tr[1].(type) {
			case hcl.TraverseAttr:
				name = s.Name
			case hcl.TraverseIndex:
				if s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull() {
					name = s.Key.AsString()
				}
			}
		}
		if name == "" {
			ds = append(ds, &Diagnostic{Pos: pos, Summary: "Invalid matrix reference",
				Detail: "refer to one axis of the matrix, e.g. matrix.mode"})
			continue
		}
		refs = append(refs, matrixRef{axis: name, pos: pos})
	}
	return refs, ds
}
