package artobj

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/framework/sdk/sdktest"
	"github.com/droidprof/droidprof/plugins/artobj/chain"
	"github.com/droidprof/droidprof/plugins/artobj/events"
	"github.com/droidprof/droidprof/plugins/artobj/hprof"
	"github.com/droidprof/droidprof/vm/vmconfig"
)

func TestConformance(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	sdktest.Conformance(t, c)
}

// collectStep runs the collector once and reads back its result and
// event file.
func collectStep(t *testing.T, c *sdktest.Conn, run, id string, cfg map[string]any) (*sdktest.Outcome, Result, *events.File) {
	t.Helper()
	out, err := c.Collect(context.Background(), "artobj", cfg, sdktest.CollectOptions{RunDir: run, StepID: id})
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	var r Result
	data, err := os.ReadFile(filepath.Join(out.StepDir, ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	f, err := events.ReadFile(filepath.Join(out.StepDir, EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	if f.Partial {
		t.Fatalf("%s: a finished run's event file is partial: %s", id, f.Problem)
	}
	return out, r, f
}

// Every object has a complete chain, and the objects the chains leave
// alive at exit are the objects a heap walk finds at exit, in number and
// bytes, on both collectors and engines.
func TestChainsMatchHeapWalk(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	run := t.TempDir()
	for _, tc := range []struct{ collector, engine, barriers string }{
		{"cms", "interp", "off"},
		{"ss", "interp", "off"},
		{"cms", "aot", "all"},
		{"ss", "aot", "none"},
		{"cms", "aot", "cache"},
		{"ss", "aot", "elim"},
		{"cms", "aot", "off"},
	} {
		name := fmt.Sprintf("%s-%s-%s", tc.collector, tc.engine, tc.barriers)
		t.Run(name, func(t *testing.T) {
			cfg := map[string]any{"workload": "leak-list", "args": []string{"4000"}, "buffer_records": 64,
				"vm": map[string]any{"collector": tc.collector, "engine": tc.engine, "barriers": tc.barriers, "heap_max": 8 << 20, "heap_start": 1 << 20, "min_free": 64 << 10, "max_free": 256 << 10}}
			_, r, f := collectStep(t, c, run, name, cfg)
			if r.ExitCode != 0 {
				t.Fatalf("exit code %d", r.ExitCode)
			}
			h := chain.Build(f)
			if h.Epochs == 0 {
				t.Fatalf("no collection in the run: the test needs some")
			}
			alive, bytes := 0, uint64(0)
			moved := 0
			for i := range h.Objects {
				o := &h.Objects[i]
				if o.Death == chain.Alive {
					alive++
					bytes += uint64(o.Size)
				} else if o.Death < int64(o.Birth) || uint32(o.Death) > h.Epochs {
					t.Errorf("object %d: died at %d, born at %d, %d collections", i, o.Death, o.Birth, h.Epochs)
				}
				if len(o.Chain) > 1 {
					moved++
				}
			}
			t.Logf("%d objects, %d collections, %d alive at exit, %d moved, %d access epochs, %d events", len(h.Objects), h.Epochs, alive, moved, h.AccessEpochs, len(f.Events))
			if alive != r.LiveAtExit || bytes != r.LiveBytesAtExit {
				t.Errorf("chains alive at exit: %d objects, %d bytes; heap walk: %d, %d", alive, bytes, r.LiveAtExit, r.LiveBytesAtExit)
			}
			if (tc.collector == "ss") != (moved > 0) {
				t.Errorf("%s: %d objects moved", tc.collector, moved)
			}
			// Complete chains: every move and death names an object whose
			// allocation was recorded.
			if h.UnknownMoves != 0 || h.UnknownFrees != 0 {
				t.Errorf("%d moves and %d deaths of objects with no allocation event", h.UnknownMoves, h.UnknownFrees)
			}
			// The interpreter's barriers are on by default.
			access := tc.engine == "interp" || tc.barriers != "off"
			if access != (h.AccessEpochs > 0) {
				t.Errorf("%s engine, barriers %s: %d access epochs", tc.engine, tc.barriers, h.AccessEpochs)
			}
			// One bitmap per collection and one at exit, the last epoch's.
			if access && (len(f.Bitmaps) != int(h.Epochs)+1 || !f.Bitmaps[len(f.Bitmaps)-1].Final || f.Bitmaps[len(f.Bitmaps)-1].Epoch != h.Epochs) {
				t.Errorf("%d bitmaps for %d collections; the last %+v", len(f.Bitmaps), h.Epochs, f.Bitmaps[len(f.Bitmaps)-1])
			}
		})
	}
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		args []string
		err  string
		// the interpreter's barriers, and the level reported
		interp   bool
		barriers string
	}{
		{"workload", Config{Workload: "leak-list"}, nil, "", false, "off"},
		{"workload with arguments", Config{Workload: "leak-list  50 7"}, []string{"50", "7"}, "", false, "off"},
		{"and an empty args list", Config{Workload: "leak-list 50", Args: []string{}}, []string{"50"}, "", false, "off"},
		{"arguments twice", Config{Workload: "leak-list 50", Args: []string{"3"}}, nil, "give them once", false, ""},
		{"unknown workload", Config{Workload: "leak-nope 3"}, nil, `no workload "leak-nope"`, false, ""},
		{"no program", Config{}, nil, "set workload, or class_path and main", false, ""},
		{"interpreter barriers on interp", Config{Workload: "chess", InterpreterBarriers: true}, nil, "", true, "none"},
		{"aot without barriers", Config{Workload: "chess", InterpreterBarriers: true, VM: vmSettings("aot", "off")}, nil, "", false, "off"},
		{"aot with barriers", Config{Workload: "chess", InterpreterBarriers: true, VM: vmSettings("aot", "elim")}, nil, "", true, "elim"},
		{"barriers on interp", Config{Workload: "chess", VM: vmSettings("interp", "all")}, nil, "vm.barriers", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := resolve(tc.cfg, t.TempDir())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.args != nil && !slices.Equal(p.args, tc.args) {
				t.Errorf("args %q, want %q", p.args, tc.args)
			}
			if len(p.classPath) != 1 || p.main == "" {
				t.Errorf("program %+v", p)
			}
			if p.interpBarriers != tc.interp || p.barriers != tc.barriers {
				t.Errorf("interpreter barriers %v, level %q; want %v, %q", p.interpBarriers, p.barriers, tc.interp, tc.barriers)
			}
		})
	}
}

func vmSettings(engine, barriers string) vmconfig.Settings {
	return vmconfig.Settings{Engine: engine, Barriers: barriers}
}

// A run stopped mid-way (its context cancelled, as Ctrl-C does) keeps its
// event file: without an end block, so read as partial, with every
// collection written before the stop.
func TestStoppedRunKeepsEvents(t *testing.T) {
	cfg := Config{Workload: "leak-list 100000000", BufferRecords: 1024, InterpreterBarriers: true,
		VM: vmconfig.Settings{HeapStart: 1 << 20, HeapMax: 64 << 20, MinFree: 64 << 10, MaxFree: 256 << 10}}
	dir := t.TempDir()
	p, err := resolve(cfg, dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, EventsFile)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Stop the program once the file holds a few collections' events.
	go func() {
		for ctx.Err() == nil {
			if fi, err := os.Stat(path); err == nil && fi.Size() > 2<<20 {
				cancel()
				return
			}
			runtime.Gosched()
		}
	}()
	var r Result
	if err := profile(ctx, p, cfg.BufferRecords, path, io.Discard, io.Discard, &r); err == nil {
		t.Fatal("a stopped run reported no error")
	}
	f, err := events.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Partial || !strings.Contains(f.Problem, "no end block") {
		t.Errorf("partial %v: %s", f.Partial, f.Problem)
	}
	h := chain.Build(f)
	if h.Epochs == 0 || len(h.Objects) == 0 || len(f.GCs) == 0 {
		t.Errorf("%d collections, %d objects kept", h.Epochs, len(h.Objects))
	}
}

// HPROF dumps after a chosen collection and at exit hold the objects the
// chains say were live then.
func TestHprofDumps(t *testing.T) {
	c := sdktest.Start(t, Plugin())
	cfg := map[string]any{"workload": "leak-list 3000", "hprof_at_gc": []int{2}, "hprof_at_exit": true,
		"vm": map[string]any{"heap_start": 1 << 20, "min_free": 64 << 10, "max_free": 256 << 10}}
	out, _, f := collectStep(t, c, t.TempDir(), "hprof", cfg)
	h := chain.Build(f)
	if h.Epochs < 2 {
		t.Fatalf("%d collections: the dump after collection 2 needs them", h.Epochs)
	}
	// Live after collection g: born before it, not freed by it or before.
	liveAfter := func(class string, g int64) int {
		n := 0
		for i := range h.Objects {
			o := &h.Objects[i]
			if f.Classes[o.Class] == class && int64(o.Birth) < g && (o.Death == chain.Alive || o.Death > g) {
				n++
			}
		}
		return n
	}
	for _, tc := range []struct {
		file string
		g    int64
	}{{"heap-gc2.hprof", 2}, {"heap-exit.hprof", int64(h.Epochs) + 1}} {
		if sdk.Find(out.Step("artobj.artobj", nil, 0), tc.file) == nil {
			t.Errorf("%s not announced", tc.file)
			continue
		}
		r, err := os.Open(filepath.Join(out.StepDir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		d, err := hprof.Read(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		for _, class := range []string{"leak.ListLeak$Request", "[I"} {
			if got, want := d.Histogram[class], liveAfter(class, tc.g); got != want || want == 0 {
				t.Errorf("%s: %d objects of %s, the chains say %d were live", tc.file, got, class, want)
			}
		}
	}
}
