package fdlibm

import (
	"os"
	"os/exec"
	"runtime"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestAgainstStrictMathFused reruns TestAgainstStrictMath in a build with
// GOAMD64=v3, where the compiler fuses x*y+z into one multiply-add the way
// it always does on arm64: a product left without its float64 conversion
// changes last bits there, and this is the only place amd64 sees it.
func TestAgainstStrictMathFused(t *testing.T) {
	if os.Getenv("GOAMD64") == "v3" {
		t.Skip("this build already fuses multiply-adds")
	}
	if testing.Short() {
		t.Skip("builds and runs the package again (-short)")
	}
	if runtime.GOARCH != "amd64" || !(cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasBMI2) {
		t.Skipf("GOAMD64=v3 binaries need an x86-64-v3 processor (this is %s)", runtime.GOARCH)
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build with GOAMD64=v3: %v", err)
	}
	cmd := exec.Command(gotool, "test", "-count=1", "-run", "^TestAgainstStrictMath$", ".")
	cmd.Env = append(os.Environ(), "GOAMD64=v3")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("GOAMD64=v3 go test: %v\n%s", err, out)
	}
}
