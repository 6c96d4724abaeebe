package vm_test

import "testing"

// TestSleepZero: Thread.sleep(0) returns at once, as on ART (it used to
// wait for a timer that was never started, so the program hung).
func TestSleepZero(t *testing.T) {
	out, _ := runSmali(t, map[string]string{"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 3
    const-wide/16 v0, 0
    invoke-static {v0, v1}, Ljava/lang/Thread;->sleep(J)V
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    const-string v1, "woke"
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void
.end method
`})
	if out != "woke\n" {
		t.Errorf("stdout %q, want %q", out, "woke\n")
	}
}
