package core

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/droidprof/droidprof/internal/testenv"
)

// oracleSources are the core library classes the JVM oracle test exercises,
// relative to the source root java/.
var oracleSources = []string{
	"java/lang/Integer.java", "java/lang/Long.java", "java/lang/Short.java", "java/lang/Byte.java",
	"java/lang/Boolean.java", "java/lang/Character.java", "java/lang/Math.java", "java/lang/Float.java",
	"java/lang/Double.java", "java/lang/AbstractStringBuilder.java", "java/lang/StringBuilder.java",
	"java/lang/StringBuffer.java",
	"java/util/Random.java", "java/util/AbstractCollection.java", "java/util/AbstractList.java",
	"java/util/AbstractSequentialList.java", "java/util/AbstractSet.java", "java/util/AbstractMap.java",
	"java/util/AbstractQueue.java", "java/util/ArrayList.java", "java/util/LinkedList.java",
	"java/util/Vector.java", "java/util/ArrayDeque.java", "java/util/PriorityQueue.java",
	"java/util/HashMap.java", "java/util/LinkedHashMap.java", "java/util/HashSet.java",
	"java/util/LinkedHashSet.java", "java/util/TreeMap.java", "java/util/TreeSet.java",
	"java/util/Arrays.java", "java/util/Collections.java", "java/util/Objects.java",
	"java/util/Formatter.java", "java/util/Hashtable.java", "java/util/Dictionary.java",
	"java/util/regex/Pattern.java", "java/util/regex/Matcher.java", "java/util/regex/PatternSyntaxException.java",
}

// staticNative matches a static native method declaration.
var staticNative = regexp.MustCompile(`(?m)^(\s*)public static native (\w+) (\w+)\(([^)]*)\)( throws \w+)?;`)

// toOracle moves a core library source from java.X to coretest.X, where it
// runs on the JVM next to the JDK's own java.X. Classes of java.util that
// are not copied (interfaces, exceptions) then come from the JDK through an
// on-demand import, which same-package classes shadow. Static natives
// delegate to the JDK class of the same name, standing in for the VM.
func toOracle(t *testing.T, path, src string) string {
	pkg := strings.ReplaceAll(filepath.Dir(path), "/", ".") // java.lang, java.util, ...
	header := "package " + pkg + ";"
	if !strings.Contains(src, header) {
		t.Fatalf("%s does not declare %s", path, header)
	}
	repl := "package coretest" + strings.TrimPrefix(pkg, "java") + ";"
	if pkg == "java.util" {
		repl += "\n\nimport java.util.*;"
	}
	src = strings.Replace(src, header, repl, 1)
	// The builders search with String's package-private helpers, which the
	// JDK's String lacks.
	src = strings.ReplaceAll(src, "String.indexOf(value, count, str.toCharArray(), fromIndex)", "new String(value, 0, count).indexOf(str, fromIndex)")
	src = strings.ReplaceAll(src, "String.lastIndexOf(value, count, str.toCharArray(), fromIndex)", "new String(value, 0, count).lastIndexOf(str, fromIndex)")
	if strings.Contains(src, "String.indexOf(value") || strings.Contains(src, "String.lastIndexOf(value") {
		t.Fatalf("%s: a call of String's package-private search helpers changed; update toOracle", path)
	}
	class := pkg + "." + strings.TrimSuffix(filepath.Base(path), ".java")
	return staticNative.ReplaceAllStringFunc(src, func(decl string) string {
		m := staticNative.FindStringSubmatch(decl)
		var args []string
		for _, p := range strings.Split(m[4], ",") {
			if f := strings.Fields(p); len(f) == 2 {
				args = append(args, f[1])
			}
		}
		return m[1] + "public static " + m[2] + " " + m[3] + "(" + m[4] + ") {\n" +
			m[1] + "    return " + class + "." + m[3] + "(" + strings.Join(args, ", ") + ");\n" + m[1] + "}"
	})
}

// TestJVMOracle runs parts of the core library on the JVM and compares them
// with the JDK's classes: java.util.Random must give bit-identical
// sequences, HashMap the same iteration order as Java 8's, and number
// formatting, parsing, Math, sorting and the collections the same results.
func TestJVMOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and runs a JVM program")
	}
	javac := testenv.Tool(t, "javac", "openjdk-17-jdk-headless")
	java := testenv.Tool(t, "java", "openjdk-17-jdk-headless")
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	var files []string
	for _, rel := range oracleSources {
		data, err := os.ReadFile(filepath.Join("java", rel))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(src, "coretest", strings.TrimPrefix(rel, "java/"))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, []byte(toOracle(t, rel, string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, out)
	}
	driver, err := filepath.Abs("testdata/oracle/coretest/Oracle.java")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, driver)
	classes := filepath.Join(dir, "classes")
	cmd := exec.Command(javac, append([]string{"--release", "8", "-nowarn", "-Xlint:none", "-encoding", "UTF-8", "-d", classes}, files...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	cmd = exec.Command(java, "-cp", classes, "coretest.Oracle")
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		t.Log(line)
	}
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
}
