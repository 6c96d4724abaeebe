package engine_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/aot/engine"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/workloads"
)

// run runs main from dexFile on the named engine and returns its output
// and exit status.
func run(t *testing.T, eng, dexFile, main string, args []string) (string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code, err := vm.Run(ctx, vm.Options{
		ClassPath: []string{dexFile},
		Stdout:    &stdout,
		Stderr:    &stderr,
		Engine:    eng,
	}, main, args)
	if err != nil {
		t.Fatalf("%s engine: %v\nstderr:\n%s", eng, err, stderr.String())
	}
	return stdout.String() + "\n--- stderr (first line) ---\n" + firstLine(stderr.String()), code
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestWorkloadsSameOnBothEngines runs every workload on the interpreter
// and on the aot engine and requires the same stdout and exit status.
// Timed workloads print their elapsed time, which differs; their untimed
// twins cover the same code.
func TestWorkloadsSameOnBothEngines(t *testing.T) {
	for _, w := range workloads.All {
		if strings.HasSuffix(w.Name, "-timed") {
			continue
		}
		t.Run(w.Name, func(t *testing.T) {
			dexFile := filepath.Join("..", "..", "..", "workloads", "dex", w.DEX)
			want, wantCode := run(t, "interp", dexFile, w.Main, w.Args)
			got, gotCode := run(t, "aot", dexFile, w.Main, w.Args)
			if gotCode != wantCode {
				t.Errorf("exit status: aot %d, interp %d", gotCode, wantCode)
			}
			if got != want {
				t.Errorf("output differs:\naot:\n%s\ninterp:\n%s", clip(got), clip(want))
			}
		})
	}
}

func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

var _ runtime.Engine = engine.New()
