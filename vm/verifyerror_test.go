package vm_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// TestVerifyError: a class whose code fails verification throws
// java.lang.VerifyError, in ART's message shape, at its first use and at
// every later one; the rest of the program runs.
func TestVerifyError(t *testing.T) {
	srcs := map[string]string{
		"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 3
    const/4 v1, 0
  :loop
    :try_start
    invoke-static {}, LBad;->m()I
    :try_end
    .catch Ljava/lang/VerifyError; {:try_start .. :try_end} :caught
    return-void
  :caught
    move-exception v0
    sget-object v2, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v2, v0}, Ljava/io/PrintStream;->println(Ljava/lang/Object;)V
    add-int/lit8 v1, v1, 1
    const/4 v0, 2
    if-lt v1, v0, :loop
    invoke-static {}, LGood;->m()V
    return-void
.end method
`,
		"Bad.smali": `.class public LBad;
.super Ljava/lang/Object;
.method public static m()I
    .registers 2
    const/4 v0, 1
    const/4 v1, 2
    monitor-enter v1
    return v0
.end method
`,
		"Good.smali": `.class public LGood;
.super Ljava/lang/Object;
.method public static m()V
    .registers 2
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    const-string v1, "good"
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void
.end method
`,
	}
	out, errOut := runSmali(t, srcs)
	const msg = "java.lang.VerifyError: Verifier rejected class Bad: int Bad.m() failed to verify: int Bad.m(): [0x2] tried to get class from non-reference register v1 (type=Constant)"
	want := msg + "\n" + msg + "\ngood\n"
	if out != want {
		t.Errorf("stdout\n%s\nwant\n%s", out, want)
	}
	if strings.Contains(errOut, "internal error") {
		t.Error(errOut)
	}
}

// TestVerifyErrorDefaultMethod: a default method of an interface that
// failed verification cannot run through a class that implements the
// interface (and so never initialises it): the call throws VerifyError.
func TestVerifyErrorDefaultMethod(t *testing.T) {
	srcs := map[string]string{
		"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 3
    new-instance v0, LC;
    invoke-direct {v0}, LC;-><init>()V
    :try_start
    invoke-interface {v0}, LI;->m()I
    :try_end
    .catch Ljava/lang/VerifyError; {:try_start .. :try_end} :caught
    return-void
  :caught
    move-exception v0
    sget-object v2, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v2, v0}, Ljava/io/PrintStream;->println(Ljava/lang/Object;)V
    return-void
.end method
`,
		"I.smali": `.class public interface abstract LI;
.super Ljava/lang/Object;
.method public m()I
    .registers 2
    return-object p0
.end method
`,
		"C.smali": `.class public LC;
.super Ljava/lang/Object;
.implements LI;
.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method
`,
	}
	out, _ := runSmali(t, srcs)
	want := "java.lang.VerifyError: Verifier rejected class I: int I.m() failed to verify: int I.m(): [0x0] return-object not expected for a method returning int\n"
	if out != want {
		t.Errorf("stdout\n%s\nwant\n%s", out, want)
	}
}

// runSmali assembles smali sources into one DEX file, runs Main and
// returns stdout and stderr.
func runSmali(t *testing.T, srcs map[string]string) (string, string) {
	t.Helper()
	var classes []*ast.Class
	for name, src := range srcs {
		c, err := smali.Parse(name, []byte(src), &smali.Options{API: 28})
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
	var out, errOut bytes.Buffer
	// A hang (a VM bug) fails the test instead of stalling the package.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, err := vm.Run(ctx, vm.Options{ClassPath: []string{p}, Stdout: &out, Stderr: &errOut}, "Main", nil)
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v; stderr %s", code, err, errOut.String())
	}
	return out.String(), errOut.String()
}
