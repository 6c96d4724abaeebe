package frontend_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// assemble builds class LT; with the given methods (smali text).
func assemble(t testing.TB, methods string) *dex.File {
	t.Helper()
	src := ".class public LT;\n.super Ljava/lang/Object;\n.field public i:I\n.field public d:D\n.field public o:Ljava/lang/Object;\n" + methods
	c, err := smali.Parse("T.smali", []byte(src), &smali.Options{API: 28})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	data, err := smali.Assemble([]*ast.Class{c}, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatalf("assemble: %v", err)
	}
	f, err := dex.ReadWithOptions(data, dex.Options{SkipSignature: true})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// method returns the method called m of LT;.
func method(t testing.TB, f *dex.File) frontend.Method {
	t.Helper()
	d := f.ClassDefs[0].Data
	for _, em := range append(append([]dex.EncodedMethod(nil), d.DirectMethods...), d.VirtualMethods...) {
		if f.Str(f.Methods[em.Method].Name) == "m" {
			return frontend.Method{File: f, Method: em.Method, Access: em.Access, Code: em.Code}
		}
	}
	t.Fatal("no method m")
	return frontend.Method{}
}

func static(sig string, regs int, code string) string {
	return ".method public static m" + sig + "\n.registers " + itoa(regs) + "\n" + code + "\n.end method\n"
}

func virtual(sig string, regs int, code string) string {
	return ".method public m" + sig + "\n.registers " + itoa(regs) + "\n" + code + "\n.end method\n"
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func normalise(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "func ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestBuild checks the IR the front end builds for small methods: before
// any pass ("build") and after the whole pipeline ("opt").
func TestBuild(t *testing.T) {
	tests := []struct {
		name, src  string
		build, opt string // "" to skip
	}{
		{"loop", static("(I)I", 3, `
    const/4 v0, 0
    const/4 v1, 0
  :top
    if-ge v1, p0, :done
    add-int/2addr v0, v1
    add-int/lit8 v1, v1, 1
    goto :top
  :done
    return v0`),
			`
b0:
v2 = Param <int> [0]
Plain -> b1
b1: <- b0
v3 = Const <int> [0]
v4 = Const <int> [0]
Plain -> b2
b2: <- b1 b3
v5 = Phi <int> v4 v11
v8 = Phi <int> v3 v9
v7 = Ge <bool> v5 v2
If v7 -> b4 b3
b3: <- b2
v9 = Add <int> v8 v5
v10 = Const <int> [1]
v11 = Add <int> v5 v10
Plain -> b2
b4: <- b2
v12 = Copy <int> v8
Return v12`,
			`
b0:
v2 = Param <int> [0]
v3 = Const <int> [0]
Plain -> b2
b2: <- b0 b3
v5 = Phi <int> v3 v11
v8 = Phi <int> v3 v9
v7 = Ge <bool> v5 v2
If v7 -> b4 b3
b3: <- b2
v9 = Add <int> v8 v5
v10 = Const <int> [1]
v11 = Add <int> v5 v10
Plain -> b2
b4: <- b2
Return v8`},
		{"wide constants and parameters", static("(JD)D", 6, `
    const-wide v0, 1.5
    add-double/2addr v0, p2
    long-to-double v2, p0
    add-double/2addr v0, v2
    return-wide v0`),
			`
b0:
v2 = Param <long> [0]
v3 = Param <double> [1]
Plain -> b1
b1: <- b0
v4 = Const <double> [4609434218613702656]
v5 = Add <double> v4 v3
v6 = Conv <double> v2
v7 = Add <double> v5 v6
v8 = Copy <double> v7
Return v8`,
			`
b0:
v2 = Param <long> [0]
v3 = Param <double> [1]
v4 = Const <double> [4609434218613702656]
v5 = Add <double> v4 v3
v6 = Conv <double> v2
v7 = Add <double> v5 v6
Return v7`},
		{"zero as int and as null", static("()V", 1, `
    const/4 v0, 0
    invoke-static {v0}, LT;->f(I)V
    invoke-static {v0}, LT;->g(Ljava/lang/Object;)V
    return-void`),
			`
b0:
Plain -> b1
b1: <- b0
v2 = Const <int> [0]
v5 = Const <ref> [0]
v3 = InvokeStatic <void> v2
v4 = InvokeStatic <void> v5 [1]
Return`,
			`
b0:
v2 = Const <int> [0]
v5 = Const <ref> [0]
v3 = InvokeStatic <void> v2
v4 = InvokeStatic <void> v5 [1]
Return`},
		{"float constant", static("(F)F", 2, `
    const v0, 1.5f
    add-float/2addr v0, p0
    return v0`),
			`
b0:
v2 = Param <float> [0]
Plain -> b1
b1: <- b0
v3 = Const <float> [1069547520]
v4 = Add <float> v3 v2
v5 = Copy <float> v4
Return v5`,
			`
b0:
v2 = Param <float> [0]
v3 = Const <float> [1069547520]
v4 = Add <float> v3 v2
Return v4`},
		{"handler sees the register before the throwing write", static("(I)I", 3, `
    const/4 v0, 1
  :s
    div-int/2addr v0, p0
  :e
    return v0
    .catch Ljava/lang/ArithmeticException; {:s .. :e} :h
  :h
    move-exception v1
    return v0`),
			`
b0:
v2 = Param <int> [0]
Plain -> b1
b1: <- b0
v3 = Const <int> [1]
v4 = DivZeroCheck <void> v2
v5 = Div <int> v3 v2
Plain -> b4 catch b3
b2: <- b4
v8 = Copy <int> v5
Return v8
b3: <- b1
v6 = Exception <ref>
v7 = Copy <int> v3
Return v7
b4: <- b1
Plain -> b2`,
			`
b0:
v2 = Param <int> [0]
Plain -> b1
b1: <- b0
v3 = Const <int> [1]
v4 = DivZeroCheck <void> v2
v5 = Div <int> v3 v2
Plain -> b2 catch b3
b2: <- b1
Return v5
b3: <- b1
Return v3`},
		{"dead φ of an int and a reference", static("(I)V", 2, `
    if-eqz p0, :a
    const/4 v0, 1
    goto :b
  :a
    const-string v0, "x"
  :b
    return-void`),
			`
b0:
v2 = Param <int> [0]
Plain -> b1
b1: <- b0
v3 = Const <int> [0]
v4 = Eq <bool> v2 v3
If v4 -> b3 b2
b2: <- b1
v5 = Const <int> [1]
Plain -> b4
b3: <- b1
v6 = ConstString <ref> [10]
Plain -> b4
b4: <- b2 b3
Return`,
			`
b0:
v2 = Param <int> [0]
v3 = Const <int> [0]
v4 = Eq <bool> v2 v3
If v4 -> b3 b4
b3: <- b0
v6 = ConstString <ref> [10]
Plain -> b4
b4: <- b0 b3
Return`},
		{"φ of constants used as int and as float", static("(I)V", 2, `
    if-eqz p0, :a
    const/4 v0, 0
    goto :b
  :a
    const/4 v0, 1
  :b
    invoke-static {v0}, LT;->f(I)V
    invoke-static {v0}, LT;->g(F)V
    return-void`),
			`
b0:
v2 = Param <int> [0]
Plain -> b1
b1: <- b0
v3 = Const <int> [0]
v4 = Eq <bool> v2 v3
If v4 -> b3 b2
b2: <- b1
v5 = Const <int> [0]
v11 = Const <float> [0]
Plain -> b4
b3: <- b1
v6 = Const <int> [1]
v12 = Const <float> [1]
Plain -> b4
b4: <- b2 b3
v7 = Phi <int> v5 v6
v10 = Phi <float> v11 v12
v8 = InvokeStatic <void> v7
v9 = InvokeStatic <void> v10 [1]
Return`,
			`
b0:
v2 = Param <int> [0]
v3 = Const <int> [0]
v4 = Eq <bool> v2 v3
v6 = Const <int> [1]
v12 = Const <float> [1]
v11 = Const <float> [0]
v13 = Select <int> v4 v6 v3
v14 = Select <float> v4 v12 v11
v8 = InvokeStatic <void> v13
v9 = InvokeStatic <void> v14 [1]
Return`},
		{"aget typed by its use", static("([FI)F", 3, `
    aget v0, p0, p1
    add-float/2addr v0, v0
    return v0`),
			`
b0:
v2 = Param <ref> [0]
v3 = Param <int> [1]
Plain -> b1
b1: <- b0
v4 = NullCheck <void> v2
v5 = ArrayLength <int> v2
v6 = BoundsCheck <void> v3 v5
v7 = AGet <float> v2 v3
v8 = Add <float> v7 v7
v9 = Copy <float> v8
Return v9`,
			`
b0:
v2 = Param <ref> [0]
v3 = Param <int> [1]
v4 = NullCheck <void> v2
v5 = ArrayLength <int> v2
v6 = BoundsCheck <void> v3 v5
v7 = AGet <float> v2 v3
v8 = Add <float> v7 v7
Return v8`},
		// Found by vm/aot/difftest (seed 100329 of the first 10 000-program
		// run): a φ of two wide constants whose only use, aput-wide, does
		// not say long or double was defaulted to int, a type conflict.
		{"φ of wide constants stored by aput-wide", static("(I[J)V", 4, `
    if-eqz p0, :a
    const-wide/16 v0, 1
    goto :b
  :a
    const-wide/16 v0, 2
  :b
    aput-wide v0, p1, p0
    return-void`), `
b0:
v2 = Param <int> [0]
v3 = Param <ref> [1]
Plain -> b1
b1: <- b0
v4 = Const <int> [0]
v5 = Eq <bool> v2 v4
If v5 -> b3 b2
b2: <- b1
v6 = Const <long> [1]
Plain -> b4
b3: <- b1
v7 = Const <long> [2]
Plain -> b4
b4: <- b2 b3
v10 = Phi <long> v6 v7
v12 = NullCheck <void> v3
v13 = ArrayLength <int> v3
v14 = BoundsCheck <void> v2 v13
v15 = APut <void> v3 v2 v10 [1]
Return`, ""},
		{"null checks and bounds checks", virtual("([I)I", 6, `
    iget v0, p0, LT;->i:I
    const/4 v1, 0
  :top
    array-length v2, p1
    if-ge v1, v2, :done
    aget v3, p1, v1
    add-int/2addr v0, v3
    add-int/lit8 v1, v1, 1
    goto :top
  :done
    iput v0, p0, LT;->i:I
    return v0`),
			`
b0:
v2 = This <ref>
v3 = Param <ref> [1]
Plain -> b1
b1: <- b0
v4 = NullCheck <void> v2
v5 = IGet <int> v2 [1]
v6 = Const <int> [0]
Plain -> b2
b2: <- b1 b3
v10 = Phi <int> v6 v19
v16 = Phi <int> v5 v17
v8 = NullCheck <void> v3
v9 = ArrayLength <int> v3
v11 = Ge <bool> v10 v9
If v11 -> b4 b3
b3: <- b2
v12 = NullCheck <void> v3
v13 = ArrayLength <int> v3
v14 = BoundsCheck <void> v10 v13
v15 = AGet <int> v3 v10
v17 = Add <int> v16 v15
v18 = Const <int> [1]
v19 = Add <int> v10 v18
Plain -> b2
b4: <- b2
v21 = NullCheck <void> v2
v22 = IPut <void> v2 v16 [1]
v23 = Copy <int> v16
Return v23`,
			`
b0:
v2 = This <ref>
v3 = Param <ref> [1]
v5 = IGet <int> v2 [1]
v6 = Const <int> [0]
Plain -> b2
b2: <- b0 b3
v10 = Phi <int> v6 v19
v16 = Phi <int> v5 v17
v8 = NullCheck <void> v3
v9 = ArrayLength <int> v3
v11 = Ge <bool> v10 v9
If v11 -> b4 b3
b3: <- b2
v15 = AGet <int> v3 v10
v17 = Add <int> v16 v15
v18 = Const <int> [1]
v19 = Add <int> v10 v18
Plain -> b2
b4: <- b2
v22 = IPut <void> v2 v16 [1]
Return v16`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := assemble(t, tc.src)
			fn, err := frontend.Build(method(t, f))
			if err != nil {
				t.Fatal(err)
			}
			if tc.build == "" {
				t.Logf("build:\n%s", fn)
			}
			if tc.build != "" && normalise(fn.String()) != normalise(tc.build) {
				t.Errorf("build:\n%s\nwant:\n%s", fn, tc.build)
			}
			if err := ssa.Optimize(fn, ssa.Config{Check: true}); err != nil {
				t.Fatal(err)
			}
			if tc.opt == "" {
				t.Logf("opt:\n%s", fn)
			}
			if tc.opt != "" && normalise(fn.String()) != normalise(tc.opt) {
				t.Errorf("opt:\n%s\nwant:\n%s", fn, tc.opt)
			}
		})
	}
}

// TestBuildErrors checks that code the verifier would reject, or that
// the compiler does not handle, is an *Error naming the problem, never a
// panic.
func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name, src string
		patch     func(c *dex.Code)
		want      string
	}{
		{"unwritten register", static("()I", 1, "return v0"), nil, "at dex pc 0x0000: v0 is read before it is written"},
		{"move-result without invoke", static("()I", 1, "move-result v0\nreturn v0"), nil, "move-result not after an invoke or filled-new-array"},
		{"int and reference merged and used", static("(I)I", 2, `
    if-eqz p0, :a
    const/4 v0, 1
    goto :b
  :a
    const-string v0, "x"
  :b
    return v0`), nil, "type conflict"},
		{"broken pair", static("()J", 2, "const-wide v0, 1\nconst/4 v1, 0\nreturn-wide v0"), nil, "v0/v1 is not a wide register pair"},
		{"upper half read alone", static("()I", 2, "const-wide v0, 1\nreturn v1"), nil, "v1 is the upper half of a wide register pair"},
		{"move-exception outside a handler", static("()V", 1, "move-exception v0\nreturn-void"), nil, "is not the start of a handler"},
		{"falls off the end", static("()V", 1, "nop\nreturn-void"), func(c *dex.Code) { c.Insns[1] = 0 }, "execution falls off the end of the code"},
		{"register out of range", static("()V", 1, "const/4 v0, 0\nreturn-void"), func(c *dex.Code) { c.Insns[0] = 0x0512 }, "register v5 out of range"},
		{"branch into an instruction", static("()V", 1, "const/16 v0, 1\ngoto :a\n:a\nreturn-void"), func(c *dex.Code) { c.Insns[2] = 0xff28 }, "invalid branch target 1"},
		{"bad field index", virtual("()I", 2, "iget v0, p0, LT;->i:I\nreturn v0"), func(c *dex.Code) { c.Insns[1] = 0xfff0 }, "bad field index 65520"},
		{"invoke-custom", static("()V", 1, "invoke-static {}, LT;->f()V\nreturn-void"), func(c *dex.Code) { c.Insns[0] = 0x00fc }, "invoke-custom is not compiled"},
		{"unused opcode", static("()V", 1, "nop\nreturn-void"), func(c *dex.Code) { c.Insns[0] = 0x003e }, "invalid opcode 0x3e"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := assemble(t, tc.src)
			m := method(t, f)
			if tc.patch != nil {
				c := *m.Code
				c.Insns = append([]uint16(nil), c.Insns...)
				tc.patch(&c)
				m.Code = &c
			}
			_, err := frontend.Build(m)
			if err == nil {
				t.Fatalf("Build accepted it, want %q", tc.want)
			}
			var fe *frontend.Error
			if !errors.As(err, &fe) {
				t.Errorf("error %v is not a *frontend.Error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Build: %v, want %q", err, tc.want)
			}
		})
	}
}
