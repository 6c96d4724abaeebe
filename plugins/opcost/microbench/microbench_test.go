package microbench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/dex"
)

// The benchmarks cover the paper's 218 opcodes: every opcode of the DEX
// opcode table but the unused, the odex-only and the method-handle ones.
func TestEveryOpcode(t *testing.T) {
	names := map[string]bool{}
	for _, b := range All() {
		if names[b.Name] {
			t.Errorf("benchmark %s twice", b.Name)
		}
		names[b.Name] = true
	}
	n := 0
	for op := 0; op < 256; op++ {
		info := dex.Opcode(op).Info()
		name := info.Name
		skip := strings.HasPrefix(name, "unused") || strings.Contains(name, "quick") || name == "return-void-no-barrier" ||
			strings.Contains(name, "polymorphic") || strings.Contains(name, "custom") || strings.HasPrefix(name, "const-method")
		if skip {
			if names[name] {
				t.Errorf("%s has a benchmark but is not one of the paper's opcodes", name)
			}
			continue
		}
		n++
		if !names[name] {
			t.Errorf("no benchmark for %s (%#02x)", name, op)
		}
	}
	if n != 218 {
		t.Errorf("%d opcodes, want the paper's 218", n)
	}
	for _, b := range All() {
		for _, dep := range []string{b.Base, b.Same} {
			if _, ok := Lookup(dep); dep != "" && !ok {
				t.Errorf("%s names %q, which does not exist", b.Name, dep)
			}
		}
	}
}

func TestSelect(t *testing.T) {
	bs, err := Select([]string{"move-result", "cmp"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range bs {
		got = append(got, b.Name)
	}
	want := "empty-loop call-const return move-result cmpl-float cmpg-float cmpl-double cmpg-double cmp-long"
	if strings.Join(got, " ") != want {
		t.Errorf("Select: %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, tc := range []struct{ name, want string }{
		{"add-itn", `no opcode or opcode class "add-itn" (did you mean "add-int"?)`},
		{"ARITH", `no opcode or opcode class "ARITH" (did you mean "arith"?)`},
		{"iadd", `no opcode or opcode class "iadd" (the closest name is "iget";`},
	} {
		if _, err := Select([]string{"cmp", tc.name}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// A helper is not an opcode to offer.
	if _, err := Select([]string{"empty-loo"}); err == nil || strings.Contains(err.Error(), `"empty-loop"`) || !strings.Contains(err.Error(), "the closest name is") {
		t.Errorf("empty-loo: %v", err)
	}
}

// Real dexdump and baksmali read every benchmark, and each benchmark's
// loop holds its opcode.
func TestOracles(t *testing.T) {
	dexdump := testenv.Tool(t, "dexdump", "dexdump")
	baksmali := testenv.Tool(t, "baksmali", "smali")
	data, err := Assemble(All(), 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "opcost.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(dexdump, "-d", path)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("dexdump: %v\n%s", err, stderr.String())
	}
	dump := string(out)
	if msg, err := exec.Command(baksmali, "d", "-o", filepath.Join(dir, "smali"), path).CombinedOutput(); err != nil || len(msg) > 0 {
		t.Fatalf("baksmali: %v\n%s", err, msg)
	}
	for _, b := range All() {
		if !b.Measured() || b.Class == classHelper || b.Class == classLoop {
			continue
		}
		op := b.Name
		if len(b.Split) > 0 {
			op = b.Split[0]
		}
		// dexdump's listing of the class's run method
		_, after, ok := strings.Cut(dump, "Class descriptor  : '"+b.ClassName()+"'")
		if !ok {
			t.Errorf("%s: class %s not in dexdump's output", b.Name, b.ClassName())
			continue
		}
		if next := strings.Index(after, "Class descriptor"); next >= 0 {
			after = after[:next]
		}
		if !strings.Contains(after, " "+op+" ") {
			t.Errorf("%s: dexdump lists no %s in %s", b.Name, op, b.ClassName())
		}
		src, err := os.ReadFile(filepath.Join(dir, "smali", "opcost", "b", mangle(b.Name)+".smali"))
		if err != nil {
			t.Errorf("%s: %v", b.Name, err)
		} else if !strings.Contains(string(src), "    "+op+" ") && !strings.Contains(string(src), "    "+op+"\n") {
			t.Errorf("%s: baksmali's output has no %s", b.Name, op)
		}
	}
}

// Every benchmark runs on the interpreter and on the aot engine: it
// verifies, terminates and prints a time.
func TestRunsOnBothEngines(t *testing.T) {
	lin, err := Linearity(nil)
	if err != nil {
		t.Fatal(err)
	}
	bs := All()
	for _, b := range append(lin, UseCaseBenches()...) {
		if b.Class == classLinearity || b.Class == classUseCase {
			bs = append(bs, b)
		}
	}
	data, err := Assemble(bs, 4)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "opcost.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	i := 0
	for _, b := range bs {
		if !b.Measured() {
			continue
		}
		for _, engine := range []string{"interp", "aot"} {
			var stdout, stderr bytes.Buffer
			v, err := vm.New(vm.Options{ClassPath: []string{path}, Engine: engine, Stdout: &stdout, Stderr: &stderr})
			if err != nil {
				t.Fatal(err)
			}
			code, err := v.RunMain(context.Background(), MainClass, []string{strconv.Itoa(i), "3", "2"})
			lines := strings.Fields(stdout.String())
			if err != nil || code != 0 || len(lines) != 2 {
				t.Errorf("%s on %s: exit %d, %v, stdout %q\n%s", b.Name, engine, code, err, stdout.String(), stderr.String())
				continue
			}
			for _, l := range lines {
				if ns, err := strconv.ParseInt(l, 10, 64); err != nil || ns <= 0 {
					t.Errorf("%s on %s: time %q", b.Name, engine, l)
				}
			}
		}
		i++
	}
}

// The driver's rounds: every measured benchmark once a round, in order,
// each run printing its time.
func TestRounds(t *testing.T) {
	bs, err := Linearity([]string{"nop", "aget"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Assemble(bs, 8)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rounds.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	v, err := vm.New(vm.Options{ClassPath: []string{path}, Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	code, err := v.RunMain(context.Background(), MainClass, []string{strconv.Itoa(Rounds), "2", "3"})
	lines := strings.Fields(stdout.String())
	// The empty loop, the partner, and each opcode alone and in two pairs.
	if want := 3 * (2 + 2*3); err != nil || code != 0 || len(lines) != want {
		t.Fatalf("exit %d, %v: %d lines, want %d\n%s", code, err, len(lines), want, stderr.String())
	}
	for _, l := range lines {
		if ns, err := strconv.ParseInt(l, 10, 64); err != nil || ns <= 0 {
			t.Errorf("time %q", l)
		}
	}
}
