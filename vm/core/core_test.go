package core

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/javadex"
	"github.com/droidprof/droidprof/internal/testenv"
	"github.com/droidprof/droidprof/vm/core/build"
	"github.com/droidprof/droidprof/vm/dex"
)

// required lists the classes the VM and ordinary programs rely on; the core
// library may have more.
var required = []string{
	// java.lang
	"Object", "Class", "String", "CharSequence", "Comparable", "Iterable", "Cloneable", "Runnable",
	"AutoCloseable", "Appendable", "StringBuilder", "StringBuffer", "Math", "StrictMath", "System",
	"Runtime", "Number", "Boolean", "Byte", "Short", "Character", "Integer", "Long", "Float", "Double",
	"Void", "Enum", "Thread", "Thread$UncaughtExceptionHandler", "ThreadLocal", "InterruptedException",
	"Throwable", "Exception", "RuntimeException", "Error", "StackTraceElement",
	"ArithmeticException", "ArrayIndexOutOfBoundsException", "ArrayStoreException", "ClassCastException",
	"ClassNotFoundException", "CloneNotSupportedException", "IllegalArgumentException",
	"IllegalStateException", "IllegalMonitorStateException", "IllegalThreadStateException",
	"IndexOutOfBoundsException", "StringIndexOutOfBoundsException", "NegativeArraySizeException",
	"NullPointerException", "NumberFormatException", "UnsupportedOperationException", "SecurityException",
	"ReflectiveOperationException", "InstantiationException", "IllegalAccessException",
	"NoSuchFieldException", "NoSuchMethodException", "OutOfMemoryError", "StackOverflowError",
	"VirtualMachineError", "LinkageError", "NoClassDefFoundError", "NoSuchFieldError", "NoSuchMethodError",
	"AbstractMethodError", "IncompatibleClassChangeError", "IllegalAccessError", "InstantiationError",
	"VerifyError", "ClassFormatError", "ExceptionInInitializerError", "InternalError", "AssertionError",
	"UnsatisfiedLinkError", "ClassCircularityError", "TypeNotPresentException",
	"EnumConstantNotPresentException", "Override", "Deprecated", "SuppressWarnings", "FunctionalInterface",
	"SafeVarargs",
	"annotation/Annotation", "annotation/Retention", "annotation/RetentionPolicy", "annotation/Target",
	"annotation/ElementType", "annotation/Documented", "annotation/Inherited",
	// java.util
	"../util/Collection", "../util/List", "../util/Set", "../util/SortedMap", "../util/Map",
	"../util/Map$Entry", "../util/Queue", "../util/Deque", "../util/Iterator", "../util/ListIterator",
	"../util/Comparator", "../util/RandomAccess", "../util/AbstractCollection", "../util/AbstractList",
	"../util/AbstractSequentialList", "../util/AbstractSet", "../util/AbstractMap", "../util/ArrayList",
	"../util/LinkedList", "../util/Vector", "../util/Stack", "../util/ArrayDeque", "../util/HashMap",
	"../util/LinkedHashMap", "../util/HashSet", "../util/LinkedHashSet", "../util/TreeMap",
	"../util/TreeSet", "../util/Arrays", "../util/Collections", "../util/Objects", "../util/Random",
	"../util/NoSuchElementException", "../util/ConcurrentModificationException",
	"../util/EmptyStackException",
	// java.io
	"../io/Serializable", "../io/PrintStream", "../io/OutputStream", "../io/FilterOutputStream",
	"../io/FileOutputStream", "../io/FileDescriptor", "../io/IOException", "../io/Closeable",
	"../io/Flushable",
}

func readCore(t *testing.T) *dex.File {
	t.Helper()
	f, err := dex.Read(DEX())
	if err != nil {
		t.Fatalf("core.dex: %v", err)
	}
	return f
}

// descriptor turns a required entry (relative to java/lang) into a type
// descriptor.
func descriptor(name string) string {
	if rest, ok := strings.CutPrefix(name, "../"); ok {
		return "Ljava/" + rest + ";"
	}
	return "Ljava/lang/" + name + ";"
}

func TestRequiredClasses(t *testing.T) {
	f := readCore(t)
	have := map[string]bool{}
	for _, c := range f.ClassDefs {
		have[f.TypeName(c.Class)] = true
	}
	for _, name := range required {
		if d := descriptor(name); !have[d] {
			t.Errorf("core.dex lacks %s", d)
		}
	}
	if f.Header.Version > 37 {
		t.Errorf("core.dex is DEX version %03d; the library should need no newer format than 037", f.Header.Version)
	}
	t.Logf("%d classes, %d bytes", len(f.ClassDefs), len(DEX()))
}

// TestFields checks the instance fields the VM reads and writes by name.
func TestFields(t *testing.T) {
	f := readCore(t)
	want := map[string][]string{
		// String must have exactly these: the VM allocates literals itself.
		"Ljava/lang/String;":       {"value:[C", "hash:I"},
		"Ljava/lang/Class;":        {},
		"Ljava/lang/Enum;":         {"name:Ljava/lang/String;", "ordinal:I"},
		"Ljava/lang/Throwable;":    {"detailMessage:Ljava/lang/String;", "cause:Ljava/lang/Throwable;", "backtrace:Ljava/lang/Object;", "stackTrace:[Ljava/lang/StackTraceElement;"},
		"Ljava/lang/Thread;":       {"nativePeer:J", "name:Ljava/lang/String;", "daemon:Z", "priority:I", "target:Ljava/lang/Runnable;", "tid:J"},
		"Ljava/io/FileDescriptor;": {"fd:I"},
	}
	exact := map[string]bool{"Ljava/lang/String;": true, "Ljava/lang/Class;": true}
	for _, c := range f.ClassDefs {
		name := f.TypeName(c.Class)
		fields, ok := want[name]
		if !ok {
			continue
		}
		have := map[string]bool{}
		if c.Data != nil {
			for _, ef := range c.Data.InstanceFields {
				r := f.Fields[ef.Field]
				have[f.Str(r.Name)+":"+f.TypeName(r.Type)] = true
			}
		}
		for _, fd := range fields {
			if !have[fd] {
				t.Errorf("%s lacks instance field %s", name, fd)
			}
		}
		if exact[name] && len(have) != len(fields) {
			t.Errorf("%s has instance fields %v, want exactly %v", name, have, fields)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("class %s missing", name)
	}
}

// staticNatives are the entries of Natives that are static methods.
var staticNatives = regexp.MustCompile(`^Ldalvik/system/VMDebug;|^L(java/lang/(System|Math|Float|Double|Throwable|reflect/Array|reflect/VMReflection|reflect/Proxy);|java/io/(FileOutputStream|VMFiles);)|^Ljava/lang/Class;->forName|^Ljava/lang/ref/Reference;->waitForPending|^Ljava/lang/ref/FinalizerReference;|^Ljava/lang/Thread;->(currentThread|sleep|yield|getThreads0)`)

// TestNatives checks that the DEX declares exactly the native methods in
// Natives, with the right static-ness, so the Java side and the VM's
// registrations cannot drift apart.
func TestNatives(t *testing.T) {
	f := readCore(t)
	found := map[string]bool{}
	for _, c := range f.ClassDefs {
		if c.Data == nil {
			continue
		}
		for _, ms := range [][]dex.EncodedMethod{c.Data.DirectMethods, c.Data.VirtualMethods} {
			for _, m := range ms {
				if m.Access&dex.AccNative == 0 {
					continue
				}
				r := f.Methods[m.Method]
				sig := f.TypeName(r.Class) + "->" + f.Str(r.Name) + f.ProtoString(r.Proto)
				found[sig] = true
				if static := m.Access&dex.AccStatic != 0; static != staticNatives.MatchString(sig) {
					t.Errorf("%s: static=%v, contrary to the contract", sig, static)
				}
			}
		}
	}
	listed := map[string]bool{}
	for _, n := range Natives {
		if listed[n] {
			t.Errorf("Natives lists %s twice", n)
		}
		listed[n] = true
		if !found[n] {
			t.Errorf("Natives lists %s, which core.dex does not declare native", n)
		}
	}
	var extra []string
	for n := range found {
		if !listed[n] {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		t.Errorf("core.dex declares native %s, which is not in Natives", n)
	}
}

// TestFresh rebuilds core.dex from java/ and requires the committed file to
// be identical, so the sources and the DEX cannot drift apart. Run
// go generate in vm/core after changing the Java sources.
func TestFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the whole library")
	}
	out := filepath.Join(t.TempDir(), "core.dex")
	if err := build.Build(context.Background(), "java", out); err != nil {
		if errors.Is(err, javadex.ErrUnavailable) {
			testenv.SkipOrFail(t, "%v", err)
		}
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, DEX()) {
		t.Fatalf("core.dex is stale: rebuilding java/ gives %d bytes that differ from the committed %d; run go generate in vm/core", len(got), len(DEX()))
	}
}
