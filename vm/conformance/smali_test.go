package conformance

import (
	"context"
	"fmt"
	"github.com/droidprof/droidprof/internal/smalisuite"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/internal/debsrc"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// smaliTestCount is the number of @Test methods in smali-integration-tests.
const smaliTestCount = 232

// smaliFloorFile holds the committed minimum number of passing tests.
var smaliFloorFile = filepath.Join("testdata", "smali-floor.txt")

// smaliTimeout bounds the run of all the tests on the VM; under GC
// stress, which collects at every allocation, smaliStressTimeout does.
const (
	smaliTimeout       = 120 * time.Second
	smaliStressTimeout = 300 * time.Second
)

// smaliAPI is the API level the suite is assembled for (smali -a 28).
const smaliAPI = 28

// junitTest is one @Test method.
type junitTest struct {
	Class    string // descriptor, e.g. "LFormat10t;"
	Method   string
	Proto    string // must be "()V"
	Expected string // descriptor from @Test(expected=...), or ""
}

// Name is how the driver reports the test: "Class.method".
func (j junitTest) Name() string {
	c := strings.TrimSuffix(strings.TrimPrefix(j.Class, "L"), ";")
	return strings.ReplaceAll(c, "/", ".") + "." + j.Method
}

// smaliSuiteFiles fetches smali-integration-tests and returns its .smali
// files (path relative to src/test/smali → source) after the syntax
// updates, without the two TestSuite.smali files: they hold no tests, only
// JUnit runner annotations, and both define class AllTests.
func smaliSuiteFiles(t *testing.T) map[string][]byte {
	t.Helper()
	dir := debsrc.ForTest(t, "libsmali-java", "*/smali-integration-tests/*")
	roots, _ := filepath.Glob(filepath.Join(dir, "*", "smali-integration-tests", "src", "test", "smali"))
	if len(roots) != 1 {
		t.Fatalf("want one smali-integration-tests/src/test/smali under %s, found %v", dir, roots)
	}
	files := map[string][]byte{}
	err := filepath.WalkDir(roots[0], func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".smali") || d.Name() == "TestSuite.smali" {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(roots[0], path)
		files[rel], _ = smalisuite.UpdateSyntax(src)
		return nil
	})
	if err != nil {
		t.Fatalf("read smali-integration-tests: %v", err)
	}
	return files
}

// parseAll parses smali sources in name order.
func parseAll(files map[string][]byte) ([]*ast.Class, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var classes []*ast.Class
	for _, n := range names {
		c, err := smali.Parse(n, files[n], &smali.Options{API: smaliAPI})
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", n, err)
		}
		classes = append(classes, c)
	}
	return classes, nil
}

// junitTests finds the methods annotated @org.junit.Test in a DEX file, in
// class and method order, with the annotation's expected element.
func junitTests(f *dex.File) []junitTest {
	var tests []junitTest
	for _, cd := range f.ClassDefs {
		if cd.Annotations == nil {
			continue
		}
		for _, ma := range cd.Annotations.Methods {
			if ma.Set == nil {
				continue
			}
			for _, a := range ma.Set.Items {
				if f.TypeName(a.Type) != "Lorg/junit/Test;" {
					continue
				}
				m := f.Methods[ma.Method]
				j := junitTest{Class: f.TypeName(cd.Class), Method: f.Str(m.Name), Proto: f.ProtoString(m.Proto)}
				for _, el := range a.Elements {
					// JUnit's default, Test.None, means no exception.
					if f.Str(el.Name) == "expected" && el.Value.Kind == dex.ValueType {
						if e := f.TypeName(el.Value.Index()); e != "Lorg/junit/Test$None;" {
							j.Expected = e
						}
					}
				}
				tests = append(tests, j)
			}
		}
	}
	return tests
}

// driverSource generates class Main, whose main runs every test through a
// static method of its own, t<N>: new-instance, <init>, invoke-virtual in
// a catch-all, then one line "PASS Class.method" or "FAIL Class.method:
// <exception>" on System.out. The VM has no reflection, so JUnit's runner
// cannot be used. A failure while describing the exception (its toString
// throwing) still prints a FAIL line, so one test cannot stop the others.
func driverSource(tests []junitTest) (string, error) {
	var b strings.Builder
	b.WriteString(".class public LMain;\n.super Ljava/lang/Object;\n.source \"Main.smali\"\n\n")
	b.WriteString(".method public static main([Ljava/lang/String;)V\n    .registers 1\n")
	for i := range tests {
		fmt.Fprintf(&b, "    invoke-static {}, LMain;->t%d()V\n", i)
	}
	b.WriteString("    return-void\n.end method\n")
	for i, j := range tests {
		name := j.Name()
		if strings.ContainsAny(name, "\"\\\n") {
			return "", fmt.Errorf("test name %q cannot be a smali string literal", name)
		}
		if j.Proto != "()V" {
			// JUnit rejects such methods too; report rather than call.
			fmt.Fprintf(&b, "\n.method private static t%d()V\n    .registers 2\n", i)
			fmt.Fprintf(&b, "    const-string v0, \"FAIL %s: @Test method must be ()V, is %s\"\n", name, j.Proto)
			b.WriteString("    sget-object v1, Ljava/lang/System;->out:Ljava/io/PrintStream;\n")
			b.WriteString("    invoke-virtual {v1, v0}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V\n    return-void\n.end method\n")
			continue
		}
		fmt.Fprintf(&b, "\n.method private static t%d()V\n    .registers 3\n", i)
		b.WriteString("    :try_start\n")
		fmt.Fprintf(&b, "    new-instance v0, %s\n", j.Class)
		fmt.Fprintf(&b, "    invoke-direct {v0}, %s-><init>()V\n", j.Class)
		fmt.Fprintf(&b, "    invoke-virtual {v0}, %s->%s()V\n", j.Class, j.Method)
		b.WriteString("    :try_end\n    .catchall {:try_start .. :try_end} :threw\n")
		if j.Expected != "" {
			fmt.Fprintf(&b, "    const-string v1, \"FAIL %s: expected exception %s\"\n    goto :print\n", name, j.Expected)
		} else {
			fmt.Fprintf(&b, "    const-string v1, \"PASS %s\"\n    goto :print\n", name)
		}
		b.WriteString("    :threw\n    move-exception v0\n")
		if j.Expected != "" {
			fmt.Fprintf(&b, "    instance-of v1, v0, %s\n    if-eqz v1, :describe\n", j.Expected)
			fmt.Fprintf(&b, "    const-string v1, \"PASS %s\"\n    goto :print\n", name)
		}
		b.WriteString("    :describe\n    :describe_start\n")
		b.WriteString("    new-instance v1, Ljava/lang/StringBuilder;\n")
		fmt.Fprintf(&b, "    const-string v2, \"FAIL %s: \"\n", name)
		b.WriteString("    invoke-direct {v1, v2}, Ljava/lang/StringBuilder;-><init>(Ljava/lang/String;)V\n")
		b.WriteString("    invoke-virtual {v1, v0}, Ljava/lang/StringBuilder;->append(Ljava/lang/Object;)Ljava/lang/StringBuilder;\n")
		b.WriteString("    invoke-virtual {v1}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;\n")
		b.WriteString("    move-result-object v1\n")
		b.WriteString("    :describe_end\n    .catchall {:describe_start .. :describe_end} :undescribed\n    goto :print\n")
		fmt.Fprintf(&b, "    :undescribed\n    const-string v1, \"FAIL %s: (the exception's toString threw)\"\n", name)
		b.WriteString("    :print\n    sget-object v2, Ljava/lang/System;->out:Ljava/io/PrintStream;\n")
		b.WriteString("    invoke-virtual {v2, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V\n")
		b.WriteString("    return-void\n.end method\n")
	}
	return b.String(), nil
}

// buildSmaliSuite assembles the suite, the Assert shim and the generated
// driver into one DEX file in dir and returns its path and the tests.
func buildSmaliSuite(t *testing.T, dir string) (string, []junitTest) {
	t.Helper()
	files := smaliSuiteFiles(t)
	shim, err := os.ReadFile(filepath.Join("testdata", "junit", "org", "junit", "Assert.smali"))
	if err != nil {
		t.Fatal(err)
	}
	files["org/junit/Assert.smali"] = shim
	classes, err := parseAll(files)
	if err != nil {
		t.Fatal(err)
	}
	// Assemble once without the driver to find the tests in the DEX, as a
	// runner would find them by reflection.
	data, err := smali.Assemble(classes, &smali.AssembleOptions{API: smaliAPI})
	if err != nil {
		t.Fatalf("assemble smali-integration-tests: %v", err)
	}
	f, err := dex.Read(data)
	if err != nil {
		t.Fatalf("read assembled smali-integration-tests: %v", err)
	}
	tests := junitTests(f)
	if len(tests) != smaliTestCount {
		t.Errorf("found %d @Test methods, want %d", len(tests), smaliTestCount)
	}
	src, err := driverSource(tests)
	if err != nil {
		t.Fatal(err)
	}
	driver, err := smali.Parse("Main.smali", []byte(src), &smali.Options{API: smaliAPI})
	if err != nil {
		t.Fatalf("generated driver: %v", err)
	}
	data, err = smali.Assemble(append(classes, driver), &smali.AssembleOptions{API: smaliAPI})
	if err != nil {
		t.Fatalf("assemble smali-integration-tests with the driver: %v", err)
	}
	out := filepath.Join(dir, "smali-integration-tests.dex")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out, tests
}

// parseDriverOutput maps each test name to "" (pass) or its failure, from
// the driver's output; tests without a line are absent.
func parseDriverOutput(out string) map[string]string {
	res := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if name, ok := strings.CutPrefix(line, "PASS "); ok {
			res[name] = ""
		} else if rest, ok := strings.CutPrefix(line, "FAIL "); ok {
			name, msg, _ := strings.Cut(rest, ": ")
			res[name] = "fails: " + msg
		}
	}
	return res
}

// TestSmaliIntegration runs smali's smali-integration-tests (232 JUnit
// tests written in smali) on our VM through a generated driver, under each
// heap configuration (see variants; $DROIDPROF_CONFORMANCE_GC), a subtest
// per variant, and fails if fewer pass than the variant's floor says
// (testdata/smali-floor.txt for cms, testdata/smali-floor-ss.txt for ss,
// ...). With DROIDPROF_UPDATE_CONFORMANCE=1 a higher count raises the
// floor and the number in vm/CONFORMANCE.md.
func TestSmaliIntegration(t *testing.T) {
	path, tests := buildSmaliSuite(t, t.TempDir())
	for _, v := range variants(t, smaliVariants) {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			runSmaliSuite(t, v, path, tests)
		})
	}
}

// runSmaliSuite runs the assembled suite under one variant and checks its
// count against the variant's floor.
func runSmaliSuite(t *testing.T, v gcVariant, path string, tests []junitTest) {
	floorFile := v.file("smali-floor", ".txt")
	floorText, err := os.ReadFile(floorFile)
	if err != nil {
		t.Fatalf("%v (a new variant: run with %s=1 to write its floor)", err, updateEnv)
	}
	floor, err := strconv.Atoi(strings.TrimSpace(string(floorText)))
	if err != nil {
		t.Fatalf("%s: %v", floorFile, err)
	}
	limit := smaliTimeout
	if v.GC.Stress {
		limit = smaliStressTimeout
	}
	start := time.Now()
	r := runVM(context.Background(), v, []string{path}, "Main", nil, limit)
	if notImplemented(r.Err) {
		t.Skip(errNotImplemented)
	}
	results := parseDriverOutput(r.Output)
	pass := 0
	for _, j := range tests {
		msg, ok := results[j.Name()]
		switch {
		case !ok:
			t.Logf("%s: no result (the driver stopped: exit status %d, %v)", j.Name(), r.Exit, r.Err)
		case msg != "":
			t.Logf("%s: %s", j.Name(), msg)
		default:
			pass++
		}
	}
	t.Logf("%d of %d smali-integration-tests pass under %s in %v (floor %d, in %s)", pass, len(tests), v.Name,
		time.Since(start).Round(time.Millisecond), floor, floorFile)
	if r.Err != nil || r.Exit != 0 {
		t.Logf("driver: exit status %d, error %v; output ends: %s", r.Exit, r.Err, lastLines(r.Output, 5))
	}
	switch {
	case pass < floor:
		t.Errorf("regression: %d tests pass under %s, fewer than the floor %d", pass, v.Name, floor)
	case pass > floor && updating():
		if err := os.WriteFile(floorFile, []byte(strconv.Itoa(pass)+"\n"), 0o644); err != nil {
			t.Error(err)
		}
		if err := setDocNumbers(map[string]string{v.marker("smali-pass"): strconv.Itoa(pass)}); err != nil {
			t.Error(err)
		}
		t.Logf("raised the floor in %s to %d", floorFile, pass)
	case pass > floor:
		t.Logf("%d tests pass, above the floor %d: raise it in %s (or run with %s=1)", pass, floor, floorFile, updateEnv)
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// smaliJVMEnv gates TestJVMSmaliIntegration.
const smaliJVMEnv = "DROIDPROF_SMALI_JVM"

// TestJVMSmaliIntegration cross-checks the generated driver and the Assert
// shim without our VM: it converts the assembled suite to class files with
// enjarify (Debian package enjarify) and runs the driver on the JVM. The
// JVM's verifier is turned off because enjarify writes a string constant
// value the verifier rejects (StaticFieldInitializerTest), which would
// otherwise stop Main from loading; the tests of that class then crash the
// JVM, so the count covers the lines printed before. Set
// DROIDPROF_SMALI_JVM=1 to run it.
func TestJVMSmaliIntegration(t *testing.T) {
	if os.Getenv(smaliJVMEnv) != "1" {
		t.Skipf("set %s=1 to run smali-integration-tests on the JVM", smaliJVMEnv)
	}
	enjarify := testenv.Tool(t, "enjarify", "enjarify")
	java := testenv.Tool(t, "java", "openjdk-17-jdk-headless")
	dir := t.TempDir()
	path, tests := buildSmaliSuite(t, dir)
	jar := filepath.Join(dir, "suite.jar")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, enjarify, "-f", "-o", jar, path)
	cmd.Env = append(os.Environ(), "PYTHON=/usr/bin/python3")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("enjarify: %v\n%s", err, lastLines(string(out), 5))
	}
	t.Logf("enjarify: %s", lastLines(string(out), 1))
	cmd = exec.CommandContext(ctx, java, "-Xint", "-XX:+UnlockDiagnosticVMOptions",
		"-XX:-BytecodeVerificationRemote", "-XX:-BytecodeVerificationLocal", "-XX:-CreateCoredumpOnCrash",
		"-XX:ErrorFile="+filepath.Join(dir, "hs_err.log"), "-cp", jar, "Main")
	out, err = cmd.CombinedOutput()
	results := parseDriverOutput(string(out))
	pass := 0
	for _, j := range tests {
		msg, ok := results[j.Name()]
		switch {
		case !ok:
			t.Logf("%s: no result", j.Name())
		case msg != "":
			t.Logf("%s: %s", j.Name(), msg)
		default:
			pass++
		}
	}
	t.Logf("JVM (enjarify, java -Xint): %d of %d smali-integration-tests pass (java: %v)", pass, len(tests), err)
	if updating() {
		if err := setDocNumbers(map[string]string{"smali-jvm-pass": strconv.Itoa(pass)}); err != nil {
			t.Error(err)
		}
	}
}
