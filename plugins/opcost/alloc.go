package opcost

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// The allocation shapes: what the table's allocation benchmarks (a
// new-array of one element, a new-instance of a small class) leave out of
// a program that allocates large arrays — the zeroing of every byte and
// the collections that those bytes bring on, which the VM runs on the
// allocating thread. dpa-concat allocates 107 MB of char arrays in 29 ms
// of CPU time and collects 128 times (6 ms); an opcode count sees one
// new-array per array, whatever its length.

// allocLengths are the char arrays the shapes allocate, in the driver's
// order: one element (the table's new-array), and two sizes in the main
// space and two in the large-object space (gc.LargeThreshold is 12 KiB),
// so that each space's cost per byte is a slope of two points and the
// large-object space's cost per object what is left.
var allocLengths = []int{1, 2048, 4096, 8192, 16384}

// allocsPerRun is each shape's number of allocations per run: 16384 chars
// × 4000 is 131 MB, as much as dpa-concat allocates.
const allocsPerRun = 4000

// AllocShapes are the allocation shapes' measurements.
type AllocShapes struct {
	Allocs int `json:"allocs"` // per run of each shape
	// Lengths are the arrays' lengths, Sizes their sizes on the heap
	// (bytes, from the VM's allocation hook in a counting run).
	Lengths []int    `json:"lengths"`
	Sizes   []uint32 `json:"sizes"`
	// Samples[i] are the thread CPU times of the runs of Lengths[i], ns.
	Samples [][]int64 `json:"samples_ns"`
}

// allocShapesDEX builds the program: "as.Main LENGTH N" allocates N char
// arrays of LENGTH, each dropped before the next.
func allocShapesDEX() ([]byte, error) {
	cb := smali.NewClass("Las/Main;", ast.AccPublic).Super("Ljava/lang/Object;")
	m := cb.Method(ast.AccPublic|ast.AccStatic, "main", "([Ljava/lang/String;)V").Registers(6)
	parse := smali.MethodRef("Ljava/lang/Integer;", "parseInt", "(Ljava/lang/String;)I")
	m.Op("const/4", smali.V(0), ast.Int(0)).Op("aget-object", smali.V(0), smali.P(0), smali.V(0)).
		Op("invoke-static", smali.Regs(smali.V(0)), parse).Op("move-result", smali.V(1)).
		Op("const/4", smali.V(0), ast.Int(1)).Op("aget-object", smali.V(0), smali.P(0), smali.V(0)).
		Op("invoke-static", smali.Regs(smali.V(0)), parse).Op("move-result", smali.V(2)).
		Op("const/4", smali.V(3), ast.Int(0)).
		Label("loop").
		Op("if-ge", smali.V(3), smali.V(2), smali.LabelRef("done")).
		Op("new-array", smali.V(4), smali.V(1), smali.TypeRef("[C")).
		Op("add-int/lit8", smali.V(3), smali.V(3), ast.Int(1)).
		Op("goto", smali.LabelRef("loop")).
		Label("done").
		Op("return-void")
	cls, err := cb.Build(&smali.Options{API: 28})
	if err != nil {
		return nil, err
	}
	return smali.Assemble([]*ast.Class{cls}, &smali.AssembleOptions{API: 28})
}

// measureAllocShapes runs every shape measurements times, the shapes
// alternating within each round, after a run that reads each array's size
// on the heap.
func measureAllocShapes(ctx context.Context, dir string, measurements int, engine string, gcCfg gc.Config) (*AllocShapes, error) {
	data, err := allocShapesDEX()
	if err != nil {
		return nil, fmt.Errorf("opcost: allocation shapes: %w", err)
	}
	path := filepath.Join(dir, "allocshapes.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return nil, err
	}
	defer os.Remove(path)
	as := &AllocShapes{Allocs: allocsPerRun, Lengths: allocLengths, Samples: make([][]int64, len(allocLengths))}
	for _, n := range allocLengths {
		var size uint32
		hk := &runtime.Hooks{Alloc: func(_ *runtime.Thread, _ runtime.Site, c *runtime.Class, s, _ uint32) {
			if c.Name == "[C" {
				size = s
			}
		}}
		if _, err := runProgram(ctx, vm.Options{ClassPath: []string{path}, GC: gcCfg, Engine: "interp", Hooks: hk}, "as.Main", []string{strconv.Itoa(n), "1"}); err != nil {
			return nil, fmt.Errorf("opcost: allocation shape of %d chars: %w", n, err)
		}
		if size == 0 {
			return nil, fmt.Errorf("opcost: allocation shape of %d chars: the VM reported no char array allocated", n)
		}
		as.Sizes = append(as.Sizes, size)
	}
	opts := vm.Options{ClassPath: []string{path}, GC: gcCfg, Engine: engine}
	for range measurements {
		for i, n := range allocLengths {
			ns, err := timedRun(ctx, opts, "as.Main", []string{strconv.Itoa(n), strconv.Itoa(allocsPerRun)})
			if err != nil {
				return nil, fmt.Errorf("opcost: allocation shape of %d chars: %w", n, err)
			}
			as.Samples[i] = append(as.Samples[i], ns)
		}
	}
	return as, nil
}

// AllocTerms are the costs the allocation shapes give the model: per byte
// allocated beyond the table's one-element array, in the main space and
// in the large-object space, and per object in the large-object space.
type AllocTerms struct {
	MainByteNS    float64 `json:"main_byte_ns"`
	LargeByteNS   float64 `json:"large_byte_ns"`
	LargeObjectNS float64 `json:"large_object_ns"`
	// BaseSize is the table's array's size (what its new-array pays).
	BaseSize uint32 `json:"base_size"`
}

// allocTerms derives the terms: each space's cost per byte is the slope
// between its two shapes; a large object's own cost is what the smaller
// large shape costs beyond the one-element array and its bytes. Noise
// can make a term negative on a loaded host; the model then adds nothing
// for it.
func allocTerms(as *AllocShapes) (AllocTerms, error) {
	if len(as.Sizes) != len(allocLengths) || len(as.Samples) != len(allocLengths) {
		return AllocTerms{}, fmt.Errorf("opcost: allocation shapes: %d sizes and %d sample sets, want %d", len(as.Sizes), len(as.Samples), len(allocLengths))
	}
	per := make([]float64, len(as.Samples)) // ns per allocation
	for i, s := range as.Samples {
		if len(s) == 0 {
			return AllocTerms{}, fmt.Errorf("opcost: allocation shapes: no measurements of %d chars", as.Lengths[i])
		}
		per[i] = median(s) / float64(as.Allocs)
	}
	size := func(i int) float64 { return float64(as.Sizes[i]) }
	t := AllocTerms{BaseSize: as.Sizes[0]}
	t.MainByteNS = max(0, (per[2]-per[1])/(size(2)-size(1)))
	t.LargeByteNS = max(0, (per[4]-per[3])/(size(4)-size(3)))
	t.LargeObjectNS = max(0, per[3]-per[0]-t.LargeByteNS*(size(3)-size(0)))
	return t, nil
}

// AllocCounts are a program's allocations in its counting run, those made
// inside a timed native apart (the native's time holds them already).
type AllocCounts struct {
	Objects      uint64 `json:"objects"`
	Bytes        uint64 `json:"bytes"` // the main space's
	LargeObjects uint64 `json:"large_objects"`
	LargeBytes   uint64 `json:"large_bytes"`
	// NativeBytes were allocated inside native calls.
	NativeBytes uint64 `json:"native_bytes"`
	// GCs are the collections and GCNS their thread CPU time: not in the
	// model (the shapes' costs per byte hold the collections that
	// allocation brings on), recorded to show where the time goes.
	GCs  uint64 `json:"gcs"`
	GCNS int64  `json:"gc_ns"`
}

// allocMeter counts a counting run's allocations and times its
// collections, through runtime.Hooks.
type allocMeter struct {
	counts  AllocCounts
	natives *nativeMeter // whether a native call is under way
	gcStart int64
}

func (am *allocMeter) install(hk *runtime.Hooks) {
	hk.Alloc = am.alloc
	hk.GCStart = func(int) { am.gcStart = threadCPU() }
	hk.GCEnd = func(runtime.GCInfo) {
		am.counts.GCs++
		am.counts.GCNS += threadCPU() - am.gcStart
	}
}

func (am *allocMeter) alloc(_ *runtime.Thread, _ runtime.Site, c *runtime.Class, size, _ uint32) {
	c0 := &am.counts
	switch {
	case am.natives != nil && am.natives.depth.Load() > 0:
		c0.NativeBytes += uint64(size)
	case size >= gc.LargeThreshold && largeEligible(c.Name):
		c0.LargeObjects++
		c0.LargeBytes += uint64(size)
	default:
		c0.Objects++
		c0.Bytes += uint64(size)
	}
}

// largeEligible reports whether objects of the class go to the
// large-object space when large enough: primitive arrays and strings, as
// ART places them.
func largeEligible(name string) bool {
	return name == "java.lang.String" || (strings.HasPrefix(name, "[") && len(name) == 2)
}

// term is the model's allocation term for a program, ns.
func (t AllocTerms) term(c *AllocCounts) float64 {
	if c == nil {
		return 0
	}
	base := float64(t.BaseSize)
	main := max(0, float64(c.Bytes)-float64(c.Objects)*base)
	large := max(0, float64(c.LargeBytes)-float64(c.LargeObjects)*base)
	return main*t.MainByteNS + large*t.LargeByteNS + float64(c.LargeObjects)*t.LargeObjectNS
}
