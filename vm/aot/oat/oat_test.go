package oat_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm/aot"
	"github.com/droidprof/droidprof/vm/aot/frontend"
	"github.com/droidprof/droidprof/vm/aot/oat"
	"github.com/droidprof/droidprof/vm/aot/ssa"
	"github.com/droidprof/droidprof/vm/core"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/workloads"
)

// corpus is core.dex and every workload's DEX file, by name.
func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{"core.dex": core.DEX()}
	for _, d := range workloads.DEXFiles() {
		b, err := workloads.Workload{Name: d.Name, DEX: d.Name}.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		files[d.Name] = b
	}
	return files
}

func readDEX(t testing.TB, data []byte) *dex.File {
	t.Helper()
	f, err := dex.ReadWithOptions(data, dex.Options{SkipSignature: true})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func dump(fn *ssa.Func) string {
	var sb strings.Builder
	ssa.Fprint(&sb, fn, nil)
	return sb.String()
}

// survivors returns t's entries for the blocks fn still has (the cache
// keeps no others), with nil maps for none.
func survivors(fn *ssa.Func, t aot.Tables) aot.Tables {
	var out aot.Tables
	for _, b := range fn.Blocks {
		if h, ok := t.Handlers[b.ID]; ok {
			if out.Handlers == nil {
				out.Handlers = map[int][]int{}
			}
			out.Handlers[b.ID] = h
		}
		if pc, ok := t.ThrowPC[b.ID]; ok {
			if out.ThrowPC == nil {
				out.ThrowPC = map[int]int{}
			}
			out.ThrowPC[b.ID] = pc
		}
	}
	return out
}

// TestRoundTripCorpus writes the cache of every method of core.dex and
// of every workload and reads it back: the same IR (text dumps and ID
// bounds), side tables, fallbacks and their reasons, and key.
func TestRoundTripCorpus(t *testing.T) {
	for name, data := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			f := readDEX(t, data)
			cfg := ssa.Config{}
			start := time.Now()
			r := aot.Compile(f, aot.Options{Passes: cfg})
			compiled := time.Since(start)
			want := oat.New(f, name, r, cfg)
			b, err := oat.Encode(want)
			if err != nil {
				t.Fatal(err)
			}
			start = time.Now()
			got, err := oat.Read(b)
			loaded := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d methods, %d fallbacks: %d bytes; compile %v, load %v", len(r.Methods), len(r.Fallbacks), len(b), compiled, loaded)
			got.SetNames(f)
			if got.DexChecksum != f.Header.Checksum || got.DexSignature != f.Header.Signature || got.Location != name || got.Compiler != oat.Identity(cfg) {
				t.Errorf("header: got %08x %x %q %q", got.DexChecksum, got.DexSignature, got.Location, got.Compiler)
			}
			if err := got.Match(f); err != nil {
				t.Error(err)
			}
			if len(got.Methods) != len(want.Methods) || len(got.Fallbacks) != len(want.Fallbacks) {
				t.Fatalf("%d methods and %d fallbacks read back, %d and %d written", len(got.Methods), len(got.Fallbacks), len(want.Methods), len(want.Fallbacks))
			}
			wantByIndex := map[uint32]aot.Method{}
			for _, m := range want.Methods {
				wantByIndex[m.Index] = m
			}
			for _, g := range got.Methods {
				w, ok := wantByIndex[g.Index]
				if !ok {
					t.Errorf("method %d read back, not written", g.Index)
					continue
				}
				if g.Name != w.Name {
					t.Errorf("method %d: name %q, want %q", g.Index, g.Name, w.Name)
				}
				if gd, wd := dump(g.Func), dump(w.Func); gd != wd {
					t.Errorf("%s: IR read back:\n%s\nwritten:\n%s", w.Name, gd, wd)
				}
				if g.Func.NumValues() != w.Func.NumValues() || g.Func.NumBlocks() != w.Func.NumBlocks() {
					t.Errorf("%s: ID bounds %d/%d, want %d/%d", w.Name, g.Func.NumValues(), g.Func.NumBlocks(), w.Func.NumValues(), w.Func.NumBlocks())
				}
				if ws := survivors(w.Func, w.Tables); !reflect.DeepEqual(g.Tables, ws) {
					t.Errorf("%s: tables %v, want %v", w.Name, g.Tables, ws)
				}
			}
			for i, g := range got.Fallbacks {
				w := want.Fallbacks[i]
				if g.Name != w.Name || g.Index != w.Index || g.Reason.Error() != w.Reason.Error() {
					t.Errorf("fallback %d: %s %d %v, want %s %d %v", i, g.Name, g.Index, g.Reason, w.Name, w.Index, w.Reason)
				}
			}
			gr := (&aot.Result{Fallbacks: got.Fallbacks}).FallbackReasons()
			if wr := r.FallbackReasons(); !reflect.DeepEqual(gr, wr) && len(wr) > 0 {
				t.Errorf("fallback reasons %v, want %v", gr, wr)
			}
			// a cache reads back to the bytes it was read from
			again, err := oat.Encode(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, b) {
				t.Error("re-encoding the cache read back gives other bytes")
			}
		})
	}
}

// smallCache is the encoded cache of a small workload.
func smallCache(t testing.TB) (*dex.File, []byte) {
	t.Helper()
	data, err := workloads.Workload{Name: "dpa-fib", DEX: "dpa-fib.dex"}.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	f := readDEX(t, data)
	b, err := oat.Encode(oat.New(f, "dpa-fib.dex", aot.Compile(f, aot.Options{}), ssa.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	return f, b
}

// resum fixes the length and checksum of b after an edit, so the edit
// reaches the decoder.
func resum(b []byte) []byte {
	b = append([]byte(nil), b...)
	if len(b) < 44 {
		return b
	}
	binary.LittleEndian.PutUint32(b[12:], uint32(len(b)))
	end := len(b) - 4
	binary.LittleEndian.PutUint32(b[end:], crc32.Checksum(b[:end], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

// TestReadErrors checks that damaged caches are refused with the kind of
// damage and its offset.
func TestReadErrors(t *testing.T) {
	_, good := smallCache(t)
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, tc := range []struct {
		name string
		data []byte
		is   error
		want string
	}{
		{"empty", nil, oat.ErrCorrupt, "offset 0x0: truncated: 0 bytes"},
		{"magic prefix", good[:5], oat.ErrCorrupt, "offset 0x5: truncated: 5 bytes"},
		{"wrong magic", append([]byte("dex\n035\x00"), good[8:]...), oat.ErrCorrupt, `offset 0x0: not an .oat cache: the file starts with "dex\n035\x00"`},
		{"text file", []byte("hello"), oat.ErrCorrupt, "offset 0x0: not an .oat cache"},
		{"header cut", good[:30], oat.ErrCorrupt, "offset 0x1e: truncated: 30 bytes, the header alone is 40"},
		{"truncated", good[:len(good)/2], oat.ErrCorrupt, "truncated: " + strconv.Itoa(len(good)/2) + " of the " + strconv.Itoa(len(good)) + " bytes"},
		{"last byte cut", good[:len(good)-1], oat.ErrCorrupt, "truncated: " + strconv.Itoa(len(good)-1) + " of the"},
		{"trailing byte", append(append([]byte(nil), good...), 0), oat.ErrCorrupt, "1 bytes after the end the header gives"},
		{"bit flip", edit(func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b }), oat.ErrCorrupt, "checksum mismatch"},
		{"version", edit(func(b []byte) []byte { b[8] = 99; return b }), oat.ErrCompiler, "format version 99, this droidprof reads version 2"},
		{"content ends early", resum(good[:len(good)-20]), oat.ErrCorrupt, "truncated (the content ends)"},
		{"count too large", resum(edit(func(b []byte) []byte {
			// the compiler identity's length, 16383
			b[40], b[41] = 0xff, 0x7f
			return b
		})), oat.ErrCorrupt, "offset 0x28: compiler identity length 16383: more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := oat.Read(tc.data)
			if err == nil {
				t.Fatalf("Read accepted it: %d methods", len(c.Methods))
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestBadIR checks that IR which decodes but breaks the IR's invariants
// (here a value used where it is not defined) is refused as corrupt,
// named by its method's index and the offset.
func TestBadIR(t *testing.T) {
	f, _ := smallCache(t)
	r := aot.Compile(f, aot.Options{})
	var m *aot.Method
	for i := range r.Methods {
		if len(r.Methods[i].Func.Blocks) > 1 {
			m = &r.Methods[i]
			break
		}
	}
	if m == nil {
		t.Fatal("no method with more than one block")
	}
	// make the entry block's control (or its first value's first
	// argument) something defined later: a dominance violation
	fn := m.Func
	last := fn.Blocks[len(fn.Blocks)-1]
	var victim *ssa.Value
	for _, v := range last.Values {
		if v.Op != ssa.OpPhi {
			victim = v
		}
	}
	if victim == nil {
		t.Skip("no value in the last block")
	}
	entry := fn.Entry()
	entry.Values = append(entry.Values, &ssa.Value{ID: fn.NumValues(), Op: ssa.OpCopy, Type: victim.Type, Args: []*ssa.Value{victim}, Block: entry, PC: -1})
	fn.Reserve(fn.NumValues()+1, 0)
	b, err := oat.Encode(oat.New(f, "x.dex", r, ssa.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = oat.Read(b)
	label := "method " + strconv.Itoa(int(m.Index)) + ": "
	if !errors.Is(err, oat.ErrCorrupt) || !strings.Contains(err.Error(), label) || !strings.Contains(err.Error(), "offset 0x") {
		t.Fatalf("Read: %v, want a corrupt-cache error naming %q and an offset", err, label)
	}
}

// TestStaleAndCompiler checks Match against another DEX and CheckCompiler
// against another pipeline.
func TestStaleAndCompiler(t *testing.T) {
	f, b := smallCache(t)
	c, err := oat.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Match(f); err != nil {
		t.Errorf("Match of its own DEX: %v", err)
	}
	other := readDEX(t, core.DEX())
	if err := c.Match(other); !errors.Is(err, oat.ErrStale) || !strings.Contains(err.Error(), "dpa-fib.dex") {
		t.Errorf("Match of another DEX: %v, want a stale error naming dpa-fib.dex", err)
	}
	if err := c.CheckCompiler(oat.Identity(ssa.Config{})); err != nil {
		t.Errorf("CheckCompiler of the same pipeline: %v", err)
	}
	id := oat.Identity(ssa.Config{Disabled: map[string]bool{"cse": true}})
	if err := c.CheckCompiler(id); !errors.Is(err, oat.ErrCompiler) {
		t.Errorf("CheckCompiler of a pipeline without cse: %v, want ErrCompiler", err)
	}
	// the checker and the dump hook do not change the IR
	same := ssa.Config{Disabled: map[string]bool{}, Check: true, After: func(string, *ssa.Func) {}}
	if got, want := oat.Identity(same), oat.Identity(ssa.Config{}); got != want {
		t.Errorf("identity with checks and a dump hook %q, without %q", got, want)
	}
	if strings.Contains(id, "cse,") || !strings.Contains(oat.Identity(ssa.Config{}), "constfold,cse,deadcode") {
		t.Errorf("identities %q and %q do not list the passes run", id, oat.Identity(ssa.Config{}))
	}
}

// TestFallbacksRoundTrip checks that fallbacks keep their reasons: a
// front-end error with its pc and reason (the engine groups by the
// reason), any other error as its message.
func TestFallbacksRoundTrip(t *testing.T) {
	f, _ := smallCache(t)
	r := aot.Compile(f, aot.Options{})
	if len(r.Methods) < 4 {
		t.Fatalf("%d methods, want at least 4", len(r.Methods))
	}
	reasons := []error{
		&frontend.Error{PC: 7, Reason: "invoke-polymorphic is not compiled"},
		errors.New("internal compiler error: boom"),
		&frontend.Error{PC: -1, Reason: "no code"},
	}
	for i, why := range reasons {
		m := r.Methods[i]
		r.Fallbacks = append(r.Fallbacks, aot.Fallback{Name: m.Name, Index: m.Index, Reason: why})
	}
	r.Methods = r.Methods[len(reasons):]
	b, err := oat.Encode(oat.New(f, "dpa-fib.dex", r, ssa.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	c, err := oat.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	c.SetNames(f)
	if len(c.Fallbacks) != len(reasons) {
		t.Fatalf("%d fallbacks read back, want %d", len(c.Fallbacks), len(reasons))
	}
	sort.Slice(r.Fallbacks, func(i, j int) bool { return r.Fallbacks[i].Index < r.Fallbacks[j].Index })
	for i, w := range r.Fallbacks {
		g := c.Fallbacks[i]
		if g.Name != w.Name || g.Index != w.Index || g.Reason.Error() != w.Reason.Error() || reflect.TypeOf(g.Reason) != reflect.TypeOf(w.Reason) {
			t.Errorf("fallback %d: %s %d %T %v, want %s %d %T %v", i, g.Name, g.Index, g.Reason, g.Reason, w.Name, w.Index, w.Reason, w.Reason)
		}
	}
	if got, want := (&aot.Result{Fallbacks: c.Fallbacks}).FallbackReasons(), r.FallbackReasons(); !reflect.DeepEqual(got, want) {
		t.Errorf("reasons %v, want %v", got, want)
	}
	// a method index written twice cannot be encoded
	r.Fallbacks = append(r.Fallbacks, aot.Fallback{Name: "again", Index: r.Methods[0].Index, Reason: errors.New("x")})
	if _, err := oat.Encode(oat.New(f, "dpa-fib.dex", r, ssa.Config{})); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Errorf("Encode with a method twice: %v", err)
	}
}

// TestDeterministic compiles each DEX file of the corpus twice: the
// caches are the same bytes, as dex2oat's output is for the same input
// (the compiler must not depend on map order).
func TestDeterministic(t *testing.T) {
	for name, data := range corpus(t) {
		f := readDEX(t, data)
		var first []byte
		for i := 0; i < 3; i++ {
			b, err := oat.Encode(oat.New(f, name, aot.Compile(f, aot.Options{}), ssa.Config{}))
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = b
			} else if !bytes.Equal(b, first) {
				t.Errorf("%s: compile %d gave another cache than the first", name, i+1)
				break
			}
		}
	}
}
