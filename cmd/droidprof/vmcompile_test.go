package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/workloads"
)

const sumSmali = `.class public LSum;
.super Ljava/lang/Object;

.method public static sum([I)I
    .registers 4
    const/4 v0, 0
    const/4 v1, 0
  :top
    array-length v2, p0
    if-ge v1, v2, :done
    aget v2, p0, v1
    add-int/2addr v0, v2
    add-int/lit8 v1, v1, 1
    goto :top
  :done
    return v0
.end method

.method public static two()I
    .registers 2
    const/4 v0, 2
    add-int/lit8 v1, v0, 3
    return v1
.end method
`

// TestVMCompile checks `droidprof vm compile`: the summary, dumps after a
// pass in text and dot, the method filter, disabled passes, and usage
// errors.
func TestVMCompile(t *testing.T) {
	c := newCLI(t)
	cls, err := smali.Parse("Sum.smali", []byte(sumSmali), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{cls}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.write("sum.dex", string(data))
	for _, tc := range []struct {
		args      []string
		code      int
		stdout    []string // substrings
		notStdout []string
		stderr    string
	}{
		{[]string{"vm", "compile", "sum.dex"}, 0, []string{"sum.dex: 2 methods, 2 compiled, 0 fallbacks"}, nil, ""},
		{[]string{"vm", "compile", "sum.dex", "--dump=build", "--method=sum"}, 0,
			[]string{"func LSum;.sum:([I)I", "BoundsCheck <void>", "NullCheck <void>"}, []string{"two"}, "1 methods, 1 compiled"},
		{[]string{"vm", "compile", "sum.dex", "--dump=boundscheckelim", "--method=sum"}, 0,
			[]string{"AGet <int>"}, []string{"BoundsCheck"}, ""},
		{[]string{"vm", "compile", "sum.dex", "--dump=boundscheckelim", "--method=sum", "--disable=boundscheckelim"}, 2, nil, nil, "that pass is disabled"},
		{[]string{"vm", "compile", "--disable=boundscheckelim", "sum.dex", "--dump=deadcode2", "--method=sum"}, 0,
			[]string{"BoundsCheck"}, nil, ""},
		{[]string{"vm", "compile", "sum.dex", "--dump=constfold", "--method=two"}, 0,
			[]string{"v4 = Const <int> [5]"}, nil, ""},
		{[]string{"vm", "compile", "sum.dex", "--dump=deadcode", "--method=two", "--format=dot"}, 0,
			[]string{"digraph \"LSum;.two:()I\" {", "b0 -> b1;"}, nil, ""},
		{[]string{"vm", "compile", "sum.dex", "--dump=all", "--method=two"}, 0,
			[]string{"# after build", "# after copyprop", "# after deadcode2"}, nil, ""},
		{[]string{"vm", "compile", "sum.dex", "--dump=constfld"}, 2, nil, nil, "unknown pass (did you mean \"constfold\"?)"},
		{[]string{"vm", "compile", "sum.dex", "--method=nosuch"}, 1, nil, nil, "no method of sum.dex matches \"nosuch\""},
		{[]string{"vm", "compile", "sum.dex", "--barriers=none", "--method=sum"}, 0,
			[]string{"barriers (none): 2 in 1 compiled methods", "     2  LSum;.sum:([I)I"}, nil, ""},
		{[]string{"vm", "compile", "sum.dex", "--barriers=all", "--dump=barriers", "--method=sum"}, 0,
			[]string{"v19 = Barrier <void> v2 [1]", "v20 = Barrier <void> v2 [1]"}, nil, "barriers (all): 1 in 1 compiled methods"},
		{[]string{"vm", "compile", "sum.dex", "--barriers=elim", "--dump=barrierelim", "--method=sum"}, 0,
			[]string{"v19 = Barrier <void> v2\n"}, []string{"v20"}, "barriers (elim): 1 in 1 compiled methods"},
		{[]string{"vm", "compile", "sum.dex", "--barriers=fast"}, 2, nil, nil, `--barriers: barrier level "fast"`},
		{[]string{"vm", "compile"}, 2, nil, nil, "usage: droidprof vm compile"},
		{[]string{"vm", "compile", "--passes"}, 0, []string{"copyprop ", "boundscheckelim  delete bounds checks"}, nil, ""},
		{[]string{"vm", "compile", "missing.dex"}, 1, nil, nil, "missing.dex"},
	} {
		t.Run(strings.Join(tc.args[2:], " "), func(t *testing.T) {
			stdout, stderr, code := c.run(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tc.notStdout {
				if strings.Contains(stdout, s) {
					t.Errorf("stdout has %q:\n%s", s, stdout)
				}
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
		})
	}
}

// TestVMCompileOat checks the .oat cache from the command line: vm
// compile -o writes it and prints its summary; vm run --engine=aot --oat
// runs a workload from it with the output of a run without it; and a
// stale, corrupt, truncated or foreign cache, or one that is not an .oat
// file at all, stops the run with a message that names the file and how
// to remake it.
func TestVMCompileOat(t *testing.T) {
	c := newCLI(t)
	w, _ := workloads.Lookup("chess")
	app, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	c.write("app.dex", string(app))
	out := c.ok("vm", "compile", "app.dex", "-o", "app.oat")
	if !regexp.MustCompile(`app.dex: 25 methods, 25 compiled, 0 fallbacks to the interpreter; 1400 code units in .*\nwrote app.oat: [0-9]+ bytes, 25 methods compiled, 0 fallbacks, in `).MatchString(out) {
		t.Errorf("vm compile -o: summary:\n%s", out)
	}
	cache, err := os.ReadFile(filepath.Join(c.dir, "app.oat"))
	if err != nil {
		t.Fatal(err)
	}
	want := c.ok(append([]string{"vm", "run", "-cp", "app.dex", w.Main}, w.Args...)...)
	if got := c.ok(append([]string{"vm", "run", "--engine=aot", "--oat", "app.oat", "-cp", "app.dex", w.Main}, w.Args...)...); got != want {
		t.Errorf("from the cache:\n%s\ninterpreter:\n%s", got, want)
	}

	// another DEX file of the same name: the cache is stale
	other, err := workloads.Workload{Name: "deltablue", DEX: "deltablue.dex"}.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(c.dir, "new"), 0o755)
	c.write("new/app.dex", string(other))
	c.write("other.dex", string(other))
	flip := append([]byte(nil), cache...)
	flip[len(flip)/2] ^= 1
	c.write("flipped.oat", string(flip))
	c.write("half.oat", string(cache[:len(cache)/2]))
	c.write("text.oat", "not a cache\n")
	c.write("empty.oat", "")
	out = c.ok("vm", "compile", "app.dex", "--disable=cse", "-o", "nocse.oat")
	remake := "recompile with droidprof vm compile app.dex -o "
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"stale", []string{"--engine=aot", "--oat", "app.oat", "-cp", "new/app.dex"}, 1,
			[]string{"vm: app.oat: new/app.dex: stale .oat cache: compiled from app.dex with checksum", "; this DEX has checksum", "recompile with droidprof vm compile new/app.dex -o app.oat"}},
		{"not on the class path", []string{"--engine=aot", "--oat", "app.oat", "-cp", "other.dex"}, 1,
			[]string{"vm: app.oat: stale .oat cache: compiled from app.dex (checksum ", "), which is not on the class path; recompile with droidprof vm compile app.dex -o app.oat"}},
		{"corrupt", []string{"--engine=aot", "--oat", "flipped.oat", "-cp", "app.dex"}, 1,
			[]string{"vm: flipped.oat: corrupt .oat cache: offset 0x", ": checksum mismatch", remake + "flipped.oat"}},
		{"truncated", []string{"--engine=aot", "--oat", "half.oat", "-cp", "app.dex"}, 1,
			[]string{"vm: half.oat: corrupt .oat cache: offset 0x", "truncated: " + strconv.Itoa(len(cache)/2) + " of the " + strconv.Itoa(len(cache)) + " bytes", remake + "half.oat"}},
		{"wrong magic", []string{"--engine=aot", "--oat", "text.oat", "-cp", "app.dex"}, 1,
			[]string{"vm: text.oat: corrupt .oat cache: offset 0x0: not an .oat cache: the file starts with \"not a ca\"", remake + "text.oat"}},
		{"empty", []string{"--engine=aot", "--oat", "empty.oat", "-cp", "app.dex"}, 1,
			[]string{"vm: empty.oat: corrupt .oat cache: offset 0x0: truncated: 0 bytes"}},
		{"a DEX file", []string{"--engine=aot", "--oat", "app.dex", "-cp", "app.dex"}, 1,
			[]string{"not an .oat cache", "app.dex looks like a DEX file, not its .oat cache: make one with droidprof vm compile app.dex -o app.oat"}},
		{"another pipeline", []string{"--engine=aot", "--oat", "nocse.oat", "-cp", "app.dex"}, 1,
			[]string{"vm: nocse.oat: .oat cache of another compiler: written by \"oat 2; ir ", "passes copyprop,constfold,deadcode,", remake + "nocse.oat"}},
		{"missing", []string{"--engine=aot", "--oat", "none.oat", "-cp", "app.dex"}, 1,
			[]string{"none.oat: no such file", "make it with droidprof vm compile app.dex -o none.oat"}},
		{"interpreter", []string{"--oat", "app.oat", "-cp", "app.dex"}, 2,
			[]string{"--oat app.oat: only the aot engine uses an .oat cache; add --engine=aot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := c.run(append(append([]string{"vm", "run"}, tc.args...), w.Main)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if stdout != "" {
				t.Errorf("the program ran: stdout:\n%s", stdout)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}
	if _, stderr, code := c.run("vm", "compile", "app.dex", "-o", "app.dex"); code != 2 || !strings.Contains(stderr, "-o app.dex is the DEX file itself; name the .oat cache, e.g. -o app.oat") {
		t.Errorf("vm compile -o app.dex: exit %d, stderr:\n%s", code, stderr)
	}
}
