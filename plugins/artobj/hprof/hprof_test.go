package hprof

import (
	"bytes"
	"context"
	"io"
	"maps"
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
	"github.com/droidprof/droidprof/workloads"
)

// requests is how many requests ListLeak keeps in its static list: the
// dumps below must hold exactly that many Request objects and payloads.
const requests = 120

// vmDump runs ListLeak on droidprof's VM and dumps its heap at exit.
func vmDump(t *testing.T, collector gc.Collector) []byte {
	t.Helper()
	w, _ := workloads.Lookup("leak-list")
	data, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), w.DEX)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vm.New(vm.Options{ClassPath: []string{path}, GC: gc.Config{Collector: collector}, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if code, err := v.RunMain(context.Background(), w.Main, []string{strconv.Itoa(requests)}); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	var b bytes.Buffer
	if err := Write(&b, v, time.Now()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Our dump reads back whole: every instance's values fit its class's
// fields, every reference names a dumped object, and the program's
// objects are there in the number the program keeps.
func TestWriteRead(t *testing.T) {
	for _, col := range []gc.Collector{gc.CMS, gc.SS} {
		t.Run(string(col), func(t *testing.T) {
			d, err := Read(bytes.NewReader(vmDump(t, col)))
			if err != nil {
				t.Fatal(err)
			}
			if d.IDSize != 4 {
				t.Errorf("identifier size %d", d.IDSize)
			}
			if d.DanglingCount != 0 {
				t.Errorf("%d references to objects not in the dump, e.g. %v", d.DanglingCount, d.Dangling)
			}
			if got := d.Histogram["leak.ListLeak$Request"]; got != requests {
				t.Errorf("%d Request objects, the program keeps %d", got, requests)
			}
			// Every class loaded is described; every request's payload is there.
			if d.Histogram["[I"] < requests || d.Roots == 0 || d.Records["CLASS DUMP"] != d.Records["LOAD CLASS"] {
				t.Errorf("histogram [I %d, %d roots, records %v", d.Histogram["[I"], d.Roots, d.Records)
			}
		})
	}
}

// The reader rejects what is not a dump and says where a dump is cut.
func TestReadBad(t *testing.T) {
	data := vmDump(t, gc.CMS)
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"not hprof", []byte("hello\x00world"), "not an HPROF file"},
		{"cut", data[:len(data)/2], "cut short"},
		{"id size", append(append([]byte(Header+"\x00"), 0, 0, 0, 3), make([]byte, 8)...), "identifier size 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.b))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// The JVM as the format's oracle: jmap -dump of the same Java program,
// at the same point (after main, the list full), read by our reader,
// agrees with our dump on the program's objects; and our reader reads
// the JVM's dump, identifier size 8, without a dangling reference.
func TestJVMDumpAgrees(t *testing.T) {
	for _, tool := range []string{"javac", "java", "jmap"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: the JVM oracle needs a JDK", tool)
		}
	}
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "workloads", "java", "leak-list", "leak", "ListLeak.java")
	harness := filepath.Join(dir, "Harness.java")
	// Runs the program, then waits (on stdin) while jmap dumps its heap.
	if err := os.WriteFile(harness, []byte(`public class Harness {
    public static void main(String[] args) throws Exception {
        leak.ListLeak.main(args);
        System.out.println("ready");
        System.out.flush();
        System.in.read();
    }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("javac", "-d", dir, src, harness).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	dump := jmapDump(t, dir, "live,format=b", "Harness", strconv.Itoa(requests))
	f, err := os.Open(dump)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	jvm, err := Read(f)
	if err != nil {
		t.Fatalf("our reader on the JVM's dump: %v", err)
	}
	ours, err := Read(bytes.NewReader(vmDump(t, gc.CMS)))
	if err != nil {
		t.Fatal(err)
	}
	if jvm.IDSize != 8 || jvm.DanglingCount != 0 {
		t.Errorf("JVM dump: identifier size %d, %d dangling references %v", jvm.IDSize, jvm.DanglingCount, jvm.Dangling)
	}
	// The program's own objects (the libraries' differ: the JVM's is
	// OpenJDK's, ours droidprof's core library).
	if got, want := ours.Histogram["leak.ListLeak$Request"], jvm.Histogram["leak.ListLeak$Request"]; got != want || want != requests {
		t.Errorf("Request objects: the JVM's dump holds %d, ours %d; the program keeps %d", want, got, requests)
	}
	for _, name := range []string{"leak.ListLeak", "leak.ListLeak$Request"} {
		if !slices.Contains(slices.Collect(maps.Values(jvm.Classes)), name) || !slices.Contains(slices.Collect(maps.Values(ours.Classes)), name) {
			t.Errorf("class %s missing from a dump", name)
		}
	}
	// Both describe the same kinds of records.
	for _, rec := range []string{"UTF8", "LOAD CLASS", "CLASS DUMP", "INSTANCE DUMP", "OBJ ARRAY DUMP", "PRIM ARRAY DUMP", "ROOT"} {
		if jvm.Records[rec] == 0 || ours.Records[rec] == 0 {
			t.Errorf("%s records: JVM %d, ours %d", rec, jvm.Records[rec], ours.Records[rec])
		}
	}
}
