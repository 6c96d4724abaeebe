//go:build !linux

package fingerprint

import (
	"errors"
	"fmt"
	"runtime"
)

// FSType reports the filesystem type and mount options of the filesystem
// holding dir. It is implemented on Linux only.
func FSType(dir string) (fstype, mountOptions string, err error) {
	return "", "", fmt.Errorf("filesystem type of %s: %w on %s", dir, errors.ErrUnsupported, runtime.GOOS)
}

func kernelRelease() string { return "" }
func cpuModel() string      { return "" }
func memoryBytes() int64    { return 0 }
