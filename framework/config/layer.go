package config

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/v2"

	"github.com/droidprof/droidprof/framework/api"
)

const envPrefix = "DROIDPROF_"

var axisName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// The top-level settings, typed with the same machinery as plugin fields.
var (
	fieldDescription = &api.Field{Name: "description", Type: api.Field_TYPE_STRING}
	fieldRepeat      = &api.Field{Name: "repeat", Type: api.Field_TYPE_INT, HasMin: true, Min: 1}
	fieldWarmup      = &api.Field{Name: "warmup", Type: api.Field_TYPE_INT, HasMin: true, Min: 0}
	fieldPluginDirs  = &api.Field{Name: "plugin_dirs", Type: api.Field_TYPE_STRING_LIST}
	fieldOption      = &api.Field{Name: "options", Type: api.Field_TYPE_STRING}
)

func joinPath(p []string) string { return strings.Join(p, ".") }

// topOverride sets a top-level setting.
type topOverride struct {
	path    []string
	text    string
	src     string
	envName string
}

// bodyOverride sets a plugin setting: kind.segs... = text.
type bodyOverride struct {
	kind string
	segs []string // plugin, then component and/or keys
	text string
	src  string
	fold bool
}

type overrides struct {
	env, set []topOverride
	body     []bodyOverride
}

// parseOverrides sorts the DROIDPROF_* variables and --set flags into
// top-level and plugin settings, rejecting unknown top-level keys.
func parseOverrides(opt Options) (*overrides, Diagnostics) {
	o := &overrides{}
	var ds Diagnostics
	ignore := append(append([]string{}, IgnoredEnv...), opt.IgnoreEnv...)
	for _, kv := range opt.Env {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, envPrefix) || contains(ignore, name) || name == envPrefix {
			continue
		}
		segs := strings.Split(strings.ToLower(strings.TrimPrefix(name, envPrefix)), "__")
		if d := o.add(segs, val, "env:"+name, name); d != nil {
			ds = append(ds, d)
		}
	}
	for _, s := range opt.Set {
		key, val, ok := strings.Cut(s, "=")
		src := "--set " + s
		if !ok {
			ds = append(ds, &Diagnostic{Source: src, Summary: "expected key=value"})
			continue
		}
		if d := o.add(strings.Split(strings.TrimSpace(key), "."), val, src, ""); d != nil {
			ds = append(ds, d)
		}
	}
	return o, ds
}

func (o *overrides) add(segs []string, text, src, envName string) *Diagnostic {
	key := joinPath(segs)
	for _, s := range segs {
		if s == "" {
			return &Diagnostic{Source: src, Summary: fmt.Sprintf("invalid setting %q: empty key", key)}
		}
	}
	if segs[0] == "collect" || segs[0] == "analyze" {
		if len(segs) < 3 {
			return &Diagnostic{Source: src, Summary: fmt.Sprintf("setting %q needs a plugin and a key, e.g. %s.mobibench.threads", key, segs[0])}
		}
		o.body = append(o.body, bodyOverride{kind: segs[0], segs: segs[1:], text: text, src: src, fold: envName != ""})
		return nil
	}
	if msg := validateTop(segs); msg != "" {
		return &Diagnostic{Source: src, Summary: msg}
	}
	t := topOverride{path: segs, text: text, src: src, envName: envName}
	if envName != "" {
		o.env = append(o.env, t)
	} else {
		o.set = append(o.set, t)
	}
	return nil
}

// validateTop checks the key of a top-level override, returning an error
// message or "".
func validateTop(segs []string) string {
	key := joinPath(segs)
	unknown := func(i int, options []string) string {
		msg := fmt.Sprintf("unknown setting %q", key)
		if s := suggest(segs[i], options); s != "" {
			fixed := append(append(append([]string{}, segs[:i]...), s), segs[i+1:]...)
			msg += fmt.Sprintf("; did you mean %q?", joinPath(fixed))
		}
		return msg
	}
	notBlock := func(n int) string {
		return fmt.Sprintf("unknown setting %q: %q is not a block", key, joinPath(segs[:n]))
	}
	switch segs[0] {
	case "description", "repeat", "warmup", "plugin_dirs":
		if len(segs) == 1 {
			return ""
		}
		return notBlock(1)
	case "storage":
		if len(segs) == 1 {
			return `setting "storage" is a block; set one of its keys, e.g. storage.dir`
		}
		switch segs[1] {
		case "backend", "dir", "keep", "fs", "size", "mkfs_options", "mount_options", "device", "format", "image_dir":
			if len(segs) == 2 {
				return ""
			}
			return notBlock(2)
		case "options":
			switch len(segs) {
			case 2:
				return `setting "storage.options" is a map; set one option, e.g. storage.options.NAME=VALUE`
			case 3:
				return ""
			}
			return notBlock(3)
		}
		return unknown(1, storageAttrs)
	case "matrix":
		switch {
		case len(segs) == 1:
			return `setting "matrix" is a block; set one axis, e.g. matrix.mode=0,1`
		case len(segs) > 2:
			return fmt.Sprintf("unknown setting %q: a matrix axis is set as matrix.NAME=v1,v2", key)
		case !axisName.MatchString(segs[1]):
			return fmt.Sprintf("invalid matrix axis name %q: use letters, digits, _ and -", segs[1])
		}
		return ""
	}
	return unknown(0, append(append([]string{}, experimentAttrs...), experimentBlocks...))
}

func setPath(m map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		sub, ok := m[p].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[p] = sub
		}
		m = sub
	}
	m[path[len(path)-1]] = v
}

// layer merges defaults → file → environment → --set with koanf and fills
// in the top-level settings of e, reporting each bad value where it came
// from. dir is the config file's directory.
func (e *Experiment) layer(fl *fileLayer, ov *overrides, dir string) Diagnostics {
	var ds Diagnostics
	k := koanf.New(".")
	defaults := map[string]any{
		"description": "", "repeat": int64(1), "warmup": int64(0), "plugin_dirs": []any{},
		"storage": map[string]any{"backend": "dir", "dir": "", "keep": false, "options": map[string]any{}},
	}
	envList := make([]string, len(ov.env))
	for i, t := range ov.env {
		envList[i] = t.envName + "=" + t.text
	}
	setMap := map[string]any{}
	for _, t := range ov.set {
		setPath(setMap, t.path, t.text)
	}
	for _, p := range []koanf.Provider{
		confmap.Provider(defaults, ""),
		confmap.Provider(fl.values, ""),
		env.Provider(".", env.Opt{
			Prefix:      envPrefix,
			EnvironFunc: func() []string { return envList },
			TransformFunc: func(k, v string) (string, any) {
				return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(k, envPrefix)), "__", "."), v
			},
		}),
		confmap.Provider(setMap, ""),
	} {
		if err := k.Load(p, nil); err != nil {
			ds = append(ds, &Diagnostic{Summary: "Cannot layer settings", Detail: err.Error()})
		}
	}
	merged := k.Raw()

	// Where each value came from: the last override of its key, else the file.
	srcs := map[string]string{}
	for _, t := range append(append([]topOverride{}, ov.env...), ov.set...) {
		srcs[joinPath(t.path)] = t.src
	}
	origin := func(path ...string) where {
		if s, ok := srcs[joinPath(path)]; ok {
			return where{src: s}
		}
		for p := path; len(p) > 0; p = p[:len(p)-1] {
			if pos, ok := fl.pos[joinPath(p)]; ok {
				return where{pos: pos}
			}
		}
		return where{}
	}
	conv := func(f *api.Field, v any, w where) (any, bool) {
		var (
			x   any
			err error
		)
		if s, ok := v.(string); ok && w.src != "" {
			x, err = parseText(f, s)
		} else {
			x, err = fromCty(f, plainToCty(v))
		}
		if err != nil {
			ds = append(ds, w.diag(fmt.Sprintf("Unsuitable value for %q", f.Name), err.Error()))
			return nil, false
		}
		if err := check(f, x); err != nil {
			ds = append(ds, w.diag(fmt.Sprintf("Invalid value for %q", f.Name), err.Error()))
			return nil, false
		}
		return x, true
	}
	// absPath makes p absolute: relative to the config file when it comes
	// from the file, to the working directory when it comes from an override.
	absPath := func(p string, w where) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		if w.src == "" {
			return filepath.Join(dir, p)
		}
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}

	if v, ok := conv(fieldDescription, merged["description"], origin("description")); ok {
		e.Description = v.(string)
	}
	if v, ok := conv(fieldRepeat, merged["repeat"], origin("repeat")); ok {
		e.Repeat = int(v.(int64))
	}
	if v, ok := conv(fieldWarmup, merged["warmup"], origin("warmup")); ok {
		e.Warmup = int(v.(int64))
	}
	w := origin("plugin_dirs")
	if v, ok := conv(fieldPluginDirs, merged["plugin_dirs"], w); ok {
		for _, p := range v.([]any) {
			if s := p.(string); s != "" {
				e.PluginDirs = append(e.PluginDirs, absPath(s, w))
			}
		}
	}

	sm, _ := merged["storage"].(map[string]any)
	sl := &storageLayer{vals: map[string]any{}, at: map[string]where{}, refs: map[string]*rawAttr{}}
	for _, f := range storageFields {
		raw, ok := sm[f.Name]
		if !ok {
			continue
		}
		w := origin("storage", f.Name)
		if ref := fl.storageRefs[f.Name]; ref != nil && raw == matrixMarker && w.src == "" {
			sl.refs[f.Name], sl.at[f.Name] = ref, where{pos: ref.pos}
			continue
		}
		if v, ok := conv(f, raw, w); ok {
			sl.vals[f.Name], sl.at[f.Name] = v, w
		}
	}
	sl.options = map[string]string{}
	if om, ok := sm["options"].(map[string]any); ok {
		for _, name := range sortedKeys(om) {
			if v, ok := conv(fieldOption, om[name], origin("storage", "options", name)); ok {
				sl.options[name] = v.(string)
			}
		}
	} else {
		ds = append(ds, origin("storage", "options").diag("Unsuitable value", "options must be a map of strings"))
	}
	sl.absPath = absPath
	sl.backendAt = origin("storage", "backend")

	mm, _ := merged["matrix"].(map[string]any)
	order := append([]string{}, fl.axes...)
	for _, t := range append(append([]topOverride{}, ov.env...), ov.set...) {
		if t.path[0] == "matrix" {
			order = append(order, t.path[1])
		}
	}
	order = append(order, sortedKeys(mm)...)
	seen := map[string]bool{}
	for _, name := range order {
		raw, ok := mm[name]
		if seen[name] || !ok {
			continue
		}
		seen[name] = true
		if ax, d := makeAxis(name, raw, origin("matrix", name)); d != nil {
			ds = append(ds, d)
			e.badAxes = append(e.badAxes, name)
		} else {
			e.Matrix = append(e.Matrix, ax)
		}
	}
	return append(ds, e.layerStorage(sl)...)
}

func makeAxis(name string, raw any, w where) (Axis, *Diagnostic) {
	ax := Axis{Name: name, at: w}
	if !axisName.MatchString(name) {
		return ax, w.diag("Invalid matrix axis", fmt.Sprintf("axis name %q must use only letters, digits, _ and -", name))
	}
	switch x := raw.(type) {
	case string:
		if w.src == "" {
			return ax, w.diag("Unsuitable value", fmt.Sprintf("matrix axis %q must be a list of values", name))
		}
		if strings.TrimSpace(x) != "" {
			for _, part := range strings.Split(x, ",") {
				ax.Values = append(ax.Values, guessScalar(part))
			}
		}
	case []any:
		for _, v := range x {
			if !isScalar(v) {
				return ax, w.diag("Unsuitable value", fmt.Sprintf("matrix axis %q: values must be strings, numbers or bools", name))
			}
			ax.Values = append(ax.Values, v)
		}
	default:
		return ax, w.diag("Unsuitable value", fmt.Sprintf("matrix axis %q must be a list of values", name))
	}
	if len(ax.Values) == 0 {
		return ax, w.diag("Invalid matrix axis", fmt.Sprintf("axis %q has no values", name))
	}
	seen := map[string]bool{}
	for _, v := range ax.Values {
		t := textOf(v)
		if seen[t] {
			return ax, w.diag("Invalid matrix axis", fmt.Sprintf("axis %q lists %s twice", name, t))
		}
		seen[t] = true
	}
	return ax, nil
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// attach hands a plugin-body override to its block: collect.P.X... names
// block (P, X) if it exists, else key X of block (P, default component).
func (e *Experiment) attach(bo bodyOverride) *Diagnostic {
	blocks := e.Collect
	if bo.kind == "analyze" {
		blocks = e.Analyze
	}
	eq := func(a, b string) bool { return a == b || (bo.fold && strings.EqualFold(a, b)) }
	find := func(p, c string) *Block {
		for _, b := range blocks {
			if eq(b.Plugin, p) && eq(b.Component, c) {
				return b
			}
		}
		return nil
	}
	at := where{src: bo.src}
	key := bo.kind + "." + joinPath(bo.segs)
	p, x := bo.segs[0], bo.segs[1]
	if b := find(p, x); b != nil {
		if len(bo.segs) == 2 {
			return at.diag(fmt.Sprintf("setting %q names the block %s; set one of its keys, e.g. %s.KEY", key, b, key), "")
		}
		b.overrides = append(b.overrides, override{path: bo.segs[2:], text: bo.text, src: bo.src, fold: bo.fold})
		return nil
	}
	if b := find(p, ""); b != nil {
		b.overrides = append(b.overrides, override{path: bo.segs[1:], text: bo.text, src: bo.src, fold: bo.fold})
		return nil
	}
	var plugins, comps []string
	for _, b := range blocks {
		plugins = append(plugins, b.Plugin)
		if eq(b.Plugin, p) && b.Component != "" {
			comps = append(comps, b.Component)
		}
	}
	if len(comps) == 0 {
		msg := fmt.Sprintf("unknown setting %q: there is no %s %q block", key, bo.kind, p)
		if s := suggest(p, plugins); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", bo.kind+"."+s+"."+joinPath(bo.segs[1:]))
		}
		return at.diag(msg, "")
	}
	msg := fmt.Sprintf("unknown setting %q: there is no %s %q block without a component", key, bo.kind, p)
	if s := suggest(x, comps); s != "" && len(bo.segs) > 2 {
		return at.diag(msg+fmt.Sprintf("; did you mean %q?", bo.kind+"."+p+"."+s+"."+joinPath(bo.segs[2:])), "")
	}
	return at.diag(msg+fmt.Sprintf("; name one of its components (%s), e.g. %s.%s.%s.%s",
		strings.Join(comps, ", "), bo.kind, p, comps[0], joinPath(bo.segs[1:])), "")
}
