package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"gopkg.in/yaml.v3"

	"github.com/droidprof/droidprof/framework/api"
)

// yamlMatrixRef is the only way YAML refers to the matrix: a string that is
// exactly ${matrix.NAME}.
var (
	yamlMatrixRef = regexp.MustCompile(`^\$\{\s*matrix\.([A-Za-z_][A-Za-z0-9_-]*)\s*\}$`)
	yamlLineErr   = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
)

func yamlPos(file string, n *yaml.Node) Pos {
	return Pos{File: file, Line: n.Line, Column: n.Column}
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// pairs walks a mapping node, reporting duplicate keys.
func yamlPairs(file string, n *yaml.Node, each func(k, v *yaml.Node)) Diagnostics {
	var ds Diagnostics
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if prev := seen[k.Value]; prev != nil {
			ds = append(ds, &Diagnostic{Pos: yamlPos(file, k), Summary: "Duplicate key",
				Detail: fmt.Sprintf("%q already defined at %s", k.Value, yamlPos(file, prev).short())})
			continue
		}
		seen[k.Value] = k
		each(k, v)
	}
	return ds
}

func needMapping(file string, n *yaml.Node, what string) *Diagnostic {
	if n.Kind == yaml.MappingNode || isNull(n) {
		return nil
	}
	return &Diagnostic{Pos: yamlPos(file, n), Summary: "Unsuitable value", Detail: fmt.Sprintf("%s must be a mapping", what)}
}

func parseYAML(filename string, src []byte) (*fileLayer, Diagnostics) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, Diagnostics{yamlError(filename, src, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		pos := Pos{File: filename}
		if err == nil {
			pos = yamlPos(filename, &extra)
		}
		return nil, Diagnostics{{Pos: pos, Summary: "Multiple YAML documents", Detail: "a config file holds one document"}}
	}
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = deref(doc.Content[0])
	}
	missing := &Diagnostic{Pos: Pos{File: filename}, Summary: "Missing experiment",
		Detail: "the file must define one experiment: {NAME: {...}} mapping"}
	if isNull(root) {
		return nil, Diagnostics{missing}
	}
	if d := needMapping(filename, root, "the document"); d != nil {
		return nil, Diagnostics{d}
	}
	var (
		ds  Diagnostics
		exp *yaml.Node
		fl  *fileLayer
	)
	ds = append(ds, yamlPairs(filename, root, func(k, v *yaml.Node) {
		if k.Value != "experiment" {
			ds = append(ds, unsupportedArgument(yamlPos(filename, k), k.Value, []string{"experiment"}, nil))
			return
		}
		exp = v
	})...)
	if exp == nil {
		if len(ds) == 0 {
			ds = append(ds, missing)
		}
		return nil, ds
	}
	if exp.Kind != yaml.MappingNode || len(exp.Content) != 2 {
		ds = append(ds, &Diagnostic{Pos: yamlPos(filename, exp), Summary: "Invalid experiment",
			Detail: "experiment must map exactly one experiment name to its settings"})
		return nil, ds
	}
	fl = newFileLayer()
	fl.name = deref(exp.Content[0]).Value
	ds = append(ds, fl.yamlExperiment(filename, deref(exp.Content[1]))...)
	return fl, ds
}

func yamlError(file string, src []byte, err error) *Diagnostic {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := yamlLineErr.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if pos, ok := indentTab(src, line, m[2]); ok {
			pos.File = file
			return &Diagnostic{Pos: pos, Summary: "Invalid YAML", Detail: "tab characters are not allowed for indentation"}
		}
		return &Diagnostic{Pos: Pos{File: file, Line: line}, Summary: "Invalid YAML", Detail: m[2]}
	}
	return &Diagnostic{Pos: Pos{File: file}, Summary: "Invalid YAML", Detail: strings.TrimPrefix(msg, "yaml: ")}
}

// indentTab finds the tab behind a YAML scanner error: yaml.v3 reports a
// tab in block indentation as "found character that cannot start any token"
// on the tab's line, or as "found a tab character that violates
// indentation" on the line before it. It returns the tab's position.
func indentTab(src []byte, line int, msg string) (Pos, bool) {
	var candidates []int
	switch msg {
	case "found character that cannot start any token":
		candidates = []int{line}
	case "found a tab character that violates indentation":
		candidates = []int{line + 1, line}
	default:
		return Pos{}, false
	}
	lines := strings.Split(string(src), "\n")
	for _, n := range candidates {
		if n < 1 || n > len(lines) {
			continue
		}
		l := lines[n-1]
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if i := strings.IndexByte(indent, '\t'); i >= 0 {
			return Pos{Line: n, Column: i + 1}, true
		}
	}
	return Pos{}, false
}

func (fl *fileLayer) yamlExperiment(file string, n *yaml.Node) Diagnostics {
	if d := needMapping(file, n, "an experiment"); d != nil {
		return Diagnostics{d}
	}
	all := append(append([]string{}, experimentAttrs...), experimentBlocks...)
	var ds Diagnostics
	ds = append(ds, yamlPairs(file, n, func(k, v *yaml.Node) {
		switch {
		case contains(experimentAttrs, k.Value):
			x, vds := yamlConst(file, v)
			ds = append(ds, vds...)
			if x != nil {
				fl.set(yamlPos(file, v), x, k.Value)
			}
		case k.Value == "storage":
			ds = append(ds, fl.yamlStorage(file, v)...)
		case k.Value == "matrix":
			ds = append(ds, fl.yamlMatrix(file, v)...)
		case k.Value == "collect" || k.Value == "analyze":
			ds = append(ds, fl.yamlBlocks(file, k.Value, v)...)
		default:
			ds = append(ds, unsupportedArgument(yamlPos(file, k), k.Value, all, nil))
		}
	})...)
	return ds
}

func yamlConst(file string, n *yaml.Node) (any, Diagnostics) {
	v, ds := yamlToCty(file, n, nil)
	if len(ds) > 0 {
		return nil, ds
	}
	return ctyToPlain(v), nil
}

func (fl *fileLayer) yamlStorage(file string, n *yaml.Node) Diagnostics {
	if d := needMapping(file, n, "storage"); d != nil {
		return Diagnostics{d}
	}
	fl.set(yamlPos(file, n), map[string]any{}, "storage")
	var ds Diagnostics
	ds = append(ds, yamlPairs(file, n, func(k, v *yaml.Node) {
		if !contains(storageAttrs, k.Value) {
			ds = append(ds, unsupportedArgument(yamlPos(file, k), k.Value, storageAttrs, nil))
			return
		}
		if refs, rds := yamlRefs(file, v); (len(refs) > 0 || len(rds) > 0) && k.Value != "options" {
			ds = append(ds, rds...)
			node := v
			fl.deferStorage(k.Value, &rawAttr{pos: yamlPos(file, v), refs: refs, bad: len(rds) > 0,
				eval: func(ctx *hcl.EvalContext) (cty.Value, Diagnostics) { return yamlToCty(file, node, ctx) }})
			return
		}
		x, vds := yamlConst(file, v)
		ds = append(ds, vds...)
		if x != nil {
			fl.set(yamlPos(file, v), x, "storage", k.Value)
		}
	})...)
	return ds
}

func (fl *fileLayer) yamlMatrix(file string, n *yaml.Node) Diagnostics {
	if d := needMapping(file, n, "matrix"); d != nil {
		return Diagnostics{d}
	}
	fl.set(yamlPos(file, n), map[string]any{}, "matrix")
	var ds Diagnostics
	ds = append(ds, yamlPairs(file, n, func(k, v *yaml.Node) {
		x, vds := yamlConst(file, v)
		ds = append(ds, vds...)
		if x != nil {
			fl.set(yamlPos(file, v), x, "matrix", k.Value)
			fl.axes = append(fl.axes, k.Value)
		}
	})...)
	return ds
}

func (fl *fileLayer) yamlBlocks(file, kind string, n *yaml.Node) Diagnostics {
	if d := needMapping(file, n, kind); d != nil {
		return Diagnostics{d}
	}
	var ds Diagnostics
	ds = append(ds, yamlPairs(file, n, func(k, v *yaml.Node) {
		pos := yamlPos(file, k)
		labels := strings.Fields(k.Value)
		if len(labels) < 1 || len(labels) > 2 {
			ds = append(ds, &Diagnostic{Pos: pos, Summary: fmt.Sprintf("Wrong labels for %s", kind),
				Detail: fmt.Sprintf(`a %s key is a plugin name, optionally followed by a space and a component name, e.g. "mobibench" or "mobibench fio"`, kind)})
			return
		}
		if d := needMapping(file, v, fmt.Sprintf("%s %q", kind, k.Value)); d != nil {
			ds = append(ds, d)
			return
		}
		b := &Block{Kind: kind, Plugin: labels[0], Pos: pos, pluginPos: pos, componentPos: pos,
			body: &yamlBody{file: file, n: v, pos: pos}}
		if len(labels) == 2 {
			b.Component = labels[1]
		}
		if d := fl.addBlock(b); d != nil {
			ds = append(ds, d)
		}
	})...)
	return ds
}

// yamlBody is a plugin block body in YAML: a mapping (or null for {}).
type yamlBody struct {
	file string
	n    *yaml.Node
	pos  Pos
}

func (y *yamlBody) content(s *api.Schema) (*rawBody, Diagnostics) {
	raw := newRawBody(y.pos)
	if isNull(y.n) {
		return raw, nil
	}
	attrs, blocks := fieldNames(s)
	all := append(append([]string{}, attrs...), blocks...)
	var ds Diagnostics
	ds = append(ds, yamlPairs(y.file, y.n, func(k, v *yaml.Node) {
		kpos := yamlPos(y.file, k)
		f := fieldNamed(s, k.Value, false)
		switch {
		case f == nil:
			ds = append(ds, unsupportedArgument(kpos, k.Value, all, nil))
		case f.Type == api.Field_TYPE_BLOCK:
			if d := needMapping(y.file, v, fmt.Sprintf("%q (a block)", k.Value)); d != nil {
				ds = append(ds, d)
				return
			}
			sub, sds := (&yamlBody{file: y.file, n: v, pos: kpos}).content(f.Block)
			ds = append(ds, sds...)
			raw.blocks[f.Name] = sub
		default:
			refs, rds := yamlRefs(y.file, v)
			ds = append(ds, rds...)
			node := v
			raw.attrs[f.Name] = &rawAttr{pos: yamlPos(y.file, v), refs: refs, bad: len(rds) > 0,
				eval: func(ctx *hcl.EvalContext) (cty.Value, Diagnostics) { return yamlToCty(y.file, node, ctx) }}
		}
	})...)
	return raw, ds
}

// yamlRefs lists the ${matrix.NAME} references in a value.
func yamlRefs(file string, n *yaml.Node) ([]matrixRef, Diagnostics) {
	n = deref(n)
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() != "!!str" || !strings.Contains(n.Value, "${") {
			return nil, nil
		}
		if m := yamlMatrixRef.FindStringSubmatch(n.Value); m != nil {
			return []matrixRef{{axis: m[1], pos: yamlPos(file, n)}}, nil
		}
		if strings.Contains(n.Value, "matrix") {
			return nil, Diagnostics{{Pos: yamlPos(file, n), Summary: "Invalid matrix reference",
				Detail: fmt.Sprintf(`in YAML a matrix value must be the whole string "${matrix.NAME}", not %q`, n.Value)}}
		}
	case yaml.SequenceNode, yaml.MappingNode:
		var refs []matrixRef
		var ds Diagnostics
		for _, c := range n.Content {
			r, d := yamlRefs(file, c)
			refs, ds = append(refs, r...), append(ds, d...)
		}
		return refs, ds
	}
	return nil, nil
}

// yamlToCty converts a YAML value to cty, replacing ${matrix.NAME} by the
// cell's value from ctx (nil ctx: no matrix may be used).
func yamlToCty(file string, n *yaml.Node, ctx *hcl.EvalContext) (cty.Value, Diagnostics) {
	n = deref(n)
	pos := yamlPos(file, n)
	bad := func(detail string) (cty.Value, Diagnostics) {
		return cty.NilVal, Diagnostics{{Pos: pos, Summary: "Unsuitable value", Detail: detail}}
	}
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return cty.NullVal(cty.DynamicPseudoType), nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return bad(err.Error())
			}
			return cty.BoolVal(b), nil
		case "!!int":
			var x any
			if err := n.Decode(&x); err != nil {
				return bad(err.Error())
			}
			return plainToCty(x), nil
		case "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				return bad(err.Error())
			}
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return bad("a finite number is required")
			}
			return cty.NumberFloatVal(f), nil
		case "!!str":
			if m := yamlMatrixRef.FindStringSubmatch(n.Value); m != nil {
				var (
					mv cty.Value
					ok bool
				)
				if ctx != nil {
					mv, ok = ctx.Variables["matrix"]
				}
				if !ok {
					return cty.NilVal, Diagnostics{{Pos: pos, Summary: "Variables not allowed",
						Detail: "the matrix may only be used in collect blocks and storage settings"}}
				}
				if !mv.Type().HasAttribute(m[1]) {
					return cty.NilVal, Diagnostics{{Pos: pos, Summary: "Unknown matrix axis",
						Detail: fmt.Sprintf("There is no matrix axis named %q.", m[1])}}
				}
				return mv.GetAttr(m[1]), nil
			}
		}
		return cty.StringVal(n.Value), nil
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return cty.EmptyTupleVal, nil
		}
		vals := make([]cty.Value, len(n.Content))
		for i, c := range n.Content {
			v, ds := yamlToCty(file, c, ctx)
			if len(ds) > 0 {
				return cty.NilVal, ds
			}
			vals[i] = v
		}
		return cty.TupleVal(vals), nil
	case yaml.MappingNode:
		vals := map[string]cty.Value{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, ds := yamlToCty(file, n.Content[i+1], ctx)
			if len(ds) > 0 {
				return cty.NilVal, ds
			}
			vals[deref(n.Content[i]).Value] = v
		}
		return cty.ObjectVal(vals), nil
	}
	return bad("unsupported YAML value")
}
