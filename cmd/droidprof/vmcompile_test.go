package main

import (
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
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
		{[]string{"vm", "compile", "sum.dex", "-o", "sum.oat"}, 2, nil, nil, "not implemented yet"},
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
