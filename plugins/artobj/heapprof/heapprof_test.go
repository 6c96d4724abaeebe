package heapprof

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/plugins/artobj/chain"
	"github.com/droidprof/droidprof/plugins/artobj/events"
)

// heap is a run of three sites: site 1 allocates many small objects that
// die, site 2 few large ones that stay, site 3 one of each of two
// classes.
func heap() (*events.File, *chain.Heap) {
	f := &events.File{
		Classes: map[uint32]string{1: "a.Small", 2: "[I", 3: "a.Other"},
		Sites: map[uint32]events.SiteDef{
			1: {ID: 1, Method: "a.Main.loop", Sig: "()V", PC: 4, File: "Main.java", Line: 10},
			2: {ID: 2, Method: "a.Main.keep", Sig: "(I)V", PC: 2, File: "Main.java", Line: 20},
			3: {ID: 3, Method: "a.Other.<init>", Sig: "()V", PC: 0, File: "Other.java", Line: 3},
		},
	}
	h := &chain.Heap{}
	add := func(site, class, size uint32, n int, alive bool) {
		for range n {
			o := chain.Object{Site: site, Class: class, Size: size, Death: 1}
			if alive {
				o.Death = chain.Alive
			}
			h.Objects = append(h.Objects, o)
		}
	}
	add(1, 1, 16, 100, false)
	add(2, 2, 400, 3, true)
	add(3, 3, 24, 1, true)
	add(3, 1, 16, 1, false)
	return f, h
}

// pprofTop runs the real pprof on the profile and returns its -top rows:
// function -> flat value, for a sample index.
func pprofTop(t *testing.T, path, index string) map[string]int64 {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command for go tool pprof")
	}
	args := []string{"tool", "pprof", "-top", "-sample_index=" + index, "-nodecount=100"}
	if strings.HasSuffix(index, "space") {
		args = append(args, "-unit=B") // bytes as bytes, not scaled to kB
	}
	cmd := exec.Command(goTool, append(args, path)...)
	cmd.Env = append(os.Environ(), "PPROF_TMPDIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	row := regexp.MustCompile(`^\s*(\d+)B?\s+[\d.]+%\s+[\d.]+%\s+\d+B?\s+[\d.]+%\s+(\S+)`)
	flat := map[string]int64{}
	for _, l := range strings.Split(string(out), "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			flat[m[2]] = v
		}
	}
	if len(flat) == 0 {
		t.Fatalf("no rows in go tool pprof -top:\n%s", out)
	}
	return flat
}

// go tool pprof reads the profile, and its flat values per function are
// the sums the test computes from the objects, for each sample type.
func TestPprofReadsIt(t *testing.T) {
	f, h := heap()
	path := filepath.Join(t.TempDir(), "heap.pb.gz")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(out, f, h); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	for i, st := range SampleTypes {
		t.Run(st[0], func(t *testing.T) {
			want := map[string]int64{}
			for _, o := range h.Objects {
				if i >= 2 && o.Death != chain.Alive {
					continue
				}
				v := int64(1)
				if st[1] == "bytes" {
					v = int64(o.Size)
				}
				want[f.Sites[o.Site].Method] += v
			}
			got := pprofTop(t, path, st[0])
			for fn, v := range want {
				if got[fn] != v {
					t.Errorf("%s: pprof says %d, want %d (all: %v)", fn, got[fn], v, got)
				}
			}
			if len(got) != len(want) {
				t.Errorf("pprof lists %v, want %v", got, want)
			}
		})
	}
}
