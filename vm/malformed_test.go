package vm_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/adler32"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/workloads"
)

// codeSpans returns the byte ranges of every method's instructions in a
// DEX file.
func codeSpans(t testing.TB, data []byte) [][2]int {
	f, err := dex.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	var code [][2]int
	for _, c := range f.ClassDefs {
		if c.Data == nil {
			continue
		}
		for _, ms := range [][]dex.EncodedMethod{c.Data.DirectMethods, c.Data.VirtualMethods} {
			for _, m := range ms {
				if m.Code != nil && len(m.Code.Insns) > 0 {
					code = append(code, [2]int{int(m.Code.InsnsOff()), 2 * len(m.Code.Insns)})
				}
			}
		}
	}
	return code
}

// mutate returns a copy of a DEX file with 1 to 4 random bytes of its
// code changed and the checksum fixed, so it passes the reader and
// reaches the verifier and the interpreter.
func mutate(data []byte, code [][2]int, r *rand.Rand) []byte {
	m := bytes.Clone(data)
	for k := 0; k < 1+r.Intn(4); k++ {
		s := code[r.Intn(len(code))]
		m[s[0]+r.Intn(s[1])] = byte(r.Intn(256))
	}
	binary.LittleEndian.PutUint32(m[8:], adler32.Checksum(m[12:]))
	return m
}

// outcome classifies how a mutant's run ended.
type outcome int

const (
	outExit        outcome = iota // normal exit, any status
	outVerifyError                // a VerifyError reached the top
	outException                  // another uncaught Java exception
	outVMError                    // the VM stopped with an error (time limit, heap)
	numOutcomes
)

var outcomeNames = [numOutcomes]string{"exit", "VerifyError", "other Java exception", "VM error (time limit)"}

// runMutant runs one mutant as `droidprof vm run` would and fails the
// test if the VM reports an internal error: a Go panic (index out of
// range, nil dereference) that the runtime recovered.
func runMutant(t testing.TB, dir string, data []byte, main string, args []string) outcome {
	t.Helper()
	p := filepath.Join(dir, "m.dex")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var stderr bytes.Buffer
	_, err := vm.Run(ctx, vm.Options{ClassPath: []string{p}, HeapMax: 16 << 20, Stderr: &stderr}, main, args)
	switch {
	case err != nil && strings.Contains(err.Error(), "internal error"):
		os.WriteFile(filepath.Join(t.TempDir(), "crash.dex"), data, 0o644)
		t.Fatalf("Go panic in the VM: %v", err)
	case err != nil:
		return outVMError
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
			counts[runMutant(t, dir, mutate(data, code, r), w.Main, smallArgs(w))]++
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
