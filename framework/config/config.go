// Package config loads droidprof experiment configs.
//
// An experiment is written in HCL2 (primary) or YAML (same structure):
//
//	experiment "quickstart" {
//	  description = "small Mobibench sweep"
//	  repeat      = 3                  # >= 1, default 1
//	  warmup      = 1                  # >= 0, default 0
//	  plugin_dirs = ["./more-plugins"] # relative to the config file
//	  storage {
//	    backend = "dir"                # "dir" (default), "loop" or "device"
//	    dir     = ""                   # dir: empty means a fresh temporary directory per run
//	    keep    = false                # dir: keep that directory
//	    options = {}                   # passed to the collectors as they are
//	  }
//	  matrix {                         # cells: cartesian product, first axis slowest
//	    mode = [0, 1]
//	    sync = [0, 2]
//	  }
//	  collect "mobibench" {            # label 1: plugin, label 2 (optional): component
//	    access    = matrix.mode
//	    sync      = matrix.sync * 2
//	    file_size = "1MiB"
//	    db { op = "insert" }           # a nested block (TYPE_BLOCK field)
//	  }
//	  collect "mobibench" "fio" { threads = 4 }
//	  analyze "mobibench" {}           # analyze bodies may not use the matrix
//	}
//
// The loop backend (root) formats a sparse image on a loop device and mounts
// it; the device backend (root) mounts an existing block device, formatting
// it only when asked. Storage attributes may refer to the matrix, so one
// experiment can compare filesystems:
//
//	storage {
//	  backend       = "loop"
//	  fs            = matrix.fs          # "ext4" (default), "xfs", "btrfs"
//	  size          = "1GiB"             # default 1GiB
//	  image_dir     = "/var/tmp"         # default; not /tmp, which may be RAM
//	  mkfs_options  = ["-O", "^has_journal"]
//	  mount_options = "noatime"
//	}
//	matrix { fs = ["ext4", "xfs", "btrfs"] }
//
//	storage {
//	  backend       = "device"
//	  device        = "/dev/sdb"         # refused if mounted or in use
//	  format        = true               # default false: use the filesystem on it
//	  fs            = "ext4"
//	  mount_options = "data=journal"
//	}
//
// A one-line HCL block holds at most one argument; write more on separate
// lines. The YAML form has the same
// structure, blocks as label-keyed maps (labels joined by one space), and
// refers to the matrix with a string that is exactly "${matrix.NAME}":
//
//	experiment:
//	  quickstart:
//	    repeat: 3
//	    storage: {backend: loop, fs: "${matrix.fs}"}
//	    matrix: {mode: [0, 1], fs: [ext4, xfs]}
//	    collect:
//	      mobibench: {access: "${matrix.mode}", file_size: 1MiB, db: {op: insert}}
//	      "mobibench fio": {threads: 4}
//	    analyze:
//	      mobibench: {}
//
// Load parses the file and layers the top-level settings with koanf:
// defaults → file → DROIDPROF_* environment → --set flags. Overrides of
// plugin settings (collect.P[.C].key) are kept and applied by Resolve, which
// decodes every collect/analyze body against the plugin's own schema, once
// per matrix cell. A collect step varies only with the axes its block and
// the storage block refer to (Step.Axes, Step.Cells): the runner runs it once
// per combination of those. Every problem is reported as a Diagnostic
// positioned at file:line:col or at the override that caused it.
package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/api"
)

// Options are the overrides layered over the file.
type Options struct {
	// Env is the environment, as os.Environ returns it. Only DROIDPROF_*
	// variables are considered, except those in IgnoredEnv and IgnoreEnv.
	Env []string
	// Set are --set flags, "key=value" with dotted keys, applied in order.
	Set []string
	// IgnoreEnv names further DROIDPROF_* variables that are not settings.
	IgnoreEnv []string
}

// IgnoredEnv are DROIDPROF_* variables the CLI itself uses; they are never
// read as settings.
var IgnoredEnv = []string{"DROIDPROF_HOME", "DROIDPROF_PLUGIN_PATH", "DROIDPROF_REQUIRE_PRIVILEGED", "DROIDPROF_PLUGIN", "DROIDPROF_LOG_LEVEL"}

// Experiment is a parsed and layered experiment config. Plugin bodies are
// kept undecoded until Resolve knows their schemas.
type Experiment struct {
	Name        string
	Description string
	// File is the absolute path of the config file.
	File   string
	Repeat int
	Warmup int
	// PluginDirs are absolute; relative entries in the file are taken
	// relative to the file's directory, those from overrides relative to the
	// working directory.
	PluginDirs []string
	Storage    Storage
	Matrix     []Axis
	Collect    []*Block
	Analyze    []*Block

	badAxes []string // axes Load rejected (only set on a failed load)
	// storage is Storage per matrix cell; storageVaries says whether it
	// refers to the matrix at all.
	storage       []Storage
	storageVaries bool
	// storageAxes are the axes the storage block refers to, in matrix order.
	storageAxes []string
}

// Storage selects the volume the collectors do their I/O in (see package
// storage/volume). Its attributes may refer to the matrix, so it is resolved
// per cell: Experiment.StorageFor gives a cell's; Experiment.Storage holds
// the first cell's.
type Storage struct {
	// Backend is "dir" (default), "loop" or "device".
	Backend string
	// Dir (backend dir) is absolute, or empty: the runner then makes a fresh
	// temporary directory per run.
	Dir string
	// Keep (backend dir) keeps the files the workload wrote.
	Keep bool
	// Options are passed to the collectors as they are.
	Options map[string]string
	// FS (backends loop and device) is "ext4", "xfs" or "btrfs": what mkfs
	// makes. For loop, and device with Format, it defaults to ext4; for a
	// device without Format, empty means whatever is on it.
	FS string
	// Size (backend loop) of the sparse image in bytes; default 1 GiB.
	Size int64
	// MkfsOptions (loop, and device with Format) are passed to mkfs.FS,
	// e.g. ["-O", "^has_journal"].
	MkfsOptions []string
	// MountOptions (loop and device) are mount(8)-style options, e.g.
	// "noatime,data=journal".
	MountOptions string
	// Device (backend device) is the block device, absolute.
	Device string
	// Format (backend device) lets droidprof run mkfs on Device, erasing it.
	Format bool
	// ImageDir (backend loop) is an absolute directory for the image;
	// default /var/tmp.
	ImageDir string
}

// Axis is one dimension of the matrix.
type Axis struct {
	Name string
	// Values are int64, float64, string or bool.
	Values []any

	at where // where the axis was defined
}

// Block is one collect or analyze block.
type Block struct {
	// Kind is "collect" or "analyze".
	Kind string
	// Plugin is the first label; Component the optional second one (empty:
	// the plugin's default component).
	Plugin    string
	Component string
	// Pos is the position of the block header.
	Pos Pos

	pluginPos, componentPos Pos
	body                    body
	overrides               []override
}

// String renders the block header, e.g. `collect "mobibench" "fio"`.
func (b *Block) String() string {
	s := fmt.Sprintf("%s %q", b.Kind, b.Plugin)
	if b.Component != "" {
		s += fmt.Sprintf(" %q", b.Component)
	}
	return s
}

// Cell is one point of the matrix.
type Cell struct {
	Index int
	// Labels are the text forms of Values.
	Labels map[string]string
	// Keys are the axis names in matrix order.
	Keys   []string
	Values map[string]any
}

// Name renders the cell as "mode=0,sync=2" (empty without a matrix).
func (c Cell) Name() string {
	parts := make([]string, len(c.Keys))
	for i, k := range c.Keys {
		parts[i] = k + "=" + c.Labels[k]
	}
	return strings.Join(parts, ",")
}

// Cells expands the matrix: the cartesian product of the axes, the first
// axis varying slowest. Without a matrix there is one empty cell.
func (e *Experiment) Cells() []Cell {
	cells := []Cell{{Labels: map[string]string{}, Keys: []string{}, Values: map[string]any{}}}
	for _, ax := range e.Matrix {
		var next []Cell
		for _, c := range cells {
			for _, v := range ax.Values {
				n := Cell{Labels: map[string]string{}, Keys: append(append([]string{}, c.Keys...), ax.Name), Values: map[string]any{}}
				for k, x := range c.Values {
					n.Values[k], n.Labels[k] = x, c.Labels[k]
				}
				n.Values[ax.Name], n.Labels[ax.Name] = v, textOf(v)
				next = append(next, n)
			}
		}
		cells = next
	}
	for i := range cells {
		cells[i].Index = i
	}
	return cells
}

// Schemas tells Resolve the config schema of each plugin component.
type Schemas interface {
	// Component resolves a block to a component name and its schema. kind
	// is "collector" or "analyzer"; an empty component means the plugin's
	// default. When the plugin or the component does not exist the error
	// wraps an *UnknownError, so that Resolve can suggest a name.
	Component(kind, plugin, component string) (name string, schema *api.Schema, err error)
}

// UnknownError reports a plugin or component that does not exist.
type UnknownError struct {
	// Kind is "plugin", "collector" or "analyzer".
	Kind string
	// Name is the name asked for (empty: the plugin has no default
	// component of that kind).
	Name string
	// Known are the names that do exist.
	Known []string
}

func (e *UnknownError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("no default %s", e.Kind)
	}
	return fmt.Sprintf("unknown %s %q", e.Kind, e.Name)
}

// Plan is an experiment with every plugin body decoded.
type Plan struct {
	Experiment *Experiment
	Cells      []Cell
	Collect    []*Step
	Analyze    []*Step
	// Warnings are problems that do not stop a run, such as a matrix axis
	// that no collector and no storage setting uses.
	Warnings Diagnostics
}

// Step is one resolved collect or analyze block.
type Step struct {
	Plugin    string
	Component string // resolved, never empty
	Block     *Block
	// Axes (collect steps) are the matrix axes the step varies with, in
	// matrix order: those its block refers to (after overrides) and those
	// the storage block refers to, since each of its runs needs its cell's
	// volume. A step that refers to no axis runs once per repetition.
	Axes []string
	// Cells (collect steps) are the step's own cells, one per distinct
	// combination of Axes, in matrix order. Each carries only Axes in its
	// Keys, Labels and Values; its Index is that of the first matrix cell
	// with those values, so Configs[c.Index] and Experiment.StorageFor(c)
	// are the config and storage of its runs.
	Cells []Cell
	// Configs are JSON objects with every schema field present: one per
	// matrix cell for collect steps, exactly one for analyze steps.
	Configs []json.RawMessage
}

// CollectSteps is the number of collector runs the plan makes, warm-ups
// included: every cell of every collect step, once per repetition.
func (p *Plan) CollectSteps() int {
	n := 0
	for _, s := range p.Collect {
		n += len(s.Cells)
	}
	return n * (p.Experiment.Warmup + p.Experiment.Repeat)
}

// Load reads and parses the config file at path (.hcl, .yaml or .yml) and
// layers the overrides in opt over it. Errors are Diagnostics.
func Load(path string, opt Options) (*Experiment, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, Diagnostics{{Pos: Pos{File: path}, Summary: "Cannot read config", Detail: err.Error()}}
	}
	return Parse(path, src, opt)
}

// Validate is Load followed by Resolve: everything `droidprof validate`
// checks. Unlike calling the two in turn, it also decodes the plugin blocks
// when the top-level settings have errors, so that all problems are reported
// at once. It returns the plan so that callers can show it.
func Validate(path string, opt Options, s Schemas) (*Plan, error) {
	return LoadPlan(path, opt, func(*Experiment) Schemas { return s })
}

// LoadPlan is Validate for callers whose schemas depend on the experiment,
// e.g. on the plugin directories it names: schemasFor is called once the
// file is parsed, also when its top-level settings have errors, so that a
// bad repeat does not hide the plugin blocks' errors.
func LoadPlan(path string, opt Options, schemasFor func(*Experiment) Schemas) (*Plan, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, Diagnostics{{Pos: Pos{File: path}, Summary: "Cannot read config", Detail: err.Error()}}
	}
	e, ds := parse(path, src, opt)
	if e == nil {
		return nil, ds.err()
	}
	p, rds := e.resolve(schemasFor(e))
	if err := append(ds, rds...).err(); err != nil {
		return nil, err
	}
	return p, nil
}

// Parse is Load for a config already in memory; filename selects the format
// by its extension and names the file in diagnostics.
func Parse(filename string, src []byte, opt Options) (*Experiment, error) {
	e, ds := parse(filename, src, opt)
	if err := ds.err(); err != nil {
		return nil, err
	}
	return e, nil
}

// parse returns the experiment, even when there are problems, unless the
// file could not be parsed at all.
func parse(filename string, src []byte, opt Options) (*Experiment, Diagnostics) {
	var (
		fl *fileLayer
		ds Diagnostics
	)
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".hcl":
		fl, ds = parseHCL(filename, src)
	case ".yaml", ".yml":
		fl, ds = parseYAML(filename, src)
	default:
		return nil, Diagnostics{{Pos: Pos{File: filename}, Summary: "Unknown config format",
			Detail: "an experiment config must be a .hcl, .yaml or .yml file"}}
	}
	if fl == nil {
		return nil, ds
	}
	abs, err := filepath.Abs(filename)
	if err != nil {
		abs = filename
	}
	e := &Experiment{Name: fl.name, File: abs, Collect: fl.collect, Analyze: fl.analyze}
	ov, ods := parseOverrides(opt)
	ds = append(ds, ods...)
	ds = append(ds, e.layer(fl, ov, filepath.Dir(abs))...)
	for _, bo := range ov.body {
		if d := e.attach(bo); d != nil {
			ds = append(ds, d)
		}
	}
	return e, ds
}

// textOf renders a scalar the way users write it.
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return x.String()
	}
	return fmt.Sprint(v)
}
