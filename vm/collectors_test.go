package vm_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
)

// chains follows every object's addresses through the Alloc, Move and
// Free hooks and checks that each event is consistent with the objects
// the hooks say are alive: an allocation or a move lands on no live
// object, a move or a death starts from one.
type chains struct {
	t                   *testing.T
	live                map[uint32]int // address -> chain id
	allocs, moves, dead int
	bad                 int
}

func newChains(t *testing.T) *chains { return &chains{t: t, live: map[uint32]int{}} }

func (c *chains) fail(format string, args ...any) {
	if c.bad++; c.bad <= 10 {
		c.t.Errorf(format, args...)
	}
}

func (c *chains) hooks() *runtime.Hooks {
	return &runtime.Hooks{
		Alloc: func(_ *runtime.Thread, _ runtime.Site, k *runtime.Class, size, addr uint32) {
			if id, ok := c.live[addr]; ok {
				c.fail("allocation of %s at %#x, where object %d still lives", k.Name, addr, id)
			}
			c.allocs++
			c.live[addr] = c.allocs
		},
		Move: func(from, to, size uint32) {
			id, ok := c.live[from]
			if !ok {
				c.fail("move of %#x, where no object lives, to %#x", from, to)
			}
			delete(c.live, from)
			if other, ok := c.live[to]; ok {
				c.fail("object %d moved from %#x onto object %d at %#x", id, from, other, to)
			}
			c.moves++
			c.live[to] = id
		},
		Free: func(addr, size uint32) {
			if _, ok := c.live[addr]; !ok {
				c.fail("death at %#x, where no allocated object lives", addr)
			}
			delete(c.live, addr)
			c.dead++
		},
	}
}

// Under the semi-space collector objects move; every object's address
// chain (alloc -> move -> ... -> death, or alive at exit) is complete,
// and at exit the chains still open are exactly the live objects the
// heap (checked by the verifier around every collection) holds.
func TestAddressChains(t *testing.T) {
	for _, col := range []gc.Collector{gc.SS, gc.CMS} {
		t.Run(string(col), func(t *testing.T) {
			path, w := workloadDEX(t, "dpa-concat")
			c := newChains(t)
			gcs := 0
			h := c.hooks()
			h.GCEnd = func(runtime.GCInfo) { gcs++ }
			var out bytes.Buffer
			v, err := vm.New(vm.Options{ClassPath: []string{path}, Hooks: h, Stdout: &out,
				GC: gc.Config{Collector: col, Verify: true, Max: 8 << 20}})
			if err != nil {
				t.Fatal(err)
			}
			if code, err := v.RunMain(context.Background(), w.Main, w.Args); err != nil || code != 0 {
				t.Fatalf("exit %d, %v", code, err)
			}
			if gcs == 0 || c.dead == 0 || (col == gc.SS) != (c.moves > 0) {
				t.Fatalf("%d collections, %d moves, %d deaths", gcs, c.moves, c.dead)
			}
			if err := v.GCHeap.Verify(); err != nil {
				t.Fatal(err)
			}
			heapLive := map[uint32]bool{}
			v.GCHeap.Walk(func(a uint32) { heapLive[a] = true })
			for a := range c.live {
				if !heapLive[a] {
					c.fail("chain ends at %#x, which the heap does not hold", a)
				}
			}
			for a := range heapLive {
				if _, ok := c.live[a]; !ok && v.ClassOf(a).Name != "java.lang.Class" {
					c.fail("the heap holds %#x (%s), which no chain reaches", a, v.ClassOf(a).Name)
				}
			}
			t.Logf("%s: %d allocations, %d moves, %d deaths, %d alive at exit, %d collections", col, c.allocs, c.moves, c.dead, len(c.live), gcs)
		})
	}
}

// A heap limit too small for what the program keeps fails with ART's
// OutOfMemoryError, not a Go panic; a limit below the minimum is a
// configuration error naming -Xmx.
func TestHeapTooSmall(t *testing.T) {
	if _, err := vm.New(vm.Options{GC: gc.Config{Max: 512 << 10}}); err == nil || !strings.Contains(err.Error(), "heap-max") && !strings.Contains(err.Error(), "-Xmx") {
		t.Errorf("512 KiB heap: %v", err)
	}
	for _, col := range []gc.Collector{gc.CMS, gc.SS} {
		path, w := workloadDEX(t, "leak-list")
		var out, errOut bytes.Buffer
		v, err := vm.New(vm.Options{ClassPath: []string{path}, Stdout: &out, Stderr: &errOut, GC: gc.Config{Collector: col, Max: 1 << 20}})
		if err != nil {
			t.Fatal(err)
		}
		code, err := v.RunMain(context.Background(), w.Main, w.Args)
		if err != nil {
			t.Fatalf("%s: VM error %v", col, err)
		}
		// ART's message, or, when not even that fits, the one of the
		// error preallocated for that case.
		msg := errOut.String()
		if code != 1 || !(strings.Contains(msg, "java.lang.OutOfMemoryError: Failed to allocate a ") && strings.Contains(msg, "growth limit 1048576") ||
			strings.Contains(msg, "java.lang.OutOfMemoryError: OutOfMemoryError thrown while trying to throw OutOfMemoryError")) {
			t.Errorf("%s: exit %d, stderr %q", col, code, msg)
		}
	}
}

// GC stress (a collection at every allocation from a call stack not seen
// before, as ART's gcstress) with the heap verified around each
// collection, under both collectors, on programs that allocate and use
// strings, class initialisers and collections.
func TestStressVerify(t *testing.T) {
	for _, wl := range []struct {
		name string
		args []string
	}{{"dpa-concat", []string{"200"}}, {"leak-list", []string{"100"}}} {
		for _, col := range []gc.Collector{gc.CMS, gc.SS} {
			t.Run(wl.name+"/"+string(col), func(t *testing.T) {
				path, w := workloadDEX(t, wl.name)
				var want, got bytes.Buffer
				if code, err := vm.Run(context.Background(), vm.Options{ClassPath: []string{path}, Stdout: &want}, w.Main, wl.args); err != nil || code != 0 {
					t.Fatalf("without stress: exit %d, %v", code, err)
				}
				gcs := 0
				opts := vm.Options{ClassPath: []string{path}, Stdout: &got, Hooks: &runtime.Hooks{GCEnd: func(i runtime.GCInfo) {
					if i.Cause == "Stress" {
						gcs++
					}
				}},
					GC: gc.Config{Collector: col, Stress: true, Verify: true}}
				if code, err := vm.Run(context.Background(), opts, w.Main, wl.args); err != nil || code != 0 {
					t.Fatalf("exit %d, %v", code, err)
				}
				if got.String() != want.String() || gcs < 50 {
					t.Errorf("%d stress collections (want 50 or more); output %q, want %q", gcs, got.String(), want.String())
				}
			})
		}
	}
}

// The verifier reports a reference to a live object of the wrong class,
// naming the object, the field's offset, the value and both classes.
func TestVerifierFindsAWrongClass(t *testing.T) {
	path, w := workloadDEX(t, "dpa-concat")
	v, err := vm.New(vm.Options{ClassPath: []string{path}, Stdout: io.Discard, GC: gc.Config{Collector: gc.SS}})
	if err != nil {
		t.Fatal(err)
	}
	if code, err := v.RunMain(context.Background(), w.Main, []string{"10"}); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if err := v.GCHeap.Verify(); err != nil {
		t.Fatalf("sound heap: %v", err)
	}
	var str uint32
	v.GCHeap.Walk(func(a uint32) {
		if str == 0 && v.ClassOf(a).Name == "java.lang.String" && v.Heap.U32(a+8) != 0 {
			str = a
		}
	})
	if str == 0 {
		t.Fatal("no String in the heap")
	}
	off := uint32(0)
	for _, f := range v.Class("Ljava/lang/String;").Fields {
		if f.Name == "value" {
			off = f.Offset
		}
	}
	v.Heap.SetU32(str+off, str) // a String where its char[] belongs
	err = v.GCHeap.Verify()
	want := regexp.MustCompile(fmt.Sprintf(`^object %#x in (zygote|bump pointer space): the reference at offset %d holds %#x: an instance of java.lang.String, which does not fit the declared type \[C$`, str, off, str))
	if err == nil || !want.MatchString(err.Error()) {
		t.Errorf("Verify() = %v\nwant %s", err, want)
	}
}
