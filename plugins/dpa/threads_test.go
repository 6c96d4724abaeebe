package dpa

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/plugins/dpa/analysis"
	"github.com/droidprof/droidprof/plugins/dpa/trace"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// A worker thread spins in Spin.spin while main spins in Spin.work, and
// main calls a method that throws through two frames.
const threadsSmali = `.class public LSpin;
.super Ljava/lang/Thread;

.method public constructor <init>(Ljava/lang/String;)V
    .registers 2
    invoke-direct {p0, p1}, Ljava/lang/Thread;-><init>(Ljava/lang/String;)V
    return-void
.end method

.method public static loop(I)I
    .registers 3
    const/4 v0, 0
    :top
    if-lez p0, :done
    add-int/lit8 v0, v0, 3
    add-int/lit8 p0, p0, -1
    goto :top
    :done
    return v0
.end method

.method public static spin()V
    .registers 1
    const v0, 200000
    invoke-static {v0}, LSpin;->loop(I)I
    return-void
.end method

.method public static work()V
    .registers 1
    const v0, 100000
    invoke-static {v0}, LSpin;->loop(I)I
    return-void
.end method

.method public run()V
    .registers 1
    invoke-static {}, LSpin;->spin()V
    return-void
.end method

.method public static inner()V
    .registers 2
    new-instance v0, Ljava/lang/IllegalStateException;
    invoke-direct {v0}, Ljava/lang/IllegalStateException;-><init>()V
    throw v0
.end method

.method public static outer()V
    .registers 0
    invoke-static {}, LSpin;->inner()V
    return-void
.end method

.method public static main([Ljava/lang/String;)V
    .registers 3
    new-instance v0, LSpin;
    const-string v1, "worker"
    invoke-direct {v0, v1}, LSpin;-><init>(Ljava/lang/String;)V
    invoke-virtual {v0}, LSpin;->start()V
    invoke-static {}, LSpin;->work()V
    :try_start
    invoke-static {}, LSpin;->outer()V
    :try_end
    .catch Ljava/lang/IllegalStateException; {:try_start .. :try_end} :caught
    :caught
    invoke-virtual {v0}, LSpin;->join()V
    return-void
.end method
`

func TestThreadsAndUnroll(t *testing.T) {
	cls, err := smali.Parse("Spin.smali", []byte(threadsSmali), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{cls}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dexPath := filepath.Join(t.TempDir(), "spin.dex")
	if err := os.WriteFile(dexPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := sdktest.Start(t, Plugin())
	out, err := c.Collect(context.Background(), "dpa", map[string]any{"class_path": []string{dexPath}, "main": "Spin", "calibration": 1000},
		sdktest.CollectOptions{StepID: "spin"})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trace.Load(filepath.Join(out.StepDir, trace.RecordsFile), filepath.Join(out.StepDir, trace.MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	// Two threads: the main thread's CPU clock does not see the
	// worker's events, so the program is not calibrated on itself.
	if tr.Calibration != trace.CalibrationPaired || tr.ProgramEventOverheadNs != 0 || tr.EventOverhead != tr.PairedEventOverhead {
		t.Errorf("calibration %q (program %.2f ns per event), deducted %v, paired %v; want the paired calibration", tr.Calibration, tr.ProgramEventOverheadNs, tr.EventOverhead, tr.PairedEventOverhead)
	}
	p := analysis.Analyze(tr, analysis.Options{Deduct: true})
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	where := map[string]string{} // method -> thread names it ran on
	for _, th := range p.Threads {
		for _, m := range th.Methods {
			where[m.Method.FullName()] += th.Thread.Name + ";"
		}
	}
	for m, want := range map[string]string{"Spin.spin": "worker;", "Spin.work": "main;", "Spin.run": "worker;", "Spin.main": "main;"} {
		if where[m] != want {
			t.Errorf("%s ran on %q, want %q", m, where[m], want)
		}
	}
	unrolled := map[string]bool{}
	byID := tr.MethodByID()
	for _, e := range tr.Events {
		if e.Action == trace.Unroll {
			unrolled[byID[e.Method].FullName()] = true
		}
	}
	if !unrolled["Spin.inner"] || !unrolled["Spin.outer"] || unrolled["Spin.main"] {
		t.Errorf("unrolled activations: %v", unrolled)
	}
	if p.Unclosed != 0 {
		t.Errorf("%d activations left open", p.Unclosed)
	}
	// The worker's process time is its run() activation; both threads
	// spent time in their loops.
	for _, th := range p.Threads {
		if th.ProcessTime.Wall <= 0 || th.ProcessTime.CPU <= 0 {
			t.Errorf("thread %s: process time %v (%d events; deducted %.2f ns per event, %s calibration)", th.Thread.Name, th.ProcessTime, th.Events, tr.EventOverheadNs, tr.Calibration)
		}
	}
}
