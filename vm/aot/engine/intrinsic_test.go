package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
)

// intrinsicCase is a static method body (registers v0–v5, p0 is the
// round) whose calls have intrinsics; it prints what they return or
// throw. Main runs it three times, so that its sites, resolved by the
// first call, use their intrinsics in the later ones.
type intrinsicCase struct {
	name, body string
	classes    []string // more classes
}

// str leaves in reg a new String (not the literal) of s's characters.
func str(reg, s string) string {
	return fmt.Sprintf(`
    new-instance %[1]s, Ljava/lang/StringBuilder;
    invoke-direct {%[1]s}, Ljava/lang/StringBuilder;-><init>()V
    const-string v5, %[2]q
    invoke-virtual {%[1]s, v5}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {%[1]s}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object %[1]s
`, reg, s)
}

// call prints the int result of invoke.
func call(invoke string) string {
	return "    " + invoke + "\n    move-result v4\n    invoke-static {v4}, LMain;->p(I)V\n"
}

// caught wraps code in a try printing the exception it throws.
func caught(label, code string) string {
	return fmt.Sprintf(`
    :%[1]s_start
%[2]s
    :%[1]s_end
    goto :%[1]s_done
    .catchall {:%[1]s_start .. :%[1]s_end} :%[1]s_handler
    :%[1]s_handler
    move-exception v4
    invoke-static {v4}, LMain;->ps(Ljava/lang/Object;)V
    :%[1]s_done
`, label, code)
}

var intrinsicCases = []intrinsicCase{
	{name: "length", body: `
    const-string v0, "abc"
` + call("invoke-virtual {v0}, Ljava/lang/String;->length()I") + `
    const-string v0, ""
` + call("invoke-virtual {v0}, Ljava/lang/String;->length()I") +
		call("invoke-virtual {v0}, Ljava/lang/String;->isEmpty()Z") + str("v0", "x\u00e9") +
		call("invoke-virtual {v0}, Ljava/lang/String;->length()I") +
		call("invoke-virtual {v0}, Ljava/lang/String;->isEmpty()Z") + `
    const/4 v0, 0
` + caught("npe", call("invoke-virtual {v0}, Ljava/lang/String;->length()I"))},
	{name: "charAt", body: str("v0", "a\u00e9\uffff") + `
    const/4 v1, 0
` + call("invoke-virtual {v0, v1}, Ljava/lang/String;->charAt(I)C") + `
    const/4 v1, 2
` + call("invoke-virtual {v0, v1}, Ljava/lang/String;->charAt(I)C") + `
    add-int/lit8 v1, p0, -1
` + caught("low", call("invoke-virtual {v0, v1}, Ljava/lang/String;->charAt(I)C")) + `
    move v1, p0
` + caught("high", call("invoke-virtual {v0, v1}, Ljava/lang/String;->charAt(I)C")) + `
    const/4 v0, 0
` + caught("npe", call("invoke-virtual {v0, v1}, Ljava/lang/String;->charAt(I)C"))},
	{name: "equals", body: str("v0", "beta") + str("v1", "beta") +
		call("invoke-virtual {v0, v1}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z") +
		call("invoke-virtual {v0, v0}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z") + `
    const-string v1, "betb"
` + call("invoke-virtual {v0, v1}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z") + `
    const-string v1, "bet"
` + call("invoke-virtual {v0, v1}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z") + `
    const/4 v1, 0
` + call("invoke-virtual {v0, v1}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z") + `
    const/4 v2, 4
    new-instance v1, Ljava/lang/StringBuilder;
    invoke-direct {v1, v2}, Ljava/lang/StringBuilder;-><init>(I)V
    const-string v2, "beta"
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
` + call("invoke-virtual {v0, v1}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z") + `
    const/4 v0, 0
` + caught("npe", call("invoke-virtual {v0, v1}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z"))},
	{name: "compareTo", body: str("v0", "gamma") + str("v1", "gamma") +
		call("invoke-virtual {v0, v1}, Ljava/lang/String;->compareTo(Ljava/lang/String;)I") + `
    const-string v1, "gam"
` + call("invoke-virtual {v0, v1}, Ljava/lang/String;->compareTo(Ljava/lang/String;)I") +
		call("invoke-virtual {v1, v0}, Ljava/lang/String;->compareTo(Ljava/lang/String;)I") + `
    const-string v1, "gb"
` + call("invoke-virtual {v0, v1}, Ljava/lang/String;->compareTo(Ljava/lang/String;)I") + str("v1", "g\uffff") +
		call("invoke-virtual {v0, v1}, Ljava/lang/String;->compareTo(Ljava/lang/String;)I") +
		call("invoke-virtual {v1, v0}, Ljava/lang/String;->compareTo(Ljava/lang/String;)I") + `
    const-string v1, ""
` + call("invoke-virtual {v1, v1}, Ljava/lang/String;->compareTo(Ljava/lang/String;)I") + `
    const/4 v1, 0
` + caught("arg", call("invoke-virtual {v0, v1}, Ljava/lang/String;->compareTo(Ljava/lang/String;)I"))},
	{name: "append", body: `
    const/4 v0, 3
    new-instance v1, Ljava/lang/StringBuilder;
    invoke-direct {v1, v0}, Ljava/lang/StringBuilder;-><init>(I)V
    const/16 v2, 0x61
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(C)Ljava/lang/StringBuilder;
    move-result-object v3
    if-ne v3, v1, :other
    const v2, 0xffff
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(C)Ljava/lang/StringBuilder;
    const-string v2, "b"
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    move-result-object v3
    if-ne v3, v1, :other
    const-string v2, "cd"
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    const/16 v2, 0x7a
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(C)Ljava/lang/StringBuilder;
    const/4 v2, 0
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    const-string v2, ""
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-virtual {v1}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;
    invoke-static {v1}, LMain;->ps(Ljava/lang/Object;)V
    invoke-virtual {v1}, Ljava/lang/StringBuilder;->length()I
    move-result v4
    invoke-static {v4}, LMain;->p(I)V
    invoke-virtual {v1}, Ljava/lang/StringBuilder;->capacity()I
    move-result v4
    invoke-static {v4}, LMain;->p(I)V
    const/4 v1, 0
    const/16 v2, 0x78
` + caught("npe", `
    invoke-virtual {v1, v2}, Ljava/lang/StringBuilder;->append(C)Ljava/lang/StringBuilder;
`) + `
    return-void
    :other
    const/4 v4, -1
    invoke-static {v4}, LMain;->p(I)V
`},
	{name: "random", body: `
    new-instance v0, Ljava/util/Random;
    const-wide/16 v1, 42
    invoke-direct {v0, v1, v2}, Ljava/util/Random;-><init>(J)V
` + call("invoke-virtual {v0}, Ljava/util/Random;->nextInt()I") + `
    const/16 v1, 100
` + call("invoke-virtual {v0, v1}, Ljava/util/Random;->nextInt(I)I") +
		call("invoke-virtual {v0}, Ljava/util/Random;->nextBoolean()Z") + `
    invoke-virtual {v0}, Ljava/util/Random;->nextLong()J
    move-result-wide v1
    long-to-int v4, v1
    invoke-static {v4}, LMain;->p(I)V
    invoke-virtual {v0}, Ljava/util/Random;->nextDouble()D
    move-result-wide v1
    invoke-static {v1, v2}, Ljava/lang/Double;->toString(D)Ljava/lang/String;
    move-result-object v4
    invoke-static {v4}, LMain;->ps(Ljava/lang/Object;)V
    monitor-enter v0
` + call("invoke-virtual {v0}, Ljava/util/Random;->nextInt()I") + `
    monitor-exit v0
` + call("invoke-virtual {v0}, Ljava/lang/Object;->hashCode()I") + `
    const/4 v4, 0
    invoke-static {v4}, LMain;->p(I)V
` + call("invoke-virtual {v0}, Ljava/util/Random;->nextInt()I") + `
    new-instance v0, LSub;
    const-wide/16 v1, 7
    invoke-direct {v0, v1, v2}, LSub;-><init>(J)V
` + call("invoke-virtual {v0}, Ljava/util/Random;->nextInt()I"), classes: []string{`.class public LSub;
.super Ljava/util/Random;

.method public constructor <init>(J)V
    .registers 3
    invoke-direct {p0, p1, p2}, Ljava/util/Random;-><init>(J)V
    return-void
.end method

.method protected next(I)I
    .registers 3
    invoke-super {p0, p1}, Ljava/util/Random;->next(I)I
    move-result v0
    xor-int/lit8 v0, v0, 1
    return v0
.end method
`}},
	{name: "minmax", body: `
    const/high16 v0, -0x80000000
    const v1, 0x7fffffff
` + call("invoke-static {v0, v1}, Ljava/lang/Math;->min(II)I") +
		call("invoke-static {v0, v1}, Ljava/lang/Math;->max(II)I") +
		call("invoke-static {v1, p0}, Ljava/lang/Math;->min(II)I") +
		call("invoke-static {v0, p0}, Ljava/lang/Math;->max(II)I")},
}

// TestIntrinsicsSameOnBothEngines runs each intrinsic's cases (null
// receivers and arguments, indices out of range, characters above
// 0x7fff, another class with the same characters, equal and unequal lengths) on the interpreter
// and on the aot engine with and without intrinsics: the same output,
// exceptions and messages included, and the intrinsics answered calls.
func TestIntrinsicsSameOnBothEngines(t *testing.T) {
	for _, c := range intrinsicCases {
		t.Run(c.name, func(t *testing.T) {
			src := intrinsicProgram(c.body)
			srcs := append([]string{src}, c.classes...)
			want, _ := runIntrinsics(t, "interp", true, srcs...)
			if strings.Count(want, "\n") < 3 {
				t.Fatalf("interp printed too little:\n%s", want)
			}
			for _, on := range []bool{false, true} {
				got, e := runIntrinsics(t, "aot", on, srcs...)
				if got != want {
					t.Errorf("aot, intrinsics %v:\n%s\nwant (interp):\n%s", on, got, want)
				}
				if n := e.Stats().Intrinsics; (n > 0) != on {
					t.Errorf("aot, intrinsics %v: %d calls answered by intrinsics", on, n)
				}
			}
		})
	}
}

// intrinsicProgram is class Main running body three times.
func intrinsicProgram(body string) string {
	return smaliHeader + printI + printObj + fmt.Sprintf(`
.method static c(I)V
    .registers 7
%s
    return-void
.end method

.method public static main([Ljava/lang/String;)V
    .registers 2
    const/4 v0, 0
    invoke-static {v0}, LMain;->c(I)V
    invoke-static {v0}, LMain;->c(I)V
    const/4 v0, 3
    invoke-static {v0}, LMain;->c(I)V
    return-void
.end method
`, body)
}

// runIntrinsics runs Main of the classes srcs on eng, the aot engine's intrinsics on
// or off.
func runIntrinsics(t *testing.T, eng string, on bool, srcs ...string) (string, *engine.Engine) {
	t.Helper()
	out, e, _ := runIntrinsicsBarriers(t, eng, on, "", srcs...)
	return out, e
}

// runIntrinsicsBarriers is runIntrinsics with paper 003's barriers at
// level (and check barriers; "" for none); it returns the objects the
// access bitmap holds at the end too.
func runIntrinsicsBarriers(t *testing.T, eng string, on bool, level string, srcs ...string) (string, *engine.Engine, []uint32) {
	t.Helper()
	p := assembleDex(t, srcs...)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v, err := vm.New(vm.Options{ClassPath: []string{p}, Stdout: &out, Stderr: &out, Engine: eng, Barriers: level, CheckBarriers: level != ""})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := v.Engine.(*engine.Engine)
	if e != nil {
		e.SetIntrinsics(on)
	}
	if _, err := v.RunMain(ctx, "Main", nil); err != nil {
		t.Fatal(err)
	}
	var marked []uint32
	if b := v.AccessBitmap(); b != nil {
		b.Walk(func(a uint32) { marked = append(marked, a) })
		if d, ok := b.FirstDifference(b.Shadow); ok {
			t.Errorf("the bitmap differs from the check barriers' at %#x", d)
		}
	}
	return out.String(), e, marked
}

// TestIntrinsicsKeepBarriers: with paper 003's barriers, a program whose
// calls intrinsics answer ends with the same objects marked in the
// access bitmap as when the compiled methods run (the heap's addresses
// are the same: intrinsics allocate nothing), at each level, and equal
// to the check barriers'.
func TestIntrinsicsKeepBarriers(t *testing.T) {
	for _, c := range intrinsicCases {
		for _, level := range []string{"none", "cache", "elim", "all"} {
			t.Run(c.name+"/"+level, func(t *testing.T) {
				src := intrinsicProgram(c.body)
				srcs := append([]string{src}, c.classes...)
				wantOut, _, want := runIntrinsicsBarriers(t, "aot", false, level, srcs...)
				out, e, got := runIntrinsicsBarriers(t, "aot", true, level, srcs...)
				if out != wantOut {
					t.Errorf("output with intrinsics:\n%s\nwithout:\n%s", out, wantOut)
				}
				if e.Stats().Intrinsics == 0 {
					t.Error("no call answered by an intrinsic")
				}
				if len(want) == 0 {
					t.Fatal("no object marked without intrinsics")
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("marked with intrinsics %d objects %x\nwithout %d %x", len(got), got, len(want), want)
				}
			})
		}
	}
}
