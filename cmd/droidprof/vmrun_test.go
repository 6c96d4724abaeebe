package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/workloads"
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
		{[]string{"vm", "run", "-Xmx16m", "-Xms4m", "-Xgc:SS,gcstress,postverify", "-cp", "exit.dex", "Exit", "5"}, 5, "5\n", ""},
		{[]string{"vm", "run", "-Xmx512k", "-cp", "exit.dex", "Exit", "0"}, 2, "", "-Xmx 512KB: out of range"},
		{[]string{"vm", "run", "-Xms8m", "-Xmx4m", "-cp", "exit.dex", "Exit", "0"}, 2, "", "-Xms 8192KB: larger than -Xmx 4096KB"},
		{[]string{"vm", "run", "-Xgc:g1", "-cp", "exit.dex", "Exit", "0"}, 2, "", `-Xgc:g1: "g1" is not a collector`},
		{[]string{"vm", "run", "-help"}, 0, "", "-XX:HeapGrowthLimit=SIZE"},
		{[]string{"vm", "run"}, 2, "", "usage: droidprof vm run"},
	} {
		stdout, stderr, code := c.run(tc.args...)
		if code != tc.code || stdout != tc.stdout || !strings.Contains(stderr, tc.stderr) || tc.stderr == "" && stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// TestParseVMArgs checks dalvikvm's heap and GC options: sizes with
// k/m/g suffixes (and droidprof's own), -Xgc: lists as ART reads them
// (later entries win, ART's upper-case collector names), and an error
// naming the option for each bad value.
func TestParseVMArgs(t *testing.T) {
	const K, M = 1 << 10, 1 << 20
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "preloaded-classes"), filepath.Join(dir, "bad")
	if err := os.WriteFile(good, []byte("# the zygote's list\njava.lang.String\n\nchess.Chess # a comment\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("java.lang.String\nLchess/Chess;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want vmArgs
		err  string
	}{
		{[]string{"Main"}, vmArgs{main: "Main", args: []string{}}, ""},
		{[]string{"-cp", "a.dex:b.dex", "Main", "-Xmx1m", "x"}, vmArgs{classPath: []string{"a.dex", "b.dex"}, main: "Main", args: []string{"-Xmx1m", "x"}}, ""},
		{[]string{"-Xms4m", "-Xmx1g", "-XX:HeapGrowthLimit=192m", "-XX:HeapTargetUtilization=0.5", "-XX:HeapMinFree=512k", "-XX:HeapMaxFree=8M", "Main"},
			vmArgs{gc: gc.Config{Start: 4 * M, Max: 1 << 30, GrowthLimit: 192 * M, TargetUtilization: 0.5, MinFree: 512 * K, MaxFree: 8 * M}, main: "Main", args: []string{}}, ""},
		{[]string{"-Xmx67108864", "--heap-max", "32MiB", "Main"}, vmArgs{gc: gc.Config{Max: 32 * M}, main: "Main", args: []string{}}, ""},
		{[]string{"-Xgc:SS,gcstress", "-Xgc:preverify,nopreverify", "Main"}, vmArgs{gc: gc.Config{Collector: gc.SS, Stress: true}, main: "Main", args: []string{}}, ""},
		{[]string{"-Xgc:ss,cms,postverify", "-verbose:gc", "--", "-Main"}, vmArgs{gc: gc.Config{Collector: gc.CMS, Verify: true}, verboseGC: true, main: "-Main", args: []string{}}, ""},
		{[]string{"--preload-classes", good, "Main"}, vmArgs{preload: []string{"java.lang.String", "chess.Chess"}, main: "Main", args: []string{}}, ""},
		{[]string{"--preload-classes=" + bad, "Main"}, vmArgs{}, bad + `:2: "Lchess/Chess;" is not a class name`},
		{[]string{"--preload-classes", filepath.Join(dir, "none"), "Main"}, vmArgs{}, "--preload-classes: open"},
		{[]string{"--engine=aot", "--oat", "app.oat", "Main"}, vmArgs{engine: "aot", oat: "app.oat", main: "Main", args: []string{}}, ""},
		{[]string{"--oat=app.oat", "-engine", "aot", "Main"}, vmArgs{engine: "aot", oat: "app.oat", main: "Main", args: []string{}}, ""},
		{[]string{"--oat", "app.oat", "Main"}, vmArgs{}, "--oat app.oat: only the aot engine uses an .oat cache; add --engine=aot"},
		{[]string{"--engine=aot", "--oat"}, vmArgs{}, "--oat: missing value"},
		{[]string{"-Xmx", "Main"}, vmArgs{}, "-Xmx: not a size"},
		{[]string{"-Xmx64x", "Main"}, vmArgs{}, "-Xmx64x: not a size"},
		{[]string{"-Xmx1000", "Main"}, vmArgs{}, "-Xmx1000: must be a multiple of 1024"},
		{[]string{"-Xms0", "Main"}, vmArgs{}, "-Xms0: must be positive"},
		{[]string{"-Xmx2g", "Main"}, vmArgs{}, "-Xmx2g: larger than the largest heap"},
		{[]string{"-Xmx99999999999999999g", "Main"}, vmArgs{}, "-Xmx99999999999999999g: size too large"},
		{[]string{"-XX:HeapGrowthLimit=lots", "Main"}, vmArgs{}, "-XX:HeapGrowthLimit=lots: not a size"},
		{[]string{"-XX:HeapTargetUtilization=x", "Main"}, vmArgs{}, "-XX:HeapTargetUtilization=x: not a number"},
		{[]string{"-XX:HeapTargetUtilization=1", "Main"}, vmArgs{}, "-XX:HeapTargetUtilization=1: must be in (0, 1)"},
		{[]string{"-Xgc:CC", "Main"}, vmArgs{}, "-Xgc:CC: collector CC is ART's but not droidprof's"},
		{[]string{"-Xgc:cms,bogus", "Main"}, vmArgs{}, `-Xgc:cms,bogus: "bogus" is not a collector`},
		{[]string{"-verbose:gc,class", "Main"}, vmArgs{}, `-verbose:gc,class: droidprof's VM logs only -verbose:gc and -verbose:barriers, not "class"`},
		{[]string{"--barriers=all", "-verbose:gc,barriers", "--engine", "aot", "Main"}, vmArgs{engine: "aot", barriers: "all", verboseGC: true, verboseB: true, main: "Main", args: []string{}}, ""},
		{[]string{"--barriers", "off", "Main"}, vmArgs{barriers: "off", main: "Main", args: []string{}}, ""},
		{[]string{"--barriers=elim", "Main"}, vmArgs{}, "--barriers=elim: barriers are compiled in, so they need --engine=aot"},
		{[]string{"--barriers=most", "--engine=aot", "Main"}, vmArgs{}, `barrier level "most": want off, none, cache, elim or all`},
		{[]string{"-XX:HeapFoo=1", "Main"}, vmArgs{}, `unknown option "-XX:HeapFoo=1"`},
		{[]string{"-cp"}, vmArgs{}, "-cp: missing value"},
		{[]string{"-Xmx4m"}, vmArgs{}, "no class to run"},
	} {
		got, err := parseVMArgs(tc.args)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one containing %q", tc.args, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case !reflect.DeepEqual(*got, tc.want):
			t.Errorf("%q: got %+v, want %+v", tc.args, *got, tc.want)
		}
	}
}

// gcLine is the shape of ART's logcat GC line: cause, collector, "GC freed".
var gcLine = regexp.MustCompile(`^(Alloc|Explicit|Background|Stress) (sticky |partial )?(concurrent mark sweep|semispace) GC freed \d+\(\d+[KMG]?B\) AllocSpace objects, \d+\(\d+[KMG]?B\) LOS objects, \d+% free, \d+[KMG]?B/\d+[KMG]?B, paused [0-9.]+(s|ms|us|ns)? total [0-9.]+(s|ms|us|ns)?$`)

// TestVMRunVerboseGC runs an allocating workload in a small heap with
// -verbose:gc: the program's output is unchanged and every stderr line
// is a GC line.
// -verbose:barriers prints the barrier counts after the program's own
// output, which the barriers do not change.
func TestVMRunVerboseBarriers(t *testing.T) {
	c := newCLI(t)
	w, _ := workloads.Lookup("chess")
	data, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	c.write("chess.dex", string(data))
	quiet := c.ok("vm", "run", "--engine=aot", "-cp", "chess.dex", w.Main)
	stdout, stderr, code := c.run("vm", "run", "--engine=aot", "--barriers=all", "-verbose:barriers", "-cp", "chess.dex", w.Main)
	if code != 0 || stdout != quiet {
		t.Fatalf("exit %d, stdout %q; want 0, %q", code, stdout, quiet)
	}
	if !barrierLine.MatchString(stderr) {
		t.Errorf("stderr %q is not a barrier line", stderr)
	}
}

var barrierLine = regexp.MustCompile(`^barriers \(all\): [1-9][0-9]* in [1-9][0-9]* compiled methods; [1-9][0-9]* run, [1-9][0-9]* cache hits, [1-9][0-9]* recorded; access bitmap 4096KB\n$`)

func TestVMRunVerboseGC(t *testing.T) {
	c := newCLI(t)
	w, _ := workloads.Lookup("chess")
	data, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	c.write("chess.dex", string(data))
	quiet := c.ok("vm", "run", "-Xmx2m", "-cp", "chess.dex", w.Main)
	stdout, stderr, code := c.run("vm", "run", "-Xmx2m", "-verbose:gc", "-cp", "chess.dex", w.Main)
	if code != 0 || stdout != quiet {
		t.Fatalf("exit %d, stdout %q; want 0, %q", code, stdout, quiet)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d GC lines in a 2 MiB heap; stderr %q", len(lines), stderr)
	}
	for _, l := range lines {
		if !gcLine.MatchString(l) {
			t.Errorf("not a GC line: %q", l)
		}
	}
}
