package main

import (
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// exitSmali exits with the status given as its first argument, throws
// when it is "throw", and echoes its arguments otherwise.
const exitSmali = `.class public LExit;
.super Ljava/lang/Object;

.method public static main([Ljava/lang/String;)V
    .registers 4
    const/4 v0, 0
    aget-object v1, p0, v0
    const-string v2, "throw"
    invoke-virtual {v1, v2}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v2
    if-eqz v2, :exit
    new-instance v2, Ljava/lang/IllegalStateException;
    const-string v3, "boom"
    invoke-direct {v2, v3}, Ljava/lang/IllegalStateException;-><init>(Ljava/lang/String;)V
    throw v2
    :exit
    sget-object v2, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v2, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    invoke-static {v1}, Ljava/lang/Integer;->parseInt(Ljava/lang/String;)I
    move-result v1
    invoke-static {v1}, Ljava/lang/System;->exit(I)V
    return-void
.end method
`

// TestVMRun checks `droidprof vm run` like dalvikvm: the program's output,
// System.exit's status, status 1 and a stack trace for an uncaught
// exception, and errors for a missing class or class path.
func TestVMRun(t *testing.T) {
	c := newCLI(t)
	cls, err := smali.Parse("Exit.smali", []byte(exitSmali), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble([]*ast.Class{cls}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.write("exit.dex", string(data))
	for _, tc := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"vm", "run", "-cp", "exit.dex", "Exit", "0"}, 0, "0\n", ""},
		{[]string{"vm", "run", "-cp", "exit.dex", "Exit", "3"}, 3, "3\n", ""},
		{[]string{"vm", "run", "--heap-max", "16MiB", "-cp", "exit.dex", "Exit", "throw"}, 1, "",
			"Exception in thread \"main\" java.lang.IllegalStateException: boom\n\tat Exit.main("},
		{[]string{"vm", "run", "-cp", "exit.dex", "Missing"}, 1, "", "java.lang.ClassNotFoundException: Didn't find class \"Missing\""},
		{[]string{"vm", "run", "-cp", "nothere.dex", "Exit"}, 1, "", "nothere.dex: no such file"},
		{[]string{"vm", "run", "--heap-max", "lots", "-cp", "exit.dex", "Exit"}, 2, "", "--heap-max"},
		{[]string{"vm", "run"}, 2, "", "usage: droidprof vm run"},
	} {
		stdout, stderr, code := c.run(tc.args...)
		if code != tc.code || stdout != tc.stdout || !strings.Contains(stderr, tc.stderr) || tc.stderr == "" && stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}
