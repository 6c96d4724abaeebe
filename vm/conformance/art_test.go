package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/droidprof/droidprof/internal/javadex"
	"github.com/droidprof/droidprof/internal/testenv"
)

// artPassList is the committed list of run-tests that pass on our VM. A
// listed test that fails is a regression.
var artPassList = filepath.Join("testdata", "art-pass.txt")

// jvmPassList is the committed list of Java-only run-tests that pass on the
// JVM, written by TestJVMARTRunTests in update mode. The conformance bar is
// measured on it.
var jvmPassList = filepath.Join("testdata", "jvm-pass.txt")

// artTimeout bounds one run-test on the VM.
const artTimeout = 20 * time.Second

// artLoadSensitive are run-tests that pass on an idle machine but not
// always on a loaded one (they race a timer or fill the heap against a
// deadline); update mode does not list them, so they cannot fail CI.
var artLoadSensitive = map[string]bool{
	"078-polymorphic-virtual": true,
	"080-oom-fragmentation":   true,
	"114-ParallelGC":          true, // 8 s of CPU on an idle machine, in a 20 s limit
	"053-wait-some":           true, // Object.wait(ms) within a few per cent of ms
}

// artArgs are the arguments ART's run-test passes to Main: the name of the
// JNI test library (run-test's --testlib). A few tests read args[0].
var artArgs = []string{"arttestd"}

// Outcomes of one run-test.
const (
	outcomePass        = "pass"
	outcomeFail        = "fail"
	outcomeBuildFailed = "build failed"
	outcomeNoVM        = "VM not implemented"
)

// TestARTSelection checks the selection rule on tests whose fate is known
// and logs the counts; it needs no compiler.
func TestARTSelection(t *testing.T) {
	root := artTestsRoot(t)
	tests, excluded, err := selectARTTests(root)
	if err != nil {
		t.Fatal(err)
	}
	selected := map[string]artTest{}
	for _, test := range tests {
		selected[test.Name] = test
	}
	for name, want := range map[string]bool{
		"001-HelloWorld":               true,  // src only
		"003-omnibus-opcodes":          false, // build script, src2
		"004-JniTest":                  false, // native code
		"555-UnsafeGetLong-regression": false, // System.loadLibrary
		"150-loadlibrary":              false, // mapLibraryName (JNI library)
		"565-checker-rotate":           true,  // src, src-art, smali
		"171-init-aste":                true,  // src-art needing libcore: build fails
		"097-duplicate-method":         false, // prebuilt classes.dex
	} {
		if _, ok := selected[name]; ok != want {
			t.Errorf("%s selected = %v, want %v", name, ok, want)
		}
	}
	smaliOnly, mixed := 0, 0
	for _, test := range tests {
		switch {
		case test.HasSmali && test.HasSrc:
			mixed++
		case test.HasSmali:
			smaliOnly++
		}
	}
	var reasons []string
	for r, n := range excluded {
		reasons = append(reasons, fmt.Sprintf("%4d %s", n, r))
	}
	sort.Strings(reasons)
	t.Logf("selected %d run-tests (%d with smali and Java, %d smali only); excluded:\n%s",
		len(tests), mixed, smaliOnly, strings.Join(reasons, "\n"))
}

// TestARTRunTests runs the selected ART run-tests on our VM under each
// heap configuration (see variants; $DROIDPROF_CONFORMANCE_GC), one
// subtest per variant and run-test (go test -run
// 'TestARTRunTests/^ss$/^001-HelloWorld$'). Output (stdout and stderr
// together, as Android 11's run-test records it) must equal expected.txt.
// Tests in the variant's pass list (testdata/art-pass.txt for cms,
// testdata/art-pass-ss.txt for ss, ...) must pass; others are skipped when
// they fail, and logged when they pass. A run-test that passes under cms
// and fails under another variant needs a cause in
// testdata/gc-differences.txt. With DROIDPROF_UPDATE_CONFORMANCE=1 a
// complete run rewrites each variant's list and the numbers in
// vm/CONFORMANCE.md.
func TestARTRunTests(t *testing.T) {
	root := artTestsRoot(t)
	tests, _, err := selectARTTests(root)
	if err != nil {
		t.Fatal(err)
	}
	vs := variants(t, artVariants)
	start := time.Now()
	builds, stats := buildARTTests(t, tests, t.TempDir(), true)
	t.Logf("built %d run-tests in %v (javac+dx: %d cached, %d built, %d failed, %v; smali: %d failed, %v)",
		len(tests), time.Since(start).Round(time.Millisecond), stats.Cached, stats.Built, stats.JavaFailed,
		stats.JavaTime.Round(time.Millisecond), stats.SmaliFailed, stats.SmaliTime.Round(time.Millisecond))
	names := map[string]bool{}
	for _, test := range tests {
		names[test.Name] = true
	}
	passLists := map[string]map[string]bool{}
	twinLists := map[string]map[string]bool{} // aot variant -> its interpreted twin's pass list
	for _, v := range vs {
		list := v.file("art-pass", ".txt")
		passList, err := readList(list)
		if err != nil {
			t.Fatal(err)
		}
		for name := range passList {
			if !names[name] {
				t.Errorf("%s lists %s, which is not a selected run-test", list, name)
			}
		}
		passLists[v.Name] = passList
		if v.aot() {
			twin := v.interpreted().file("art-pass", ".txt")
			if twinLists[v.Name], err = readList(twin); err != nil {
				t.Fatalf("%s answers to %s: %v", v.Name, twin, err)
			}
		}
	}

	var mu sync.Mutex
	outcomes := map[string]map[string]string{} // variant -> run-test -> outcome
	t.Cleanup(func() {
		for _, v := range vs {
			artSummary(t, v, len(tests), outcomes[v.Name], passLists[v.Name])
		}
		checkDifferences(t, differences(vs, len(tests), outcomes))
		checkAOTDifferences(t, aotDifferences(vs, len(tests), outcomes, twinLists))
	})
	for _, v := range vs {
		outcomes[v.Name] = map[string]string{}
		passList, list := passLists[v.Name], v.file("art-pass", ".txt")
		t.Run(v.Name, func(t *testing.T) {
			for _, test := range tests {
				b := builds[test.Name]
				t.Run(test.Name, func(t *testing.T) {
					t.Parallel()
					outcome, detail := runARTTest(t, test, b, v)
					mu.Lock()
					outcomes[v.Name][test.Name] = outcome
					mu.Unlock()
					switch {
					case outcome == outcomeNoVM:
						t.Skip(errNotImplemented)
					case outcome == outcomePass && !passList[test.Name]:
						t.Logf("passes but is not in %s (add it, or run with %s=1)", list, updateEnv)
					case outcome == outcomePass:
					case passList[test.Name]:
						t.Errorf("regression: %s: %s", outcome, detail)
					default:
						t.Skipf("known failure (not in %s): %s: %s", list, outcome, detail)
					}
				})
			}
		})
	}
}

// runARTTest runs one built test on the VM under the variant v and
// classifies the result.
func runARTTest(t *testing.T, test artTest, b *artBuild, v gcVariant) (outcome, detail string) {
	if b.Err != "" {
		return outcomeBuildFailed, firstLines(b.Err, 5)
	}
	want, err := os.ReadFile(filepath.Join(test.Dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := runVM(context.Background(), v, b.ClassPath, "Main", artArgs, artTimeout)
	if errors.Is(r.Err, errTimeout) {
		// A few run-tests take over half the limit alone, and go test runs
		// other packages beside this one: a timeout on a loaded host gets
		// one more run with twice the time, which a hang still fails.
		t.Logf("%s timed out after %v; running it again with %v", test.Name, artTimeout, 2*artTimeout)
		r = runVM(context.Background(), v, b.ClassPath, "Main", artArgs, 2*artTimeout)
	}
	if notImplemented(r.Err) {
		return outcomeNoVM, ""
	}
	if r.Err != nil {
		return outcomeFail, fmt.Sprintf("VM error: %v; output so far: %s", r.Err, firstDifference(string(want), r.Output))
	}
	if d := firstDifference(string(want), r.Output); d != "" {
		return outcomeFail, fmt.Sprintf("output differs (exit status %d): %s", r.Exit, d)
	}
	return outcomePass, ""
}

// artSummary logs a variant's totals and, in update mode after a complete
// run, rewrites its pass list and CONFORMANCE.md. The 90 % bar is
// measured on the default variant; the others answer to it through
// gc-differences.txt.
func artSummary(t *testing.T, v gcVariant, selected int, outcomes map[string]string, passList map[string]bool) {
	list := v.file("art-pass", ".txt")
	count := map[string]int{}
	var passing, newlyPassing []string
	for name, o := range outcomes {
		count[o]++
		if o == outcomePass {
			passing = append(passing, name)
			if !passList[name] {
				newlyPassing = append(newlyPassing, name)
			}
		}
	}
	sort.Strings(newlyPassing)
	t.Logf("ART run-tests under %s: %d selected, %d ran: %d pass, %d fail, %d build failed, %d skipped (%s); %d in %s",
		v.Name, selected, len(outcomes), count[outcomePass], count[outcomeFail], count[outcomeBuildFailed],
		count[outcomeNoVM], errNotImplemented, len(passList), list)
	if len(newlyPassing) > 0 && !updating() {
		t.Logf("%d run-tests pass under %s but are not in %s; run with %s=1 to add them: %s",
			len(newlyPassing), v.Name, list, updateEnv, strings.Join(newlyPassing, " "))
	}
	regressions := 0
	for name := range passList {
		if outcomes[name] != outcomePass {
			regressions++
		}
	}
	complete := len(outcomes) == selected && count[outcomeNoVM] == 0
	if complete && v.Name == defaultVariant {
		checkARTBar(t, outcomes, updating() && regressions == 0)
	}
	if !updating() {
		return
	}
	switch {
	case len(outcomes) != selected:
		t.Logf("%s=1: not updating %s, only %d of %d run-tests ran", updateEnv, list, len(outcomes), selected)
		return
	case regressions > 0:
		// A listed test that fails (perhaps only on a loaded machine) is
		// never dropped from the list by an update: fix it, or remove it
		// by hand with its cause.
		t.Logf("%s=1: not updating, %d listed run-tests failed", updateEnv, regressions)
		return
	case count[outcomeNoVM] > 0:
		t.Logf("%s=1: not updating, the VM is not implemented yet", updateEnv)
		return
	}
	under := ""
	if v.Name != defaultVariant {
		under = " under " + v.Name
	}
	header := "ART run-tests (vm/conformance TestARTRunTests) that pass on droidprof's VM" + under + ".\n" +
		"Regenerate with " + updateEnv + "=1 go test ./vm/conformance -run TestARTRunTests"
	listed := passing[:0:0]
	for _, name := range passing {
		if !artLoadSensitive[name] {
			listed = append(listed, name)
		}
	}
	if err := writeList(list, header, listed); err != nil {
		t.Error(err)
	}
	numbers := map[string]string{v.marker("art-pass"): strconv.Itoa(len(listed))}
	if v.Name == defaultVariant {
		numbers["art-selected"] = strconv.Itoa(selected)
		numbers["art-built"] = strconv.Itoa(selected - count[outcomeBuildFailed])
	}
	if err := setDocNumbers(numbers); err != nil {
		t.Error(err)
	}
	t.Logf("wrote %s (%d tests) and the numbers in %s", list, len(listed), conformanceDoc)
}

// artCausesList gives, for every run-test in jvmPassList that fails on our
// VM, the cause ("NNN-name: cause"). It is written by hand: a failure
// without a cause fails the suite, so the list in CONFORMANCE.md stays
// complete.
var artCausesList = filepath.Join("testdata", "art-causes.txt")

// artBar is the share of the run-tests the JVM passes that our VM must
// pass.
const artBar = 0.90

// checkARTBar measures the pass rate on the JVM-passing run-tests against
// artBar and checks that each of them that fails has a cause; with write
// it puts the rate and the causes into CONFORMANCE.md.
func checkARTBar(t *testing.T, outcomes map[string]string, write bool) {
	jvm, err := readList(jvmPassList)
	if err != nil {
		t.Fatal(err)
	}
	causes, err := readCauses(artCausesList)
	if err != nil {
		t.Fatal(err)
	}
	pass := 0
	byCause := map[string][]string{}
	for name := range jvm {
		if outcomes[name] == outcomePass {
			pass++
			if causes[name] != "" {
				t.Logf("%s passes now: remove it from %s", name, artCausesList)
			}
			continue
		}
		if causes[name] == "" && !artLoadSensitive[name] {
			t.Errorf("%s passes on the JVM but %s here, and %s gives no cause: add one", name, outcomes[name], artCausesList)
		}
		cause := causes[name]
		if artLoadSensitive[name] {
			cause = "load-sensitive: fails on a busy machine only (not listed in art-pass.txt)"
		}
		byCause[cause] = append(byCause[cause], name)
	}
	rate := float64(pass) / float64(len(jvm))
	t.Logf("of the %d Java-only run-tests the JVM passes, %d pass on our VM (%.1f %%, the bar is %.0f %%)", len(jvm), pass, 100*rate, 100*artBar)
	if rate < artBar {
		t.Errorf("%.1f %% of the JVM-passing run-tests pass, below the %.0f %% bar", 100*rate, 100*artBar)
	}
	if !write {
		return
	}
	var table strings.Builder
	table.WriteString("\n| Cause | Run-tests |\n|---|---|\n")
	var keys []string
	for c := range byCause {
		keys = append(keys, c)
	}
	sort.Strings(keys)
	for _, c := range keys {
		names := byCause[c]
		sort.Strings(names)
		fmt.Fprintf(&table, "| %s | `%s` |\n", c, strings.Join(names, "`, `"))
	}
	err = setDocNumbers(map[string]string{
		"art-bar-pass":  strconv.Itoa(pass),
		"art-bar-total": strconv.Itoa(len(jvm)),
		"art-bar-rate":  fmt.Sprintf("%.1f", 100*rate),
	})
	if err == nil {
		err = setDocBlock("art-causes", table.String())
	}
	if err != nil {
		t.Error(err)
	}
}

// readCauses reads "name: cause" lines; # starts a comment.
func readCauses(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read causes: %w", err)
	}
	causes := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, cause, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(cause) == "" {
			return nil, fmt.Errorf("%s:%d: want \"run-test: cause\", got %q", path, i+1, line)
		}
		causes[strings.TrimSpace(name)] = strings.TrimSpace(cause)
	}
	return causes, nil
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// jvmEnv gates TestJVMARTRunTests, which takes minutes and checks the
// harness rather than the VM.
const jvmEnv = "DROIDPROF_ART_JVM"

// TestJVMARTRunTests cross-checks the selection and the javac+dx build
// without our VM: it runs each selected test that has no smali (the JVM
// cannot load DEX) as "java -Xint -cp classes Main arttestd" on the class
// files javac produced, and compares the output with expected.txt like
// TestARTRunTests. ART-specific tests fail here; the point is the count,
// recorded in vm/CONFORMANCE.md (rewritten in update mode). Set
// DROIDPROF_ART_JVM=1 to run it.
func TestJVMARTRunTests(t *testing.T) {
	if os.Getenv(jvmEnv) != "1" {
		t.Skipf("set %s=1 to run the ART run-tests on the JVM", jvmEnv)
	}
	root := artTestsRoot(t)
	tests, _, err := selectARTTests(root)
	if err != nil {
		t.Fatal(err)
	}
	_, java, err := javadex.Tools()
	if err != nil {
		testenv.SkipOrFail(t, "%v", err)
	}
	start := time.Now()
	builds, stats := buildARTTests(t, tests, t.TempDir(), false)
	t.Logf("built in %v (%d cached, %d built, %d javac/dx failures)", time.Since(start).Round(time.Millisecond), stats.Cached, stats.Built, stats.JavaFailed)

	type result struct{ name, outcome, detail string }
	var jobs []artTest
	for _, test := range tests {
		if !test.HasSmali {
			jobs = append(jobs, test)
		}
	}
	results := make([]result, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	start = time.Now()
	for i, test := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o, d := runOnJVM(java, test, builds[test.Name])
			results[i] = result{test.Name, o, d}
		}()
	}
	wg.Wait()
	count := map[string]int{}
	var failures, passing []string
	for _, r := range results {
		count[r.outcome]++
		if r.outcome != outcomePass {
			failures = append(failures, fmt.Sprintf("%s: %s: %s", r.name, r.outcome, r.detail))
		} else {
			passing = append(passing, r.name)
		}
	}
	t.Logf("failures:\n%s", strings.Join(failures, "\n"))
	t.Logf("JVM (java -Xint): %d of %d Java-only selected run-tests pass, %d fail, %d build failed (%d smali tests not run; %v)",
		count[outcomePass], len(jobs), count[outcomeFail], count[outcomeBuildFailed], len(tests)-len(jobs), time.Since(start).Round(time.Second))
	if updating() {
		header := "Java-only ART run-tests that pass on the JVM (java -Xint): the denominator of the 90 % bar.\n" +
			"Regenerate with " + jvmEnv + "=1 " + updateEnv + "=1 go test ./vm/conformance -run TestJVMARTRunTests"
		if err := writeList(jvmPassList, header, passing); err != nil {
			t.Error(err)
		}
		err := setDocNumbers(map[string]string{
			"jvm-pass":  strconv.Itoa(count[outcomePass]),
			"jvm-total": strconv.Itoa(len(jobs)),
		})
		if err != nil {
			t.Error(err)
		}
	}
}

// jvmTimeout bounds one run-test on the JVM; -Xint is slow on the tests
// that loop to get code JIT-compiled.
const jvmTimeout = 60 * time.Second

// runOnJVM runs one test's class files on the JVM.
func runOnJVM(java string, test artTest, b *artBuild) (outcome, detail string) {
	if b.Err != "" {
		return outcomeBuildFailed, firstLines(b.Err, 3)
	}
	want, err := os.ReadFile(filepath.Join(test.Dir, "expected.txt"))
	if err != nil {
		return outcomeFail, err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), jvmTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, java, "-Xint", "-Xmx256m", "-Xss1m", "-cp", b.Classes, "Main")
	cmd.Args = append(cmd.Args, artArgs...)
	cmd.Dir = test.Dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ctx.Err() != nil {
		return outcomeFail, fmt.Sprintf("timed out after %v", jvmTimeout)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return outcomeFail, err.Error()
	}
	if d := firstDifference(string(want), out.String()); d != "" {
		return outcomeFail, d
	}
	return outcomePass, ""
}
