package javadex

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/vm/dex"
	"github.com/droidprof/droidprof/vm/dex/dexdump"
)

const helloJava = `package demo;

public class Hello {
    static int sum(int n) {
        int s = 0;
        for (int i = 1; i <= n; i++) {
            s += i;
        }
        return s;
    }

    static String greet(String who, int n) {
        return "hello " + who + " " + n;
    }

    static int parse(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public static void main(String[] args) {
        System.out.println(greet("dex", sum(10)) + parse("42"));
    }
}
`

// compile compiles the Java sources (name → text) into dir/out.dex,
// skipping (or failing in CI) when javac, java or the dx package are
// unavailable.
func compile(t *testing.T, dir string, sources map[string]string, opt Options) string {
	t.Helper()
	src := filepath.Join(dir, "src")
	for name, text := range sources {
		path := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt.Sources = []string{src}
	opt.Out = filepath.Join(dir, "out.dex")
	if err := Compile(context.Background(), opt); err != nil {
		if errors.Is(err, ErrUnavailable) {
			testenv.SkipOrFail(t, "%v", err)
		}
		t.Fatal(err)
	}
	return opt.Out
}

func TestCompileHello(t *testing.T) {
	dir := t.TempDir()
	out := compile(t, dir, map[string]string{"demo/Hello.java": helloJava}, Options{})

	f, err := dex.ReadFile(out)
	if err != nil {
		t.Fatalf("our reader: %v", err)
	}
	if len(f.ClassDefs) != 1 {
		t.Fatalf("%d classes, want 1", len(f.ClassDefs))
	}
	c := f.ClassDefs[0]
	if got := f.TypeName(c.Class); got != "Ldemo/Hello;" {
		t.Fatalf("class %s, want Ldemo/Hello;", got)
	}
	methods := map[string]*dex.Code{}
	for _, m := range append(append([]dex.EncodedMethod(nil), c.Data.DirectMethods...), c.Data.VirtualMethods...) {
		ref := f.Methods[m.Method]
		methods[f.Str(ref.Name)+f.ProtoString(ref.Proto)] = m.Code
	}
	for _, sig := range []string{"<init>()V", "sum(I)I", "greet(Ljava/lang/String;I)Ljava/lang/String;", "parse(Ljava/lang/String;)I", "main([Ljava/lang/String;)V"} {
		if methods[sig] == nil {
			t.Errorf("method %s missing or without code; have %v", sig, keys(methods))
		}
	}
	if code := methods["parse(Ljava/lang/String;)I"]; code != nil && len(code.Tries) == 0 {
		t.Error("parse has no try item")
	}

	// The real dexdump accepts the file, and our disassembler agrees with
	// it line for line.
	realDump := testenv.Tool(t, "dexdump", "dexdump")
	cmd := exec.Command(realDump, "-d", "out.dex")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dexdump -d: %v\n%s", err, stderr.String())
	}
	want := stdout.String()
	if strings.Contains(want+stderr.String(), "Failure") {
		t.Fatalf("dexdump -d reports a failure:\n%s%s", stderr.String(), want)
	}
	for _, s := range []string{"Class descriptor  : 'Ldemo/Hello;'", "name          : 'sum'", "Ljava/lang/StringBuilder;.append:(Ljava/lang/String;)Ljava/lang/StringBuilder;", "catches       : 1", "Ljava/lang/NumberFormatException;"} {
		if !strings.Contains(want, s) {
			t.Errorf("dexdump -d output lacks %q", s)
		}
	}
	// dexdump skips the signature check; so does this read.
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	g, err := dex.ReadWithOptions(data, dex.Options{SkipSignature: true})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := dexdump.Dump(&got, g, "out.dex", dexdump.Options{Disassemble: true}); err != nil {
		t.Fatal(err)
	}
	compareText(t, "dexdump -d", want, got.String())
}

// TestCoreLibrary builds a tiny java.lang of our own, as the core library
// will be built (-bootclasspath instead of --release, dx --core-library),
// then an application against its classes.
func TestCoreLibrary(t *testing.T) {
	lang := map[string]string{
		"java/lang/Object.java":           "package java.lang;\npublic class Object {\n    public Object() {}\n    public int hashCode() { return 0; }\n}\n",
		"java/lang/String.java":           "package java.lang;\npublic final class String {\n    public int length() { return 0; }\n}\n",
		"java/lang/Class.java":            "package java.lang;\npublic final class Class<T> {}\n",
		"java/lang/Throwable.java":        "package java.lang;\npublic class Throwable {}\n",
		"java/lang/Exception.java":        "package java.lang;\npublic class Exception extends Throwable {}\n",
		"java/lang/RuntimeException.java": "package java.lang;\npublic class RuntimeException extends Exception {}\n",
		"java/lang/Error.java":            "package java.lang;\npublic class Error extends Throwable {}\n",
	}
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	core := filepath.Join(dir, "core-classes")
	out := compile(t, dir, lang, Options{Bootclasspath: []string{empty}, CoreLibrary: true, Classes: core})
	f, err := dex.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.ClassDefs) != len(lang) {
		t.Errorf("%d classes, want %d", len(f.ClassDefs), len(lang))
	}
	for _, c := range f.ClassDefs {
		if f.TypeName(c.Class) == "Ljava/lang/Object;" && c.Super != dex.NoIndex {
			t.Errorf("java.lang.Object has superclass %s", f.TypeName(c.Super))
		}
	}

	// Without --core-library dx refuses java.* classes.
	err = Compile(context.Background(), Options{Sources: []string{filepath.Join(dir, "src")}, Bootclasspath: []string{empty}, Out: filepath.Join(dir, "refused.dex")})
	if err == nil || !strings.Contains(err.Error(), "dx") || !strings.Contains(err.Error(), "--core-library") {
		t.Errorf("without CoreLibrary: got %v, want dx's refusal", err)
	}

	// An application compiled against our core library.
	app := t.TempDir()
	appOut := compile(t, app, map[string]string{"App.java": "public class App {\n    static int len(String s) { return s.length() + new Object().hashCode(); }\n}\n"}, Options{Bootclasspath: []string{core}})
	g, err := dex.ReadFile(appOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.ClassDefs) != 1 || g.TypeName(g.ClassDefs[0].Class) != "LApp;" {
		t.Errorf("app DEX classes: %d, want just LApp;", len(g.ClassDefs))
	}
}

// TestCompileError checks that javac's diagnostics reach the caller.
func TestCompileError(t *testing.T) {
	if _, _, err := Tools(); err != nil {
		testenv.SkipOrFail(t, "%v", err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "Bad.java")
	if err := os.WriteFile(src, []byte("class Bad { int f() { return undefinedName; } }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Compile(context.Background(), Options{Sources: []string{src}, Out: filepath.Join(dir, "out.dex")})
	if errors.Is(err, ErrUnavailable) {
		testenv.SkipOrFail(t, "%v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "javac") || !strings.Contains(err.Error(), "undefinedName") {
		t.Fatalf("got %v, want a javac error naming undefinedName", err)
	}
}

func keys(m map[string]*dex.Code) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
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
}
