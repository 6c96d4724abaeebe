package vm_test

import (
	"context"
	"io"
	"testing"

	"github.com/droidprof/droidprof/vm"
)

// BenchmarkStartup is the cost of a whole VM for a trivial program:
// loading the core library's classes, the class path, and running main.
func BenchmarkStartup(b *testing.B) {
	path, w := workloadDEX(b, "dpa-fib")
	b.ReportAllocs()
	for b.Loop() {
		if code, err := vm.Run(context.Background(), vm.Options{ClassPath: []string{path}, Stdout: io.Discard}, w.Main, []string{"5"}); err != nil || code != 0 {
			b.Fatal(code, err)
		}
	}
}
