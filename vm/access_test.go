package vm_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// TestIllegalAccess: bytecode reaching a private method or field of
// another class, or a package-private class of another package, throws
// IllegalAccessError with ART's message; the same members stay usable
// from their own class. (The check runs when a reference is first
// resolved: see vm/runtime/access.go for what that leaves out.)
func TestIllegalAccess(t *testing.T) {
	try := func(label, call string) string {
		return `    :` + label + `_start
` + call + `
    :` + label + `_end
    .catch Ljava/lang/IllegalAccessError; {:` + label + `_start .. :` + label + `_end} :` + label + `_caught
    goto :` + label + `_next
    :` + label + `_caught
    move-exception v1
    invoke-virtual {v1}, Ljava/lang/Throwable;->getMessage()Ljava/lang/String;
    move-result-object v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    :` + label + `_next
`
	}
	out, _ := runSmali(t, map[string]string{
		"A.smali": `.class public LA;
.super Ljava/lang/Object;
.field private static secret:I
.method private static hidden()V
    .registers 0
    return-void
.end method
.method public static legal()V
    .registers 1
    invoke-static {}, LA;->hidden()V
    sget v0, LA;->secret:I
    return-void
.end method
`,
		"Hidden.smali": `.class Lp/Hidden;
.super Ljava/lang/Object;
`,
		"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 3
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
` + try("m", "    invoke-static {}, LA;->hidden()V") +
			try("f", "    sget v1, LA;->secret:I") +
			try("c", "    const-class v1, Lp/Hidden;") + `    invoke-static {}, LA;->legal()V
    const-string v1, "legal"
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void
.end method
`})
	want := "Method 'void A.hidden()' is inaccessible to class 'Main'\n" +
		"Field 'int A.secret' is inaccessible to class 'Main'\n" +
		"Illegal class access: 'Main' attempting to access 'p.Hidden'\n" +
		"legal\n"
	if out != want {
		t.Errorf("stdout\n%s\nwant\n%s", out, want)
	}
}

// TestOutputOrder: with stdout and stderr going to one file, as under
// ART's run-test, what a program prints appears in the order it printed
// it, although System.out is buffered.
func TestOutputOrder(t *testing.T) {
	c, err := smali.Parse("Main.smali", []byte(`.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 3
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    sget-object v1, Ljava/lang/System;->err:Ljava/io/PrintStream;
    const-string v2, "one"
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    const-string v2, "two"
    invoke-virtual {v1, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    const-string v2, "three"
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    new-instance v2, Ljava/lang/IllegalStateException;
    invoke-direct {v2}, Ljava/lang/IllegalStateException;-><init>()V
    throw v2
.end method
`), &smali.Options{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{c}, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "t.dex")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var both bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, err := vm.Run(ctx, vm.Options{ClassPath: []string{p}, Stdout: &both, Stderr: &both}, "Main", nil)
	if err != nil || code != 1 {
		t.Fatalf("exit %d, %v", code, err)
	}
	want := "one\ntwo\nthree\nException in thread \"main\" java.lang.IllegalStateException\n"
	if got := both.String(); len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("output\n%s\nwant it to start with\n%s", got, want)
	}
}
