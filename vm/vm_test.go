package vm_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/droidprof/droidprof/internal/javadex"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
)

// compileJava builds testdata/java/NAME into a DEX file and a class
// directory (for the JVM), skipping or failing like other tool-dependent
// tests when javac or dx are missing.
func compileJava(t *testing.T, name string) (dexPath, classes string) {
	t.Helper()
	dir := t.TempDir()
	dexPath = filepath.Join(dir, name+".dex")
	classes = filepath.Join(dir, "classes")
	err := javadex.Compile(context.Background(), javadex.Options{
		Sources: []string{filepath.Join("testdata", "java", name)},
		Out:     dexPath,
		Classes: classes,
	})
	if errors.Is(err, javadex.ErrUnavailable) {
		testenv.SkipOrFail(t, "%v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dexPath, classes
}

// TestAgainstJVM runs our own Java test programs on the JVM (the oracle)
// and on the VM under each collector and requires identical stdout and
// exit status.
func TestAgainstJVM(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "java"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dexPath, classes := compileJava(t, name)
			_, java, err := javadex.Tools()
			if err != nil {
				testenv.SkipOrFail(t, "%v", err)
			}
			var jout bytes.Buffer
			cmd := exec.Command(java, "-Xss8m", "-Xmx64m", "-cp", classes, "Main")
			cmd.Stdout = &jout
			jerr := cmd.Run()
			jcode := 0
			var ee *exec.ExitError
			if errors.As(jerr, &ee) {
				jcode = ee.ExitCode()
			} else if jerr != nil {
				t.Fatal(jerr)
			}
			// Every program runs under both collectors: the copying one
			// moves objects under whatever the program does.
			for _, col := range []gc.Collector{gc.CMS, gc.SS} {
				var out, stderr bytes.Buffer
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				code, err := vm.Run(ctx, vm.Options{ClassPath: []string{dexPath}, GC: gc.Config{Max: 64 << 20, Collector: col}, Stdout: &out, Stderr: &stderr}, "Main", nil)
				cancel()
				if err != nil {
					t.Fatalf("vm (%s): %v\nstderr:\n%s", col, err, stderr.String())
				}
				if code != jcode || out.String() != jout.String() {
					t.Errorf("%s: exit %d (JVM %d)\n--- VM stdout:\n%s\n--- JVM stdout:\n%s\n--- VM stderr:\n%s", col, code, jcode, out.String(), jout.String(), stderr.String())
				}
			}
		})
	}
}
