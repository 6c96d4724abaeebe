package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// runSmali assembles src (class LMain;) and runs Main on the named engine.
func runSmali(t *testing.T, eng, src string) (string, *engine.Engine) {
	t.Helper()
	return runSmaliGC(t, eng, src, gc.Config{})
}

// runSmaliGC is runSmali with a heap configuration.
func runSmaliGC(t *testing.T, eng, src string, c gc.Config) (string, *engine.Engine) {
	t.Helper()
	class, err := smali.Parse("Main.smali", []byte(src), &smali.Options{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{class}, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "t.dex")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v, err := vm.New(vm.Options{ClassPath: []string{p}, GC: c, Stdout: &out, Stderr: &out, Engine: eng})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.RunMain(ctx, "Main", nil); err != nil {
		t.Fatal(err)
	}
	e, _ := v.Engine.(*engine.Engine)
	return out.String(), e
}

const smaliHeader = `.class public LMain;
.super Ljava/lang/Object;
`

const printI = `
.method static p(I)V
    .registers 2
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v0, p0}, Ljava/io/PrintStream;->println(I)V
    return-void
.end method
`

const printObj = `
.method static ps(Ljava/lang/Object;)V
    .registers 2
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v0, p0}, Ljava/io/PrintStream;->println(Ljava/lang/Object;)V
    return-void
.end method
`

// TestSmaliSameOnBothEngines runs small programs for the parts of the
// lowering the workloads exercise little (exceptions caught with φs in
// the handler, implicit exceptions and their messages, switches, wide
// values, swapped φs) on both engines.
func TestSmaliSameOnBothEngines(t *testing.T) {
	tests := []struct{ name, main, extra string }{
		{"caught exception keeps the registers of the try", `
    const/4 v0, 1
    :try_start
    const/4 v0, 2
    const/4 v1, 0
    div-int v1, v0, v1
    const/4 v0, 3
    :try_end
    .catch Ljava/lang/ArithmeticException; {:try_start .. :try_end} :handler
    invoke-static {v0}, LMain;->p(I)V
    return-void
    :handler
    move-exception v1
    invoke-static {v0}, LMain;->p(I)V
    invoke-virtual {v1}, Ljava/lang/Throwable;->getMessage()Ljava/lang/String;
    move-result-object v1
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void`, ""},
		{"array loads reused and stores read back (loadelim), with the two arrays one array and not, and a byte store truncated", `
    const/4 v0, 2
    new-array v1, v0, [I
    const/4 v2, 1
    const/4 v3, 7
    aput v3, v1, v2
    invoke-static {v1, v1, v2}, LMain;->la([I[II)I
    move-result v4
    invoke-static {v4}, LMain;->p(I)V
    aput v3, v1, v2
    new-array v5, v0, [I
    invoke-static {v1, v5, v2}, LMain;->la([I[II)I
    move-result v4
    invoke-static {v4}, LMain;->p(I)V
    new-array v5, v0, [B
    const/16 v3, 300
    aput-byte v3, v5, v2
    aget-byte v4, v5, v2
    invoke-static {v4}, LMain;->p(I)V
    return-void`, `
.method static la([I[II)I
    .registers 6
    aget v0, p0, p2
    aget v1, p0, p2
    add-int v0, v0, v1
    aput v0, p0, p2
    const/16 v1, 100
    aput v1, p1, p2
    aget v2, p0, p2
    add-int v0, v0, v2
    aget v2, p1, p2
    add-int v0, v0, v2
    return v0
.end method
`},
		{"a division of two constants by zero inside a tree (uncaught)", `
    const/4 v0, 0
    const/4 v1, 7
    div-int v2, v1, v0
    and-int v2, v0, v2
    invoke-static {v2}, LMain;->p(I)V
    return-void`, ""},
		{"exception from a callee caught", `
    const/4 v0, 0
    :try_start
    invoke-static {}, LMain;->thrower()V
    :try_end
    .catch Ljava/lang/RuntimeException; {:try_start .. :try_end} :handler
    :after
    invoke-static {v0}, LMain;->p(I)V
    return-void
    :handler
    const/4 v0, 1
    goto :after`, `
.method static thrower()V
    .registers 1
    const/4 v0, -1
    new-array v0, v0, [I
    return-void
.end method
`},
		{"empty handler (emptyblocks redirects the exception edge)", `
    const/4 v0, 0
    :try_start
    invoke-static {}, LMain;->thrower()V
    const/4 v0, 2
    :try_end
    .catch Ljava/lang/RuntimeException; {:try_start .. :try_end} :handler
    :after
    invoke-static {v0}, LMain;->p(I)V
    return-void
    :handler
    goto :after`, `
.method static thrower()V
    .registers 1
    const/4 v0, -1
    new-array v0, v0, [I
    return-void
.end method
`},
		{"throw of a value made before the try is caught", `
    new-instance v0, Ljava/lang/Exception;
    invoke-direct {v0}, Ljava/lang/Exception;-><init>()V
    const/4 v1, 1
    :try_start
    const/4 v1, 2
    throw v0
    :try_end
    .catchall {:try_start .. :try_end} :handler
    :handler
    invoke-static {v1}, LMain;->p(I)V
    return-void`, ""},
		{"uncaught index out of bounds", `
    const/4 v0, 3
    new-array v0, v0, [I
    const/4 v1, 5
    aget v1, v0, v1
    return-void`, ""},
		{"null field read message", `
    const/4 v0, 0
    iget v0, v0, LMain;->f:I
    return-void`, ".field f:I\n"},
		{"packed and sparse switch", `
    const/4 v0, 0
    :loop
    const/4 v1, 5
    if-ge v0, v1, :done
    packed-switch v0, :pswitch
    const/16 v1, 99
    invoke-static {v1}, LMain;->p(I)V
    goto :next
    :p1
    const/16 v1, 11
    invoke-static {v1}, LMain;->p(I)V
    goto :next
    :p2
    const/16 v1, 22
    invoke-static {v1}, LMain;->p(I)V
    :next
    sparse-switch v0, :sswitch
    goto :inc
    :s4
    const/16 v1, 44
    invoke-static {v1}, LMain;->p(I)V
    :inc
    add-int/lit8 v0, v0, 1
    goto :loop
    :done
    return-void
    :pswitch
    .packed-switch 1
        :p1
        :p2
    .end packed-switch
    :sswitch
    .sparse-switch
        0x4 -> :s4
        0x100 -> :s4
    .end sparse-switch`, ""},
		{"swapped φs (a parallel copy)", `
    const/4 v0, 1
    const/4 v1, 2
    const/4 v2, 0
    :loop
    const/4 v3, 3
    if-ge v2, v3, :done
    move v3, v0
    move v0, v1
    move v1, v3
    add-int/lit8 v2, v2, 1
    goto :loop
    :done
    invoke-static {v0}, LMain;->p(I)V
    invoke-static {v1}, LMain;->p(I)V
    return-void`, ""},
		// vm/aot/difftest seed 100329: a φ of wide constants used only
		// by aput-wide fell back ("type conflict": defaulted to int).
		{"φ of wide constants stored by aput-wide", `
    const/4 v6, 2
    new-array v7, v6, [J
    const/4 v6, 1
    if-eqz v6, :a
    const-wide/16 v0, 5
    goto :b
    :a
    const-wide v0, 0x100000000L
    :b
    aput-wide v0, v7, v6
    aget-wide v2, v7, v6
    long-to-int v6, v2
    invoke-static {v6}, LMain;->p(I)V
    return-void`, ""},
		{"long and double arithmetic", `
    const-wide v0, 0x123456789abcdefL
    const-wide/16 v2, 7
    div-long v4, v0, v2
    rem-long v6, v0, v2
    xor-long v4, v4, v6
    const/4 v6, 3
    shl-long v4, v4, v6
    long-to-int v6, v4
    invoke-static {v6}, LMain;->p(I)V
    long-to-double v4, v4
    const-wide v0, 0x400921fb54442d18L
    mul-double v4, v4, v0
    double-to-int v6, v4
    invoke-static {v6}, LMain;->p(I)V
    cmpl-double v6, v4, v0
    invoke-static {v6}, LMain;->p(I)V
    return-void`, ""},
		// expression trees (expr.go): loads inside a tree throw in block
		// order, and a load never moves past an effect (uncaught: a try
		// range ends a block at each load)
		{"tree of two failing loads throws the first", `
    const/4 v0, 3
    new-array v0, v0, [I
    const/4 v1, 0
    const/4 v5, 5
    aget v2, v0, v5
    aget v3, v1, v5
    add-int v4, v2, v3
    invoke-static {v4}, LMain;->p(I)V
    return-void`, ""},
		{"operands in the other order than the loads", `
    const/4 v0, 3
    new-array v0, v0, [I
    const/4 v1, 0
    const/4 v5, 5
    aget v2, v0, v5
    aget v3, v1, v5
    sub-int v4, v3, v2
    invoke-static {v4}, LMain;->p(I)V
    return-void`, ""},
		{"load before a store keeps the old element", `
    const/4 v0, 3
    new-array v0, v0, [I
    const/4 v1, 1
    const/4 v5, 7
    aput v5, v0, v1
    aget v2, v0, v1
    const/16 v3, 40
    aput v3, v0, v1
    add-int/lit8 v4, v2, 1
    invoke-static {v4}, LMain;->p(I)V
    aget v2, v0, v1
    invoke-static {v2}, LMain;->p(I)V
    return-void`, ""},
		{"failing load in a branch condition and in a double tree", `
    const/4 v0, 2
    new-array v1, v0, [D
    const-wide/high16 v2, 0x4000000000000000L
    const/4 v0, 1
    aput-wide v2, v1, v0
    aget-wide v2, v1, v0
    const/4 v0, 0
    aget-wide v4, v1, v0
    add-double v2, v2, v4
    mul-double/2addr v2, v2
    double-to-int v0, v2
    invoke-static {v0}, LMain;->p(I)V
    new-array v1, v0, [I
    const/16 v0, 9
    aget v0, v1, v0
    if-eqz v0, :zero
    :zero
    return-void`, ""},
		{"a throw inside a loop run by its header (cblock.loop) reaches the caller's handler", `
    const/4 v0, 0
    :try_start
    invoke-static {}, LMain;->overrun()I
    move-result v0
    :try_end
    .catch Ljava/lang/ArrayIndexOutOfBoundsException; {:try_start .. :try_end} :handler
    invoke-static {v0}, LMain;->p(I)V
    return-void
    :handler
    move-exception v1
    invoke-static {v1}, LMain;->ps(Ljava/lang/Object;)V
    invoke-static {v0}, LMain;->p(I)V
    return-void`, printObj + `
.method static overrun()I
    .registers 5
    const/4 v0, 4
    new-array v1, v0, [I
    const/4 v2, 0
    const/4 v3, 0
    :loop
    const/16 v4, 10
    if-ge v2, v4, :done
    aget v4, v1, v2
    add-int/2addr v3, v4
    add-int/lit8 v2, v2, 1
    goto :loop
    :done
    return v3
.end method
`},
		{"a load made before a branch that chooses it (a Select) throws when not chosen", `
    const/4 v0, 1
    :try_start
    invoke-static {v0}, LMain;->pick(I)I
    move-result v0
    invoke-static {v0}, LMain;->p(I)V
    const/4 v0, -1
    invoke-static {v0}, LMain;->pick(I)I
    move-result v0
    invoke-static {v0}, LMain;->p(I)V
    :try_end
    .catch Ljava/lang/ArrayIndexOutOfBoundsException; {:try_start .. :try_end} :handler
    return-void
    :handler
    move-exception v1
    invoke-static {v1}, LMain;->ps(Ljava/lang/Object;)V
    return-void`, printObj + `
.method static pick(I)I
    .registers 4
    const/4 v0, 2
    new-array v1, v0, [I
    aget v2, v1, p0
    if-gez p0, :skip
    const/4 v2, 7
    :skip
    return v2
.end method
`},
		{"booleans of && and || and ?: over ints, longs and doubles (ifconv's Selects)", `
    const/4 v0, -3
    :loop
    const/4 v1, 4
    if-gt v0, v1, :done
    invoke-static {v0}, LMain;->logic(I)I
    move-result v1
    invoke-static {v1}, LMain;->p(I)V
    add-int/lit8 v0, v0, 1
    goto :loop
    :done
    return-void`, `
.method static logic(I)I
    .registers 12
    # a = p0 > 0 && p0 != 3
    const/4 v0, 0
    if-lez p0, :a0
    const/4 v1, 3
    if-eq p0, v1, :a0
    const/4 v0, 1
    :a0
    # b = p0 < -1 || p0 == 2
    const/4 v1, 1
    const/4 v2, -1
    if-lt p0, v2, :b1
    const/4 v2, 2
    if-eq p0, v2, :b1
    const/4 v1, 0
    :b1
    # l = a ? p0 * 1000000007L : -p0
    int-to-long v2, p0
    if-eqz v0, :l0
    const-wide v4, 1000000007L
    mul-long/2addr v2, v4
    goto :l1
    :l0
    neg-long v2, v2
    :l1
    # d = b ? 0.5 : p0 / 4.0
    const-wide/high16 v4, 0x3fe0000000000000L
    if-nez v1, :d1
    int-to-double v4, p0
    const-wide/high16 v6, 0x4010000000000000L
    div-double/2addr v4, v6
    :d1
    # r = (a ^ b) + l + (int)(d * 8) + (p0 % 3 == 0 ? 100 : 200)
    xor-int v8, v0, v1
    long-to-int v9, v2
    add-int/2addr v8, v9
    const-wide/high16 v6, 0x4020000000000000L
    mul-double/2addr v4, v6
    double-to-int v9, v4
    add-int/2addr v8, v9
    rem-int/lit8 v9, p0, 3
    const/16 v10, 100
    if-eqz v9, :r1
    const/16 v10, 200
    :r1
    add-int/2addr v8, v10
    return v8
.end method
`},
		{"a loop whose body is one block after if-conversion, its counter stepped by the loop", `
    const/4 v0, 0
    const/4 v1, 0
    const/16 v2, 100
    :loop
    if-ge v0, v2, :done
    and-int/lit8 v3, v0, 3
    if-nez v3, :odd
    add-int/lit8 v1, v1, 5
    goto :next
    :odd
    add-int/lit8 v1, v1, -1
    :next
    add-int/2addr v0, v3
    add-int/lit8 v0, v0, 1
    goto :loop
    :done
    invoke-static {v1}, LMain;->p(I)V
    invoke-static {v0}, LMain;->p(I)V
    return-void`, ""},
		{"a sum's slot shared with its next value is not overwritten before another Select's comparison reads it", `
    const/4 v0, 0
    const/4 v1, 0
    const/4 v3, 0
    const/16 v2, 10
    const/4 v4, 5
    :loop
    if-ge v0, v2, :done
    if-ge v1, v4, :big
    add-int/lit8 v1, v1, 1
    add-int/lit8 v3, v3, 1
    goto :join
    :big
    add-int/lit8 v1, v1, 100
    add-int/lit8 v3, v3, 2
    :join
    add-int/lit8 v0, v0, 1
    goto :loop
    :done
    invoke-static {v1}, LMain;->p(I)V
    invoke-static {v3}, LMain;->p(I)V
    return-void`, ""},
		{"array stores of trees: the store's check after the value's loads", `
    const/4 v0, 1
    invoke-static {v0, v0}, LMain;->st(II)V
    const/16 v1, 9
    :try_start
    invoke-static {v1, v0}, LMain;->st(II)V
    :try_end
    .catch Ljava/lang/RuntimeException; {:try_start .. :try_end} :h1
    :h1
    move-exception v2
    invoke-static {v2}, LMain;->ps(Ljava/lang/Object;)V
    const/16 v3, 8
    :try_start2
    invoke-static {v3, v1}, LMain;->st(II)V
    :try_end2
    .catch Ljava/lang/RuntimeException; {:try_start2 .. :try_end2} :h2
    :h2
    move-exception v2
    invoke-static {v2}, LMain;->ps(Ljava/lang/Object;)V
    return-void`, printObj + `
.method static st(II)V
    .registers 8
    const/4 v0, 3
    new-array v0, v0, [D
    const/4 v1, 0
    const-wide/high16 v2, 0x3ff0000000000000L
    aput-wide v2, v0, v1
    aget-wide v2, v0, v1
    aget-wide v4, v0, p1
    mul-double/2addr v2, v4
    aget-wide v4, v0, v1
    add-double/2addr v2, v4
    aput-wide v2, v0, p0
    aget-wide v2, v0, p0
    double-to-int v1, v2
    invoke-static {v1}, LMain;->p(I)V
    return-void
.end method
`},
		{"a load at i-1 in a tree (the index offset of an element operand)", `
    const/4 v0, 3
    new-array v0, v0, [I
    const/4 v1, 1
    const/4 v3, 0
    :loop
    const/4 v4, 3
    if-ge v1, v4, :done
    add-int/lit8 v4, v1, -1
    aget v4, v0, v4
    add-int/lit8 v2, v1, 1
    aget v2, v0, v2
    add-int/2addr v4, v2
    add-int/2addr v3, v4
    add-int/lit8 v1, v1, 1
    goto :loop
    :done
    invoke-static {v3}, LMain;->p(I)V
    return-void`, ""},
		{"narrow elements in trees: sign and zero extension, a failing char load", `
    const/4 v0, 2
    new-array v1, v0, [B
    const/4 v2, -3
    const/4 v3, 1
    aput-byte v2, v1, v3
    aget-byte v4, v1, v3
    add-int/lit8 v4, v4, 1
    invoke-static {v4}, LMain;->p(I)V
    new-array v5, v0, [C
    const v2, 0xfffe
    int-to-char v2, v2
    aput-char v2, v5, v3
    aget-char v4, v5, v3
    add-int/lit8 v4, v4, 1
    invoke-static {v4}, LMain;->p(I)V
    aget-char v4, v5, v0
    if-eqz v4, :z
    :z
    return-void`, ""},
		{"a virtual call site that sees receivers of two classes", `
    const/4 v0, 0
    :loop
    const/4 v1, 4
    if-ge v0, v1, :done
    and-int/lit8 v1, v0, 1
    if-eqz v1, :str
    invoke-static {v0}, Ljava/lang/Integer;->valueOf(I)Ljava/lang/Integer;
    move-result-object v2
    goto :call
    :str
    const-string v2, "s"
    :call
    invoke-virtual {v2}, Ljava/lang/Object;->toString()Ljava/lang/String;
    move-result-object v2
    invoke-static {v2}, LMain;->ps(Ljava/lang/Object;)V
    invoke-virtual {v2}, Ljava/lang/Object;->hashCode()I
    move-result v2
    invoke-static {v2}, LMain;->p(I)V
    add-int/lit8 v0, v0, 1
    goto :loop
    :done
    return-void`, printObj},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := smaliHeader + tc.extra + printI + `
.method public static main([Ljava/lang/String;)V
    .registers 8
` + tc.main + `
.end method
`
			want, _ := runSmali(t, "interp", src)
			t.Logf("output:\n%s", want)
			got, e := runSmali(t, "aot", src)
			if got != want {
				t.Errorf("aot:\n%s\ninterp:\n%s", got, want)
			}
			if s := e.Stats(); s.Compiled < 1 || s.NumFallbacks() != 0 {
				t.Errorf("compiled %d, fallbacks %v", s.Compiled, s.Fallbacks)
			}
		})
	}
}

// TestFallbackCounted: a method the lowering does not handle runs on the
// interpreter, with its reason counted.
func TestFallbackCounted(t *testing.T) {
	src := smaliHeader + printI + `
.method static g(I)V
    .registers 2
    if-eqz p0, :skip
    const-method-type v0, ()V
    :skip
    invoke-static {p0}, LMain;->p(I)V
    return-void
.end method

.method public static main([Ljava/lang/String;)V
    .registers 2
    const/4 v0, 0
    invoke-static {v0}, LMain;->g(I)V
    return-void
.end method
`
	out, e := runSmali(t, "aot", src)
	if out != "0\n" {
		t.Errorf("output %q, want 0", out)
	}
	s := e.Stats()
	if s.NumFallbacks() != 1 || !strings.Contains(s.Fallbacks[0].Reason, "ConstMethodType") {
		t.Errorf("fallbacks %v, want one for ConstMethodType", s.Fallbacks)
	}
	if s.Compiled < 2 {
		t.Errorf("compiled %d methods, want main and p at least", s.Compiled)
	}
}

// TestDeadReferenceCollected: a compiled frame must not keep an array its
// code dropped alive: with a 24 MiB heap, two 14 MiB arrays in turn fit
// only if the first is collectable when the second is allocated.
func TestDeadReferenceCollected(t *testing.T) {
	tests := []struct{ name, body, extra string }{
		{"a dropped local", `
    const v0, 14680064
    new-array v0, v0, [B
    sput-object v0, LMain;->s:Ljava/lang/Object;
    const/4 v0, 0
    sput-object v0, LMain;->s:Ljava/lang/Object;`, ""},
		// the call clears its ignored result itself (invoke's afterCall)
		{"an ignored call result", `
    invoke-static {}, LMain;->big()Ljava/lang/Object;`, `
.method static big()Ljava/lang/Object;
    .registers 1
    const v0, 14680064
    new-array v0, v0, [B
    return-object v0
.end method
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := smaliHeader + printI + tc.extra + `
.field static s:Ljava/lang/Object;

.method public static main([Ljava/lang/String;)V
    .registers 3
    const/4 v1, 0
    :loop
    const/4 v2, 3
    if-ge v1, v2, :done` + tc.body + `
    add-int/lit8 v1, v1, 1
    goto :loop
    :done
    invoke-static {v1}, LMain;->p(I)V
    return-void
.end method
`
			c := gc.Config{Max: 24 << 20}
			want, _ := runSmaliGC(t, "interp", src, c)
			if want != "3\n" {
				t.Fatalf("the interpreter printed %q, want 3 (the heap is too small for the test)", want)
			}
			if got, _ := runSmaliGC(t, "aot", src, c); got != want {
				t.Errorf("aot printed %q, want %q", got, want)
			}
		})
	}
}
