package vm_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFileErrorMessages: a file that cannot be opened raises
// FileNotFoundException worded as Android's libcore words it (the JVM
// says "(No such file or directory)"), and files a program leaves open or
// marks deleteOnExit are closed and removed when the VM stops.
func TestFileErrorMessages(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	temp := filepath.Join(dir, "temp")
	out, _ := runSmali(t, map[string]string{"Main.smali": `.class public LMain;
.super Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 4
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    new-instance v1, Ljava/io/File;
    const-string v2, "` + temp + `"
    invoke-direct {v1, v2}, Ljava/io/File;-><init>(Ljava/lang/String;)V
    invoke-virtual {v1}, Ljava/io/File;->deleteOnExit()V
    new-instance v2, Ljava/io/FileOutputStream;
    invoke-direct {v2, v1}, Ljava/io/FileOutputStream;-><init>(Ljava/io/File;)V
    new-instance v1, Ljava/io/FileInputStream;
    const-string v2, "` + missing + `"
    :try_start
    invoke-direct {v1, v2}, Ljava/io/FileInputStream;-><init>(Ljava/lang/String;)V
    :try_end
    .catch Ljava/io/FileNotFoundException; {:try_start .. :try_end} :caught
    return-void
    :caught
    move-exception v1
    invoke-virtual {v1}, Ljava/lang/Throwable;->getMessage()Ljava/lang/String;
    move-result-object v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    return-void
.end method
`})
	if want := missing + ": open failed: ENOENT (No such file or directory)\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if _, err := os.Stat(temp); !os.IsNotExist(err) {
		t.Errorf("the deleteOnExit file is still there after the VM stopped (stat: %v)", err)
	}
}
