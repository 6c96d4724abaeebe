package smali

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali/ast"
)

// method wraps body lines (starting on line 5) into a class with a static
// method m(IJLjava/lang/Object;)V of 20 registers.
func method(body ...string) string {
	return ".class public LFoo;\n.super Ljava/lang/Object;\n.method public static m(IJLjava/lang/Object;)V\n    .registers 20\n" +
		strings.Join(body, "\n") + "\n    return-void\n.end method\n"
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"bad register", method(`    move-wide v0, x1`),
			[]string{`Foo.smali:5:19: expected register, found "x1"`}},
		{"missing operand", method(`    add-int v0, v1`),
			[]string{`Foo.smali:5:5: add-int takes 3 operands (register (v0-v255), register (v0-v255), register (v0-v255)), found 2`}},
		{"missing comma", method(`    move v0 v1`),
			[]string{`Foo.smali:5:13: expected "," and register (v0-v15), found "v1"`}},
		{"register too large", method(`    move/from16 v0, v70000`),
			[]string{`Foo.smali:5:21: invalid register v70000: must be between v0 and v65535`}},
		{"parameter register too large", method(`    move v0, p0`),
			[]string{`Foo.smali:5:14: invalid register p0 (v16 in this method): must be between v0 and v15`}},
		{"nibble literal", method(`    const/4 v0, 8`),
			[]string{`Foo.smali:5:17: literal 8 does not fit in a 4-bit literal (-8 to 7)`}},
		{"long literal quirk", method(`    const v0, 5L`),
			[]string{`Foo.smali:5:15: 5L: long literal does not fit in an int (smali 2.5.2 takes only long literals from -2147483648L to -1L here; write it without L)`}},
		{"high16", method(`    const/high16 v0, 0x10001`),
			[]string{`Foo.smali:5:22: literal 65537 (0x10001) does not have its low 16 bits zero, as const/high16 needs`}},
		{"int overflow", method(`    const v0, 4294967296`),
			[]string{`Foo.smali:5:15: 4294967296 does not fit in an int`}},
		{"undefined label", method(`    goto :nowhere`),
			[]string{`Foo.smali:5:10: label :nowhere is not defined in this method`}},
		{"duplicate label", method(`    :a`, `    :a`),
			[]string{`Foo.smali:6:5: duplicate label :a (already defined at Foo.smali:5:5)`}},
		{"register list", method(`    invoke-static {v0, v1, v2, v3, v4, v5}, LFoo;->m()V`),
			[]string{`Foo.smali:5:19: a register list can hold at most 5 registers; use invoke-static/range`}},
		{"range order", method(`    invoke-static/range {v5 .. v4}, LFoo;->m()V`),
			[]string{`Foo.smali:5:25: a register range must list the lower register first`}},
		{"odex", method(`    return-void-barrier`),
			[]string{`Foo.smali:5:5: return-void-barrier is an odex instruction; smali cannot assemble it (deodex the file first)`}},
		{"api level", method(`    const-method-type v0, (I)V`),
			[]string{`Foo.smali:5:5: const-method-type needs API level 28 or higher (-a 28)`}},
		{"void type", method(`    const-class v0, V`),
			[]string{`Foo.smali:5:21: expected type descriptor, found "V"`}},
		{"old .parameter", method(`    .parameter "x"`),
			[]string{`Foo.smali:5:5: expected an instruction, label or directive, found ".parameter" (invalid directive)`}},
		{"wide parameter half", method(`    .param p2, "x"`),
			[]string{`Foo.smali:5:12: register p2 is the second half of a wide parameter`}},
		{"bad escape", method(`    const-string v0, "\a"`),
			[]string{`Foo.smali:5:22: expected string literal, found "\"\\a\"" (invalid escape sequence \a)`}},
		{"array width", method(`    :a`, `    .array-data 3`, `    .end array-data`),
			[]string{`Foo.smali:6:5: invalid element width 3: must be 1, 2, 4 or 8`}},
		{"two .registers", method(`    .locals 3`),
			[]string{`Foo.smali:5:5: there can only be a single .registers or .locals directive in a method`}},
		{"no super", ".class public LFoo;\n",
			[]string{`Foo.smali:1:1: the file must contain a .super directive (only java.lang.Object has no superclass)`}},
		{"no class", ".super Ljava/lang/Object;\n",
			[]string{`Foo.smali:2:1: the file must contain a .class directive`}},
		{"instance field value", ".class public LFoo;\n.super Ljava/lang/Object;\n.field public x:I = 5\n",
			[]string{`Foo.smali:3:1: initial field values can only be specified for static fields`}},
		{"hidden api before 29", ".class public LFoo;\n.super Ljava/lang/Object;\n.field whitelist x:I\n",
			[]string{`Foo.smali:3:8: hidden API restrictions are only supported on API 29 and above (-a 29)`}},
		{"missing .end method", ".class public LFoo;\n.super Ljava/lang/Object;\n.method public m()V\n.registers 1\nreturn-void\n",
			[]string{`Foo.smali:6:1: missing .end method for the method at Foo.smali:3:1`}},
		{"too few registers", ".class public LFoo;\n.super Ljava/lang/Object;\n.method public m(J)V\n.registers 2\nreturn-void\n.end method\n",
			[]string{`Foo.smali:4:1: this method needs at least 3 registers for its parameters`}},
		{"duplicate annotation", ".class public LFoo;\n.super Ljava/lang/Object;\n.annotation runtime LA;\n.end annotation\n.annotation runtime LA;\n.end annotation\n",
			[]string{`Foo.smali:5:1: multiple annotations of type LA;`}},
		{"several errors", method(`    move v0 v1`, `    const/4 v0, 8`, `    nop extra`, `    goto :x`),
			[]string{
				`Foo.smali:5:13: expected "," and register (v0-v15), found "v1"`,
				`Foo.smali:7:9: expected an instruction, label or directive, found "extra"`,
				// The checker skips undefined labels in a method with
				// syntax errors, but still checks literals.
				`Foo.smali:6:17: literal 8 does not fit in a 4-bit literal (-8 to 7)`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("Foo.smali", []byte(tt.src), &Options{API: 27})
			var got []string
			if err != nil {
				for _, e := range err.(ErrorList) {
					got = append(got, e.Error())
				}
			}
			// Syntax errors come before semantic ones for the same file
			// only when sorted; compare as sets in position order.
			if strings.Join(sortedCopy(got), "\n") != strings.Join(sortedCopy(tt.want), "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

func TestParseTree(t *testing.T) {
	src := `.class public final LFoo;
.super Ljava/lang/Object;
.source "Foo.java"
.implements Ljava/lang/Runnable;

.field private static count:I = 0x10

.method public run()V
    .registers 3
    .param p0, "unused"
    :loop
    sget v0, LFoo;->count:I
    add-int/lit8 v0, v0, -1
    sput v0, count:I
    invoke-static {v0, v1}, LFoo;->log(IJ)V
    if-gtz v0, :loop
    return-void
.end method
`
	if _, err := Parse("Foo.smali", []byte(src), nil); err == nil {
		t.Fatal(".param p0 of an instance method is `this`, which smali rejects")
	}
	src = strings.Replace(src, `    .param p0, "unused"`+"\n", "", 1)
	c, err := Parse("Foo.smali", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	pos := func(line, col int) ast.Pos { return ast.Pos{File: "Foo.smali", Line: line, Col: col} }
	want := &ast.Class{
		Pos:        pos(1, 1),
		Modifiers:  []*ast.Modifier{{Pos: pos(1, 8), Name: "public"}, {Pos: pos(1, 15), Name: "final"}},
		Name:       "LFoo;",
		Super:      &ast.TypeRef{Pos: pos(2, 8), Desc: "Ljava/lang/Object;"},
		Source:     &ast.Literal{Pos: pos(3, 9), Kind: ast.StringLit, Str: "Foo.java"},
		Implements: []*ast.TypeRef{{Pos: pos(4, 13), Desc: "Ljava/lang/Runnable;"}},
		Fields: []*ast.Field{{
			Pos:       pos(6, 1),
			Modifiers: []*ast.Modifier{{Pos: pos(6, 8), Name: "private"}, {Pos: pos(6, 16), Name: "static"}},
			Name:      "count",
			Type:      &ast.TypeRef{Pos: pos(6, 29), Desc: "I"},
			Initial:   &ast.Literal{Pos: pos(6, 33), Kind: ast.IntLit, Int: 16},
		}},
		Methods: []*ast.Method{{
			Pos:       pos(8, 1),
			Modifiers: []*ast.Modifier{{Pos: pos(8, 9), Name: "public"}},
			Name:      "run",
			Proto:     &ast.Proto{Pos: pos(8, 19), Params: []string{}, Return: "V"},
			Registers: &ast.Registers{Pos: pos(9, 5), Count: 3},
			Body: []ast.Stmt{
				&ast.Label{Pos: pos(10, 5), Name: "loop"},
				&ast.Instruction{Pos: pos(11, 5), Name: "sget", Args: []ast.Operand{
					&ast.Register{Pos: pos(11, 10), Num: 0},
					&ast.FieldRef{Pos: pos(11, 14), Class: "LFoo;", Name: "count", Type: "I"}}},
				&ast.Instruction{Pos: pos(12, 5), Name: "add-int/lit8", Args: []ast.Operand{
					&ast.Register{Pos: pos(12, 18), Num: 0},
					&ast.Register{Pos: pos(12, 22), Num: 0},
					&ast.Literal{Pos: pos(12, 26), Kind: ast.IntLit, Int: -1}}},
				&ast.Instruction{Pos: pos(13, 5), Name: "sput", Args: []ast.Operand{
					&ast.Register{Pos: pos(13, 10), Num: 0},
					&ast.FieldRef{Pos: pos(13, 14), Name: "count", Type: "I"}}},
				&ast.Instruction{Pos: pos(14, 5), Name: "invoke-static", Args: []ast.Operand{
					&ast.RegisterList{Pos: pos(14, 19), Regs: []*ast.Register{{Pos: pos(14, 20), Num: 0}, {Pos: pos(14, 24), Num: 1}}},
					&ast.MethodRef{Pos: pos(14, 29), Class: "LFoo;", Name: "log",
						Proto: &ast.Proto{Pos: pos(14, 39), Params: []string{"I", "J"}, Return: "V"}}}},
				&ast.Instruction{Pos: pos(15, 5), Name: "if-gtz", Args: []ast.Operand{
					&ast.Register{Pos: pos(15, 12), Num: 0},
					&ast.LabelRef{Pos: pos(15, 16), Name: "loop"}}},
				&ast.Instruction{Pos: pos(16, 5), Name: "return-void"},
			},
		}},
	}
	if !sameTree(c, want) {
		t.Fatalf("tree differs:\ngot:\n%s\nwant:\n%s", Format(c), Format(want))
	}
	// sameTree ignores positions; check them too.
	got, _ := Parse("Foo.smali", []byte(src), nil)
	if !sameTreeWithPos(got, want) {
		t.Errorf("positions differ")
	}
}

func TestSameTreeDetectsDifferences(t *testing.T) {
	src := []byte(method(`    const/4 v0, 1`))
	a, _ := Parse("a", src, nil)
	b, _ := Parse("b", src, nil)
	if !sameTree(a, b) {
		t.Fatal("identical sources give different trees")
	}
	b.Methods[0].Body[0].(*ast.Instruction).Args[1].(*ast.Literal).Int = 2
	if sameTree(a, b) {
		t.Fatal("sameTree missed a changed literal")
	}
}

// TestTestdata parses, checks and round-trips our own smali files.
func TestTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.smali")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Parse(f, src, &Options{API: 28})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		roundTrip(t, f, c, 28)
	}
}

func TestParseFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Foo.smali")
	if err := os.WriteFile(path, []byte(method(`    nop`)), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ParseFile(path, nil)
	if err != nil || c.Name != "LFoo;" || c.Methods[0].Pos.File != path {
		t.Fatalf("ParseFile: %v, %+v", err, c)
	}
	if _, err := ParseFile(filepath.Join(t.TempDir(), "missing.smali"), nil); err == nil {
		t.Fatal("ParseFile of a missing file succeeded")
	}
}

func TestDeepValues(t *testing.T) {
	deep := strings.Repeat("{", 1000) + strings.Repeat("}", 1000)
	src := ".class public LFoo;\n.super Ljava/lang/Object;\n.field static x:[I = " + deep + "\n"
	_, err := Parse("Foo.smali", []byte(src), nil)
	if err == nil || !strings.Contains(err.Error(), "values nested more than 200 deep") {
		t.Fatalf("got %v", err)
	}
	ok := strings.Repeat("{", 100) + strings.Repeat("}", 100)
	src = ".class public LFoo;\n.super Ljava/lang/Object;\n.field static x:[I = " + ok + "\n"
	if _, err := Parse("Foo.smali", []byte(src), nil); err != nil {
		t.Fatal(err)
	}
}

// TestErrorLimit: a file of garbage stops at maxErrors errors.
func TestErrorLimit(t *testing.T) {
	src := method(strings.Repeat("    move v0 v1\n", 500))
	_, err := Parse("Foo.smali", []byte(src), nil)
	if n := len(err.(ErrorList)); n != maxErrors+1 {
		t.Fatalf("%d errors, want %d", n, maxErrors+1)
	}
}
