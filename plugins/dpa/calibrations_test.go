package dpa

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
	"github.com/droidprof/droidprof/vm/vmconfig"
)

// TestProgramCalibrations is a diagnosis, not a check: it calibrates each
// call-heavy workload on itself (calibrateProgram: pairs of untraced and
// traced runs on the main thread's CPU clock) and the calibration program
// the same way, and prints what one event costs each, with the 95 %
// interval of the median. Timed on the thread's CPU clock, the figures
// hold on a loaded host far better than wall-clock ones; they show how
// much the per-event cost differs between programs, which is what a
// single calibration program cannot follow (plugins/dpa/BENCHMARKS.md).
//
//	DROIDPROF_DPA_CALIBRATIONS=11 go test ./plugins/dpa -run TestProgramCalibrations -v -timeout 30m
//
// (the value is the minimum number of pairs; DROIDPROF_DPA_CALIBRATIONS_ENGINE=aot
// runs the workloads on the aot engine).
func TestProgramCalibrations(t *testing.T) {
	pairs, _ := strconv.Atoi(os.Getenv("DROIDPROF_DPA_CALIBRATIONS"))
	if pairs <= 0 {
		t.Skip("a diagnosis that takes minutes; set DROIDPROF_DPA_CALIBRATIONS=PAIRS to run it")
	}
	engine := os.Getenv("DROIDPROF_DPA_CALIBRATIONS_ENGINE")
	ctx := context.Background()
	var out strings.Builder
	for _, name := range []string{"dpa-fib", "dpa-concat", "dpa-random", "calibration program"} {
		dir := t.TempDir()
		cfg := Config{Workload: name, BufferRecords: 65536, ProgramPairs: pairs, Calibration: 32000, VM: vmconfig.Settings{Engine: engine}}
		var p program
		var err error
		if name == "calibration program" {
			cfg.Workload = ""
			p, err = calibrationProgram(dir, 2*cfg.BufferRecords)
		} else {
			p, err = resolve(cfg, dir)
		}
		if err != nil {
			t.Fatal(err)
		}
		c, err := calibrateProgram(ctx, p, cfg, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "  %-20s %6.2f ns per event [%6.2f, %6.2f] (95 %%), %d pairs\n", name, c.Event, c.Lo, c.Hi, c.Pairs)
	}
	t.Log("CPU cost of one event, per program (buffer 65536):\n" + out.String())
}

// calibrationProgram is the calibration program (calibrationSmali) as a
// program making calls calls, for calibrateProgram.
func calibrationProgram(dir string, calls int) (program, error) {
	cls, err := smali.Parse("DpaCalibrate.smali", []byte(calibrationSmali()), nil)
	if err != nil {
		return program{}, err
	}
	data, err := smali.Assemble([]*ast.Class{cls}, nil)
	if err != nil {
		return program{}, err
	}
	path := filepath.Join(dir, "calibrate.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return program{}, err
	}
	return program{classPath: []string{path}, main: "DpaCalibrate", args: []string{strconv.Itoa(calls - calls%calibrationMethods)}}, nil
}
