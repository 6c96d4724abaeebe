package verify_test

import (
	"testing"

	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/verify"
	"github.com/droidprof/droidprof/workloads"
)

func readDEX(t testing.TB, data []byte) *dex.File {
	t.Helper()
	f, err := dex.ReadWithOptions(data, dex.Options{SkipSignature: true})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// verifyAll verifies every class of f against the core library and f,
// and returns the failures.
func verifyAll(boot, f *dex.File) []error {
	h := verify.NewFiles(boot, f)
	var errs []error
	for i := range f.ClassDefs {
		if err := verify.Class(f, &f.ClassDefs[i], h); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// TestValidCodeVerifies: the core library and every workload's DEX
// (compiled by javac and dx, so valid) must verify without a failure.
func TestValidCodeVerifies(t *testing.T) {
	boot := readDEX(t, core.DEX())
	for _, err := range verifyAll(boot, boot) {
		t.Errorf("core.dex: %v", err)
	}
	for _, d := range workloads.DEXFiles() {
		w := workloads.Workload{DEX: d.Name}
		data, err := w.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range verifyAll(boot, readDEX(t, data)) {
			t.Errorf("%s: %v", d.Name, err)
		}
	}
}
