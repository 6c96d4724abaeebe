package dex_test

import (
	"bytes"
	"fmt"
	"github.com/droidprof/droidprof/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/debsrc"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/dex/dexdump"
)

// writeTool returns the path of an oracle binary, skipping the test when it
// is missing, or failing under DROIDPROF_REQUIRE_PRIVILEGED=1 (CI installs
// the Debian packages dexdump and libsmali-java).
func writeTool(t *testing.T, name string) string {
	t.Helper()
	return testenv.Tool(t, name, "dexdump or libsmali-java")
}

// runTool runs an oracle in dir and returns its stdout.
func runTool(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, _ := runTool2(t, dir, name, args...)
	return out
}

// runTool2 runs an oracle in dir and returns its stdout and stderr.
func runTool2(t *testing.T, dir, name string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(writeTool(t, name), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// dexInput is one DEX file to write back.
type dexInput struct {
	name string
	data []byte
	opt  dex.Options
}

// committedInputs are the DEX files in testdata, made by the real smali.
func committedInputs(t *testing.T) []dexInput {
	var in []dexInput
	for _, name := range []string{"formats.dex", "invoke.dex"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, dexInput{name: name, data: data})
	}
	return in
}

// artInputs are ART's test/dexdump files that our reader accepts, read as
// ART reads them (invoke-custom.dex has a stale SHA-1 signature).
func artInputs(t *testing.T) []dexInput {
	root := debsrc.ForTest(t, "android-platform-art", "*/test/dexdump/*")
	paths, _ := filepath.Glob(filepath.Join(root, "android-platform-art-*", "test", "dexdump", "*.dex"))
	if len(paths) == 0 {
		t.Fatalf("no test/dexdump/*.dex under %s", root)
	}
	var in []dexInput
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		opt := dex.Options{SkipSignature: true}
		if _, err := dex.ReadWithOptions(data, opt); err != nil {
			t.Logf("%s: not accepted by the reader, skipped: %v", filepath.Base(p), err)
			continue
		}
		in = append(in, dexInput{name: "art-" + filepath.Base(p), data: data, opt: opt})
	}
	return in
}

// smaliInputs are DEX files the real smali assembles from testdata/smali.
func smaliInputs(t *testing.T) []dexInput {
	writeTool(t, "smali")
	dir := t.TempDir()
	var in []dexInput
	for _, c := range []struct {
		out   string
		api   int
		files []string
	}{
		{"formats", 15, []string{"Formats.smali", "Inner.smali", "Empty.smali"}},
		{"formats-only", 15, []string{"Formats.smali"}},
		{"empty", 15, []string{"Empty.smali"}},
		{"inner", 15, []string{"Inner.smali"}},
		{"invoke", 28, []string{"Invoke.smali"}},
	} {
		args := []string{"assemble", "-a", fmt.Sprint(c.api), "-o", filepath.Join(dir, c.out+".dex")}
		for _, f := range c.files {
			p, err := filepath.Abs(filepath.Join("testdata", "smali", f))
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, p)
		}
		runTool(t, dir, "smali", args...)
		data, err := os.ReadFile(filepath.Join(dir, c.out+".dex"))
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, dexInput{name: "smali-" + c.out + ".dex", data: data})
	}
	return in
}

// modelDiff compares two models and describes the first difference, or
// returns "". It ignores what a writer lays out anew: every field named Off
// or ending in Off, the map list, and the header's checksum, signature,
// file_size, data_size and link_size. Nil and empty slices are equal.
func modelDiff(a, b *dex.File) string {
	return diffValue("File", reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem())
}

var ignoredFields = map[string]bool{"MapList": true, "Checksum": true, "Signature": true, "FileSize": true, "DataSize": true, "LinkSize": true}

func diffValue(path string, a, b reflect.Value) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		return diffValue(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			name := a.Type().Field(i).Name
			if strings.HasSuffix(name, "Off") || ignoredFields[name] {
				continue
			}
			if d := diffValue(path+"."+name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
		return ""
	}
}

// roundTrip reads in, writes it, reads the result back (verifying checksum
// and signature), compares the models, and checks that writing again gives
// the same bytes. It returns the written file.
func roundTrip(t *testing.T, in dexInput) []byte {
	t.Helper()
	f1, err := dex.ReadWithOptions(in.data, in.opt)
	if err != nil {
		t.Fatal(err)
	}
	out, err := dex.Write(f1)
	if err != nil {
		t.Fatal(err)
	}
	f2, err := dex.Read(out)
	if err != nil {
		t.Fatalf("reading the written file: %v", err)
	}
	if d := modelDiff(f1, f2); d != "" {
		t.Fatalf("model changed by the round trip: %s", d)
	}
	out2, err := dex.Write(f2)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, out2) {
		i := 0
		for i < min(len(out), len(out2)) && out[i] == out2[i] {
			i++
		}
		t.Fatalf("Write(Read(Write(f))) differs from Write(f) at byte %#x (sizes %d, %d)", i, len(out), len(out2))
	}
	return out
}

func TestWriteRoundTrip(t *testing.T) {
	for _, in := range committedInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			out := roundTrip(t, in)
			if len(out) > len(in.data) {
				t.Logf("written %d bytes, original %d", len(out), len(in.data))
			}
		})
	}
}

func TestWriteRoundTripART(t *testing.T) {
	for _, in := range artInputs(t) {
		t.Run(in.name, func(t *testing.T) { roundTrip(t, in) })
	}
}

func TestWriteRoundTripSmali(t *testing.T) {
	for _, in := range smaliInputs(t) {
		t.Run(in.name, func(t *testing.T) { roundTrip(t, in) })
	}
}

var complaint = regexp.MustCompile(`(?m)^(Failure|ERROR|E/|W/)`)

// dexdumpClean runs the real dexdump -d on dir/name and checks that it
// exits 0, writes nothing to stderr and no line of its own starting with
// Failure or ERROR (disassembled strings may contain such words, but never
// at the start of a line).
func dexdumpClean(t *testing.T, dir, name string) string {
	t.Helper()
	out, errOut := runTool2(t, dir, "dexdump", "-d", name)
	if errOut != "" || complaint.MatchString(out) {
		t.Fatalf("dexdump -d %s complains:\n%s%s", name, complaint.FindString(out), errOut)
	}
	return out
}

// TestWriteOracles: the real dexdump accepts our files and disassembles
// them as it disassembles the originals (up to file offsets); the real
// baksmali disassembles ours to the same smali as the originals, and the
// real smali reassembles it.
func TestWriteOracles(t *testing.T) {
	writeTool(t, "dexdump")
	inputs := committedInputs(t)
	inputs = append(inputs, smaliInputs(t)...)
	if art := func() (in []dexInput) {
		t.Run("fetch-art", func(t *testing.T) { in = artInputs(t) })
		return in
	}(); art != nil {
		inputs = append(inputs, art...)
	} else if testenv.Required() {
		t.Fatal("ART test files are required")
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			f, err := dex.ReadWithOptions(in.data, in.opt)
			if err != nil {
				t.Fatal(err)
			}
			out, err := dex.Write(f)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			orig, ours := filepath.Join(dir, "orig"), filepath.Join(dir, "ours")
			for d, data := range map[string][]byte{orig: in.data, ours: out} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, "x.dex"), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := dexdump.StripOffsets(runTool(t, orig, "dexdump", "-d", "x.dex"))
			got := dexdump.StripOffsets(dexdumpClean(t, ours, "x.dex"))
			if want != got {
				wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
				for i := range min(len(wl), len(gl)) {
					if wl[i] != gl[i] {
						t.Fatalf("dexdump -d differs at line %d:\noriginal: %s\nours:     %s", i+1, wl[i], gl[i])
					}
				}
				t.Fatalf("dexdump -d output lengths differ: %d vs %d lines", len(wl), len(gl))
			}

			api := "15"
			if f.Header.Version >= 38 {
				api = "28"
			}
			for _, d := range []string{orig, ours} {
				runTool(t, d, "baksmali", "disassemble", "-a", api, "-o", "smali", "x.dex")
			}
			origSmali, ourSmali := readTree(t, filepath.Join(orig, "smali")), readTree(t, filepath.Join(ours, "smali"))
			if !reflect.DeepEqual(origSmali, ourSmali) {
				for name, text := range origSmali {
					if ourSmali[name] != text {
						t.Fatalf("baksmali output differs for %s", name)
					}
				}
				t.Fatalf("baksmali output has different files: %d vs %d", len(origSmali), len(ourSmali))
			}
			var files []string
			for name := range ourSmali {
				files = append(files, filepath.Join("smali", name))
			}
			slices.Sort(files)
			runTool(t, ours, "smali", append([]string{"assemble", "-a", api, "-o", "re.dex"}, files...)...)
			if _, err := dex.ReadFile(filepath.Join(ours, "re.dex")); err != nil {
				t.Fatalf("reading smali's reassembly: %v", err)
			}
		})
	}
}

// readTree returns the files under root by relative path.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		m[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestWriteOrderErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/formats.dex")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		mutate func(f *dex.File)
		want   string
	}{
		{"strings", func(f *dex.File) { f.Strings[1], f.Strings[2] = f.Strings[2], f.Strings[1] }, "string table out of order: strings[2]"},
		{"types", func(f *dex.File) { f.Types[3], f.Types[4] = f.Types[4], f.Types[3] }, "type table out of order: types[4]"},
		{"protos", func(f *dex.File) { f.Protos[0], f.Protos[1] = f.Protos[1], f.Protos[0] }, "proto table out of order: protos[1]"},
		{"fields", func(f *dex.File) { f.Fields[0], f.Fields[1] = f.Fields[1], f.Fields[0] }, "field table out of order: fields[1]"},
		{"methods", func(f *dex.File) { f.Methods[0], f.Methods[1] = f.Methods[1], f.Methods[0] }, "method table out of order: methods[1]"},
		{"cycle", func(f *dex.File) { f.ClassDefs[0].Super = f.ClassDefs[0].Class }, "own superclass"},
		{"index", func(f *dex.File) { f.Fields[len(f.Fields)-1].Type = 70000 }, "invalid model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := dex.Read(data)
			if err != nil {
				t.Fatal(err)
			}
			c.mutate(f)
			_, err = dex.Write(f)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestWriteReordersClasses: a subclass listed before its superclass is
// written after it. formats.dex defines no supertype of its own classes, so
// the test makes its first class extend the last.
func TestWriteReordersClasses(t *testing.T) {
	data, err := os.ReadFile("testdata/formats.dex")
	if err != nil {
		t.Fatal(err)
	}
	f, err := dex.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	f.ClassDefs[0].Super = f.ClassDefs[len(f.ClassDefs)-1].Class
	out, err := dex.Write(f)
	if err != nil {
		t.Fatal(err)
	}
	g, err := dex.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	pos := map[uint32]int{}
	for i, cd := range g.ClassDefs {
		pos[cd.Class] = i
	}
	deps := 0
	for i, cd := range g.ClassDefs {
		for _, dep := range append([]uint32{cd.Super}, cd.Interfaces...) {
			if j, ok := pos[dep]; ok {
				deps++
				if j > i {
					t.Errorf("%s written before its supertype %s", g.TypeName(cd.Class), g.TypeName(dep))
				}
			}
		}
	}
	if deps == 0 {
		t.Fatal("no class whose supertype the file defines; the test checks nothing")
	}
}

func TestCompareUTF16(t *testing.T) {
	// U+10000 is D800 DC00 in UTF-16, below U+FFFF; in UTF-8 it is above.
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"a", "b", -1}, {"", "a", -1}, {"\U00010000", "\uffff", -1}, {"\uffff", "\U00010000", 1},
		{"\x00", "\x01", -1}, {"abc", "abc", 0}, {"\ued00", "\U00010000", 1},
	} {
		if got := dex.CompareUTF16(c.a, c.b); got != c.want {
			t.Errorf("CompareUTF16(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
