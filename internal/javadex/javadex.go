// Package javadex compiles Java sources to one DEX file with the JDK's javac
// and AOSP's dx 10, which Debian bullseye ships as package dalvik-exchange.
// The package is downloaded (not installed) on first use into the user cache
// directory, see debsrc.FetchBinary, and its jar is checked against DXJarSHA256.
package javadex

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/internal/debsrc"
)

// Where dx comes from: Debian release, binary package, path of the jar
// inside it.
const (
	DXSuite   = "bullseye"
	DXPackage = "dalvik-exchange" // 10.0.0+r36-1
	dxJarPath = "usr/share/java/com.android.dx-10.0.0.jar"
)

// DXJarSHA256 is the sha256 of com.android.dx-10.0.0.jar in
// dalvik-exchange 10.0.0+r36-1. A jar with another hash is refused, so a
// change on Debian's side shows up as an error instead of different DEX
// output.
const DXJarSHA256 = "33fa9ae74e3fec5472170bde4e69e96d1fa46408ea4e4c3b657d255ab9199ee5"

// ErrUnavailable means a tool is missing on this machine: javac or java
// (Debian package openjdk-17-jdk-headless), or the dx package could not be
// fetched (see debsrc.ErrUnavailable).
var ErrUnavailable = errors.New("Java to DEX compilation is not available here")

// Options describes one compilation.
type Options struct {
	// Sources are .java files, or directories searched recursively for
	// them.
	Sources []string
	// Classpath holds directories or jars the sources compile against;
	// they are not converted to DEX.
	Classpath []string
	// Bootclasspath replaces the JDK's class library (e.g. our own core
	// library). Then javac runs with -source 8 -target 8 -bootclasspath
	// instead of --release 8.
	Bootclasspath []string
	// Out is the DEX file to write.
	Out string
	// Classes, when set, is the directory javac writes the class files to,
	// which must not already hold classes (dx converts all of them). It is
	// left in place, e.g. to serve as the Bootclasspath or Classpath of a
	// later compilation. By default a temporary directory is used.
	Classes string
	// CoreLibrary passes --core-library to dx, which otherwise refuses
	// classes in java.* and javax.*.
	CoreLibrary bool
	// MinSDK, when positive, is passed as --min-sdk-version (26 or more is
	// needed for lambdas, which dx turns into invoke-custom).
	MinSDK int
}

// Tools returns the paths of javac and java, or an error wrapping
// ErrUnavailable.
func Tools() (javac, java string, err error) {
	if javac, err = exec.LookPath("javac"); err != nil {
		return "", "", fmt.Errorf("%w: javac not found (Debian package openjdk-17-jdk-headless): %v", ErrUnavailable, err)
	}
	if java, err = exec.LookPath("java"); err != nil {
		return "", "", fmt.Errorf("%w: java not found (Debian package openjdk-17-jdk-headless): %v", ErrUnavailable, err)
	}
	return javac, java, nil
}

// DXJar returns the path of the dx jar, downloading the package on first
// use and verifying its hash.
func DXJar() (string, error) {
	dir, err := debsrc.FetchBinary(DXSuite, DXPackage)
	if err != nil {
		if errors.Is(err, debsrc.ErrUnavailable) {
			return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		return "", err
	}
	jar := filepath.Join(dir, dxJarPath)
	data, err := os.ReadFile(jar)
	if err != nil {
		return "", fmt.Errorf("dx jar from %s (%s): %w", DXPackage, DXSuite, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != DXJarSHA256 {
		return "", fmt.Errorf("dx jar %s has sha256 %x, want %s: Debian's %s package changed; check the new jar and update javadex.DXJarSHA256", jar, sum, DXJarSHA256, DXPackage)
	}
	return jar, nil
}

// Compile compiles opt.Sources with javac and converts all the resulting
// classes to the single DEX file opt.Out with dx. Errors carry the failing
// tool's output.
func Compile(ctx context.Context, opt Options) error {
	if opt.Out == "" {
		return errors.New("javadex: no output file")
	}
	files, err := javaFiles(opt.Sources)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("javadex: no .java files in %v", opt.Sources)
	}
	javac, java, err := Tools()
	if err != nil {
		return err
	}
	jar, err := DXJar()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "javadex-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	classes := opt.Classes
	if classes == "" {
		classes = filepath.Join(work, "classes")
	}
	if err := os.MkdirAll(classes, 0o755); err != nil {
		return err
	}

	args := []string{"-encoding", "UTF-8", "-nowarn", "-Xlint:none", "-d", classes}
	if len(opt.Bootclasspath) > 0 {
		// --release cannot be combined with -bootclasspath; -source 8
		// warns that it is obsolete, which -Xlint:-options silences.
		args = append(args, "-source", "8", "-target", "8", "-Xlint:-options", "-bootclasspath", strings.Join(opt.Bootclasspath, string(os.PathListSeparator)))
	} else {
		args = append(args, "--release", "8")
	}
	if len(opt.Classpath) > 0 {
		args = append(args, "-classpath", strings.Join(opt.Classpath, string(os.PathListSeparator)))
	}
	// An argument file keeps long source lists off the command line.
	argfile := filepath.Join(work, "sources.txt")
	var list strings.Builder
	for _, f := range files {
		list.WriteString(strconv.Quote(f) + "\n")
	}
	if err := os.WriteFile(argfile, []byte(list.String()), 0o644); err != nil {
		return err
	}
	if out, err := run(ctx, javac, append(args, "@"+argfile)...); err != nil {
		return fmt.Errorf("javac: %v\n%s", err, out)
	}

	out, err := filepath.Abs(opt.Out)
	if err != nil {
		return err
	}
	dx := []string{"-jar", jar, "--dex"}
	if opt.CoreLibrary {
		dx = append(dx, "--core-library")
	}
	if opt.MinSDK > 0 {
		dx = append(dx, "--min-sdk-version="+strconv.Itoa(opt.MinSDK))
	}
	dx = append(dx, "--output="+out, classes)
	if out, err := run(ctx, java, dx...); err != nil {
		return fmt.Errorf("dx: %v\n%s", err, out)
	}
	return nil
}

// javaFiles expands directories in srcs to the .java files below them,
// in lexical order, so the DEX does not depend on directory order.
func javaFiles(srcs []string) ([]string, error) {
	var files []string
	for _, s := range srcs {
		st, err := os.Stat(s)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, s)
			continue
		}
		err = filepath.WalkDir(s, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".java") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	for i, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		files[i] = abs
	}
	return files, nil
}

func run(ctx context.Context, name string, args ...string) ([]byte, error) {
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.Bytes(), err
}
