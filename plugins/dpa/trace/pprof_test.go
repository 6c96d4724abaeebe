package trace

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// decodedProfile is the part of profile.proto the tests look at, decoded
// independently of the writer.
type decodedProfile struct {
	strings     []string
	sampleTypes [][2]int64
	samples     []decodedSample
	locFunc     map[uint64]uint64 // location ID → function ID
	locMapping  map[uint64]uint64
	mappings    map[uint64]bool
	funcs       map[uint64][4]int64 // name, system name, filename, start line
	defaultType int64
	periodType  [2]int64
}

type decodedSample struct {
	locs   []uint64
	values []int64
	labels map[string]string
	nums   map[string]int64
}

// fields splits one message into (field number, varint or bytes) pairs.
func fields(t *testing.T, b []byte, fn func(num protowire.Number, v uint64, sub []byte)) {
	t.Helper()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				t.Fatalf("bad varint in field %d", num)
			}
			b = b[n:]
			fn(num, v, nil)
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				t.Fatalf("bad bytes in field %d", num)
			}
			b = b[n:]
			fn(num, 0, v)
		default:
			t.Fatalf("unexpected wire type %d in field %d", typ, num)
		}
	}
}

func packed(t *testing.T, b []byte) []uint64 {
	var out []uint64
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			t.Fatal("bad packed varint")
		}
		out = append(out, v)
		b = b[n:]
	}
	return out
}

// decodeProfile parses a gzipped profile and checks what pprof's
// Profile.CheckValid checks: string_table[0] == "", nonzero unique IDs,
// every sample with one value per sample type, and every location,
// function and mapping reference resolving.
func decodeProfile(t *testing.T, data []byte) *decodedProfile {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	p := &decodedProfile{locFunc: map[uint64]uint64{}, locMapping: map[uint64]uint64{}, mappings: map[uint64]bool{}, funcs: map[uint64][4]int64{}}
	type rawLabel struct{ key, str, num int64 }
	var sampleLabels [][]rawLabel
	fields(t, raw, func(num protowire.Number, v uint64, sub []byte) {
		switch num {
		case 1:
			var vt [2]int64
			fields(t, sub, func(n protowire.Number, v uint64, _ []byte) { vt[n-1] = int64(v) })
			p.sampleTypes = append(p.sampleTypes, vt)
		case 2:
			var s decodedSample
			var ls []rawLabel
			fields(t, sub, func(n protowire.Number, _ uint64, b []byte) {
				switch n {
				case 1:
					s.locs = packed(t, b)
				case 2:
					for _, x := range packed(t, b) {
						s.values = append(s.values, int64(x))
					}
				case 3:
					var l rawLabel
					fields(t, b, func(n protowire.Number, v uint64, _ []byte) {
						switch n {
						case 1:
							l.key = int64(v)
						case 2:
							l.str = int64(v)
						case 3:
							l.num = int64(v)
						}
					})
					ls = append(ls, l)
				}
			})
			p.samples = append(p.samples, s)
			sampleLabels = append(sampleLabels, ls)
		case 3:
			var id uint64
			fields(t, sub, func(n protowire.Number, v uint64, _ []byte) {
				if n == 1 {
					id = v
				}
			})
			if id == 0 || p.mappings[id] {
				t.Errorf("mapping ID %d zero or repeated", id)
			}
			p.mappings[id] = true
		case 4:
			var id, fn, mp uint64
			lines := 0
			fields(t, sub, func(n protowire.Number, v uint64, b []byte) {
				switch n {
				case 1:
					id = v
				case 2:
					mp = v
				case 4:
					lines++
					fields(t, b, func(n protowire.Number, v uint64, _ []byte) {
						if n == 1 {
							fn = v
						}
					})
				}
			})
			if _, dup := p.locFunc[id]; id == 0 || dup || lines != 1 {
				t.Errorf("location ID %d zero or repeated, or %d lines", id, lines)
			}
			p.locFunc[id], p.locMapping[id] = fn, mp
		case 5:
			var id uint64
			var f [4]int64
			fields(t, sub, func(n protowire.Number, v uint64, _ []byte) {
				if n == 1 {
					id = v
				} else if n >= 2 && n <= 5 {
					f[n-2] = int64(v)
				}
			})
			if _, dup := p.funcs[id]; id == 0 || dup {
				t.Errorf("function ID %d zero or repeated", id)
			}
			p.funcs[id] = f
		case 6:
			p.strings = append(p.strings, string(sub))
		case 11:
			fields(t, sub, func(n protowire.Number, v uint64, _ []byte) { p.periodType[n-1] = int64(v) })
		case 14:
			p.defaultType = int64(v)
		}
	})
	if len(p.strings) == 0 || p.strings[0] != "" {
		t.Fatalf("string_table[0] is not empty: %q", p.strings[:min(1, len(p.strings))])
	}
	str := func(i int64) string {
		if i < 0 || int(i) >= len(p.strings) {
			t.Fatalf("string index %d out of range", i)
		}
		return p.strings[i]
	}
	for i := range p.samples {
		s := &p.samples[i]
		if len(s.values) != len(p.sampleTypes) {
			t.Errorf("sample %d has %d values for %d sample types", i, len(s.values), len(p.sampleTypes))
		}
		for _, l := range s.locs {
			fn, ok := p.locFunc[l]
			if !ok {
				t.Errorf("sample %d: no location %d", i, l)
			}
			if _, ok := p.funcs[fn]; !ok {
				t.Errorf("location %d: no function %d", l, fn)
			}
			if !p.mappings[p.locMapping[l]] {
				t.Errorf("location %d: no mapping %d", l, p.locMapping[l])
			}
		}
		s.labels, s.nums = map[string]string{}, map[string]int64{}
		for _, l := range sampleLabels[i] {
			if l.str != 0 {
				s.labels[str(l.key)] = str(l.str)
			} else {
				s.nums[str(l.key)] = l.num
			}
		}
	}
	for _, f := range p.funcs {
		for _, x := range f[:3] {
			str(x)
		}
	}
	str(p.defaultType)
	return p
}

// cctRef is one calling-context node computed by the test, keyed by
// "thread;leaf;...;root".
type cctRef struct {
	calls, childCalls, wall, cpu int64
}

// computeCCT recomputes the calling-context tree from the events with a
// plain stack per thread (the fixtures are well nested), closing what is
// open at a thread's last event.
func computeCCT(tr *Trace) map[string]*cctRef {
	ms, ths := tr.MethodByID(), tr.ThreadByID()
	type fr struct {
		name                string
		wall, cpu           int64
		childWall, childCPU int64
		children            int64
	}
	out := map[string]*cctRef{}
	stacks := map[uint32][]fr{}
	last := map[uint32]Event{}
	var order []uint32
	pop := func(tid uint32, wall, cpu int64) {
		st := stacks[tid]
		f := st[len(st)-1]
		var path []string
		for i := len(st) - 1; i >= 0; i-- {
			path = append(path, st[i].name)
		}
		k := ths[tid].Name + ";" + strings.Join(path, ";")
		r := out[k]
		if r == nil {
			r = &cctRef{}
			out[k] = r
		}
		r.calls++
		r.childCalls += f.children
		r.wall += wall - f.wall - f.childWall
		r.cpu += cpu - f.cpu - f.childCPU
		st = st[:len(st)-1]
		if len(st) > 0 {
			st[len(st)-1].childWall += wall - f.wall
			st[len(st)-1].childCPU += cpu - f.cpu
			st[len(st)-1].children++
		}
		stacks[tid] = st
	}
	for _, e := range tr.Events {
		if _, seen := last[e.Thread]; !seen {
			order = append(order, e.Thread)
		}
		last[e.Thread] = e
		if e.Action == Enter {
			stacks[e.Thread] = append(stacks[e.Thread], fr{name: ms[e.Method].FullName(), wall: e.Wall, cpu: e.CPU})
		} else {
			pop(e.Thread, e.Wall, e.CPU)
		}
	}
	for _, tid := range order {
		for len(stacks[tid]) > 0 {
			pop(tid, last[tid].Wall, last[tid].CPU)
		}
	}
	return out
}

func TestWritePprof(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tr       *Trace
		overhead int64 // ns
	}{
		{"fixture", fixture(t), 0},
		{"fixture, overhead deducted", fixture(t), 400},
		{"fixture, overhead exceeds everything", fixture(t), 1e9},
		{"deep recursion", deepRecursion(t), 0},
		{"empty", &Trace{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WritePprof(&buf, tc.tr, PprofOptions{EventOverhead: time.Duration(tc.overhead)}); err != nil {
				t.Fatal(err)
			}
			p := decodeProfile(t, buf.Bytes())
			var types []string
			for _, st := range p.sampleTypes {
				types = append(types, p.strings[st[0]]+"/"+p.strings[st[1]])
			}
			if got := strings.Join(types, ","); got != "calls/count,wall/nanoseconds,cpu/nanoseconds" {
				t.Errorf("sample types %s", got)
			}
			if p.strings[p.defaultType] != "wall" {
				t.Errorf("default sample type %q", p.strings[p.defaultType])
			}
			want := computeCCT(tc.tr)
			got := map[string]bool{}
			for _, s := range p.samples {
				var path []string
				for _, l := range s.locs {
					path = append(path, p.strings[p.funcs[p.locFunc[l]][0]])
				}
				k := s.labels["thread"] + ";" + strings.Join(path, ";")
				if got[k] {
					t.Errorf("two samples for %s", k)
				}
				got[k] = true
				r := want[k]
				if r == nil {
					t.Errorf("sample %s: no such calling context", k)
					continue
				}
				d := (r.calls + r.childCalls) * tc.overhead
				if w := []int64{r.calls, max(r.wall-d, 0), max(r.cpu-d, 0)}; fmt.Sprint(s.values) != fmt.Sprint(w) {
					t.Errorf("sample %s: values %v, want %v", k, s.values, w)
				}
				if th := tc.tr.ThreadByID()[uint32(s.nums["tid"])]; th == nil || th.Name != s.labels["thread"] {
					t.Errorf("sample %s: tid label %d does not name thread %q", k, s.nums["tid"], s.labels["thread"])
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d samples, want one per calling context, %d", len(got), len(want))
			}
			for _, f := range p.funcs {
				name, sys := p.strings[f[0]], p.strings[f[1]]
				if !strings.HasPrefix(sys, "L") || !strings.Contains(sys, ";->") || strings.Contains(sys, ".") && !strings.Contains(name, ".") {
					t.Errorf("function %s: system name %q", name, sys)
				}
			}
		})
	}
}

// pprofTop runs "go tool pprof -top" on a profile and returns its rows as
// (function, flat ns) in printed order.
func pprofTop(t *testing.T, path string) (names []string, flat map[string]int64) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goTool, "tool", "pprof", "-top", "-sample_index=wall", "-unit=ns", "-nodecount=1000", path)
	cmd.Env = append(os.Environ(), "PPROF_TMPDIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	row := regexp.MustCompile(`^\s*(\d+)ns\s+[\d.]+%\s+[\d.]+%\s+\d+ns\s+[\d.]+%\s+(\S.*)$`)
	flat = map[string]int64{}
	for _, l := range strings.Split(string(out), "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			names = append(names, m[2])
			flat[m[2]] = v
		}
	}
	if len(names) == 0 {
		t.Fatalf("no rows in go tool pprof -top output:\n%s", out)
	}
	return names, flat
}

// TestPprofOracle has the real pprof (go tool pprof) read the profile:
// its -top rows must be the methods in decreasing order of self wall
// time, with the flat values the test computes from the events
// independently of WritePprof.
func TestPprofOracle(t *testing.T) {
	for _, tc := range []struct {
		name string
		tr   *Trace
	}{
		{"fixture", fixture(t)},
		{"deep recursion", deepRecursion(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dpa.pb.gz")
			var buf bytes.Buffer
			if err := WritePprof(&buf, tc.tr, PprofOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			names, flat := pprofTop(t, path)

			wantFlat := map[string]int64{}
			for k, r := range computeCCT(tc.tr) {
				leaf := strings.Split(k, ";")[1]
				wantFlat[leaf] += r.wall
			}
			var want []string
			for n, v := range wantFlat {
				if v > 0 {
					want = append(want, n)
				}
			}
			sort.Slice(want, func(i, j int) bool { return wantFlat[want[i]] > wantFlat[want[j]] })
			if len(names) != len(want) {
				t.Errorf("pprof lists %v, want %v", names, want)
			}
			for i := range min(3, len(want), len(names)) {
				if flat[names[i]] != wantFlat[want[i]] {
					t.Errorf("top %d: pprof %s %dns, want %s %dns", i+1, names[i], flat[names[i]], want[i], wantFlat[want[i]])
				}
			}
			for n, v := range flat {
				if v != wantFlat[n] {
					t.Errorf("%s: flat %dns, want %dns", n, v, wantFlat[n])
				}
			}
		})
	}
}
