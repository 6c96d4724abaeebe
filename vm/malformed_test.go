package vm_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/adler32"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/dex"
)

// mutants returns copies of a DEX file with random bytes of its code
// changed and the checksum fixed, so they pass the reader and reach the
// interpreter: it must turn every one into a Java error, a VM error or a
// normal exit, never a crash of the Go process.
func mutants(t testing.TB, data []byte, n int, seed int64) [][]byte {
	f, err := dex.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	type span struct{ off, n int }
	var code []span
	for _, c := range f.ClassDefs {
		if c.Data == nil {
			continue
		}
		for _, ms := range [][]dex.EncodedMethod{c.Data.DirectMethods, c.Data.VirtualMethods} {
			for _, m := range ms {
				if m.Code != nil && len(m.Code.Insns) > 0 {
					code = append(code, span{int(m.Code.InsnsOff()), 2 * len(m.Code.Insns)})
				}
			}
		}
	}
	r := rand.New(rand.NewSource(seed))
	var out [][]byte
	for i := 0; i < n; i++ {
		m := bytes.Clone(data)
		for k := 0; k < 1+r.Intn(4); k++ {
			s := code[r.Intn(len(code))]
			m[s.off+r.Intn(s.n)] = byte(r.Intn(256))
		}
		binary.LittleEndian.PutUint32(m[8:], adler32.Checksum(m[12:]))
		out = append(out, m)
	}
	return out
}

func runMutant(t testing.TB, dir string, i int, data []byte, main string, args []string) {
	p := filepath.Join(dir, "m.dex")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	// Any outcome is fine except a panic, which would kill the test.
	_, _ = vm.Run(ctx, vm.Options{ClassPath: []string{p}, HeapMax: 16 << 20}, main, args)
}

func TestMalformedCode(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 20
	}
	for _, name := range []string{"dpa-fib", "deltablue", "caffeine-logic"} {
		path, w := workloadDEX(t, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for i, m := range mutants(t, data, n, 1) {
			runMutant(t, dir, i, m, w.Main, []string{"5"})
		}
	}
}

func FuzzMalformedCode(f *testing.F) {
	path, w := workloadDEX(f, "dpa-fib")
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(int64(1))
	f.Fuzz(func(t *testing.T, seed int64) {
		for _, m := range mutants(t, data, 1, seed) {
			runMutant(t, t.TempDir(), 0, m, w.Main, []string{"5"})
		}
	})
}
