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
