package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/runtime"
)

func runWith(filter func(m *runtime.Method) bool, dexFile, main string) string {
	var stdout, stderr bytes.Buffer
	v, err := vm.New(vm.Options{ClassPath: []string{dexFile}, Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		panic(err)
	}
	e := engine.New()
	e.Filter = filter
	v.Engine = e
	v.RunMain(context.Background(), main, nil)
	return stdout.String() + stderr.String()
}

func TestDebugBisect(t *testing.T) {
	dexFile := os.Getenv("DBG_DEX")
	main := os.Getenv("DBG_MAIN")
	if dexFile == "" {
		t.Skip()
	}
	want := runWith(func(*runtime.Method) bool { return false }, dexFile, main)
	var names []string
	seen := map[string]bool{}
	runWith(func(m *runtime.Method) bool {
		n := m.Class.Name + "." + m.Name + m.Signature
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
		return false
	}, dexFile, main)
	// find a single method whose compilation changes the output
	lo, hi := 0, len(names)
	bad := func(a, b int) bool {
		set := map[string]bool{}
		for _, n := range names[a:b] {
			set[n] = true
		}
		return runWith(func(m *runtime.Method) bool { return set[m.Class.Name+"."+m.Name+m.Signature] }, dexFile, main) != want
	}
	if !bad(lo, hi) {
		t.Fatalf("no difference")
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if bad(lo, mid) {
			hi = mid
		} else if bad(mid, hi) {
			lo = mid
		} else {
			t.Fatalf("interaction between halves %d-%d", lo, hi)
		}
	}
	fmt.Println("CULPRIT", names[lo])
	_ = strings.Join
}
