package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/droidprof/droidprof/framework/api"
)

// Resolve decodes every collect and analyze body against its plugin's
// schema: collect bodies once per matrix cell, analyze bodies once. Plugin
// overrides replace the file's values in every cell. All problems are
// returned together as Diagnostics.
func (e *Experiment) Resolve(s Schemas) (*Plan, error) {
	p, ds := e.resolve(s)
	if err := ds.err(); err != nil {
		return nil, err
	}
	return p, nil
}

func (e *Experiment) resolve(s Schemas) (*Plan, Diagnostics) {
	p := &Plan{Experiment: e, Cells: e.Cells()}
	var ds Diagnostics
	axes := make([]string, len(e.Matrix))
	for i, ax := range e.Matrix {
		axes[i] = ax.Name
	}
	for _, group := range []struct {
		kind   string
		blocks []*Block
		steps  *[]*Step
	}{{"collector", e.Collect, &p.Collect}, {"analyzer", e.Analyze, &p.Analyze}} {
		seen := map[string]*Block{}
		for _, b := range group.blocks {
			name, schema, err := s.Component(group.kind, b.Plugin, b.Component)
			if err != nil {
				ds = append(ds, unknownComponent(b, group.kind, err))
				continue
			}
			if prev := seen[b.Plugin+"\x00"+name]; prev != nil {
				ds = append(ds, &Diagnostic{Pos: b.Pos, Summary: fmt.Sprintf("Duplicate %s block", b.Kind),
					Detail: fmt.Sprintf("%s is the same %s %q as %s at %s", b, group.kind, name, prev, prev.Pos.short())})
				continue
			}
			seen[b.Plugin+"\x00"+name] = b
			if schema == nil {
				schema = &api.Schema{}
			}
			cells := p.Cells
			if b.Kind == "analyze" {
				cells = nil
			}
			configs, refs, bds := b.decode(schema, cells, axes, e.badAxes)
			ds = append(ds, bds...)
			st := &Step{Plugin: b.Plugin, Component: name, Block: b, Configs: configs}
			if b.Kind == "collect" {
				st.Axes = stepAxes(axes, refs, e.storageAxes)
				st.Cells = project(p.Cells, st.Axes)
			}
			*group.steps = append(*group.steps, st)
		}
	}
	p.Warnings = unusedAxes(e, p.Collect)
	return p, ds
}

// unusedAxes warns about matrix axes no collect step varies with: they
// multiply nothing, which a config that relied on an axis to repeat every
// collector would not notice.
func unusedAxes(e *Experiment, steps []*Step) Diagnostics {
	var ds Diagnostics
	for _, ax := range e.Matrix {
		used := false
		for _, s := range steps {
			used = used || contains(s.Axes, ax.Name)
		}
		if !used && len(steps) > 0 {
			ds = append(ds, ax.at.diag("Unused matrix axis",
				fmt.Sprintf("no collect block or storage setting refers to matrix.%s, so it changes nothing; use repeat for more samples", ax.Name)))
		}
	}
	return ds
}

func unknownComponent(b *Block, kind string, err error) *Diagnostic {
	var ue *UnknownError
	if !errors.As(err, &ue) {
		return &Diagnostic{Pos: b.Pos, Summary: fmt.Sprintf("Cannot resolve %s", b), Detail: err.Error()}
	}
	if ue.Kind == "plugin" {
		return &Diagnostic{Pos: b.pluginPos, Summary: "Unknown plugin",
			Detail: fmt.Sprintf("There is no plugin named %q.%s", ue.Name, didYouMean(ue.Name, ue.Known))}
	}
	if ue.Name == "" {
		detail := fmt.Sprintf("Plugin %q has no default %s", b.Plugin, ue.Kind)
		if len(ue.Known) > 0 {
			detail += fmt.Sprintf("; name one of: %s", strings.Join(ue.Known, ", "))
		}
		return &Diagnostic{Pos: b.pluginPos, Summary: "Unknown " + ue.Kind, Detail: detail + "."}
	}
	return &Diagnostic{Pos: b.componentPos, Summary: "Unknown " + ue.Kind,
		Detail: fmt.Sprintf("Plugin %q has no %s named %q.%s", b.Plugin, ue.Kind, ue.Name, didYouMean(ue.Name, ue.Known))}
}

// stepAxes are the axes of all (in matrix order) that the block refers to
// or the storage does.
func stepAxes(all []string, refs []matrixRef, storage []string) []string {
	used := map[string]bool{}
	for _, r := range refs {
		used[r.axis] = true
	}
	for _, a := range storage {
		used[a] = true
	}
	out := []string{}
	for _, a := range all {
		if used[a] {
			out = append(out, a)
		}
	}
	return out
}

// project reduces the matrix cells to the distinct combinations of axes,
// keeping the first matrix cell of each (its Index) and only those axes.
func project(cells []Cell, axes []string) []Cell {
	var out []Cell
	seen := map[string]bool{}
	for _, c := range cells {
		n := Cell{Index: c.Index, Keys: []string{}, Labels: map[string]string{}, Values: map[string]any{}}
		for _, k := range c.Keys {
			if contains(axes, k) {
				n.Keys = append(n.Keys, k)
				n.Labels[k], n.Values[k] = c.Labels[k], c.Values[k]
			}
		}
		if name := n.Name(); !seen[name] {
			seen[name] = true
			out = append(out, n)
		}
	}
	return out
}

// decode returns one config per cell, or exactly one when cells is nil
// (analyze blocks, which may not use the matrix), and the good matrix
// references the configs depend on.
func (b *Block) decode(s *api.Schema, cells []Cell, axes, badAxes []string) ([]json.RawMessage, []matrixRef, Diagnostics) {
	raw, ds := b.body.content(s)
	ov, ods := b.overlay(s)
	ds = append(ds, ods...)
	refs, rds := raw.checkRefs(s, ov, func(r matrixRef) (*Diagnostic, bool) {
		switch {
		case cells == nil:
			return &Diagnostic{Pos: r.pos, Summary: "Matrix reference in analyze block",
				Detail: fmt.Sprintf("%s runs once over all matrix cells, so it cannot use matrix.%s", b, r.axis)}, false
		case contains(badAxes, r.axis):
			return nil, false // the axis itself was reported by Load
		case !contains(axes, r.axis):
			return unknownAxis(r, axes, badAxes), false
		}
		return nil, true
	})
	ds = append(ds, rds...)
	one := func(ctx *hcl.EvalContext) (json.RawMessage, Diagnostics) {
		t, eds := raw.eval(s, ctx, ov)
		m, fds := finish(s, t)
		if eds = append(eds, fds...); len(eds) > 0 {
			return nil, eds
		}
		js, err := json.Marshal(m)
		if err != nil {
			return nil, Diagnostics{{Pos: b.Pos, Summary: "Cannot encode config", Detail: err.Error()}}
		}
		return js, nil
	}
	if cells == nil {
		js, eds := one(&hcl.EvalContext{Variables: map[string]cty.Value{}})
		return []json.RawMessage{js}, nil, append(ds, eds...)
	}
	configs := make([]json.RawMessage, len(cells))
	if len(refs) == 0 {
		js, eds := one(cellContext(cells[0]))
		for i := range configs {
			configs[i] = js
		}
		return configs, nil, append(ds, eds...)
	}
	for i, c := range cells {
		js, cds := one(cellContext(c))
		ds = append(ds, cds...)
		configs[i] = js
	}
	return configs, refs, ds
}

// unknownAxis reports a reference to an axis the matrix does not have,
// suggesting among the axes defined, invalid ones included.
func unknownAxis(r matrixRef, axes, badAxes []string) *Diagnostic {
	detail := fmt.Sprintf("There is no matrix axis named %q.", r.axis)
	if all := append(append([]string{}, axes...), badAxes...); len(all) == 0 {
		detail += " The experiment has no matrix."
	} else {
		detail += didYouMean(r.axis, all)
	}
	return &Diagnostic{Pos: r.pos, Summary: "Unknown matrix axis", Detail: detail}
}

func cellContext(c Cell) *hcl.EvalContext {
	vals := map[string]cty.Value{}
	for _, k := range c.Keys {
		vals[k] = plainToCty(c.Values[k])
	}
	return &hcl.EvalContext{Variables: map[string]cty.Value{"matrix": cty.ObjectVal(vals)}}
}

// Resolved returns the fully resolved experiment as plain data (maps,
// slices, strings, numbers, bools), ready to be written as JSON.
func (p *Plan) Resolved() map[string]any {
	e := p.Experiment
	dirs := []any{}
	for _, d := range e.PluginDirs {
		dirs = append(dirs, d)
	}
	matrix := []any{}
	for _, ax := range e.Matrix {
		matrix = append(matrix, map[string]any{"name": ax.Name, "values": append([]any{}, ax.Values...)})
	}
	cells := []any{}
	for _, c := range p.Cells {
		labels := map[string]any{}
		values := map[string]any{}
		for _, k := range c.Keys {
			labels[k], values[k] = c.Labels[k], c.Values[k]
		}
		cell := map[string]any{"index": c.Index, "name": c.Name(), "labels": labels, "values": values}
		if e.storageVaries {
			cell["storage"] = resolvedStorage(e.StorageFor(c))
		}
		cells = append(cells, cell)
	}
	steps := func(list []*Step, perCell bool) []any {
		out := []any{}
		for _, s := range list {
			m := map[string]any{"plugin": s.Plugin, "component": s.Component, "block": s.Block.String(), "pos": s.Block.Pos.String()}
			config := func(i int) any {
				if i >= len(s.Configs) {
					return nil
				}
				v, err := decodeJSON(s.Configs[i])
				if err != nil {
					return nil
				}
				return v
			}
			if perCell {
				// The step's own cells, each with its config: what the
				// runner runs once per repetition.
				cells, configs := []any{}, []any{}
				for _, c := range s.Cells {
					cells = append(cells, c.Name())
					configs = append(configs, config(c.Index))
				}
				m["axes"], m["cells"], m["configs"] = append([]string{}, s.Axes...), cells, configs
			} else {
				m["config"] = config(0)
			}
			out = append(out, m)
		}
		return out
	}
	return map[string]any{
		"experiment":  e.Name,
		"description": e.Description,
		"file":        e.File,
		"repeat":      e.Repeat,
		"warmup":      e.Warmup,
		"plugin_dirs": dirs,
		"storage":     resolvedStorage(e.Storage),
		"matrix":      matrix,
		"cells":       cells,
		"collect":     steps(p.Collect, true),
		"analyze":     steps(p.Analyze, false),
	}
}
