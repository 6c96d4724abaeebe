package aot_test

import (
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/workloads"
)

// corpus is core.dex and every workload's DEX file, by name.
func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{"core.dex": core.DEX()}
	for _, d := range workloads.DEXFiles() {
		b, err := workloads.Workload{Name: d.Name, DEX: d.Name}.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		files[d.Name] = b
	}
	return files
}

func readDEX(t testing.TB, data []byte) *dex.File {
	t.Helper()
	f, err := dex.ReadWithOptions(data, dex.Options{SkipSignature: true})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCompileCorpus compiles every method of core.dex and of every
// workload DEX with the IR checked after each pass: no panic, and every
// fallback has a reason (listed in the log).
func TestCompileCorpus(t *testing.T) {
	for name, data := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			f := readDEX(t, data)
			r := aot.Compile(f, aot.Options{Passes: ssa.Config{Check: true}})
			total := len(r.Methods) + len(r.Fallbacks)
			t.Logf("%d methods, %d compiled, %d fallbacks", total, len(r.Methods), len(r.Fallbacks))
			for _, rc := range r.FallbackReasons() {
				t.Logf("  %4d  %s", rc.Count, rc.Reason)
			}
			for _, fb := range r.Fallbacks {
				if fb.Reason == nil || fb.Reason.Error() == "" {
					t.Errorf("%s: fallback without a reason", fb.Name)
				}
			}
		})
	}
}

// TestCompileMethodRecovers checks that a panic inside the compiler (here
// provoked by a method without its DEX file, which no caller should pass)
// comes back as an internal-error fallback, not a crash.
func TestCompileMethodRecovers(t *testing.T) {
	_, err := aot.CompileMethod(frontend.Method{Code: &dex.Code{Registers: 1, Insns: []uint16{0x000e}}}, ssa.Config{})
	if err == nil || !strings.Contains(err.Error(), "internal compiler error") {
		t.Fatalf("CompileMethod = %v, want an internal compiler error", err)
	}
}
