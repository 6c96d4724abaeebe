package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/sdk"
)

// Test plugin configs; their schemas come from the real sdk.SchemaOf.

type dbConfig struct {
	Op           string `json:"op" enum:"insert,update,delete" default:"insert"`
	Transactions int    `json:"transactions" default:"100" min:"1"`
	Journal      string `json:"journal" enum:"delete,truncate,persist,wal,memory,off" default:"delete"`
}

type mobiConfig struct {
	Access   int           `json:"access" enum:"0,1,2" default:"0"`
	Sync     int           `json:"sync" min:"0" max:"7"`
	FileSize sdk.Size      `json:"file_size" required:"true"`
	IOSize   sdk.Size      `json:"io_size" default:"4KiB"`
	Threads  int           `json:"threads" default:"1" min:"1" max:"64"`
	Sample   float64       `json:"sample" default:"0.5"`
	Timeout  time.Duration `json:"timeout" default:"2s"`
	Label    string        `json:"label"`
	Verbose  bool          `json:"verbose"`
	Tags     []string      `json:"tags"`
	Sizes    []int         `json:"sizes"`
	DB       dbConfig      `json:"db"`
}

type fioConfig struct {
	Threads int    `json:"threads" default:"1"`
	Engine  string `json:"engine" default:"sync"`
}

type analyzeConfig struct {
	Baseline string  `json:"baseline"`
	Alpha    float64 `json:"alpha" default:"0.05"`
}

type fakePlugin struct {
	collectors, analyzers map[string]any // component → config struct
}

type fakeSchemas map[string]fakePlugin

func (f fakeSchemas) Component(kind, plugin, component string) (string, *api.Schema, error) {
	p, ok := f[plugin]
	if !ok {
		return "", nil, &UnknownError{Kind: "plugin", Name: plugin, Known: sortedNames(f)}
	}
	comps := p.collectors
	if kind == "analyzer" {
		comps = p.analyzers
	}
	if component == "" {
		component = plugin
	}
	cfg, ok := comps[component]
	if !ok {
		return "", nil, fmt.Errorf("plugin %s: %w", plugin, &UnknownError{Kind: kind, Name: component, Known: sortedNames(comps)})
	}
	s, err := sdk.SchemaOf(cfg)
	return component, s, err
}

func sortedNames[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var schemas = fakeSchemas{
	"mobibench": {
		collectors: map[string]any{"mobibench": mobiConfig{}, "fio": fioConfig{}},
		analyzers:  map[string]any{"mobibench": analyzeConfig{}},
	},
	"dpa": {collectors: map[string]any{"dpa": fioConfig{}}},
}

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// plan loads src as a file called name (in a temp dir) and resolves it. The
// returned path is relative, as a user would type it, so that diagnostics
// can be matched literally.
func plan(t *testing.T, name, src string, opt Options) (*Plan, error) {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, name, src)
	t.Chdir(dir)
	e, err := Load(name, opt)
	if err != nil {
		return nil, err
	}
	return e.Resolve(schemas)
}

// validate is plan through Validate, which reports Load and Resolve
// problems together.
func validate(t *testing.T, name, src string, opt Options) (*Plan, error) {
	t.Helper()
	dir := t.TempDir()
	return Validate(write(t, dir, name, src), opt, schemas)
}

func mustPlan(t *testing.T, name, src string, opt Options) *Plan {
	t.Helper()
	p, err := plan(t, name, src, opt)
	if err != nil {
		t.Fatalf("unexpected error:\n%v", err)
	}
	return p
}

func configOf(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

const quickHCL = `experiment "quickstart" {
  description = "small Mobibench sweep"
  repeat      = 3
  warmup      = 1
  plugin_dirs = ["./more-plugins"]
  storage {
    backend = "dir"
    keep    = true
    options = { fs = "ext4", depth = 2 }
  }
  matrix {
    mode = [0, 1]
    sync = [0, 2]
  }
  collect "mobibench" {
    access    = matrix.mode
    sync      = matrix.sync
    file_size = "1MiB"
    timeout   = "200ms"
    tags      = ["a", "b"]
    db {
      op      = "update"
      journal = "wal"
    }
  }
  collect "mobibench" "fio" {
    threads = 4
  }
  analyze "mobibench" {
    alpha = 0.01
  }
}
`

const quickYAML = `experiment:
  quickstart:
    description: small Mobibench sweep
    repeat: 3
    warmup: 1
    plugin_dirs: [./more-plugins]
    storage: {backend: dir, keep: true, options: {fs: ext4, depth: 2}}
    matrix: {mode: [0, 1], sync: [0, 2]}
    collect:
      mobibench:
        access: ${matrix.mode}
        sync: "${matrix.sync}"
        file_size: 1MiB
        timeout: 200ms
        tags: [a, b]
        db: {op: update, journal: wal}
      "mobibench fio": {threads: 4}
    analyze:
      mobibench: {alpha: 0.01}
`

func TestHCLAndYAMLResolveTheSame(t *testing.T) {
	ph := mustPlan(t, "quick.hcl", quickHCL, Options{})
	py := mustPlan(t, "quick.yaml", quickYAML, Options{})
	for _, p := range []*Plan{ph, py} {
		e := p.Experiment
		if e.Name != "quickstart" || e.Description != "small Mobibench sweep" || e.Repeat != 3 || e.Warmup != 1 {
			t.Errorf("%s: top-level settings: %+v", e.File, e)
		}
		if len(e.PluginDirs) != 1 || !filepath.IsAbs(e.PluginDirs[0]) || filepath.Dir(e.PluginDirs[0]) != filepath.Dir(e.File) {
			t.Errorf("%s: plugin dirs %v not relative to the file", e.File, e.PluginDirs)
		}
		want := Storage{Backend: "dir", Keep: true, Options: map[string]string{"fs": "ext4", "depth": "2"}}
		if !reflect.DeepEqual(e.Storage, want) {
			t.Errorf("%s: storage %+v, want %+v", e.File, e.Storage, want)
		}
		if len(p.Cells) != 4 || len(p.Collect) != 2 || len(p.Analyze) != 1 {
			t.Fatalf("%s: %d cells, %d collect, %d analyze", e.File, len(p.Cells), len(p.Collect), len(p.Analyze))
		}
		if p.Collect[0].Component != "mobibench" || p.Collect[1].Component != "fio" || len(p.Analyze[0].Configs) != 1 {
			t.Errorf("%s: steps %+v %+v", e.File, p.Collect[0], p.Collect[1])
		}
	}
	for i := range ph.Collect {
		for c := range ph.Cells {
			if h, y := string(ph.Collect[i].Configs[c]), string(py.Collect[i].Configs[c]); h != y {
				t.Errorf("collect %d cell %d:\nHCL  %s\nYAML %s", i, c, h, y)
			}
		}
	}
	if h, y := string(ph.Analyze[0].Configs[0]), string(py.Analyze[0].Configs[0]); h != y {
		t.Errorf("analyze:\nHCL  %s\nYAML %s", h, y)
	}
	// Cell 3 is mode=1, sync=2.
	got := string(ph.Collect[0].Configs[3])
	want := `{"access":1,"db":{"journal":"wal","op":"update","transactions":100},"file_size":1048576,` +
		`"io_size":4096,"label":"","sample":0.5,"sizes":[],"sync":2,"tags":["a","b"],"threads":1,` +
		`"timeout":200000000,"verbose":false}`
	if got != want {
		t.Errorf("cell 3 config\n got %s\nwant %s", got, want)
	}
	if got := string(ph.Analyze[0].Configs[0]); got != `{"alpha":0.01,"baseline":""}` {
		t.Errorf("analyze config %s", got)
	}
	for _, k := range []string{"collect", "analyze"} {
		rh, ry := ph.Resolved()[k].([]any), py.Resolved()[k].([]any)
		for i := range rh {
			h, y := rh[i].(map[string]any), ry[i].(map[string]any)
			if !reflect.DeepEqual(h["configs"], y["configs"]) || !reflect.DeepEqual(h["config"], y["config"]) {
				t.Errorf("Resolved %s[%d] differs:\n%v\n%v", k, i, h, y)
			}
		}
	}
}

func TestCells(t *testing.T) {
	for _, tc := range []struct {
		matrix string
		names  []string
	}{
		{"", []string{""}},
		{"matrix {\n    mode = [0, 1]\n    sync = [0, 2]\n  }", []string{"mode=0,sync=0", "mode=0,sync=2", "mode=1,sync=0", "mode=1,sync=2"}},
		{"matrix {\n    journal = [\"wal\", \"off\"]\n    ratio = [0.5]\n    on = [true, false]\n  }",
			[]string{"journal=wal,ratio=0.5,on=true", "journal=wal,ratio=0.5,on=false", "journal=off,ratio=0.5,on=true", "journal=off,ratio=0.5,on=false"}},
	} {
		p := mustPlan(t, "m.hcl", `experiment "m" {
  `+tc.matrix+`
}
`, Options{})
		var names []string
		for i, c := range p.Cells {
			if c.Index != i || len(c.Keys) != len(c.Labels) || len(c.Keys) != len(c.Values) {
				t.Errorf("cell %d malformed: %+v", i, c)
			}
			names = append(names, c.Name())
		}
		if !reflect.DeepEqual(names, tc.names) {
			t.Errorf("matrix %q: cells %q, want %q", tc.matrix, names, tc.names)
		}
	}
	p := mustPlan(t, "m.hcl", `experiment "m" {
  matrix {
    mode  = [0, 1]
    ratio = [0.5]
    on    = [true]
    j     = ["wal"]
  }
}
`, Options{})
	c := p.Cells[1]
	if c.Values["mode"] != int64(1) || c.Values["ratio"] != 0.5 || c.Values["on"] != true || c.Values["j"] != "wal" {
		t.Errorf("value types: %#v", c.Values)
	}
	if c.Labels["mode"] != "1" || c.Labels["ratio"] != "0.5" || c.Labels["on"] != "true" {
		t.Errorf("labels: %#v", c.Labels)
	}
}

func TestMatrixExpressionsAndTypes(t *testing.T) {
	p := mustPlan(t, "x.hcl", `experiment "x" {
  matrix {
    n = [1, 2]
    j = ["wal", "off"]
  }
  collect "mobibench" {
    file_size = "${matrix.n}MiB"
    threads   = matrix.n * 4
    label     = "j-${matrix.j}"
    db { journal = matrix.j }
  }
}
`, Options{})
	c := configOf(t, p.Collect[0].Configs[3]) // n=2, j=off
	if c["file_size"] != float64(2<<20) || c["threads"] != float64(8) || c["label"] != "j-off" ||
		c["db"].(map[string]any)["journal"] != "off" {
		t.Errorf("cell 3: %v", c)
	}
}

func TestDefaultsSizesDurations(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       map[string]any
	}{
		{"defaults", `file_size = 4096`, map[string]any{"file_size": 4096.0, "io_size": 4096.0, "threads": 1.0, "sample": 0.5,
			"timeout": 2e9, "access": 0.0, "sync": 0.0, "label": "", "verbose": false, "tags": []any{}, "sizes": []any{},
			"db": map[string]any{"op": "insert", "transactions": 100.0, "journal": "delete"}}},
		{"size string", `file_size = "1.5KiB"`, map[string]any{"file_size": 1536.0}},
		{"size unit", `file_size = "2G"`, map[string]any{"file_size": float64(2 << 30)}},
		{"size number string", `file_size = "512"`, map[string]any{"file_size": 512.0}},
		{"duration string", `
    file_size = 1
    timeout = "1.5s"`, map[string]any{"timeout": 1.5e9}},
		{"duration number", `
    file_size = 1
    timeout = 1000`, map[string]any{"timeout": 1000.0}},
		{"lists", `
    file_size = 1
    sizes = [1, 2, 3]
    tags = []`, map[string]any{"sizes": []any{1.0, 2.0, 3.0}, "tags": []any{}}},
		{"null is absent", `
    file_size = 1
    threads = null`, map[string]any{"threads": 1.0}},
		{"number as string", `
    file_size = 1
    threads = "8"
    label = 5`, map[string]any{"threads": 8.0, "label": "5"}},
		{"nested default kept", `
    file_size = 1
    db { op = "delete" }`, map[string]any{"db": map[string]any{"op": "delete", "transactions": 100.0, "journal": "delete"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPlan(t, "d.hcl", `experiment "d" {
  collect "mobibench" {
    `+tc.body+`
  }
}
`, Options{})
			c := configOf(t, p.Collect[0].Configs[0])
			if len(c) != 12 {
				t.Errorf("config has %d fields, want all 12: %v", len(c), c)
			}
			for k, v := range tc.want {
				if !reflect.DeepEqual(c[k], v) {
					t.Errorf("%s = %#v, want %#v", k, c[k], v)
				}
			}
		})
	}
}

// errorCases are bodies of an experiment with the error each must produce.
// Lines: the experiment header is line 1, so the first body line is 2.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // each must appear in the error text
	}{
		{"misspelled key", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    smaple = 10
  }
}`, []string{`e.hcl:4:5: Unsupported argument: An argument named "smaple" is not expected here. Did you mean "sample"?`}},
		{"wrong type top level", `experiment "e" {
  repeat = "five"
}`, []string{`e.hcl:2:12: Unsuitable value for "repeat": a number is required`}},
		{"wrong type plugin int", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    threads   = "abc"
  }
}`, []string{`e.hcl:4:17: Unsuitable value for "threads": a number is required`}},
		{"unknown plugin", `experiment "e" {
  collect "mobibnech" {}
}`, []string{`e.hcl:2:11: Unknown plugin: There is no plugin named "mobibnech". Did you mean "mobibench"?`}},
		{"unknown component", `experiment "e" {
  collect "mobibench" "fiio" {}
}`, []string{`e.hcl:2:23: Unknown collector: Plugin "mobibench" has no collector named "fiio". Did you mean "fio"?`}},
		{"missing required", `experiment "e" {
  collect "mobibench" {
    threads = 2
  }
}`, []string{`e.hcl:2:3: Missing required argument: The argument "file_size" is required, but no definition was found.`}},
		{"enum", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    access = 7
  }
}`, []string{`e.hcl:4:14: Invalid value for "access": value 7 is not one of 0,1,2`}},
		{"string enum suggestion", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    db { journal = "wall" }
  }
}`, []string{`e.hcl:4:20: Invalid value for "journal": value "wall" is not one of delete,truncate,persist,wal,memory,off. Did you mean "wal"?`}},
		{"max", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    threads = 100
  }
}`, []string{`e.hcl:4:15: Invalid value for "threads": value 100 is greater than the maximum 64`}},
		{"whole number", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    threads = 1.5
  }
}`, []string{`e.hcl:4:15: Unsuitable value for "threads": a whole number is required`}},
		{"bad size", `experiment "e" {
  collect "mobibench" {
    file_size = "1XB"
  }
}`, []string{`e.hcl:3:17: Unsuitable value for "file_size": invalid size "1XB"`}},
		{"bad duration", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    timeout = "soon"
  }
}`, []string{`e.hcl:4:15: Unsuitable value for "timeout": invalid duration "soon"`}},
		{"nested unknown key", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    db {
      opp = "insert"
    }
  }
}`, []string{`e.hcl:5:7: Unsupported argument: An argument named "opp" is not expected here. Did you mean "op"?`}},
		{"block written as argument", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    db = { op = "insert" }
  }
}`, []string{`e.hcl:4:5: Unsupported argument: An argument named "db" is not expected here. Did you mean to define a block of type "db"?`}},
		{"duplicate nested block", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    db {}
    db {}
  }
}`, []string{`e.hcl:5:5: Duplicate db block: db already defined at e.hcl:4`}},
		{"duplicate block", `experiment "e" {
  collect "mobibench" { file_size = 1 }
  collect "mobibench" "fio" {}
  collect "mobibench" { file_size = 2 }
}`, []string{`e.hcl:4:3: Duplicate collect block: collect "mobibench" already defined at e.hcl:2`}},
		{"duplicate after resolving the default", `experiment "e" {
  collect "mobibench" { file_size = 1 }
  collect "mobibench" "mobibench" { file_size = 1 }
}`, []string{`e.hcl:3:3: Duplicate collect block: collect "mobibench" "mobibench" is the same collector "mobibench" as collect "mobibench" at e.hcl:2`}},
		{"analyze references matrix", `experiment "e" {
  matrix { mode = [0, 1] }
  analyze "mobibench" {
    baseline = "m${matrix.mode}"
  }
}`, []string{`e.hcl:4:20: Matrix reference in analyze block: analyze "mobibench" runs once over all matrix cells, so it cannot use matrix.mode`}},
		{"unknown axis", `experiment "e" {
  matrix { mode = [0, 1] }
  collect "mobibench" {
    file_size = 1
    access = matrix.mdoe
  }
}`, []string{`e.hcl:5:14: Unknown matrix axis: There is no matrix axis named "mdoe". Did you mean "mode"?`}},
		{"per-cell value error", `experiment "e" {
  matrix { mode = [0, 7] }
  collect "mobibench" {
    file_size = 1
    access = matrix.mode
  }
}`, []string{`e.hcl:5:14: Invalid value for "access": value 7 is not one of 0,1,2`}},
		{"unknown backend", `experiment "e" {
  storage { backend = "dri" }
}`, []string{`e.hcl:2:23: Invalid value for "backend": value "dri" is not one of dir,loop,device. Did you mean "dir"?`}},
		{"unknown storage key", `experiment "e" {
  storage { fss = "ext4" }
}`, []string{`e.hcl:2:13: Unsupported argument: An argument named "fss" is not expected here. Did you mean "fs"?`}},
		{"unknown top-level block", `experiment "e" {
  colect "mobibench" {}
}`, []string{`e.hcl:2:3: Unsupported block type: Blocks of type "colect" are not expected here. Did you mean "collect"?`}},
		{"unknown top-level argument", `experiment "e" {
  repaet = 2
}`, []string{`e.hcl:2:3: Unsupported argument: An argument named "repaet" is not expected here. Did you mean "repeat"?`}},
		{"repeat below minimum", `experiment "e" {
  repeat = 0
}`, []string{`e.hcl:2:12: Invalid value for "repeat": value 0 is less than the minimum 1`}},
		{"two experiments", `experiment "a" {}
experiment "b" {}`, []string{`e.hcl:2:1: Duplicate experiment block: a file defines exactly one experiment; the first is at e.hcl:1`}},
		{"no experiment", ``, []string{`e.hcl: Missing experiment block`}},
		{"syntax error", `experiment "e" {
  repeat = 
}`, []string{`e.hcl:2:`}},
		{"empty matrix axis", `experiment "e" {
  matrix { mode = [] }
}`, []string{`e.hcl:2:19: Invalid matrix axis: axis "mode" has no values`}},
		{"collect without label", `experiment "e" {
  collect {}
}`, []string{`e.hcl:2:3: Wrong labels for collect`}},
		{"whole matrix referenced", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    label = matrix
  }
}`, []string{`e.hcl:4:13: Invalid matrix reference: refer to one axis of the matrix, e.g. matrix.mode`}},
		{"functions and unknown variables", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    label = foo.bar
    threads = max(1, 2)
  }
}`, []string{`e.hcl:4:13: Unknown variable: There is no variable named "foo".`, `e.hcl:5:15: Function calls not allowed`}},
		{"list element", `experiment "e" {
  collect "mobibench" {
    file_size = 1
    sizes = [1, "a"]
    tags = "a"
  }
}`, []string{`e.hcl:4:13: Unsuitable value for "sizes": element 1: a number is required`, `e.hcl:5:12: Unsuitable value for "tags": a list is required`}},
		{"plugin without that analyzer", `experiment "e" {
  analyze "dpa" {}
}`, []string{`e.hcl:2:11: Unknown analyzer: Plugin "dpa" has no analyzer named "dpa".`}},
		{"all errors at once", `experiment "e" {
  repeat = "five"
  collect "mobibench" {
    smaple = 1
  }
  collect "mobibnech" {}
}`, []string{
			`e.hcl:2:12: Unsuitable value for "repeat": a number is required`,
			`e.hcl:4:5: Unsupported argument: An argument named "smaple"`,
			`e.hcl:3:3: Missing required argument`,
			`e.hcl:6:11: Unknown plugin`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := plan(t, "e.hcl", tc.src+"\n", Options{})
			if tc.name == "all errors at once" {
				_, err = validate(t, "e.hcl", tc.src+"\n", Options{})
			}
			checkErr(t, err, tc.want...)
		})
	}
}

func checkErr(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	var ds Diagnostics
	if !errors.As(err, &ds) {
		t.Fatalf("error %T is not Diagnostics: %v", err, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%v\ndoes not contain\n%s", err, w)
		}
	}
}

func TestResolveReportsAllBlocks(t *testing.T) {
	_, err := plan(t, "e.hcl", `experiment "e" {
  collect "mobibench" {
    smaple = 1
  }
  collect "mobibnech" {}
  analyze "mobibench" { alpha = "x" }
}
`, Options{})
	checkErr(t, err, `e.hcl:2:3: Missing required argument`, `e.hcl:3:5: Unsupported argument`,
		`e.hcl:5:11: Unknown plugin`, `e.hcl:6:33: Unsuitable value for "alpha": a number is required`)
	if n := len(err.(Diagnostics)); n != 4 {
		t.Errorf("%d diagnostics, want 4:\n%v", n, err)
	}
}

func TestYAMLErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"misspelled key", `experiment:
  e:
    collect:
      mobibench:
        file_size: 1
        smaple: 10
`, []string{`e.yaml:6:9: Unsupported argument: An argument named "smaple" is not expected here. Did you mean "sample"?`}},
		{"wrong type top level", `experiment:
  e:
    repeat: five
`, []string{`e.yaml:3:13: Unsuitable value for "repeat": a number is required`}},
		{"wrong type plugin int", `experiment:
  e:
    collect:
      mobibench: {file_size: 1, threads: abc}
`, []string{`e.yaml:4:42: Unsuitable value for "threads": a number is required`}},
		{"unknown plugin", `experiment:
  e:
    collect:
      mobibnech: {}
`, []string{`e.yaml:4:7: Unknown plugin: There is no plugin named "mobibnech". Did you mean "mobibench"?`}},
		{"missing required", `experiment:
  e:
    collect:
      mobibench:
`, []string{`e.yaml:4:7: Missing required argument: The argument "file_size" is required`}},
		{"unknown experiment key", `experiment:
  e:
    colect: {}
`, []string{`e.yaml:3:5: Unsupported argument: An argument named "colect" is not expected here. Did you mean "collect"?`}},
		{"duplicate block", `experiment:
  e:
    collect:
      "mobibench": {file_size: 1}
      mobibench  fio: {}
      "mobibench fio": {}
`, []string{`e.yaml:6:7: Duplicate collect block: collect "mobibench" "fio" already defined at e.yaml:5`}},
		{"partial matrix reference", `experiment:
  e:
    matrix: {mode: [0]}
    collect:
      mobibench: {file_size: 1, label: "x-${matrix.mode}"}
`, []string{`e.yaml:5:40: Invalid matrix reference`}},
		{"analyze references matrix", `experiment:
  e:
    matrix: {mode: [0]}
    analyze:
      mobibench: {baseline: "${matrix.mode}"}
`, []string{`e.yaml:5:29: Matrix reference in analyze block`}},
		{"matrix at top level", `experiment:
  e:
    matrix: {mode: [0]}
    description: ${matrix.mode}
`, []string{`e.yaml:4:18: Variables not allowed`}},
		{"syntax", "experiment:\n  e: [\n", []string{`e.yaml:`, `Invalid YAML`}},
		{"tab indents a key", "experiment:\n  e:\n\trepeat: 2\n",
			[]string{`e.yaml:3:1: Invalid YAML: tab characters are not allowed for indentation`}},
		{"tab after spaces", "experiment:\n  e:\n    matrix:\n    \tsync: [1]\n",
			[]string{`e.yaml:4:5: Invalid YAML: tab characters are not allowed for indentation`}},
		{"tab indents a list item", "experiment:\n  e:\n    plugin_dirs:\n      - a\n\t  - b\n",
			[]string{`e.yaml:5:1: Invalid YAML: tab characters are not allowed for indentation`}},
		{"storage must be a mapping", `experiment:
  e:
    storage: dir
`, []string{`e.yaml:3:14: Unsuitable value: storage must be a mapping`}},
		{"block must be a mapping", `experiment:
  e:
    collect:
      mobibench: {file_size: 1, db: 3, verbose: maybe}
`, []string{`e.yaml:4:37: Unsuitable value: "db" (a block) must be a mapping`, `e.yaml:4:49: Unsuitable value for "verbose": a bool is required`}},
		{"two experiments", `experiment:
  a: {}
  b: {}
`, []string{`e.yaml:2:3: Invalid experiment`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := plan(t, "e.yaml", tc.src, Options{})
			checkErr(t, err, tc.want...)
		})
	}
}

func TestOverrides(t *testing.T) {
	src := `experiment "o" {
  repeat = 3
  matrix { mode = [0, 1] }
  collect "mobibench" {
    access    = matrix.mode
    file_size = "1MiB"
    threads   = 2
  }
  collect "mobibench" "fio" { threads = 1 }
  analyze "mobibench" {}
}
`
	for _, tc := range []struct {
		name  string
		opt   Options
		check func(t *testing.T, p *Plan)
	}{
		{"file only", Options{}, func(t *testing.T, p *Plan) {
			if p.Experiment.Repeat != 3 || cfg(t, p, 0, 1)["threads"] != 2.0 {
				t.Errorf("repeat %d threads %v", p.Experiment.Repeat, cfg(t, p, 0, 1)["threads"])
			}
		}},
		{"env beats file", Options{Env: []string{"PATH=/bin", "DROIDPROF_REPEAT=5", "DROIDPROF_HOME=/x", "DROIDPROF_PLUGIN=dpa",
			"DROIDPROF_PLUGIN_PATH=/p", "DROIDPROF_REQUIRE_PRIVILEGED=1", "DROIDPROF_STORAGE__DIR=/tmp/x"}}, func(t *testing.T, p *Plan) {
			if p.Experiment.Repeat != 5 || p.Experiment.Storage.Dir != "/tmp/x" {
				t.Errorf("repeat %d dir %q", p.Experiment.Repeat, p.Experiment.Storage.Dir)
			}
		}},
		{"set beats env", Options{Env: []string{"DROIDPROF_REPEAT=5"}, Set: []string{"repeat=7", "warmup=2", "storage.keep=true",
			"storage.options.fs=xfs", "plugin_dirs=a,/b", "description=hello world"}}, func(t *testing.T, p *Plan) {
			e := p.Experiment
			if e.Repeat != 7 || e.Warmup != 2 || !e.Storage.Keep || e.Storage.Options["fs"] != "xfs" || e.Description != "hello world" {
				t.Errorf("experiment %+v", e)
			}
			// Relative to the working directory (plan runs in the file's).
			if !reflect.DeepEqual(e.PluginDirs, []string{filepath.Join(filepath.Dir(e.File), "a"), "/b"}) {
				t.Errorf("plugin dirs %v", e.PluginDirs)
			}
		}},
		{"plugin setting from env", Options{Env: []string{"DROIDPROF_COLLECT__MOBIBENCH__THREADS=4",
			"DROIDPROF_COLLECT__MOBIBENCH__FIO__THREADS=3"}}, func(t *testing.T, p *Plan) {
			for c := range p.Cells {
				if cfg(t, p, 0, c)["threads"] != 4.0 || cfg(t, p, 1, c)["threads"] != 3.0 {
					t.Errorf("cell %d: %v / %v", c, cfg(t, p, 0, c), cfg(t, p, 1, c))
				}
			}
		}},
		{"plugin setting set beats env", Options{Env: []string{"DROIDPROF_COLLECT__MOBIBENCH__THREADS=4"},
			Set: []string{"collect.mobibench.threads=8", "collect.mobibench.fio.threads=2", "collect.mobibench.db.op=update",
				"collect.mobibench.tags=x,y", "collect.mobibench.timeout=3s", "analyze.mobibench.alpha=0.1"}}, func(t *testing.T, p *Plan) {
			c := cfg(t, p, 0, 1)
			if c["threads"] != 8.0 || c["db"].(map[string]any)["op"] != "update" || c["timeout"] != 3e9 ||
				!reflect.DeepEqual(c["tags"], []any{"x", "y"}) {
				t.Errorf("mobibench: %v", c)
			}
			if cfg(t, p, 1, 0)["threads"] != 2.0 {
				t.Errorf("fio: %v", cfg(t, p, 1, 0))
			}
			if a := configOf(t, p.Analyze[0].Configs[0]); a["alpha"] != 0.1 {
				t.Errorf("analyze: %v", a)
			}
		}},
		{"override replaces a matrix reference", Options{Set: []string{"collect.mobibench.access=2"}}, func(t *testing.T, p *Plan) {
			for c := range p.Cells {
				if cfg(t, p, 0, c)["access"] != 2.0 {
					t.Errorf("cell %d: %v", c, cfg(t, p, 0, c))
				}
			}
		}},
		{"matrix override", Options{Env: []string{"DROIDPROF_MATRIX__MODE=2"}, Set: []string{"matrix.mode=0,1,2", "matrix.extra=a,b"}},
			func(t *testing.T, p *Plan) {
				ax := p.Experiment.Matrix
				if len(ax) != 2 || ax[0].Name != "mode" || !reflect.DeepEqual(ax[0].Values, []any{int64(0), int64(1), int64(2)}) ||
					ax[1].Name != "extra" || !reflect.DeepEqual(ax[1].Values, []any{"a", "b"}) || len(p.Cells) != 6 {
					t.Fatalf("matrix %+v", ax)
				}
				if cfg(t, p, 0, 5)["access"] != 2.0 {
					t.Errorf("cell 5: %v", cfg(t, p, 0, 5))
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, mustPlan(t, "o.hcl", src, tc.opt))
		})
	}
}

func cfg(t *testing.T, p *Plan, step, cell int) map[string]any {
	t.Helper()
	return configOf(t, p.Collect[step].Configs[cell])
}

func TestOverrideErrors(t *testing.T) {
	src := `experiment "o" {
  collect "mobibench" {
    file_size = 1
  }
  collect "mobibench" "fio" {}
  collect "dpa" "dpa" {}
}
`
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"unknown env key", Options{Env: []string{"DROIDPROF_REPAET=5"}},
			`env:DROIDPROF_REPAET: unknown setting "repaet"; did you mean "repeat"?`},
		{"unknown set key", Options{Set: []string{"colect.x=1"}},
			`--set colect.x=1: unknown setting "colect.x"; did you mean "collect.x"?`},
		{"unknown storage key", Options{Env: []string{"DROIDPROF_STORAGE__DRI=/x"}},
			`env:DROIDPROF_STORAGE__DRI: unknown setting "storage.dri"; did you mean "storage.dir"?`},
		{"bad value", Options{Set: []string{"repeat=five"}},
			`--set repeat=five: Unsuitable value for "repeat": a whole number is required, not "five"`},
		{"bad value env", Options{Env: []string{"DROIDPROF_WARMUP=-1"}},
			`env:DROIDPROF_WARMUP: Invalid value for "warmup": value -1 is less than the minimum 0`},
		{"no equals", Options{Set: []string{"repeat"}}, `--set repeat: expected key=value`},
		{"unknown plugin", Options{Set: []string{"collect.mobibnech.threads=1"}},
			`--set collect.mobibnech.threads=1: unknown setting "collect.mobibnech.threads": there is no collect "mobibnech" block; did you mean "collect.mobibench.threads"?`},
		{"no default component", Options{Set: []string{"collect.dpa.threads=1"}},
			`--set collect.dpa.threads=1: unknown setting "collect.dpa.threads": there is no collect "dpa" block without a component; name one of its components (dpa), e.g. collect.dpa.dpa.threads`},
		{"unknown plugin key", Options{Set: []string{"collect.mobibench.smaple=1"}},
			`--set collect.mobibench.smaple=1: unknown setting "smaple" in collect "mobibench"; did you mean "sample"?`},
		{"unknown plugin key from env", Options{Env: []string{"DROIDPROF_COLLECT__MOBIBENCH__FIO__THREADZ=1"}},
			`env:DROIDPROF_COLLECT__MOBIBENCH__FIO__THREADZ: unknown setting "threadz" in collect "mobibench" "fio"; did you mean "threads"?`},
		{"unknown nested plugin key", Options{Set: []string{"collect.mobibench.db.opp=update"}},
			`--set collect.mobibench.db.opp=update: unknown setting "db.opp" in collect "mobibench"; did you mean "db.op"?`},
		{"bad plugin value", Options{Set: []string{"collect.mobibench.threads=abc"}},
			`--set collect.mobibench.threads=abc: Unsuitable value for "threads": a whole number is required, not "abc"`},
		{"plugin value out of range", Options{Set: []string{"collect.mobibench.db.op=upsert"}},
			`--set collect.mobibench.db.op=upsert: Invalid value for "op": value "upsert" is not one of insert,update,delete.`},
		{"block as value", Options{Set: []string{"collect.mobibench.db=1"}},
			`--set collect.mobibench.db=1: setting "db" in collect "mobibench" is a block; set one of its keys, e.g. db.op`},
		{"matrix on analyze is fine but axis name bad", Options{Set: []string{"matrix.a.b=1"}},
			`--set matrix.a.b=1: unknown setting "matrix.a.b"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := plan(t, "o.hcl", src, tc.opt)
			checkErr(t, err, tc.want)
		})
	}
}

func TestResolved(t *testing.T) {
	p := mustPlan(t, "quick.hcl", quickHCL, Options{Set: []string{"collect.mobibench.threads=3"}})
	r := p.Resolved()
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back["experiment"] != "quickstart" || back["repeat"] != 3.0 || len(back["cells"].([]any)) != 4 {
		t.Errorf("resolved: %s", js)
	}
	coll := back["collect"].([]any)[0].(map[string]any)
	c3 := coll["configs"].([]any)[3].(map[string]any)
	if c3["threads"] != 3.0 || c3["access"] != 1.0 || coll["component"] != "mobibench" {
		t.Errorf("collect[0]: %v", coll)
	}
	if a := back["analyze"].([]any)[0].(map[string]any); a["config"].(map[string]any)["alpha"] != 0.01 {
		t.Errorf("analyze: %v", a)
	}
	// Integers stay integers in the plain data.
	if v := r["collect"].([]any)[0].(map[string]any)["configs"].([]any)[0].(map[string]any)["file_size"]; v != int64(1<<20) {
		t.Errorf("file_size %#v", v)
	}
}

func TestValidateAndFormats(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "q.yml", quickYAML)
	p, err := Validate(path, Options{}, schemas)
	if err != nil || len(p.Collect) != 2 {
		t.Fatalf("Validate: %v", err)
	}
	_, err = Load(write(t, dir, "q.toml", ""), Options{})
	checkErr(t, err, "Unknown config format")
	_, err = Load(filepath.Join(dir, "missing.hcl"), Options{})
	checkErr(t, err, "Cannot read config")
}

func TestYAMLAnchorsAndNulls(t *testing.T) {
	p := mustPlan(t, "a.yaml", `experiment:
  a:
    description:
    matrix: {n: [1, 2]}
    collect:
      mobibench: &common {file_size: 2KiB, threads: "${matrix.n}"}
      dpa dpa:
    analyze:
      mobibench:
`, Options{})
	if p.Experiment.Description != "" || len(p.Collect) != 2 || len(p.Analyze) != 1 {
		t.Fatalf("plan %+v", p)
	}
	if c := cfg(t, p, 0, 1); c["threads"] != 2.0 || c["file_size"] != 2048.0 {
		t.Errorf("cell 1: %v", c)
	}
}

// The examples of the package documentation (YAML has no arithmetic, so its
// sync axis holds the products directly).
func TestDocExamples(t *testing.T) {
	var plans []*Plan
	for _, f := range []string{"testdata/quickstart.hcl", "testdata/quickstart.yaml"} {
		p, err := Validate(f, Options{}, schemas)
		if err != nil {
			t.Fatalf("%s:\n%v", f, err)
		}
		plans = append(plans, p)
	}
	h, y := plans[0], plans[1]
	if len(h.Cells) != 4 || len(y.Cells) != 4 {
		t.Fatalf("cells %d %d", len(h.Cells), len(y.Cells))
	}
	for s := range h.Collect {
		for c := range h.Cells {
			if a, b := string(h.Collect[s].Configs[c]), string(y.Collect[s].Configs[c]); a != b {
				t.Errorf("step %d cell %d:\n%s\n%s", s, c, a, b)
			}
		}
	}
	if !reflect.DeepEqual(h.Experiment.PluginDirs, y.Experiment.PluginDirs) || !reflect.DeepEqual(h.Experiment.Storage, y.Experiment.Storage) {
		t.Errorf("top level differs: %+v / %+v", h.Experiment, y.Experiment)
	}
}

// TestLoadPlanReportsEveryError: the schemas are chosen from the parsed
// experiment (its plugin_dirs), and a bad top-level setting does not stop
// the plugin blocks from being checked.
func TestLoadPlanReportsEveryError(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "e.hcl", `experiment "e" {
  repeat      = 0
  plugin_dirs = ["p"]
  collect "mobibench" {
    smaple = 1
  }
}
`)
	var dirs []string
	_, err := LoadPlan(path, Options{}, func(e *Experiment) Schemas {
		dirs = e.PluginDirs
		return schemas
	})
	checkErr(t, err, `e.hcl:2:17: Invalid value for "repeat"`, `e.hcl:4:3: Missing required argument`, `e.hcl:5:5: Unsupported argument`)
	if want := []string{filepath.Join(dir, "p")}; !reflect.DeepEqual(dirs, want) {
		t.Errorf("schemas chosen for plugin_dirs %q, want %q", dirs, want)
	}
}
