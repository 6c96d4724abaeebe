package vm_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestSystemProperties: System.getProperty answers as on Android 11 (ART
// and libcore's fixed values; the JVM answers differently, so the
// expectations are written here), plus what the VM knows (class path,
// machine, working directory); setProperty and clearProperty change
// what getProperty returns.
func TestSystemProperties(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ key, want string }{
		{"java.vm.name", "Dalvik"},
		{"java.vm.version", "2.1.0"},
		{"java.vm.vendor", "The Android Project"},
		{"java.vendor", "The Android Project"},
		{"java.version", "0"},
		{"java.specification.version", "0.9"},
		{"java.class.version", "50.0"},
		{"line.separator", "\n"},
		{"file.separator", "/"},
		{"path.separator", ":"},
		{"file.encoding", "UTF-8"},
		{"os.name", "Linux"},
		{"user.dir", wd},
		{"java.class.path", "*/t.dex"}, // the DEX file's path, in a temporary directory
		{"java.boot.class.path", "core.dex"},
		{"no.such.property", "null"},
	}
	if runtime.GOARCH == "amd64" {
		tests = append(tests, struct{ key, want string }{"os.arch", "x86_64"})
	}
	var code, want strings.Builder
	for _, tc := range tests {
		fmt.Fprintf(&code, `    const-string v1, %q
    invoke-static {v1}, Ljava/lang/System;->getProperty(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
`, tc.key)
		fmt.Fprintf(&want, "%s\n", tc.want)
	}
	// setProperty returns the old value; clearProperty removes it.
	code.WriteString(`    const-string v1, "java.vm.name"
    const-string v2, "Mine"
    invoke-static {v1, v2}, Ljava/lang/System;->setProperty(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    invoke-static {v1}, Ljava/lang/System;->getProperty(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    invoke-static {v1}, Ljava/lang/System;->clearProperty(Ljava/lang/String;)Ljava/lang/String;
    const-string v2, "gone"
    invoke-static {v1, v2}, Ljava/lang/System;->getProperty(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
`)
	want.WriteString("Dalvik\nMine\ngone\n")
	out, _ := runSmali(t, map[string]string{"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 3
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
` + code.String() + `    return-void
.end method
`})
	got, exp := strings.Split(out, "\n"), strings.Split(want.String(), "\n")
	ok := len(got) == len(exp)
	for i := 0; ok && i < len(got); i++ {
		if suffix, glob := strings.CutPrefix(exp[i], "*"); glob {
			ok = strings.HasSuffix(got[i], suffix)
		} else {
			ok = got[i] == exp[i]
		}
	}
	if !ok {
		t.Errorf("stdout\n%s\nwant\n%s", out, want.String())
	}
}

// TestBootClassLoader: as on Android (and unlike the JVM, which answers
// null), a core-library class's loader is the boot class loader, the
// system class loader's parent, which finds only core-library classes.
func TestBootClassLoader(t *testing.T) {
	out, _ := runSmali(t, map[string]string{"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 4
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    const-class v1, Ljava/lang/String;
    invoke-virtual {v1}, Ljava/lang/Class;->getClassLoader()Ljava/lang/ClassLoader;
    move-result-object v1
    invoke-virtual {v1}, Ljava/lang/Object;->getClass()Ljava/lang/Class;
    move-result-object v2
    invoke-virtual {v2}, Ljava/lang/Class;->getName()Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    invoke-static {}, Ljava/lang/ClassLoader;->getSystemClassLoader()Ljava/lang/ClassLoader;
    move-result-object v2
    invoke-virtual {v2}, Ljava/lang/ClassLoader;->getParent()Ljava/lang/ClassLoader;
    move-result-object v2
    if-ne v1, v2, :bad
    const-string v2, "parent of the system loader"
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    :bad
    const-string v2, "Main"
    :try_start
    invoke-virtual {v1, v2}, Ljava/lang/ClassLoader;->loadClass(Ljava/lang/String;)Ljava/lang/Class;
    :try_end
    .catch Ljava/lang/ClassNotFoundException; {:try_start .. :try_end} :cnfe
    return-void
    :cnfe
    const-string v2, "Main not found"
    invoke-virtual {v0, v2}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void
.end method
`})
	if want := "java.lang.BootClassLoader\nparent of the system loader\nMain not found\n"; out != want {
		t.Errorf("stdout\n%s\nwant\n%s", out, want)
	}
}
