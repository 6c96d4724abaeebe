package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/vmconfig"
)

// loopMain reads two int arrays in loops whose barriers the loop may skip
// (ssa.BarrierLoop: one-block bodies, the arrays defined before the
// loop), sum's long enough to span several of the other thread's turns,
// while another thread allocates: each back edge's safepoint yields to
// that thread, whose allocations collect, so epochs end inside the
// loops, and the iteration after each must mark the array again.
const loopMain = smaliHeader + printI + `
.method static fill([I)V
    .registers 4
    const/4 v0, 0
    array-length v1, p0
    :loop
    if-ge v0, v1, :done
    mul-int/lit8 v2, v0, 3
    aput v2, p0, v0
    add-int/lit8 v0, v0, 1
    goto :loop
    :done
    return-void
.end method

.method static sum([I[II)I
    .registers 8
    const/4 v0, 0
    const/4 v1, 0
    :loop
    if-ge v0, p2, :done
    and-int/lit8 v2, v0, 15
    aget v3, p0, v2
    aget v4, p1, v2
    add-int/2addr v3, v4
    add-int/2addr v1, v3
    add-int/lit8 v0, v0, 1
    goto :loop
    :done
    return v1
.end method

.method public static main([Ljava/lang/String;)V
    .registers 7
    new-instance v0, LAlloc;
    invoke-direct {v0}, LAlloc;-><init>()V
    invoke-virtual {v0}, Ljava/lang/Thread;->start()V
    const/16 v1, 16
    new-array v5, v1, [I
    new-array v1, v1, [I
    invoke-static {v1}, LMain;->fill([I)V
    invoke-static {v5}, LMain;->fill([I)V
    const/4 v2, 0
    const/4 v3, 0
    :rep
    const/4 v4, 5
    if-ge v2, v4, :end
    const v4, 2000000
    invoke-static {v1, v5, v4}, LMain;->sum([I[II)I
    move-result v4
    add-int/2addr v3, v4
    add-int/lit8 v2, v2, 1
    goto :rep
    :end
    const/4 v4, 1
    sput-boolean v4, LAlloc;->stop:Z
    invoke-virtual {v0}, Ljava/lang/Thread;->join()V
    invoke-static {v3}, LMain;->p(I)V
    return-void
.end method
`

// loopAlloc allocates until the main thread is done with its loops
// (Alloc.stop).
const loopAlloc = `.class public LAlloc;
.super Ljava/lang/Thread;
.field static keep:Ljava/lang/Object;
.field static volatile stop:Z

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Thread;-><init>()V
    return-void
.end method

.method public run()V
    .registers 4
    :loop
    sget-boolean v0, LAlloc;->stop:Z
    if-nez v0, :done
    const/16 v1, 16
    new-array v1, v1, [I
    sput-object v1, LAlloc;->keep:Ljava/lang/Object;
    goto :loop
    :done
    return-void
.end method
`

// TestBarrierLoopAcrossCollections: the barriers a loop skips after a
// whole iteration (cblock.loopSkipping) are run again after a safepoint
// at which another thread collected. At every collection the bitmap
// must equal the check barriers' (an object accessed in an epoch and not
// marked in it is what a loop that kept skipping across the collection
// would leave), under a collection at nearly every allocation; the loops
// must have skipped barriers (cache hits) and the epochs must be many.
func TestBarrierLoopAcrossCollections(t *testing.T) {
	p := assembleDex(t, loopMain, loopAlloc)
	for _, variant := range []string{"cms-stress", "ss-stress"} {
		t.Run(variant, func(t *testing.T) {
			c, err := vmconfig.ParseVariant(variant)
			if err != nil {
				t.Fatal(err)
			}
			var bad string
			epochs := 0
			hooks := &runtime.Hooks{Accesses: func(count int, b *gc.AccessBitmap) {
				epochs++
				if a, diff := b.FirstDifference(b.Shadow); diff && bad == "" {
					bad = fmt.Sprintf("before collection %d: object %#x marked %v, by the check barriers %v", count, a, b.Marked(a), b.Shadow.Marked(a))
				}
			}}
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			v, err := vm.New(vm.Options{ClassPath: []string{p}, GC: c, Stdout: &out, Stderr: &out, Engine: "aot", Barriers: "all", CheckBarriers: true, Hooks: hooks})
			if err != nil {
				t.Fatal(err)
			}
			if code, err := v.RunMain(ctx, "Main", nil); err != nil || code != 0 {
				t.Fatalf("exit %d, %v: %s", code, err, out.String())
			}
			// 5 × Σ 6(i & 15) for i < 2,000,000
			if want := fmt.Sprintln(5 * 2000000 / 16 * 6 * 120); out.String() != want {
				t.Errorf("stdout %q, want %q", out.String(), want)
			}
			if bad != "" {
				t.Error(bad)
			}
			s := v.Engine.(*engine.Engine).Stats().Barriers
			t.Logf("%d collections; barriers run %d, cache hits %d, of them skipped by the loops %d", epochs, s.Executed, s.CacheHits, s.LoopSkips)
			if epochs < 50 || s.LoopSkips == 0 {
				t.Errorf("%d collections, %d barriers skipped by the loops: the test needs many of both", epochs, s.LoopSkips)
			}
		})
	}
}
