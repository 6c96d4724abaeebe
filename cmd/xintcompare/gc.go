package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
)

// gcWorkloads are the GC-heavy workloads, with arguments that make each
// run one to two seconds on java -Xint on the reference machine.
var gcWorkloads = []struct {
	workload string
	args     []string
}{
	{"chess", []string{"4"}},
	{"deltablue", []string{"1000", "12"}},
	{"binary-trees", []string{"15"}},
}

// pause is one collection as the benchmark reports it: its kind, the
// time the program was stopped, and the collection's whole time.
type pause struct {
	kind            string
	pause, duration time.Duration
}

// gcRun is one timed run of a program.
type gcRun struct {
	elapsed time.Duration
	stdout  string
	gcs     []pause
}

// runGC prints the GC benchmark's tables: whole-run times of each
// collector against java -Xint -XX:+UseSerialGC with the same heap limit,
// then per VM and collection kind the pause and GC time percentiles, and
// droidprof's allocation rate.
func runGC(rounds, xmxMiB int, collectorList string) error {
	var collectors []gc.Collector
	for _, name := range strings.Split(collectorList, ",") {
		c, err := gc.ParseCollector(strings.TrimSpace(name))
		if err != nil {
			return fmt.Errorf("-collectors: %w", err)
		}
		collectors = append(collectors, c)
	}
	javac, java, root, work, err := tools("xintcompare-gc-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	var timeRows, gcRows []string
	for _, k := range gcWorkloads {
		w, classes, dexPath, err := prepare(javac, root, work, k.workload)
		if err != nil {
			return err
		}
		jvm := make([]gcRun, 0, rounds)
		ours := make([][]gcRun, len(collectors))
		// Rounds alternate the VMs so that the host's slow drifts hit all.
		for r := 0; r < rounds; r++ {
			run, err := timeJVMGC(java, classes, w.Main, k.args, xmxMiB, filepath.Join(work, "gc.log"))
			if err != nil {
				return fmt.Errorf("%s on java: %w", w.Name, err)
			}
			jvm = append(jvm, run)
			for i, c := range collectors {
				run, err := timeVMGC(dexPath, w.Main, k.args, gc.Config{Collector: c, Max: uint32(xmxMiB) << 20})
				if err != nil {
					return fmt.Errorf("%s under %s: %w", w.Name, c, err)
				}
				if run.stdout != jvm[0].stdout {
					return fmt.Errorf("%s under %s: outputs differ:\njava: %s\ndroidprof: %s", w.Name, c, jvm[0].stdout, run.stdout)
				}
				ours[i] = append(ours[i], run)
			}
		}
		jvmT := medianElapsed(jvm)
		row := fmt.Sprintf("| %s | %s | %dm | %.3f |", w.Name, strings.Join(k.args, " "), xmxMiB, jvmT)
		gcRows = append(gcRows, gcTableRows(w.Name, "java -Xint -XX:+UseSerialGC", jvm, "")...)
		for i, c := range collectors {
			t := medianElapsed(ours[i])
			row += fmt.Sprintf(" %.3f | %.2f |", t, t/jvmT)
			bytes, err := allocatedBytes(dexPath, w.Main, k.args, gc.Config{Collector: c, Max: uint32(xmxMiB) << 20})
			if err != nil {
				return fmt.Errorf("%s under %s: %w", w.Name, c, err)
			}
			rate := fmt.Sprintf("%.1f MB in %.3f s: %.0f MB/s", float64(bytes)/1e6, t, float64(bytes)/1e6/t)
			gcRows = append(gcRows, gcTableRows(w.Name, "droidprof "+string(c), ours[i], rate)...)
		}
		timeRows = append(timeRows, row)
	}

	fmt.Printf("| workload | arguments | -Xmx | java -Xint -XX:+UseSerialGC (s) |")
	for _, c := range collectors {
		fmt.Printf(" droidprof %s (s) | ratio |", c)
	}
	fmt.Printf("\n|---|---|---|---:|%s\n", strings.Repeat("---:|---:|", len(collectors)))
	for _, r := range timeRows {
		fmt.Println(r)
	}
	fmt.Printf("\n| workload | VM | GC kind | GCs per run | pause p50 (ms) | pause p99 (ms) | GC time p50 (ms) | GC time p99 (ms) | allocation |\n")
	fmt.Printf("|---|---|---|---:|---:|---:|---:|---:|---|\n")
	for _, r := range gcRows {
		fmt.Println(r)
	}
	return nil
}

// gcTableRows summarises the collections of all runs, a row per kind.
func gcTableRows(workload, vmName string, runs []gcRun, alloc string) []string {
	byKind := map[string][]pause{}
	for _, r := range runs {
		for _, p := range r.gcs {
			byKind[p.kind] = append(byKind[p.kind], p)
		}
	}
	if alloc == "" {
		alloc = "–"
	}
	if len(byKind) == 0 {
		return []string{fmt.Sprintf("| %s | %s | (none) | 0 | | | | | %s |", workload, vmName, alloc)}
	}
	var rows []string
	for _, kind := range slices.Sorted(maps.Keys(byKind)) {
		ps := byKind[kind]
		var pauses, totals []time.Duration
		for _, p := range ps {
			pauses, totals = append(pauses, p.pause), append(totals, p.duration)
		}
		label := kind
		if label == "" {
			label = "(not reported)"
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %.1f | %.3f | %.3f | %.3f | %.3f | %s |", workload, vmName, label,
			float64(len(ps))/float64(len(runs)), ms(percentile(pauses, 0.5)), ms(percentile(pauses, 0.99)),
			ms(percentile(totals, 0.5)), ms(percentile(totals, 0.99)), alloc))
	}
	return rows
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// percentile is the nearest-rank percentile p (0 < p <= 1) of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(i, 0)]
}

func medianElapsed(runs []gcRun) float64 {
	var ts []float64
	for _, r := range runs {
		ts = append(ts, r.elapsed.Seconds())
	}
	return median(ts)
}

// jvmPause matches a collection in HotSpot's -Xlog:gc output:
// "[1.475s][info][gc] GC(11) Pause Young (Allocation Failure) 8M->0M(30M) 0.481ms".
var jvmPause = regexp.MustCompile(`\bGC\(\d+\) Pause (\w+) .* ([0-9.]+)ms$`)

// timeJVMGC runs main on java -Xint with the serial collector and the
// given heap limit, logging collections to logPath.
func timeJVMGC(java, classes, main string, args []string, xmxMiB int, logPath string) (gcRun, error) {
	var out bytes.Buffer
	jargs := []string{"-Xint", "-XX:+UseSerialGC", fmt.Sprintf("-Xmx%dm", xmxMiB), "-Xlog:gc:file=" + logPath, "-cp", classes, main}
	cmd := exec.Command(java, append(jargs, args...)...)
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	run := gcRun{elapsed: time.Since(start), stdout: out.String()}
	if err != nil {
		return run, err
	}
	run.gcs, err = parseJVMLog(logPath)
	return run, err
}

// parseJVMLog reads the pauses of a -Xlog:gc file. A serial collection
// stops the program for all of its time, so pause and GC time are one.
func parseJVMLog(path string) ([]pause, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ps []pause
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := jvmPause.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		msec, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", path, sc.Text(), err)
		}
		d := time.Duration(msec * 1e6)
		ps = append(ps, pause{kind: strings.ToLower(m[1]), pause: d, duration: d})
	}
	return ps, sc.Err()
}

// timeVMGC runs main on droidprof's VM with the heap configuration,
// recording every collection.
func timeVMGC(dexPath, main string, args []string, cfg gc.Config) (gcRun, error) {
	var out bytes.Buffer
	var run gcRun
	hooks := &runtime.Hooks{GCEnd: func(g runtime.GCInfo) {
		run.gcs = append(run.gcs, pause{kind: g.Kind, pause: g.Pause, duration: g.Duration})
	}}
	start := time.Now()
	v, err := vm.New(vm.Options{ClassPath: []string{dexPath}, GC: cfg, Stdout: &out, Hooks: hooks})
	if err != nil {
		return run, err
	}
	code, err := v.RunMain(context.Background(), main, args)
	run.elapsed, run.stdout = time.Since(start), out.String()
	if err == nil && code != 0 {
		err = fmt.Errorf("%s exited with %d", main, code)
	}
	return run, err
}

// allocatedBytes runs main once more with the allocation hook and
// returns the bytes it allocated (the hook's cost stays out of the
// timed runs).
func allocatedBytes(dexPath, main string, args []string, cfg gc.Config) (uint64, error) {
	var total uint64
	hooks := &runtime.Hooks{Alloc: func(_ *runtime.Thread, _ runtime.Site, _ *runtime.Class, size, _ uint32) { total += uint64(size) }}
	v, err := vm.New(vm.Options{ClassPath: []string{dexPath}, GC: cfg, Hooks: hooks})
	if err != nil {
		return 0, err
	}
	code, err := v.RunMain(context.Background(), main, args)
	if err == nil && code != 0 {
		err = fmt.Errorf("%s exited with %d", main, code)
	}
	return total, err
}
