package vm_test

import (
	"context"
	"io"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
)

// BenchmarkCollectors runs the allocation-heavy workloads under each
// collector with a 32 MiB heap: the interpreter's allocation fast path,
// the write barrier and the collections together.
func BenchmarkCollectors(b *testing.B) {
	for _, wl := range []struct {
		name string
		args []string
	}{{"chess", []string{"3"}}, {"deltablue", []string{"100"}}, {"dpa-concat", nil}, {"leak-list", []string{"20000"}}} {
		for _, col := range []gc.Collector{gc.CMS, gc.SS} {
			b.Run(wl.name+"/"+string(col), func(b *testing.B) {
				path, w := workloadDEX(b, wl.name)
				args := wl.args
				if args == nil {
					args = w.Args
				}
				for b.Loop() {
					opts := vm.Options{ClassPath: []string{path}, Stdout: io.Discard, GC: gc.Config{Collector: col, Max: 32 << 20}}
					if code, err := vm.Run(context.Background(), opts, w.Main, args); err != nil || code != 0 {
						b.Fatal(code, err)
					}
				}
			})
		}
	}
}
