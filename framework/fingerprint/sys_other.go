//go:build !linux

package fingerprint

import (
	"errors"
	"fmt"
	"runtime"
)

func kernelRelease() string { return "" }
func cpuModel() string      { return "" }
func memoryBytes() int64    { return 0 }
