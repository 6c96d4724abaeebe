package engine_test

import (
	"fmt"
	"testing"

	"github.com/droidprof/droidprof/vm/runtime"
)

// shapes is CaffeineMark's method test in smali: an abstract LShape;
// whose twice calls area on its receiver, LSquare; and LTri; overriding
// area with leaves, LBad; overriding it with a division that throws at 7;
// and an interface LOp; with two leaf implementations.
var shapes = []string{`.class public abstract LShape;
.super Ljava/lang/Object;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method public abstract area(I)I
.end method

.method public twice(I)I
    .registers 3
    invoke-virtual {p0, p1}, LShape;->area(I)I
    move-result v0
    mul-int/lit8 v0, v0, 2
    return v0
.end method
`, `.class public final LSquare;
.super LShape;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, LShape;-><init>()V
    return-void
.end method

.method public area(I)I
    .registers 3
    mul-int v0, p1, p1
    return v0
.end method
`, `.class public final LTri;
.super LShape;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, LShape;-><init>()V
    return-void
.end method

.method public area(I)I
    .registers 3
    add-int/lit8 v0, p1, 1
    mul-int/2addr v0, p1
    div-int/lit8 v0, v0, 2
    return v0
.end method
`, `.class public final LBad;
.super LShape;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, LShape;-><init>()V
    return-void
.end method

.method public area(I)I
    .registers 4
    rsub-int/lit8 v0, p1, 7
    const/16 v1, 100
    div-int v0, v1, v0
    return v0
.end method
`, `.class public interface abstract LOp;
.super Ljava/lang/Object;

.method public abstract apply(II)I
.end method
`, `.class public final LAdd;
.super Ljava/lang/Object;
.implements LOp;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method public apply(II)I
    .registers 4
    add-int v0, p1, p2
    return v0
.end method
`, `.class public final LMix;
.super Ljava/lang/Object;
.implements LOp;

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method public apply(II)I
    .registers 4
    mul-int/lit8 v0, p1, 31
    xor-int/2addr v0, p2
    return v0
.end method
`}

// shapeLoop calls twice on v0 and apply on v5 in a loop of 40, printing
// the sum; the caller sets v0 and v5, and may change them by the
// iteration's parity (odd: v0 from v4).
const shapeLoop = `
    const/4 v1, 0
    const/4 v2, 0
    :loop
    const/16 v3, 40
    if-ge v1, v3, :done
    invoke-virtual {v0, v1}, LShape;->twice(I)I
    move-result v3
    add-int/2addr v2, v3
    invoke-interface {v5, v2, v1}, LOp;->apply(II)I
    move-result v2
    and-int/lit8 v3, v1, 1
    if-eqz v3, :even
    move-object v3, v0
    move-object v0, v4
    move-object v4, v3
    :even
    add-int/lit8 v1, v1, 1
    goto :loop
    :done
    invoke-static {v2}, LMain;->p(I)V
    return-void`

// TestGuardedInlineSameOnBothEngines runs virtual and interface calls the
// guardinline pass inlines behind guards on both engines: the same
// output and the same uncaught exceptions with the same stack traces
// when a receiver misses every guard (a third class, whose target
// throws inside the template method's frame, or null), and guards
// placed as the case says (Stats.Guards).
func TestGuardedInlineSameOnBothEngines(t *testing.T) {
	tests := []struct {
		name   string
		main   string
		guards bool
	}{
		{"bimorphic hits: two shapes, two ops, alternating", `
    new-instance v0, LSquare;
    invoke-direct {v0}, LSquare;-><init>()V
    new-instance v4, LTri;
    invoke-direct {v4}, LTri;-><init>()V
    new-instance v5, LMix;
    invoke-direct {v5}, LMix;-><init>()V` + shapeLoop, true},
		{"a third class misses the guards and its target throws with the template method's frame in the trace", `
    new-instance v0, LSquare;
    invoke-direct {v0}, LSquare;-><init>()V
    new-instance v4, LBad;
    invoke-direct {v4}, LBad;-><init>()V
    new-instance v5, LAdd;
    invoke-direct {v5}, LAdd;-><init>()V` + shapeLoop, true},
		{"a null receiver misses and the call throws its NullPointerException", `
    new-instance v0, LTri;
    invoke-direct {v0}, LTri;-><init>()V
    const/4 v4, 0
    new-instance v5, LAdd;
    invoke-direct {v5}, LAdd;-><init>()V` + shapeLoop, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srcs := append([]string{inlineMain(tc.main, "")}, shapes...)
			if s := sameOnBothEngines(t, srcs...); (s.Guards > 0) != tc.guards || s.NumFallbacks() != 0 {
				t.Errorf("%d guards, %d fallbacks; want guards %v and no fallback", s.Guards, s.NumFallbacks(), tc.guards)
			}
		})
	}
}

// TestGuardedInlineNotWithMethodHooks checks that with method entry/exit
// hooks the aot engine places no guard, so the hooks see every virtual
// and interface call, in the interpreter's order.
func TestGuardedInlineNotWithMethodHooks(t *testing.T) {
	src := append([]string{inlineMain(`
    new-instance v0, LSquare;
    invoke-direct {v0}, LSquare;-><init>()V
    new-instance v4, LTri;
    invoke-direct {v4}, LTri;-><init>()V
    new-instance v5, LAdd;
    invoke-direct {v5}, LAdd;-><init>()V`+shapeLoop, "")}, shapes...)
	if _, e := runClasses(t, "aot", nil, src...); e.Stats().Guards == 0 {
		t.Fatal("no guard placed without hooks: the test shows nothing")
	}
	trace := func(eng string) []string {
		var events []string
		hooks := &runtime.Hooks{
			MethodEntry: func(_ *runtime.Thread, m *runtime.Method, depth int, _ int64) {
				events = append(events, fmt.Sprintf("> %d %s.%s", depth, m.Class.Name, m.Name))
			},
			MethodExit: func(_ *runtime.Thread, m *runtime.Method, depth int, exc bool, _ int64) {
				events = append(events, fmt.Sprintf("< %d %s.%s %v", depth, m.Class.Name, m.Name, exc))
			},
		}
		_, e := runClasses(t, eng, hooks, src...)
		if eng == "aot" && e.Stats().Guards != 0 {
			t.Errorf("%d guards placed with method hooks set", e.Stats().Guards)
		}
		return events
	}
	want, got := trace("interp"), trace("aot")
	areas := 0
	for _, ev := range want {
		if ev == "> 3 Square.area" || ev == "> 3 Tri.area" {
			areas++
		}
	}
	if areas != 40 {
		t.Fatalf("interp: %d entries of area at depth 3, want 40", areas)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("aot events differ from interp's:\naot %d: %v\ninterp %d: %v", len(got), got, len(want), want)
	}
}
