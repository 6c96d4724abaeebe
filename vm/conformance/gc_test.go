package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/vmconfig"
)

// gcEnv narrows or widens the heap configurations the suites run under:
// a comma list of variant names (see parseVariant), e.g. "cms" for a quick
// run or "cms,ss,cms-stress-verify" for the run-tests under stress.
const gcEnv = "DROIDPROF_CONFORMANCE_GC"

// The variants each suite runs under by default. The run-tests run under
// both collectors (the copying one moves every object, so it is where a
// missed reference shows); GC stress and heap verification, which
// multiply the cost of every allocation, run on the smali suite only,
// one process for all its tests.
const (
	artVariants   = "cms,ss"
	smaliVariants = "cms,ss,cms-stress-verify,ss-stress-verify"
)

// defaultVariant is the configuration the suites' original lists and
// CONFORMANCE.md markers belong to: ART's default collector.
const defaultVariant = "cms"

// gcVariant is a heap configuration a suite runs under, named for
// CONFORMANCE.md's columns and the per-variant files: the collector, then
// "-stress" (collect at every allocation) and "-verify" (check the heap
// around every collection), and "-aot" to run on the aot engine instead
// of the interpreter.
type gcVariant struct {
	Name   string
	GC     gc.Config
	Engine string // vm.Options.Engine: "" (the interpreter) or "aot"
}

// parseVariant reads a variant name such as "ss-stress-verify" or
// "cms-aot" (vmconfig.ParseEngineVariant).
func parseVariant(name string) (gcVariant, error) {
	c, engine, err := vmconfig.ParseEngineVariant(name)
	if err != nil {
		return gcVariant{}, err
	}
	return gcVariant{Name: name, GC: c, Engine: engine}, nil
}

// aot reports whether the variant runs on the aot engine.
func (v gcVariant) aot() bool { return v.Engine == "aot" }

// interpreted is the variant's twin on the interpreter, the one an aot
// variant answers to: the same name without "-aot".
func (v gcVariant) interpreted() gcVariant {
	parts := strings.Split(v.Name, "-")
	kept := parts[:0:0]
	for _, p := range parts {
		if p != "aot" {
			kept = append(kept, p)
		}
	}
	return gcVariant{Name: strings.Join(kept, "-"), GC: v.GC}
}

// variants returns the variants a suite runs under: $DROIDPROF_CONFORMANCE_GC
// if set, else def.
func variants(t *testing.T, def string) []gcVariant {
	t.Helper()
	list := def
	if env := os.Getenv(gcEnv); env != "" {
		list = env
	}
	var vs []gcVariant
	for _, name := range strings.Split(list, ",") {
		v, err := parseVariant(strings.TrimSpace(name))
		if err != nil {
			t.Fatalf("%s: %v", gcEnv, err)
		}
		vs = append(vs, v)
	}
	return vs
}

// file names the variant's copy of a committed file: the default
// variant keeps the original name (testdata/art-pass.txt), the others
// add theirs (testdata/art-pass-ss.txt).
func (v gcVariant) file(base, ext string) string {
	if v.Name == defaultVariant {
		return filepath.Join("testdata", base+ext)
	}
	return filepath.Join("testdata", base+"-"+v.Name+ext)
}

// marker names the variant's CONFORMANCE.md number, as file does.
func (v gcVariant) marker(base string) string {
	if v.Name == defaultVariant {
		return base
	}
	return base + "-" + v.Name
}

// gcDifferencesList gives, for each run-test that passes under the
// default collector but not under another variant, the cause
// ("variant NNN-name: cause"), written by hand like art-causes.txt.
var gcDifferencesList = filepath.Join("testdata", "gc-differences.txt")

// gcDifference is a run-test that passes under the default variant and
// fails under another.
type gcDifference struct {
	variant, test, outcome string
}

// differences lists the run-tests that pass under the default variant
// and not under another, for the variants that ran completely. Tests that
// flicker under load are left out, as they are from the pass lists.
func differences(vs []gcVariant, selected int, outcomes map[string]map[string]string) []gcDifference {
	base := outcomes[defaultVariant]
	if len(base) != selected {
		return nil
	}
	var ds []gcDifference
	for _, v := range vs {
		got := outcomes[v.Name]
		if v.Name == defaultVariant || len(got) != selected || v.aot() {
			continue // aot variants answer to their interpreted twin (aotDifferences)
		}
		for name, o := range base {
			if o == outcomePass && got[name] != outcomePass && !artLoadSensitive[name] {
				ds = append(ds, gcDifference{v.Name, name, got[name]})
			}
		}
	}
	sort.Slice(ds, func(i, j int) bool {
		return ds[i].variant+" "+ds[i].test < ds[j].variant+" "+ds[j].test
	})
	return ds
}

// checkDifferences requires a cause for every difference and, in update
// mode, renders them into CONFORMANCE.md.
func checkDifferences(t *testing.T, ds []gcDifference) {
	checkCauses(t, ds, gcDifferencesList, "gc-differences", func(gcDifference) string { return defaultVariant })
}

// checkCauses requires a cause in list for every difference (base names
// the variant the test passes under) and, in update mode, renders them
// into CONFORMANCE.md's block.
func checkCauses(t *testing.T, ds []gcDifference, list, block string, base func(gcDifference) string) {
	causes, err := readCauses(list)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	table.WriteString("\n| Variant | Run-test | Cause |\n|---|---|---|\n")
	for _, d := range ds {
		cause := causes[d.variant+" "+d.test]
		if cause == "" {
			t.Errorf("%s passes under %s but %s under %s, and %s gives no cause: add \"%s %s: cause\"",
				d.test, base(d), d.outcome, d.variant, list, d.variant, d.test)
		}
		fmt.Fprintf(&table, "| %s | `%s` | %s |\n", d.variant, d.test, cause)
	}
	if len(ds) == 0 {
		table.WriteString("| — | none | |\n")
	}
	if updating() {
		if err := setDocBlock(block, table.String()); err != nil {
			t.Error(err)
		}
	}
}

// aotDifferencesList gives, for each run-test that passes on the
// interpreter (its variant's pass list) and fails on the aot engine under
// the same heap configuration, the cause ("cms-aot NNN-name: cause"),
// written by hand like gc-differences.txt.
var aotDifferencesList = filepath.Join("testdata", "aot-differences.txt")

// aotDifferences lists, for each aot variant that ran completely, the
// run-tests of its interpreted twin's pass list (twinLists, by aot
// variant) that did not pass on the aot engine. The twin's committed list
// is the reference, so an aot variant can run alone.
func aotDifferences(vs []gcVariant, selected int, outcomes map[string]map[string]string, twinLists map[string]map[string]bool) []gcDifference {
	var ds []gcDifference
	for _, v := range vs {
		got := outcomes[v.Name]
		if !v.aot() || len(got) != selected {
			continue
		}
		for name := range twinLists[v.Name] {
			if got[name] != outcomePass && !artLoadSensitive[name] {
				ds = append(ds, gcDifference{v.Name, name, got[name]})
			}
		}
	}
	sort.Slice(ds, func(i, j int) bool {
		return ds[i].variant+" "+ds[i].test < ds[j].variant+" "+ds[j].test
	})
	return ds
}

// checkAOTDifferences requires a cause for every aot difference and, in
// update mode, renders them into CONFORMANCE.md.
func checkAOTDifferences(t *testing.T, ds []gcDifference) {
	if len(ds) == 0 && !updating() {
		return
	}
	checkCauses(t, ds, aotDifferencesList, "aot-differences", func(d gcDifference) string {
		v, _ := parseVariant(d.variant)
		return v.interpreted().Name
	})
}

// TestVariantFiles checks the names of a variant's committed files and
// CONFORMANCE.md markers: the default variant keeps the original ones.
func TestVariantFiles(t *testing.T) {
	v, err := parseVariant("ss-stress-verify")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.file("smali-floor", ".txt"); got != filepath.Join("testdata", "smali-floor-ss-stress-verify.txt") {
		t.Errorf("file: %s", got)
	}
	if got := v.marker("smali-pass"); got != "smali-pass-ss-stress-verify" {
		t.Errorf("marker: %s", got)
	}
	if d, _ := parseVariant(defaultVariant); d.file("art-pass", ".txt") != artPassList || d.marker("art-pass") != "art-pass" {
		t.Errorf("the default variant must keep the original names")
	}
}

// TestDifferences checks which run-tests count as a collector's
// difference: passing under the default and not under the variant, in
// complete runs only, load-sensitive tests aside.
func TestDifferences(t *testing.T) {
	vs := []gcVariant{{Name: "cms"}, {Name: "ss"}}
	outcomes := map[string]map[string]string{
		"cms": {"a": outcomePass, "b": outcomePass, "c": outcomeFail, "080-oom-fragmentation": outcomePass},
		"ss":  {"a": outcomePass, "b": outcomeFail, "c": outcomePass, "080-oom-fragmentation": outcomeFail},
	}
	got := differences(vs, 4, outcomes)
	want := []gcDifference{{"ss", "b", outcomeFail}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("differences = %v, want %v", got, want)
	}
	if got := differences(vs, 5, outcomes); got != nil {
		t.Errorf("an incomplete run has differences %v", got)
	}
}

// TestAOTVariant checks the aot variants' names, files and twins, and
// which run-tests count as an aot difference: in the twin's pass list and
// not passing on aot, in complete runs only.
func TestAOTVariant(t *testing.T) {
	v, err := parseVariant("ss-stress-verify-aot")
	if err != nil {
		t.Fatal(err)
	}
	if !v.aot() || v.GC != (gc.Config{Collector: gc.SS, Stress: true, Verify: true}) {
		t.Errorf("parseVariant: %+v", v)
	}
	if got := v.interpreted(); got.Name != "ss-stress-verify" || got.aot() {
		t.Errorf("interpreted twin: %+v", got)
	}
	if got := v.file("art-pass", ".txt"); got != filepath.Join("testdata", "art-pass-ss-stress-verify-aot.txt") {
		t.Errorf("file: %s", got)
	}
	if d, _ := parseVariant("cms-aot"); d.interpreted().file("art-pass", ".txt") != artPassList {
		t.Errorf("cms-aot must answer to %s", artPassList)
	}
	vs := []gcVariant{{Name: "cms"}, {Name: "cms-aot", Engine: "aot"}}
	outcomes := map[string]map[string]string{
		"cms":     {"a": outcomePass, "b": outcomeFail, "c": outcomePass},
		"cms-aot": {"a": outcomeFail, "b": outcomePass, "c": outcomePass},
	}
	twins := map[string]map[string]bool{"cms-aot": {"a": true, "c": true}}
	got := aotDifferences(vs, 3, outcomes, twins)
	want := []gcDifference{{"cms-aot", "a", outcomeFail}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("aotDifferences = %v, want %v", got, want)
	}
	if got := differences(vs, 3, outcomes); got != nil {
		t.Errorf("an aot variant counted as a collector's difference: %v", got)
	}
	if got := aotDifferences(vs, 4, outcomes, twins); got != nil {
		t.Errorf("an incomplete run has aot differences %v", got)
	}
}

// TestChildEngine checks that the child process runs the variant's
// engine: an engine the VM does not know is its error.
func TestChildEngine(t *testing.T) {
	r := runVM(context.Background(), gcVariant{Name: "cms-jit", Engine: "jit"}, nil, "Main", nil, time.Minute)
	if r.Err == nil || !strings.Contains(r.Err.Error(), `unknown engine "jit"`) {
		t.Errorf("child ran with engine jit: %v", r.Err)
	}
}
