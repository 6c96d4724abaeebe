package vm_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/adler32"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/verify"
	"github.com/droidprof/droidprof/workloads"
)

// codeSpans returns the byte ranges of every method's instructions in a
// DEX file, with the index of the class defining the method.
func codeSpans(t testing.TB, data []byte) [][3]int {
	f, err := dex.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	var code [][3]int
	for ci, c := range f.ClassDefs {
		if c.Data == nil {
			continue
		}
		for _, ms := range [][]dex.EncodedMethod{c.Data.DirectMethods, c.Data.VirtualMethods} {
			for _, m := range ms {
				if m.Code != nil && len(m.Code.Insns) > 0 {
					code = append(code, [3]int{int(m.Code.InsnsOff()), 2 * len(m.Code.Insns), ci})
				}
			}
		}
	}
	return code
}

// mutate returns a copy of a DEX file with 1 to 4 random bytes of its
// code changed and the checksum fixed, so it passes the reader and
// reaches the verifier and the interpreter. It also returns the indices
// of the classes whose code changed.
func mutate(data []byte, code [][3]int, r *rand.Rand) ([]byte, []int) {
	m := bytes.Clone(data)
	var classes []int
	for k := 0; k < 1+r.Intn(4); k++ {
		s := code[r.Intn(len(code))]
		m[s[0]+r.Intn(s[1])] = byte(r.Intn(256))
		classes = append(classes, s[2])
	}
	binary.LittleEndian.PutUint32(m[8:], adler32.Checksum(m[12:]))
	return m, classes
}

// outcome classifies how a mutant's run ended.
type outcome int

const (
	outExit        outcome = iota // normal exit, any status
	outVerifyError                // a VerifyError reached the top
	outException                  // another uncaught Java exception
	outVMError                    // the VM stopped at the time limit
	numOutcomes
)

var outcomeNames = [numOutcomes]string{"exit", "VerifyError", "other Java exception", "time limit"}

// runMutant runs one mutant as `droidprof vm run` would and fails the
// test if the VM fails for any reason but the time limit: such errors are
// Go panics (index out of range, nil dereference) that the runtime
// recovered.
func runMutant(t testing.TB, dir string, data []byte, main string, args []string, limit time.Duration) outcome {
	t.Helper()
	p := filepath.Join(dir, "m.dex")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var stderr bytes.Buffer
	_, err := vm.Run(ctx, vm.Options{ClassPath: []string{p}, GC: gc.Config{Max: 16 << 20}, Stderr: &stderr}, main, args)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return outVMError
	case err != nil:
		// "internal error" is a recovered Go panic while running, "loading
		// the class path" one while loading.
		t.Fatalf("VM failure (a Go panic): %v", err)
	case strings.Contains(stderr.String(), "java.lang.VerifyError"):
		return outVerifyError
	case strings.Contains(stderr.String(), "Exception in thread"):
		return outException
	}
	return outExit
}

// mutantsPerWorkload is how many mutants TestMalformedCode runs per DEX
// file: DROIDPROF_MUTANTS, else 25 (5 with -short). The full acceptance
// run is DROIDPROF_MUTANTS=1000 (see vm/CONFORMANCE.md).
func mutantsPerWorkload(t *testing.T) int {
	if s := os.Getenv("DROIDPROF_MUTANTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("DROIDPROF_MUTANTS: %v", err)
		}
		return n
	}
	if testing.Short() {
		return 5
	}
	return 25
}

// TestMalformedCode runs mutants of every workload's DEX file: each must
// end as a VerifyError, another Java exception, a normal exit or a VM
// error such as the time limit, never as a Go panic.
func TestMalformedCode(t *testing.T) {
	n := mutantsPerWorkload(t)
	var total [numOutcomes]int
	for _, d := range workloads.DEXFiles() {
		w := mainOf(t, d.Name)
		data, err := w.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		code := codeSpans(t, data)
		dir := t.TempDir()
		r := rand.New(rand.NewSource(1))
		var counts [numOutcomes]int
		for i := 0; i < n; i++ {
			m, _ := mutate(data, code, r)
			counts[runMutant(t, dir, m, w.Main, smallArgs(w), 100*time.Millisecond)]++
		}
		t.Logf("%s: %v", d.Name, counts)
		for i, c := range counts {
			total[i] += c
		}
	}
	for i, c := range total {
		t.Logf("%s: %d", outcomeNames[i], c)
	}
}

// mainOf returns the first workload that runs DEX file name.
func mainOf(t testing.TB, name string) workloads.Workload {
	for _, w := range workloads.All {
		if w.DEX == name {
			return w
		}
	}
	t.Fatalf("no workload runs %s", name)
	return workloads.Workload{}
}

// smallArgs keeps a mutant's run short: the scale argument 1 where the
// workload takes one.
func smallArgs(w workloads.Workload) []string {
	if len(w.Args) == 0 {
		return nil
	}
	a := append([]string(nil), w.Args...)
	if _, err := strconv.Atoi(a[0]); err == nil {
		a[0] = "1"
	}
	return a
}

// FuzzMutatedCode mutates the code items of every workload's DEX file and
// fails on a Go panic in the verifier or the VM. The fuzzer's inputs pick
// the workload and seed the mutation. A mutant whose changed classes fail
// verification needs no run: the runtime would only throw their
// VerifyError (TestMalformedCode runs such mutants); the others run under
// a short time limit. The seed corpus (one mutant per workload) runs in a
// plain go test; see vm/CONFORMANCE.md for the long runs.
func FuzzMutatedCode(f *testing.F) {
	type target struct {
		w    workloads.Workload
		data []byte
		code [][3]int
	}
	var targets []target
	for _, d := range workloads.DEXFiles() {
		w := mainOf(f, d.Name)
		data, err := w.Bytes()
		if err != nil {
			f.Fatal(err)
		}
		targets = append(targets, target{w, data, codeSpans(f, data)})
	}
	boot, err := dex.Read(core.DEX())
	if err != nil {
		f.Fatal(err)
	}
	for i := range targets {
		f.Add(uint8(i), int64(i))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, which uint8, seed int64) {
		tg := targets[int(which)%len(targets)]
		m, classes := mutate(tg.data, tg.code, rand.New(rand.NewSource(seed)))
		file, err := dex.ReadWithOptions(m, dex.Options{SkipSignature: true})
		if err != nil {
			return // the reader rejects it; vm.Run would report that
		}
		h := verify.NewFiles(boot, file)
		for _, ci := range classes {
			if verify.Class(file, &file.ClassDefs[ci], h) != nil {
				return
			}
		}
		runMutant(t, dir, m, tg.w.Main, smallArgs(tg.w), 20*time.Millisecond)
	})
}
