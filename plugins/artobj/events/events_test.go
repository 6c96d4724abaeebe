package events

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// record writes a small file: two threads allocating in turns with
// buffers of 3 records, so their buffers reach the file out of order, a
// collection that moves and frees, and a bitmap per epoch.
func record(t *testing.T, complete bool) []byte {
	t.Helper()
	var b bytes.Buffer
	r, err := NewRecorder(&b, 3, RunDef{Collector: "ss", Engine: "interp", HeapMax: 1 << 20, Main: [][2]uint32{{0x1000, 0x2000}}})
	if err != nil {
		t.Fatal(err)
	}
	r.DefineClass(ClassDef{ID: 7, Name: "a.Node"})
	r.DefineSite(SiteDef{ID: 1, Method: "a.Main.main", PC: 4})
	r.DefineThread(ThreadDef{ID: 1, Name: "main"})
	for i := range 5 {
		r.Alloc(uint32(1+i%2), 0x1000+uint32(i)*16, 16, 7, 1)
	}
	r.GCStart(1)
	r.Bitmap(0, 0x1000, false, func(f func(uint32)) { f(0x1000); f(0x1010); f(0x1000 + 8*64*3) })
	r.Move(0x1000, 0x9000, 16)
	r.Free(0x1010, 16)
	r.GCEnd(GCDef{Count: 1, Kind: "full", Collector: "semispace"})
	r.Alloc(1, 0x9010, 24, 7, 1)
	r.Bitmap(1, 0x9000, true, func(f func(uint32)) { f(0x9010) })
	if err := r.Close(complete); err != nil {
		t.Fatal(err)
	}
	if r.Records() != 10 {
		t.Fatalf("%d records, want 10", r.Records())
	}
	return b.Bytes()
}

func TestRoundTrip(t *testing.T) {
	data := record(t, true)
	f, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if f.Partial {
		t.Fatalf("complete file read as partial: %s", f.Problem)
	}
	if f.Size != int64(len(data)) {
		t.Errorf("size %d, file %d", f.Size, len(data))
	}
	var kinds []string
	for i, e := range f.Events {
		if e.Seq != uint64(i+1) {
			t.Errorf("event %d has sequence %d: not in global order", i, e.Seq)
		}
		kinds = append(kinds, e.Kind.String())
	}
	if got := strings.Join(kinds, " "); got != "alloc alloc alloc alloc alloc gc-start move free gc-end alloc" {
		t.Errorf("kinds %s", got)
	}
	threads := map[uint32]int{}
	for _, e := range f.Events[:5] {
		threads[e.Thread]++
		if e.Epoch != 0 {
			t.Errorf("allocation before the first collection in epoch %d", e.Epoch)
		}
	}
	if threads[1] != 3 || threads[2] != 2 {
		t.Errorf("allocations per thread %v", threads)
	}
	if e := f.Events[9]; e.Epoch != 1 || e.A != 0x9010 || e.B != 24 || e.Thread != 1 {
		t.Errorf("last allocation %+v", e)
	}
	if f.Classes[7] != "a.Node" || f.Sites[1].Method != "a.Main.main" || f.Threads[1] != "main" || f.Run.Collector != "ss" {
		t.Errorf("definitions %v %v %v %+v", f.Classes, f.Sites, f.Threads, f.Run)
	}
	if len(f.GCs) != 1 || f.GCs[0].Collector != "semispace" {
		t.Errorf("collections %+v", f.GCs)
	}
	if len(f.Bitmaps) != 2 || f.Bitmaps[1].Final != true {
		t.Fatalf("bitmaps %+v", f.Bitmaps)
	}
	var marked []uint32
	f.Bitmaps[0].Each(func(a uint32) { marked = append(marked, a) })
	if len(marked) != 3 || marked[0] != 0x1000 || marked[1] != 0x1010 || marked[2] != 0x1000+8*64*3 {
		t.Errorf("epoch 0 marked %#x", marked)
	}
}

// Every cut of the file reads without error as partial, with the events
// of the complete records before the cut, and says where it ends.
func TestTruncated(t *testing.T) {
	data := record(t, true)
	full, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	prev := -1
	bitmapCuts := 0
	for cut := headerSize; cut < len(data); cut++ {
		path := filepath.Join(dir, "cut")
		if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := ReadFile(path)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if !f.Partial || !strings.Contains(f.Problem, "offset") || !strings.Contains(f.Problem, path) {
			t.Fatalf("cut at %d: partial %v, problem %q", cut, f.Partial, f.Problem)
		}
		if f.Size > int64(cut) {
			t.Fatalf("cut at %d: says it ends at %d", cut, f.Size)
		}
		// A bitmap dump cut short: said so, and its epoch's accesses
		// left out, the bitmaps before it kept.
		if strings.Contains(f.Problem, "bitmap block at offset") {
			bitmapCuts++
			if !strings.Contains(f.Problem, "cut short") || len(f.Bitmaps) >= len(full.Bitmaps) {
				t.Fatalf("cut at %d inside a bitmap block: %q, %d of %d bitmaps", cut, f.Problem, len(f.Bitmaps), len(full.Bitmaps))
			}
		}
		if len(f.Events) < prev {
			t.Fatalf("cut at %d: %d events, fewer than a shorter cut's %d", cut, len(f.Events), prev)
		}
		prev = len(f.Events)
	}
	if bitmapCuts == 0 {
		t.Error("no cut fell inside a bitmap block")
	}
	if prev != len(full.Events) {
		t.Errorf("the longest cut has %d events, the file %d", prev, len(full.Events))
	}
	// Without the end block, a file of complete blocks is partial too.
	unfinished := record(t, false)
	f, err := Read(bytes.NewReader(unfinished))
	if err != nil || !f.Partial || !strings.Contains(f.Problem, "no end block") {
		t.Errorf("unfinished file: %v, partial %v %q", err, f.Partial, f.Problem)
	}
}

func TestMalformed(t *testing.T) {
	data := record(t, true)
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"empty", func([]byte) []byte { return nil }, "empty file"},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "bad magic"},
		{"version", func(b []byte) []byte { b[8] = 9; return b }, "format version 9 at offset 8"},
		{"block type", func(b []byte) []byte { b[headerSize] = 'Q'; return b }, "unknown block type 0x51 at offset 16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.edit(bytes.Clone(data))
			_, err := Read(bytes.NewReader(b))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
