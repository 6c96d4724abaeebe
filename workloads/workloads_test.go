package workloads_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/droidprof/droidprof/internal/javadex"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/vmconfig"
	"github.com/droidprof/droidprof/workloads"
	"github.com/droidprof/droidprof/workloads/internal/build"
)

// vmNotImplemented is the error vm.Run returns until the interpreter lands;
// the VM half of TestOracle skips on it.
const vmNotImplemented = "vm: not implemented yet"

// descriptor turns "pkg.Class" into "Lpkg/Class;".
func descriptor(class string) string {
	return "L" + strings.ReplaceAll(class, ".", "/") + ";"
}

// TestRegistry checks the registry against the files on disk: unique
// names, known suites, existing source directories, and no DEX file that
// nothing registers.
func TestRegistry(t *testing.T) {
	suites := map[string]bool{
		workloads.SuiteDPA: true, workloads.SuiteSciMark: true, workloads.SuiteCaffeineMark: true,
		workloads.SuiteChess: true, workloads.SuiteDeltaBlue: true, workloads.SuiteLeak: true, workloads.SuiteBinaryTrees: true,
	}
	names := map[string]bool{}
	sources := map[string]string{}
	for _, w := range workloads.All {
		if names[w.Name] {
			t.Errorf("duplicate workload %q", w.Name)
		}
		names[w.Name] = true
		if !suites[w.Suite] {
			t.Errorf("%s: unknown suite %q", w.Name, w.Suite)
		}
		if w.Main == "" || w.Doc == "" || len(w.Sources) == 0 {
			t.Errorf("%s: Main, Doc and Sources must be set: %+v", w.Name, w)
		}
		if (w.Suite == workloads.SuiteDPA) != (w.Method != "") {
			t.Errorf("%s: Method %q must be set exactly for the DPA suite", w.Name, w.Method)
		}
		key := strings.Join(w.Sources, ",")
		if prev, ok := sources[w.DEX]; ok && prev != key {
			t.Errorf("%s: %s built from %s here and from %s elsewhere", w.Name, w.DEX, key, prev)
		}
		sources[w.DEX] = key
		for _, s := range w.Sources {
			if st, err := os.Stat(filepath.Join("java", s)); err != nil || !st.IsDir() {
				t.Errorf("%s: source directory java/%s: %v", w.Name, s, err)
			}
		}
		if got, ok := workloads.Lookup(w.Name); !ok || got.Main != w.Main {
			t.Errorf("Lookup(%q) = %v, %v", w.Name, got, ok)
		}
	}
	files, err := filepath.Glob("dex/*.dex")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, ok := sources[filepath.Base(f)]; !ok {
			t.Errorf("%s is not used by any workload", f)
		}
	}
}

// TestDEX parses every registered DEX file with our reader and looks for
// the main class, its main method and, for the DPA suite, the profiled
// method.
func TestDEX(t *testing.T) {
	for _, w := range workloads.All {
		t.Run(w.Name, func(t *testing.T) {
			data, err := w.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			f, err := dex.Read(data)
			if err != nil {
				t.Fatalf("dex.Read(%s): %v", w.DEX, err)
			}
			want := descriptor(w.Main)
			found := false
			for _, cd := range f.ClassDefs {
				if f.TypeName(cd.Class) == want {
					found = true
				}
			}
			if !found {
				t.Errorf("%s has no class %s", w.DEX, want)
			}
			methods := map[string]bool{}
			for i := range f.Methods {
				methods[f.MethodName(uint32(i))] = true
			}
			wantMethods := []string{want + ".main:([Ljava/lang/String;)V"}
			if w.Method != "" {
				wantMethods = append(wantMethods, w.Method)
			}
			for _, m := range wantMethods {
				if !methods[m] {
					t.Errorf("%s has no method %s", w.DEX, m)
				}
			}
		})
	}
}

// TestFresh rebuilds every DEX file from java/ and requires it to equal the
// committed one byte for byte (dx output is deterministic), so the sources
// and dex/ cannot drift apart. Fix a failure with "go generate".
func TestFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("rebuilding all workloads takes tens of seconds")
	}
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := build.All(ctx, "java", out); err != nil {
		if errors.Is(err, javadex.ErrUnavailable) {
			testenv.SkipOrFail(t, "%v", err)
		}
		t.Fatal(err)
	}
	for _, f := range workloads.DEXFiles() {
		committed, err := os.ReadFile(filepath.Join("dex", f.Name))
		if err != nil {
			t.Errorf("%v (run go generate in workloads/)", err)
			continue
		}
		rebuilt, err := os.ReadFile(filepath.Join(out, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(committed, rebuilt) {
			t.Errorf("dex/%s is stale: rebuilt from java/ it differs (%d bytes, committed %d); run go generate in workloads/", f.Name, len(rebuilt), len(committed))
		}
	}
}

// classDirs compiles each DEX file's sources with javac once, for the JVM
// runs of TestOracle.
type classDirs struct {
	root string
	mu   sync.Mutex
	once map[string]*compiled
}

type compiled struct {
	once sync.Once
	dir  string
	err  error
}

func (c *classDirs) get(ctx context.Context, javac string, f workloads.DEXFile) (string, error) {
	c.mu.Lock()
	e := c.once[f.Name]
	if e == nil {
		e = &compiled{}
		c.once[f.Name] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.dir = filepath.Join(c.root, strings.TrimSuffix(f.Name, ".dex"))
		args := []string{"--release", "8", "-encoding", "UTF-8", "-nowarn", "-Xlint:none", "-d", e.dir}
		for _, s := range f.Sources {
			err := filepath.WalkDir(filepath.Join("java", s), func(path string, d os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(path, ".java") {
					args = append(args, path)
				}
				return err
			})
			if err != nil {
				e.err = err
				return
			}
		}
		if out, err := exec.CommandContext(ctx, javac, args...).CombinedOutput(); err != nil {
			e.err = errors.New("javac: " + err.Error() + "\n" + string(out))
		}
	})
	return e.dir, e.err
}

// runJVM runs main on the JVM's interpreter and returns stdout and stderr.
func runJVM(ctx context.Context, t *testing.T, java, classes, main string, args []string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, java, append([]string{"-Xint", "-cp", classes, main}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("java -Xint %s %v: %v\nstdout:\n%s\nstderr:\n%s", main, args, err, stdout.String(), stderr.String())
	}
	t.Logf("java -Xint %s: %v", main, time.Since(start).Round(time.Millisecond))
	return stdout.String(), stderr.String()
}

// gcEnv chooses the heap configurations TestOracle runs the workloads
// under: a comma list of vmconfig.ParseVariant names, e.g.
// "cms-stress-verify,ss-stress-verify" (slow: a collection at every
// allocation).
const gcEnv = "DROIDPROF_WORKLOADS_GC"

// TestOracle runs every workload on the JVM (java -Xint) and on our VM,
// under each collector (cms and ss, or $DROIDPROF_WORKLOADS_GC), and
// requires the same stdout and exit status 0. Until vm.Run is implemented
// the VM half skips. A timed DPA variant must also print the same stdout as
// its untimed program and report elapsed_ns on stderr.
func TestOracle(t *testing.T) {
	list := "cms,ss"
	if env := os.Getenv(gcEnv); env != "" {
		list = env
	}
	type variant struct {
		name string
		gc   gc.Config
	}
	var variants []variant
	for _, name := range strings.Split(list, ",") {
		c, err := vmconfig.ParseVariant(strings.TrimSpace(name))
		if err != nil {
			t.Fatalf("%s: %v", gcEnv, err)
		}
		variants = append(variants, variant{name, c})
	}
	javac, java, err := javadex.Tools()
	if err != nil {
		testenv.SkipOrFail(t, "%v", err)
	}
	// Parallel subtests run after this function returns: cancel in Cleanup.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	dirs := &classDirs{root: t.TempDir(), once: map[string]*compiled{}}
	files := map[string]workloads.DEXFile{}
	for _, f := range workloads.DEXFiles() {
		files[f.Name] = f
	}
	untimed := map[string]string{}
	for _, w := range workloads.All {
		if w.Suite == workloads.SuiteDPA && !strings.HasSuffix(w.Name, "-timed") {
			untimed[w.Name+"-timed"] = w.Main
		}
	}
	for _, w := range workloads.All {
		t.Run(w.Name, func(t *testing.T) {
			t.Parallel()
			classes, err := dirs.get(ctx, javac, files[w.DEX])
			if err != nil {
				t.Fatal(err)
			}
			want, stderr := runJVM(ctx, t, java, classes, w.Main, w.Args)
			first, _, _ := strings.Cut(want, "\n")
			t.Logf("JVM stdout, first line: %s", first)
			if want == "" {
				t.Fatal("the JVM printed nothing")
			}
			if main, ok := untimed[w.Name]; ok {
				if !strings.Contains(stderr, "elapsed_ns=") {
					t.Errorf("timed variant printed no elapsed_ns= on stderr: %q", stderr)
				}
				plain, _ := runJVM(ctx, t, java, classes, main, w.Args)
				if plain != want {
					t.Errorf("stdout of %s differs from %s:\n%s\nvs\n%s", w.Main, main, want, plain)
				}
			}

			for _, v := range variants {
				var stdout, vmStderr bytes.Buffer
				code, err := vm.Run(ctx, vm.Options{
					ClassPath: []string{filepath.Join("dex", w.DEX)},
					GC:        v.gc,
					Stdout:    &stdout,
					Stderr:    &vmStderr,
				}, w.Main, w.Args)
				if err != nil && err.Error() == vmNotImplemented {
					t.Skip(vmNotImplemented)
				}
				if err != nil {
					t.Fatalf("vm.Run under %s: %v\nstderr:\n%s", v.name, err, vmStderr.String())
				}
				if code != 0 {
					t.Errorf("vm.Run under %s: exit status %d, want 0\nstderr:\n%s", v.name, code, vmStderr.String())
				}
				if got := stdout.String(); got != want {
					t.Errorf("under %s, stdout differs from the JVM's\nVM:\n%s\nJVM:\n%s", v.name, got, want)
				}
			}
		})
	}
}
