// Command xintcompare times the SciMark-style and CaffeineMark-style
// kernels on droidprof's interpreter, on its aot engine (vm/aot/engine)
// and on the JVM's interpreter (java -Xint) with the same Java classes, and
// prints a Markdown table of the time ratios and of the interpreter's
// bytecodes per second (recorded in vm/BENCHMARKS.md and
// vm/aot/BENCHMARKS.md).
//
//	go run ./cmd/xintcompare [-rounds 5] [-kernels scimark-sor,caffeine-loop]
//
// With -gc it times the GC-heavy workloads (chess, DeltaBlue, binary-trees)
// instead, under each of droidprof's collectors and on java -Xint
// -XX:+UseSerialGC with the same -Xmx, and adds GC pause percentiles per
// collection kind and the allocation rate (see gc.go):
//
//	go run ./cmd/xintcompare -gc [-rounds 3] [-xmx 32] [-collectors cms,ss]
//
// It needs javac and java (Debian openjdk-17-jdk-headless). Runs of the two
// VMs alternate so that machine noise hits both alike; each figure is the
// median. The JVM time includes its start-up (about 40 ms, a few per cent of
// a run here), the droidprof time includes creating the VM.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/droidprof/droidprof/internal/javadex"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/workloads"
)

// kernels and the arguments that make each run about a second on
// java -Xint on the reference machine.
var kernels = []struct {
	workload string
	args     []string
}{
	{"scimark-fft", []string{"1024", "600"}},
	{"scimark-sor", []string{"200", "240"}},
	{"scimark-montecarlo", []string{"800000"}},
	{"scimark-sparse", []string{"1000", "5000", "4000"}},
	{"scimark-lu", []string{"450"}},
	{"caffeine-sieve", []string{"4000"}},
	{"caffeine-loop", []string{"4000"}},
	{"caffeine-logic", []string{"3000"}},
	{"caffeine-string", []string{"300"}},
	{"caffeine-float", []string{"100000"}},
	{"caffeine-method", []string{"1000"}},
}

func main() {
	rounds := flag.Int("rounds", 5, "runs of each VM per kernel")
	gcMode := flag.Bool("gc", false, "time the GC-heavy workloads under each collector instead of the SciMark and CaffeineMark kernels")
	only := flag.String("kernels", "", "only these kernels (workload names, comma-separated)")
	xmx := flag.Int("xmx", 32, "with -gc: the heap limit of both VMs, in MiB (-Xmx)")
	collectors := flag.String("collectors", "cms,ss", "with -gc: droidprof's collectors to run, comma-separated")
	flag.Parse()
	run := func() error { return run(*rounds, *only) }
	if *gcMode {
		run = func() error { return runGC(*rounds, *xmx, *collectors) }
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "xintcompare:", err)
		os.Exit(1)
	}
}

// tools finds javac and java, the module root and a fresh work directory
// (named after prefix), which the caller removes.
func tools(prefix string) (javac, java, root, work string, err error) {
	if javac, java, err = javadex.Tools(); err != nil {
		return
	}
	if root, err = moduleRoot(); err != nil {
		return
	}
	work, err = os.MkdirTemp("", prefix)
	return
}

func run(rounds int, only string) error {
	javac, java, root, work, err := tools("xintcompare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	fmt.Printf("| kernel | arguments | java -Xint (s) | droidprof (s) | ratio | bytecodes | droidprof Mbytecodes/s | aot (s) | aot ratio | interp/aot |\n")
	fmt.Printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, k := range kernels {
		if only != "" && !slices.Contains(strings.Split(only, ","), k.workload) {
			continue
		}
		w, classes, dexPath, err := prepare(javac, root, work, k.workload)
		if err != nil {
			return err
		}
		var jvmT, ourT, aotT []float64
		var jvmOut, ourOut, aotOut string
		for r := 0; r < rounds; r++ {
			d, out, err := timeJVM(java, classes, w.Main, k.args)
			if err != nil {
				return err
			}
			jvmT, jvmOut = append(jvmT, d.Seconds()), out
			d, out, _, err = timeVM(dexPath, w.Main, k.args, false, "interp")
			if err != nil {
				return err
			}
			ourT, ourOut = append(ourT, d.Seconds()), out
			d, out, _, err = timeVM(dexPath, w.Main, k.args, false, "aot")
			if err != nil {
				return err
			}
			aotT, aotOut = append(aotT, d.Seconds()), out
		}
		if jvmOut != ourOut || jvmOut != aotOut {
			return fmt.Errorf("%s: outputs differ:\njava: %s\ndroidprof: %s\naot: %s", w.Name, jvmOut, ourOut, aotOut)
		}
		_, _, total, err := timeVM(dexPath, w.Main, k.args, true, "interp")
		if err != nil {
			return err
		}
		jm, om, am := median(jvmT), median(ourT), median(aotT)
		fmt.Printf("| %s | %s | %.3f | %.3f | %.2f | %d | %.0f | %.3f | %.2f | %.2f |\n", w.Name, strings.Join(k.args, " "), jm, om, om/jm, total, float64(total)/om/1e6, am, am/jm, om/am)
	}
	return nil
}

// prepare compiles a workload's Java sources for the JVM into work and
// writes its committed DEX file next to them.
func prepare(javac, root, work, name string) (w workloads.Workload, classes, dexPath string, err error) {
	w, ok := workloads.Lookup(name)
	if !ok {
		return w, "", "", fmt.Errorf("no workload %s", name)
	}
	classes = filepath.Join(work, w.Name, "classes")
	var srcs []string
	for _, s := range w.Sources {
		srcs = append(srcs, filepath.Join(root, "workloads", "java", s))
	}
	if err := compile(javac, classes, srcs); err != nil {
		return w, "", "", err
	}
	dexPath = filepath.Join(work, w.Name, w.DEX)
	data, err := w.Bytes()
	if err != nil {
		return w, "", "", err
	}
	return w, classes, dexPath, os.WriteFile(dexPath, data, 0o644)
}

func compile(javac, classes string, srcs []string) error {
	var files []string
	for _, s := range srcs {
		err := filepath.WalkDir(s, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".java") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	out, err := exec.Command(javac, append([]string{"--release", "8", "-d", classes}, files...)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("javac: %v\n%s", err, out)
	}
	return nil
}

func timeJVM(java, classes, main string, args []string) (time.Duration, string, error) {
	var out bytes.Buffer
	cmd := exec.Command(java, append([]string{"-Xint", "-cp", classes, main}, args...)...)
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	return time.Since(start), out.String(), err
}

// timeVM runs main on droidprof's VM with the named engine; with count
// set it also returns the number of instructions executed (the
// interpreter counts them).
func timeVM(dexPath, main string, args []string, count bool, engine string) (time.Duration, string, uint64, error) {
	var out bytes.Buffer
	start := time.Now()
	v, err := vm.New(vm.Options{ClassPath: []string{dexPath}, Stdout: &out, Hooks: &runtime.Hooks{CountOpcodes: count}, Engine: engine})
	if err != nil {
		return 0, "", 0, err
	}
	code, err := v.RunMain(context.Background(), main, args)
	d := time.Since(start)
	if err == nil && code != 0 {
		err = fmt.Errorf("%s exited with %d", main, code)
	}
	var total uint64
	for _, n := range v.OpCounts() {
		total += n
	}
	return d, out.String(), total, err
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// moduleRoot finds the directory holding go.mod, for the workload sources.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("go.mod not found above the working directory")
		}
		dir = parent
	}
}
