// Package testenv decides what tests do when something they need from the
// machine is missing: root, a tool, a kernel feature. On a laptop they skip
// and say why; in CI, which sets DROIDPROF_REQUIRE_PRIVILEGED=1 and installs
// everything, the same test fails instead, so a skip can never hide a gap.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Required reports whether skips must become failures (CI).
func Required() bool { return os.Getenv("DROIDPROF_REQUIRE_PRIVILEGED") == "1" }

// SkipOrFail skips t with the reason, or fails it when Required.
func SkipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if Required() {
		t.Fatalf("%s (required: DROIDPROF_REQUIRE_PRIVILEGED=1)", msg)
	}
	t.Skip(msg)
}

// Tool returns the path of an external program, or skips/fails naming the
// Debian package that provides it.
func Tool(t testing.TB, name, debianPackage string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		SkipOrFail(t, "%s is not installed (Debian package %s): %v", name, debianPackage, err)
	}
	return path
}
