package hprof

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/droidprof/droidprof/vm"
	"github.com/droidprof/droidprof/vm/gc"
	"github.com/droidprof/droidprof/vm/runtime"
	"github.com/droidprof/droidprof/vm/smali"
	"github.com/droidprof/droidprof/vm/smali/ast"
)

// holdersSmali is testdata/Holders.java for droidprof's VM: System.gc()
// stands where the Java program waits for jmap, and the test dumps the
// heap at the end of that collection.
var holdersSmali = map[string]string{
	"Holders.smali": `.class public LHolders;
.super Ljava/lang/Object;
.source "Holders.java"
.field static kept:Ljava/lang/Object;
.method public static main([Ljava/lang/String;)V
    .registers 2
    .line 9
    new-instance v0, LStaticHeld;
    invoke-direct {v0}, LStaticHeld;-><init>()V
    sput-object v0, LHolders;->kept:Ljava/lang/Object;
    const/4 v0, 0
    .line 10
    invoke-static {}, LHolders;->hold()V
    return-void
.end method
.method static hold()V
    .registers 3
    .line 14
    new-instance v0, LFrameHeld;
    invoke-direct {v0}, LFrameHeld;-><init>()V
    .line 15
    new-instance v1, LLocked;
    invoke-direct {v1}, LLocked;-><init>()V
    .line 16
    monitor-enter v1
    .line 19
    invoke-static {}, Ljava/lang/System;->gc()V
    monitor-exit v1
    .line 21
    invoke-virtual {v0}, Ljava/lang/Object;->hashCode()I
    return-void
.end method
`,
	"StaticHeld.smali": emptyClass("StaticHeld"),
	"FrameHeld.smali":  emptyClass("FrameHeld"),
	"Locked.smali":     emptyClass("Locked"),
}

func emptyClass(name string) string {
	return `.class L` + name + `;
.super Ljava/lang/Object;
.method constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method
`
}

// holdersDump runs Holders on droidprof's VM under collector and returns
// its heap dumped at the end of the program's System.gc().
func holdersDump(t *testing.T, collector gc.Collector) []byte {
	t.Helper()
	var classes []*ast.Class
	for name, src := range holdersSmali {
		c, err := smali.Parse(name, []byte(src), &smali.Options{API: 28})
		if err != nil {
			t.Fatal(err)
		}
		classes = append(classes, c)
	}
	data, err := smali.Assemble(classes, &smali.AssembleOptions{API: 28})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "holders.dex")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var v *runtime.VM
	var dump bytes.Buffer
	hooks := &runtime.Hooks{GCEnd: func(i runtime.GCInfo) {
		if i.Cause == "Explicit" && dump.Len() == 0 {
			if err := Write(&dump, v, time.Now()); err != nil {
				t.Error(err)
			}
		}
	}}
	v, err = vm.New(vm.Options{ClassPath: []string{path}, GC: gc.Config{Collector: collector}, Stdout: io.Discard, Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	if code, err := v.RunMain(context.Background(), "Holders", nil); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if dump.Len() == 0 {
		t.Fatal("no explicit collection ran: no dump")
	}
	return dump.Bytes()
}

// rootsOf lists "KIND in class.method" (or just KIND) for every root of
// the objects of class name.
func rootsOf(d *Dump, name string) []string {
	var out []string
	for _, r := range d.RootList {
		if d.ObjectClass[r.ID] != name {
			continue
		}
		s := r.Kind
		if r.Kind == "JAVA FRAME" || r.Kind == "JNI LOCAL" {
			s += " in " + d.Method(d.TraceOf(r.Thread), r.Depth)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// staticHolders names the classes whose statics reference an object of
// class name.
func staticHolders(d *Dump, name string) []string {
	var out []string
	for _, r := range d.refs {
		if d.ObjectClass[r.to] == name && d.Classes[r.from] != "" {
			out = append(out, d.Classes[r.from])
		}
	}
	return out
}

// The roots of our dump have the kinds the JVM writes for the same
// holders: the local and the locked object of the running frame are JAVA
// FRAME roots naming Holders.hold through the thread's stack trace, the
// thread has a THREAD OBJECT root with its trace, class objects are STICKY
// CLASS roots and hold the statics; and locked objects are MONITOR USED.
func TestRootKinds(t *testing.T) {
	for _, col := range []gc.Collector{gc.CMS, gc.SS} {
		t.Run(string(col), func(t *testing.T) {
			d, err := Read(bytes.NewReader(holdersDump(t, col)))
			if err != nil {
				t.Fatal(err)
			}
			if d.DanglingCount != 0 {
				t.Errorf("%d dangling references, e.g. %v", d.DanglingCount, d.Dangling)
			}
			checkHolders(t, d, true)
			kinds := map[string]int{}
			for _, r := range d.RootList {
				kinds[r.Kind]++
			}
			// The main thread's trace: hold above main, with their lines.
			var main Trace
			for _, r := range d.RootList {
				if r.Kind == "THREAD OBJECT" {
					main = d.Traces[r.Trace]
				}
			}
			var frames []string
			for _, id := range main.Frames {
				f := d.Frames[id]
				frames = append(frames, f.Class+"."+f.Method+":"+f.Source+":"+strconv.Itoa(int(f.Line)))
			}
			joined := strings.Join(frames, " ")
			if !strings.Contains(joined, "Holders.hold:Holders.java:19 Holders.main:Holders.java:10") {
				t.Errorf("main thread's stack trace %v: want Holders.hold at line 19 above Holders.main at line 10", frames)
			}
			t.Logf("root kinds %v; main thread's trace %v", kinds, frames)
		})
	}
}

// checkHolders checks the roots of Holders' objects in a dump; monitor:
// the dumper writes MONITOR USED roots (JDK 17's jmap does not).
func checkHolders(t *testing.T, d *Dump, monitor bool) {
	t.Helper()
	if got := rootsOf(d, "FrameHeld"); !slices.Contains(got, "JAVA FRAME in Holders.hold") {
		t.Errorf("FrameHeld's roots %v: want a JAVA FRAME in Holders.hold", got)
	}
	got := rootsOf(d, "Locked")
	if !slices.Contains(got, "JAVA FRAME in Holders.hold") || monitor && !slices.Contains(got, "MONITOR USED") {
		t.Errorf("Locked's roots %v: want a JAVA FRAME in Holders.hold (and MONITOR USED: %v)", got, monitor)
	}
	if got := rootsOf(d, "StaticHeld"); len(got) != 0 {
		t.Errorf("StaticHeld is a root (%v): only its class's static holds it", got)
	}
	if got := staticHolders(d, "StaticHeld"); !slices.Equal(got, []string{"Holders"}) {
		t.Errorf("StaticHeld is referenced by the statics of %v, want Holders", got)
	}
	if got := rootsOf(d, "java.lang.Thread"); !slices.Contains(got, "THREAD OBJECT") {
		t.Errorf("no THREAD OBJECT root for a java.lang.Thread: %v", got)
	}
	sticky := 0
	for _, r := range d.RootList {
		if r.Kind == "STICKY CLASS" && d.Classes[r.ID] != "" {
			sticky++
		}
	}
	if sticky == 0 {
		t.Error("no STICKY CLASS root names a class")
	}
}

// The JVM as the oracle: jmap's dump of testdata/Holders.java, stopped
// inside hold, read by our reader, has the same root kinds for the same
// holders as our dump (JDK 17 writes no MONITOR USED roots: the locked
// object is held by hold's frame there).
func TestRootKindsJVM(t *testing.T) {
	dump := jvmHoldersDump(t)
	f, err := os.Open(dump)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := Read(f)
	if err != nil {
		t.Fatalf("our reader on the JVM's dump: %v", err)
	}
	checkHolders(t, d, false)
}

// jvmHoldersDump runs testdata/Holders.java on the JVM and jmap-dumps it
// inside hold; it skips without a JDK.
func jvmHoldersDump(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"javac", "java", "jmap"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: the JVM oracle needs a JDK", tool)
		}
	}
	dir := t.TempDir()
	if out, err := exec.Command("javac", "-d", dir, filepath.Join("testdata", "Holders.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return jmapDump(t, dir, "format=b", "Holders")
}

// jmapDump runs a Java program from the classes in dir on the JDK's
// interpreter, waits until it prints "ready", and returns the path of the
// heap dump `jmap -dump:OPTIONS` takes of it (skipping when jmap cannot
// attach).
func jmapDump(t *testing.T, dir, options string, javaArgs ...string) string {
	t.Helper()
	cmd := exec.Command("java", append([]string{"-Xint", "-XX:+UseSerialGC", "-cp", dir}, javaArgs...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && sc.Text() != "ready" {
	}
	go io.Copy(io.Discard, stdout)
	dump := filepath.Join(dir, "jvm.hprof")
	if out, err := exec.Command("jmap", "-dump:"+options+",file="+dump, strconv.Itoa(cmd.Process.Pid)).CombinedOutput(); err != nil {
		t.Skipf("jmap could not attach (%v): %s", err, out)
	}
	return dump
}

// jfluidJar is VisualVM's heap library (Debian's visualvm package), an
// HPROF reader droidprof did not write.
const jfluidJar = "/usr/share/visualvm/visualvm/modules/org-graalvm-visualvm-lib-jfluid-heap.jar"

// VisualVM's heap library reads our dump and sees the roots our reader
// sees: FrameHeld and Locked held by Java frames of Holders.hold (its
// frame numbers resolved through our stack traces), Locked by a used
// monitor, the thread object, sticky classes.
func TestRootKindsVisualVM(t *testing.T) {
	if _, err := os.Stat(jfluidJar); err != nil {
		t.Skipf("no VisualVM heap library (apt-get install visualvm): %v", err)
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("no java to run VisualVM's heap library")
	}
	for _, col := range []gc.Collector{gc.CMS, gc.SS} {
		t.Run(string(col), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "holders.hprof")
			if err := os.WriteFile(path, holdersDump(t, col), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("java", "-cp", jfluidJar, filepath.Join("testdata", "RootKinds.java"), path).CombinedOutput()
			if err != nil {
				t.Fatalf("VisualVM's heap library on our dump: %v\n%s", err, out)
			}
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				lines = append(lines, strings.TrimRight(l, "\t"))
			}
			for _, want := range []string{"Java frame\tFrameHeld\tHolders.hold", "Java frame\tLocked\tHolders.hold", "monitor used\tLocked",
				"thread object\tjava.lang.Thread", "sticky class\tjava.lang.Class"} {
				if !slices.Contains(lines, want) {
					t.Errorf("VisualVM sees no root %q in %d roots: %q", want, len(lines), lines)
				}
			}
			for _, l := range lines {
				if strings.HasPrefix(l, "Java frame\tStaticHeld") || strings.HasSuffix(l, "\t?") {
					t.Errorf("VisualVM root %q", l)
				}
			}
		})
	}
}
