package conformance

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/internal/debsrc"
	"github.com/droidprof/droidprof/internal/javadex"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// artPackage is the Debian source package holding ART's run-tests (its
// upstream tarball has the whole art/ tree; test/ is extracted).
const artPackage = "android-platform-art"

// artSmaliAPI is the API level smali files are assembled for, as smali's
// -a 28 (ART's own build passes --api 26; 28 selects DEX 039, which our
// assembler and VM target, and accepts everything 26 does).
const artSmaliAPI = 28

// artDXMinSDK is dx's --min-sdk-version, as d8's --min-api 26 in ART's
// build: needed for lambdas and default methods.
const artDXMinSDK = 26

// artTest is one selected run-test.
type artTest struct {
	Name     string // directory name, e.g. "001-HelloWorld"
	Dir      string
	HasSrc   bool // src/ or src-art/ with .java files
	HasSmali bool // smali/ with .smali files
}

// artAllowed are the only entries a selected test directory may have.
// Everything else means the test needs more than "javac src, smali smali,
// run Main": build/run/check scripts, jasmin, src2 (replacement classes),
// src-ex and src-multidex (class loaders, several DEX files), profiles,
// hidden-API flags, prebuilt classes.dex and other inputs only ART's
// scripts know how to use. src-art is allowed: it only holds the ART
// variant of some src files (see javaSources); where it needs Android's
// libcore, javac fails and the test counts as a build failure.
var artAllowed = map[string]bool{"info.txt": true, "expected.txt": true, "src": true, "src-art": true, "smali": true}

// nativeMarkers mark the sources of tests that need JNI code: they load
// libarttest(d), built from the *.cc files of all tests and test/common,
// whose name run-test passes as args[0] (System.loadLibrary, or through
// reflection System.mapLibraryName and Runtime.nativeLoad). Our VM has no
// JNI.
var nativeMarkers = []string{"loadLibrary", "mapLibraryName"}

// nativeExt are the extensions of files a selected test may not have:
// native code, built by ART's build into libarttest, and Python scripts
// (e.g. source generators).
var nativeExt = map[string]bool{".cc": true, ".c": true, ".h": true, ".cpp": true, ".py": true}

// artTestsRoot fetches ART's test/ directory, or skips (fails in CI).
func artTestsRoot(t *testing.T) string {
	t.Helper()
	dir := debsrc.ForTest(t, artPackage, "*/test/*")
	roots, _ := filepath.Glob(filepath.Join(dir, artPackage+"-*", "test"))
	if len(roots) != 1 {
		t.Fatalf("want one %s-*/test under %s, found %v", artPackage, dir, roots)
	}
	return roots[0]
}

// selectARTTests returns the "plain" run-tests under root in name order:
// directories named NNN-name with expected.txt and src/ or smali/, no other
// entries but src-art/ and info.txt (see artAllowed), no native code (*.cc, *.c, *.h, *.cpp) or
// Python anywhere below, and no System.loadLibrary in their sources (see
// nativeMarkers). excluded counts the others by their first reason.
func selectARTTests(root string) (selected []artTest, excluded map[string]int, err error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, fmt.Errorf("select run-tests: %w", err)
	}
	excluded = map[string]int{}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || len(name) < 4 || name[3] != '-' || strings.Trim(name[:3], "0123456789") != "" {
			continue // not a run-test (common/, etc/, dexdump/, ...)
		}
		test := artTest{Name: name, Dir: filepath.Join(root, name)}
		reason, err := excludeReason(&test)
		if err != nil {
			return nil, nil, err
		}
		if reason != "" {
			excluded[reason]++
			continue
		}
		selected = append(selected, test)
	}
	return selected, excluded, nil
}

// excludeReason returns why test is not selected, or "" if it is; it sets
// HasSrc and HasSmali.
func excludeReason(test *artTest) (string, error) {
	entries, err := os.ReadDir(test.Dir)
	if err != nil {
		return "", fmt.Errorf("select %s: %w", test.Name, err)
	}
	hasExpected := false
	for _, e := range entries {
		if nativeExt[filepath.Ext(e.Name())] {
			return "native code or Python", nil
		}
		if !artAllowed[e.Name()] {
			return "has " + e.Name(), nil
		}
		hasExpected = hasExpected || e.Name() == "expected.txt"
	}
	if !hasExpected {
		return "no expected.txt", nil
	}
	reason := ""
	err = filepath.WalkDir(test.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || reason != "" {
			return err
		}
		switch ext := filepath.Ext(path); {
		case nativeExt[ext]:
			reason = "native code or Python"
		case ext == ".java" || ext == ".smali":
			if filepath.Ext(path) == ".java" {
				test.HasSrc = true
			} else {
				test.HasSmali = true
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range nativeMarkers {
				if strings.Contains(string(src), m) {
					reason = "loads the JNI test library"
				}
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("select %s: %w", test.Name, err)
	}
	if reason == "" && !test.HasSrc && !test.HasSmali {
		reason = "no sources"
	}
	return reason, nil
}

// artBuild is what building one test produced.
type artBuild struct {
	ClassPath []string // DEX files for vm.Options.ClassPath, smali's first
	Classes   string   // javac's output directory, for the JVM cross-check
	Err       string   // the build failure (javac, dx or smali), if any
}

// artCacheRoot is where built DEX files are kept between runs.
func artCacheRoot() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("art run-test cache: %w", err)
	}
	return filepath.Join(cache, "droidprof", "art-run-tests"), nil
}

// buildStats describes one buildARTTests call, for the log.
type buildStats struct {
	Cached, Built, JavaFailed, SmaliFailed int
	JavaTime, SmaliTime                    time.Duration
}

// buildARTTests builds every test: the Java side (javac --release 8 and
// dx --min-sdk-version=26 to classes.dex) through the user cache, building
// all missing tests in one JVM (testdata/DexBuilder.java); the smali side
// (smali/ to smali_classes.dex, API 28) with our assembler into tmp, when
// withSmali. Build failures are recorded in the result, not returned.
func buildARTTests(t *testing.T, tests []artTest, tmp string, withSmali bool) (map[string]*artBuild, buildStats) {
	t.Helper()
	var stats buildStats
	start := time.Now()
	builds := make(map[string]*artBuild, len(tests))
	java, err := buildJava(t, tests, &stats)
	if err != nil {
		t.Fatalf("build ART run-tests: %v", err)
	}
	stats.JavaTime = time.Since(start)
	start = time.Now()
	for _, test := range tests {
		b := &artBuild{}
		builds[test.Name] = b
		if withSmali && test.HasSmali {
			out := filepath.Join(tmp, test.Name+"-smali_classes.dex")
			if err := assembleDir(filepath.Join(test.Dir, "smali"), out); err != nil {
				b.Err = "smali: " + err.Error()
				stats.SmaliFailed++
			} else {
				b.ClassPath = append(b.ClassPath, out)
			}
		}
		if test.HasSrc {
			j := java[test.Name]
			b.Classes = filepath.Join(j, "classes")
			if msg, err := os.ReadFile(filepath.Join(j, "build-error.txt")); err == nil {
				if b.Err == "" {
					b.Err = strings.TrimSpace(string(msg))
				}
				stats.JavaFailed++
			} else {
				b.ClassPath = append(b.ClassPath, filepath.Join(j, "classes.dex"))
			}
		}
	}
	stats.SmaliTime = time.Since(start)
	return builds, stats
}

// buildJava returns, for every test with Java sources, its cache directory
// holding classes/ and classes.dex, or build-error.txt. Missing entries are
// built first, all in one JVM.
func buildJava(t *testing.T, tests []artTest, stats *buildStats) (map[string]string, error) {
	t.Helper()
	javac, java, err := javadex.Tools()
	if err == nil {
		_, err = javadex.DXJar()
	}
	if errors.Is(err, javadex.ErrUnavailable) {
		testenv.SkipOrFail(t, "building ART run-tests: %v", err)
	}
	if err != nil {
		return nil, err
	}
	dxJar, _ := javadex.DXJar()
	version, err := exec.Command(javac, "-version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("javac -version: %v\n%s", err, version)
	}
	driver, err := os.ReadFile(filepath.Join("testdata", "DexBuilder.java"))
	if err != nil {
		return nil, err
	}
	// The key covers everything the output depends on: the sources, the
	// compilers and the driver (its options).
	recipe := sha256.New()
	fmt.Fprintf(recipe, "dx %s\njavac %s\ndriver %x\n", javadex.DXJarSHA256, strings.TrimSpace(string(version)), sha256.Sum256(driver))
	recipeSum := recipe.Sum(nil)

	root, err := artCacheRoot()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("art run-test cache: %w", err)
	}
	dirs := map[string]string{}
	var missing []artTest
	sources := map[string][]string{}
	for _, test := range tests {
		if !test.HasSrc {
			continue
		}
		files, key, err := sourceKey(test.Dir, recipeSum)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", test.Name, err)
		}
		dir := filepath.Join(root, test.Name+"-"+key)
		dirs[test.Name] = dir
		if _, err := os.Stat(dir); err == nil {
			stats.Cached++
			continue
		}
		missing = append(missing, test)
		sources[test.Name] = files
	}
	if len(missing) == 0 {
		return dirs, nil
	}
	stats.Built = len(missing)

	// Build into a staging directory in the cache root, then rename each
	// finished test into place: a cache entry is complete or absent, also
	// if another test binary builds the same tests at the same time.
	staging, err := os.MkdirTemp(root, "staging-")
	if err != nil {
		return nil, fmt.Errorf("art run-test cache: %w", err)
	}
	defer os.RemoveAll(staging)
	bin := filepath.Join(staging, "driver")
	if out, err := exec.Command(javac, "--release", "11", "-nowarn", "-d", bin, "-cp", dxJar, filepath.Join("testdata", "DexBuilder.java")).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("compile testdata/DexBuilder.java: %v\n%s", err, out)
	}
	var jobs strings.Builder
	for _, test := range missing {
		list := filepath.Join(staging, test.Name+".sources")
		if err := os.WriteFile(list, []byte(strings.Join(sources[test.Name], "\n")+"\n"), 0o644); err != nil {
			return nil, err
		}
		out := filepath.Join(staging, test.Name)
		if err := os.Mkdir(out, 0o755); err != nil {
			return nil, err
		}
		fmt.Fprintf(&jobs, "%s\t%s\t%s\n", test.Name, list, out)
	}
	jobsFile := filepath.Join(staging, "jobs.txt")
	if err := os.WriteFile(jobsFile, []byte(jobs.String()), 0o644); err != nil {
		return nil, err
	}
	if err := runDriver(t, java, bin+string(os.PathListSeparator)+dxJar, jobsFile, len(missing)); err != nil {
		return nil, err
	}
	for _, test := range missing {
		out := filepath.Join(staging, test.Name)
		_, errDex := os.Stat(filepath.Join(out, "classes.dex"))
		_, errMsg := os.Stat(filepath.Join(out, "build-error.txt"))
		if errDex != nil && errMsg != nil {
			return nil, fmt.Errorf("DexBuilder left no classes.dex or build-error.txt for %s", test.Name)
		}
		if err := os.Rename(out, dirs[test.Name]); err != nil {
			if _, statErr := os.Stat(dirs[test.Name]); statErr != nil {
				return nil, fmt.Errorf("art run-test cache: %w", err)
			}
			// Another process published the same entry first.
		}
	}
	return dirs, nil
}

// runDriver runs DexBuilder on the jobs file, logging progress now and then
// (a cold build takes minutes).
func runDriver(t *testing.T, java, classPath, jobsFile string, n int) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, java, "-cp", classPath, "DexBuilder", jobsFile)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	t.Logf("building %d ART run-tests with javac and dx in one JVM", n)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start DexBuilder: %w", err)
	}
	done := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "done ") {
			done++
			if done%100 == 0 {
				t.Logf("built %d/%d", done, n)
			}
		}
	}
	_, _ = io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("DexBuilder: %v (%d of %d jobs done)\n%s", err, done, n, stderr.String())
	}
	return nil
}

// javaSources returns the Java files javac compiles for the test in
// testDir, by path relative to testDir, in lexical order: those of src/
// and src-art/, where a src-art file replaces the src file of the same
// name. ART's build compiles src-art after src into the same directory, so
// its classes win; compiling only the winners in one javac run does the
// same without duplicate classes.
func javaSources(testDir string) ([]string, error) {
	byName := map[string]string{}
	for _, sub := range []string{"src", "src-art"} {
		dir := filepath.Join(testDir, sub)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".java") {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			byName[rel] = filepath.Join(sub, rel)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	files := make([]string, 0, len(byName))
	for _, f := range byName {
		files = append(files, f)
	}
	sort.Strings(files)
	return files, nil
}

// sourceKey returns the test's Java sources (absolute paths) and a cache
// key hashing the recipe with their paths and contents.
func sourceKey(testDir string, recipe []byte) (files []string, key string, err error) {
	rels, err := javaSources(testDir)
	if err != nil {
		return nil, "", err
	}
	h := sha256.New()
	h.Write(recipe)
	for _, rel := range rels {
		path := filepath.Join(testDir, rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
		h.Write(data)
		files = append(files, path)
	}
	return files, hex.EncodeToString(h.Sum(nil))[:16], nil
}

// assembleDir assembles every .smali file below dir into one DEX file.
func assembleDir(dir, out string) error {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".smali") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	var classes []*ast.Class
	for _, f := range files {
		c, err := smali.ParseFile(f, &smali.Options{API: artSmaliAPI})
		if err != nil {
			return err
		}
		classes = append(classes, c)
	}
	data, err := smali.Assemble(classes, &smali.AssembleOptions{API: artSmaliAPI})
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
