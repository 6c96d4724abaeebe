package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// assembleDex assembles the classes srcs into one DEX file and returns
// its path.
func assembleDex(t *testing.T, srcs ...string) string {
	t.Helper()
	var classes []*ast.Class
	for i, src := range srcs {
		c, err := smali.Parse(fmt.Sprintf("C%d.smali", i), []byte(src), &smali.Options{API: 28})
		if err != nil {
			t.Fatal(err)
		}
		classes = append(classes, c)
	}
	data, err := smali.Assemble(classes, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "t.dex")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sameOnBothEngines runs srcs on the interpreter and on aot, fails t
// when their output differs, and returns the aot engine's stats.
func sameOnBothEngines(t *testing.T, srcs ...string) engine.Stats {
	t.Helper()
	want, _ := runClasses(t, "interp", nil, srcs...)
	got, e := runClasses(t, "aot", nil, srcs...)
	if got != want {
		t.Errorf("aot:\n%s\ninterp:\n%s", got, want)
	}
	return e.Stats()
}

// runClasses assembles the classes srcs into one DEX file and runs
// LMain;.main on the named engine with hooks (may be nil); it returns
// stdout and stderr together. The aot engine compiles only the
// program's methods (those of its DEX file), so that its Stats count
// what the program's calls became, not the core library's.
func runClasses(t *testing.T, eng string, hooks *runtime.Hooks, srcs ...string) (string, *engine.Engine) {
	t.Helper()
	p := assembleDex(t, srcs...)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v, err := vm.New(vm.Options{ClassPath: []string{p}, Stdout: &out, Stderr: &out, Engine: eng, Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := v.Engine.(*engine.Engine)
	if e != nil {
		e.Filter = func(m *runtime.Method) bool { return !m.Class.Boot }
	}
	if _, err := v.RunMain(ctx, "Main", nil); err != nil {
		t.Fatal(err)
	}
	return out.String(), e
}

// inlineMain is a class LMain; whose main is body, with the helpers
// extra and a counter field.
func inlineMain(body, extra string) string {
	return smaliHeader + `
.field counter:I

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method static leaf(I)I
    .registers 2
    add-int/lit8 v0, p0, 1
    return v0
.end method

.method private bump(I)I
    .registers 3
    iget v0, p0, LMain;->counter:I
    add-int/2addr v0, p1
    iput v0, p0, LMain;->counter:I
    return v0
.end method

.method static divide(II)I
    .registers 3
    div-int v0, p0, p1
    return v0
.end method

.method public static main([Ljava/lang/String;)V
    .registers 6
` + body + `
.end method
` + printI + extra
}

// other is a class with a static initialiser that prints, and a static
// leaf method: calling it from LMain; must initialise it first.
const other = `.class public LOther;
.super Ljava/lang/Object;

.method static constructor <clinit>()V
    .registers 1
    const/16 v0, 99
    invoke-static {v0}, LMain;->p(I)V
    return-void
.end method

.method static twice(I)I
    .registers 2
    add-int v0, p0, p0
    return v0
.end method
`

// box is a class whose constructor (a leaf once Object.<init> is
// inlined into it) its static factory calls.
const box = `.class public LBox;
.super Ljava/lang/Object;

.field v:I

.method private constructor <init>(I)V
    .registers 2
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    iput p1, p0, LBox;->v:I
    return-void
.end method

.method static make(I)LBox;
    .registers 2
    new-instance v0, LBox;
    invoke-direct {v0, p0}, LBox;-><init>(I)V
    return-object v0
.end method
`

// TestInlineSameOnBothEngines runs programs whose calls the inline pass
// replaces, or must not, on both engines: the same output, uncaught
// exceptions with the same stack trace, and the calls inlined or not as
// the case says (Stats.Inlined).
func TestInlineSameOnBothEngines(t *testing.T) {
	tests := []struct {
		name    string
		main    string
		classes []string
		inlined bool // at least one call inlined; false: none
	}{
		{"a static leaf and a private accessor in a loop", `
    new-instance v0, LMain;
    invoke-direct {v0}, LMain;-><init>()V
    const/4 v1, 0
    const/4 v2, 0
    :loop
    const/16 v3, 100
    if-ge v1, v3, :done
    invoke-static {v1}, LMain;->leaf(I)I
    move-result v3
    add-int/2addr v2, v3
    invoke-direct {v0, v1}, LMain;->bump(I)I
    move-result v3
    add-int/2addr v2, v3
    add-int/lit8 v1, v1, 1
    goto :loop
    :done
    invoke-static {v2}, LMain;->p(I)V
    return-void`, nil, true},
		{"constructors: Object.<init> inlined into another class's, which is inlined into its own class's factory", `
    const/4 v1, 0
    :loop
    const/16 v2, 50
    if-ge v1, v2, :done
    invoke-static {v1}, LBox;->make(I)LBox;
    move-result-object v0
    iget v2, v0, LBox;->v:I
    invoke-static {v2}, LMain;->p(I)V
    add-int/lit8 v1, v1, 7
    goto :loop
    :done
    return-void`, []string{box}, true},
		{"an inlined accessor on a null receiver throws at the call site", `
    const/4 v0, 0
    const/4 v1, 5
    invoke-static {v1}, LMain;->leaf(I)I
    move-result v1
    invoke-static {v1}, LMain;->p(I)V
    invoke-direct {v0, v1}, LMain;->bump(I)I
    move-result v1
    invoke-static {v1}, LMain;->p(I)V
    return-void`, nil, true},
		{"a throw in a callee that would be inlined but for it keeps its frame in the trace", `
    const/4 v0, 7
    const/4 v1, 0
    invoke-static {v0, v0}, LMain;->divide(II)I
    move-result v2
    invoke-static {v2}, LMain;->p(I)V
    invoke-static {v0, v1}, LMain;->divide(II)I
    move-result v2
    invoke-static {v2}, LMain;->p(I)V
    return-void`, nil, false},
		{"a static call of another class initialises it first", `
    const/4 v0, 3
    invoke-static {v0}, LMain;->p(I)V
    invoke-static {v0}, LOther;->twice(I)I
    move-result v0
    invoke-static {v0}, LMain;->p(I)V
    invoke-static {v0}, LOther;->twice(I)I
    move-result v0
    invoke-static {v0}, LMain;->p(I)V
    return-void`, []string{other}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srcs := append([]string{inlineMain(tc.main, "")}, tc.classes...)
			if s := sameOnBothEngines(t, srcs...); (s.Inlined > 0) != tc.inlined || s.NumFallbacks() != 0 {
				t.Errorf("%d calls inlined, %d fallbacks; want inlining %v and no fallback", s.Inlined, s.NumFallbacks(), tc.inlined)
			}
		})
	}
}

// TestInlineNotWithMethodHooks checks that with method entry/exit hooks
// (dpa) the aot engine inlines nothing, so the hooks see every call of
// a program whose calls are inlined without them, as on the interpreter.
func TestInlineNotWithMethodHooks(t *testing.T) {
	src := inlineMain(`
    const/4 v1, 0
    const/4 v2, 0
    :loop
    const/16 v3, 20
    if-ge v1, v3, :done
    invoke-static {v1}, LMain;->leaf(I)I
    move-result v3
    add-int/2addr v2, v3
    add-int/lit8 v1, v1, 1
    goto :loop
    :done
    invoke-static {v2}, LMain;->p(I)V
    return-void`, "")
	if _, e := runClasses(t, "aot", nil, src); e.Stats().Inlined == 0 {
		t.Fatal("no call inlined without hooks: the test shows nothing")
	}
	trace := func(eng string) ([]string, *engine.Engine) {
		var events []string
		hooks := &runtime.Hooks{
			MethodEntry: func(_ *runtime.Thread, m *runtime.Method, depth int, _ int64) {
				events = append(events, fmt.Sprintf("> %d %s.%s", depth, m.Class.Name, m.Name))
			},
			MethodExit: func(_ *runtime.Thread, m *runtime.Method, depth int, exc bool, _ int64) {
				events = append(events, fmt.Sprintf("< %d %s.%s %v", depth, m.Class.Name, m.Name, exc))
			},
		}
		_, e := runClasses(t, eng, hooks, src)
		return events, e
	}
	want, _ := trace("interp")
	got, e := trace("aot")
	leaves := 0
	for _, ev := range want {
		if ev == "> 2 Main.leaf" {
			leaves++
		}
	}
	if leaves != 20 {
		t.Fatalf("interp: %d entries of leaf, want 20", leaves)
	}
	if len(got) != len(want) {
		t.Fatalf("aot: %d events, interp %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d: aot %q, interp %q", i, got[i], want[i])
		}
	}
	if n := e.Stats().Inlined; n != 0 {
		t.Errorf("%d calls inlined with method hooks set", n)
	}
}

// TestSynchronizedCalleeDirect checks the monitor of a synchronized
// compiled callee, which the aot engine runs without Thread.Call: held
// during the body, released when it returns and when it throws. A
// monitor-exit by the caller afterwards must throw
// IllegalMonitorStateException, as on the interpreter; a leaked lock
// would let it pass.
func TestSynchronizedCalleeDirect(t *testing.T) {
	const extra = `
.method static synchronized syncDivide(II)I
    .registers 3
    div-int v0, p0, p1
    return v0
.end method

.method synchronized get()I
    .registers 2
    iget v0, p0, LMain;->counter:I
    return v0
.end method
`
	tests := []struct{ name, main string }{
		{"a static callee that throws releases the class's lock", `
    const/4 v0, 7
    const/4 v1, 0
    invoke-static {v0, v0}, LMain;->syncDivide(II)I
    move-result v2
    invoke-static {v2}, LMain;->p(I)V
    :try_start
    invoke-static {v0, v1}, LMain;->syncDivide(II)I
    move-result v2
    :try_end
    .catch Ljava/lang/ArithmeticException; {:try_start .. :try_end} :handler
    return-void
    :handler
    const/4 v2, -1
    invoke-static {v2}, LMain;->p(I)V
    const-class v0, LMain;
    monitor-exit v0
    return-void`},
		{"an instance callee releases its receiver's lock", `
    new-instance v0, LMain;
    invoke-direct {v0}, LMain;-><init>()V
    const/4 v1, 0
    :loop
    const/16 v2, 10
    if-ge v1, v2, :done
    invoke-virtual {v0}, LMain;->get()I
    move-result v2
    invoke-static {v2}, LMain;->p(I)V
    add-int/lit8 v1, v1, 1
    goto :loop
    :done
    monitor-exit v0
    return-void`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := inlineMain(tc.main, extra)
			want, _ := runClasses(t, "interp", nil, src)
			got, e := runClasses(t, "aot", nil, src)
			if got != want {
				t.Errorf("aot:\n%s\ninterp:\n%s", got, want)
			}
			if !strings.Contains(want, "IllegalMonitorStateException") {
				t.Errorf("interp did not throw IllegalMonitorStateException:\n%s", want)
			}
			if s := e.Stats(); s.NumFallbacks() != 0 {
				t.Errorf("%d fallbacks", s.NumFallbacks())
			}
		})
	}
}

// TestDeclaredSynchronizedDoesNotLock: a declared-synchronized method
// (javac's `synchronized`, as d8 emits it: the flag plus its own
// monitor-enter/exit) is not locked by the call. Its explicit pair
// balances on both engines, and a monitor-exit of its class without a
// monitor-enter throws IllegalMonitorStateException inside it, where its
// handler catches it, as on ART; a runtime that locked for the flag too
// would hold the lock there, let the monitor-exit pass and throw on the
// return instead.
func TestDeclaredSynchronizedDoesNotLock(t *testing.T) {
	const extra = `
.method static declared-synchronized paired(I)I
    .registers 3
    const-class v0, LMain;
    monitor-enter v0
    :try_start
    add-int/lit8 v1, p0, 1
    monitor-exit v0
    :try_end
    .catchall {:try_start .. :try_end} :handler
    return v1
    :handler
    move-exception v1
    monitor-exit v0
    throw v1
.end method

.method static declared-synchronized unlocks()V
    .registers 2
    const-class v0, LMain;
    :try_start
    monitor-exit v0
    :try_end
    .catch Ljava/lang/IllegalMonitorStateException; {:try_start .. :try_end} :handler
    const/4 v1, 0
    invoke-static {v1}, LMain;->p(I)V
    return-void
    :handler
    const/4 v1, -1
    invoke-static {v1}, LMain;->p(I)V
    return-void
.end method
`
	src := inlineMain(`
    const/4 v0, 0
    :loop
    const/16 v1, 5
    if-ge v0, v1, :done
    invoke-static {v0}, LMain;->paired(I)I
    move-result v0
    invoke-static {v0}, LMain;->p(I)V
    goto :loop
    :done
    invoke-static {}, LMain;->unlocks()V
    return-void`, extra)
	for _, eng := range []string{"interp", "aot"} {
		got, _ := runClasses(t, eng, nil, src)
		t.Logf("%s:\n%s", eng, got)
		// 1..5 from paired, then -1: unlocks' monitor-exit threw and
		// its handler caught it, and nothing is left to throw on return
		if want := "1\n2\n3\n4\n5\n-1\n"; got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", eng, got, want)
		}
	}
}
