package trace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
)

func methodKey(m *Method) string { return m.FullName() + " " + m.Signature }

// sameEvents checks that got holds want's events at microsecond resolution,
// matching methods and threads by name rather than ID.
func sameEvents(t *testing.T, want, got *Trace) {
	t.Helper()
	if len(got.Events) != len(want.Events) {
		t.Fatalf("%d events, want %d", len(got.Events), len(want.Events))
	}
	wm, gm := want.MethodByID(), got.MethodByID()
	wt, gt := want.ThreadByID(), got.ThreadByID()
	for i, w := range want.Events {
		g := got.Events[i]
		if methodKey(wm[w.Method]) != methodKey(gm[g.Method]) {
			t.Errorf("event %d: method %q, want %q", i, methodKey(gm[g.Method]), methodKey(wm[w.Method]))
		}
		if keyField(wt[w.Thread].Name) != gt[g.Thread].Name {
			t.Errorf("event %d: thread %q, want %q", i, gt[g.Thread].Name, wt[w.Thread].Name)
		}
		if g.Action != w.Action || g.Depth != w.Depth || g.Wall != w.Wall/1000*1000 || g.CPU != w.CPU/1000*1000 {
			t.Errorf("event %d: got %+v, want %+v (times truncated to µs)", i, g, w)
		}
	}
}

func TestDmtraceRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		tr   *Trace
	}{
		{"fixture", fixture(t)},
		{"deep recursion", deepRecursion(t)},
		{"renumbered threads", func() *Trace {
			tr := fixture(t)
			for i := range tr.Threads {
				tr.Threads[i].ID += 100_000
			}
			for i := range tr.Events {
				tr.Events[i].Thread += 100_000
			}
			return tr
		}()},
		{"empty", &Trace{Threads: []Thread{{ID: 1, Name: "main"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteDmtrace(&buf, tc.tr); err != nil {
				t.Fatal(err)
			}
			got, err := ReadDmtrace(&buf)
			if err != nil {
				t.Fatal(err)
			}
			sameEvents(t, tc.tr, got)
			if got.Start.UnixMicro() != tc.tr.Start.UnixMicro() && !tc.tr.Start.IsZero() {
				t.Errorf("start %v, want %v", got.Start, tc.tr.Start)
			}
			if got.ClockSource != tc.tr.ClockSource {
				t.Errorf("clock source %q, want %q", got.ClockSource, tc.tr.ClockSource)
			}
			if got.Elapsed != tc.tr.Elapsed.Truncate(1000) || got.ClockOverhead != tc.tr.ClockOverhead {
				t.Errorf("elapsed %v overhead %v, want %v %v", got.Elapsed, got.ClockOverhead, tc.tr.Elapsed, tc.tr.ClockOverhead)
			}
			for _, m := range got.Methods {
				if m.Name == "never" {
					t.Errorf("method %s listed though no event names it", m.FullName())
				}
			}
		})
	}
}

func TestWriteDmtraceErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Trace)
		want   string
	}{
		{"unknown method", func(tr *Trace) { tr.Events[3].Method = 99 }, "event 3 names unknown method 99"},
		{"unknown thread", func(tr *Trace) { tr.Events[4].Thread = 42 }, "event 4 names unknown thread 42"},
		{"u32 overflow", func(tr *Trace) { tr.Events[len(tr.Events)-1].Wall = 72 * 60 * 1e9 }, "does not fit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := fixture(t)
			tc.change(tr)
			var buf bytes.Buffer
			err := WriteDmtrace(&buf, tr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

// dmtraceFile assembles a trace file by hand, for reader tests.
func dmtraceFile(keys string, version, recSize int, records ...[]byte) []byte {
	var b bytes.Buffer
	b.WriteString(keys)
	hdr := make([]byte, 32)
	binary.LittleEndian.PutUint32(hdr, dmtraceMagic)
	binary.LittleEndian.PutUint16(hdr[4:], uint16(version))
	binary.LittleEndian.PutUint16(hdr[6:], 32)
	binary.LittleEndian.PutUint64(hdr[8:], 1_000_000)
	if version == 3 {
		binary.LittleEndian.PutUint16(hdr[16:], uint16(recSize))
	}
	b.Write(hdr)
	for _, r := range records {
		b.Write(r)
	}
	return b.Bytes()
}

func rec(tidSize int, tid uint16, val uint32, times ...uint32) []byte {
	var b []byte
	if tidSize == 1 {
		b = append(b, byte(tid))
	} else {
		b = binary.LittleEndian.AppendUint16(b, tid)
	}
	b = binary.LittleEndian.AppendUint32(b, val)
	for _, x := range times {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

const dalvikKeys = "*version\n%d\nclock=%s\n*threads\n1\tmain\n*methods\n" +
	"0x0804a3c0\tjava/lang/Object\t<init>\t()V\tObject.java\t37\n" +
	"0x0804a3d0\tLcom/x/Y;\trun\t()V\n*end\n"

func TestReadDmtraceVersions(t *testing.T) {
	for _, tc := range []struct {
		name           string
		file           []byte
		wantWall       []int64
		wantCPU        []int64
		wantDepth      []uint32
		wantFirstClass string
	}{
		{"v1 thread-cpu", dmtraceFile(fmt.Sprintf(dalvikKeys, 1, "thread-cpu"), 1, 9,
			rec(1, 1, 0x0804a3d0, 5), rec(1, 1, 0x0804a3c0, 7), rec(1, 1, 0x0804a3c1, 9), rec(1, 1, 0x0804a3d1, 12)),
			[]int64{5000, 7000, 9000, 12000}, []int64{5000, 7000, 9000, 12000}, []uint32{1, 2, 2, 1}, "java.lang.Object"},
		{"v2 wall", dmtraceFile(fmt.Sprintf(dalvikKeys, 2, "wall"), 2, 10,
			rec(2, 1, 0x0804a3d0, 5), rec(2, 1, 0x0804a3d1, 12)),
			[]int64{5000, 12000}, []int64{5000, 12000}, []uint32{1, 1}, "java.lang.Object"},
		{"v3 dual, padded 18-byte records", dmtraceFile(fmt.Sprintf(dalvikKeys, 3, "dual"), 3, 18,
			rec(2, 1, 0x0804a3d0, 1, 5, 0xdead), rec(2, 1, 0x0804a3d2, 2, 12, 0xbeef)),
			[]int64{5000, 12000}, []int64{1000, 2000}, []uint32{1, 1}, "java.lang.Object"},
		{"exit before any enter", dmtraceFile(fmt.Sprintf(dalvikKeys, 3, "dual"), 3, 14,
			rec(2, 1, 0x0804a3c1, 1, 5), rec(2, 1, 0x0804a3d0, 2, 6)),
			[]int64{5000, 6000}, []int64{1000, 2000}, []uint32{0, 1}, "java.lang.Object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadDmtrace(bytes.NewReader(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Events) != len(tc.wantWall) {
				t.Fatalf("%d events, want %d", len(tr.Events), len(tc.wantWall))
			}
			for i, e := range tr.Events {
				if e.Wall != tc.wantWall[i] || e.CPU != tc.wantCPU[i] || e.Depth != tc.wantDepth[i] {
					t.Errorf("event %d = %+v, want wall %d cpu %d depth %d", i, e, tc.wantWall[i], tc.wantCPU[i], tc.wantDepth[i])
				}
			}
			if tr.Methods[0].Class != tc.wantFirstClass || tr.Methods[0].Line != 37 || tr.Methods[1].Class != "com.x.Y" {
				t.Errorf("methods %+v", tr.Methods)
			}
			if tr.Start.UnixMicro() != 1_000_000 {
				t.Errorf("start %v", tr.Start)
			}
		})
	}
}

func TestReadDmtraceErrors(t *testing.T) {
	keys := fmt.Sprintf(dalvikKeys, 3, "dual")
	good := dmtraceFile(keys, 3, 14, rec(2, 1, 0x0804a3d0, 1, 5))
	hdrOff := len(keys)
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "without *end (line 1, offset 0)"},
		{"not a trace", []byte("hello\nworld\n"), "line 1 (offset 0): want *version"},
		{"split key/data", dmtraceFile("", 3, 14), "key section is missing"},
		{"no end", []byte("*version\n3\n*threads\n"), "without *end (line 4, offset 20)"},
		{"bad version", []byte("*version\nx\n*end\n"), "line 2 (offset 9): unsupported key version"},
		{"bad thread line", []byte("*version\n3\n*threads\nmain\n*end\n"), "line 4 (offset 20): bad thread line"},
		{"bad method id", []byte("*version\n3\n*methods\n0x03\ta\tb\tc\n*end\n"), "line 4 (offset 20): method ID 0x03"},
		{"unknown section", []byte("*version\n3\n*stuff\n*end\n"), `line 3 (offset 11): unknown section "*stuff"`},
		{"bad magic", append([]byte(keys), make([]byte, 32)...), fmt.Sprintf("bad magic 0x00000000 at offset %d", hdrOff)},
		{"version 4", func() []byte {
			b := bytes.Clone(good)
			b[hdrOff+4] = 4
			return b
		}(), fmt.Sprintf("unsupported data version 4 at offset %d", hdrOff+4)},
		{"truncated header", good[:hdrOff+10], fmt.Sprintf("truncated data header at offset %d", hdrOff)},
		{"truncated record", good[:len(good)-3], fmt.Sprintf("truncated record at offset %d (11 of 14 bytes)", hdrOff+32)},
		{"unlisted method", dmtraceFile(keys, 3, 14, rec(2, 1, 0x0804a3d0, 1, 5), rec(2, 1, 0x44, 1, 5)),
			fmt.Sprintf("record at offset %d names method 0x00000044", hdrOff+32+14)},
		{"streaming escape", dmtraceFile(keys, 3, 14, rec(2, 0, 0x0804a3d0, 1, 5)), "thread 0 (a streaming-format escape"},
		{"action 3", dmtraceFile(keys, 3, 14, rec(2, 1, 0x0804a3d3, 1, 5)), "bad action 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadDmtrace(bytes.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// dmtraceRef is dmtracedump's profile (parseDataKeys in AOSP
// tools/dmtracedump/tracedump.cc) recomputed from our events, in the
// microseconds of the file's first time field (thread CPU for dual-clock
// files): exclusive time goes to the method on top of the stack between
// events; on exit the activation's time goes to elapsedInclusive if no
// other activation of the method is below it, to recursiveInclusive if
// exactly one is, and nowhere if more are; calls are counted as
// non-recursive/recursive the same way; frames still open at the end are
// closed at the thread's last event time, without exclusive time.
type dmtraceRef struct {
	incl, recIncl, excl map[string]int64
	calls               map[string][2]int
	total               int64
}

func computeDmtraceRef(tr *Trace) dmtraceRef {
	ms := tr.MethodByID()
	ref := dmtraceRef{incl: map[string]int64{}, recIncl: map[string]int64{}, excl: map[string]int64{}, calls: map[string][2]int{}}
	type entry struct {
		name string
		t    int64
	}
	type thread struct {
		stack       []entry
		first, last int64
	}
	threads := map[uint32]*thread{}
	var order []uint32
	count := func(st []entry, name string) int {
		n := 0
		for _, e := range st {
			if e.name == name {
				n++
			}
		}
		return n
	}
	closeFrame := func(st []entry, name string, elapsed int64) {
		r := count(st, name)
		switch r {
		case 0:
			ref.incl[name] += elapsed
		case 1:
			ref.recIncl[name] += elapsed
		}
		c := ref.calls[name]
		c[min(r, 1)]++
		ref.calls[name] = c
	}
	for _, e := range tr.Events {
		now := e.CPU / 1000
		name := ms[e.Method].FullName()
		th := threads[e.Thread]
		if th == nil {
			th = &thread{first: now, last: now}
			threads[e.Thread] = th
			order = append(order, e.Thread)
		}
		if e.Action == Enter {
			caller := "(toplevel)"
			if len(th.stack) > 0 {
				caller = th.stack[len(th.stack)-1].name
			}
			ref.excl[caller] += now - th.last
			th.stack = append(th.stack, entry{name, now})
		} else {
			top := th.stack[len(th.stack)-1]
			th.stack = th.stack[:len(th.stack)-1]
			closeFrame(th.stack, name, now-top.t)
			ref.excl[name] += now - th.last
		}
		th.last = now
	}
	for _, tid := range order {
		th := threads[tid]
		ref.total += th.last - th.first
		for i, f := range th.stack {
			closeFrame(th.stack[:i], f.name, th.last-f.t)
		}
	}
	return ref
}

var (
	dumpLine = regexp.MustCompile(`^\s*(\d+) (ent|xit|unr)[ !]\s+(\d+)[ +-]\.*(\S+) (.*)$`)
	// "[3]     12.5%           2+1         1234 com.example.Foo.fib (I)I"
	inclLine = regexp.MustCompile(`^\[(\d+)\]\s+[\d.]+%\s+(\d+)\+(\d+)\s+(\d+)\s+(\S+)`)
	// "     1234   12.50  40.00  [3] com.example.Foo.fib (I)I"
	exclLine = regexp.MustCompile(`^\s*(\d+)\s+[\d.]+\s+[\d.]+\s+\[(\d+)\]\s+(\S+)`)
)

// TestDmtracedumpOracle has AOSP's dmtracedump read what WriteDmtrace
// wrote: (a) it must accept the file, (b) its record dump (-o) must list
// our events, and (c) its profile must agree with dmtraceRef, computed
// here from our events, on every method's inclusive time, exclusive time
// and calls+recursive calls, and on the total thread time.
func TestDmtracedumpOracle(t *testing.T) {
	tool := testenv.Tool(t, "dmtracedump", "dmtracedump")
	for _, tc := range []struct {
		name string
		tr   *Trace
	}{
		{"fixture", fixture(t)},
		{"deep recursion", deepRecursion(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dpa.trace")
			var buf bytes.Buffer
			if err := WriteDmtrace(&buf, tc.tr); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			run := func(args ...string) string {
				t.Helper()
				cmd := exec.Command(tool, append(args, path)...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil || stderr.Len() > 0 {
					t.Fatalf("dmtracedump %v: %v\nstderr: %s", args, err, stderr.String())
				}
				return string(out)
			}
			ms := tc.tr.MethodByID()

			// (b) The dump: one line per record, in file order.
			var dumped []string
			for _, l := range strings.Split(run("-o"), "\n") {
				if m := dumpLine.FindStringSubmatch(l); m != nil {
					dumped = append(dumped, strings.Join(m[1:5], " ")+" "+strings.SplitN(m[5], "\t", 2)[0])
				}
			}
			var want []string
			for _, e := range tc.tr.Events {
				m := ms[e.Method]
				want = append(want, fmt.Sprintf("%d %s %d %s %s", e.Thread, [...]string{"ent", "xit", "unr"}[e.Action], e.CPU/1000, m.FullName(), m.Signature))
			}
			if strings.Join(dumped, "\n") != strings.Join(want, "\n") {
				t.Errorf("dmtracedump -o lists\n%s\nwant\n%s", strings.Join(dumped, "\n"), strings.Join(want, "\n"))
			}

			// (c) The profile.
			ref := computeDmtraceRef(tc.tr)
			out := run()
			section := ""
			gotIncl, gotExcl := map[string]int64{}, map[string]int64{}
			gotCalls := map[string][2]int{}
			var total int64 = -1
			for _, l := range strings.Split(out, "\n") {
				switch {
				case strings.HasPrefix(l, "Total cycles: "):
					total, _ = strconv.ParseInt(strings.TrimPrefix(l, "Total cycles: "), 10, 64)
				case strings.HasPrefix(l, "Exclusive elapsed times for each method"):
					section = "excl"
				case strings.HasPrefix(l, "Inclusive elapsed times"):
					section = "incl"
				case strings.HasPrefix(l, "Exclusive elapsed time for each class"),
					strings.HasPrefix(l, "Exclusive elapsed time for each method, summed"):
					section = ""
				}
				if section == "excl" {
					if m := exclLine.FindStringSubmatch(l); m != nil {
						gotExcl[m[3]], _ = strconv.ParseInt(m[1], 10, 64)
					}
				}
				if section == "incl" {
					if m := inclLine.FindStringSubmatch(l); m != nil {
						n0, _ := strconv.Atoi(m[2])
						n1, _ := strconv.Atoi(m[3])
						gotIncl[m[5]], _ = strconv.ParseInt(m[4], 10, 64)
						gotCalls[m[5]] = [2]int{n0, n1}
					}
				}
			}
			if total != ref.total {
				t.Errorf("Total cycles %d, want %d", total, ref.total)
			}
			if len(gotIncl) == 0 || len(gotExcl) == 0 {
				t.Fatalf("could not parse dmtracedump's tables:\n%s", out)
			}
			ref.incl["(toplevel)"] = ref.total // as dmtracedump sets it
			names := map[string]bool{}
			for _, m := range []map[string]int64{ref.incl, ref.excl, gotIncl, gotExcl} {
				for n := range m {
					names[n] = true
				}
			}
			var sorted []string
			for n := range names {
				sorted = append(sorted, n)
			}
			sort.Strings(sorted)
			// dmtracedump leaves out methods whose time is 0, so a
			// missing entry reads as 0 on both sides.
			for _, n := range sorted {
				if gotIncl[n] != ref.incl[n] {
					t.Errorf("%s: inclusive %dµs, want %dµs (recursive inclusive %dµs)", n, gotIncl[n], ref.incl[n], ref.recIncl[n])
				}
				if gotExcl[n] != ref.excl[n] {
					t.Errorf("%s: exclusive %dµs, want %dµs", n, gotExcl[n], ref.excl[n])
				}
				if _, listed := gotIncl[n]; listed && n != "(toplevel)" && gotCalls[n] != ref.calls[n] {
					t.Errorf("%s: calls+recursive %v, want %v", n, gotCalls[n], ref.calls[n])
				}
			}
			if tc.name == "deep recursion" && ref.recIncl[ms[mFib].FullName()] == 0 {
				t.Errorf("fixture has no recursive inclusive time; the test would not notice misfiled recursion")
			}
		})
	}
}
