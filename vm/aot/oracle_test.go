package aot_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// TestFrontEndAgainstInterpreter checks the front end's translation
// against an oracle it shares no code with: droidprof's interpreter runs
// random methods (forward branches, so they end) on several arguments
// and prints what they return; the IR evaluator runs the IR the front
// end built for the same methods. Every result must agree — arithmetic,
// wide pairs, conversions, switches, array exceptions and the values a
// catch-all handler sees.
func TestFrontEndAgainstInterpreter(t *testing.T) {
	programs := 150
	if testing.Short() {
		programs = 30
	}
	r := rand.New(rand.NewSource(2013))
	inputs := []int64{0, 1, -1, 2, 3, 7, 100, math.MinInt32, math.MaxInt32}
	type call struct {
		prog int
		args []int64
	}
	var classes []*ast.Class
	var srcs []string
	var calls []call
	for p := 0; p < programs; p++ {
		src := randomProgram(r, 5+r.Intn(30), false, "m", true) + randomProgram(r, 5+r.Intn(10), false, "h", false)
		src = strings.ReplaceAll(src, "LCLASS;", fmt.Sprintf("LT%d;", p))
		srcs = append(srcs, src)
		cls, err := smali.Parse("T.smali", []byte(fmt.Sprintf(".class public LT%d;\n.super Ljava/lang/Object;\n.field public static s:I\n%s", p, src)), &smali.Options{API: 28})
		if err != nil {
			t.Fatalf("program %d: %v", p, err)
		}
		classes = append(classes, cls)
		for k := 0; k < 3; k++ {
			calls = append(calls, call{p, []int64{inputs[r.Intn(len(inputs))], inputs[r.Intn(len(inputs))], int64(r.Int31n(20) - 5)}})
		}
	}
	var main strings.Builder
	main.WriteString(".class public LMain;\n.super Ljava/lang/Object;\n.method public static main([Ljava/lang/String;)V\n    .registers 5\n    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;\n")
	for _, c := range calls {
		fmt.Fprintf(&main, "    const v1, %d\n    const v2, %d\n    const v3, %d\n", int32(c.args[0]), int32(c.args[1]), int32(c.args[2]))
		fmt.Fprintf(&main, "    invoke-static {v1, v2, v3}, LT%d;->m(III)I\n    move-result v1\n    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V\n", c.prog)
	}
	main.WriteString("    return-void\n.end method\n")
	mc, err := smali.Parse("Main.smali", []byte(main.String()), &smali.Options{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	data, err := smali.Assemble(append(classes, mc), &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "progs.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code, err := vm.Run(context.Background(), vm.Options{ClassPath: []string{path}, Stdout: &stdout, Stderr: &stderr}, "Main", nil)
	if err != nil || code != 0 {
		t.Fatalf("interpreter: exit %d, %v\n%s", code, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != len(calls) {
		t.Fatalf("interpreter printed %d lines for %d calls", len(lines), len(calls))
	}

	f := readDEX(t, data)
	// the static fields keep their values from call to call, as in the
	// interpreter, so the calls are evaluated in Main's order
	env := &evalEnv{statics: map[int64]int64{}, callee: calleeIR(t, f)}
	handled := 0
	for i, c := range calls {
		fn, err := frontend.Build(methodNamed(t, f, fmt.Sprintf("LT%d;", c.prog), "m"))
		if err != nil {
			t.Fatalf("program %d: %v\n%s", c.prog, err, srcs[c.prog])
		}
		got, err := evalIR(fn, c.args, 1<<20, env)
		if err != nil || got.steps || got.exception != "" {
			t.Fatalf("program %d on %v: IR gives %v, %v\n%s\n%s", c.prog, c.args, got, err, srcs[c.prog], fn)
		}
		want, err := strconv.ParseInt(lines[i], 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		if got.ret != want {
			t.Fatalf("program %d on %v: the interpreter returns %d, the front end's IR %d\n%s\n%s", c.prog, c.args, want, got.ret, srcs[c.prog], fn)
		}
		if want >= 900 {
			handled++
		}
	}
	t.Logf("%d calls agree, about %d through the handler", len(calls), handled)
}
