package dexdump

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/debsrc"
	"github.com/droidprof/droidprof/vm/dex"
)

// goldenNames are the DEX files of ART's test/dexdump with .txt (dexdump
// -adfh) and .lst (dexlist) goldens.
var goldenNames = []string{"all", "bytecodes", "checkers", "const-method-handle", "invoke-custom", "invoke-polymorphic", "staticfields", "values"}

// artGoldens returns the directory holding ART's test/dexdump files, fetched
// from Debian's android-platform-art source package (never committed).
func artGoldens(t *testing.T) string {
	t.Helper()
	root := debsrc.ForTest(t, "android-platform-art", "*/test/dexdump/*")
	dirs, _ := filepath.Glob(filepath.Join(root, "android-platform-art-*", "test", "dexdump"))
	if len(dirs) != 1 {
		t.Fatalf("no test/dexdump directory under %s", root)
	}
	return dirs[0]
}

// readLikeART reads a DEX as ART's tools do: the Adler-32 checksum is
// verified, the SHA-1 signature is not (invoke-custom.dex has a stale one).
func readLikeART(t *testing.T, path string) *dex.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := dex.ReadWithOptions(data, dex.Options{SkipSignature: true})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestARTGoldens compares our output with ART's goldens, which were made by
// dexdump/dexlist 11.0.0+r48, the same version as Debian's binaries (they
// agree with each other byte for byte). Every line matches: we reproduce
// that version, including its quirks (e.g. "(null)" for unnamed parameters
// in the locals table), and not newer dexdump versions (which add lines such
// as "method_idx :"), because the goldens and the oracle binary are both 11.
func TestARTGoldens(t *testing.T) {
	dir := artGoldens(t)
	for _, name := range goldenNames {
		t.Run(name, func(t *testing.T) {
			f := readLikeART(t, filepath.Join(dir, name+".dex"))
			var dump, list bytes.Buffer
			if err := Dump(&dump, f, name+".dex", Options{Annotations: true, Disassemble: true, FileHeader: true, SectionHeaders: true}); err != nil {
				t.Fatal(err)
			}
			if err := List(&list, f, name+".dex"); err != nil {
				t.Fatal(err)
			}
			compareText(t, name+".txt", readText(t, filepath.Join(dir, name+".txt")), dump.String())
			compareText(t, name+".lst", readText(t, filepath.Join(dir, name+".lst")), list.String())
		})
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compareText reports the first differing lines of want and got.
func compareText(t *testing.T, what, want, got string) {
	t.Helper()
	if want == got {
		return
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	shown := 0
	for i := 0; i < max(len(wl), len(gl)) && shown < 10; i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("%s line %d:\nwant %q\ngot  %q", what, i+1, w, g)
			shown++
		}
	}
	if shown == 0 {
		t.Errorf("%s differs (line structure)", what)
	}
}
